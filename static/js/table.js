// The page of a table with friends (/t/CODE): the lobby, then the game from the viewer's seat.
// One state object; views come from the push stream and from the answers to our requests.

import { DESIGNS, installSprite } from './cards.js';
import { stamp, turnClock } from './clock.js';
import { installCoach, lastFinishedRound } from './coach.js';
import { bindHands, handKey } from './hands.js';
import { LANGS, LANG_NAMES, browserLang, seatName, t } from './i18n.js';
import { tt } from './i18n-tables.js';
import { renderLobby, seatWords } from './lobby.js';
import { follow } from './push.js';
import { isOver, renderBoard } from './render.js';
import { place, seatAt, turnGame } from './seats.js';
import { actionWaits, cardChosen, dealAsked, serversFault, stillWanted } from './resend.js';
import { optionsFor } from './select.js';
import { personId } from './person.js';
import { isViewers, playText, showPlay } from './show.js';
import { cleanName, copyInvite, forgetSeat, isSeatKey, loadSeat, nameTooLong, saveSeat, tables } from './tables-api.js';

const STORE_PREFS = 'scopone.prefs';
const STORE_NAME = 'scopone.name';
const LAST_PLAYS = 6;

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The table's code, from the address. A malformed escape in it (`/t/%ZZ`, a link cut short
 * in a %-escape) threw here, and the page stayed 'loading' for ever, its script stopped (QA
 * helper-80): taken as written, it is a code no table has, and the page says so. */
function codeOf(path) {
  const raw = path.split('/')[2] || '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

const code = codeOf(location.pathname);

const state = {
  table: null, // the TableView as the server sent it to this viewer
  view: null, // its game turned for the board (seats.js), or null in the lobby
  mine: loadSeat(code), // {seat, token} while this browser holds a seat
  lostSeat: null, // the seat the host gave the computer while this browser held it
  sel: null,
  prefs: loadPrefs(),
  busy: false,
  behind: () => behind(), // a newer view is on its way to the screen (render.js, coach.js)
  summaryOpen: false,
  hiddenTable: new Set(),
  error: null,
  chosen: null, // the free seat picked in the lobby
  conn: 'connecting',
  missing: false, // no table at this code
  notice: '',
  missed: null, // a round or a match that ended while the page was away (noteMissed)
  backSent: false, // a request to be back is on its way
  thinking: null,
  seatLabel: (pos) => boardName(pos),
  plainName: (pos) => plainName(pos),
  pairNames: null,
  watching: false, // a spectator: no seat, no hand
  endedMatch: null, // the view a match ended on, once a rematch began (its last round's review)
};

function loadPrefs() {
  const defaults = { design: 'classic', speed: 'normal', lang: browserLang(navigator.languages || [navigator.language]) };
  try {
    return { ...defaults, ...JSON.parse(localStorage.getItem(STORE_PREFS) || '{}') };
  } catch {
    return defaults;
  }
}

function savePrefs() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(STORE_PREFS) || '{}');
  } catch {
    saved = {};
  }
  // The solo game's preferences live in the same place: only ours are written.
  const { design, speed, lang } = state.prefs;
  localStorage.setItem(STORE_PREFS, JSON.stringify({ ...saved, design, speed, lang }));
}

const tr = (key, params) => tt(state.prefs.lang, key, params);
const me = () => (state.table && state.table.you !== null ? state.table.you : 0);
const token = () => (state.mine ? state.mine.token : null);

/** A computer's name at board position `pos`. Two computers would read alike: where they sit
 * tells them apart. A player reads that from their own seat ("Computer – Partner"); a
 * spectator holds none, and reads the seat's number, as the lobby shows it ("Computer – Seat 2"). */
function computerName(pos) {
  const lang = state.prefs.lang;
  const where = state.table.you === null
    ? tr('seatLabel', { n: seatAt(pos, me()) + 1 })
    : seatName(lang, pos);
  return `${tr('computer')} – ${where}`;
}

/** The name shown at board position `pos`: the person's name and how they are. */
function boardName(pos) {
  const tv = state.table;
  if (!tv) return '';
  const s = tv.seats[seatAt(pos, me())];
  return s.kind === 'computer' ? computerName(pos) : seatWords(state.prefs.lang, tv, s);
}

/** Just the name at board position `pos` (the last plays, the review): a person's, else the
 * computer's as its seat shows it. */
function plainName(pos) {
  const s = state.table.seats[seatAt(pos, me())];
  return s.kind === 'person' ? s.name : computerName(pos);
}

// ----- views from the server ------------------------------------------------------------------

let pending = null; // the newest view not shown yet
let showing = false;
let newest = null; // the newest view received, shown or not

