"""The exact solver on the cases its first tests leave out: a scopa on the round's next-to-last
play, positions deep enough for its memo to meet the same cards by two orders of play, a round
where nobody has taken, and a solved position asked again."""

from __future__ import annotations

import random

import pytest

from scopone import Round, Rules
from scopone.engine.cards import ALL_MASK, mask_of, parse_cards
from scopone.players.endgame import Solver

from .test_endgame import brute_force


def _after(r: Round, c: int, m: int) -> Round:
    child = r.copy()
    child.apply(c, m)
    return child


def ending(hands: list[str], table: str, to_play: int, pile_a: str = "") -> Round:
    """Like ``helpers.position``, but the hands may be those of a round's last trick (the seats
    that have played it hold one card fewer); every other card is in pair A's pile if named in
    ``pile_a``, else in pair B's."""
    r = Round.from_deal([parse_cards(h) for h in hands], parse_cards(table),
                        dealer=(to_play - 1) % 4)
    in_play = mask_of(c for h in hands for c in parse_cards(h)) | mask_of(parse_cards(table))
    a = mask_of(parse_cards(pile_a))
    r.piles = [a, ALL_MASK & ~in_play & ~a]
    r.last_taker = 0 if a else 1
    return r


# Pair A holds the carte, the denari and the primiera whoever takes the last cards; the sweeper
# takes the settebello in every line below, so they differ only by the scopa.
PILE_A = "1D 2D 3D 4D 5D 6D 8D 9D 10D 7S 7B 1C 2C 3C 4C 5C 6C 8C 9C 10C 1S 6S"


@pytest.mark.parametrize("to_play", range(4))
def test_a_sweep_on_the_next_to_last_play_is_a_scopa(to_play: int) -> None:
    # Two plays left: the seat to play sweeps 7D with 7C (a scopa: one more play follows), then
    # the next seat lays 3B, the round's last card, which goes to the sweeper's pair.
    hands = ["", "", "", ""]
    hands[to_play], hands[(to_play + 1) % 4] = "7C", "3B"
    r = ending(hands, "7D", to_play, pile_a=PILE_A)
    moves = r.legal_pairs()
    assert r.plays_left == 2 and len(moves) == 1
    (value,) = Solver(False).move_values(r, moves)
    child = _after(r, *moves[0])
    assert child.scope[to_play % 2] == 1  # the engine counts it
    assert value == -brute_force(child) == brute_force(r)
    # The same sweep with the round's last card is no scopa: one point less for the sweeper.
    last = ending([h if s == to_play else "" for s, h in enumerate(hands)], "7D", to_play,
                  pile_a=PILE_A + " 3B")
    assert Solver(False).value(last) == value - 1 == brute_force(last)


def deep_positions(n: int, seed: int, rules: Rules, plays_left: int) -> list[Round]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        r = Round.deal(rules, i % 4, rng)
        r.history = None
        while r.plays_left > plays_left:
            pairs = r.legal_pairs()
            r.apply(*pairs[rng.randrange(len(pairs))])
        out.append(r)
    return out


@pytest.mark.parametrize("rules", [Rules(), Rules(napola=True)], ids=["scientifico", "napola"])
def test_solver_agrees_with_brute_force_from_three_cards_a_hand(rules: Rules) -> None:
    # From 12 plays the solver's memo and window are at work for four plays before the last
    # trick: lines that reach the same hands and table by other orders meet in the memo, and it
    # must tell them apart by what is in the piles, who took last and whose turn it is.
    for r in deep_positions(12, seed=21, rules=rules, plays_left=12):
        moves = r.legal_pairs()
        expected = [-brute_force(_after(r, c, m)) for c, m in moves]
        solver = Solver(rules.napola)
        assert solver.value(r) == max(expected) == brute_force(r), r
        # Asked after the whole solve, with the memo full of bounds from narrow windows.
        assert solver.move_values(r, moves) == expected, r


def test_one_solver_keeps_apart_positions_that_differ_in_one_hand_or_the_last_taker() -> None:
    # The memo serves every position of one deal. Six plays are left (seats 2 and 3 hold two
    # cards); the settebello lies on the table and no card can take it: it goes with the
    # leftovers to the pair that took last, if nobody takes again. The positions below differ
    # from the first only in which pair took last, or in one card of one seat's hand (swapped
    # with one in pair B's pile), and each is worth something else: the solver must not answer
    # one with another's value, whichever it solved first.
    pile_a = "1D 2D 3D 4D 5D 6D 8D 9D 10D 1C 2C 3C 4C 5C 6C 7C"
    hands = ["5B", "6B", "9B 10B", "4B 8B"]
    variants = [ending(hands, "7D", 2, pile_a)]
    variants.append(ending(hands, "7D", 2, pile_a))
    variants[-1].last_taker = 1
    for seat, swapped in ((0, "4S"), (1, "8S"), (2, "9B 4S"), (3, "4B 5S")):
        changed = list(hands)
        changed[seat] = swapped
        variants.append(ending(changed, "7D", 2, pile_a))
    assert variants[0].last_taker == 0 and variants[0].plays_left == 6
    values = [brute_force(r) for r in variants]
    assert all(v != values[0] for v in values[1:]), values
    for order in (variants, variants[::-1]):
        solver = Solver(False)
        assert [solver.value(r) for r in order] == [brute_force(r) for r in order]


def test_with_nothing_taken_all_round_the_last_cards_go_to_nobody() -> None:
    # No seat can take anything (1S, 2C, 4B, 10D add up past every rank): the four cards stay
    # on the table and, nobody having taken, in no pile; as the engine scores it, the margin is
    # zero (no pair has a suit for the primiera, a coin, or a card).
    r = Round.from_deal([parse_cards(h) for h in ("1S", "2C", "4B", "10D")], dealer=3)
    assert r.last_taker == -1
    assert brute_force(r) == 0
    assert Solver(False).value(r) == 0


def test_a_solved_position_is_answered_from_the_memo() -> None:
    # Every playout of one imagined deal shares a solver (``search.evaluate_deal``): a
    # position already solved costs one look-up.
    r = deep_positions(1, seed=3, rules=Rules(), plays_left=8)[0]
    solver = Solver(False)
    assert solver.nodes == 0
    v = solver.value(r)
    first = solver.nodes
    assert first > 1
    assert solver.value(r) == v
    assert solver.nodes == first + 1
