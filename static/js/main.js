// The page: one state object, one render, input handlers that only call small functions.

import { api } from './api.js';
import { DESIGNS, backSvg, cardSvg, installSprite } from './cards.js';
import { LANGS, LANG_NAMES, browserLang, cardList, cardName, seatName, t } from './i18n.js';
import { current, cycle, highlights, pickCard, pickTable } from './select.js';

const LEVELS = ['easy', 'normal', 'hard'];
const STORE_GAME = 'scopone.game';
const STORE_PREFS = 'scopone.prefs';
// Milliseconds for each step of a play: a computer "thinks", the card flies to the table,
// rests there with what it takes, then everything sweeps to the pile (about 0.7 s a card).
const PACE = {
  normal: { think: 220, fly: 300, hold: 200, sweep: 240, end: 700, banner: 1100 },
  fast: { think: 0, fly: 90, hold: 40, sweep: 70, end: 150, banner: 500 },
};

const $ = (id) => document.getElementById(id);

const state = {
  view: null, // the GameView as the server sent it
  sel: null, // the card being played and its open options (select.js)
  prefs: loadPrefs(),
  busy: false, // seat 0's move is on its way
  driving: false, // the loop that asks the computers to play is running
  thinking: null, // the computer seat that is deciding
  summaryOpen: false,
  settingsOpen: false,
  hiddenTable: new Set(), // table cards kept invisible while a flying copy lands on them
  error: null,
};

// ----- preferences and storage ----------------------------------------------------------------

function loadPrefs() {
  const defaults = {
    level: 'normal', napola: false, variant: 'scientifico', target: 11,
    design: 'classic', speed: 'normal', lang: browserLang(navigator.languages || [navigator.language]),
  };
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_PREFS) || '{}');
    return { ...defaults, ...saved };
  } catch {
    return defaults;
  }
}

function savePrefs() {
  localStorage.setItem(STORE_PREFS, JSON.stringify(state.prefs));
}

const tr = (key, params) => t(state.prefs.lang, key, params);

// ----- rendering ------------------------------------------------------------------------------

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const written = new WeakMap();
/** Writes markup only when it changed: parsing card SVGs is the costly part of a render. */
function setHtml(el, html) {
  if (written.get(el) === html) return false;
  el.innerHTML = html;
  written.set(el, html);
  return true;
}

function cardButton(code, classes, extra = '') {
  const name = esc(cardName(state.prefs.lang, code));
  return `<button type="button" class="card ${classes}" data-code="${esc(code)}" aria-label="${name}" ${extra}>${cardSvg(code, state.prefs.design, state.prefs.lang)}</button>`;
}

function backs(n, cls) {
  let html = '';
  for (let i = 0; i < n; i += 1) html += `<span class="${cls}">${backSvg(state.prefs.design)}</span>`;
  return html;
}

function isOver(view) {
  return view.status === 'round_over' || view.status === 'match_over';
}