// A round's or the match's summary stays on screen at least this long before a new deal (or a
// rematch) that someone else asked for takes its place: a friend quick on "Next round" (or the
// host on "Rematch"), or a page faster than this one, closed it before this page had shown it
// (QA: 3 to 57 ms on a page at the normal speed, the winner of the match never seen).
const SUMMARY_MS = 3000;
let summarySince = 0; // when this page opened its summary (0: none open, or the person closed it)
let endHold = null; // ends the hold at once: the person closed the summary (or dealt) meanwhile

/** Whether `tv` is a new deal (a round, a match) over the summary this page shows. */
const dealtOver = (tv) => Boolean(state.summaryOpen && summarySince && state.view && tv.game
  && (tv.game.round_number !== state.view.round_number || tv.game.match !== state.view.match));

/** Whether the table shown is older than one received: while a play is shown the page holds
 * the view before it, and a card chosen on that would be sent at a version the server has left. */
function behind() {
  return Boolean(newest && state.table && newest.version > state.table.version);
}

/** Takes a TableView: never an older one; shown in order, a single new play animated. */
function receive(tv) {
  // A view for another viewer than this browser is now is late news from before a sit-down
  // or a leave (the stream follows the new viewer from its reconnection on).
  if ((tv.you === null) !== !state.mine) return;
  stamp(tv);
  const last = pending || state.table;
  if (last && tv.version < last.version) return;
  if (last && tv.version === last.version && tv.you === last.you) return;
  pending = tv;
  newest = tv;
  if (!showing) drain();
}

async function drain() {
  showing = true;
  try {
    while (pending) {
      if (dealtOver(pending)) {
        const left = SUMMARY_MS - (performance.now() - summarySince);
        if (left > 0) {
          await new Promise((resolve) => {
            const timer = setTimeout(resolve, left);
            endHold = () => { clearTimeout(timer); resolve(); };
          });
          endHold = null;
        }
      }
      const tv = pending;
      pending = null;
      const before = state.view;
      // A new seat, or a new phase (the start, a rematch), is a new scene taken at once; the
      // match's last card, which turns "playing" into "match_over", is a play like any other.
      const ended = state.table && state.table.phase === 'playing' && tv.phase === 'match_over';
      const seatChanged = !state.table || state.table.you !== tv.you
        || (state.table.phase !== tv.phase && !ended);
      const after = tv.game ? turnGame(tv.game, tv.you ?? 0, code) : null;
      const adopt = (view, openSummary = true) => take(tv, view, openSummary);
      if (before && after && !seatChanged && !pending && after.version !== before.version) {
        await showPlay(state, before, after, { adopt, paint });
      } else {
        adopt(after);
      }
    }
  } finally {
    showing = false;
    paint();
  }
}

function take(tv, view, openSummary = true) {
  const old = state.table;
  // The match a rematch ended, as its last view showed it: its final round stays reviewable
  // (R) while the new match has none over (the server keeps that round until then).
  const before = state.view;
  if (before && view && before.status === 'match_over' && view.match === before.match + 1) {
    state.endedMatch = before;
  }
  state.table = tv;
  if (!keepsChoice(state.sel, view)) state.sel = null;
  state.view = view;
  state.error = null;
  noteMissed(before, view, tv);
  if (waiting.action && !wanted(waiting.action)) waiting.drop(); // the game moved on
  const wasOpen = state.summaryOpen;
  state.summaryOpen = Boolean(view) && openSummary && isOver(view);
  if (!state.summaryOpen) summarySince = 0;
  else if (!wasOpen) summarySince = performance.now();
  // The first view of a page just opened (or reloaded): opening the page is being there.
  // Any later view is news from the server, not a sign of the person: it changes nothing.
  if (!old && tv.you !== null) comeBack();
  claimSeat();
  paint();
}

/** A round played to its end, and the next dealt, while this page was away (offline, asleep, its
 * tab in the background: a friend pressed Next round, the host Rematch, meanwhile): its
 * summary was never shown here, so how it went (or how the rounds missed went, together) is
 * said on the board until the person's first
 * card of the round they came back to (not the computer's for them while they were away; a
 * spectator: until that round ends). QA: they never learnt how it had gone. */
function noteMissed(before, view, tv) {
  let missed = null;
  if (before && view && view.match === before.match && view.round_number > before.round_number) {
    // Away for several rounds (a phone asleep while friends played on): all of them, not the
    // last one only. The page showed the end of its own round if it was on its summary.
    const shown = isOver(before) ? before.round_number : before.round_number - 1;
    const rounds = view.rounds.filter((r) => r.number > shown && r.number < view.round_number);
    if (rounds.length) missed = { rounds };
  } else if (before && view && before.status !== 'match_over' && view.match > before.match
      && view.last_match) {
    missed = { match: view.last_match }; // the round that ended it too: the match says more
  }
  if (missed) state.missed = { ...missed, at: `${view.match}:${view.round_number}` };
  else if (state.missed && (!view || isOver(view) || `${view.match}:${view.round_number}` !== state.missed.at
      || (tv.you !== null && view.history.some((p) => p.seat === 0 && !p.by_computer)))) {
    state.missed = null; // the computer's card for a person away is not theirs
  }
}

