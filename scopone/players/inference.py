"""Card reading from the public history: which ranks a seat shows it does not hold.

A player who could have swept the table and did not, almost surely held no card of the sweeping
rank; one who left the settebello on the table held no seven. Cards only leave a hand, so such a
void lasts. Imagined deals then give those seats no card of those ranks, as far as the counts
allow: a wrong guess (an opponent who plays at random) can never make a deal impossible.

Softer evidence comes from every other play (``card_weights``): a seat that laid a card, or took
little, when a card of another rank would have taken much more by Normal's judgement, probably
did not hold that card. Each such play makes the rank less likely in that seat's hand by the
chance a player who judges like Normal (with some noise) would have passed the better capture.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ..engine import Round, SeatView
from ..engine.captures import capture_options
from ..engine.cards import (
    ALL_MASK,
    BIT,
    DECK,
    RANK_MASK,
    RANK_OF,
    SETTEBELLO_INDEX,
    indices_of,
    mask_of,
)
from .heuristics import CARD_WORTH, SCOPA_WORTH, WORTH, holds_any, mask_worth, rank_sum

_SETTEBELLO = BIT[SETTEBELLO_INDEX]


def _tables_before(view: SeatView) -> list[int]:
    # Walk back from today's table to the table each play was made on.
    history = view.history
    table = view.table_mask
    if not view.plays_left and history and not table:
        # The last taker has had the leftovers: the cards in the piles that no capture put
        # there. (A round dealt with empty piles, as every round is; a position built with
        # cards already in the piles would read those as leftovers too.)
        table = mask_of(view.piles[0]) | mask_of(view.piles[1])
        for play in history:
            if play.capture:
                table &= ~BIT[play.card.index]
                for c in play.capture:
                    table &= ~BIT[c.index]
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
    return before


def rank_voids(view: SeatView) -> tuple[int, int, int, int]:
    """For each seat, a bit mask of ranks (bit r for rank r) it has shown it does not hold.

    Read from this round's public history only; the seat's own entry stays 0.
    """
    voids = [0, 0, 0, 0]
    history = view.history
    before = _tables_before(view)
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


#: How sharply the model player prefers its better moves: the chance it passes a capture worth
#: d points more than what it played is 1 / (1 + exp(BETA * d)) (d = 1: about 12%). Fitted on
#: positions of whole rounds: 2 predicts where Hard's cards are best (3 and 5 fit Normal better).
BETA = 2.0
#: The lowest weight one card keeps in a seat's hand: the model is only a model.
FLOOR = 0.02


def _public_score(table: int, card: int, capture: int, out: int, next_count: int,
                  last: bool) -> float:
    """Normal's judgement of a move (``normal.move_score``) from public knowledge only: the
    cards still out are ``out`` (the mover's own hand among them, as an onlooker sees it)."""
    if capture:
        after = table ^ capture
        score = mask_worth(capture | BIT[card])
        if not after and not last:
            score += SCOPA_WORTH
    else:
        after = table | BIT[card]
        score = -0.5 * WORTH[card]
        if card == SETTEBELLO_INDEX:
            score -= 3.0
    if after and not last:
        total = rank_sum(after)
        if total <= 10:
            p = holds_any(next_count, out.bit_count(), (out & RANK_MASK[total]).bit_count())
            score -= p * (SCOPA_WORTH + mask_worth(after) + CARD_WORTH)
    return score


def card_weights(view: SeatView, beta: float = BETA) -> list[list[float]]:
    """For each seat, a weight for each card index: how likely, relative to a seat that showed
    nothing, it still holds that card given the moves it made.

    Each play is compared with the best capture each other card still out could have made on
    the same table; the chance a model player (Normal's judgement, logistic noise ``beta``)
    passes it up is the card's factor. A rank the seat played later in the round tells
    nothing (it surely held one then, and passed it anyway). The seat's own weights stay 1.
    """
    weights = [[1.0] * 40 for _ in range(4)]
    history = view.history
    before = _tables_before(view)
    # Ranks each seat plays from each point of the history on (walked backwards).
    later = [0, 0, 0, 0]
    later_at: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)] * len(history)
    for i in range(len(history) - 1, -1, -1):
        later_at[i] = (later[0], later[1], later[2], later[3])
        play = history[i]
        later[play.seat] |= 1 << RANK_OF[play.card.index]
    taken = 0  # cards in the piles before each play: what an onlooker knows is out of hands
    for i, play in enumerate(history):
        t = before[i]
        c = play.card.index
        m = 0
        for taken_card in play.capture:
            m |= BIT[taken_card.index]
        out = ALL_MASK & ~t & ~taken
        if m:
            taken |= m | BIT[c]
        seat = play.seat
        if seat == view.seat or not t:
            continue
        plays_left = view.plays_left + len(history) - i
        next_count = (plays_left + 2) // 4  # the next seat's cards then
        last = plays_left == 1
        made = _public_score(t, c, m, out, next_count, last)
        opts = capture_options(t)
        skip = later_at[i][seat] | 1 << RANK_OF[c]
        w = weights[seat]
        for x in indices_of(out & ~BIT[c]):
            rank = RANK_OF[x]
            if skip >> rank & 1 or not opts[rank]:
                continue
            best = max(_public_score(t, x, cap, out, next_count, last) for cap in opts[rank])
            w[x] *= 1.0 / (1.0 + math.exp(min(beta * (best - made), 50.0)))
    for w in weights:
        for x in range(40):
            if w[x] < FLOOR:
                w[x] = FLOOR
    return weights


def weighted_sampler(view: SeatView, voids: tuple[int, int, int, int],
                     weights: list[list[float]]) -> Callable[[random.Random], Round]:
    """Deals of the unseen cards that respect ``voids`` where they can and give each card to a
    seat in proportion to that seat's room left times its weight for the card.

    What does not change from deal to deal (who may hold each card, the order cards are
    placed in: the most constrained first) is worked out once here.
    """
    others = [s for s in range(4) if s != view.seat]
    counts = view.hand_counts
    # Per card: the seats allowed to hold it with their weights, or every seat if none is.
    plan: list[tuple[int, tuple[tuple[int, float], ...], int]] = []
    for c in indices_of(view.unseen_mask):
        allowed = [s for s in others if not voids[s] >> RANK_OF[c] & 1] or others
        ws = tuple((s, weights[s][c]) for s in allowed)
        plan.append((c, ws, len(allowed)))
    plan.sort(key=lambda p: (p[2], min(w for _, w in p[1])))
    mine = sorted(c.index for c in view.hand)

    def sample(rng: random.Random) -> Round:
        room = [counts[0], counts[1], counts[2], counts[3]]
        room[view.seat] = 0
        hands: list[list[int]] = [[], [], [], []]
        rand = rng.random
        for c, ws, _ in plan:
            total = 0.0
            for s, w in ws:
                total += room[s] * w
            chosen = -1
            if total > 0.0:
                pick = rand() * total
                for s, w in ws:
                    if room[s]:
                        chosen = s
                        pick -= room[s] * w
                        if pick < 0:
                            break
            else:  # the allowed seats are full: any seat with room
                free = [s for s in others if room[s]]
                if not free:
                    break  # more unseen cards than hands to hold them (scripted positions)
                chosen = free[int(rand() * len(free))]
            hands[chosen].append(c)
            room[chosen] -= 1
        hands[view.seat] = mine
        return view._round_from_indices(hands)

    return sample


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


__all__ = ["BETA", "card_weights", "rank_voids", "sample_with_voids", "weighted_sampler"]
