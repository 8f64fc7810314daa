"""Round scoring per pair (SPEC.md §1): carte, denari, settebello, primiera, scope, napola."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import BIT, DECK, DENARI_MASK, PRIMIERA_VALUE, SETTEBELLO_INDEX
from .rules import Rules


def _best_primiera_table() -> tuple[int, ...]:
    # For every 10-bit set of one suit's ranks, the best primiera value in it (0 when empty).
    table = []
    for bits in range(1 << 10):
        best = 0
        for r in range(1, 11):
            if bits >> (r - 1) & 1:
                best = max(best, PRIMIERA_VALUE[r])
        table.append(best)
    return tuple(table)


_BEST = _best_primiera_table()


def primiera_sum(pile: int) -> int | None:
    """The pair's primiera: the best card of each suit added up; None when a suit is missing.

    >>> from .cards import mask_of, parse_cards
    >>> primiera_sum(mask_of(parse_cards("7D 6C 1S 10B 2B")))   # 21 + 18 + 16 + 12
    67
    >>> primiera_sum(mask_of(parse_cards("7D 7C 7S"))) is None
    True
    """
    best = _BEST
    d = best[pile & 0x3FF]
    c = best[(pile >> 10) & 0x3FF]
    s = best[(pile >> 20) & 0x3FF]
    b = best[pile >> 30]
    if d and c and s and b:
        return d + c + s + b
    return None


def napola_length(pile: int) -> int:
    """Length of the unbroken run of coins from the ace: 3–10 scores that many, less scores 0.

    >>> from .cards import mask_of, parse_cards
    >>> napola_length(mask_of(parse_cards("1D 2D 3D 4D 6D")))
    4
    >>> napola_length(mask_of(parse_cards("1D 2D 4D")))
    0
    """
    d = pile & DENARI_MASK
    run = (~d & (d + 1)).bit_length() - 1  # number of trailing ones
    return run if run >= 3 else 0


@dataclass(frozen=True, slots=True)
class PairTally:
    """What one pair took in a round, in the figures the summary shows."""

    cards: int
    denari: int
    settebello: bool
    primiera: int | None
    scope: int
    napola: int  # run length from 1D that scores (0 = none, or Napola off)


@dataclass(frozen=True, slots=True)
class RoundScore:
    """The breakdown of a finished round: each category's figures and who scored it.

    Each ``*_points`` field is a pair of points (pair A, pair B); ``points`` is their sum.
    """

    tallies: tuple[PairTally, PairTally]
    carte: tuple[int, int]
    denari: tuple[int, int]
    settebello: tuple[int, int]
    primiera: tuple[int, int]
    scope: tuple[int, int]
    napola: tuple[int, int]

    @property
    def points(self) -> tuple[int, int]:
        cats = (self.carte, self.denari, self.settebello, self.primiera, self.scope, self.napola)
        return (sum(c[0] for c in cats), sum(c[1] for c in cats))

    def to_dict(self) -> dict[str, object]:
        """Plain data for the API and logs."""
        return {
            "points": list(self.points),
            "categories": {
                "carte": list(self.carte),
                "denari": list(self.denari),
                "settebello": list(self.settebello),
                "primiera": list(self.primiera),
                "scope": list(self.scope),
                "napola": list(self.napola),
            },
            "tallies": [
                {
                    "cards": t.cards,
                    "denari": t.denari,
                    "settebello": t.settebello,
                    "primiera": t.primiera,
                    "scope": t.scope,
                    "napola": t.napola,
                }
                for t in self.tallies
            ],
        }


    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundScore:
        """The inverse of ``to_dict``."""
        cats = data["categories"]

        def pair(name: str) -> tuple[int, int]:
            a, b = cats[name]
            return (int(a), int(b))

        t0, t1 = data["tallies"]
        return cls(
            tallies=(PairTally(**t0), PairTally(**t1)),
            carte=pair("carte"),
            denari=pair("denari"),
            settebello=pair("settebello"),
            primiera=pair("primiera"),
            scope=pair("scope"),
            napola=pair("napola"),
        )


def _more(a: int, b: int) -> tuple[int, int]:
    return (1, 0) if a > b else (0, 1) if b > a else (0, 0)


def score_round(piles: tuple[int, int], scope: tuple[int, int], rules: Rules) -> RoundScore:
    """Score a finished round from both pairs' capture piles (masks) and scopa counts.

    >>> from .cards import mask_of, parse_cards, ALL_MASK
    >>> a = mask_of(parse_cards("1D 2D 3D 4D 7D 7C 7S 7B 6D 6C 6S 6B 1C 1S 1B 5C 5S 5B 4C 4S 4B"))
    >>> s = score_round((a, ALL_MASK ^ a), (3, 2), Rules(napola=True))
    >>> s.points
    (11, 2)
    """
    tallies = []
    for p in (0, 1):
        pile = piles[p]
        tallies.append(
            PairTally(
                cards=pile.bit_count(),
                denari=(pile & DENARI_MASK).bit_count(),
                settebello=bool(pile & BIT[SETTEBELLO_INDEX]),
                primiera=primiera_sum(pile),
                scope=scope[p],
                napola=napola_length(pile) if rules.napola else 0,
            )
        )
    a, b = tallies
    pa, pb = a.primiera, b.primiera
    if pa is None and pb is None:
        primiera = (0, 0)
    elif pb is None:
        primiera = (1, 0)
    elif pa is None:
        primiera = (0, 1)
    else:
        primiera = _more(pa, pb)
    return RoundScore(
        tallies=(a, b),
        carte=_more(a.cards, b.cards),
        denari=_more(a.denari, b.denari),
        settebello=(int(a.settebello), int(b.settebello)),
        primiera=primiera,
        scope=(a.scope, b.scope),
        napola=(a.napola, b.napola),
    )


def round_points(piles: tuple[int, int] | list[int], scope: tuple[int, int] | list[int],
                 napola: bool) -> tuple[int, int]:
    """Points of both pairs, the same as ``score_round(...).points`` but without the breakdown.

    Used by searches at the end of every playout.
    """
    a_pile, b_pile = piles
    pa = scope[0]
    pb = scope[1]
    ca = a_pile.bit_count()
    cb = b_pile.bit_count()
    if ca > cb:
        pa += 1
    elif cb > ca:
        pb += 1
    da = (a_pile & DENARI_MASK).bit_count()
    db = (b_pile & DENARI_MASK).bit_count()
    if da > db:
        pa += 1
    elif db > da:
        pb += 1
    if a_pile & 64:  # settebello, bit SETTEBELLO_INDEX
        pa += 1
    elif b_pile & 64:
        pb += 1
    qa = primiera_sum(a_pile)
    qb = primiera_sum(b_pile)
    if qa is not None and (qb is None or qa > qb):
        pa += 1
    elif qb is not None and (qa is None or qb > qa):
        pb += 1
    if napola:
        pa += napola_length(a_pile)
        pb += napola_length(b_pile)
    return pa, pb


assert BIT[SETTEBELLO_INDEX] == 64 and str(DECK[SETTEBELLO_INDEX]) == "7D"