/** What the board says of a round or a match missed (`noteMissed`), the viewer's pair first
 * ("We" and "They"; a spectator's "Pair A" and "Pair B"). */
function missedText() {
  if (!state.missed) return '';
  const { rounds, match } = state.missed;
  if (match) {
    const who = state.pairNames ? tr('pairWon', { pair: match.winner })
      : tr(match.winner === 'A' ? 'weWon' : 'theyWon');
    return tr('missedMatch', { n: match.match, who, x: match.score[0], y: match.score[1] });
  }
  const pair = (p) => (state.pairNames ? state.pairNames[p] : t(state.prefs.lang, p === 0 ? 'pairA' : 'pairB'));
  // Each pair's points over the rounds missed (the match's score is in the bar).
  const x = rounds.reduce((sum, r) => sum + r.points[0], 0);
  const y = rounds.reduce((sum, r) => sum + r.points[1], 0);
  const first = rounds[0].number;
  const last = rounds[rounds.length - 1].number;
  return first === last ? tr('missedRound', { n: first, a: pair(0), x, b: pair(1), y })
    : tr('missedRounds', { first, last, a: pair(0), x, b: pair(1), y });
}

/** A card chosen and its capture still to confirm stays chosen while the new view offers the
 * same moves for it: someone connecting or leaving makes a new version of the table, not of
 * the game, and must not undo what this person began. */
function keepsChoice(sel, view) {
  if (!sel || !view || view.status !== 'your_turn') return false;
  return JSON.stringify(optionsFor(view.legal, sel.card)) === JSON.stringify(sel.options);
}

let claimed = '';
/** This person's statistics count the seat they hold: told once per seat and page. */
function claimSeat() {
  const tv = state.table;
  if (!tv || tv.you === null || !state.mine) return;
  const key = `${tv.you}:${token()}`;
  if (claimed === key) return;
  claimed = key;
  tables.person(code, token(), personId()).catch((err) => console.warn(err));
}

/** SPEC §6: a person the computer played for is away until they show they are there: an input
 * of theirs on the page (a key, a pointer or touch, a click; see `watchPresence`), a card of
 * their own (the server counts that itself), or their browser coming back (the page opened,
 * the stream open again after a disconnect, which includes the tab shown again: push.js
 * reconnects then). A view from the server is not such a sign, so it never calls this.
 *
 * Judged on the newest view the page has (shown or queued); `sure` (the browser came back,
 * the page's view may be from before) asks the server anyway: when the seat is not away its
 * answer is the table unchanged, at the same version (and the page's view may be the lobby
 * while the server is playing by now). Never from a hidden tab; one request at a time. */
function comeBack(sure = false) {
  const tv = pending || state.table;
  if (!tv || tv.you === null || !state.mine || state.backSent) return;
  if (!sure && !tv.seats[tv.you].away) return;
  if (document.visibilityState !== 'visible') return;
  state.backSent = true;
  tables.back(code, token())
    .then(receiveMaybe, () => {}) // a failure: the next sign of the person asks again
    .finally(() => { state.backSent = false; });
}

/** The person's own inputs anywhere on the page are signs that they are there: a key, or a
 * pointer of any kind (mouse, touch, pen). Listened to on the window in the capture phase,
 * before anything else (the coach's review keeps its keys from the page's other listeners),
 * and passively: nothing is changed or stopped here. */
function watchPresence() {
  const seen = () => comeBack();
  for (const type of ['keydown', 'pointerdown']) {
    window.addEventListener(type, seen, { capture: true, passive: true });
  }
}

function receiveMaybe(data) {
  if (data && typeof data === 'object' && Array.isArray(data.seats)) receive(data);
}

/** A failed request: a 409 carries the current table; anything else shows a retry. */
function failed(err) {
  if (err && err.status === 409 && err.game && Array.isArray(err.game.seats)) {
    receive(err.game);
    return;
  }
  if (err && err.status === 403 && state.mine) {
    forgetSeat(code, state.mine.token);
    state.lostSeat = state.mine.seat;
    state.mine = null;
    state.notice = tr('seatLost');
    stream.reconnect();
  }
  console.warn(err);
  state.error = err;
  paint();
}

// ----- actions ----------------------------------------------------------------------------------

