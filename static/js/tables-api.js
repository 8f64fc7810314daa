// The tables API (/work/notes/tables-contract.md) and the seat tokens this browser keeps.

import { REVIEW_TIMEOUT, call as request } from './api.js';

const SEAT_KEY = 'scopone.seat.';

/** Whether a localStorage key (a `storage` event's) is the seat kept for table `code`. */
export const isSeatKey = (key, code) => key === SEAT_KEY + code;

/** This browser's seat at table `code`: `{seat, token}`, or null. Kept across tabs and reloads. */
export function loadSeat(code) {
  try {
    const saved = JSON.parse(localStorage.getItem(SEAT_KEY + code) || 'null');
    return saved && typeof saved.token === 'string' && Number.isInteger(saved.seat) ? saved : null;
  } catch {
    return null;
  }
}

export function saveSeat(code, seat, token) {
  localStorage.setItem(SEAT_KEY + code, JSON.stringify({ seat, token }));
}

/** Forgets the seat `token` held at table `code`, and only that one: another tab of this
 * browser may have sat down again since (a new token), which a tab late to learn its old token
 * is refused must not forget for it. */
export function forgetSeat(code, token) {
  const saved = loadSeat(code);
  if (!saved || saved.token === token) localStorage.removeItem(SEAT_KEY + code);
}

/** The game API's own request (api.js), with the seat token in the header only: URLs end up in
 * logs and histories. */
function call(method, path, token, body, headers = {}, options = {}) {
  return request(method, path, body, token ? { ...headers, Authorization: `Bearer ${token}` } : headers, options);
}

const base = (code) => `/api/tables/${encodeURIComponent(code)}`;

export const tables = {
  create: (options) => call('POST', '/api/tables', null, options),
  get: (code, token) => call('GET', base(code), token),
  sit: (code, seat, name) => call('POST', `${base(code)}/seats/${seat}`, null, { name }),
  leave: (code, seat, token) => call('DELETE', `${base(code)}/seats/${seat}`, token),
  start: (code, token, version) => call('POST', `${base(code)}/start`, token, { version }),
  move: (code, token, version, move) =>
    call('POST', `${base(code)}/moves`, token, { version, card: move.card, capture: move.capture }),
  nextRound: (code, token, version) => call('POST', `${base(code)}/next-round`, token, { version }),
  toComputer: (code, token, seat, version) =>
    call('POST', `${base(code)}/seats/${seat}/computer`, token, { version }),
  openSeat: (code, token, seat, version) =>
    call('POST', `${base(code)}/seats/${seat}/open`, token, { version }),
  rematch: (code, token, version) => call('POST', `${base(code)}/rematch`, token, { version }),
  back: (code, token) => call('POST', `${base(code)}/back`, token),
  events: (code) => `${base(code)}/events`,
  // The coach for the token's seat (the hint and cards seen only where the host allowed hints).
  hint: (code, token, version) => call('POST', `${base(code)}/hint`, token, { version }),
  cardsSeen: (code, token) => call('POST', `${base(code)}/cards-seen`, token),
  // The match the page's view showed: asked for as the host starts a rematch, it is still
  // that round (the server keeps the last round of the match before).
  review: (code, token, round, match) =>
    call('GET', `${base(code)}/rounds/${round}/review${match ? `?match=${match}` : ''}`, token,
      undefined, {}, { timeout: REVIEW_TIMEOUT }),
  // The seat's rounds, hints and accuracy count in this person's statistics (as in a solo game).
  person: (code, token, id) =>
    call('POST', `${base(code)}/person`, token, undefined, { 'X-Scopone-Person': id }),
};

// ----- names: the page takes exactly the names the server takes (scopone/web/table.py) ----------

/** What the server trims from either end of a name (its NAME_TRIMMED): every blank, and the
 * characters that show nothing. */
const TRIMMED_CHARS = String.raw`\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u2060-\u2064\u3000\ufeff\xad\u115f\u1160\u180e\u2800\u3164\uffa0`;
const TRIMMED = `[${TRIMMED_CHARS}]`;
const ENDS = new RegExp(`^${TRIMMED}+|${TRIMMED}+$`, 'gu');
/** Refused anywhere in a name: control characters, bidirectional embeddings and overrides. */
const REFUSED = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/u;
/** A character drawn (the server's name_char): not a combining mark (Mn, Me), a format,
 * control, unassigned, private-use or surrogate code point (C), a separator (Z), a
 * Default_Ignorable_Code_Point, nor what trimming removes. A name needs one. The server counts
 * what its older Unicode has not assigned as drawn (a newer emoji), so it keeps all this
 * keeps; one unassigned here too is refused here only. */
const DRAWN = new RegExp(
  String.raw`[^\p{Mn}\p{Me}\p{C}\p{Z}\p{Default_Ignorable_Code_Point}${TRIMMED_CHARS}]`, 'u');
/** More combining marks in a row than one character carries (the server's
 * NAME_MARKS_PER_BASE): they would paint over the rows around the name. A format or
 * Default_Ignorable character between two draws nothing and does not end the row. */
const MARKS_PER_BASE = 4;
const STACKED = new RegExp(
  String.raw`(?:[\p{Mn}\p{Me}][\p{Cf}\p{Default_Ignorable_Code_Point}]*){${MARKS_PER_BASE + 1}}`,
  'u');
const MAX_NAME = 20; // characters (code points) after trimming, as the server counts them
const MAX_RAW = 64; // the server's bound on a name before trimming

// Counted in code points: an emoji is one, where a field's maxlength counts its two UTF-16 units.
const length = (s) => [...s].length;
const trimName = (raw) => raw.replace(ENDS, '');

/** True when `raw` has more characters than a name may have. */
export function nameTooLong(raw) {
  return length(raw) > MAX_RAW || length(trimName(raw)) > MAX_NAME;
}

/** The name the server will keep for `raw`, or null where it would refuse it. */
export function cleanName(raw) {
  const name = trimName(raw);
  const shown = DRAWN.test(name) && !STACKED.test(name);
  return name && shown && !nameTooLong(raw) && !REFUSED.test(name) ? name : null;
}

/** Copy, beside an invite link (the lobby, the friends dialog): the link to the clipboard, and
 * the button says `copied` for a moment, then `copy` again for the next press. Without the
 * clipboard's permission the link is selected instead, ready for the person to copy. */
export async function copyInvite(input, button, copy, copied) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    return;
  }
  button.textContent = copied;
  setTimeout(() => { button.textContent = copy; }, 2000);
}
