// The coach (SPEC §7): Hint (H), Cards seen (C), Review (R), and the link to the statistics.
// The server judges; this module shows what it answered for the viewer's own seat. The solo game
// page uses it as it is (seat 0, /api/games/{id}); the table page hands in its own requests,
// which parts the host allowed, and how to name a seat (installCoach's options).

import { ApiError, REVIEW_TIMEOUT, call } from './api.js';
import { cardSvg, suitSign } from './cards.js';
import { cardList, cardName, seatName, t } from './i18n.js';
import { focusControl } from './menu.js';
import { costText, ct, reasonTexts, signed } from './coach-text.js';

const $ = (id) => document.getElementById(id);
/** Whether two moves of the coach's answers are the same card taking the same cards (the
 * server lists captures in the deck's order). */
const sameMove = (a, b) => a.card === b.card && a.capture.join() === b.capture.join();
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({
  '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;',
}[c]));
const gamePath = (id) => `/api/games/${encodeURIComponent(id)}`;
const SUITS = ['D', 'C', 'S', 'B'];
const DECK = SUITS.flatMap((s) => Array.from({ length: 10 }, (_, i) => `${i + 1}${s}`));

/** The round a Review shows: the one just finished, else the one before the current. */
export function lastFinishedRound(view) {
  if (!view) return 0;
  if (view.status === 'round_over' || view.status === 'match_over') return view.round_number;
  return view.round_number - 1;
}

/** Where each card is for seat 0, from its view alone (what the server's cards seen says). */
export function placesFromView(view) {
  const places = {};
  for (const c of DECK) places[c] = 'unseen';
  for (const c of view.piles[0]) places[c] = 'taken_a';
  for (const c of view.piles[1]) places[c] = 'taken_b';
  for (const c of view.table) places[c] = 'table';
  for (const c of view.hand) places[c] = 'hand';
  return places;
}

/** The solo game's requests: seat 0 of the game whose id is the view's. A review waits longer
 * for its answer than the others (api.js). */
const SOLO = {
  hint: (view) => call('POST', `${gamePath(view.id)}/hint`, { version: view.version }),
  cardsSeen: (view) => call('POST', `${gamePath(view.id)}/cards-seen`),
  review: (view, round) => call('GET', `${gamePath(view.id)}/rounds/${round}/review`, undefined,
    {}, { timeout: REVIEW_TIMEOUT }),
};
const ALWAYS = () => true;

/**
 * options: `api` ({hint, cardsSeen, review}(view...) -> Promise), `allows` ({hint, seen,
 * review}() -> whether that part is offered now; hidden and its key ignored otherwise),
 * `positionOf(view)` (a hint stays shown while this is the same; default the version),
 * `seatLabel(lang, seat)` (a seat of the review's plays; default as seen from seat 0) and
 * `reviewed(view)` (the view whose last finished round R reviews: the last match's final one,
 * at a table whose rematch has no round over yet; default `view`).
 */
