// Turning a table's game so that the viewer's seat is at the bottom: the board (render.js)
// always draws seat 0 at the bottom, partner opposite, and pair "A" as the viewer's own pair.

/** The board position (0 bottom, 1 right, 2 top, 3 left) of table seat `seat` for `me`. */
export function place(seat, me) {
  return (seat - me + 4) % 4;
}

/** The table seat drawn at board position `pos` for `me`. */
export function seatAt(pos, me) {
  return (pos + me) % 4;
}

const swap = (pair, odd) => (odd ? [pair[1], pair[0]] : pair);

/**
 * The game as the board draws it for the viewer at table seat `me` (0 for a spectator): seats
 * turned, and for an odd seat both pairs swapped so that the viewer's pair comes first.
 */
export function turnGame(game, me, id) {
  const odd = me % 2 === 1;
  const at = (s) => (s === null || s === undefined ? s : place(s, me));
  const counts = [0, 1, 2, 3].map((pos) => game.hand_counts[seatAt(pos, me)]);
  const rounds = (game.rounds || []).map((r) => {
    const categories = {};
    for (const [cat, pts] of Object.entries(r.categories || {})) categories[cat] = swap(pts, odd);
    return { ...r, points: swap(r.points, odd), tallies: swap(r.tallies, odd), categories };
  });
  const flip = (w) => (odd && w ? { A: 'B', B: 'A' }[w] : w);
  const winner = flip(game.winner);
  const last = game.last_match;
  return {
    ...game,
    id,
    turn: at(game.turn),
    dealer: at(game.dealer),
    last_taker: at(game.last_taker),
    hand_counts: counts,
    history: game.history.map((p) => ({ ...p, seat: place(p.seat, me) })),
    piles: swap(game.piles, odd),
    scope: Array.isArray(game.scope) ? swap(game.scope, odd) : game.scope,
    score: swap(game.score, odd),
    rounds,
    winner,
    last_match: last ? { ...last, score: swap(last.score, odd), winner: flip(last.winner) } : null,
    legal: game.legal || [],
    hand: game.hand || [],
  };
}
