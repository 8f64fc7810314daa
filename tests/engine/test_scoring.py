"""Round scoring (SPEC.md §1): every category, every tie, Napola, and the seed's worked example."""

from __future__ import annotations

import pytest

from scopone import Round, Rules
from scopone.engine import parse_cards
from scopone.engine.cards import ALL_MASK, mask_of
from scopone.engine.scoring import napola_length, primiera_sum, round_points, score_round

from .reference import points as reference_points


def _piles(a: str) -> tuple[int, int]:
    """Pair A holds these cards, pair B every other card."""
    m = mask_of(parse_cards(a))
    return m, ALL_MASK & ~m


def _finished(a: str, scope: tuple[int, int], rules: Rules) -> Round:
    """A round that is over, with pair A's pile ``a`` and pair B's the rest of the deck."""
    r = Round.from_deal([[], [], [], []], rules=rules)
    r.piles = list(_piles(a))
    r.scope = list(scope)
    return r


# Pair A: 21 cards, 1D 2D 3D 4D 7D (five coins), a 7 in every suit; pair B: the other 19.
WORKED = "1D 2D 3D 4D 7D 7C 7S 7B 6C 6S 6B 1C 1S 1B 5C 5S 5B 4C 4S 4B 2C"


def test_the_worked_example_from_the_seed() -> None:
    r = _finished(WORKED, (3, 2), Rules())
    s = r.score()
    assert s.carte == (1, 0)
    assert s.settebello == (1, 0)
    assert s.primiera == (1, 0)
    assert s.denari == (0, 0)  # 5–5
    assert s.scope == (3, 2)
    assert s.napola == (0, 0)
    assert s.points == (6, 2)
    assert r.points() == (6, 2)


def test_the_worked_example_with_napola() -> None:
    r = _finished(WORKED, (3, 2), Rules(napola=True))
    s = r.score()
    assert s.napola == (4, 0)  # 1D 2D 3D 4D, but not 5D
    assert s.points == (10, 2)
    assert r.points() == (10, 2)


def test_carte_more_than_twenty_and_the_tie() -> None:
    a21 = "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D 1C 2C 3C 4C 5C 6C 7C 8C 9C 10C 1S"
    assert score_round(_piles(a21), (0, 0), Rules()).carte == (1, 0)
    a20 = "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D 1C 2C 3C 4C 5C 6C 7C 8C 9C 10C"
    s = score_round(_piles(a20), (0, 0), Rules())
    assert s.carte == (0, 0) and s.tallies[0].cards == s.tallies[1].cards == 20
    a19 = "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D 1C 2C 3C 4C 5C 6C 7C 8C 9C"
    assert score_round(_piles(a19), (0, 0), Rules()).carte == (0, 1)


def test_denari_more_than_five_and_the_tie() -> None:
    assert score_round(_piles("1D 2D 3D 4D 5D 6D"), (0, 0), Rules()).denari == (1, 0)
    s = score_round(_piles("1D 2D 3D 4D 5D"), (0, 0), Rules())
    assert s.denari == (0, 0) and s.tallies[0].denari == s.tallies[1].denari == 5
    assert score_round(_piles("1D 2D 3D 4D"), (0, 0), Rules()).denari == (0, 1)


def test_settebello() -> None:
    assert score_round(_piles("7D"), (0, 0), Rules()).settebello == (1, 0)
    assert score_round(_piles("7C 7S 7B"), (0, 0), Rules()).settebello == (0, 1)
    # A round built from fewer cards (as the tests insert) may have no settebello: no point.
    piles = (mask_of(parse_cards("7C 2B")), mask_of(parse_cards("7S 1D")))
    assert score_round(piles, (0, 0), Rules()).settebello == (0, 0)
    assert round_points(piles, (0, 0), False) == score_round(piles, (0, 0), Rules()).points


def test_primiera_values() -> None:
    # 7 = 21, 6 = 18, 1 = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, figures = 10.
    for rank, value in [(7, 21), (6, 18), (1, 16), (5, 15), (4, 14), (3, 13), (2, 12),
                        (8, 10), (9, 10), (10, 10)]:
        pile = mask_of(parse_cards(f"{rank}D {rank}C {rank}S {rank}B"))
        assert primiera_sum(pile) == 4 * value
    # The best card of each suit counts, not the sum of the suit.
    assert primiera_sum(mask_of(parse_cards("1D 2D 3D 4D 5D 10C 9S 8B"))) == 16 + 30


