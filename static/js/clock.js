// The turn clock of a table with friends (SPEC §6): a person who does not play in time, or whose
// browser went away, has their card played by the computer, and everyone at the table sees how
// long that person has left. The server says how many seconds were left when it built the view;
// the page counts down from when the view arrived, by its own monotonic clock (two machines may
// disagree on the time of day, never on a duration).

const WARN_SECONDS = 10;
const TICK_MS = 250;

const $ = (id) => document.getElementById(id);

/** Marks a TableView with when it arrived: its clock counts down from there. */
export function stamp(tv) {
  tv.arrived = performance.now();
  return tv;
}

/** Seconds left on the clock of TableView `tv` (never below 0), or null when none runs. */
export function secondsLeft(tv, now = performance.now()) {
  const clock = tv && tv.game && tv.game.clock;
  if (!clock) return null;
  const since = typeof tv.arrived === 'number' ? now - tv.arrived : 0;
  return Math.max(0, clock.seconds - since / 1000);
}

/** 42.3 s reads "0:43": the whole seconds still to come, as a clock shows them. */
export function formatClock(seconds) {
  const s = Math.ceil(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * The person's own clock inside the review (coach.js), when it is open: a modal dialog over the
 * board, it hid the turn and the clock, and the computer played the person's card while they
 * read (QA helper-57, after a rematch). `text` null: none shown. Not a live region (it changes
 * every second); the ten seconds' warning is spoken as ever.
 */
function inReview(text, left = 0) {
  const panel = document.querySelector('#review:not([hidden]) .review-panel');
  let note = $('review-turn');
  if (!panel || text === null) {
    if (note) note.remove();
    return;
  }
  if (!note || note.parentElement !== panel) {
    if (note) note.remove();
    note = document.createElement('p');
    note.id = 'review-turn';
    const title = panel.querySelector('h2');
    panel.insertBefore(note, title ? title.nextSibling : panel.firstChild);
  }
  if (note.textContent !== text) note.textContent = text;
  note.classList.toggle('low', left <= WARN_SECONDS);
}

/**
 * The clock of the table shown, in #turn-clock: `table()` is the TableView shown, `tr(key,
 * params)` its texts, `say(text)` speaks to screen readers. Returns `render`, to call with every
 * paint; while a clock runs it renders itself four times a second. The countdown is not a live
 * region (it would speak every second): the person to play hears one warning, ten seconds before.
 */
export function turnClock({ table, tr, say }) {
  let timer = null;
  let warned = '';
  function render() {
    const box = $('turn-clock');
    const tv = table();
    const left = secondsLeft(tv);
    if (left === null) {
      box.hidden = true;
      box.textContent = '';
      inReview(null);
      if (timer) clearInterval(timer);
      timer = null;
      return;
    }
    const { seat, reason } = tv.game.clock;
    const mine = tv.you === seat;
    inReview(mine && reason === 'turn' ? tr('clockReview', { time: formatClock(left) }) : null, left);
    let key = mine ? 'clockYou' : 'clockLeft';
    if (reason === 'offline') key = 'clockOffline';
    const text = tr(key, { time: formatClock(left) });
    if (box.textContent !== text) box.textContent = text;
    box.hidden = false;
    box.dataset.seat = String(seat);
    box.dataset.reason = reason;
    box.classList.toggle('low', left <= WARN_SECONDS);
    const turn = `${tv.game.round_number}:${tv.game.history.length}:${seat}`;
    if (mine && reason === 'turn' && left <= WARN_SECONDS && warned !== turn) {
      warned = turn;
      say(tr('clockWarn'));
    }
    if (!timer) timer = setInterval(render, TICK_MS);
  }
  return render;
}
