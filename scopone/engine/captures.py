"""Which table cards a played card may take: the capture rule of SPEC.md §1, on card masks.

This is the hot path of every search, so it works on 40-bit masks and caches per table.
"""

from __future__ import annotations

from .cards import BIT, RANK_MASK, RANK_OF

_EMPTY: tuple[int, ...] = ()
_CACHE: dict[int, tuple[tuple[int, ...], ...]] = {}
_CACHE_LIMIT = 300_000


_NOTHING: tuple[tuple[int, ...], ...] = ((),) * 11


def _compute(table: int) -> tuple[tuple[int, ...], ...]:
    if not table:
        return _NOTHING
    options: list[tuple[int, ...]] = [_EMPTY] * 11
    cards: list[tuple[int, int]] = []
    t = table
    while t:
        low = t & -t
        t ^= low
        cards.append((RANK_OF[low.bit_length() - 1], low))
    if len(cards) >= 2:
        # Every subset of two or more table cards whose ranks add up to at most 10. Single
        # cards are grown too (they seed the larger sets) but never listed as a sum.
        sums: list[list[int]] = [[], [], [], [], [], [], [], [], [], [], []]
        partial: list[tuple[int, int]] = []
        for r, low in cards:
            for i in range(len(partial)):
                s, m = partial[i]
                s += r
                if s <= 10:
                    partial.append((s, m | low))
                    sums[s].append(m | low)
            partial.append((r, low))
        for r in range(2, 11):
            if sums[r]:
                options[r] = tuple(sums[r])
    for r, low in cards:
        # Equal rank present: exactly one of those cards, never a sum.
        same = table & RANK_MASK[r]
        if same == low:
            options[r] = (low,)
        else:
            options[r] = tuple(b for b in _BITS_OF_RANK[r] if same & b)
    return tuple(options)


_BITS_OF_RANK: tuple[tuple[int, ...], ...] = tuple(
    tuple(BIT[s * 10 + r - 1] for s in range(4)) if r else () for r in range(11)
)


def capture_options(table: int) -> tuple[tuple[int, ...], ...]:
    """For each rank 1–10 (index 0 unused), the capture masks a card of that rank may take.

    An empty tuple means a card of that rank is laid on the table.

    >>> from .cards import mask_of, parse_cards, cards_of
    >>> opts = capture_options(mask_of(parse_cards("3D 4C 7S 2B 5B")))
    >>> [" ".join(map(str, cards_of(m))) for m in opts[7]]   # a 7 must take the 7, no sum
    ['7S']
    >>> sorted(" ".join(map(str, cards_of(m))) for m in opts[9])
    ['3D 4C 2B', '4C 5B', '7S 2B']
    >>> opts[1]
    ()
    """
    got = _CACHE.get(table)
    if got is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()  # a bounded memo; the next lookups refill it with what is in use
        got = _CACHE[table] = _compute(table)
    return got


def card_options(table: int, card_index: int) -> tuple[int, ...]:
    """Capture masks for one card on this table (empty: the card is laid down)."""
    return capture_options(table)[RANK_OF[card_index]]


def is_capture_legal(table: int, card_index: int, capture: int) -> bool:
    """Whether playing this card with this capture mask follows the capture rule."""
    options = card_options(table, card_index)
    if not options:
        return capture == 0
    return capture in options


__all__ = ["BIT", "capture_options", "card_options", "is_capture_legal"]