function renderTexts() {
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

function renderBar(view) {
  const level = view ? view.level : state.prefs.level;
  const rules = view ? view.rules : state.prefs;
  const score = view ? view.score : [0, 0];
  setHtml($('score'), `<span class="pair-a">${esc(tr('pairA'))} <b id="score-a">${score[0]}</b></span>
    <span class="dash">–</span>
    <span class="pair-b"><b id="score-b">${score[1]}</b> ${esc(tr('pairB'))}</span>
    <span class="target">${esc(tr('target', { n: rules.target }))}</span>`);
  $('btn-new').textContent = tr('newMatch');
  $('btn-level').textContent = `${tr('level')}: ${tr(level)}`;
  $('btn-level').dataset.level = level;
  $('btn-napola').textContent = `${tr('napola')}: ${tr(rules.napola ? 'on' : 'off')}`;
  $('btn-napola').setAttribute('aria-pressed', String(Boolean(rules.napola)));
  $('btn-design').textContent = `${tr('design')}: ${tr(state.prefs.design)}`;
  $('btn-settings').textContent = tr('settings');
  $('btn-settings').setAttribute('aria-expanded', String(state.settingsOpen));
  $('settings').hidden = !state.settingsOpen;
  $('variant-label').textContent = view ? tr(view.rules.variant) : '';
}

function renderSeats(view) {
  for (const seat of [1, 2, 3]) {
    const box = $(`seat-${seat}`);
    const n = view ? view.hand_counts[seat] : 0;
    box.classList.toggle('thinking', state.thinking === seat);
    box.classList.toggle('to-play', Boolean(view) && view.turn === seat);
    box.setAttribute('aria-label', tr('seatCards', { seat: seatName(state.prefs.lang, seat), n }));
    const dealer = view && view.dealer === seat ? ` <span class="dealer" title="${esc(tr('dealer'))}">●</span>` : '';
    setHtml(box, `<div class="seat-name">${esc(seatName(state.prefs.lang, seat))}${dealer}<span class="dots" aria-hidden="true"></span></div>
      <div class="backs" aria-hidden="true">${backs(n, 'mini')}</div>
      <div class="count" aria-hidden="true">${n}</div>`);
  }
  const me = $('seat-0-name');
  me.textContent = seatName(state.prefs.lang, 0) + (view && view.dealer === 0 ? ' ●' : '');
  $('seat-0').classList.toggle('to-play', Boolean(view) && view.turn === 0);
}

function renderTable(view) {
  const box = $('table-cards');
  const cards = view ? view.table : [];
  const { lit, chosen, picked } = highlights(state.sel);
  setHtml(box, cards.map((code) => {
    const cls = [
      lit.has(code) ? 'lit' : '', chosen.has(code) ? 'chosen' : '', picked.has(code) ? 'picked' : '',
      state.hiddenTable.has(code) ? 'ghost' : '',
    ].join(' ');
    const attrs = lit.has(code) || picked.has(code) ? `aria-pressed="${picked.has(code) || chosen.has(code)}"` : 'tabindex="-1" aria-disabled="true"';
    return cardButton(code, cls, attrs);
  }).join(''));
  $('table-empty').hidden = cards.length > 0;
  $('table-empty').textContent = tr('tableEmpty');
}

function renderPiles(view) {
  for (const pair of [0, 1]) {
    const pile = view ? view.piles[pair] : [];
    const scope = view ? view.history.filter((p) => p.scopa && p.seat % 2 === pair).map((p) => p.card) : [];
    const name = tr(pair === 0 ? 'pairA' : 'pairB');
    const box = $(`pile-${pair}`);
    box.setAttribute('aria-label', tr('pile', { pair: name, n: pile.length, s: scope.length }));
    // The traditional way: each scopa card lies face up across the pile, sticking out.
    const across = scope.map((code, i) => `<span class="scopa-card s${Math.min(i, 5)}">${cardSvg(code, state.prefs.design, state.prefs.lang)}</span>`).join('');
    setHtml(box, `<div class="pile-name" aria-hidden="true">${esc(name)}</div>
      <div class="pile-stack" aria-hidden="true">${across}${pile.length ? `<span class="pile-top">${backSvg(state.prefs.design)}</span>` : '<span class="pile-empty"></span>'}</div>
      <div class="pile-count" aria-hidden="true"><b>${pile.length}</b>${scope.length ? `<span class="pile-scope"><span class="sep"> · </span>${esc(tr('scope'))} <b>${scope.length}</b></span>` : ''}</div>`);
  }
}

function renderHand(view) {
  const box = $('hand');
  const focused = document.activeElement && box.contains(document.activeElement)
    ? document.activeElement.dataset.code : null;
  const hand = view ? view.hand : [];
  const playable = view && view.status === 'your_turn' && !state.busy;
  box.style.setProperty('--n', String(Math.max(hand.length, 1)));
  box.classList.toggle('playable', Boolean(playable));
  const changed = setHtml(box, hand.map((code, i) => {
    const selected = state.sel && state.sel.card === code;
    const key = i === 9 ? '0' : String(i + 1);
    return cardButton(code, selected ? 'selected' : '', `aria-pressed="${Boolean(selected)}" data-key="${key}"`)
      .replace('</button>', `<span class="key" aria-hidden="true">${key}</span></button>`);
  }).join(''));
  // Marks for the load-time figure: the hand drawn, then the hand ready to play.
  if (hand.length && !performance.getEntriesByName('scopone:hand').length) performance.mark('scopone:hand');
  if (playable && !performance.getEntriesByName('scopone:playable').length) performance.mark('scopone:playable');
  if (changed && focused) {
    const again = box.querySelector(`[data-code="${focused}"]`) || box.querySelector('.card');
    if (again) again.focus({ preventScroll: true });
  }
}

function renderStatus(view) {
  let text = '';
  if (!view) text = '';
  else if (view.status === 'your_turn') {
    if (state.sel) text = state.sel.viaKeys ? tr('chooseKeys') : tr('chooseCapture');
    else text = tr('yourTurn');
  } else if (view.status === 'computer_turn') {
    const seat = seatName(state.prefs.lang, view.turn);
    text = state.thinking === view.turn ? tr('thinking', { seat }) : tr('waiting', { seat });
  } else if (view.status === 'round_over') text = tr('roundOver');
  else text = tr('matchOver');
  $('status').textContent = text;
  $('btn-cancel').hidden = !state.sel;
  $('btn-cancel').textContent = tr('cancel');
}

function renderSummary(view) {
  const box = $('summary');
  const open = Boolean(view) && state.summaryOpen && isOver(view) && view.rounds.length > 0;
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
  box.innerHTML = `<div class="summary-panel">
    <h2 id="summary-title">${esc(tr('roundTitle', { n: r.number }))}</h2>
    <table class="breakdown">
      <thead><tr><th scope="col">${esc(tr('category'))}</th><th scope="col">${esc(tr('pairA'))}</th><th scope="col">${esc(tr('pairB'))}</th></tr></thead>
      <tbody>${body}</tbody>
      <tfoot>
        <tr class="round-points"><th scope="row">${esc(tr('roundPoints'))}</th><td id="round-a">${r.points[0]}</td><td id="round-b">${r.points[1]}</td></tr>
        <tr class="match-score"><th scope="row">${esc(tr('matchScore'))} (${esc(tr('target', { n: view.rules.target }))})</th><td id="match-a">${view.score[0]}</td><td id="match-b">${view.score[1]}</td></tr>
      </tfoot>
    </table>
    ${winner}
    <button type="button" id="summary-go" class="primary">${esc(tr(over ? 'newMatch' : 'nextRound'))}</button>
  </div>`;
  box.setAttribute('aria-labelledby', 'summary-title');
  $('summary-go').focus({ preventScroll: true });
}

function renderError() {
  $('error').hidden = !state.error;
  $('error-text').textContent = tr('error');
  $('error-retry').textContent = tr('retry');
}

function renderNow() {
  const view = state.view;
  renderTexts();
  renderBar(view);
  renderSeats(view);
  renderTable(view);
  renderPiles(view);
  renderHand(view);
  renderStatus(view);
  const wasOpen = !$('summary').hidden;
  if (!wasOpen || !state.summaryOpen) renderSummary(view);
  renderError();
  document.body.dataset.design = state.prefs.design;
  document.body.dataset.status = view ? view.status : 'loading';
  document.body.dataset.speed = state.prefs.speed;
}

let frame = 0;
function render() {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    renderNow();
  });
}

