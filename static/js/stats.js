// The statistics page: the person's figures across matches, from GET /api/people/{id}/stats.

import { ApiError, call } from './api.js';
import { browserLang } from './i18n.js';
import { ct } from './coach-text.js';
import { adoptPerson, isPersonId, knownPerson } from './person.js';
import { rulesUrl } from './site.js';

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({
  '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;',
}[c]));
const CATS = ['carte', 'denari', 'settebello', 'primiera', 'scope', 'napola'];

function language() {
  try {
    const prefs = JSON.parse(localStorage.getItem('scopone.prefs') || '{}');
    if (prefs.lang) return prefs.lang;
  } catch { /* unreadable prefs: the browser's language */ }
  return browserLang(navigator.languages || [navigator.language]);
}

const lang = language();
const tr = (key, params) => ct(lang, key, params);
const num = (x, digits = 2) => x.toLocaleString(lang, { maximumFractionDigits: digits });

/** The accuracy series as a small SVG line chart, drawn here (no script from elsewhere). */
export function accuracyChart(points) {
  const w = 320;
  const h = 120;
  const pad = 22;
  const n = points.length;
  // Room on the left for the scale's widest figure, "100 %" in German, set right-aligned.
  const left = 40;
  const x = (i) => left + (n === 1 ? (w - left - pad) / 2 : (i * (w - left - pad)) / (n - 1));
  const y = (a) => h - pad + 4 - a * (h - pad - 8);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.accuracy).toFixed(1)}`).join(' ');
  // The scale's percentages as the texts say them ("50 %" in German, as its label says it),
  // each ending before its line (the line began under "100%").
  const grid = [0, 0.5, 1].map((a) => `<line x1="${left - 2}" x2="${w - 4}" y1="${y(a)}" y2="${y(a)}" stroke="#c9bd9c" stroke-width="1"/>
    <text x="${left - 4}" y="${y(a) + 4}" text-anchor="end" font-size="10" fill="#14301f">${esc(tr('percent', { p: a * 100 }))}</text>`).join('');
  const dots = points.map((p, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(p.accuracy).toFixed(1)}" r="3" fill="#1d6b3c"/>`).join('');
  const pct = (a) => Math.round(a * 100);
  // The average is accuracy as SPEC §7 defines it, the share of judged plays rated best or
  // good, over these rounds: each round weighs by its judged plays, not one round one vote (a
  // round mostly played by the computer for a person away judges one or two plays: 6 of 9 and
  // 1 of 2 said "average 58%" for 7 of 11 judged plays, 64%; QA helper-78). The good plays
  // are counted back from the accuracy kept to four digits.
  const judged = points.reduce((s, p) => s + (p.judged || 0), 0);
  const avg = judged > 0 && points.every((p) => p.judged > 0)
    ? points.reduce((s, p) => s + Math.round(p.accuracy * p.judged), 0) / judged
    : points.reduce((s, p) => s + p.accuracy, 0) / n;
  // One round has no range nor average to tell.
  const label = tr(n === 1 ? 'accuracyChartOne' : 'accuracyChart', { n, first: pct(points[0].accuracy), last: pct(points[n - 1].accuracy), avg: pct(avg) });
  return `<svg viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(label)}" focusable="false">
    ${grid}<polyline points="${line}" fill="none" stroke="#1d6b3c" stroke-width="2"/>${dots}</svg>
    <p class="visually-hidden">${esc(label)}</p>`;
}

