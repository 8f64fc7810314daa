// The page: one state object, one render, input handlers that only call small functions.

import { ApiError, api } from './api.js';
import { DESIGNS, installSprite } from './cards.js';
import { installCoach } from './coach.js';
import { labelFriends, openFriends } from './friends.js';
import { bindHands, handKey } from './hands.js';
import { LANGS, browserLang } from './i18n.js';
import { focusControl, installMenu } from './menu.js';
import { follow } from './push.js';
import { LEVELS, isOver, render, renderNow as paint } from './render.js';
import { announceRound, showPlay as show } from './show.js';
import { actionWaits, cardChosen, dealAsked, serversFault, stillWanted } from './resend.js';
import { rulesUrl, syncSite, takeLangFromUrl } from './site.js';

const STORE_GAME = 'scopone.game';
const STORE_PREFS = 'scopone.prefs';
// This tab's way back to a match a new one replaced (state.leftMatch), and the match it is
// offered in: a reload (F5, a phone's browser reloading a tab it put to sleep) forgot it, and
// with it the match under way that N pressed by mistake had replaced.
const STORE_LEFT = 'scopone.leftMatch';

const $ = (id) => document.getElementById(id);

const state = {
  view: null, // the GameView as the server sent it
  sel: null, // the card being played and its open options (select.js)
  prefs: loadPrefs(),
  busy: false, // seat 0's move is on its way
  behind: () => behind(), // a newer view is on its way to the screen (render.js, coach.js)
  thinking: null, // the computer seat that is deciding (the server plays it: followGame)
  summaryOpen: false,
  leftMatch: keptLeft(), // the id of a match under way that a new one replaced (backToMatch)
  settingsOpen: false,
  hiddenTable: new Set(), // table cards kept invisible while a flying copy lands on them
  error: null,
};

// ----- preferences and storage ----------------------------------------------------------------

/** The way back kept before a reload, when it was offered in the game this page resumes. */
function keptLeft() {
  try {
    const { id, from } = JSON.parse(sessionStorage.getItem(STORE_LEFT) || 'null') || {};
    return id && from === localStorage.getItem(STORE_GAME) ? id : null;
  } catch {
    return null;
  }
}

/** Keeps the way back offered now (none: forgotten), once a game is shown. */
function keepLeft() {
  if (!state.view) return;
  try {
    if (state.leftMatch) {
      sessionStorage.setItem(STORE_LEFT, JSON.stringify({ id: state.leftMatch, from: state.view.id }));
    } else sessionStorage.removeItem(STORE_LEFT);
  } catch {
    // Storage refused: a reload forgets the way back, as it always did.
  }
}

function loadPrefs() {
  const defaults = {
    level: 'normal', napola: false, variant: 'scientifico', target: 11,
    design: 'classic', speed: 'normal', lang: browserLang(navigator.languages || [navigator.language]),
  };
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_PREFS) || '{}');
    const asked = takeLangFromUrl(LANGS); // a language link of the rule pages
    return { ...defaults, ...saved, ...(asked ? { lang: asked } : {}) };
  } catch {
    return defaults;
  }
}

/** Stores this page's preferences `keys` (all when none is named) over those stored. Another
 * tab may have changed the others since this page read them: every view a page took wrote all
 * of its own, and a language (design, speed) chosen in one tab went back to the old one as soon
 * as the other tab of the game took a view, for the next visit too (QA helper-76). */
function savePrefs(...keys) {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(STORE_PREFS) || '{}');
  } catch {
    saved = {};
  }
  const mine = keys.length ? Object.fromEntries(keys.map((k) => [k, state.prefs[k]])) : state.prefs;
  localStorage.setItem(STORE_PREFS, JSON.stringify({ ...saved, ...mine }));
}

// The coach (hint, cards seen, review) draws its part after each render of the game.
const coachUi = installCoach(() => state);
const renderNow = () => {
  keepLeft();
  paint(state);
  labelFriends(state.prefs.lang);
  coachUi.afterRender();
};

