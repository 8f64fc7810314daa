// "Play with friends" on the game page: a small form that creates a table and shows its link.

import { LEVELS } from './render.js';
import { t } from './i18n.js';
import { focusControl } from './menu.js';
import { tt } from './i18n-tables.js';
import { cleanName, copyInvite, nameTooLong, saveSeat, tables } from './tables-api.js';

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const STORE_NAME = 'scopone.name';

function options(list, value) {
  return list.map(([v, label]) => `<option value="${esc(v)}"${String(v) === String(value) ? ' selected' : ''}>${esc(label)}</option>`).join('');
}

/** The form, written in the page's language from the solo game's preferences. */
function formHtml(prefs) {
  const tr = (key, params) => tt(prefs.lang, key, params);
  const name = localStorage.getItem(STORE_NAME) || '';
  return `<div class="friends-panel">
    <h2 id="friends-title">${esc(tr('friendsTitle'))}</h2>
    <form id="friends-form">
      <label><span>${esc(tr('yourName'))}</span> <input id="fr-name" required autocomplete="nickname" value="${esc(name)}"></label>
      <label><span>${esc(tr('level'))}</span> <select id="fr-level">${options(LEVELS.map((l) => [l, tr(l)]), prefs.level)}</select></label>
      <label><span>${esc(tr('variant'))}</span> <select id="fr-variant">${options(['scientifico', 'classico'].map((v) => [v, tr(v)]), prefs.variant)}</select></label>
      <label><span>${esc(tr('targetLabel'))}</span> <select id="fr-target">${options([11, 21, 31].map((n) => [n, String(n)]), prefs.target)}</select></label>
      <label class="check"><input type="checkbox" id="fr-napola"${prefs.napola ? ' checked' : ''}> <span>${esc(tr('napola'))}</span></label>
      <label><span>${esc(tr('awayLabel'))}</span> <select id="fr-away">${options([['30', tr('away30')], ['60', tr('away60')], ['120', tr('away120')], ['never', tr('awayNever')]], '60')}</select></label>
      <p class="note">${esc(tr('awayNote'))}</p>
      <label class="check"><input type="checkbox" id="fr-hints"> <span>${esc(tr('hintsLabel'))}</span></label>
      <p class="note">${esc(tr('friendsNote'))}</p>
      <p id="fr-problem" role="alert"></p>
      <div class="row">
        <button type="submit" class="primary" id="fr-create">${esc(tr('createTable'))}</button>
        <button type="button" id="fr-close">${esc(tr('close'))}</button>
      </div>
    </form>
    <div id="fr-done" hidden>
      <label><span>${esc(tr('inviteLink'))}</span> <input id="fr-link" readonly></label>
      <div class="row">
        <button type="button" id="fr-copy">${esc(tr('copy'))}</button>
        <a id="fr-open" class="button primary">${esc(tr('openTable'))}</a>
        <button type="button" id="fr-close2">${esc(tr('close'))}</button>
      </div>
    </div>
  </div>`;
}

/** The button's label in the page's language (the solo page's render does not know it). */
export function labelFriends(lang) {
  const button = $('btn-friends');
  const text = tt(lang, 'playFriends');
  if (button.textContent !== text) button.textContent = text;
}

let release = null; // undoes what the open dialog bound

// What Tab may reach in the dialog as it is now (the form, or the link once it is made).
function focusables(box) {
  return [...box.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
    .filter((el) => !el.disabled && el.tabIndex >= 0 && el.getClientRects().length > 0);
}

/**
 * The dialog is modal for the keyboard too: Tab and Shift+Tab go round inside it, Esc closes it
 * from anywhere, and no key reaches the game underneath (N, L, D, 1–9, 0, nor the coach's H, C,
 * R, which leave the keys alone while a dialog is open). Listened to on the window, so a focus
 * that somehow left the dialog (a tap on the dimmed page) changes nothing of this.
 */
function onKey(event) {
  const box = $('friends');
  if (event.key === 'Escape') {
    event.preventDefault();
    event.stopPropagation();
    close();
    return;
  }
  const inside = box.contains(document.activeElement);
  if (event.key === 'Tab') {
    const items = focusables(box);
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    const at = document.activeElement;
    if (!inside || (event.shiftKey && at === first) || (!event.shiftKey && at === last)) {
      event.preventDefault();
      (event.shiftKey ? last : first).focus();
    }
  }
  // Inside, the key goes on to its field (typing a name), then stops at the dialog (below).
  if (!inside) event.stopPropagation();
}

function close() {
  const box = $('friends');
  if (release) release();
  release = null;
  box.hidden = true;
  box.innerHTML = '';
  focusControl($('btn-friends'));
}

/** Opens the form over the page; the solo game underneath is left as it is. */
export function openFriends(prefs) {
  const box = $('friends');
  const tr = (key, params) => tt(prefs.lang, key, params);
  box.innerHTML = formHtml(prefs);
  box.hidden = false;
  box.setAttribute('aria-labelledby', 'friends-title');
  $('fr-name').focus();
  if (release) release();
  const stop = (event) => event.stopPropagation(); // the game's keys are not for this form
  // A press on the dimmed page around the form keeps the focus where it is.
  const keepFocus = (event) => { if (event.target === box) event.preventDefault(); };
  window.addEventListener('keydown', onKey, true);
  box.addEventListener('keydown', stop);
  box.addEventListener('mousedown', keepFocus);
  release = () => {
    window.removeEventListener('keydown', onKey, true);
    box.removeEventListener('keydown', stop);
    box.removeEventListener('mousedown', keepFocus);
  };
  // A name too long is said at once (no maxlength: it counts an emoji twice).
  $('fr-name').addEventListener('input', () => {
    const problem = $('fr-problem');
    const long = nameTooLong($('fr-name').value);
    if (long) problem.textContent = tr('badName');
    else if (problem.textContent === tr('badName')) problem.textContent = '';
  });
  $('fr-close').addEventListener('click', close);
  $('fr-close2').addEventListener('click', close);
  $('friends-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = cleanName($('fr-name').value);
    if (!name) {
      $('fr-problem').textContent = tr('badName');
      return;
    }
    localStorage.setItem(STORE_NAME, name);
    const away = $('fr-away').value;
    const body = {
      name,
      level: $('fr-level').value,
      variant: $('fr-variant').value,
      target: Number($('fr-target').value),
      napola: $('fr-napola').checked,
      away_seconds: away === 'never' ? null : Number(away),
      hints: $('fr-hints').checked,
    };
    $('fr-create').disabled = true;
    // The dialog may be closed (Esc, Close) or opened afresh before the answer comes: the
    // answer then has no form of its own to fill (QA helper-77: it wrote into the form no
    // longer there, a script error, and nothing closed stayed as it was left).
    const form = $('friends-form');
    try {
      const res = await tables.create(body);
      saveSeat(res.table.code, res.seat, res.token);
      if (!form.isConnected) return;
      const link = `${location.origin}/t/${encodeURIComponent(res.table.code)}`;
      $('friends-form').hidden = true;
      $('fr-done').hidden = false;
      $('fr-link').value = link;
      $('fr-open').href = link;
      $('fr-link').select();
      $('fr-copy').focus();
    } catch (err) {
      if (!form.isConnected) return;
      $('fr-problem').textContent = err.status === 422 ? tr('badName') : t(prefs.lang, 'error');
      $('fr-create').disabled = false;
    }
  });
  $('fr-copy').addEventListener('click', () => copyInvite($('fr-link'), $('fr-copy'), tr('copy'), tr('copied')));
}
