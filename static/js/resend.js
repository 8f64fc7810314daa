// What a person asked for and the server could not take for a reason of its own (the network
// down, a 5xx: the server or its database away) is sent again by itself, sooner at first, then
// every 15 s at most, until it is taken or refused, while the page still shows the position it
// was asked for in: nothing a person did is lost to an outage (the server gives a turn the
// outage touched its time again), and nothing is done in a position the person did not ask it
// for. Two kinds of action wait: a card, and the next deal a summary's button asks for (the
// next round, a new match or a rematch). One waits at a time: the page shows a summary or a
// turn, never both, and a new action replaces the one waiting.

import { ApiError } from './api.js';

const FIRST = 1000;
const MOST = 15000;

/** Whether `err` is the server's or the network's, not a refusal of the action (4xx). */
export function serversFault(err) {
  return !(err instanceof ApiError) || err.status >= 500;
}

/** Where a game stands for the card its person chooses: the same match, round, plays and
 * hand (a presence change at a table, which makes a new version, leaves it). */
function positionOf(view) {
  return `${view.id}:${view.round_number}:${view.history.length}:${view.hand.join()}`;
}

/** Where a game stands for the deal after its summary: the same game (and, at a table, the
 * same match), the same round over or match over. A deal someone else asked for meanwhile (a
 * friend's next round, the host's rematch, another tab's) leaves it. */
function summaryOf(view) {
  return `${view.id}:${view.match ?? 0}:${view.round_number}:${view.status}`;
}

/** The card `move`, chosen in `view`. */
export function cardChosen(move, view) {
  return { kind: 'card', move, at: positionOf(view) };
}

/** The next deal asked for on the summary of `view`: the next round after a round over
 * (kind 'round'), a new match or a rematch after a match over (kind 'match'). */
export function dealAsked(view) {
  return { kind: view.status === 'match_over' ? 'match' : 'round', at: summaryOf(view) };
}

/** Whether `view` still shows where `action` was asked for: a card's position, offering it
 * still; a deal's summary. */
export function stillWanted(view, action) {
  if (!view) return false;
  if (action.kind !== 'card') return summaryOf(view) === action.at;
  const same = (a, b) => a.length === b.length && a.every((c) => b.includes(c));
  const { move } = action;
  return view.status === 'your_turn' && positionOf(view) === action.at
    && view.legal.some((m) => m.card === move.card && same(m.capture, move.capture));
}

/**
 * The action waiting to be sent again. `sendAgain(action)` sends it and returns true, or
 * returns false when the page cannot send now (busy with another request, a newer view still
 * to show): tried again later.
 */
export function actionWaits(sendAgain) {
  let timer = null;
  let delay = FIRST;
  let action = null;
  const fire = () => {
    timer = null;
    if (action && !sendAgain(action)) schedule();
  };
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(fire, delay);
    delay = Math.min(delay * 2, MOST);
  };
  return {
    /** The action waiting (`cardChosen`, `dealAsked`), or null. */
    get action() { return action; },
    /** `next` failed by the server's fault: sent again later. */
    later(next) {
      action = next;
      schedule();
    },
    /** Sent again at once (the Retry button, the game read again, the stream open again):
     * when an action waits. */
    now() {
      if (!action) return;
      clearTimeout(timer);
      fire();
    },
    /** Taken, refused, or no longer wanted: nothing waits. */
    drop() {
      action = null;
      clearTimeout(timer);
      timer = null;
      delay = FIRST;
    },
  };
}