// ----- showing a play ----------------------------------------------------------------------

/** Shows the move that turned `before` into `after` (show.js). */
const showPlay = (before, after) => show(state, before, after, { adopt, paint: renderNow });

// ----- talking to the server ------------------------------------------------------------------

// Requests that change a game go one at a time, so a level change never races this page's card.
let chain = Promise.resolve();
function serial(fn) {
  const result = chain.then(fn, fn);
  chain = result.catch(() => undefined);
  return result;
}

/** Between this page put in the back-forward cache (pagehide) and the game stored meanwhile
 * shown (shownAgain, resume): a view of the page's own game that comes first (its stream
 * reconnecting, the page shown again: both may come before `pageshow`) is not taken, nor made
 * the stored game over the one played since. (It was, in 2 runs of 11 of the test of Back.) */
let restoring = false;

/**
 * Takes a view from the server as the truth: never an older one of the same game, and never
 * one of another game (a late answer about a match already left) unless `switching`.
 */
function adopt(view, openSummary = true, switching = false) {
  const old = state.view;
  if (old && view.id === old.id && view.version < old.version) return;
  if (old && view.id !== old.id && !switching) return;
  if (switching) restoring = false;
  else if (restoring && localStorage.getItem(STORE_GAME) !== view.id) return;
  state.view = view;
  if (waiting.action && !stillWanted(view, waiting.action)) waiting.drop(); // the game moved on
  // A computer's turn: the server is deciding its card (render.js shows who), until it comes.
  state.thinking = view.status === 'computer_turn' ? view.turn : null;
  // An answer is news of the game, not of the stream: a stream still down stays said.
  if (state.error !== STREAM_LOST) state.error = null;
  retry.delay = RETRY_FIRST;
  if (!old || old.id !== view.id || old.version !== view.version) state.sel = null;
  state.summaryOpen = openSummary && isOver(view);
  state.prefs.level = view.level;
  state.prefs.napola = view.rules.napola;
  state.prefs.variant = view.rules.variant;
  state.prefs.target = view.rules.target;
  savePrefs('level', 'napola', 'variant', 'target'); // the game's rules, for the next match
  localStorage.setItem(STORE_GAME, view.id);
  renderNow();
  followGame();
}

/** Handles a failed request: a 409 carries the current game, anything else shows a retry. */
function failed(err) {
  if (err && err.status === 409 && err.game) {
    adopt(err.game);
    return;
  }
  console.error(err);
  state.error = err;
  renderNow();
  retryLater(err);
}

// A network that dropped, or a server restarting, is retried by itself (the Retry button does
// the same at once): sooner at first, then every 15 s at most, and at once when the browser is
// back online. A refusal (4xx) would only be refused again: it waits for the person.
const RETRY_FIRST = 1000;
const RETRY_MOST = 15000;
const retry = { timer: null, delay: RETRY_FIRST };

function retryLater(err) {
  const passing = !(err instanceof ApiError) || err.status >= 500;
  if (!passing || retry.timer) return;
  retry.timer = setTimeout(() => {
    retry.timer = null;
    if (state.error) resume();
  }, retry.delay);
  retry.delay = Math.min(retry.delay * 2, RETRY_MOST);
}

// ----- the game's events -----------------------------------------------------------------------

// SPEC §6: the computers' cards are played by the server, never by this page. While the page
// follows its game's event stream (push.js: it reconnects and resumes by itself) the server
// plays them at the pace of the speed setting, and every change arrives here, in order.
const STREAM_LOST = { stream: true }; // state.error while the stream is reconnecting
let stream = null;
let followed = ''; // the game and speed the stream is for

