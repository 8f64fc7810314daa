// The page: one state object, one render, input handlers that only call small functions.

import { api } from './api.js';
import { DESIGNS, installSprite } from './cards.js';
import { installCoach } from './coach.js';
import { browserLang, cardList, cardName, seatName, t } from './i18n.js';
import { flyer, glide, rectOf, scopaBanner, sleep } from './motion.js';
import { LEVELS, isOver, render, renderNow as paint } from './render.js';
import { current, cycle, pickCard, pickTable } from './select.js';

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
// The coach (hint, cards seen, review) draws its part after each render of the game.
const coachUi = installCoach(() => state);
const renderNow = () => {
  paint(state);
  coachUi.afterRender();
};

// ----- showing a play ----------------------------------------------------------------------

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
      const el = flyer(play.card, to, state.prefs.design, state.prefs.lang);
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
    const card = flyer(play.card, land, state.prefs.design, state.prefs.lang);
    await glide(card, from, land, pace.fly);
    for (const el of targets) if (el) el.classList.add('taken');
    if (play.scopa) scopaBanner(tr('scopa'), pace.banner);
    await sleep(pace.hold);
    const clones = targets.map((el, i) => (el ? [flyer(play.capture[i], rectOf(el), state.prefs.design, state.prefs.lang), rectOf(el)] : null)).filter(Boolean);
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
  if (!state.view) return render(state);
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