async function playMove(move) {
  const tv = state.table;
  const chosenIn = state.view;
  if (!move || !canChoose()) return;
  state.sel = null;
  state.busy = true;
  paint();
  try {
    receive(await tables.move(code, token(), tv.version, move));
    waiting.drop();
  } catch (err) {
    if (serversFault(err)) waiting.later(cardChosen(move, chosenIn));
    else waiting.drop();
    failed(err);
  } finally {
    state.busy = false;
    paint();
  }
}

// The requests on their way, by name ('deal': next round or rematch; 'sit', 'start', 'leave'):
// pressed again before the server answered (a double click or tap, Enter held), each sent a
// second request, refused (409, 403) as the first had done it, and its person read that the
// seat was taken, or that they were not the host (QA helper-76, helper-77).
const onTheirWay = new Set();
const asked = (name) => onTheirWay.has(name);

/** Runs `fn` unless the request `name` is already on its way; its value, or undefined. */
async function once(name, fn) {
  if (asked(name)) return undefined;
  onTheirWay.add(name);
  try {
    return await fn();
  } finally {
    onTheirWay.delete(name);
  }
}

/** Whether `action` (resend.js) is still this person's to send: their seat still theirs, the
 * page still showing where they asked for it. */
function wanted(action) {
  return Boolean(state.mine) && stillWanted(state.view, action);
}

// The card, or the summary's deal, the server could not take, sent again by itself
// (resend.js) on the newest version this page has: a presence change meanwhile does not make
// it stale, a card played or a deal does (a friend's next round, the host's rematch).
const waiting = actionWaits((action) => {
  if (!wanted(action)) {
    waiting.drop();
    paint();
    return true;
  }
  if (action.kind === 'card') {
    if (!canChoose()) return false;
    playMove(action.move);
  } else {
    // A deal on its way, or a newer view to show first: a friend's deal held behind the
    // summary (drain) is shown, and drops this one, rather than cut short.
    if (asked('deal') || behind()) return false;
    summaryAction();
  }
  return true;
});
state.waits = waiting;

function canChoose() {
  return Boolean(state.view) && state.view.status === 'your_turn' && !state.busy && !behind()
    && Boolean(state.mine);
}

async function act(fn) {
  try {
    receiveMaybe(await fn());
  } catch (err) {
    failed(err);
  }
}

/** The host changes who holds `seat` (`call(version)`: to the computer, or open to people in
 * the lobby). Cards played meanwhile do not make the page's version stale, a change of the
 * seats does (someone came back or sat down, another seat handed over): that 409 carries the
 * table as it is, and while the seat is still held as the host saw it (the same person, or
 * the computer) the same wish is sent once more on that version. */
async function changeSeat(seat, call) {
  const seen = state.table.seats[seat];
  try {
    receiveMaybe(await call(state.table.version));
  } catch (err) {
    const now = err && err.status === 409 && err.game && Array.isArray(err.game.seats) ? err.game : null;
    const still = now && now.seats[seat].kind === seen.kind && now.seats[seat].name === seen.name;
    if (still) {
      receive(now);
      await act(() => call(now.version));
      return;
    }
    failed(err);
  }
}

/** Whether a click on a host's seat control is the second (or later) click of a double-click.
 * The first one's answer, quick, redraws the controls before the second comes: the next
 * person's "Give … to the computer" moves into the place of the one pressed (the match's host
 * panel), "Open seat" takes the place of "Give … to the computer" (the lobby). The second
 * click pressed that one: two people's seats handed over, or a seat given and opened again, for
 * one double-click (QA helper-77). Never a second press: each of these wants a click of its
 * own (a keyboard's press has detail 0). */
const repeatClick = (event) => event.detail > 1;

const handToComputer = (seat) => changeSeat(seat, (v) => tables.toComputer(code, token(), seat, v));
const openSeat = (seat) => changeSeat(seat, (v) => tables.openSeat(code, token(), seat, v));

async function sitDown(event) {
  event.preventDefault();
  const name = cleanName($('sit-name').value);
  const seat = state.chosen;
  if (seat === null || asked('sit')) return;
  if (!name) {
    state.notice = tr('badName');
    paint();
    return;
  }
  localStorage.setItem(STORE_NAME, name);
  await once('sit', async () => {
    try {
      const res = await tables.sit(code, seat, name);
      saveSeat(code, res.seat, res.token);
      state.mine = { seat: res.seat, token: res.token };
      state.chosen = null;
      state.notice = '';
      receive(res.table);
      stream.reconnect(); // the stream now follows the seat, with its hand
    } catch (err) {
      if (err.status === 422) state.notice = tr('badName');
      else if (err.status === 409) {
        state.notice = tr('taken');
        state.chosen = null;
      } else failed(err);
      paint();
    }
  });
}