function followGame() {
  const view = state.view;
  // A speed the server does not know (an old page's preferences) would stop the stream.
  const speed = state.prefs.speed === 'fast' ? 'fast' : 'normal';
  const key = view ? `${view.id}:${speed}` : '';
  if (key === followed) return;
  if (stream) stream.close();
  stream = null;
  followed = key;
  if (!view) return;
  stream = follow(api.events(view.id, speed), {
    token: () => null,
    onEvent(ev) {
      if (ev.event !== 'game') return;
      try {
        receive(JSON.parse(ev.data));
      } catch (err) {
        console.warn('a game event that is not JSON', err);
      }
    },
    onState(conn) {
      if (conn === 'retrying' && !state.error) state.error = STREAM_LOST;
      else if (conn === 'open' && state.error === STREAM_LOST) state.error = null;
      renderNow();
      // The stream open again: the server is back, and what waits goes now, not when its
      // backoff ends (up to 15 s), on the game as it is now.
      if (conn === 'open') sendWaitingCaughtUp();
    },
    onRefused(status) {
      // 404: the game is gone (finished long ago and swept): a new one, as on a fresh visit.
      followed = '';
      stream = null;
      if (status === 404) newMatch();
      return false;
    },
  });
}

// Views waiting to be shown, oldest first: each of the server's cards is shown in turn, the
// page a little behind the server at most; far behind (a tab that slept), it catches up at once.
const queue = [];
const CATCH_UP = 3;
let showing = false;
let newest = null; // the newest view received, shown or not

/** Whether the view shown is older than one received: while a play is shown the page holds the
 * view before it, and a card chosen on that would be sent at a version the server has left. */
function behind() {
  const view = state.view;
  return Boolean(newest && view && newest.id === view.id && newest.version > view.version);
}

/** Takes a view of the game shown (the stream's, or an answer to this page's request). */
function receive(view) {
  const last = queue.length ? queue[queue.length - 1] : state.view;
  if (!last || view.id !== last.id || view.version <= last.version) return;
  queue.push(view);
  newest = view;
  if (!showing) drain();
}

async function drain() {
  showing = true;
  try {
    while (queue.length) {
      const after = queue.shift();
      const before = state.view;
      if (!before || before.id !== after.id || after.version <= before.version) continue;
      if (queue.length >= CATCH_UP) adopt(after);
      else await showPlay(before, after);
    }
  } finally {
    showing = false;
    renderNow();
  }
}

async function playMove(move) {
  const before = state.view;
  if (!move || state.busy || !before || before.status !== 'your_turn') return;
  state.sel = null;
  state.busy = true;
  try {
    receive(await serial(() => api.move(before.id, before.version, move)));
    waiting.drop();
    state.leftMatch = null; // playing the new match is choosing it
  } catch (err) {
    if (serversFault(err)) waiting.later(cardChosen(move, before));
    else waiting.drop();
    failed(err);
  } finally {
    state.busy = false;
    renderNow();
  }
}

// A deal (the next round, a new match) is on its way: the summary's deal waiting to be sent
// again is not sent beside it, where two new matches would be made.
let dealing = false;

// The card, or the summary's deal, the server could not take, sent again by itself
// (resend.js).
const waiting = actionWaits((action) => {
  if (!stillWanted(state.view, action)) {
    waiting.drop();
    renderNow();
    return true;
  }
  if (action.kind === 'card') {
    if (state.busy) return false;
    playMove(action.move);
  } else {
    // A deal on its way, or a newer view to show first (which may leave the summary).
    if (dealing || behind()) return false;
    summaryAction();
  }
  return true;
});
state.waits = waiting;

/** A deal asked for on the summary of `view` failed: by the server's fault it waits and goes
 * by itself (resend.js), as a card does; a refusal (a 409: the game moved on) drops it. */
function dealFailed(view, err) {
  if (serversFault(err)) waiting.later(dealAsked(view));
  else waiting.drop();
  failed(err);
}

/** Whether `view` is a match the person would mind losing: not over, and a card of theirs
 * played or a round behind them. */
function underWay(view) {
  return Boolean(view) && view.status !== 'match_over'
    && (view.round_number > 1 || view.history.some((play) => play.seat === 0));
}

