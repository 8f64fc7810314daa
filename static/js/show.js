// Showing a play that the server reports: the card flies, takes, sweeps; screen readers hear it.

import { cardList, cardName, seatName, t } from './i18n.js';
import { flyer, glide, rectOf, scopaBanner, send, sleep } from './motion.js';
import { isOver } from './render.js';

// Milliseconds for each step of a play: a computer "thinks", the card flies to the table,
// rests there with what it takes, then everything sweeps to the pile (about 0.7 s a card).
export const PACE = {
  normal: { think: 220, fly: 300, hold: 200, sweep: 240, end: 700, banner: 1100 },
  fast: { think: 0, fly: 90, hold: 40, sweep: 70, end: 150, banner: 500 },
};

const $ = (id) => document.getElementById(id);

export function paceOf(state) {
  return PACE[state.prefs.speed] || PACE.normal;
}

/** Who played, in the page's words: a person's name at a table, else "Partner" and so on. */
export function seatLabel(state, seat) {
  return state.seatLabel ? state.seatLabel(seat) : seatName(state.prefs.lang, seat);
}

/** Whether `play` is the viewer's own, said in the second person: their seat's (the board's
 * bottom), on a page that holds a seat (a spectator's bottom seat is someone else's), and not
 * a card of the person who held that seat before the host handed it to the computer (`held_by`
 * names them). */
export function isViewers(state, play) {
  return play.seat === 0 && !state.watching && !play.held_by;
}

/** What a play says, for the live region and the list of last plays; `you` says the viewer's
 * own play in the second person ("You play ...", or "The computer plays ... for you" for a card
 * the computer chose while they were away). The round's last play, once the page holds
 * the view in which its leftovers lie in a pile, also says where they went (the list of last
 * plays shows it; the live region is told as they are seen to go: `sweepLeftovers`). */
export function playText(state, play, you = false) {
  const { lang } = state.prefs;
  // Plain names here (a table's seats also say "host", "away"): the play is the news. A
  // person's card that the computer chose (they were away) says so: "Anna · computer".
  // A card of a person whose seat the host has handed to the computer since is theirs.
  const name = play.held_by || (state.plainName ? state.plainName(play.seat) : seatLabel(state, play.seat));
  const seat = play.by_computer ? t(lang, 'byComputer', { seat: name }) : name;
  let keys = ['plays', 'takes'];
  if (you) keys = play.by_computer ? ['youPlayByComputer', 'youTakeByComputer'] : ['youPlay', 'youTake'];
  const [plays, takes] = keys;
  let text = play.capture.length
    ? t(lang, takes, { seat, card: cardName(lang, play.card), cards: cardList(lang, play.capture) })
    : t(lang, plays, { seat, card: cardName(lang, play.card) });
  // Its own sentence: glued on, it read as the last card's name ("… Ace of Clubs Scopa!").
  if (play.scopa) text += `. ${t(lang, 'scopa')}`;
  const view = state.view;
  if (view && view.history[view.history.length - 1] === play) {
    const left = leftoverText(state, view);
    if (left) text += `. ${left}`;
  }
  return text;
}

const SUITS = 'DCSB';
/** The server's order of cards (suit, then rank), for a table the page draws itself. */
const deckOrder = (a, b) => SUITS.indexOf(a.slice(-1)) - SUITS.indexOf(b.slice(-1))
  || Number(a.slice(0, -1)) - Number(b.slice(0, -1));

/** The cards left on the table at the round's end, which went to the pair that took last
 * (SPEC §1): at round over, the cards in the piles that no capture of the round took. Read
 * from the view alone, so a page that missed a play, or holds only this view, finds them too. */
function leftovers(view) {
  if (!isOver(view) || !view.piles) return [];
  const taken = new Set();
  for (const p of view.history) {
    if (!p.capture.length) continue;
    taken.add(p.card);
    for (const c of p.capture) taken.add(c);
  }
  return view.piles.flat().filter((c) => !taken.has(c)).sort(deckOrder);
}

/** Where the leftovers went, in words: "What is left on the table goes to us: ..." ("to pair
 * A" for a spectator, who holds no pair); '' when none were left. */
function leftoverText(state, view) {
  const left = leftovers(view);
  if (!left.length || view.last_taker === null || view.last_taker === undefined) return '';
  const { lang } = state.prefs;
  const pair = view.last_taker % 2;
  const cards = cardList(lang, left);
  if (state.watching) return t(lang, 'leftoverPair', { pair: pair ? 'B' : 'A', cards });
  return t(lang, pair ? 'leftoverThem' : 'leftoverUs', { cards });
}

/** The round-over view as it stood just before its leftovers went to a pile: they still lie on
 * the table, and the pile does not hold them yet. The server's view comes after both. */
function beforeSweep(view, left) {
  const gone = new Set(left);
  return {
    ...view,
    table: [...view.table, ...left].sort(deckOrder),
    piles: view.piles.map((pile) => pile.filter((c) => !gone.has(c))),
  };
}

/** The leftovers of `shown` rest a moment, then sweep to the last taker's pile as a capture
 * does; `after` (the server's view, the table empty) becomes the page's as they go, and a
 * screen reader hears where they went, after the play it heard. */