function render(s) {
  const levels = s.levels.map((l) => `<tr data-level="${l.level}"><th scope="row">${esc(tr(l.level))}</th>
    <td>${l.matches}</td><td>${l.matches_won}</td><td>${l.rounds}</td><td>${l.rounds_won}</td></tr>`).join('');
  const cats = CATS.map((c) => `<tr data-cat="${c}"><th scope="row">${esc(tr(c === 'settebello' ? 'settebelloCat' : c))}</th>
    <td>${num(s.average_points[c])}</td></tr>`).join('');
  const chart = s.accuracy.length ? accuracyChart(s.accuracy) : `<p>${esc(tr('noAccuracy'))}</p>`;
  $('stats').innerHTML = `
    <section aria-labelledby="h-levels"><h2 id="h-levels">${esc(tr('level'))}</h2>
      <div class="scroll-x" tabindex="0"><table><thead><tr><th scope="col">${esc(tr('level'))}</th><th scope="col">${esc(tr('matches'))}</th>
        <th scope="col">${esc(tr('matchesWon'))}</th><th scope="col">${esc(tr('rounds'))}</th>
        <th scope="col">${esc(tr('roundsWon'))}</th></tr></thead><tbody>${levels}</tbody></table></div></section>
    <section aria-labelledby="h-points"><h2 id="h-points">${esc(tr('averagePoints'))}</h2>
      <table><thead><tr><th scope="col">${esc(tr('category'))}</th><th scope="col">${esc(tr('pointsCol'))}</th></tr></thead>
      <tbody>${cats}</tbody></table></section>
    <section aria-labelledby="h-figures"><h2 id="h-figures" class="visually-hidden">${esc(tr('stats'))}</h2>
      <div class="figures">
        <div id="fig-scope-made">${esc(tr('scopeMade'))}<b>${s.scope_made}</b></div>
        <div id="fig-scope-conceded">${esc(tr('scopeConceded'))}<b>${s.scope_conceded}</b></div>
        <div id="fig-hints">${esc(tr('hints'))}<b>${s.hints}</b></div>
        <div id="fig-seen">${esc(tr('seenOpened'))}<b>${s.cards_seen}</b></div>
      </div></section>
    <section aria-labelledby="h-accuracy" id="accuracy-chart"><h2 id="h-accuracy">${esc(tr('accuracyOverTime'))}</h2>${chart}</section>
    ${carrySection()}
    <section><button type="button" id="btn-clear">${esc(tr('clear'))}</button> <span id="clear-note" role="status"></span></section>`;
  $('btn-clear').addEventListener('click', clear);
  $('btn-copy').addEventListener('click', copyLink);
}

// ----- the statistics on another device -----------------------------------------------------
// No login: the person is this browser's random id (person.js). A private link carries it to
// another device in its fragment (#person=…), which a browser never sends to a server nor in a
// referrer; opened there, that browser takes the id once the person says so, and its next
// matches count to the same figures.
const CARRY = /^#person=([0-9a-f]{32,64})$/;
const carryLink = (id) => `${window.location.origin}/stats#person=${id}`;

function carrySection() {
  return `<section aria-labelledby="h-carry"><details id="carry"><summary><h2 id="h-carry">${esc(tr('carryTitle'))}</h2></summary>
    <p>${esc(tr('carryText'))}</p>
    <p class="carry-row"><input id="carry-link" type="text" readonly value="${esc(carryLink(knownPerson()))}" aria-label="${esc(tr('carryLink'))}">
      <button type="button" id="btn-copy">${esc(tr('copy'))}</button></p>
    <p id="copy-note" role="status"></p></details></section>`;
}

async function copyLink() {
  const input = $('carry-link');
  let copied = false;
  try {
    await navigator.clipboard.writeText(input.value);
    copied = true;
  } catch { /* no clipboard here (a page served over plain HTTP but on this machine) */ }
  if (!copied) {
    input.focus();
    input.select();
  }
  $('copy-note').textContent = tr(copied ? 'copied' : 'copyByHand');
}

/** A person's statistics, or null when the server has none (404). Any other failure (the
 * network, the server or its database away, an answer that never comes) throws: it is no
 * "no statistics yet", and no reason to forget a link (failedToLoad). */