// The rules of the new match on its way (null: none). N pressed again, or the bar's New, before
// it came made a second match (QA helper-76): a new match with the same rules asked again is the
// one already coming. One with other rules (Napola, a setting changed meanwhile) is asked for
// after it, and only the newest asked is shown: an older one not yet sent is never sent, and
// the answer of one already sent is left for the newer.
let matchAsked = null;
let matchTurn = 0; // counts the new matches asked for: the newest is the one shown

async function newMatch() {
  state.settingsOpen = false;
  const { level, napola, variant, target } = state.prefs;
  const rules = { level, napola, variant, target: Number(target) };
  const key = JSON.stringify(rules);
  if (matchAsked === key) {
    renderNow(); // the settings, if open, close as they do for a match asked
    return;
  }
  matchAsked = key;
  const turn = ++matchTurn;
  const newest = () => turn === matchTurn;
  // A match under way is not lost to a key pressed by mistake or a rule tried out: the page
  // offers the way back to it until the new match's first card of the person's own.
  const left = underWay(state.view) ? state.view.id : null;
  // Asked for on a match's end (its summary, N, the bar's New): it is what comes next, and
  // waits to go by itself if the server could not take it (not so a match under way left).
  const over = state.view && state.view.status === 'match_over' ? state.view : null;
  dealing = true;
  try {
    const view = await serial(() => (newest() ? api.create(rules) : null));
    if (!newest()) return; // a newer new match, with other rules, is coming
    state.sel = null;
    // Two new matches in a row, nothing played in the first: the way back is still to the
    // match under way before them.
    state.leftMatch = state.leftMatch || left;
    adopt(view, true, true);
    announceRound(state, view);
  } catch (err) {
    if (!newest()) return; // the newer one says how it went
    if (over) dealFailed(over, err);
    else failed(err);
  } finally {
    if (newest()) {
      dealing = false;
      matchAsked = null;
    }
  }
}

/** Back to the match a new one replaced, as it stands now (its rules become the page's). */
async function backToMatch() {
  const id = state.leftMatch;
  if (!id) return;
  try {
    const view = await serial(() => api.get(id));
    state.leftMatch = null;
    state.sel = null;
    adopt(view, true, true);
    announceRound(state, view);
  } catch (err) {
    if (err && err.status === 404) {
      state.leftMatch = null; // gone (swept away long after): nothing to go back to
      renderNow();
      return;
    }
    failed(err);
  }
}

async function nextRound() {
  const view = state.view;
  if (!view || view.status !== 'round_over') return;
  dealing = true;
  try {
    receive(await serial(() => api.nextRound(view.id, view.version)));
    waiting.drop(); // dealt: the view is on its way to the screen
  } catch (err) {
    dealFailed(view, err);
  } finally {
    dealing = false;
  }
}

// The level last asked of the server and not yet answered: the next press of L (or Level)
// goes on from it, not from the game's level, which still says the one before (two quick
// presses asked for Normal twice, and Hard never came).
let levelAsked = null;

async function setLevel(level) {
  state.prefs.level = level;
  savePrefs('level');
  if (!state.view) return render(state);
  levelAsked = level;
  try {
    receive(await serial(() => api.setLevel(state.view.id, level)));
  } catch (err) {
    failed(err);
  } finally {
    if (levelAsked === level) levelAsked = null;
  }
}

function cycleLevel() {
  const now = levelAsked || (state.view ? state.view.level : state.prefs.level);
  setLevel(LEVELS[(LEVELS.indexOf(now) + 1) % LEVELS.length]);
}

function cycleDesign() {
  state.prefs.design = DESIGNS[(DESIGNS.indexOf(state.prefs.design) + 1) % DESIGNS.length];
  savePrefs('design');
  renderNow();
}