async function sweepLeftovers(state, shown, after, left, pace, adopt) {
  await sleep(pace.hold);
  if (state.view !== shown) return; // another view came meanwhile (a new match, say)
  const clones = left
    .map((code) => [code, rectOf($('table-cards').querySelector(`[data-code="${code}"]`))])
    .filter(([, r]) => r)
    .map(([code, r]) => [flyer(code, r, state.prefs.design, state.prefs.lang), r]);
  adopt(after, false);
  const note = document.createElement('span');
  note.textContent = `. ${leftoverText(state, after)}`;
  $('announce').append(note);
  const pile = rectOf($(`pile-${after.last_taker % 2}`).querySelector('.pile-stack'));
  await Promise.all(clones.map(([el, r]) => send(el, r, pile, pace.sweep, true)));
  for (const [el] of clones) el.remove();
}

/** Who is to play next, in words: "Your turn: choose a card" or "Partner to play". */
function turnText(state, view) {
  const { lang } = state.prefs;
  if (view.status === 'your_turn') return t(lang, 'yourTurn');
  const seat = state.plainName ? state.plainName(view.turn) : seatLabel(state, view.turn);
  return view.status === 'computer_turn' || view.status === 'their_turn' ? t(lang, 'waiting', { seat }) : '';
}

/** What a screen reader hears of a play: the player's own too, in the second person (the
 * capture it made, a scopa: the banner is only seen; the list of last plays says it alike),
 * and "your turn" when it is. Said once the
 * view after it is the page's, when the keys act on it: said before, a player who answered
 * "your turn" at once would press keys the page still refuses. */
function announce(state, play, after) {
  let text = playText(state, play, isViewers(state, play));
  // Its own sentence, as the scopa and the leftovers are: glued on with a space, a reader ran
  // the card's name into it ("… Vier Kelche Du bist dran: …").
  if (after.status === 'your_turn') text += `. ${t(state.prefs.lang, 'yourTurn')}`;
  $('announce').textContent = text;
}

/** What a screen reader hears when a round begins (or the page opens on one): its number and
 * whose turn it is; the cards dealt are the hand's own to explore. */
export function announceRound(state, view) {
  if (!view || isOver(view)) return;
  const { lang } = state.prefs;
  $('announce').textContent = `${t(lang, 'roundTitle', { n: view.round_number })}. ${turnText(state, view)}`.trim();
}

/**
 * Shows the move that turned `before` into `after`, one card, at a pace a person can follow;
 * `adopt(view, openSummary)` makes a view the page's, `paint()` redraws it. A new round or a
 * shorter history is adopted at once.
 */
export async function showPlay(state, before, after, { adopt, paint }) {
  const fresh = after.round_number === before.round_number && after.history.length > before.history.length;
  if (!fresh) {
    adopt(after);
    const dealt = after.round_number !== before.round_number || after.history.length < before.history.length;
    if (dealt && state.view === after) announceRound(state, after);
    return;
  }
  if (state.view && state.view.id !== after.id) return; // a match already left
  const play = after.history[after.history.length - 1];
  const pace = paceOf(state);
  // The round's last play: the server's view has the round's points in the score and the cards
  // left on the table in a pile already. The play is shown on the view as it stood just before,
  // then they go, and the score comes with the summary, once every card lies in a pile.
  const held = isOver(after) && before.score ? { ...after, score: before.score } : after;
  const left = leftovers(after);
  const shown = left.length ? beforeSweep(held, left) : held;
  // From the hand the card left; a spectator's bottom seat shows backs like the others.
  const from = play.seat === 0 && !state.watching
    ? rectOf($('hand').querySelector(`[data-code="${play.card}"]`))
    : rectOf(document.querySelector(play.seat === 0 ? '#seat-0-cards .backs' : `#seat-${play.seat} .backs`));
  if (play.capture.length === 0) {
    state.hiddenTable = new Set([play.card]);
    adopt(shown, false);
    announce(state, play, after);
    const spot = $('table-cards').querySelector(`[data-code="${play.card}"]`);
    const to = rectOf(spot);
    if (to) {
      const el = flyer(play.card, to, state.prefs.design, state.prefs.lang);
      await glide(el, from, to, pace.fly);
      el.remove();
    }
    state.hiddenTable = new Set();
    paint();
  } else {
    const targets = play.capture.map((c) => $('table-cards').querySelector(`[data-code="${c}"]`));
    const first = rectOf(targets[0]) || rectOf($('table-cards'));
    const land = { left: first.left + first.width * 0.25, top: first.top + first.height * 0.2, width: first.width, height: first.height };
    const handCard = play.seat === 0 ? $('hand').querySelector(`[data-code="${play.card}"]`) : null;
    if (handCard) handCard.classList.add('leaving');
    const card = flyer(play.card, land, state.prefs.design, state.prefs.lang);
    await glide(card, from, land, pace.fly);
    for (const el of targets) if (el) el.classList.add('taken');
    if (play.scopa) scopaBanner(t(state.prefs.lang, 'scopa'), pace.banner);
    await sleep(pace.hold);
    const clones = targets.map((el, i) => (el ? [flyer(play.capture[i], rectOf(el), state.prefs.design, state.prefs.lang), rectOf(el)] : null)).filter(Boolean);
    adopt(shown, false);
    announce(state, play, after);
    const pile = rectOf($(`pile-${play.seat % 2}`).querySelector('.pile-stack'));
    const moves = [[card, land], ...clones].map(([el, r]) => send(el, r, pile, pace.sweep, true));
    await Promise.all(moves);
    card.remove();
    for (const [el] of clones) el.remove();
  }
  if (left.length) await sweepLeftovers(state, shown, held, left, pace, adopt);
  if (isOver(after)) {
    await sleep(pace.end);
    if (state.view === held) adopt(after); // the score, and the summary open
  }
}