// ----- animation ------------------------------------------------------------------------------

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function reducedMotion() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** A loose face-up copy of a card, placed over `rect`, for animations. */
function flyer(code, rect) {
  const el = document.createElement('div');
  el.className = 'flyer';
  el.innerHTML = cardSvg(code, state.prefs.design, state.prefs.lang);
  el.style.left = `${rect.left}px`;
  el.style.top = `${rect.top}px`;
  el.style.width = `${rect.width}px`;
  el.style.height = `${rect.height}px`;
  document.body.append(el);
  return el;
}

/** Moves an element that sits on `to` so that it comes from `from`. */
function glide(el, from, to, ms, fade = false) {
  if (!ms || reducedMotion() || !from || !to.width) return Promise.resolve();
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  const s = from.width / to.width;
  const anim = el.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${s})`, opacity: 1 },
      { transform: 'none', opacity: fade ? 0.2 : 1 },
    ],
    { duration: ms, easing: 'ease-in-out', fill: 'forwards' },
  );
  return anim.finished.catch(() => undefined);
}

function rectOf(el) {
  return el ? el.getBoundingClientRect() : null;
}

function scopaBanner(pace) {
  const banner = $('banner');
  banner.textContent = tr('scopa');
  banner.hidden = false;
  banner.classList.remove('show');
  void banner.offsetWidth; // restart the CSS animation
  banner.classList.add('show');
  setTimeout(() => { banner.hidden = true; banner.classList.remove('show'); }, pace.banner);
}

function announce(play, after) {
  if (play.seat === 0) return;
  const { lang } = state.prefs;
  const seat = seatName(lang, play.seat);
  let text = play.capture.length
    ? tr('takes', { seat, card: cardName(lang, play.card), cards: cardList(lang, play.capture) })
    : tr('plays', { seat, card: cardName(lang, play.card) });
  if (play.scopa) text += ` ${tr('scopa')}`;
  if (after.status === 'your_turn') text += ` ${tr('yourTurn')}`;
  $('announce').textContent = text;
}

/** Shows the move that turned `before` into `after`, one card, at a pace a person can follow. */
async function showPlay(before, after) {
  const fresh = after.round_number === before.round_number && after.history.length > before.history.length;
  if (!fresh) {
    adopt(after);
    return;
  }
  if (state.view && state.view.id !== after.id) return; // a match already left
  const play = after.history[after.history.length - 1];
  const pace = PACE[state.prefs.speed] || PACE.normal;
  announce(play, after);
  const from = play.seat === 0
    ? rectOf($('hand').querySelector(`[data-code="${play.card}"]`))
    : rectOf($(`seat-${play.seat}`).querySelector('.backs'));
  if (play.capture.length === 0) {
    state.hiddenTable = new Set([play.card]);
    adopt(after, false);
    const spot = $('table-cards').querySelector(`[data-code="${play.card}"]`);
    const to = rectOf(spot);
    if (to) {
      const el = flyer(play.card, to);
      await glide(el, from, to, pace.fly);
      el.remove();
    }
    state.hiddenTable = new Set();
    renderNow();
  } else {
    const targets = play.capture.map((c) => $('table-cards').querySelector(`[data-code="${c}"]`));
    const first = rectOf(targets[0]) || rectOf($('table-cards'));
    const land = { left: first.left + first.width * 0.25, top: first.top + first.height * 0.2, width: first.width, height: first.height };
    const handCard = play.seat === 0 ? $('hand').querySelector(`[data-code="${play.card}"]`) : null;
    if (handCard) handCard.classList.add('leaving');
    const card = flyer(play.card, land);
    await glide(card, from, land, pace.fly);
    for (const el of targets) if (el) el.classList.add('taken');
    if (play.scopa) scopaBanner(pace);
    await sleep(pace.hold);
    const clones = targets.map((el, i) => (el ? [flyer(play.capture[i], rectOf(el)), rectOf(el)] : null)).filter(Boolean);
    adopt(after, false);
    const pile = rectOf($(`pile-${play.seat % 2}`).querySelector('.pile-stack'));
    const moves = [[card, land], ...clones].map(([el, r]) => {
      el.style.left = `${pile.left}px`;
      el.style.top = `${pile.top}px`;
      el.style.width = `${pile.width}px`;
      el.style.height = `${pile.height}px`;
      return glide(el, r, pile, pace.sweep, true);
    });
    await Promise.all(moves);
    card.remove();
    for (const [el] of clones) el.remove();
  }
  if (isOver(after)) {
    await sleep(pace.end);
    if (state.view === after) {
      state.summaryOpen = true;
      renderNow();
    }
  }
}

// ----- talking to the server ------------------------------------------------------------------

// Requests that change a game go one at a time, so a level change never races a computer move.
let chain = Promise.resolve();
function serial(fn) {
  const result = chain.then(fn, fn);
  chain = result.catch(() => undefined);
  return result;
}

/**
 * Takes a view from the server as the truth: never an older one of the same game, and never
 * one of another game (a late answer about a match already left) unless `switching`.
 */
function adopt(view, openSummary = true, switching = false) {
  const old = state.view;
  if (old && view.id === old.id && view.version < old.version) return;
  if (old && view.id !== old.id && !switching) return;
  state.view = view;
  state.error = null;
  if (!old || old.id !== view.id || old.version !== view.version) state.sel = null;
  state.summaryOpen = openSummary && isOver(view);
  state.prefs.level = view.level;
  state.prefs.napola = view.rules.napola;
  state.prefs.variant = view.rules.variant;
  state.prefs.target = view.rules.target;
  savePrefs();
  localStorage.setItem(STORE_GAME, view.id);
  renderNow();
}

/** Handles a failed request: a 409 carries the current game, anything else shows a retry. */
function failed(err) {
  if (err && err.status === 409 && err.game) {
    adopt(err.game);
    return;
  }
  console.error(err);
  state.error = err;
  state.thinking = null;
  renderNow();
}

async function drive() {
  if (state.driving) return;
  state.driving = true;
  try {
    while (state.view && state.view.status === 'computer_turn' && !state.error) {
      const before = state.view;
      const pace = PACE[state.prefs.speed] || PACE.normal;
      state.thinking = before.turn;
      renderNow();
      await sleep(pace.think);
      let after;
      try {
        // Only if nothing changed the game while we waited our turn in the queue.
        after = await serial(() => (state.view === before ? api.advance(before.id, before.version) : null));
      } catch (err) {
        state.thinking = null;
        failed(err);
        continue;
      }
      state.thinking = null;
      if (!after || state.view !== before) continue; // the game changed meanwhile
      await showPlay(before, after);
    }
  } finally {
    state.driving = false;
    state.thinking = null;
  }
}

async function playMove(move) {
  const before = state.view;
  if (!move || state.busy || !before || before.status !== 'your_turn') return;
  state.sel = null;
  state.busy = true;
  try {
    const after = await serial(() => api.move(before.id, before.version, move));
    if (state.view === before) await showPlay(before, after);
  } catch (err) {
    failed(err);
  } finally {
    state.busy = false;
    renderNow();
  }
  drive();
}

async function newMatch() {
  state.settingsOpen = false;
  const { level, napola, variant, target } = state.prefs;
  try {
    const view = await serial(() => api.create({ level, napola, variant, target: Number(target) }));
    state.sel = null;
    adopt(view, true, true);
  } catch (err) {
    failed(err);
  }
  drive();
}

async function nextRound() {
  const view = state.view;
  if (!view || view.status !== 'round_over') return;
  try {
    adopt(await serial(() => api.nextRound(view.id, view.version)));
  } catch (err) {
    failed(err);
  }
  drive();
}

async function setLevel(level) {
  state.prefs.level = level;
  savePrefs();
  if (!state.view) return render();
  try {
    adopt(await serial(() => api.setLevel(state.view.id, level)));
  } catch (err) {
    failed(err);
  }
  drive();
}

function cycleLevel() {
  const now = state.view ? state.view.level : state.prefs.level;
  setLevel(LEVELS[(LEVELS.indexOf(now) + 1) % LEVELS.length]);
}

function cycleDesign() {
  state.prefs.design = DESIGNS[(DESIGNS.indexOf(state.prefs.design) + 1) % DESIGNS.length];
  savePrefs();
  renderNow();
}

async function resume() {
  const id = localStorage.getItem(STORE_GAME);
  state.error = null;
  if (id) {
    try {
      adopt(await api.get(id), true, true);
      drive();
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

// ----- input ----------------------------------------------------------------------------------

function on(el, type, fn, opts) {
  el.addEventListener(type, fn, opts);
  return () => el.removeEventListener(type, fn, opts);
}

function canChoose() {
  return state.view && state.view.status === 'your_turn' && !state.busy;
}

function choose(result) {
  state.sel = result.sel;
  if (result.move) playMove(result.move);
  else renderNow();
}

function onHandClick(event) {
  const button = event.target.closest('.card');
  if (!button || !canChoose()) return;
  // detail 0: a keyboard activation of the focused card, which selects it like a number key.
  choose(pickCard(state.sel, state.view.legal, button.dataset.code, event.detail === 0));
}

function onTableClick(event) {
  const button = event.target.closest('.card');
  if (!button || !state.sel || !canChoose()) return;
  choose(pickTable(state.sel, button.dataset.code));
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const tag = event.target && event.target.tagName;
  if (tag === 'SELECT' || tag === 'INPUT' || tag === 'TEXTAREA') return;
  const key = event.key;
  if (state.summaryOpen && key === 'Enter') {
    event.preventDefault();
    summaryAction();
    return;
  }
  if (key === 'n' || key === 'N') newMatch();
  else if (key === 'l' || key === 'L') cycleLevel();
  else if (key === 'd' || key === 'D') cycleDesign();
  else if (key === 'Escape') {
    if (state.settingsOpen) state.settingsOpen = false;
    state.sel = null;
    renderNow();
  } else if (/^[0-9]$/.test(key)) {
    const index = key === '0' ? 9 : Number(key) - 1;
    const card = state.view && state.view.hand[index];
    if (card && canChoose()) choose(pickCard(state.sel, state.view.legal, card, true));
  } else if (key.startsWith('Arrow') && state.sel) {
    event.preventDefault();
    state.sel = cycle(state.sel, key === 'ArrowLeft' || key === 'ArrowUp' ? -1 : 1);
    renderNow();
  } else if (key === 'Enter' && state.sel && canChoose()) {
    event.preventDefault();
    playMove(current(state.sel));
  } else return;
  document.body.classList.add('keys');
}

function summaryAction() {
  if (!state.view) return;
  if (state.view.status === 'match_over') newMatch();
  else nextRound();
}

function bind() {
  const unbind = [
    on($('hand'), 'click', onHandClick),
    on($('table-cards'), 'click', onTableClick),
    on(document, 'keydown', onKey),
    on($('btn-new'), 'click', () => newMatch()),
    on($('btn-level'), 'click', () => cycleLevel()),
    on($('btn-napola'), 'click', () => {
      state.prefs.napola = !state.prefs.napola;
      newMatch();
    }),
    on($('btn-design'), 'click', () => cycleDesign()),
    on($('btn-settings'), 'click', () => {
      state.settingsOpen = !state.settingsOpen;
      renderNow();
    }),
    on($('btn-close'), 'click', () => {
      state.settingsOpen = false;
      renderNow();
    }),
    on($('btn-cancel'), 'click', () => {
      state.sel = null;
      renderNow();
    }),
    on($('summary'), 'click', (event) => {
      if (event.target.closest('#summary-go')) summaryAction();
    }),
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
      savePrefs();
      renderNow();
    }),
    on($('set-speed'), 'change', (e) => {
      state.prefs.speed = e.target.value;
      savePrefs();
      renderNow();
    }),
    on($('set-lang'), 'change', (e) => {
      state.prefs.lang = e.target.value;
      savePrefs();
      renderNow();
    }),
  ];
  return () => unbind.forEach((off) => off());
}

installSprite();
bind();
renderNow();
resume();
