// The JSON API of our own server (scopone/web/schemas.py is the contract).

import { personId } from './person.js';

export class ApiError extends Error {
  constructor(status, detail, game) {
    super(`${status} ${detail}`);
    this.status = status;
    this.detail = detail;
    this.game = game || null; // on 409 the current view, to resync from
  }
}

/** How long every request waits for its answer (`call`'s `timeout`). One that never comes (a
 * connection lost without a word: a phone changing networks, a proxy dropping it) kept the page
 * busy for good: a card's left every later card of the person ignored (and, in a game played
 * alone, every later request queued behind it), a table's request to be back left the person
 * away, a hint's left H asking nothing again. Given up, it fails as a network error does: a card
 * is sent again (resend.js; the version rule keeps it from being played twice), the next sign of
 * the person asks to be back again, the coach says it could not answer. */
export const ANSWER_TIMEOUT = 10000;
/** A review's: the server judges a round for a few seconds, more behind others' on a busy
 * server. */
export const REVIEW_TIMEOUT = 30000;

/** A request to our server. It gives up on an answer that has not come in `timeout` ms and
 * then fails as a network error does: the server's fault (resend.js). */
export async function call(method, path, body, headers = {}, { timeout = ANSWER_TIMEOUT } = {}) {
  const init = { method, headers: { Accept: 'application/json', ...headers } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const controller = new AbortController();
  init.signal = controller.signal;
  const timer = setTimeout(() => controller.abort(), timeout);
  const noAnswer = () => new Error(`no answer in ${timeout / 1000} s`);
  let res;
  let data = null;
  try {
    res = await fetch(path, init);
    try {
      data = await res.json();
    } catch {
      data = null;
    }
  } catch (err) {
    throw controller.signal.aborted ? noAnswer() : err;
  } finally {
    clearTimeout(timer);
  }
  // A body given up on half-read is no answer either.
  if (data === null && controller.signal.aborted) throw noAnswer();
  if (!res.ok) {
    const detail = data && typeof data.detail === 'string' ? data.detail : res.statusText;
    // A 409 carries the current game (or, at a table, the table) to resync from.
    throw new ApiError(res.status, detail, data && (data.table || data.game));
  }
  return data;
}

export const api = {
  // The person's id makes the match's rounds count in their statistics (coach.js).
  create: (options) => call('POST', '/api/games', options, { 'X-Scopone-Person': personId() }),
  get: (id) => call('GET', `/api/games/${encodeURIComponent(id)}`),
  move: (id, version, move) =>
    call('POST', `/api/games/${encodeURIComponent(id)}/moves`, {
      version, card: move.card, capture: move.capture,
    }),
  // The game's event stream (push.js follows it): the server plays the computers meanwhile.
  events: (id, speed) => `/api/games/${encodeURIComponent(id)}/events?speed=${encodeURIComponent(speed)}`,
  nextRound: (id, version) =>
    call('POST', `/api/games/${encodeURIComponent(id)}/next-round`, { version }),
  setLevel: (id, level) => call('PATCH', `/api/games/${encodeURIComponent(id)}`, { level }),
};
