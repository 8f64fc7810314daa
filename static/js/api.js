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

export async function call(method, path, body, headers = {}) {
  const init = { method, headers: { Accept: 'application/json', ...headers } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
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