export function installCoach(getState, options = {}) {
  const api = options.api || SOLO;
  const allows = { hint: ALWAYS, seen: ALWAYS, review: ALWAYS, ...(options.allows || {}) };
  const positionOf = options.positionOf || ((view) => view.version);
  const seatLabel = options.seatLabel || seatName;
  const reviewed = options.reviewed || ((view) => view);
  const coach = {
    hint: null, // {version, move, options, hints_used} for the view it was asked in
    hintBusy: null, // the position whose hint is on its way (null: none)
    hintFailed: null, // the position whose hint the server could not give just now
    hintOpen: false, // the person wants the hint shown (closed with its button, Esc or H)
    seenOpen: false, // off by default (SPEC §7)
    seenCounted: null, // the round the cards seen was last counted in (countSeen)
    last: null, // 'hint' or 'seen': the panel opened last, which Esc closes first
    review: null, // {round, data|null, failed, step}
    reviewDirty: false, // redrawn only when it changed, so focus inside it stays put
    reviewDrawnFor: null, // the language and match it was drawn for: either changed, drawn again
    summaryNote: null, // {round, text} shown in the round summary
  };
  const written = { hint: '', seen: '' }; // the panels' last HTML, not rewritten unchanged
  const lang = () => getState().prefs.lang;
  const tr = (key, params) => ct(lang(), key, params);
  const moveText = (m) => (m.capture.length
    ? tr('take', { card: cardName(lang(), m.card), cards: cardList(lang(), m.capture) })
    : tr('lay', { card: cardName(lang(), m.card) }));

  /** A move's reasons, the server's facts about it (scopa, what it takes, what it leaves the
   * next player), as one muted line of text: the dots between them are for the eye only. */
  function whyHtml(reasons) {
    const parts = reasonTexts(lang(), reasons).map((r) => (r.scopa
      ? `<b class="why-scopa">${esc(r.text)}</b>` : esc(r.text)));
    return parts.length
      ? ` <span class="why">${parts.join('<span class="why-dot" aria-hidden="true"> ·</span> ')}</span>` : '';
  }

  // A move as small cards, its rank and suit sign each (the cards seen's signs), for a phone's
  // hint (coach.css): three moves' names take 200 px there, more than a short phone's board
  // leaves it; the names are still read out (the move's words, visually hidden there).
  const chip = (c) => `<span class="move-card">${c.slice(0, -1)}${suitSign(c.slice(-1), getState().prefs.design)}</span>`;
  const moveCards = (m) => `<span class="opt-cards" aria-hidden="true">${chip(m.card)}${
    m.capture.length ? `<span class="opt-takes">→</span>${m.capture.map(chip).join('')}` : ''}</span>`;

  /** One move of a hint's or a judged play's list: the move, its margin, its reasons under
   * them; in a review, the move played is marked as the person's (listed after the best few
   * when it is not among them). */
  function optionRow(o, { played = null, top = false } = {}) {
    const mine = played !== null && sameMove(o, played);
    const yours = mine ? ` <span class="yours">${esc(tr('yourPlay'))}</span>` : '';
    const cls = [top && 'top', mine && 'mine'].filter(Boolean).join(' ');
    return `<li${cls ? ` class="${cls}"` : ''}><span class="opt">${esc(moveText(o))}${yours}</span>${moveCards(o)} <span class="margin">${esc(tr('margin', { m: signed(lang(), o.margin) }))}</span>${whyHtml(o.reasons)}</li>`;
  }

  // ----- hint -----------------------------------------------------------------------------

  const hintLive = (view) => Boolean(coach.hint && view && view.status === 'your_turn'
    && coach.hint.at === positionOf(view));

  async function askHint() {
    const st = getState();
    const view = st.view;
    if (!allows.hint() || !view || view.status !== 'your_turn') return;
    // A position already left (this person's card on its way, or a newer view still being
    // shown) has no hint: the server would refuse it as stale.
    if (st.busy || (st.behind && st.behind())) return;
    coach.hintOpen = true;
    coach.last = 'hint';
    // The server counts every ask: a hint closed and shown again for the same position is the
    // one already here (or still on its way), never a second one. One still on its way for a
    // position left since (a card played before a slow answer came) is not this position's:
    // this one's is asked, and the old answer, when it comes, is left. (H waited for the old
    // one, then showed nothing: QA helper-82.)
    const at = positionOf(view);
    if (coach.hintBusy === at || hintLive(view)) {
      afterRender();
      return;
    }
    coach.hintBusy = at;
    coach.hintFailed = null;
    afterRender();
    try {
      const hint = await api.hint(view);
      if (coach.hintBusy === at) coach.hint = { ...hint, at };
    } catch (err) {
      // A stale position (409) has no hint to show; anything else (the coach busy, 503, or
      // the network) is said in the panel, which would otherwise stay empty after H.
      if (coach.hintBusy === at) {
        coach.hint = null;
        if (!(err instanceof ApiError && err.status === 409)) {
          console.warn(err);
          coach.hintFailed = at;
        }
      }
    } finally {
      if (coach.hintBusy === at) coach.hintBusy = null;
      afterRender();
    }
  }

  /** Closes a panel (`open`: its flag in `coach`); the focus, if it was in the panel or
   * nowhere, goes to the panel's button rather than to the page. */
  function closePanel(open, box, button) {
    if (!coach[open]) return;
    const refocus = focusWithin($(box));
    coach[open] = false;
    afterRender();
    if (refocus) focusOn($(button));
  }

  const closeHint = () => closePanel('hintOpen', 'coach-hint', 'btn-hint');

  // A failed hint's notice is not a hint to close: H (or the button) asks again.
  const failedShown = () => coach.hintFailed !== null && getState().view
    && coach.hintFailed === positionOf(getState().view);
  const toggleHint = () => (shown('coach-hint') && !failedShown() ? closeHint() : askHint());

  function renderHint(view) {
    const box = $('coach-hint');
    const live = coach.hintOpen && hintLive(view);
    for (const el of document.querySelectorAll('.card.hinted')) el.classList.remove('hinted');
    let html = '';
    if (live) {
      const h = coach.hint;
      const handCard = $('hand').querySelector(`[data-code="${h.move.card}"]`);
      if (handCard) handCard.classList.add('hinted');
      for (const c of h.move.capture) {
        const el = $('table-cards').querySelector(`[data-code="${c}"]`);
        if (el) el.classList.add('hinted');
      }
      // A forced move (deals 0, no options) was not judged: it is named, with no margin.
      const forced = h.deals === 0 || !h.options.length;
      // Each move with its reasons (the server's: a scopa, what it takes, what it leaves the
      // next player), which a newcomer does not read in the margins.
      const rows = h.options.map((o, i) => optionRow(o, { top: i === 0 })).join('');
      const best = tr(forced ? 'hintForced' : 'hintBest', { move: moveText(h.move) });
      // On a phone the heading names no move (the first of the list, in bold, is it) and
      // gives no reasons (that move's, under it), nor the line saying any card may be played
      // (coach.css): its room is short.
      const short = forced ? '' : `<strong class="hint-short">${esc(tr('hint'))}</strong>`;
      html = `<div class="panel-head"><p class="hint-best${forced ? ' forced' : ''}"><strong class="hint-long">${esc(best)}</strong>${short}${whyHtml(h.reasons)}</p>
        <button type="button" id="hint-close" aria-keyshortcuts="H">${esc(tr('close'))}</button></div>
        ${forced ? '' : `<p class="hint-sub"><span class="hint-long">${esc(tr('hintMargins'))}</span><span class="hint-short">${esc(tr('hintMarginsShort'))}</span></p><ol class="hint-options">${rows}</ol>
        <p class="hint-sub hint-free">${esc(tr('hintFree'))}</p>`}`;
    } else if (coach.hintOpen && view && coach.hintBusy === positionOf(view)) {
      // Only this position's: one left since (a card played meanwhile) has no hint coming.
      html = esc(tr('hintThinking'));
    } else if (coach.hintOpen && view && coach.hintFailed === positionOf(view)) {
      html = `<p class="hint-failed" role="status">${esc(tr('hintFailed'))}</p>`;
    }
    // Written only when it changed: a render of the game keeps the focus on its Close button.
    if (html !== written.hint) {
      box.innerHTML = html;
      written.hint = html;
    }
    box.hidden = !html;
    $('btn-hint').setAttribute('aria-expanded', String(shown('coach-hint')));
  }

  // ----- cards seen -----------------------------------------------------------------------

  function openSeen() {
    if (!allows.seen()) return;
    if (coach.seenOpen) {
      // Open behind the hint (a phone with no room for both): it comes to the front, the
      // hint going behind it; opened already, it is not counted again.
      coach.last = 'seen';
      afterRender();
      return;
    }
    coach.seenOpen = true;
    coach.last = 'seen';
    // Each opening is told to the server, which counts it once a position, like a hint
    // (told before the panel is drawn, which would tell it for its round).
    const view = getState().view;
    if (view) countSeen(view);
    afterRender();
    if (view) $('seen-panel').focus({ preventScroll: true });
  }

  // A round of a game: the cards seen counts once in each round it helped in.
  const roundOf = (view) => `${view.id}:${view.match}:${view.round_number}`;

  /** Counts the cards seen on the server like a hint, for the round of `view`; the panel then
   * follows the view by itself. Left open into the next round it helps there too, and counts
   * there once (the round's summary said "Hints used: 0" of a round played with it open). A
   * round over counts nothing (the server's rule: every card is in sight then). */
  function countSeen(view) {
    coach.seenCounted = roundOf(view);
    api.cardsSeen(view).catch((err) => console.warn(err));
  }

  const closeSeen = () => closePanel('seenOpen', 'seen-panel', 'btn-seen');

  const toggleSeen = () => (shown('seen-panel') ? closeSeen() : openSeen());

  function renderSeen(view) {
    const box = $('seen-panel');
    box.hidden = !coach.seenOpen || !view || !allows.seen();
    $('btn-seen').setAttribute('aria-expanded', String(shown('seen-panel')));
    if (box.hidden) return;
    const playing = view.status !== 'round_over' && view.status !== 'match_over';
    if (playing && coach.seenCounted !== roundOf(view)) countSeen(view);
    const places = placesFromView(view);
    const design = getState().prefs.design;
    // The compact grid (coach.css `.compact`, placeOnBoard: a phone, or a desktop's free part
    // too small for the pictures) shows each card as its rank in a row of its suit, and the
    // unseen ones of each rank in a row under them rather than in the table (on an upright
    // phone, with the legend beside the grid: its last chip, "not seen yet", names that row).
    const suits = SUITS.map((s) => `<div class="seen-suit" role="list">${suitSign(s, design, 'seen-suit-mark')}${DECK.filter((c) => c.endsWith(s)).map((c) => {
      const p = places[c];
      const label = `${cardName(lang(), c)}: ${tr(`place${p}`)}`;
      return `<span role="listitem" class="seen-card ${p}" data-code="${c}" data-place="${p}" aria-label="${esc(label)}" title="${esc(label)}">${cardSvg(c, design, lang())}<b class="seen-rank" aria-hidden="true">${c.slice(0, -1)}</b></span>`;
    }).join('')}</div>`).join('');
    const unseen = Array.from({ length: 10 }, () => 0);
    for (const c of DECK) if (places[c] === 'unseen') unseen[Number(c.slice(0, -1)) - 1] += 1;
    const head = unseen.map((_, i) => `<th scope="col">${i + 1}</th>`).join('');
    const cells = unseen.map((n, i) => `<td data-rank="${i + 1}">${n}</td>`).join('');
    const where = places['7D'] === 'unseen' ? tr('placeunseen') : tr(`place${places['7D']}`);
    // One box around it all: on an upright phone its layout follows the panel's width (a
    // container query of coach.css), the legend beside the grid where the panel is wide enough.
    const html = `<div class="seen-body"><div class="panel-head"><h2 id="seen-title">${esc(tr('seenTitle'))}</h2>
      <button type="button" id="seen-close" aria-keyshortcuts="C">${esc(tr('close'))}</button></div>
      <div class="seen-grid">${suits}</div>
      <p class="seen-legend">${['hand', 'table', 'taken_a', 'taken_b', 'unseen'].map((p) => `<span class="chip ${p}">${esc(tr(`place${p}`))}</span>`).join(' ')}</p>
      <div class="seen-count" aria-hidden="true"><p>${esc(tr('unseenByRank'))}</p>
        <div class="seen-suit"><span></span>${unseen.map((n, i) => `<b class="seen-rank" data-rank="${i + 1}">${n}</b>`).join('')}</div></div>
      <table class="seen-ranks"><caption>${esc(tr('unseenByRank'))}</caption>
        <thead><tr><th scope="row">${esc(tr('rank'))}</th>${head}</tr></thead>
        <tbody><tr><th scope="row">${esc(tr('unseenCount'))}</th>${cells}</tr></tbody></table>
      <p id="seen-settebello">${esc(tr('settebello', { where }))}</p></div>`;
    // Written only when it changed, like the hint: the focus stays on Close while cards fall.
    if (html !== written.seen) {
      box.innerHTML = html;
      written.seen = html;
    }
  }

  // ----- the two panels: where they go, how they close -----------------------------------

  // Open and in sight: not behind the other panel (placePanels, on a phone with no room for both).
  const shown = (id) => !$(id).hidden && !$(id).classList.contains('behind');
  // The focus is in `box`, or nowhere (on the body): hiding `box` would lose it.
  const focusWithin = (box) => {
    const active = document.activeElement;
    return !active || active === document.body || box.contains(active);
  };
  const focusOn = (button) => {
    if (!button.hidden && !button.disabled) focusControl(button, { preventScroll: true });
  };

  const GAP = 6;
  const rect = (el) => el.getBoundingClientRect();

  // A phone, upright or on its side (scopone.css's two phone layouts): its cards seen is always
  // the compact grid of ranks, the pictures ten to a row being too small to read there.
  const PHONE = window.matchMedia('(max-width: 640px), (max-height: 520px) and (orientation: landscape)');
  // An upright phone (scopone.css's layout of that width, not the one on its side): the table
  // keeps room under its cards for the whole of the cards seen (coach.css --seen-room). So does
  // a window on its side narrower than any phone's (a desktop zoomed to 300 or 400 %): beside
  // the table's cards, as on a phone on its side, the panel left them no room at 320 px (they
  // lay past the window's left edge) and 9 px of each at 427.
  const UPRIGHT = window.matchMedia('(max-width: 640px) and ((orientation: portrait) or (min-height: 521px)),'
    + ' (max-width: 539px) and (max-height: 520px) and (orientation: landscape)');
  // A phone on its side (scopone.css's layout of little height): while the cards seen is open
  // the table spans the board's width and keeps room beside its cards for the whole of it.
  const SIDE = window.matchMedia('(max-height: 520px) and (orientation: landscape)');
  // What a panel leaves in sight: the seats, the piles, the table's cards and the status line,
  // all between the bar and the hand (below which nothing goes).
  const IN_SIGHT = '.seat > *, .pile > *, #table-cards .card, #status-line > *';
  // What a phone's hint leaves in sight when the board has no room for the whole of it
  // otherwise (QA: upright, a third of it showed, the moves' margins and reasons cut off): it
  // is read while choosing a card, for which the seats and piles can wait; the table's cards,
  // the status line (a Cancel, the capture to choose) and the hand cannot.
  const FIRM = '#table-cards .card, #status-line > *';
  const WIDEST = { 'coach-hint': 380, 'seen-panel': 420 };
  // Smaller free parts are taken only when there is no larger one: its content would scroll
  // in a strip too thin to read.
  const MIN_W = 160;
  const MIN_H = 56;
  const NEED = 200;
  const NEED_HINT_DESKTOP = 280; // the room a desktop's hint asks for: three moves, at its widest
  const WIDER_HINT = 600;
  // On a phone the hint shows enough beside the cards seen with its best two moves, their
  // margins and reasons (these moves' names are long); else the two panels take turns.
  const HINT_ENOUGH = 180;
  const spots = {}; // where each open panel lies (page coordinates), kept while its part is free
  // Where `box` lay when last placed, in the window's coordinates (none once it was closed).
  const lay = (box) => spots[box.id] && { x: spots[box.id].x - window.scrollX, y: spots[box.id].y - window.scrollY };

  /**
   * Places the hint and the cards seen on the board's free parts (placeOnBoard), on a phone
   * and a desktop alike: the cards seen is a panel that stays open while one plays, so neither
   * may hide the hand, a seat, a pile, the table's cards or the status line. (Over the board
   * under the bar, as they once lay on a desktop, they hid the right seat and the table's
   * right end, and with both open the hand's cards.)
   */
  function placePanels() {
    const hint = $('coach-hint');
    const seen = $('seen-panel');
    for (const box of [hint, seen]) if (box.hidden) delete spots[box.id];
    // Both open on a phone: placed together, unless then the cards seen would not show whole
    // or the hint not enough of itself (QA: on a short upright phone the hint showed 65 to 94
    // px of its 290 under the cards seen, over the piles). Then the one opened last takes the
    // board's room and the other waits behind it (hidden, still open), shown again as it was
    // when the one in front closes; its button or key brings it to the front. Decided when
    // the pair, the one in front, the hint's text or the window's width changes (not its
    // height, which a phone's address bar changes while the page scrolls), and kept
    // meanwhile: tried anew on every render, the room kept for the hint would come and go.
    const both = PHONE.matches && !hint.hidden && !seen.hidden;
    const key = both ? [coach.last, written.hint, window.innerWidth, UPRIGHT.matches].join('|') : null;
    if (key !== turns.key) {
      turns.key = key;
      turns.extra = 0;
      setBehind(null);
      if (hint.hidden && seen.hidden) return;
      placeOnBoard(hint, seen);
      const whole = (box) => box.scrollHeight <= box.clientHeight + 1;
      if (both && !(whole(seen) && (whole(hint) || hint.clientHeight >= HINT_ENOUGH))) {
        setBehind(coach.last === 'seen' ? hint : seen);
        // The hint in front takes the cards seen's place (its part of the board, at its left).
        if (turns.behind === seen && spots[seen.id]) spots[hint.id] = { ...spots[seen.id] };
        placeFront(hint, seen);
      }
      return;
    }
    if (hint.hidden && seen.hidden) return; // placed when one opens: no layout read per render
    if (turns.behind) placeFront(hint, seen);
    else placeOnBoard(hint, seen);
  }

  // Which panel waits behind the other (null: none), and the room the table keeps for the
  // hint in front of the cards seen beyond the panel's own (an upright phone).
  const turns = { key: null, behind: null, extra: 0 };

  function setBehind(box) {
    const was = turns.behind;
    turns.behind = box;
    for (const b of [$('coach-hint'), $('seen-panel')]) b.classList.toggle('behind', b === box);
    $('btn-hint').setAttribute('aria-expanded', String(shown('coach-hint')));
    $('btn-seen').setAttribute('aria-expanded', String(shown('seen-panel')));
    // The focus in the panel going behind goes to the one in front (its Close, or its button).
    if (box && box !== was && box.contains(document.activeElement)) {
      const front = box.id === 'seen-panel' ? 'hint' : 'seen';
      focusOn($(`${front}-close`) || $(`btn-${front}`));
    }
  }

  // The panel in front alone. The hint in front of the cards seen on an upright phone shows
  // whole: it lies where the cards seen lay, under the table's cards (and over the piles), and
  // the table keeps room for all of it (the page scrolls if it must). The room follows the
  // hint's height: what it lacks, and what the table had to spare (its row may be taller than
  // it needs: growing the room by less moved nothing).
  function placeFront(hint, seen) {
    placeOnBoard(hint, seen);
    if (turns.behind !== seen || !UPRIGHT.matches) return;
    for (let i = 0; i < 3; i += 1) {
      const short = hint.scrollHeight - parseFloat(hint.style.maxHeight);
      const table = rect($('table'));
      const room = parseFloat($('table').style.getPropertyValue('--seen-room')) || 0;
      const spare = Math.max(0, table.bottom - rect($('table-cards')).bottom - room - GAP);
      const extra = Math.max(0, turns.extra + short + (short > 0 ? spare : 0));
      if (Math.abs(extra - turns.extra) < 1) return;
      turns.extra = extra;
      placeOnBoard(hint, seen);
    }
  }

  /**
   * Each panel in the free part of the board that shows most of it, never over the hand, the
   * table's cards, a seat or a pile; as wide as that part allows and no taller (its content
   * scrolls in it if it must). The panel open first keeps its place; the other takes the best
   * part left. The cards seen shows its cards as pictures where a part holds them whole at
   * full width (a large window), else as the compact grid of ranks (coach.css `.compact`).
   * Both scroll with the page, like the board (the table page scrolls).
   */
  function placeOnBoard(hint, seen) {
    reserveRoom(seen, rect($('board')));
    const board = rect($('board'));
    const field = {
      left: board.left + GAP, right: board.right - GAP,
      top: rect($('bar')).bottom + GAP, bottom: rect($('seat-0')).top - GAP,
    };
    const grow = (r) => ({ left: r.left - GAP, top: r.top - GAP, right: r.right + GAP, bottom: r.bottom + GAP });
    const blocksOf = (which) => [...document.querySelectorAll(which)].map(rect)
      .filter((r) => r.width && r.height).map(grow);
    const blocks = blocksOf(IN_SIGHT);
    const firm = PHONE.matches ? blocksOf(FIRM) : [];
    const panels = []; // those placed already, which the other never covers
    const boxes = coach.last === 'hint' ? [seen, hint] : [hint, seen];
    for (const box of boxes.filter((b) => !b.hidden && b !== turns.behind)) {
      let parts = freeParts(field, blocks);
      if (box === seen) {
        const whole = PHONE.matches ? [] : roomForPictures(seen, parts);
        seen.classList.toggle('compact', !whole.length);
        if (whole.length) parts = whole;
      }
      let spot = bestSpot(box, field, parts);
      // A strip narrower than MIN_W (beside the table's cards on a narrow phone) may show a
      // large share of the hint only because the hint is very tall there: its words a column
      // of 34 px, heading and Close cut (QA). It shows nothing worth its share.
      const strip = spot.right - spot.left < MIN_W;
      if (box === hint && PHONE.matches && (strip || shownIn(box, spot) < 1)) {
        const over = mostShown(box, freeParts(field, firm));
        if (over && (strip || shownIn(box, over) > shownIn(box, spot))) spot = over;
      }
      // A small phone on its side may have no such room: its table's cards in two rows fill
      // the board from the bar down (568 x 320: 63 of the hint's 159 px showed, the best
      // move's margin cut, or the hint lay past the window's bottom). The best move is what
      // the hint is for, and its small cards name the table's cards it would cover: over them
      // then, in the window, but never over the status line (a Cancel, the capture to choose).
      // Alone: beside the cards seen, the two take turns first (placePanels).
      const alone = seen.hidden || turns.behind === seen;
      if (box === hint && PHONE.matches && alone && !bestMoveInSight(box, spot)) {
        for (const keep of [firm, [...blocksOf('#status-line > *'), ...panels]]) {
          const over = mostShown(box, freeParts(inView(field), keep).filter((s) => bestMoveInSight(box, s)));
          if (over) {
            spot = over;
            break;
          }
        }
      }
      let width = Math.min(spot.right - spot.left, WIDEST[box.id]);
      box.style.width = `${Math.round(width)}px`;
      if (box === hint && !PHONE.matches && box.scrollHeight > spot.bottom - spot.top) {
        // A desktop's free parts are wide and short (above or below the table's cards): a
        // hint too tall for its part widens rather than scroll.
        width = Math.min(spot.right - spot.left, WIDER_HINT);
        box.style.width = `${Math.round(width)}px`;
      }
      // The cards seen keeps to the right of its part, the hint to the left, at its top; but a
      // panel already in this part stays where it is while it shows as much of itself there
      // (the other panel closing, a card played, leave it in place).
      let left = box === seen ? spot.right - width : spot.left;
      let top = spot.top;
      const was = lay(box);
      if (was && was.x >= spot.left - 1 && was.x + width <= spot.right + 1
          && was.y >= spot.top - 1 && spot.bottom - was.y >= Math.min(box.scrollHeight, spot.bottom - spot.top)) {
        left = Math.max(spot.left, Math.min(was.x, spot.right - width));
        top = Math.max(spot.top, was.y);
      }
      box.style.left = `${Math.round(left + window.scrollX)}px`;
      box.style.top = `${Math.round(top + window.scrollY)}px`;
      box.style.maxHeight = `${Math.max(0, Math.round(spot.bottom - top))}px`;
      const placed = rect(box);
      spots[box.id] = { x: placed.left + window.scrollX, y: placed.top + window.scrollY };
      blocks.push(grow(placed));
      firm.push(grow(placed));
      panels.push(grow(placed));
    }
  }

  // An upright phone's free parts are short: on a short one the cards seen showed 31 to 68 px
  // of its 119 under the table's cards (360 x 640), and at 320 x 568 it lay in a column 55 px
  // wide or over the cards. The table keeps room under its cards for all of it (coach.css
  // --seen-room): its height at the board's width, that of the part it is then placed in, in
  // that language. The page scrolls rather than the panel where the window is too short even so.
  // On a phone on its side it showed 35 to 63 px of itself (568 x 320, 640 x 360) in a strip
  // beside the seats or under the table's cards: there the table spans the board while it is
  // open, its cards at the left, and keeps room beside them for all of it: its height at the
  // width from the cards to the board's right (coach.css). Measured as it shows, when it
  // waits behind the hint too: the board stays as it was, and so does the panel when it returns.
  function reserveRoom(seen, board) {
    const table = $('table');
    const upright = UPRIGHT.matches;
    if (seen.hidden || !(upright || SIDE.matches)) {
      table.style.removeProperty('--seen-room');
      return;
    }
    seen.classList.add('compact');
    seen.classList.remove('behind');
    const cards = rect($('table-cards'));
    const width = upright ? board.width - 2 * GAP : board.right - GAP - (cards.right + GAP);
    seen.style.width = `${Math.round(Math.min(width, WIDEST[seen.id]))}px`;
    const extra = upright && turns.behind === seen ? turns.extra : 0;
    const room = `${Math.ceil(seen.scrollHeight + extra)}px`;
    seen.classList.toggle('behind', turns.behind === seen);
    if (table.style.getPropertyValue('--seen-room') !== room) table.style.setProperty('--seen-room', room);
  }

  // The share of `box` a free part shows, at the width it would take there (its content is
  // taller the narrower it is: a narrow part shows more pixels of less of it).
  function shownIn(box, part) {
    box.style.width = `${Math.round(Math.min(part.right - part.left, WIDEST[box.id]))}px`;
    return Math.min(1, (part.bottom - part.top) / Math.max(1, box.scrollHeight));
  }

  // Of `parts`, the one showing most of `box` (the one it lies in on a tie), or null.
  function mostShown(box, parts) {
    const was = lay(box);
    const holds = (s, p) => s.left <= p.x + 1 && p.x < s.right && s.top <= p.y + 1 && p.y < s.bottom;
    let best = null;
    let most = -1;
    for (const s of parts) {
      if (s.right - s.left < MIN_W || s.bottom - s.top < MIN_H) continue;
      const shown = shownIn(box, s);
      if (shown > most || (shown === most && was && holds(s, was))) {
        best = s;
        most = shown;
      }
    }
    return best;
  }

  // `part` cut to the window: a phone on its side scrolls, and a panel past its edge is not
  // read.
  const inView = (part) => ({ ...part, top: Math.max(part.top, GAP), bottom: Math.min(part.bottom, window.innerHeight - GAP) });

  // Whether `part`, at the width the hint would take there, shows its best move in the window:
  // from the hint's top to the end of its first move (small cards, margin, reasons).
  function bestMoveInSight(hint, part) {
    const shown = inView(part);
    if (shown.right - shown.left < MIN_W) return false;
    if (part.top < shown.top - 1) return false; // the hint's top would lie above the window
    shownIn(hint, part); // its width there
    const first = hint.querySelector('.hint-options li');
    if (!first) return shown.bottom - shown.top >= Math.min(hint.scrollHeight, MIN_H);
    const need = rect(first).bottom - rect(hint).top + hint.scrollTop;
    return shown.bottom - shown.top >= need;
  }

  // The free parts that hold the cards seen's pictures whole at the panel's full width.
  function roomForPictures(seen, parts) {
    const width = WIDEST[seen.id];
    seen.classList.remove('compact');
    seen.style.width = `${width}px`;
    const height = seen.scrollHeight + 1; // a part a pixel short would show a scroll bar
    return parts.filter((s) => s.right - s.left >= width && s.bottom - s.top >= height);
  }

  // Of `parts`, the free part for `box`: the one showing most of it at the width it may take,
  // the one it lies in now winning unless another shows half as much again. (The hint's one
  // line while it is thought about asks for the room of a hint, so the hint comes where that
  // line was.)
  function bestSpot(box, field, parts) {
    const room = box.id === 'coach-hint' && !PHONE.matches ? NEED_HINT_DESKTOP : NEED;
    const need = Math.max(box.scrollHeight, room);
    const was = lay(box);
    const holds = (s, p) => s.left <= p.x + 1 && p.x < s.right && s.top <= p.y + 1 && p.y < s.bottom;
    let best = null;
    let most = -1;
    for (const s of parts) {
      const w = s.right - s.left;
      const h = s.bottom - s.top;
      let shown = Math.min(w, WIDEST[box.id]) * Math.min(h, need);
      if (w < Math.min(MIN_W, field.right - field.left) || h < MIN_H) shown /= 100;
      if (was && holds(s, was)) shown *= 1.5;
      if (shown > most) {
        best = s;
        most = shown;
      }
    }
    return best || { ...field, bottom: Math.max(field.bottom, field.top + MIN_H) };
  }

  // The free rectangles of `field` that meet no block: between each two of the field's and the
  // blocks' left and right edges, the gaps from top to bottom that no block in that column
  // fills. (Every largest free rectangle is among them.)
  function freeParts(field, blocks) {
    const xs = [...new Set([field.left, field.right, ...blocks.flatMap((b) => [b.left, b.right])])]
      .filter((x) => x >= field.left && x <= field.right).sort((a, b) => a - b);
    const parts = [];
    for (let i = 0; i < xs.length; i += 1) {
      for (let j = i + 1; j < xs.length; j += 1) {
        const left = xs[i];
        const right = xs[j];
        const cuts = blocks.filter((b) => b.left < right && left < b.right).sort((a, b) => a.top - b.top);
        let top = field.top;
        for (const b of [...cuts, { top: field.bottom, bottom: field.bottom }]) {
          const bottom = Math.min(b.top, field.bottom);
          if (bottom > top) parts.push({ left, top, right, bottom });
          top = Math.max(top, b.bottom);
        }
      }
    }
    return parts;
  }

  /** The open panel Esc closes: the one opened last of those shown. */
  function topPanel() {
    const hint = shown('coach-hint');
    const seen = shown('seen-panel');
    if (hint && seen) return coach.last;
    return (hint && 'hint') || (seen && 'seen') || null;
  }

  // ----- review ---------------------------------------------------------------------------

  /** Why a review has no accuracy: no play had a choice, or the computer made those that did
   * (the person away: QA read "no play had a real choice" after the computer played them all). */
  const noAccuracy = (d) => (d.plays.some((p) => p.by_computer && !p.forced) ? 'accuracyAway' : 'accuracyNone');

  async function fetchReview(view, round) {
    return api.review(view, round);
  }

  /** Which round of which game and match a review is of: an answer is matched by all three, or
   * a late one of another game (another tab's followed, a table's rematch) or match showed as
   * the review (or the summary's headline) of the same round number here. */
  const reviewOf = (view, round) => `${view ? view.id : ''}|${view ? view.match : ''}|${round}`;

  /** A review of a table's match that a rematch has since followed (opened before or after
   * the new match came): its title says so; a reload does not keep it. */
  function earlierMatch(r) {
    const view = getState().view;
    return r.match !== undefined && Boolean(view) && view.match !== r.match;
  }

  // An open review outlives a reload of the page (this tab only): which game (a table's code on
  // the table page), which round, which step. Reopened by the first view of that game.
  const KEPT = 'scopone.review';
  let kept = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(KEPT) || 'null');
  } catch {
    kept = null;
  }

  function keepReview() {
    const r = coach.review;
    const view = getState().view;
    try {
      if (r && view && r.round >= 1 && !earlierMatch(r)) {
        sessionStorage.setItem(KEPT, JSON.stringify({ id: view.id, round: r.round, step: r.step }));
      } else sessionStorage.removeItem(KEPT);
    } catch {
      // Storage refused: a reload just closes the review, as it always did.
    }
  }

  /** The review kept before a reload, opened again once this game's view is here. */
  function reopenReview(view) {
    if (!kept || !view) return;
    const { id, round, step } = kept;
    kept = null;
    if (id === view.id && round === lastFinishedRound(view) && allows.review() && !coach.review) {
      openReview(Number(step) || 0);
    } else if (!coach.review) keepReview(); // another game now: forgotten
  }

  async function openReview(step = 0) {
    if (!allows.review()) return;
    const view = reviewed(getState().view);
    const round = lastFinishedRound(view);
    coach.review = { round, match: view && view.match, view, data: null, failed: false, step,
      opener: document.activeElement };
    coach.reviewDirty = true;
    keepReview();
    afterRender();
    $('review').focus({ preventScroll: true });
    if (round >= 1) await loadReview();
  }

  /** Asks for the open review's round, of the view it was opened on (a rematch since changes
   * nothing): when it was opened, and again by its Try again button after it failed. */
  async function loadReview() {
    const r = coach.review;
    const { round, view } = r;
    const of = reviewOf(view, round);
    const current = () => (coach.review && reviewOf(coach.review.view, coach.review.round) === of
      ? coach.review : null);
    r.failed = false;
    coach.reviewDirty = true;
    afterRender();
    try {
      const data = await fetchReview(view, round);
      const now = current();
      if (now) {
        now.data = data;
        now.failed = false;
        now.step = Math.max(0, Math.min(data.plays.length - 1, now.step));
        if (!earlierMatch(now)) showHeadline(of, data); // a summary that said it failed
      }
    } catch (err) {
      console.warn(err);
      const now = current();
      if (now && !now.data) now.failed = true;
    }
    // Whether the focus was on the review (its Try again, drawn anew as "Reviewing…"): it
    // goes to Try again when the review failed (again), not left on the dialog itself.
    const box = $('review');
    const inReview = box && (document.activeElement === box || box.contains(document.activeElement));
    coach.reviewDirty = true;
    afterRender();
    const retry = $('review-retry');
    if (inReview && retry) retry.focus({ preventScroll: true });
  }

  function closeReview() {
    const opener = coach.review && coach.review.opener;
    coach.review = null;
    coach.reviewDirty = true;
    keepReview();
    afterRender();
    if (opener && opener.isConnected) focusControl(opener, { preventScroll: true });
  }

  function stepReview(delta) {
    const r = coach.review;
    if (!r || !r.data) return;
    r.step = Math.max(0, Math.min(r.data.plays.length - 1, r.step + delta));
    coach.reviewDirty = true;
    keepReview();
    afterRender();
  }

  // What each mark of a review's cards says (to a screen reader, and in the legend).
  const MARK_TEXT = { played: 'markPlayed', bestcard: 'markBest' };

  // `where` names the row (review-table, review-hand): both mark the play's cards as played.
  function cardsRow(where, codes, marks = {}) {
    const design = getState().prefs.design;
    if (!codes.length) return `<p class="review-empty ${where}">${esc(tr('empty'))}</p>`;
    return `<div class="review-cards ${where}" role="list">${codes.map((c) => {
      const m = marks[c] || [];
      const label = [cardName(lang(), c), ...m.map((k) => tr(MARK_TEXT[k]))].join(', ');
      return `<span role="listitem" class="mini ${m.join(' ')}" data-code="${c}" aria-label="${esc(label)}">${cardSvg(c, design, lang())}</span>`;
    }).join('')}</div>`;
  }

  function renderReview() {
    if (!coach.reviewDirty) return;
    coach.reviewDirty = false;
    const box = $('review');
    const r = coach.review;
    box.hidden = !r;
    if (!r) return;
    const title = `<h2 id="review-title">${esc(r.round < 1 ? tr('review') : tr(earlierMatch(r) ? 'reviewTitleEarlier' : 'reviewTitle', { n: r.round }))}</h2>`;
    const closeBtn = `<button type="button" id="review-close">${esc(tr('close'))}</button>`;
    let body;
    if (r.round < 1) body = `<p>${esc(tr('noRound'))}</p>`;
    else if (r.failed) {
      body = `<p class="review-failed" role="alert">${esc(tr('reviewFailed'))}</p>
        <p><button type="button" id="review-retry">${esc(tr('tryAgain'))}</button></p>`;
    }
    else if (!r.data) body = `<p class="review-loading" aria-busy="true">${esc(tr('reviewLoading'))}</p>`;
    else body = reviewBody(r);
    // Drawn anew under the person's focus (a rematch came, the language changed): it stays on
    // the same control, or on the review itself, never on the page behind it.
    const active = document.activeElement;
    const focused = active && active !== box && box.contains(active) ? active.id || '' : null;
    box.innerHTML = `<div class="review-panel">${title}${body}<div class="review-nav">${
      r.data && r.data.plays.length ? `<button type="button" id="review-prev" ${r.step === 0 ? 'disabled' : ''}>${esc(tr('prev'))}</button>
      <button type="button" id="review-next" ${r.step >= r.data.plays.length - 1 ? 'disabled' : ''}>${esc(tr('next'))}</button>` : ''}
      ${closeBtn}</div></div>`;
    box.setAttribute('aria-labelledby', 'review-title');
    if (focused !== null) {
      const again = focused && $(focused);
      (again && !again.disabled ? again : box).focus({ preventScroll: true });
    }
  }

  /** Who made a play of the round: the seat's name (or the person's who held it until the
   * host handed it to the computer: `held_by`), and "· computer" for a person's card that the
   * computer chose (they were away). */
  function playedBy(h) {
    const name = h.held_by || seatLabel(lang(), h.seat);
    return h.by_computer ? t(lang(), 'byComputer', { seat: name }) : name;
  }

  function reviewBody(r) {
    const d = r.data;
    // Neither a forced play nor one the computer chose for the person (away) is judged.
    const judged = d.plays.filter((p) => !p.forced && !p.by_computer);
    const good = judged.filter((p) => p.label === 'best' || p.label === 'good').length;
    const acc = d.accuracy === null
      ? `<p id="review-accuracy">${esc(tr(noAccuracy(d)))}</p>`
      : `<p id="review-accuracy"><strong>${esc(tr('accuracy', { p: Math.round(d.accuracy * 100) }))}</strong> · ${esc(tr('accuracyOf', { good, n: judged.length }))}</p>`;
    const counts = `<ul class="review-counts">${['best', 'good', 'inaccuracy', 'mistake', 'blunder'].map((k) => `<li class="chip ${k}" data-label="${k}">${esc(tr(k))}: <b>${d.counts[k]}</b></li>`).join('')}</ul>`;
    const hints = `<p class="review-hints">${esc(tr('hintsUsed', { n: d.hints_used }))}</p>`;
    if (!d.plays.length) return acc + counts + hints;
    const p = d.plays[r.step];
    const marks = { [p.played.card]: ['played'] };
    if (p.best && p.best.card !== p.played.card) marks[p.best.card] = ['bestcard'];
    const tableMarks = {};
    for (const c of p.played.capture) tableMarks[c] = ['played'];
    if (p.best) for (const c of p.best.capture) tableMarks[c] = [...(tableMarks[c] || []), 'bestcard'];
    let verdict;
    if (p.by_computer) verdict = `<p class="verdict by-computer">${esc(tr('computerChose'))}</p>`;
    else if (p.forced) verdict = `<p class="verdict forced">${esc(tr('forced'))}</p>`;
    else {
      const same = sameMove(p.best, p.played);
      // Another move judged best, but the play labelled "best" too: its loss is within the
      // judgement's noise (SPEC §7), so it did not cost anything worth the name.
      const after = p.label === 'best' ? tr('asGood') : tr('cost', { x: costText(lang(), p.loss, p.label) });
      verdict = `<p class="verdict"><span class="chip ${p.label}" id="review-label">${esc(tr(p.label))}</span>
        ${same ? esc(tr('sameAsBest')) : `${esc(tr('bestWas', { move: moveText(p.best) }))}. ${esc(after)}`}</p>
        <ol class="hint-options">${p.options.map((o) => optionRow(o, { played: p.played })).join('')}</ol>`;
    }
    // The round as it happened: the others' plays since the person's previous one.
    const since = r.step === 0 ? 0 : d.plays[r.step - 1].index + 1;
    const before = d.history.slice(since, p.index).map((h) => `<li${h.by_computer ? ' class="by-computer"' : ''}>${esc(playedBy(h))}: ${esc(moveText(h))}${h.scopa ? ` <b>${esc(tr('scopa'))}</b>` : ''}</li>`).join('');
    const played = p.by_computer ? tr('computerPlayed', { move: moveText(p.played) }) : tr('youPlayed', { move: moveText(p.played) });
    // A review stored before reasons were kept (none sent for its moves) still says its scopa.
    const why = p.scopa && !(p.played.reasons || []).length ? [{ kind: 'scopa' }] : p.played.reasons;
    return `${acc}${counts}${hints}
      <section class="review-step${p.by_computer ? ' by-computer' : ''}" aria-live="polite" aria-atomic="true">
        <h3 id="review-step">${esc(tr('step', { k: r.step + 1, n: d.plays.length }))}</h3>
        ${before ? `<ul class="review-before">${before}</ul>` : ''}
        <p class="played">${esc(played)}${whyHtml(why)}</p>
        ${verdict}
        <h4>${esc(tr('tableBefore'))}</h4>${cardsRow('review-table', p.table, tableMarks)}
        <h4>${esc(tr('handBefore'))}</h4>${cardsRow('review-hand', p.hand, marks)}
        <p class="review-legend" aria-hidden="true">${Object.entries(MARK_TEXT).filter(([k]) => k === 'played' || p.best)
          .map(([k, key]) => `<span class="mark ${k}"></span> ${esc(tr(key))}`).join(' ')}</p>
      </section>`;
  }

  // ----- the round summary: the review's headline and a button -------------------------

  function renderSummaryExtras(view) {
    const box = $('summary');
    if (box.hidden || !view || !allows.review()) return;
    const panel = box.querySelector('.summary-panel');
    if (!panel || panel.querySelector('#summary-review')) return;
    const round = lastFinishedRound(view);
    const extra = document.createElement('div');
    extra.className = 'summary-coach';
    extra.innerHTML = `<p id="summary-coach-note" aria-live="polite" data-round="${round}" data-of="${esc(reviewOf(view, round))}"></p>
      <button type="button" id="summary-review" aria-keyshortcuts="R">${esc(tr('review'))}</button>`;
    panel.insertBefore(extra, panel.querySelector('#summary-go'));
    extra.querySelector('#summary-review').addEventListener('click', () => openReview());
    // The server reviews a finished round at once; its headline shows here when ready. Failed
    // (the connection, the server), it says so: the review opened later fills it in.
    const of = reviewOf(view, round);
    fetchReview(view, round).then((d) => showHeadline(of, d), (err) => {
      console.warn(err);
      showHeadline(of, null);
    });
  }

  /** The round summary's headline of the review `d` of `of` (reviewOf), or that it could not
   * be made (`d` null, and nothing better shown already); a summary of another round (of
   * another game or match) is left. */
  function showHeadline(of, d) {
    const note = $('summary-coach-note');
    if (!note || note.dataset.of !== of) return;
    if (!d) {
      if (!note.textContent) note.textContent = tr('reviewFailedNote');
      return;
    }
    const acc = d.accuracy === null ? tr(noAccuracy(d)) : tr('accuracy', { p: Math.round(d.accuracy * 100) });
    note.textContent = `${acc} · ${tr('hintsUsed', { n: d.hints_used })}`;
  }

  // ----- buttons, keys, texts ------------------------------------------------------------

  function afterRender() {
    const state = getState();
    const view = state.view;
    // The review is drawn only when it changed: a switch of language, or a rematch under it
    // (its title then says it is the last match's), is such a change.
    const drawnFor = `${lang()}|${view ? view.match : ''}`;
    if (coach.reviewDrawnFor !== drawnFor) {
      coach.reviewDrawnFor = drawnFor;
      coach.reviewDirty = true;
    }
    $('btn-hint').textContent = tr('hint');
    $('btn-hint').hidden = !allows.hint();
    $('btn-hint').disabled = !view || view.status !== 'your_turn';
    $('btn-seen').textContent = tr('seen');
    $('btn-seen').hidden = !allows.seen();
    $('btn-review').textContent = tr('review');
    $('btn-review').hidden = !allows.review();
    $('btn-review').disabled = lastFinishedRound(reviewed(view)) < 1;
    if ($('link-stats')) $('link-stats').textContent = tr('stats');
    renderHint(view);
    renderSeen(view);
    placePanels();
    reopenReview(view);
    renderReview();
    renderSummaryExtras(view);
  }

  /** A dialog over the game that takes the keys (the review keeps its own, below). The
   * settings are no dialog: every key of the game acts with them open, and H, C and R close
   * them first (main.js), as the coach's buttons do. */
  function dialogOpen() {
    for (const el of document.querySelectorAll('[role="dialog"][aria-modal="true"]')) {
      if (el.id !== 'review' && !el.hidden) return el;
    }
    return null;
  }

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = event.target && event.target.tagName;
    if (tag === 'SELECT' || tag === 'INPUT' || tag === 'TEXTAREA') return;
    const key = event.key;
    if (coach.review) {
      // The review is modal: its keys only, none reaches the game underneath.
      event.stopImmediatePropagation();
      if (key === 'Escape' || key === 'r' || key === 'R') closeReview();
      else if (key === 'ArrowRight' || key === 'ArrowDown') stepReview(1);
      else if (key === 'ArrowLeft' || key === 'ArrowUp') stepReview(-1);
      else if (key === 'Home') stepReview(-1e9);
      else if (key === 'End') stepReview(1e9);
      else if (key === 'Tab') trapFocus(event);
      else return;
      if (key !== 'Tab') event.preventDefault();
      return;
    }
    const dialog = dialogOpen();
    if (dialog) {
      // Its own keys (Esc included) are its own; the coach's panels would open behind it. The
      // round summary offers the review (its button says R).
      if (dialog.id === 'summary' && (key === 'r' || key === 'R')) {
        event.preventDefault();
        openReview();
      }
      return;
    }
    if (key === 'Escape') {
      // The panel on top goes first; with none open, Esc cancels a card's selection (main.js).
      const panel = topPanel();
      if (!panel) return;
      event.stopPropagation();
      if (panel === 'hint') closeHint();
      else closeSeen();
    } else if (key === 'h' || key === 'H') toggleHint();
    else if (key === 'c' || key === 'C') toggleSeen();
    else if (key === 'r' || key === 'R') openReview();
    else return;
    event.preventDefault();
  }

  function trapFocus(event) {
    const items = [...$('review').querySelectorAll('button:not([disabled])')];
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  // Capture phase: the review's keys are handled before the game's own (main.js) see them.
  window.addEventListener('keydown', onKey, true);
  // A phone turned round, a window resized: the panels follow the bar, the seats and the table.
  let placing = 0;
  window.addEventListener('resize', () => {
    if (!placing) placing = requestAnimationFrame(() => { placing = 0; placePanels(); });
  });
  $('btn-hint').addEventListener('click', () => toggleHint());
  $('coach-hint').addEventListener('click', (event) => {
    if (event.target.closest('#hint-close')) closeHint();
  });
  $('btn-seen').addEventListener('click', () => toggleSeen());
  $('seen-panel').addEventListener('click', (event) => {
    if (event.target.closest('#seen-close')) closeSeen();
  });
  $('btn-review').addEventListener('click', () => openReview());
  $('review').addEventListener('click', (event) => {
    const id = event.target.closest('button') && event.target.closest('button').id;
    if (id === 'review-close') closeReview();
    else if (id === 'review-retry') loadReview();
    else if (id === 'review-prev') { stepReview(-1); $('review-prev').focus(); }
    else if (id === 'review-next') { stepReview(1); const n = $('review-next'); (n.disabled ? $('review-prev') : n).focus(); }
  });
  return { afterRender };
}