function summaryAction() {
  const view = state.view;
  const tv = state.table;
  if (!view || !tv || !state.mine || asked('deal')) return;
  summarySince = 0; // the person closes it: the deal they ask for is shown at once
  if (endHold) {
    endHold(); // a friend dealt first: theirs is shown now, and asking again would be refused
    return;
  }
  if (view.status === 'round_over') deal(view, () => tables.nextRound(code, token(), tv.version));
  else if (view.status === 'match_over' && tv.you === tv.host) deal(view, () => tables.rematch(code, token(), tv.version));
}

/** Asks for the deal after the summary of `view` (`call`): by the server's fault it waits and
 * goes by itself (resend.js), as a card does; a refusal (a 409: someone dealt first) drops it. */
async function deal(view, call) {
  await once('deal', async () => {
    try {
      receiveMaybe(await call());
      waiting.drop(); // dealt: the view is on its way to the screen
    } catch (err) {
      if (serversFault(err)) waiting.later(dealAsked(view));
      else waiting.drop();
      failed(err);
    }
  });
  paint();
}

watchPresence(); // before the coach's listeners, so that none of them can hide an input

// ----- the coach (SPEC §7): the viewer's own seat, through the table's routes ----------------------

/** A seated person at a table that is playing (a spectator has no coach). */
const seated = () => Boolean(state.mine) && Boolean(state.table) && state.table.you !== null
  && state.table.phase !== 'lobby' && Boolean(state.view);
/** A 409 from the coach carries the table as this seat sees it: catch up from it. */
const catchUp = (err) => {
  if (err && err.status === 409 && err.game && Array.isArray(err.game.seats)) receive(err.game);
  throw err;
};

const coachUi = installCoach(() => state, {
  api: {
    hint: () => tables.hint(code, token(), state.table.version).catch(catchUp),
    cardsSeen: () => tables.cardsSeen(code, token()).catch(catchUp),
    review: (view, round) => tables.review(code, token(), round, view.match).catch(catchUp),
  },
  // The hint and the cards seen only where the host allowed hints; a review is everyone's own.
  allows: {
    hint: () => seated() && state.table.options.hints,
    seen: () => seated() && state.table.options.hints,
    review: seated,
  },
  // A hint holds while the game has not moved on (a mere presence change keeps it).
  positionOf: (view) => `${view.round_number}:${view.history.length}:${view.hand.join()}`,
  reviewed: (view) => (view && lastFinishedRound(view) < 1 && state.endedMatch
    && state.endedMatch.match === view.match - 1 ? state.endedMatch : view),
  // The review names table seats; the board names them from the viewer's seat.
  seatLabel: (lang, seat) => (seat === me() ? seatName(lang, 0) : plainName(place(seat, me()))),
});

// ----- drawing ------------------------------------------------------------------------------------

const renderClock = turnClock({
  table: () => (state.table && state.table.phase !== 'lobby' && state.view ? state.table : null),
  tr,
  say: (text) => { $('announce').textContent = text; },
});

function paint() {
  paintTable();
  coachUi.afterRender();
  renderClock(); // after the coach: it writes the person's clock into an open review too
}

