// A card the server could not take for a reason of its own (the network down, a 5xx: the server
// or its database away) is sent again by itself, sooner at first, then every 15 s at most, until
// it is taken or refused, while the page still shows the position it was chosen in: a person's
// card is never lost to an outage (the server gives a turn the outage touched its time again),
// and never played in a position the person did not choose it for. Choosing another card
// meanwhile replaces it.

import { ApiError } from './api.js';

const FIRST = 1000;
const MOST = 15000;

/** Whether `err` is the server's or the network's, not a refusal of the move (4xx). */
export function serversFault(err) {
  return !(err instanceof ApiError) || err.status >= 500;
}

/** Where a game stands for the card its person chooses: the same match, round, plays and
 * hand (a presence change at a table, which makes a new version, leaves it). */
function positionOf(view) {
  return `${view.id}:${view.round_number}:${view.history.length}:${view.hand.join()}`;
}

/** Whether `view` is still the position `card` ({move, at}) was chosen in, and offers it. */
export function offered(view, card) {
  const same = (a, b) => a.length === b.length && a.every((c) => b.includes(c));
  const { move } = card;
  return Boolean(view) && view.status === 'your_turn' && positionOf(view) === card.at
    && view.legal.some((m) => m.card === move.card && same(m.capture, move.capture));
}

/**
 * The card waiting to be sent again. `sendAgain(card)` sends `card.move` and returns true, or
 * returns false when the page cannot send now (busy with another request): tried again later.
 */
export function cardWaits(sendAgain) {
  let timer = null;
  let delay = FIRST;
  let card = null;
  const fire = () => {
    timer = null;
    if (card && !sendAgain(card)) schedule();
  };
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(fire, delay);
    delay = Math.min(delay * 2, MOST);
  };
  return {
    /** The card waiting ({move, at}), or null. */
    get card() { return card; },
    /** `move`, chosen in `view`, failed by the server's fault: sent again later. */
    later(move, view) {
      card = { move, at: positionOf(view) };
      schedule();
    },
    /** Sent again at once (the Retry button, the game read again): when a card waits. */
    now() {
      if (!card) return;
      clearTimeout(timer);
      fire();
    },
    /** Taken, refused, or no longer offered: nothing waits. */
    drop() {
      card = null;
      clearTimeout(timer);
      timer = null;
      delay = FIRST;
    },
  };
}
