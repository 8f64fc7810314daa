// Writing the page from the state: one renderNow(state), batched by render(state).

import { DESIGNS, backSvg, cardSvg } from './cards.js';
import { LANGS, LANG_NAMES, cardName, seatName, t } from './i18n.js';
import { highlights, remaining } from './select.js';
import { rulesUrl } from './site.js';

export const LEVELS = ['easy', 'normal', 'hard'];

const $ = (id) => document.getElementById(id);
let tr = (key, params) => t('en', key, params); // bound to the state's language by renderNow

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const written = new WeakMap();
/** Writes markup only when it changed: parsing card SVGs is the costly part of a render. */
function setHtml(el, html) {
  if (written.get(el) === html) return false;
  el.innerHTML = html;
  written.set(el, html);
  return true;
}

/** Writes a row of card buttons. When the same cards are drawn again in the same order with
 * another state (lit, picked, a ghost that landed), each button is updated in place: a finger
 * or the focus on it stays on it, where a rewrite would swap the button out from under it. */
function setCards(el, buttons) {
  const html = buttons.join('');
  if (written.get(el) === html) return false;
  written.set(el, html);
  const template = document.createElement('template');
  template.innerHTML = html;
  const fresh = [...template.content.children];
  const old = [...el.children];
  const same = old.length === fresh.length && fresh.length > 0
    && fresh.every((b, i) => b.dataset.code === old[i].dataset.code && b.innerHTML === old[i].innerHTML);
  if (!same) {
    el.replaceChildren(...fresh);
    return true;
  }
  fresh.forEach((b, i) => copyAttributes(b, old[i]));
  return false;
}

function copyAttributes(from, to) {
  for (const { name } of [...to.attributes]) if (!from.hasAttribute(name)) to.removeAttribute(name);
  for (const { name, value } of [...from.attributes]) if (to.getAttribute(name) !== value) to.setAttribute(name, value);
}

function cardButton(state, code, classes, extra = '') {
  // The name is the button's text (no aria-label that the drawn numerals would contradict),
  // and starts with the rank the card shows, so saying "click 8" finds the eight.
  const name = esc(`${code.slice(0, -1)} – ${cardName(state.prefs.lang, code)}`);
  return `<button type="button" class="card ${classes}" data-code="${esc(code)}" ${extra}><span class="card-name visually-hidden">${name}</span>${cardSvg(code, state.prefs.design, state.prefs.lang)}</button>`;
}

function backs(state, n, cls) {
  let html = '';
  for (let i = 0; i < n; i += 1) html += `<span class="${cls}">${backSvg(state.prefs.design)}</span>`;
  return html;
}

/** A seat's name: the page's own (a table of friends names its people), else "Partner" etc. */
function seatLabel(state, seat) {
  return state.seatLabel ? state.seatLabel(seat) : seatName(state.prefs.lang, seat);
}

/** A pair's name: "We"/"They" for a player, the page's own for a spectator. */
function pairLabel(state, pair) {
  return state.pairNames ? state.pairNames[pair] : tr(pair === 0 ? 'pairA' : 'pairB');
}

export function isOver(view) {
  return view.status === 'round_over' || view.status === 'match_over';
}

function renderTexts(state) {
  const { lang } = state.prefs;
  document.documentElement.lang = lang;
  document.title = tr('title');
  for (const el of document.querySelectorAll('[data-i18n]')) {
    const text = tr(el.dataset.i18n);
    if (el.textContent !== text) el.textContent = text;
  }
  $('hand').setAttribute('aria-label', tr('hand'));
  $('table').setAttribute('aria-label', tr('table'));
  fillSelect($('set-level'), LEVELS.map((l) => [l, tr(l)]), state.view ? state.view.level : state.prefs.level);
  fillSelect($('set-variant'), ['scientifico', 'classico'].map((v) => [v, tr(v)]), state.prefs.variant);
  fillSelect($('set-target'), [11, 21, 31].map((n) => [String(n), String(n)]), String(state.prefs.target));
  fillSelect($('set-design'), DESIGNS.map((d) => [d, tr(d)]), state.prefs.design);
  fillSelect($('set-speed'), [['normal', tr('speedNormal')], ['fast', tr('speedFast')]], state.prefs.speed);
  fillSelect($('set-lang'), LANGS.map((l) => [l, LANG_NAMES[l]]), lang);
  $('set-napola').checked = state.prefs.napola;
}