function paintTable() {
  const tv = state.table;
  const lang = state.prefs.lang;
  document.documentElement.lang = lang;
  // The keys H and C work only where the host allowed hints: only there does the help name them.
  $('keys-help').dataset.i18n = tv && tv.options.hints ? 'keysHelpTableHints' : 'keysHelpTable';
  for (const el of document.querySelectorAll('[data-i18n]')) {
    const text = tr(el.dataset.i18n);
    if (el.textContent !== text) el.textContent = text;
  }
  fillLang();
  $('btn-design').textContent = `${t(lang, 'design')}: ${t(lang, state.prefs.design)}`;
  $('connection').textContent = state.missing ? '' : tr({ open: 'connected', connecting: 'connecting', retrying: 'reconnecting' }[state.conn]);
  document.body.dataset.connection = state.conn;
  document.body.dataset.design = state.prefs.design;
  document.body.dataset.speed = state.prefs.speed;
  document.body.dataset.version = tv ? String(tv.version) : '0';
  document.body.dataset.phase = state.missing ? 'missing' : (tv ? tv.phase : 'loading');
  document.body.dataset.seat = tv && tv.you !== null ? String(tv.you) : '';
  const playing = Boolean(tv) && tv.phase !== 'lobby' && Boolean(state.view);
  // The tab says when its person is to play: a friends' table waited for in a tab behind
  // another said "Table" in every phase, and only the page itself told that it was their turn.
  const toPlay = playing && Boolean(state.mine) && state.view.status === 'your_turn';
  const title = `${t(lang, 'title')} · ${tr('lobbyTitle')}`;
  document.title = toPlay ? `${tr('titleTurn')} · ${title}` : title;
  // The board comes in place of the lobby at the top of the page: the lobby, taller on a
  // phone on its side, left the page scrolled past the bar and the score (63 px at 568 x 320).
  if (playing && $('board').hidden) window.scrollTo(0, 0);
  $('lobby').hidden = !tv || playing;
  $('board').hidden = !playing;
  $('side').hidden = !playing;
  $('keys-help').hidden = !playing || !state.mine;
  if (state.missing) {
    $('lobby').hidden = false;
    $('lobby-note').textContent = tr('noTable');
    $('sit-form').hidden = true;
    return;
  }
  if (!tv) return;
  if (!playing) {
    renderLobby(lang, tv, state.chosen);
    const notice = noticeOn(tv);
    if (notice) $('lobby-note').textContent = notice;
    // The board's error notice is hidden with the board: a failed sit-down or start says so
    // here, and the button tried again is the retry.
    if (state.error) $('lobby-note').textContent = t(lang, 'error');
    $('invite-link').value = `${location.origin}/t/${code}`;
    document.body.dataset.status = 'lobby';
    return;
  }
  // A spectator sees pairs A and B; a player sees "We" and "They".
  state.watching = tv.you === null;
  state.pairNames = state.watching ? ['A', 'B'].map((p) => tr('pairOf', { pair: p })) : null;
  $('hand').setAttribute('aria-label', t(lang, 'hand'));
  $('table').setAttribute('aria-label', t(lang, 'table'));
  renderScore(tv);
  renderBoard(state);
  markSeats(tv);
  renderSummaryExtras(tv);
  renderLastPlays();
  renderHost(tv);
  // The lobby's note is hidden with the lobby: a seat lost during the match is said here.
  const note = noticeOn(tv) || missedText();
  $('board-note').hidden = !note;
  $('board-note').textContent = note;
  speakTurn();
  document.body.dataset.status = state.view.status;
}

/** The notice to show on view `tv`. "The host gave your seat to the computer: you are
 * watching" is said once a view as a spectator shows that seat the computer's. A token refused
 * says only that the seat is no longer this browser's: the person may have left it in another
 * tab (or just now in this one), and the page said the host had given it away until the lobby
 * came (QA helper-77). It holds until the host opens that seat again: then it is a lobby to
 * sit down in (QA: the note stayed). */
function noticeOn(tv) {
  if (state.notice !== tr('seatLost')) return state.notice;
  if (tv.you !== null) return ''; // still the view of the seat held: the news is on its way
  if (tv.seats[state.lostSeat]?.kind !== 'computer') state.notice = '';
  return state.notice;
}

function fillLang() {
  const select = $('set-lang');
  const html = LANGS.map((l) => `<option value="${l}">${esc(LANG_NAMES[l])}</option>`).join('');
  if (select.dataset.html !== html) {
    select.innerHTML = html;
    select.dataset.html = html;
  }
  if (select !== document.activeElement) select.value = state.prefs.lang;
}

function renderScore(tv) {
  const view = state.view;
  const names = state.pairNames || [t(state.prefs.lang, 'pairA'), t(state.prefs.lang, 'pairB')];
  $('score').innerHTML = `<span class="pair-a">${esc(names[0])} <b id="score-a">${view.score[0]}</b></span>
    <span class="dash">–</span>
    <span class="pair-b"><b id="score-b">${view.score[1]}</b> ${esc(names[1])}</span>
    <span class="target">${esc(t(state.prefs.lang, 'target', { n: tv.options.rules.target }))}</span>`;
}

/** Who is a person, a computer, away or offline: classes on the seats, seen at a glance. */
function markSeats(tv) {
  for (let pos = 0; pos < 4; pos += 1) {
    const s = tv.seats[seatAt(pos, me())];
    const box = $(`seat-${pos}`);
    box.dataset.kind = s.kind;
    box.dataset.seat = String(s.seat);
    box.classList.toggle('away', Boolean(s.away));
    box.classList.toggle('offline', s.kind === 'person' && !s.connected && !s.away);
  }
}

function renderSummaryExtras(tv) {
  const go = $('summary-go');
  if (!go || $('summary').hidden) return;
  const view = state.view;
  const host = tv.you !== null && tv.you === tv.host;
  if (view.status === 'match_over') {
    go.textContent = tr('rematch');
    go.hidden = !host;
    const winner = $('winner');
    if (winner && tv.you === null) winner.textContent = tr('pairWins', { pair: tv.game.winner });
    let wait = $('summary-wait');
    if (!host && !wait) {
      wait = document.createElement('p');
      wait.id = 'summary-wait';
      go.after(wait);
    }
    if (wait) wait.textContent = host ? '' : tr('waitRematch');
  } else {
    go.hidden = !state.mine;
  }
}

