"""Exact solution of a round's last plays with every hand known: alpha-beta over the two pairs.

Seats alternate pairs (0, 1, 2, 3: A, B, A, B), so this is a negamax: every value is the final
points of the side to move's pair minus the other pair's, memoized by position.
"""

from __future__ import annotations

from ..engine import Round
from ..engine.captures import capture_options
from ..engine.cards import BIT, RANK_OF
from ..engine.scoring import round_points

_EXACT, _LOWER, _UPPER = 0, 1, 2
_INF = 1_000

Table = dict[tuple[int, ...], tuple[int, int]]


class Solver:
    """Solves positions of one round; its memo is valid for one deal and may be reused within it.

    ``nodes`` counts the positions searched, for benchmarks.
    """

    def __init__(self, napola: bool) -> None:
        self.napola = napola
        self.memo: Table = {}
        self.nodes = 0

    def move_values(self, r: Round, moves: list[tuple[int, int]]) -> list[int]:
        """For each move of the seat to play, the exact final points margin for its pair."""
        hands = [_mask(h) for h in r.hands]
        out = []
        for c, m in moves:
            out.append(self._after(hands, r.table_mask, r.piles[0], r.piles[1],
                                   r.scope[0] - r.scope[1], r.last_taker, r.turn, r.plays_left,
                                   c, m, -_INF, _INF))
        return out

    def value(self, r: Round) -> int:
        """The exact final points margin for the pair of the seat to play."""
        hands = [_mask(h) for h in r.hands]
        return self._solve(hands, r.table_mask, r.piles[0], r.piles[1], r.scope[0] - r.scope[1],
                           r.last_taker, r.turn, r.plays_left, -_INF, _INF)

    def _after(self, hands: list[int], table: int, p0: int, p1: int, sd: int, last: int,
               turn: int, left: int, c: int, m: int, alpha: int, beta: int) -> int:
        # The value, for the mover's pair, of playing card c taking m.
        b = BIT[c]
        hands[turn] ^= b
        if m:
            t2 = table ^ m
            if turn & 1:
                p1 |= m | b
                if not t2 and left > 1:
                    sd -= 1
            else:
                p0 |= m | b
                if not t2 and left > 1:
                    sd += 1
            last = turn
        else:
            t2 = table | b
        v = -self._solve(hands, t2, p0, p1, sd, last, (turn + 1) & 3, left - 1, -beta, -alpha)
        hands[turn] ^= b
        return v

    def _solve(self, hands: list[int], table: int, p0: int, p1: int, sd: int, last: int,
               turn: int, left: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not left:
            return self._final(table, p0, p1, sd, last, turn)
        if left <= 4 and not (hands[0] & (hands[0] - 1) or hands[1] & (hands[1] - 1)
                              or hands[2] & (hands[2] - 1) or hands[3] & (hands[3] - 1)):
            return self._last(hands, table, p0, p1, sd, last, turn, left)
        key = (hands[0], hands[1], hands[2], hands[3], table, p0, sd,
               (last & 1) if last >= 0 else 2, turn)
        hit = self.memo.get(key)
        if hit is not None:
            val, flag = hit
            if flag == _EXACT:
                return val
            if flag == _LOWER:
                if val >= beta:
                    return val
                alpha = max(alpha, val)
            elif val <= alpha:
                return val
            else:
                beta = min(beta, val)
        alpha0 = alpha
        opts = capture_options(table)
        caps: list[tuple[int, int]] = []
        lays: list[tuple[int, int]] = []
        h = hands[turn]
        while h:
            low = h & -h
            h ^= low
            c = low.bit_length() - 1
            o = opts[RANK_OF[c]]
            if o:
                for m in o:
                    # Sweeps first: they are the moves that most often cut the search short.
                    if m == table:
                        caps.insert(0, (c, m))
                    else:
                        caps.append((c, m))
            else:
                lays.append((c, 0))
        best = -_INF
        for c, m in caps + lays:
            v = self._after(hands, table, p0, p1, sd, last, turn, left, c, m, alpha, beta)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        flag = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT
        self.memo[key] = (best, flag)
        return best

    def _final(self, table: int, p0: int, p1: int, sd: int, last: int, turn: int) -> int:
        # The round is over: the last taker takes what is left on the table.
        if table and last >= 0:
            if last & 1:
                p1 |= table
            else:
                p0 |= table
        pa, pb = round_points((p0, p1), (0, 0), self.napola)
        v = pa - pb + sd
        return -v if turn & 1 else v

    def _last(self, hands: list[int], table: int, p0: int, p1: int, sd: int, last: int,
              turn: int, left: int) -> int:
        # Every hand holds one card at most, so the plays are forced but for the choice between
        # captures of one card: a plain negamax without window or memo. These lines are most of
        # the nodes of a solve from 8 plays (every playout's tail), and their positions rarely
        # repeat, so the memo only cost time there. The value is exact, which any window admits.
        self.nodes += 1
        if not left:
            return self._final(table, p0, p1, sd, last, turn)
        h = hands[turn]
        if not h:
            return -_INF  # (scripted uneven hands) as the general search answers: no move
        c = h.bit_length() - 1
        nxt = (turn + 1) & 3
        hands[turn] = 0
        o = capture_options(table)[RANK_OF[c]]
        if not o:
            best = -self._last(hands, table | h, p0, p1, sd, last, nxt, left - 1)
        else:
            best = -_INF
            for m in o:
                t2 = table ^ m
                d = 1 if not t2 and left > 1 else 0
                if turn & 1:
                    v = -self._last(hands, t2, p0, p1 | m | h, sd - d, turn, nxt, left - 1)
                else:
                    v = -self._last(hands, t2, p0 | m | h, p1, sd + d, turn, nxt, left - 1)
                if v > best:
                    best = v
        hands[turn] = h
        return best


def _mask(hand: list[int]) -> int:
    m = 0
    for c in hand:
        m |= BIT[c]
    return m


__all__ = ["Solver"]