function fillSelect(select, options, value) {
  // Rewritten only when the options change, so an open drop-down is not closed by a render.
  const html = options.map(([v, label]) => `<option value="${esc(v)}">${esc(label)}</option>`).join('');
  if (select.dataset.html !== html) {
    select.innerHTML = html;
    select.dataset.html = html;
  }
  if (select !== document.activeElement) select.value = value;
}

/** A control's whole label, and the short one the bar with a menu (a phone on its side, a
 * short one upright) shows in its place ("Easy", "Napola ✓"; scopone.css), where a screen
 * reader still reads the whole. */
function labelled(button, whole, short) {
  setHtml(button, `<span class="long">${esc(whole)}</span><span class="short" aria-hidden="true">${esc(short)}</span>`);
}

function renderBar(state, view) {
  const level = view ? view.level : state.prefs.level;
  const rules = view ? view.rules : state.prefs;
  const score = view ? view.score : [0, 0];
  setHtml($('score'), `<span class="pair-a">${esc(tr('pairA'))} <b id="score-a">${score[0]}</b></span>
    <span class="dash">–</span>
    <span class="pair-b"><b id="score-b">${score[1]}</b> ${esc(tr('pairB'))}</span>
    <span class="target">${esc(tr('target', { n: rules.target }))}</span>`);
  const napola = rules.napola ? 'on' : 'off';
  labelled($('btn-new'), tr('newMatch'), tr('newShort'));
  labelled($('btn-level'), `${tr('level')}: ${tr(level)}`, tr(level));
  $('btn-level').dataset.level = level;
  labelled($('btn-napola'), `${tr('napola')}: ${tr(napola)}`, `${tr('napola')}${rules.napola ? ' ✓' : ''}`);
  $('btn-napola').setAttribute('aria-pressed', String(Boolean(rules.napola)));
  labelled($('btn-design'), `${tr('design')}: ${tr(state.prefs.design)}`, tr(state.prefs.design));
  $('btn-settings').textContent = tr('settings');
  $('btn-menu').textContent = tr('menu');
  $('btn-settings').setAttribute('aria-expanded', String(state.settingsOpen));
  $('settings').hidden = !state.settingsOpen;
  // Just under the bar, however many rows its controls take on a narrow screen.
  if (state.settingsOpen) {
    const top = Math.round($('bar').getBoundingClientRect().bottom) + 6;
    $('settings').style.top = `${top}px`;
    $('settings').style.maxHeight = `calc(100dvh - ${top + 10}px)`;
  }
  $('variant-label').textContent = view ? tr(view.rules.variant) : '';
}

/** The backs of a seat's `n` cards and their count: all the page ever shows of a hand it may
 * not see. */
function seatCards(state, n) {
  return `<div class="backs" aria-hidden="true">${backs(state, n, 'mini')}</div>
      <div class="count" aria-hidden="true">${n}</div>`;
}

/** The dealer's dot after a seat's name, named for a pointer's hover and a screen reader
 * alike (the person's own seat once had a bare dot). */
function dealerMark(view, seat) {
  if (!view || view.dealer !== seat) return '';
  const name = esc(tr('dealer'));
  return ` <span class="dealer" role="img" aria-label="${name}" title="${name}">●</span>`;
}

function renderSeats(state, view) {
  for (const seat of [1, 2, 3]) {
    const box = $(`seat-${seat}`);
    const n = view ? view.hand_counts[seat] : 0;
    box.classList.toggle('thinking', state.thinking === seat);
    box.classList.toggle('to-play', Boolean(view) && view.turn === seat);
    box.setAttribute('aria-label', tr(n === 1 ? 'seatCardOne' : 'seatCards', { seat: seatLabel(state, seat), n }));
    setHtml(box, `<div class="seat-name">${esc(seatLabel(state, seat))}${dealerMark(view, seat)}<span class="dots" aria-hidden="true"></span></div>
      ${seatCards(state, n)}`);
  }
  setHtml($('seat-0-name'), esc(seatLabel(state, 0)) + dealerMark(view, 0));
  $('seat-0').classList.toggle('to-play', Boolean(view) && view.turn === 0);
  renderWatchedSeat(state, view);
}

/** A spectator (`state.watching`) holds no seat: the bottom one is drawn like the other three,
 * its cards' backs and their count, and not as a hand (the server sends a spectator none). */
