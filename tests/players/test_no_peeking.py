"""A player decides from its seat's view only: moving the hidden cards never changes a decision."""

from __future__ import annotations

import random

import pytest

from scopone import Round, SeatView
from scopone.players import Player, make_player
from scopone.players.hard import HardPlayer

from .helpers import random_positions


def reshuffle_hidden(r: Round, seat: int, rng: random.Random) -> Round:
    """The same round with the other three hands' cards dealt among them anew (same counts)."""
    other = r.copy(history=True)
    seats = [s for s in range(4) if s != seat]
    pool = [c for s in seats for c in r.hands[s]]
    rng.shuffle(pool)
    for s in seats:
        n = len(r.hands[s])
        other.hands[s], pool = sorted(pool[:n]), pool[n:]
    return other


PLAYERS = {
    "easy": (lambda: make_player("easy"), 300),
    "normal": (lambda: make_player("normal"), 300),
    # Hard reads the plays (its default reading weighs whole deals by every play seen) before
    # it imagines a single deal; the card-by-card reading is checked too.
    "hard": (lambda: HardPlayer(iterations=4), 40),
    "hard-reading-cards": (lambda: HardPlayer(iterations=4, reading="plays"), 20),
    "hard-reading-chain": (lambda: HardPlayer(iterations=4, reading="chain"), 20),
    "hard-reading-two-types": (lambda: HardPlayer(iterations=4, sharp=8.0, pool=16), 20),
    # And with early stop it decides when to stop from those deals only.
    "hard-early-stop": (lambda: HardPlayer(iterations=64, early_stop=True), 12),
}


@pytest.mark.parametrize("name", PLAYERS)
def test_hidden_cards_do_not_change_the_decision(name: str) -> None:
    make, count = PLAYERS[name]
    player: Player = make()
    rng = random.Random(11)
    positions = random_positions(count, seed=23)
    changed_hands = 0
    for r in positions:
        seat = r.turn
        for _ in range(3):
            other = reshuffle_hidden(r, seat, rng)
            changed_hands += other.hands != r.hands
            view, other_view = SeatView.of(r, seat), SeatView.of(other, seat)
            # The views are equal: nothing of the other hands but their sizes reaches a player.
            assert view == other_view
            seed = rng.random()
            assert player.choose(view, random.Random(seed)) == player.choose(
                other_view, random.Random(seed))
    # The test moved cards for real in most positions (not only at the very end of rounds).
    assert changed_hands > len(positions)


def test_a_view_holds_no_other_hand() -> None:
    r = random_positions(1, seed=2)[0]
    view = SeatView.of(r, r.turn)
    hidden = {c for s in range(4) if s != r.turn for c in r.hand(s)}
    shown = set(view.hand) | set(view.table) | set(view.piles[0]) | set(view.piles[1])
    assert hidden and not hidden & shown
    assert view.unseen_mask == sum(1 << c.index for c in hidden)
