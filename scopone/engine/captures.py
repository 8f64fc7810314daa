"""Which table cards a played card may take: the capture rule of SPEC.md §1, on card masks.

This is the hot path of every search, so it works on 40-bit masks and caches per table.
"""

from __future__ import annotations

from .cards import BIT, RANK_MASK, RANK_OF, RANKS

Options = tuple[tuple[int, ...], ...]

_EMPTY: tuple[int, ...] = ()
_NOTHING: Options = ((),) * 11
#: table mask → (options per rank, mask of the cards with two or more options); see table_entry.
_CACHE: dict[int, tuple[Options, int]] = {}
_CACHE_LIMIT = 300_000

#: Rank of the card whose single bit this is (a dict lookup beats ``bit_length`` arithmetic).
_RANK_OF_BIT: dict[int, int] = {BIT[i]: RANK_OF[i] for i in range(40)}


def _same_rank_options() -> dict[int, tuple[int, ...]]:
    # For every non-empty set of cards of one rank, the single-card captures it offers, in deck
    # order: an equal-rank capture takes exactly one of them.
    out: dict[int, tuple[int, ...]] = {}
    for r in range(1, 11):
        bits = [BIT[s * 10 + r - 1] for s in range(4)]
        for subset in range(1, 16):
            chosen = tuple(b for k, b in enumerate(bits) if subset >> k & 1)
            out[sum(chosen)] = chosen
    return out


_SAME_RANK: dict[int, tuple[int, ...]] = _same_rank_options()


def _compute(table: int) -> Options:
    if not table:
        return _NOTHING
    options: list[tuple[int, ...]] = [_EMPTY] * 11
    low = table & -table
    rest = table ^ low
    rank = _RANK_OF_BIT[low]
    if not rest:
        options[rank] = (low,)
        return tuple(options)
    # Every subset of two or more table cards whose ranks add up to at most 10, grown one card
    # at a time in deck order (``partial`` also holds the single cards, which seed larger sets
    # but are never a sum). A king is never part of such a sum, so it is left out of them.
    # Growing sets in deck order files each rank's sums in ascending mask order, the order
    # every options tuple has (and the order of legal_pairs()).
    partial: list[tuple[int, int]] = [(rank, low)] if rank < 10 else []
    ranks = [rank]
    rank_of_bit = _RANK_OF_BIT
    while rest:
        low = rest & -rest
        rest ^= low
        rank = rank_of_bit[low]
        ranks.append(rank)
        if rank == 10:
            continue
        limit = 10 - rank
        for s, m in partial[:]:
            if s <= limit:
                s += rank
                m |= low
                partial.append((s, m))
                options[s] += (m,)
        partial.append((rank, low))
    for rank in ranks:
        # Equal rank present: exactly one of those cards, never a sum.
        options[rank] = _SAME_RANK[table & RANK_MASK[rank]]
    return tuple(options)


def capture_options(table: int) -> Options:
    """For each rank 1–10 (index 0 unused), the capture masks a card of that rank may take.

    An empty tuple means a card of that rank is laid on the table. Each rank's masks are in
    ascending order.

    >>> from .cards import mask_of, parse_cards, cards_of
    >>> opts = capture_options(mask_of(parse_cards("3D 4C 7S 2B 5B")))
    >>> [" ".join(map(str, cards_of(m))) for m in opts[7]]   # a 7 must take the 7, no sum
    ['7S']
    >>> [" ".join(map(str, cards_of(m))) for m in opts[9]]
    ['3D 4C 2B', '7S 2B', '4C 5B']
    >>> opts[1]
    ()
    """
    return (_CACHE.get(table) or new_entry(table))[0]


def table_entry(table: int) -> tuple[Options, int]:
    """``capture_options(table)`` and the mask of every card that has two or more options there.

    Random playouts read the mask: a hand that holds none of those cards has one move per card,
    so a move can be drawn without listing the moves.

    >>> from .cards import mask_of, parse_cards, cards_of
    >>> opts, multi = table_entry(mask_of(parse_cards("3D 3C 9S")))
    >>> " ".join(str(c) for c in cards_of(multi))   # a 3 takes 3D or 3C
    '3D 3C 3S 3B'
    """
    return _CACHE.get(table) or new_entry(table)


def new_entry(table: int) -> tuple[Options, int]:
    """What ``table_entry`` returns, for a caller that has just missed ``_CACHE`` itself."""
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()  # a bounded memo; the next lookups refill it with what is in use
    options = _compute(table)
    multi = 0
    for rank in RANKS:
        if len(options[rank]) > 1:
            multi |= RANK_MASK[rank]
    got = _CACHE[table] = (options, multi)
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


__all__ = ["BIT", "capture_options", "card_options", "is_capture_legal", "table_entry"]