function renderWatchedSeat(state, view) {
  const box = $('seat-0');
  const watching = Boolean(state.watching) && Boolean(view);
  box.classList.toggle('watched', watching);
  $('hand').hidden = watching;
  let cards = $('seat-0-cards');
  if (!watching) {
    if (cards) cards.remove();
    box.removeAttribute('aria-label');
    return;
  }
  if (!cards) {
    cards = document.createElement('div');
    cards.id = 'seat-0-cards';
    cards.className = 'seat-cards';
    $('seat-0-name').after(cards);
  }
  const n = view.hand_counts[0];
  box.setAttribute('aria-label', tr(n === 1 ? 'seatCardOne' : 'seatCards', { seat: seatLabel(state, 0), n }));
  setHtml(cards, seatCards(state, n));
}

function renderTable(state, view) {
  const box = $('table-cards');
  const cards = view ? view.table : [];
  const { lit, chosen, picked } = highlights(state.sel);
  setCards(box, cards.map((code) => {
    const cls = [
      lit.has(code) ? 'lit' : '', chosen.has(code) ? 'chosen' : '', picked.has(code) ? 'picked' : '',
      state.hiddenTable.has(code) ? 'ghost' : '',
    ].join(' ');
    const attrs = lit.has(code) || picked.has(code) ? `aria-pressed="${picked.has(code) || chosen.has(code)}"` : 'tabindex="-1" aria-disabled="true"';
    return cardButton(state, code, cls, attrs);
  }));
  // A crowded table takes smaller cards rather than pushing the hand off the screen.
  box.classList.toggle('many', cards.length >= 9);
  $('table-empty').hidden = cards.length > 0;
  $('table-empty').textContent = tr('tableEmpty');
}

function renderPiles(state, view) {
  for (const pair of [0, 1]) {
    const pile = view ? view.piles[pair] : [];
    const scope = view ? view.history.filter((p) => p.scopa && p.seat % 2 === pair).map((p) => p.card) : [];
    const name = pairLabel(state, pair);
    const box = $(`pile-${pair}`);
    box.setAttribute('aria-label', tr('pile', { pair: name, n: pile.length, s: scope.length }));
    // The traditional way: each scopa card lies face up across the pile, sticking out at its
    // sides. Seven places along the pile (scopone.css), taken again from the middle after the
    // seventh: the cards stay within the pile's height, clear of its name and its count.
    const across = scope.map((code, i) => `<span class="scopa-card s${i % 7}">${cardSvg(code, state.prefs.design, state.prefs.lang)}</span>`).join('');
    setHtml(box, `<div class="pile-name" aria-hidden="true">${esc(name)}</div>
      <div class="pile-stack" aria-hidden="true">${across}${pile.length ? `<span class="pile-top">${backSvg(state.prefs.design)}</span>` : '<span class="pile-empty"></span>'}</div>
      <div class="pile-count" aria-hidden="true"><b>${pile.length}</b>${scope.length ? `<span class="pile-scope"><span class="sep"> · </span>${esc(tr('scope'))} <b>${scope.length}</b></span>` : ''}</div>`);
  }
}

function renderHand(state, view) {
  const box = $('hand');
  const focused = document.activeElement && box.contains(document.activeElement)
    ? document.activeElement.dataset.code : null;
  const hand = view ? view.hand : [];
  // Not while a newer view is on its way (`state.behind`): a card chosen now would be stale.
  const playable = view && view.status === 'your_turn' && !state.busy
    && !(state.behind && state.behind());
  box.style.setProperty('--n', String(Math.max(hand.length, 1)));
  box.classList.toggle('playable', Boolean(playable));
  const changed = setCards(box, hand.map((code, i) => {
    const selected = state.sel && state.sel.card === code;
    const key = i === 9 ? '0' : String(i + 1);
    return cardButton(state, code, selected ? 'selected' : '', `aria-pressed="${Boolean(selected)}" data-key="${key}"`)
      .replace('</button>', `<span class="key" aria-hidden="true">${key}</span></button>`);
  }));
  // Marks for the load-time figure: the hand drawn, then the hand ready to play.
  if (hand.length && !performance.getEntriesByName('scopone:hand').length) performance.mark('scopone:hand');
  if (playable && !performance.getEntriesByName('scopone:playable').length) performance.mark('scopone:playable');
  if (changed && focused) {
    const again = box.querySelector(`[data-code="${focused}"]`) || box.querySelector('.card');
    if (again) again.focus({ preventScroll: true });
  }
}