function renderLastPlays() {
  const view = state.view;
  const plays = view.history.slice(-LAST_PLAYS).reverse();
  // Newest first, each numbered by its place in the round (a list numbered 1 from the newest
  // read as if it came first: QA). The viewer's own plays in the second person, as a screen
  // reader hears them (show.js): "Anna plays" read as if Anna were someone else.
  const n = view.history.length;
  const html = plays.length
    ? plays.map((p, i) => `<li value="${n - i}" data-seat="${p.seat}"${p.by_computer ? ' class="by-computer"' : ''}>${esc(playText(state, p, isViewers(state, p)))}</li>`).join('')
    : `<li class="none">${esc(tr('noPlays'))}</li>`;
  const list = $('last-list');
  if (list.dataset.html !== html) {
    list.innerHTML = html;
    list.dataset.html = html;
  }
  list.dataset.count = String(view.history.length);
}

function renderHost(tv) {
  const host = tv.you !== null && tv.you === tv.host;
  const people = host ? tv.seats.filter((s) => s.kind === 'person' && s.seat !== tv.you) : [];
  $('host-panel').hidden = people.length === 0;
  if (!people.length) return;
  const html = people.map((s) => `<button type="button" class="to-computer" data-seat="${s.seat}">${esc(tr('toComputer', { name: s.name }))}</button>`).join('');
  const box = $('host-seats');
  if (box.dataset.html !== html) {
    box.innerHTML = html;
    box.dataset.html = html;
  }
}

let spoken = '';
/** The live region says whose turn it is, once per turn. */
function speakTurn() {
  const view = state.view;
  if (!view || isOver(view)) return;
  // Said again in a language just chosen (the switch's own news: QA helper-58).
  const key = `${state.prefs.lang}:${view.round_number}:${view.history.length}:${view.turn}`;
  if (key === spoken) return;
  spoken = key;
  const text = view.status === 'your_turn'
    ? tr('yourTurnTable', { name: state.table.seats[state.table.you].name })
    : tr('turnOf', { name: boardName(view.turn) });
  $('turn-live').textContent = text;
}

// ----- input --------------------------------------------------------------------------------------

const hands = { canChoose, playMove, paint };

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const tag = event.target && event.target.tagName;
  if (tag === 'SELECT' || tag === 'INPUT' || tag === 'TEXTAREA') return;
  // A key held down repeats: Enter held on the round's last card dealt the next round (or the
  // host's rematch) before anyone had read the summary, D went round the designs (QA
  // helper-76). They act once per press, as on the game page (main.js).
  if (event.repeat && (event.key === 'Enter' || event.key === 'd' || event.key === 'D')) {
    if (event.key === 'Enter') event.preventDefault();
    return;
  }
  if (state.summaryOpen && event.key === 'Enter' && !$('summary').hidden) {
    event.preventDefault();
    summaryAction();
    return;
  }
  if (event.key === 'd' || event.key === 'D') cycleDesign();
  else if (state.view) handKey(state, hands, event);
}

function cycleDesign() {
  state.prefs.design = DESIGNS[(DESIGNS.indexOf(state.prefs.design) + 1) % DESIGNS.length];
  savePrefs();
  paint();
}

function bind() {
  bindHands(state, hands);
  document.addEventListener('keydown', onKey);
  $('btn-design').addEventListener('click', cycleDesign);
  $('set-lang').addEventListener('change', (e) => {
    state.prefs.lang = e.target.value;
    savePrefs();
    // What a screen reader last heard was in the old language: the turn is said again in
    // the new one (speakTurn, #turn-live); the last play's words, in the old, go.
    $('announce').textContent = '';
    paint();
  });
  $('lobby-table').addEventListener('click', (event) => {
    const open = event.target.closest('button.open-seat');
    if (open) {
      if (!repeatClick(event)) openSeat(Number(open.dataset.seat));
      return;
    }
    const give = event.target.closest('button.to-computer');
    if (give) {
      if (!repeatClick(event)) handToComputer(Number(give.dataset.seat));
      return;
    }
    const button = event.target.closest('button.take');
    if (!button) return;
    state.chosen = Number(button.dataset.seat);
    state.notice = '';
    paint();
    const input = $('sit-name');
    if (!input.value) input.value = localStorage.getItem(STORE_NAME) || '';
    input.focus();
  });
  $('sit-form').addEventListener('submit', sitDown);
  // A name too long is said at once (no maxlength: it counts an emoji twice), and unsaid as
  // soon as it fits again.
  $('sit-name').addEventListener('input', () => {
    const long = nameTooLong($('sit-name').value);
    if (long === (state.notice === tr('badName'))) return;
    state.notice = long ? tr('badName') : '';
    paint();
  });
  // Start and Leave act once until the server answers (once).
  $('btn-start').addEventListener('click', () => once('start', () => act(() => tables.start(code, token(), state.table.version))));
  $('btn-leave').addEventListener('click', async () => {
    const held = state.mine;
    const seat = held && held.seat;
    if (seat === null || seat === undefined) return;
    const left = await once('leave', async () => {
      try {
        await tables.leave(code, seat, held.token);
      } catch (err) {
        if (err.status !== 403 && err.status !== 404) {
          failed(err);
          return false;
        }
      }
      return true;
    });
    if (!left) return;
    forgetSeat(code, held.token);
    state.mine = null;
    stream.reconnect();
  });
  $('btn-copy').addEventListener('click', () => copyInvite($('invite-link'), $('btn-copy'), tr('copy'), tr('copied')));
  $('host-seats').addEventListener('click', (event) => {
    const button = event.target.closest('button.to-computer');
    if (!button || repeatClick(event)) return;
    handToComputer(Number(button.dataset.seat));
  });
  $('summary').addEventListener('click', (event) => {
    if (event.target.closest('#summary-go')) summaryAction();
  });
  $('btn-cancel').addEventListener('click', () => {
    state.sel = null;
    paint();
  });
  $('error-retry').addEventListener('click', () => {
    state.error = null;
    stream.reconnect();
    waiting.now();
    paint();
  });
}