async function resume(stored = false) {
  // A match under way here is the one resumed, as otherTabsGame leaves it alone: Retry (or the
  // tries by themselves, or the page back online) took the game another tab had stored
  // meanwhile, its new match, and this one was gone from under the person, with no way back and
  // their card waiting dropped. Otherwise (nothing shown, the match over), or `stored` (this
  // tab moved on to it: shownAgain), the stored game.
  const mine = !stored && underWay(state.view) ? state.view.id : null;
  const id = mine || localStorage.getItem(STORE_GAME);
  state.error = null;
  if (id) {
    try {
      const had = stream;
      const view = await api.get(id);
      // Another game stored while the answer came (a new match made meanwhile, here or in
      // another tab): that one is newer than this answer, which would take the page back to
      // the game read (QA helper-82: a slow network, New match pressed as the page opened).
      // With nothing shown yet (another tab's game stored), that game is read instead. This
      // page's own match is left only for another shown here meanwhile.
      if (mine ? !state.view || state.view.id !== mine : localStorage.getItem(STORE_GAME) !== id) {
        if (!state.view) return resume();
        waiting.now();
        return;
      }
      const opening = !state.view || state.view.id !== view.id; // another game: said anew
      adopt(view, true, true);
      if (opening) announceRound(state, view);
      // Retry (or the page back online): the stream of this game, if it was down, now, and
      // a card that waits.
      if (had && stream === had) stream.reconnect();
      waiting.now();
      return;
    } catch (err) {
      if (err.status !== 404) {
        failed(err);
        return;
      }
    }
  }
  await newMatch();
}

/** The game as the server has it now, taken unless this page has moved on meanwhile (an open
 * summary or a selection stays as it is when nothing changed). */
async function readAgain() {
  const view = state.view;
  const now = await serial(() => api.get(view.id));
  if (state.view === view) receive(now);
}

/** What waits goes on the game as it is now: the stream says "open" before its catch-up view
 * comes, and a deal another tab made while this page was away must drop this page's unsent,
 * not meet a 409 (QA helper-73, at a table). Read or not, what is still wanted then goes. */
function sendWaitingCaughtUp() {
  if (!waiting.action || !state.view) return;
  readAgain().catch(() => undefined).finally(() => waiting.now());
}

/** The page shown again (another tab, the phone woken): the game as the server has it now, so a
 * card tapped next is not refused as stale because another tab of the game played meanwhile. */
async function refresh() {
  if (document.visibilityState !== 'visible' || !state.view || state.busy || state.error) return;
  try {
    await readAgain();
    waiting.now(); // the server answers: what waits goes now
  } catch (err) {
    failed(err);
  }
}

/** The page restored by Back or Forward from the browser's back-forward cache: no new page is
 * loaded, so the game this page last showed came back with it, and refresh() read that one
 * again. Meanwhile another page of this tab's history (the game page opened again from the
 * rules or the statistics) may have stored another game, a new match played there: a load
 * resumes the stored game, and so does the page restored, or the person saw the old match as
 * current and a card played in it made it the stored game, the one played since lost (QA
 * helper-80). While the page was kept, no `storage` event reached it (otherTabsGame). */
function shownAgain(event) {
  if (!event.persisted) return;
  shownPrefs();
  const id = localStorage.getItem(STORE_GAME);
  if (!id || !state.view || id === state.view.id) {
    restoring = false;
    return;
  }
  waiting.drop(); // a card or a deal of the old match: not wanted on the stored one
  state.leftMatch = null;
  resume(true);
}

/** The page's own preferences as stored since it was left (the page restored above): a language
 * chosen there (the rule page's in Italian, its Play link) showed the page restored in the old
 * one until a reload (QA helper-80); the cards' design and the pace likewise. */
function shownPrefs() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(STORE_PREFS) || '{}');
  } catch {
    return;
  }
  const { design, speed, lang } = saved;
  if (DESIGNS.includes(design)) state.prefs.design = design;
  if (speed === 'fast' || speed === 'normal') state.prefs.speed = speed;
  if (LANGS.includes(lang) && lang !== state.prefs.lang) setLang(lang);
  else renderNow();
  followGame(); // the server's pace follows the setting
}

