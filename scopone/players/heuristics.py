"""What cards are worth to a player and how likely a sweep is: the judgement Normal and Hard share.

Values are in round points, so they can be added to a scopa (1 point) or compared with a search
result. They are estimates of each card's share in the categories it helps win.
"""

from __future__ import annotations

from ..engine.cards import BIT, DENARI_MASK, RANK_OF, SETTEBELLO_INDEX

#: A taken card's share of the carte point (twenty-one cards win it).
CARD_WORTH = 0.06
#: A coin's extra share of the denari point (six coins win it).
DENARO_WORTH = 0.12
#: The settebello is a point by itself.
SETTEBELLO_WORTH = 1.0
#: Extra worth by rank for the primiera: sevens decide it, then sixes, then aces and fives.
PRIMIERA_WORTH: dict[int, float] = {7: 0.3, 6: 0.15, 1: 0.07, 5: 0.04}
SCOPA_WORTH = 1.0


def _card_worth(i: int) -> float:
    w = CARD_WORTH + PRIMIERA_WORTH.get(RANK_OF[i], 0.0)
    if BIT[i] & DENARI_MASK:
        w += DENARO_WORTH
    if i == SETTEBELLO_INDEX:
        w += SETTEBELLO_WORTH
    return w


#: Worth of taking each card, by card index.
WORTH: tuple[float, ...] = tuple(_card_worth(i) for i in range(40))

_MASK_WORTH: dict[int, float] = {}
_MASK_RANKS: dict[int, int] = {}
#: Entries each of those memos keeps before it starts again.
_MASK_LIMIT = 100_000


def mask_worth(mask: int) -> float:
    """The worth of taking every card of ``mask`` (memoized: searches ask about few masks).

    >>> round(mask_worth(BIT[SETTEBELLO_INDEX]), 2)
    1.48
    """
    w = _MASK_WORTH.get(mask)
    if w is None:
        w = 0.0
        m = mask
        while m:
            low = m & -m
            w += WORTH[low.bit_length() - 1]
            m ^= low
        if len(_MASK_WORTH) > _MASK_LIMIT:
            _MASK_WORTH.clear()
        _MASK_WORTH[mask] = w
    return w


def rank_sum(mask: int) -> int:
    """The ranks of the cards of ``mask`` added up: a table a single card can sweep has ≤ 10.

    >>> rank_sum(BIT[0] | BIT[12])   # 1D + 3C
    4
    """
    s = _MASK_RANKS.get(mask)
    if s is None:
        s = 0
        m = mask
        while m:
            low = m & -m
            s += RANK_OF[low.bit_length() - 1]
            m ^= low
        if len(_MASK_RANKS) > _MASK_LIMIT:
            _MASK_RANKS.clear()
        _MASK_RANKS[mask] = s
    return s


def holds_any(hand_size: int, unseen: int, wanted: int) -> float:
    """Chance that a hand of ``hand_size`` cards dealt from ``unseen`` holds one of ``wanted``.

    >>> holds_any(10, 30, 0), holds_any(10, 10, 1), round(holds_any(10, 30, 1), 3)
    (0.0, 1.0, 0.333)
    """
    if wanted <= 0 or hand_size <= 0 or unseen <= 0:
        return 0.0
    miss = 1.0
    for j in range(hand_size):
        if unseen - wanted - j <= 0:
            return 1.0
        miss *= (unseen - wanted - j) / (unseen - j)
    return 1.0 - miss


__all__ = ["SCOPA_WORTH", "WORTH", "holds_any", "mask_worth", "rank_sum"]
