"""The reasons of a move: short facts about what it does, from the seat's own view alone.

A hint or a review names a move and its expected margin; the reasons say what a newcomer cannot
see in a number: the move is a scopa, what it takes that the round's score counts (cards, the
settebello, sevens for the primiera, coins), that it lays the settebello where the next player
may take it, or that it leaves the next player (always an opponent) a table they can sweep with
a card still unseen. Facts only; the margin stays the judgement.

Only a ``SeatView`` goes in, so a reason can depend on nothing the seat has not seen: "unseen"
is every card outside its hand, the table and the capture piles (every card played so far is
in one of those two), exactly the other three hands taken together.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from ..engine import Move, SeatView, pair_of
from ..engine.cards import BIT, DENARI_MASK, RANK_MASK, SETTEBELLO_INDEX, cards_of

#: The kinds, in the order a move's reasons are listed.
ReasonKind = Literal["scopa", "cards", "settebello", "sevens", "coins", "lays_settebello",
                     "leaves"]
KINDS: tuple[ReasonKind, ...] = ("scopa", "cards", "settebello", "sevens", "coins",
                                 "lays_settebello", "leaves")
#: The highest table sum a single card can sweep (a Re, 10).
SWEEPABLE = 10


class Reason(TypedDict):
    """One fact as plain data: ``{"kind": "scopa"}``, ``{"kind": "coins", "count": 2}``,
    ``{"kind": "leaves", "sum": 7, "unseen": 2}``.

    - ``scopa``: the move sweeps the table and it is not the round's last card (SPEC §1).
    - ``cards`` (``count``): the cards the capture wins, the played card included (on the
      round's last card, the leftovers the capturer gets too); only for a capture.
    - ``settebello``, ``sevens`` (``count``), ``coins`` (``count``): of those cards, the
      settebello, the sevens (the primiera's best card) and the coins (denari), when any.
    - ``lays_settebello``: the settebello is laid on the table with someone still to play.
    - ``leaves`` (``sum``, ``unseen``): the table left adds up to ``sum`` (10 at most), the
      next player has a card to play that is not the round's last, and ``unseen`` cards of rank
      ``sum`` are still unseen by the seat: any of them would sweep the table for a scopa.
    """

    kind: ReasonKind
    count: NotRequired[int]
    sum: NotRequired[int]
    unseen: NotRequired[int]


def reasons(view: SeatView, move: Move) -> list[Reason]:
    """The reasons of ``move`` for the seat of ``view``, whose turn it is.

    Raises ``ValueError`` for a move the view does not allow.

    >>> from scopone import Card, Round
    >>> from scopone.engine import parse_cards
    >>> r = Round.from_deal([parse_cards(h) for h in ("7C 2B", "1B 5S", "9S 4B", "8C 6B")],
    ...                     parse_cards("7D"), dealer=3)
    >>> reasons(SeatView.of(r, 0), Move(Card.parse("7C"), frozenset(parse_cards("7D"))))
    [{'kind': 'scopa'}, {'kind': 'cards', 'count': 2}, {'kind': 'settebello'}, \
{'kind': 'sevens', 'count': 2}, {'kind': 'coins', 'count': 1}]
    >>> reasons(SeatView.of(r, 0), Move(Card.parse("2B")))  # 7D and 2B: a nine sweeps them
    [{'kind': 'leaves', 'sum': 9, 'unseen': 4}]
    """
    card, capture = move.card.index, move.capture_mask
    if (card, capture) not in view.legal_moves():
        raise ValueError(f"{move} is not a legal move of seat {view.seat} now")
    # The engine's own rules play the move (scopa, the round's last card, its leftovers) on a
    # round holding only this seat's hand: the others' cards play no part in one move.
    after = view.determinize([[], [], [], []], check=False)
    pair = pair_of(view.seat)
    before = after.piles[pair]
    scopa = after.apply(card, capture)
    out: list[Reason] = []
    if scopa:
        out.append({"kind": "scopa"})
    if capture:
        won = after.piles[pair] & ~before
        out.append({"kind": "cards", "count": won.bit_count()})
        if won & BIT[SETTEBELLO_INDEX]:
            out.append({"kind": "settebello"})
        if sevens := (won & RANK_MASK[7]).bit_count():
            out.append({"kind": "sevens", "count": sevens})
        if coins := (won & DENARI_MASK).bit_count():
            out.append({"kind": "coins", "count": coins})
    elif move.card.is_settebello and after.plays_left:
        out.append({"kind": "lays_settebello"})
    # A sweep on the round's last card is no scopa: the next play must not be the last one.
    if after.table_mask and after.plays_left >= 2:
        total = sum(c.rank for c in cards_of(after.table_mask))
        if total <= SWEEPABLE:
            unseen = (view.unseen_mask & RANK_MASK[total]).bit_count()
            if unseen:
                out.append({"kind": "leaves", "sum": total, "unseen": unseen})
    return out
