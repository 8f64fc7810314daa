"""Normal never leaves an easy scopa when it has a choice (SPEC §2), whatever a move is worth."""

from __future__ import annotations

import random

import pytest

from scopone import Move, Round, Rules, SeatView
from scopone.engine.cards import DECK
from scopone.players.normal import NormalPlayer, leaves_easy_scopa, move_score

from .helpers import card, position, view_to_play


def by_score(view: SeatView) -> list[Move]:
    # Every legal move, best move_score first.
    moves = sorted(view.legal_moves(), key=lambda m: -move_score(view, *m))
    return [Move.from_masks(*m) for m in moves]


def leaves(view: SeatView, move: Move) -> bool:
    return leaves_easy_scopa(view, move.card.index, sum(1 << c.index for c in move.capture))


def audit_position() -> Round:
    # Found by an audit of 300 Normal rounds: the other 19 cards are already in pair A's pile.
    hands = ["1C 2C 3C 10C 2S", "6C 6S 7S 1B 5B", "2D 7C 1S 3S 7B", "1D 6D 7D 10D 5C"]
    held = {c for h in hands for c in h.split()} | {"4S"}
    rest = " ".join(str(c) for c in DECK if str(c) not in held)
    return position(hands, table="4S", to_play=2, pile_a=rest)


@pytest.mark.parametrize("seed", range(20))
def test_lays_a_seven_rather_than_leave_five_for_the_fives(seed: int) -> None:
    r = audit_position()
    assert r.turn == 2 and r.dealer == 1
    view = view_to_play(r)
    # 1S scores best (it lays the cheapest card) but leaves 4S + 1S = 5 with 5B and 5C out;
    # 7C and 7B leave 11, which no card sweeps.
    assert by_score(view)[0] == Move(card("1S"))
    assert {str(m.card) for m in by_score(view) if not leaves(view, m)} == {"7C", "7B"}
    chosen = NormalPlayer().choose(view, random.Random(seed))
    assert chosen in (Move(card("7C")), Move(card("7B")))


@pytest.mark.parametrize("seed", range(10))
def test_plays_the_best_by_score_when_every_move_leaves_a_scopa(seed: int) -> None:
    # 3B leaves 4C + 3B = 7 (7C and 7S out), 2S leaves 6 (only 6S out): both can be swept,
    # 2S less likely, so it scores best.
    r = position(["3B 2S", "7C 1C", "5D 6S", "7S 2C"], table="4C", to_play=0)
    view = view_to_play(r)
    assert all(leaves(view, m) for m in by_score(view))
    assert by_score(view)[0] == Move(card("2S"))
    assert NormalPlayer().choose(view, random.Random(seed)) == Move(card("2S"))


def test_a_sweep_with_the_rounds_last_card_is_no_scopa() -> None:
    # Seats 0 and 1 take a nine and an eight; then seat 2's 6C takes 1B + 5B or 2S + 4S and
    # leaves six either way for the 6D of seat 3, whose card is the round's last: no scopa.
    r = position(["9D", "8D", "6C", "6D"], table="9C 8C 1B 5B 2S 4S", to_play=0)
    r.play(Move(card("9D"), frozenset({card("9C")})))
    r.play(Move(card("8D"), frozenset({card("8C")})))
    view = view_to_play(r)
    assert view.seat == 2 and view.plays_left == 2
    assert not any(leaves(view, m) for m in by_score(view))
    best = Move(card("6C"), frozenset({card("1B"), card("5B")}))
    assert by_score(view)[0] == best
    assert NormalPlayer().choose(view, random.Random(1)) == best
    # One card more in every hand and the same six would be a scopa.
    r = position(["9D 10B", "8D 10C", "6C 10S", "6D 3D"], table="9C 8C 1B 5B 2S 4S", to_play=0)
    r.play(Move(card("9D"), frozenset({card("9C")})))
    r.play(Move(card("8D"), frozenset({card("8C")})))
    view = view_to_play(r)
    assert leaves(view, best)
    assert not leaves(view, Move(card("10S")))


def test_the_rule_needs_a_sweeper_out_and_a_table_left() -> None:
    # 3B leaves 4C + 3B = 7, but every seven is in a pile: safe. A table taken clean leaves
    # nothing; a lone card left is swept by its own rank.
    r = position(["3B 9S", "10C 1C", "5D 6S", "8S 2C"], table="4C", to_play=0)
    view = view_to_play(r)
    assert not leaves(view, Move(card("3B")))
    r = position(["4B 9S", "10C 1C", "5D 6S", "8S 2C"], table="4C", to_play=0)
    view = view_to_play(r)
    assert leaves(view, Move(card("4B"), frozenset({card("4C")}))) is False  # table left empty
    r = position(["4B 9S", "10C 1C", "5D 6S", "8S 2C"], table="4C 5B", to_play=0)
    view = view_to_play(r)
    # 4B takes 4C and leaves 5B alone: 5D is out.
    assert leaves(view, Move(card("4B"), frozenset({card("4C")})))


@pytest.mark.parametrize("variant", ["scientifico", "classico"])
def test_never_leaves_an_easy_scopa_when_it_has_a_choice(variant: str) -> None:
    # Whole rounds of four Normal seats: at every decision with a safe move, the move is safe.
    player = NormalPlayer()
    rules = Rules(variant=variant)  # type: ignore[arg-type]
    with_choice = 0
    for i in range(150):
        rng = random.Random(f"normal:{variant}:{i}")
        r = Round.deal(rules, i % 4, rng)
        while not r.is_over:
            view = SeatView.of(r, r.turn)
            safe = [not leaves_easy_scopa(view, c, m) for c, m in view.legal_moves()]
            move = player.choose(view, rng)
            if any(safe):
                with_choice += not all(safe)
                assert not leaves(view, move), (i, view.to_dict(), str(move.card))
            r.play(move)
    assert with_choice > 500  # the rule decided often, not only in easy positions