/** Another tab of this browser stored its game (`storage` fires in every other tab): a new
 * match it made, while this page's own new match waits to be sent again (the server or the
 * network away) or this page shows the match over. That match is the one the person moved on
 * to: this page follows it, its own waiting match dropped, unsent. (It went once the server
 * answered, a second new match beside the other tab's: QA helper-76.) A match under way here is
 * left alone: the other tab may have gone back to an older one, and this one is still played. */
async function otherTabsGame(event) {
  const id = event.key === STORE_GAME ? event.newValue : null;
  const view = state.view;
  if (!id || !view || id === view.id) return;
  const matchWaits = waiting.action && waiting.action.kind === 'match';
  if (!matchWaits && view.status !== 'match_over') return;
  waiting.drop();
  if (dealing) {
    // This page's new match on its way (sent again, or asked here meanwhile): its answer is
    // left, and a failure of it waits no more (newMatch: no longer the newest asked).
    matchTurn += 1;
    matchAsked = null;
    dealing = false;
  }
  renderNow();
  try {
    const now = await serial(() => api.get(id));
    if (state.view !== view) return; // this page moved on meanwhile
    adopt(now, true, true);
    announceRound(state, now);
  } catch (err) {
    // Retry, and the tries by themselves (resume), read the stored game: the other tab's.
    failed(err);
  }
}

// ----- input ----------------------------------------------------------------------------------

function on(el, type, fn, opts) {
  el.addEventListener(type, fn, opts);
  return () => el.removeEventListener(type, fn, opts);
}

function canChoose() {
  return state.view && state.view.status === 'your_turn' && !state.busy && !behind();
}

// What the shared card input (hands.js) needs from this page.
const hands = { canChoose, playMove, paint: renderNow };

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const tag = event.target && event.target.tagName;
  if (tag === 'SELECT' || tag === 'INPUT' || tag === 'TEXTAREA') return;
  const key = event.key;
  // A key held down repeats: N made a new match at each repeat, L and D went round the levels
  // and the designs to wherever the key was let go, and Enter on a summary dealt the next round
  // before the person had read it (QA helper-76). They act once per press.
  if (event.repeat && /^([nld]|Enter)$/i.test(key)) {
    if (key === 'Enter') event.preventDefault();
    return;
  }
  if (state.summaryOpen && key === 'Enter') {
    event.preventDefault();
    summaryAction();
    return;
  }
  if (key === '?') {
    // The controls, on the rule page; coming back to "/" resumes the stored game.
    location.assign(rulesUrl(state.prefs.lang, 'controls'));
    return;
  }
  if (key === 'n' || key === 'N') newMatch();
  else if (key === 'l' || key === 'L') cycleLevel();
  else if (key === 'd' || key === 'D') cycleDesign();
  else {
    if (key === 'Escape') state.settingsOpen = false;
    // H, C and R open the coach's panels (coach.js), which the settings would lie over: the
    // keys close the settings as the panels' buttons do.
    if (state.settingsOpen && /^[hcr]$/i.test(key)) {
      state.settingsOpen = false;
      renderNow();
    }
    handKey(state, hands, event);
    return;
  }
  document.body.classList.add('keys');
}

/** Closes the settings; the focus, if it was in them, goes back to their button rather than
 * to the page's start. */
function closeSettings() {
  const inside = $('settings').contains(document.activeElement);
  state.settingsOpen = false;
  renderNow();
  if (inside) focusControl($('btn-settings'));
}

function summaryAction() {
  if (!state.view || dealing) return; // pressed again while the deal is on its way
  if (state.view.status === 'match_over') newMatch();
  else nextRound();
}

function setLang(lang) {
  state.prefs.lang = lang;
  savePrefs('lang');
  renderNow();
  syncSite(lang);
  // What a screen reader last heard was in the old language (QA helper-57): the round and
  // the turn again, in the new one.
  if (state.view) announceRound(state, state.view);
}

