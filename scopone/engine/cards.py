"""Cards of the Italian 40-card deck, their codes, and the values the scoring reads from them."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import ClassVar


class Suit(enum.Enum):
    """The four Italian suits; the value is the letter used in card codes."""

    DENARI = "D"
    COPPE = "C"
    SPADE = "S"
    BASTONI = "B"

    @property
    def index(self) -> int:
        return _SUIT_ORDER.index(self.value)


_SUIT_ORDER = "DCSB"
SUIT_LETTERS: tuple[str, ...] = tuple(_SUIT_ORDER)
RANKS: tuple[int, ...] = tuple(range(1, 11))

#: Primiera value of each rank (SPEC.md §1): 7 = 21, 6 = 18, 1 = 16, 5 = 15, 4 = 14, 3 = 13,
#: 2 = 12, figures = 10. The only place these numbers live.
PRIMIERA_VALUE: dict[int, int] = {
    7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10,
}

class InvalidCardError(ValueError):
    """A card code that names no card of the deck (e.g. ``"11D"`` or ``"7X"``)."""


class Card:
    """One card of the deck. There are exactly 40 instances; compare them with ``==`` or ``is``.

    Internally a card is its index 0–39 (``suit_index * 10 + rank - 1``), which the fast paths use
    as a bit position in 40-bit masks.

    >>> Card.parse("7D")
    Card.parse('7D')
    >>> str(Card(10, "B")), Card.parse("10B").rank, Card.parse("10B").suit
    ('10B', 10, 'B')
    >>> Card.parse("7D").is_settebello
    True
    """

    __slots__ = ("_code", "index", "rank", "suit")
    _ALL: ClassVar[list[Card]] = []
    index: int
    rank: int
    suit: str
    _code: str

    def __new__(cls, rank: int, suit: str) -> Card:
        if not (isinstance(rank, int) and 1 <= rank <= 10) or suit not in SUIT_LETTERS:
            raise InvalidCardError(f"no such card: rank {rank!r}, suit {suit!r}")
        if cls._ALL:
            return cls._ALL[SUIT_LETTERS.index(suit) * 10 + rank - 1]
        return super().__new__(cls)  # only while the deck itself is being built

    @classmethod
    def _build(cls) -> None:
        for s_i, s in enumerate(SUIT_LETTERS):
            for r in RANKS:
                c = object.__new__(cls)
                object.__setattr__(c, "index", s_i * 10 + r - 1)
                object.__setattr__(c, "rank", r)
                object.__setattr__(c, "suit", s)
                object.__setattr__(c, "_code", f"{r}{s}")
                cls._ALL.append(c)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @classmethod
    def parse(cls, code: str) -> Card:
        """The card with this code: rank 1–10 then suit letter, e.g. ``"1D"``, ``"10B"``."""
        card = _BY_CODE.get(code) if isinstance(code, str) else None
        if card is None:
            raise InvalidCardError(f"not a card code: {code!r} (expected e.g. '7D', '10B')")
        return card

    @classmethod
    def from_index(cls, index: int) -> Card:
        return cls._ALL[index]

    @property
    def bit(self) -> int:
        return 1 << self.index

    @property
    def primiera(self) -> int:
        return PRIMIERA_VALUE[self.rank]

    @property
    def is_settebello(self) -> bool:
        return self.index == SETTEBELLO_INDEX

    def __str__(self) -> str:
        return self._code

    def __repr__(self) -> str:
        return f"Card.parse({self._code!r})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self._code,))


Card._build()
_BY_CODE: dict[str, Card] = {str(c): c for c in Card._ALL}

DECK: tuple[Card, ...] = tuple(Card._ALL)
ALL_MASK = (1 << 40) - 1
SETTEBELLO_INDEX = 6  # 7D: suit D is index 0, rank 7 → bit 6
RANK_OF: tuple[int, ...] = tuple(c.rank for c in DECK)
BIT: tuple[int, ...] = tuple(1 << i for i in range(40))
#: Mask of the four cards of each rank (index 0 unused).
RANK_MASK: tuple[int, ...] = (0, *(sum(1 << (s * 10 + r - 1) for s in range(4)) for r in RANKS))
SUIT_MASK: tuple[int, ...] = tuple(((1 << 10) - 1) << (10 * s) for s in range(4))
DENARI_MASK = SUIT_MASK[0]


def mask_of(cards: Iterable[Card]) -> int:
    """The 40-bit mask of these cards.

    >>> mask_of([Card.parse("1D"), Card.parse("2D")])
    3
    """
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def indices_of(mask: int) -> Iterator[int]:
    """The card indices set in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in deck order (suits D, C, S, B; ranks ascending).

    >>> [str(c) for c in cards_of(0b101)]
    ['1D', '3D']
    """
    return [DECK[i] for i in indices_of(mask)]


def parse_cards(codes: str | Iterable[str]) -> list[Card]:
    """Cards from codes, either an iterable or one space-separated string.

    >>> [str(c) for c in parse_cards("7D 10B")]
    ['7D', '10B']
    """
    if isinstance(codes, str):
        codes = codes.split()
    return [Card.parse(c) for c in codes]