def test_primiera_higher_sum_and_the_tie() -> None:
    # Four sevens against four sixes.
    s = score_round(_piles("7D 7C 7S 7B"), (0, 0), Rules())
    assert s.primiera == (1, 0) and s.tallies[0].primiera == 84 and s.tallies[1].primiera == 72
    # Two sevens and two sixes each: 21+21+18+18 = 78 for both.
    s = score_round(_piles("7D 7C 6S 6B 5D 5C 5S 5B 4D 4C 4S 4B 3D 3C 3S 3B 2D 2C 2S 2B 1D"
                           " 1C 1S 1B 8D 8C 8S 8B 9D 9C 9S 9B 10D 10C 10S 10B"),
                    (0, 0), Rules())
    assert s.tallies[0].primiera == s.tallies[1].primiera == 78
    assert s.primiera == (0, 0)


def test_a_pair_missing_a_suit_has_no_primiera() -> None:
    # Pair A holds every coin, so pair B has none: A wins primiera with a low sum.
    a = "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D 8C 9C 10C 8S 8B"
    s = score_round(_piles(a), (0, 0), Rules())
    assert s.tallies[1].primiera is None
    assert s.tallies[0].primiera == 21 + 10 + 10 + 10
    assert s.primiera == (1, 0)
    # The other way round: A lacks swords although its best cards are higher.
    s = score_round(_piles("7D 7C 7B 6D 6C 6B"), (0, 0), Rules())
    assert s.tallies[0].primiera is None and s.primiera == (0, 1)


def test_both_pairs_missing_a_suit_nobody_scores_primiera() -> None:
    # A: all coins and cups; B: all swords and clubs.
    a = " ".join(f"{r}{s}" for s in "DC" for r in range(1, 11))
    s = score_round(_piles(a), (0, 0), Rules())
    assert s.tallies[0].primiera is None and s.tallies[1].primiera is None
    assert s.primiera == (0, 0)


@pytest.mark.parametrize(
    ("coins", "length"),
    [
        ("", 0),
        ("1D 2D", 0),
        ("1D 2D 3D", 3),
        ("1D 2D 3D 4D", 4),
        ("1D 2D 3D 4D 5D", 5),
        ("1D 2D 3D 4D 5D 6D 7D 8D 9D", 9),
        ("1D 2D 3D 4D 5D 6D 7D 8D 9D 10D", 10),
        ("1D 2D 3D 5D 6D 7D", 3),  # the gap at 4D ends the run
        ("1D 2D 4D 5D 6D 7D", 0),
        ("2D 3D 4D", 0),  # no ace of coins: no napola
        ("2D 3D 4D 5D 6D 7D 8D 9D 10D", 0),
        ("1D 3D 4D", 0),
    ],
)
def test_napola(coins: str, length: int) -> None:
    pile = mask_of(parse_cards(coins + " 1C 2C 3C 1S"))  # other suits never count
    assert napola_length(pile) == length
    s = score_round((pile, ALL_MASK & ~pile), (0, 0), Rules(napola=True))
    assert s.napola == (length, napola_length(ALL_MASK & ~pile))
    assert s.tallies[0].napola == length
    off = score_round((pile, ALL_MASK & ~pile), (0, 0), Rules(napola=False))
    assert off.napola == (0, 0)
    assert s.points[0] - off.points[0] == length
    assert s.points[1] - off.points[1] == s.napola[1]
    assert round_points((pile, ALL_MASK & ~pile), (0, 0), True)[0] == s.points[0]


def test_napola_for_pair_b() -> None:
    s = score_round(_piles("4D 5D"), (0, 0), Rules(napola=True))
    assert s.napola == (0, 3)


@pytest.mark.parametrize("napola", [False, True])
@pytest.mark.parametrize(
    "a",
    [
        WORKED,
        "",
        "7D",
        "1D 2D 3D 4D 5D 6D 8D 9D 10D 1C 1S 1B",
        "7C 7S 7B 6D 6C 6S 6B 1D 1C 1S 1B 5D 5C 5S 5B 4D 4C 4S 4B 3D",
        " ".join(f"{r}{s}" for s in "DC" for r in range(1, 11)),
    ],
)
def test_points_agree_with_the_reference_and_the_breakdown(a: str, napola: bool) -> None:
    piles = _piles(a)
    s = score_round(piles, (2, 1), Rules(napola=napola))
    cats = [s.carte, s.denari, s.settebello, s.primiera, s.scope, s.napola]
    assert s.points == (sum(c[0] for c in cats), sum(c[1] for c in cats))
    assert round_points(piles, (2, 1), napola) == s.points
    a_cards = parse_cards(a)
    b_cards = [c for c in parse_cards(" ".join(f"{r}{x}" for x in "DCSB" for r in range(1, 11)))
               if c not in a_cards]
    assert reference_points([a_cards, b_cards], [2, 1], napola) == s.points


def test_the_breakdown_round_trips_through_plain_data() -> None:
    s = score_round(_piles(WORKED), (3, 2), Rules(napola=True))
    d = s.to_dict()
    assert d["points"] == [10, 2]
    assert type(s).from_dict(d) == s
