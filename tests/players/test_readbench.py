"""The reading bench scores imagined deals against the true hands, and its command prints them."""

from __future__ import annotations

import math
import random

import pytest

from scopone import Round, SeatView
from scopone.readbench import PRIOR, SEATS, main, score

from .helpers import position

# Seat 0 to play, three cards a hand, everything else taken: 9 unseen cards, a third each.
HANDS = ["1C 2C 3C", "4C 5C 6C", "7C 1S 2S", "3S 4S 5S"]


def _truth() -> Round:
    return position(HANDS)


def test_a_reading_that_knows_the_deal_places_every_card_right() -> None:
    truth = _truth()
    got = score(truth, lambda _g: truth.copy(), random.Random(1), samples=10)
    sure = math.log2((10 + PRIOR / 3) / (10 + PRIOR) * 3)
    assert set(got) == set(SEATS)
    for right, bits, cards in got.values():
        assert right == 1.0 and cards == 3
        assert bits == pytest.approx(sure)


def test_a_reading_sure_of_the_wrong_seats_scores_nothing_right_and_loses_bits() -> None:
    truth = _truth()

    def rotated(_g: random.Random) -> Round:
        d = truth.copy()
        d.hands[1], d.hands[2], d.hands[3] = d.hands[2], d.hands[3], d.hands[1]
        return d

    for right, bits, _ in score(truth, rotated, random.Random(1), samples=10).values():
        assert right == 0.0
        assert bits == pytest.approx(math.log2(PRIOR / 3 / (10 + PRIOR) * 3))


def test_a_reading_that_knows_nothing_scores_chance() -> None:
    truth = _truth()
    view = SeatView.of(truth, 0)
    got = score(truth, view.sample_round, random.Random(3), samples=3000)
    for right, bits, _ in got.values():
        assert right == pytest.approx(1 / 3, abs=0.02)
        assert bits == pytest.approx(0.0, abs=0.08)  # four standard deviations


def test_each_hidden_seat_is_scored_on_its_own_hand_and_an_empty_one_is_left_out() -> None:
    truth = _truth()
    truth.play(truth.legal_moves()[0])  # seat 1 to play: seat 0, its previous seat, holds two
    got = score(truth, lambda _g: truth.copy(), random.Random(1), samples=4)
    assert {k: cards for k, (_, _, cards) in got.items()} == {1: 3, 2: 3, 3: 2}
    for _ in range(8):
        truth.play(truth.legal_moves()[0])
    assert truth.turn == 1 and not truth.hands[0]
    got = score(truth, lambda _g: truth.copy(), random.Random(1), samples=4)
    assert {k: cards for k, (_, _, cards) in got.items()} == {1: 1, 2: 1}


def test_the_command_prints_each_reading_by_seat_and_by_phase(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--deals", "1", "--iterations", "2", "--samples", "3",
                 "off", "policy:beta=1,pool=8"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("1 rounds of Hard (2 deals a move, seed 9)")
    assert lines[1].split()[-4:] == ["next", "partner", "previous", "all"]
    rows = {line.split()[0]: line for line in lines[2:4]}
    assert set(rows) == {"off", "policy:beta=1,pool=8"}
    for row in rows.values():
        shares = [float(x) for x in row.split()[1::2]]
        assert len(shares) == 4 and all(0.0 <= s <= 1.0 for s in shares)
    assert lines[4].split()[-5:] == ["1-8", "9-16", "17-24", "25-32", "33-36"]
    assert [line.split()[0] for line in lines[5:7]] == ["off", "policy:beta=1,pool=8"]
    assert main(["--deals", "1", "--level", "normal", "--samples", "2", "voids"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 rounds of Normal (seed 9), 2 imagined deals")
    assert out.count("voids") == 2
    for bad in (["psychic"], ["policy:depth=3"], ["chain:beta=x"], ["--deals", "0"],
                ["--level", "cheat"]):
        with pytest.raises(SystemExit) as stopped:
            main(bad)
        assert stopped.value.code == 2
