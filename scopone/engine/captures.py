"""Which table cards a played card may take: the capture rule of SPEC.md §1, on card masks.

This is the hot path of every search, so it works on 40-bit masks and caches per table.
"""

from __future__ import annotations

from collections.abc import Iterator

from .cards import BIT, RANK_MASK, RANK_OF, RANKS

Options = tuple[tuple[int, ...], ...]

_EMPTY: tuple[int, ...] = ()
_NOTHING: Options = ((),) * 11
#: table mask → (options per rank, mask of the cards with two or more options); see table_entry.
_CACHE: dict[int, tuple[Options, int]] = {}
#: Entries before the memo starts again. A worker that plays Hard, hints and reviews for hours
#: fills every such memo (this one, ``_LIGHT``, the players' ``_OPTIONS`` and mask memos): full,
#: they weigh about 140 MB a process at 100,000 against 350 MB at 300,000, and Hard's deals a
#: move at 0.5 s came out 2-4% fewer, within a shared machine's noise (its strength is flat in
#: time: issue 12's 0.25 s against 1 s). At 30,000 its work took 15-20% longer. (Stop 39.)
_CACHE_LIMIT = 100_000

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


#: table mask → (mask of the cards with two or more options, mask of the cards whose options
#: are sums, and for light_after_lay: the counts of subsets by sum, the ranks on the table and
#: the ranks twice or more on it, as bits r-1); see ``playout_entry``.
Light = tuple[int, int, int, int, int]
_LIGHT: dict[int, Light] = {}
#: Counts of table subsets by sum, one 16-bit field per sum 0–10 (no count exceeds 1,702).
_FIELD = 16
_FIELDS = (1 << (11 * _FIELD)) - 1
_ONES = sum(1 << (s * _FIELD) for s in range(1, 11))  # a 1 in each field of sums 1–10
_TOPS = _ONES << (_FIELD - 1)  # the top bit of each of those fields
_AT_LEAST_1 = _ONES * ((1 << (_FIELD - 1)) - 1)  # added to counts, sets the top bit of each ≥ 1
_AT_LEAST_2 = _ONES * ((1 << (_FIELD - 1)) - 2)  # and of each ≥ 2
_SHIFT: dict[int, int] = {BIT[i]: RANK_OF[i] * _FIELD for i in range(40)}
_RANK_BIT: dict[int, int] = {BIT[i]: 1 << (RANK_OF[i] - 1) for i in range(40)}
_SPREAD = 1 | 1 << 10 | 1 << 20 | 1 << 30  # a set of ranks (bit r-1) → those ranks' cards


def _tops_to_ranks() -> dict[int, int]:
    # The top bits of the fields of sums 1–10 → the set of those ranks as bits r-1.
    out: dict[int, int] = {}
    for ranks in range(1 << 10):
        out[sum(1 << (r * _FIELD + _FIELD - 1) for r in RANKS if ranks >> (r - 1) & 1)] = ranks
    return out


_RANKS_OF_TOPS: dict[int, int] = _tops_to_ranks()


def playout_entry(table: int) -> Light:
    """Two card masks for random playouts: the cards with two or more capture options on this
    table (the ``multi`` of ``table_entry``), and the cards whose options are sums (a card of
    that rank is not on the table); cached.

    A card in neither mask takes its one equal-rank card if there is one, or is laid. Counting
    the sums is much cheaper than listing them, which a playout needs only for a card that
    takes a sum or a hand with a choice.

    >>> from .cards import mask_of, parse_cards, cards_of
    >>> multi, sums, *_ = playout_entry(mask_of(parse_cards("3D 3C 4S 5B")))
    >>> sorted({c.rank for c in cards_of(multi)}), sorted({c.rank for c in cards_of(sums)})
    ([3, 7, 8], [6, 7, 8, 9, 10])
    >>> table_entry(mask_of(parse_cards("3D 3C 4S 5B")))[1] == multi
    True
    """
    counts = 1  # the empty set
    rest = table
    shift = _SHIFT
    while rest:
        low = rest & -rest
        rest ^= low
        counts = (counts + (counts << shift[low])) & _FIELDS
    d = table & 1023
    c = table >> 10 & 1023
    s = table >> 20 & 1023
    b = table >> 30
    present = d | c | s | b
    pairs = d & c | s & b | (d | c) & (s | b)
    return _store_light(table, counts, present, pairs)


