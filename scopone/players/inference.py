"""Card reading from the public history: which ranks a seat shows it does not hold.

A player who could have swept the table and did not, almost surely held no card of the sweeping
rank; one who left the settebello on the table held no seven. Cards only leave a hand, so such a
void lasts. Imagined deals then give those seats no card of those ranks, as far as the counts
allow: a wrong guess (an opponent who plays at random) can never make a deal impossible.
"""

from __future__ import annotations

import random

from ..engine import Round, SeatView
from ..engine.cards import BIT, DECK, RANK_OF, SETTEBELLO_INDEX, indices_of
from .heuristics import rank_sum

_SETTEBELLO = BIT[SETTEBELLO_INDEX]


def rank_voids(view: SeatView) -> tuple[int, int, int, int]:
    """For each seat, a bit mask of ranks (bit r for rank r) it has shown it does not hold.

    Read from this round's public history only; the seat's own entry stays 0.
    """
    voids = [0, 0, 0, 0]
    history = view.history
    table = view.table_mask
    # Walk back from today's table to the table each play was made on.
    before: list[int] = [0] * len(history)
    for i in range(len(history) - 1, -1, -1):
        play = history[i]
        card = BIT[play.card.index]
        if play.capture:
            for c in play.capture:
                table |= BIT[c.index]
        else:
            table &= ~card
        before[i] = table
    for i, play in enumerate(history):
        seat = play.seat
        if seat == view.seat:
            continue
        t = before[i]
        plays_left = view.plays_left + len(history) - i
        if t and plays_left > 1 and not play.scopa:
            total = rank_sum(t)
            if total <= 10:
                voids[seat] |= 1 << total
        if t & _SETTEBELLO and play.card.rank != 7:
            voids[seat] |= 1 << 7
    return voids[0], voids[1], voids[2], voids[3]


def sample_with_voids(view: SeatView, voids: tuple[int, int, int, int],
                      rng: random.Random) -> Round:
    """A deal of the unseen cards to the other seats that respects ``voids`` where it can.

    The most constrained cards are placed first, each with a seat drawn in proportion to the
    room left among the seats allowed to hold it; a card no such seat has room for goes anywhere.
    """
    others = [s for s in range(4) if s != view.seat]
    room = {s: view.hand_counts[s] for s in others}
    cards = list(indices_of(view.unseen_mask))
    rng.shuffle(cards)
    allowed = {c: [s for s in others if not voids[s] >> RANK_OF[c] & 1] for c in cards}
    cards.sort(key=lambda c: len(allowed[c]))
    hands: dict[int, list[int]] = {s: [] for s in others}
    for c in cards:
        seats = [s for s in allowed[c] if room[s]] or [s for s in others if room[s]]
        if not seats:
            break  # more unseen cards than hands to hold them (scripted test positions)
        pick = int(rng.random() * sum(room[s] for s in seats))
        chosen = seats[-1]
        for s in seats:
            pick -= room[s]
            if pick < 0:
                chosen = s
                break
        hands[chosen].append(c)
        room[chosen] -= 1
    return view.determinize([[DECK[c] for c in hands.get(s, [])] for s in range(4)], check=False)


__all__ = ["rank_voids", "sample_with_voids"]