// ----- the push stream ------------------------------------------------------------------------------

/** The stream open again: what waits goes now, but on the table as it is now. The stream says
 * "open" before its catch-up view comes, and a deal a friend made while this page was away
 * (offline, asleep) must drop this page's deal unsent, not meet a 409 (QA helper-73): the table is
 * read first. Read or not, what is still wanted then goes. */
function sendWaitingCaughtUp() {
  if (!waiting.action) return;
  tables.get(code, token()).then(receiveMaybe, () => {}).finally(() => waiting.now());
}

/** Another tab of this browser sat down at this table (`storage` fires in every other tab):
 * the seat is this browser's, so this tab is that person too, as a reload would make it. It
 * stayed a stranger's lobby, offering a second seat, then a spectator's table with no hand all
 * match (QA helper-77). The stream follows the seat from now on; the table is read at once as
 * the seat sees it (the stream resumes after the version it showed as a spectator, so it
 * would bring the seat's view only with the next change). A seat forgotten there (left, or
 * lost) is this tab's to learn from the server: its stream is refused then. */
function otherTabsSeat(event) {
  if (isSeatKey(event.key, code)) takeSavedSeat();
}

function takeSavedSeat() {
  const saved = loadSeat(code);
  if (!saved || (state.mine && state.mine.token === saved.token)) return;
  state.mine = saved;
  state.lostSeat = null;
  state.chosen = null;
  state.notice = '';
  stream.reconnect();
  tables.get(code, saved.token).then(receiveMaybe, () => {});
  paint();
}

/** The page restored by Back or Forward from the browser's back-forward cache: no load, so what
 * a load reads was as the page was left. The language (the cards, the pace) chosen since on
 * the game page showed the table in the old one until a reload (QA helper-80), and a seat
 * taken here since in the page opened again at this link went unseen: no `storage` event
 * reaches a page kept in the cache (otherTabsSeat). */
function shownAgain(event) {
  if (!event.persisted) return;
  const { design, speed, lang } = loadPrefs();
  // The last play's words, in the old language, go (as on a change of the language here).
  if (lang !== state.prefs.lang) $('announce').textContent = '';
  state.prefs = { ...state.prefs, design, speed, lang };
  takeSavedSeat();
  paint();
}

installSprite();
bind();
paint();
window.addEventListener('storage', otherTabsSeat);
window.addEventListener('pageshow', shownAgain);

const stream = follow(tables.events(code), {
  token,
  onEvent(ev) {
    if (ev.event !== 'table') return;
    try {
      receive(JSON.parse(ev.data));
    } catch (err) {
      console.warn('a table event that is not JSON', err);
    }
  },
  onState(conn) {
    const wasOpen = state.conn === 'open';
    state.conn = conn;
    // Open again after a disconnect, or after the tab was hidden: the browser is back, and
    // so is the server: a card that waits goes now, not when its backoff ends (up to 15 s).
    if (conn === 'open' && !wasOpen) {
      comeBack(true);
      sendWaitingCaughtUp();
    }
    paint();
  },
  onRefused(status) {
    if (status === 403 && state.mine) {
      // The token is no longer a seat here (handed to the computer): watch as a spectator.
      forgetSeat(code, state.mine.token);
      state.lostSeat = state.mine.seat;
      state.mine = null;
      state.notice = tr('seatLost');
      return true;
    }
    state.missing = status === 404;
    state.conn = 'open';
    paint();
    return false;
  },
});