def _store_light(table: int, counts: int, present: int, pairs: int) -> Light:
    some = _RANKS_OF_TOPS[(counts + _AT_LEAST_1) & _TOPS] & ~present
    many = _RANKS_OF_TOPS[(counts + _AT_LEAST_2) & _TOPS] & ~present
    if len(_LIGHT) >= _CACHE_LIMIT:
        _LIGHT.clear()
    got = _LIGHT[table] = ((pairs | many) * _SPREAD, some * _SPREAD, counts, present, pairs)
    return got


def light_after_lay(entry: Light, table: int, card_bit: int) -> Light:
    """``playout_entry(table | card_bit)``, derived from ``entry``, that of ``table``.

    >>> light_after_lay(playout_entry(0b1011), 0b1011, 0b100) == playout_entry(0b1111)
    True
    """
    counts = entry[2]
    counts = (counts + (counts << _SHIFT[card_bit])) & _FIELDS
    rank_bit = _RANK_BIT[card_bit]
    present = entry[3]
    return _store_light(table | card_bit, counts, present | rank_bit,
                        entry[4] | present & rank_bit)


#: For each rank, the mask of the cards of lower ranks.
_BELOW: tuple[int, ...] = tuple(sum(BIT[i] for i in range(40) if RANK_OF[i] < r) for r in range(11))


def _sums(table: int, rank: int) -> Iterator[int]:
    # Every set of two or more table cards adding up to ``rank``: sets grow one card at a time
    # in deck order; cards of that rank or higher never take part. A generator, so only_sum
    # stops at the first set while sum_options takes them all.
    partial = [(0, 0)]
    rest = table & _BELOW[rank]
    rank_of_bit = _RANK_OF_BIT
    while rest:
        low = rest & -rest
        rest ^= low
        k = rank_of_bit[low]
        for s, m in partial[:]:
            s += k
            if s == rank:
                yield m | low
            elif s < rank:
                partial.append((s, m | low))


def only_sum(table: int, rank: int) -> int:
    """The one set of two or more table cards adding up to ``rank``, for a table with exactly
    one (``playout_entry`` tells); 0 if there is none. It stops at the first set found.

    >>> from .cards import mask_of, parse_cards, cards_of
    >>> " ".join(str(c) for c in cards_of(only_sum(mask_of(parse_cards("3D 3C 4S 5B")), 10)))
    '3D 3C 4S'
    """
    return next(_sums(table, rank), 0)


def sum_options(table: int, rank: int) -> tuple[int, ...]:
    """Every set of two or more table cards adding up to ``rank``, in ascending mask order: the
    options of a card of that rank when none of that rank is on the table.

    >>> from .cards import mask_of, parse_cards
    >>> table = mask_of(parse_cards("3D 4C 7S 2B 5B"))
    >>> sum_options(table, 9) == capture_options(table)[9]
    True
    """
    return tuple(sorted(_sums(table, rank)))


def card_options(table: int, card_index: int) -> tuple[int, ...]:
    """Capture masks for one card on this table (empty: the card is laid down)."""
    return capture_options(table)[RANK_OF[card_index]]


def is_capture_legal(table: int, card_index: int, capture: int) -> bool:
    """Whether playing this card with this capture mask follows the capture rule."""
    options = card_options(table, card_index)
    if not options:
        return capture == 0
    return capture in options


__all__ = [
    "BIT",
    "capture_options",
    "card_options",
    "is_capture_legal",
    "light_after_lay",
    "only_sum",
    "playout_entry",
    "sum_options",
    "table_entry",
]