function renderStatus(state, view) {
  let text = '';
  let brief = ''; // the same, short, where the line has no room for it (coach.css)
  if (!view) text = '';
  else if (view.status === 'your_turn') {
    // By keys, the arrows only where they have a move to switch to.
    if (state.sel && state.sel.viaKeys) text = tr(remaining(state.sel).length > 1 ? 'chooseKeys' : 'chosenKeys');
    else if (state.sel) {
      text = tr('chooseCapture');
      brief = tr('chooseCaptureBrief');
    }
    else text = tr('yourTurn');
  } else if (view.status === 'computer_turn' || view.status === 'their_turn') {
    const seat = seatLabel(state, view.turn);
    text = state.thinking === view.turn ? tr('thinking', { seat }) : tr('waiting', { seat });
  } else if (view.status === 'round_over') text = tr('roundOver');
  else text = tr('matchOver');
  const status = $('status');
  if (!brief) status.textContent = text;
  else {
    const whole = document.createElement('span');
    const short = document.createElement('span');
    whole.className = 'whole';
    short.className = 'brief';
    whole.textContent = text;
    short.textContent = brief;
    status.replaceChildren(whole, short);
  }
  $('btn-cancel').hidden = !state.sel;
  $('btn-cancel').textContent = tr('cancel');
}

/** The round a summary of `view` is of: its game, match, round and whether the match is over. */
const summaryOf = (view) => (view ? `${view.id}|${view.match}|${view.rounds.length}|${view.status}` : '');

function renderSummary(state, view) {
  const box = $('summary');
  box.dataset.of = summaryOf(view);
  const open = Boolean(view) && state.summaryOpen && isOver(view) && view.rounds.length > 0;
  // Closed with the focus on its button ("Next round"), the focus goes to the hand, where the
  // next key is wanted, not to the page's start (a keyboard would have to find its way back).
  if (!open && !box.hidden && box.contains(document.activeElement)) $('hand').focus({ preventScroll: true });
  box.hidden = !open;
  if (!open) return;
  const r = view.rounds[view.rounds.length - 1];
  const [a, b] = r.tallies;
  const yes = (v) => (v ? tr('yes') : tr('no'));
  const rows = [
    ['carte', a.cards, b.cards],
    ['denari', a.denari, b.denari],
    ['settebello', yes(a.settebello), yes(b.settebello)],
    ['primiera', a.primiera ?? tr('no'), b.primiera ?? tr('no')],
    ['scope', a.scope, b.scope],
  ];
  if (view.rules.napola) rows.push(['napola', a.napola || tr('no'), b.napola || tr('no')]);
  const pts = (n) => (n ? `<span class="pts">+${n}</span>` : '');
  const body = rows.map(([cat, fa, fb]) => `<tr data-cat="${cat}"><th scope="row">${esc(tr(cat))}</th>
      <td><span class="fig">${esc(fa)}</span>${pts(r.categories[cat][0])}</td>
      <td><span class="fig">${esc(fb)}</span>${pts(r.categories[cat][1])}</td></tr>`).join('');
  const over = view.status === 'match_over';
  const winner = over ? `<p class="winner" id="winner">${esc(tr(view.winner === 'A' ? 'weWin' : 'theyWin'))}</p>` : '';
  // Both at the target and level (SPEC §1: another round): said, or "12 – 12 (to 11)" with
  // "Next round" looks like a match that forgot to end.
  const target = view.rules.target;
  const tied = !over && view.score[0] >= target && view.score[0] === view.score[1]
    ? `<p class="tied" id="tied">${esc(tr('tiedAtTarget', { n: target, score: view.score[0] }))}</p>` : '';
  // At a table the rules open in a tab of their own: leaving the table's page would show this
  // person offline to the others.
  const away = state.seatLabel ? ' target="_blank" rel="noopener"' : '';
  box.innerHTML = `<div class="summary-panel">
    <h2 id="summary-title">${esc(tr('roundTitle', { n: r.number }))}</h2>
    <table class="breakdown">
      <thead><tr><th scope="col">${esc(tr('category'))}</th><th scope="col">${esc(pairLabel(state, 0))}</th><th scope="col">${esc(pairLabel(state, 1))}</th></tr></thead>
      <tbody>${body}</tbody>
      <tfoot>
        <tr class="round-points"><th scope="row">${esc(tr('roundPoints'))}</th><td id="round-a">${r.points[0]}</td><td id="round-b">${r.points[1]}</td></tr>
        <tr class="match-score"><th scope="row">${esc(tr('matchScore'))} (${esc(tr('target', { n: view.rules.target }))})</th><td id="match-a">${view.score[0]}</td><td id="match-b">${view.score[1]}</td></tr>
      </tfoot>
    </table>
    <p class="summary-how"><a id="summary-rules" href="${esc(rulesUrl(state.prefs.lang, 'scoring'))}"${away}>${esc(tr('howCounted'))}</a></p>
    ${winner}${tied}
    <button type="button" id="summary-go" class="primary">${esc(tr(over ? 'newMatch' : 'nextRound'))}</button>
  </div>`;
  box.setAttribute('aria-labelledby', 'summary-title');
  $('summary-go').focus({ preventScroll: true });
}

