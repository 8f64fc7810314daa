// Choosing a card by mouse, touch or keyboard: shared by the solo game and a table with friends.
//
// `page` gives what differs between them: `canChoose()` (is it my turn, nothing on its way),
// `playMove(move)` and `paint()`.

import { cardList, cardName, t } from './i18n.js';
import { current, cycle, pickCard, pickTable, remaining } from './select.js';

const $ = (id) => document.getElementById(id);

/** A card chosen by keys, said to a screen reader (the selection and the lit cards are only
 * seen): the option the arrows point at and how many there are, or the one way to play it. */
function sayOption(state) {
  const sel = state.sel;
  if (!sel || !sel.viaKeys) return;
  const open = remaining(sel);
  const move = current(sel);
  const { lang } = state.prefs;
  const card = cardName(lang, move.card);
  const cards = cardList(lang, move.capture);
  let text;
  if (open.length > 1) text = t(lang, 'option', { card, cards, i: open.indexOf(move) + 1, n: open.length });
  else text = t(lang, move.capture.length ? 'selectedTakes' : 'selectedLays', { card, cards });
  $('announce').textContent = text;
}

function choose(state, page, result) {
  state.sel = result.sel;
  if (result.move) page.playMove(result.move);
  else {
    page.paint();
    sayOption(state);
  }
}

/** Binds taps and clicks on the hand and the table; returns the function that unbinds them. */
export function bindHands(state, page) {
  const onHand = (event) => {
    const button = event.target.closest('.card');
    if (!button || !page.canChoose()) return;
    // detail 0: a keyboard activation of the focused card, which selects it like a number key.
    choose(state, page, pickCard(state.sel, state.view.legal, button.dataset.code, event.detail === 0));
  };
  const onTable = (event) => {
    const button = event.target.closest('.card');
    if (!button || !state.sel || !page.canChoose()) return;
    choose(state, page, pickTable(state.sel, button.dataset.code));
  };
  $('hand').addEventListener('click', onHand);
  $('table-cards').addEventListener('click', onTable);
  return () => {
    $('hand').removeEventListener('click', onHand);
    $('table-cards').removeEventListener('click', onTable);
  };
}

/** The card keys of SPEC §3 (1–9, 0, arrows, Enter, Esc); true when `event` was one of them. */
export function handKey(state, page, event) {
  const key = event.key;
  if (key === 'Escape') {
    if (state.sel) $('announce').textContent = t(state.prefs.lang, 'cancelled');
    state.sel = null;
    page.paint();
  } else if (/^[0-9]$/.test(key)) {
    const index = key === '0' ? 9 : Number(key) - 1;
    const card = state.view && state.view.hand[index];
    if (card && page.canChoose()) choose(state, page, pickCard(state.sel, state.view.legal, card, true));
  } else if (key.startsWith('Arrow') && state.sel) {
    event.preventDefault();
    state.sel = cycle(state.sel, key === 'ArrowLeft' || key === 'ArrowUp' ? -1 : 1);
    page.paint();
    sayOption(state);
  } else if (key === 'Enter' && state.sel && page.canChoose()) {
    event.preventDefault();
    page.playMove(current(state.sel));
  } else return false;
  document.body.classList.add('keys');
  return true;
}
