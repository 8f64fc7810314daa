// The lobby of a table: four seats around the felt, who sits where, which pair, free seats.

import { tt } from './i18n-tables.js';
import { place } from './seats.js';

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
// Board positions around the lobby's felt: bottom (the viewer), right, top (partner), left.
const SPOTS = ['b', 'r', 't', 'l'];

/** A seat's state in words: "Anna (host, you)", "Computer", "Free seat". */
export function seatWords(lang, tv, s) {
  const marks = [];
  if (s.seat === tv.host && s.kind === 'person') marks.push(tt(lang, 'host'));
  if (s.seat === tv.you) marks.push(tt(lang, 'you'));
  if (s.kind === 'person' && s.away) marks.push(tt(lang, 'away'));
  else if (s.kind === 'person' && !s.connected) marks.push(tt(lang, 'offline'));
  const name = s.kind === 'person' ? s.name : tt(lang, s.kind === 'computer' ? 'computer' : 'free');
  return marks.length ? `${name} (${marks.join(', ')})` : name;
}

/** The host's control on another seat in the lobby: a person's seat to the computer (a
 * stranger who took it is sent away), a computer's seat open to people again. */
function seatControl(lang, tv, s, host) {
  if (!host || tv.phase !== 'lobby' || s.seat === tv.host) return '';
  if (s.kind === 'person') {
    return `<button type="button" class="to-computer" data-seat="${s.seat}">${esc(tt(lang, 'toComputer', { name: s.name }))}</button>`;
  }
  if (s.kind === 'computer') {
    return `<button type="button" class="open-seat" data-seat="${s.seat}">${esc(tt(lang, 'openSeat', { n: s.seat + 1 }))}</button>`;
  }
  return '';
}

/** Writes the lobby of TableView `tv` for a viewer who may sit (`canSit`) and has chosen `chosen`. */
export function renderLobby(lang, tv, chosen) {
  const me = tv.you ?? 0;
  const canSit = tv.you === null && tv.phase === 'lobby';
  const host = tv.you !== null && tv.you === tv.host;
  for (const s of tv.seats) {
    const box = $(`lobby-seat-${SPOTS[place(s.seat, me)]}`);
    box.dataset.seat = String(s.seat);
    box.dataset.kind = s.kind;
    box.dataset.pair = s.pair;
    box.classList.toggle('mine', s.seat === tv.you);
    box.classList.toggle('chosen', s.seat === chosen);
    const take = canSit && s.kind === 'free'
      ? `<button type="button" class="take" data-seat="${s.seat}" aria-pressed="${s.seat === chosen}">${esc(tt(lang, 'takeSeat', { n: s.seat + 1 }))}</button>`
      : seatControl(lang, tv, s, host);
    box.innerHTML = `<div class="lobby-seat-head">${esc(tt(lang, 'seatLabel', { n: s.seat + 1 }))} · <span class="pair">${esc(tt(lang, 'pairOf', { pair: s.pair }))}</span></div>
      <div class="lobby-seat-name">${esc(seatWords(lang, tv, s))}</div>${take}`;
  }
  const o = tv.options;
  const away = o.away_seconds ? tt(lang, 'awayAfter', { s: o.away_seconds }) : tt(lang, 'noTimeLimit');
  let rules = tt(lang, 'lobbyRules', {
    variant: tt(lang, o.rules.variant), target: o.rules.target,
    napola: tt(lang, o.rules.napola ? 'on' : 'off'), level: tt(lang, o.level), away,
  });
  if (o.hints) rules += ` · ${tt(lang, 'hintsOn')}`;
  $('lobby-rules').textContent = rules;
  const free = tv.seats.filter((s) => s.kind === 'free');
  $('sit-form').hidden = !canSit || chosen === null;
  if (chosen !== null) {
    const s = tv.seats[chosen];
    $('sit-seat').textContent = tt(lang, 'sitAt', { n: chosen + 1, pair: s.pair });
  }
  $('btn-start').hidden = !(host && tv.phase === 'lobby');
  $('btn-leave').hidden = !(tv.you !== null && !host && tv.phase === 'lobby');
  $('invite').hidden = !(tv.you !== null && tv.phase === 'lobby');
  let note = '';
  if (canSit) note = free.length ? tt(lang, 'chooseSeat') : '';
  else if (host) note = tt(lang, 'hostNote');
  else if (tv.you !== null) note = tt(lang, 'waitHost');
  $('lobby-note').textContent = note;
}