function bind() {
  const unbind = [
    bindHands(state, hands),
    // The menu and the settings take turns under the bar (both at its right).
    installMenu(() => {
      if (!state.settingsOpen) return;
      state.settingsOpen = false;
      renderNow();
    }, () => {
      // The controls moved between the bar and the menu after the window's resize (below),
      // which placed the settings under the bar as it was: placed again under the bar as it is.
      if (state.settingsOpen) renderNow();
    }),
    on(document, 'keydown', onKey),
    on(window, 'online', () => { if (state.error) resume(); }),
    on(window, 'storage', (event) => otherTabsGame(event)),
    on(window, 'pagehide', (event) => { if (event.persisted) restoring = true; }),
    on(window, 'pageshow', (event) => shownAgain(event)),
    // The settings lie under the bar, whose height changes as the phone turns (one row on
    // its side, three upright): placed again (render.js), they never cover it.
    on(window, 'resize', () => { if (state.settingsOpen) renderNow(); }),
    on(document, 'visibilitychange', () => refresh()),
    on($('btn-new'), 'click', () => newMatch()),
    on($('btn-friends'), 'click', () => openFriends(state.prefs)),
    on($('btn-level'), 'click', () => cycleLevel()),
    on($('btn-napola'), 'click', () => {
      state.prefs.napola = !state.prefs.napola;
      newMatch();
    }),
    on($('btn-design'), 'click', () => cycleDesign()),
    on($('btn-settings'), 'click', (event) => {
      if (state.settingsOpen) {
        closeSettings();
        return;
      }
      state.settingsOpen = true;
      renderNow();
      // Opened by a key (detail 0), the focus goes to the first field: the panel comes after
      // the whole bar in the page's order, seven Tab presses away. A click leaves the focus
      // alone, so the game's keys (H, C, R...) go on acting while the panel is open.
      if (event.detail === 0) $('set-level').focus();
    }),
    on($('btn-close'), 'click', () => closeSettings()),
    // Esc closes the panel from any of its fields too (the page's keys leave fields alone).
    on($('settings'), 'keydown', (event) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      closeSettings();
    }),
    // The coach's buttons (coach.js opens their panels) close the settings, which would
    // otherwise lie over the cards seen.
    ...['btn-hint', 'btn-seen', 'btn-review'].map((id) => on($(id), 'click', () => {
      if (!state.settingsOpen) return;
      state.settingsOpen = false;
      renderNow();
    })),
    on($('btn-cancel'), 'click', () => {
      state.sel = null;
      renderNow();
    }),
    on($('summary'), 'click', (event) => {
      if (event.target.closest('#summary-go')) summaryAction();
    }),
    on($('btn-back-match'), 'click', () => backToMatch()),
    on($('error-retry'), 'click', () => resume()),
    on($('set-level'), 'change', (e) => setLevel(e.target.value)),
    on($('set-napola'), 'change', (e) => {
      state.prefs.napola = e.target.checked;
      newMatch();
    }),
    on($('set-variant'), 'change', (e) => {
      state.prefs.variant = e.target.value;
      newMatch();
    }),
    on($('set-target'), 'change', (e) => {
      state.prefs.target = Number(e.target.value);
      newMatch();
    }),
    on($('set-design'), 'change', (e) => {
      state.prefs.design = e.target.value;
      savePrefs('design');
      renderNow();
    }),
    on($('set-speed'), 'change', (e) => {
      state.prefs.speed = e.target.value;
      savePrefs('speed');
      renderNow();
      followGame(); // the server's pace follows the setting
    }),
    on($('set-lang'), 'change', (e) => setLang(e.target.value)),
    ...[...document.querySelectorAll('.site-nav .langs a')].map((link) => on(link, 'click', (e) => {
      e.preventDefault(); // the game stays; only its language changes
      setLang(link.dataset.lang);
    })),
  ];
  return () => unbind.forEach((off) => off());
}

installSprite();
bind();
renderNow();
syncSite(state.prefs.lang);
savePrefs(); // keeps a language chosen by a link (`/?lang=de`) for the next visit
resume();