/** After a new match replaced one under way: a word, and the way back to it. */
function renderLeftMatch(state) {
  $('left-match').hidden = !state.leftMatch;
  if (!state.leftMatch) return;
  $('left-match-text').textContent = tr('leftMatch');
  $('btn-back-match').textContent = tr('backToMatch');
}

// What the notice says of an action waiting to be sent again, by its kind (resend.js).
const WAITS_TEXT = { card: 'errorCardWaits', round: 'errorRoundWaits', match: 'errorMatchWaits' };

function renderError(state) {
  // A card or a deal the server could not take waits to be sent again (resend.js): said until
  // it goes, whatever news of the game comes meanwhile. Which one waits is the notice's
  // data-waits (tests wait on it).
  const waiting = state.waits ? state.waits.action : null;
  $('error').hidden = !state.error && !waiting;
  $('error').dataset.waits = waiting ? waiting.kind : '';
  $('error-text').textContent = tr(waiting ? WAITS_TEXT[waiting.kind] : 'error');
  $('error-retry').textContent = tr('retry');
  keepSummaryClear();
}

/** Over the round's summary the notice floats at the window's foot (scopone.css), where on a
 * phone it lay over the summary's buttons (three lines of it in Italian and German: Review and
 * Next round hidden under it, QA helper-73). The summary keeps that room free (--error-room),
 * scrolling inside if it must, its button brought into sight as the notice comes. */
function keepSummaryClear() {
  const error = $('error');
  const floats = !error.hidden && !$('summary').hidden;
  const room = floats ? `${Math.ceil(error.getBoundingClientRect().height) + 10}px` : '0px';
  const root = document.documentElement.style;
  if (root.getPropertyValue('--error-room') === room) return;
  root.setProperty('--error-room', room);
  const go = floats && $('summary-go');
  if (go) go.scrollIntoView({ block: 'nearest' });
}

/** Writes the board (seats, table, piles, hand, status, summary) from `state`: the part of the
 * page that the solo game and a table with friends share. */
export function renderBoard(state) {
  tr = (key, params) => t(state.prefs.lang, key, params);
  const view = state.view;
  renderSeats(state, view);
  renderTable(state, view);
  renderPiles(state, view);
  renderHand(state, view);
  renderStatus(state, view);
  // An open summary is written once (its button keeps the focus), unless it is of another
  // round now: another game followed with its summary open too (another tab's, its round over,
  // after this match's end) kept the old match's, "You win the match!" and New match over a
  // round that was only over, its coach's line never asked.
  const wasOpen = !$('summary').hidden;
  if (!wasOpen || !state.summaryOpen || $('summary').dataset.of !== summaryOf(view)) {
    renderSummary(state, view);
  }
  renderLeftMatch(state);
  renderError(state);
}

/** Writes the whole page from `state`; only what changed reaches the DOM. */
export function renderNow(state) {
  tr = (key, params) => t(state.prefs.lang, key, params);
  const view = state.view;
  renderTexts(state);
  renderBar(state, view);
  renderBoard(state);
  document.body.dataset.design = state.prefs.design;
  document.body.dataset.status = view ? view.status : 'loading';
  document.body.dataset.speed = state.prefs.speed;
}

let frame = 0;
/** `renderNow` at the next frame, once however often it is asked for. */
export function render(state) {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    renderNow(state);
  });
}
