// Choosing a move among the server's legal moves: pure functions, no game rules here.

/** The legal moves that play `card`. */
export function optionsFor(legal, card) {
  return legal.filter((move) => move.card === card);
}

/** The options still open once the table cards in `picked` have been chosen. */
export function remaining(sel) {
  return sel.options.filter((move) => sel.picked.every((c) => move.capture.includes(c)));
}

/** The current move of a selection (the one arrows point at, Enter plays). */
export function current(sel) {
  const open = remaining(sel);
  return open[((sel.index % open.length) + open.length) % open.length];
}

/**
 * A tap or a number key on a hand card. Returns `{sel, move}`: `move` when the tap decides the
 * play (one way only, by tap), else the new selection (null cancels).
 */
export function pickCard(sel, legal, card, viaKeys) {
  const options = optionsFor(legal, card);
  if (options.length === 0) return { sel, move: null };
  if (sel && sel.card === card && !viaKeys) return { sel: null, move: null };
  if (options.length === 1 && !viaKeys) return { sel: null, move: options[0] };
  return { sel: { card, options, picked: [], index: 0, viaKeys }, move: null };
}

/** A tap on a table card while a card is selected: narrows the choice, plays when decided. */
export function pickTable(sel, tableCard) {
  if (!sel) return { sel, move: null };
  if (sel.picked.includes(tableCard)) {
    // Tapping a chosen card again takes it back.
    return { sel: { ...sel, picked: sel.picked.filter((c) => c !== tableCard), index: 0 }, move: null };
  }
  const next = { ...sel, picked: [...sel.picked, tableCard], index: 0 };
  const open = remaining(next);
  if (open.length === 0) return { sel, move: null };
  if (open.length === 1) return { sel: null, move: open[0] };
  return { sel: next, move: null };
}

/** Arrow keys: the next or previous open option. */
export function cycle(sel, step) {
  if (!sel) return sel;
  const n = remaining(sel).length;
  return { ...sel, index: (((sel.index + step) % n) + n) % n, viaKeys: true };
}

/** Table cards that can still be taken (lit) and those of the current move (chosen). */
export function highlights(sel) {
  if (!sel) return { lit: new Set(), chosen: new Set(), picked: new Set() };
  const lit = new Set(remaining(sel).flatMap((m) => m.capture).filter((c) => !sel.picked.includes(c)));
  const chosen = new Set(sel.viaKeys ? current(sel).capture : []);
  return { lit, chosen, picked: new Set(sel.picked) };
}
