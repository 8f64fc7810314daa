"""The rule options of a match: variant, Napola, target score."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Variant = Literal["scientifico", "classico"]
VARIANTS: tuple[Variant, ...] = ("scientifico", "classico")
TARGETS: tuple[int, ...] = (11, 21, 31)


@dataclass(frozen=True, slots=True)
class Rules:
    """Rule options, a value passed in wherever the rules matter (never a global).

    >>> Rules()
    Rules(variant='scientifico', napola=False, target=11)
    >>> Rules(variant="classico").hand_size, Rules(variant="classico").table_size
    (9, 4)
    """

    variant: Variant = "scientifico"
    napola: bool = False
    target: int = 11

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"unknown variant {self.variant!r}; expected one of {VARIANTS}")
        if not isinstance(self.napola, bool):
            raise ValueError(f"napola must be true or false, not {self.napola!r}")
        if self.target not in TARGETS:
            raise ValueError(f"target must be one of {TARGETS}, not {self.target!r}")

    @property
    def hand_size(self) -> int:
        return 10 if self.variant == "scientifico" else 9

    @property
    def table_size(self) -> int:
        return 0 if self.variant == "scientifico" else 4


def pair_of(seat: int) -> int:
    """The pair a seat plays for: 0 is pair A (seats 0 and 2), 1 is pair B (seats 1 and 3).

    >>> [pair_of(s) for s in range(4)]
    [0, 1, 0, 1]
    """
    return seat % 2


def partner_of(seat: int) -> int:
    """The seat opposite: the partner.

    >>> [partner_of(s) for s in range(4)]
    [2, 3, 0, 1]
    """
    return (seat + 2) % 4


def next_seat(seat: int) -> int:
    """The seat that plays after this one (counterclockwise: 0 → 1 → 2 → 3 → 0).

    >>> [next_seat(s) for s in range(4)]
    [1, 2, 3, 0]
    """
    return (seat + 1) % 4


PAIR_NAMES = ("A", "B")