async function statsOf(id) {
  try {
    return await call('GET', `/api/people/${id}/stats`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    console.warn(err);
    throw err;
  }
}

/** Says the statistics could not be loaded; the address (a link's too) stays, for a reload. */
function failedToLoad() {
  $('stats').innerHTML = `<section><p id="stats-failed" role="alert">${esc(tr('statsFailed'))}</p></section>`;
}

/** The link's fragment gone from the address, so a reload or a bookmark does not ask again. */
function forgetLink() {
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
}

/** Asks whether this device takes the link's person; true when the page shows something (or
 * a newer arrival draws it: `current()` false). */
async function offer(linked, current) {
  let theirs;
  let mine;
  try {
    [theirs, mine] = [await statsOf(linked), knownPerson() && await statsOf(knownPerson())];
  } catch {
    if (current()) failedToLoad();
    return true;
  }
  if (!current()) return true;
  if (!theirs || theirs.rounds < 1) {
    forgetLink();
    return false;
  }
  const own = mine && mine.rounds > 0
    ? `<p>${esc(tr('offerReplaces', { n: mine.rounds }))}</p>` : '';
  $('stats').innerHTML = `<section id="carry-offer" aria-labelledby="h-offer">
    <h2 id="h-offer" tabindex="-1">${esc(tr('offerTitle'))}</h2>
    <p>${esc(tr('offerText', { n: theirs.rounds }))}</p>${own}
    <p><button type="button" id="btn-adopt">${esc(tr('adopt'))}</button>
    <button type="button" id="btn-keep">${esc(tr('keep'))}</button></p></section>`;
  $('btn-adopt').addEventListener('click', () => {
    adoptPerson(linked);
    forgetLink();
    render(theirs);
    $('stats').insertAdjacentHTML('afterbegin', `<section><p id="carry-done" role="status" tabindex="-1">${esc(tr('adopted'))}</p></section>`);
    // The button is gone: the focus goes to what it did, which a screen reader then reads (a
    // status written at once and the focus moved to the title may go unsaid: QA helper-63).
    $('carry-done').focus();
  });
  $('btn-keep').addEventListener('click', async () => {
    forgetLink();
    await showOwn();
    $('stats-title').focus();
  });
  $('h-offer').focus();
  return true;
}

let clearing = false; // the clearing asked is on its way: pressed again, it is not asked twice

async function clear() {
  const id = knownPerson();
  if (!id || clearing || !window.confirm(tr('clearConfirm'))) return;
  clearing = true;
  $('clear-note').textContent = '';
  try {
    await call('DELETE', `/api/people/${id}/stats`);
  } catch (err) {
    // Not cleared (the network, the server or its database away, no answer): said beside the
    // button, which asks again. (It said nothing: the person could not tell it had failed.)
    if (!(err instanceof ApiError && err.status === 404)) {
      console.warn(err);
      $('clear-note').textContent = tr('clearFailed');
      return;
    }
  } finally {
    clearing = false;
  }
  // The id stays: the match under way goes on counting for this browser from now on.
  $('stats').innerHTML = `<section><p id="stats-empty" role="status">${esc(tr('cleared'))}</p></section>`;
}

async function load() {
  document.documentElement.lang = lang;
  document.title = `Scopone Scientifico · ${tr('stats')}`;
  $('stats-title').textContent = tr('statsTitle');
  $('back-link').textContent = tr('backToGame');
  $('rules-link').textContent = tr('rulesLink');
  $('rules-link').href = rulesUrl(lang);
  // A link pasted into the address bar of this page already open is no new page: only its
  // fragment changes (QA: nothing was offered, the id stayed in the address bar). Heard from
  // the start: pasted while the page's own statistics were still on their way (a slow
  // network), it was never offered (QA helper-82).
  window.addEventListener('hashchange', () => {
    if (CARRY.test(window.location.hash)) arrive();
  });
  // Back or Forward may restore this page from the browser's back-forward cache as it was left,
  // figures and all: the rounds played since (on the game page it was left for) were missing
  // until a reload (QA helper-80). Read again, as a load would; a language chosen meanwhile
  // is the page's whole text, which only a load writes.
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    if (language() !== lang) window.location.reload();
    else arrive();
  });
  await arrive();
}

// Counts the arrivals: only the newest draws the page. An older one's answers, come after a
// newer one's (the own statistics, slow, after a link pasted meanwhile), were drawn over it.
let arrivals = 0;

/** The page as the address asks: a statistics link's offer, else this device's own. */
async function arrive() {
  const turn = ++arrivals;
  const current = () => turn === arrivals;
  document.body.dataset.status = 'loading';
  $('stats').setAttribute('aria-busy', 'true');
  const linked = CARRY.exec(window.location.hash)?.[1];
  if (linked && linked === knownPerson()) forgetLink(); // this device's own link
  const offered = linked && isPersonId(linked) && linked !== knownPerson()
    && await offer(linked, current);
  if (!current()) return;
  if (!offered) {
    await showOwn(current);
    if (!current()) return;
    if (linked && linked !== knownPerson()) {
      $('stats').insertAdjacentHTML('afterbegin', `<section><p id="carry-empty" role="status">${esc(tr('offerEmpty'))}</p></section>`);
    }
  }
  $('stats').removeAttribute('aria-busy');
  document.body.dataset.status = 'ready';
}

async function showOwn(current = () => true) {
  const id = knownPerson();
  let data;
  try {
    data = id && await statsOf(id);
  } catch {
    if (current()) failedToLoad();
    return;
  }
  if (!current()) return;
  if (data && data.rounds > 0) render(data);
  else $('stats').innerHTML = `<section><p id="stats-empty">${esc(tr('noStats'))}</p></section>`;
}

load();
