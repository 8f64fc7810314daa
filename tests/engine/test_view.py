"""SeatView (SPEC.md §1 "Who sees what"): one seat's hand and public information, nothing else."""

from __future__ import annotations

import dataclasses
import random

import pytest

from scopone import Move, Round, Rules, SeatView
from scopone.engine import parse_cards
from scopone.engine.cards import ALL_MASK, DECK, mask_of


def _midround(seed: int, variant: str = "scientifico") -> Round:
    rng = random.Random(seed)
    r = Round.deal(Rules(variant=variant), seed % 4, rng)  # type: ignore[arg-type]
    for _ in range(rng.randrange(r.plays_left)):
        moves = r.legal_moves()
        r.play(moves[rng.randrange(len(moves))])
    return r


def _hidden_reshuffled(r: Round, seat: int, rng: random.Random) -> Round:
    """The same round, but the cards ``seat`` cannot see dealt differently among the others."""
    others = [s for s in range(4) if s != seat]
    hidden = [c for s in others for c in r.hands[s]]
    rng.shuffle(hidden)
    r2 = r.copy(history=True)
    pos = 0
    for s in others:
        n = len(r.hands[s])
        r2.hands[s] = sorted(hidden[pos:pos + n])
        pos += n
    return r2


@pytest.mark.parametrize("seed", range(12))
def test_the_view_carries_no_other_hand(seed: int) -> None:
    # If the view held anything about another hand, dealing the hidden cards differently
    # would change it. It must not.
    r = _midround(seed, ("scientifico", "classico")[seed % 2])
    rng = random.Random(seed)
    for seat in range(4):
        view = SeatView.of(r, seat)
        for _ in range(3):
            other = SeatView.of(_hidden_reshuffled(r, seat, rng), seat)
            assert other == view
            assert other.to_dict() == view.to_dict()
        # And its fields name only the seat's own cards and public ones.
        public = mask_of([*view.hand, *view.table, *view.piles[0], *view.piles[1]])
        for f in dataclasses.fields(view):
            for card in _cards_in(getattr(view, f.name)):
                assert public >> card.index & 1, (f.name, card)


def _cards_in(value: object) -> list:  # type: ignore[type-arg]
    if value in DECK:
        return [value]
    if isinstance(value, tuple | list | frozenset | set):
        return [c for v in value for c in _cards_in(v)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [c for f in dataclasses.fields(value) for c in _cards_in(getattr(value, f.name))]
    return []


@pytest.mark.parametrize("seed", range(30))
def test_unseen_is_exactly_the_other_three_hands(seed: int) -> None:
    r = _midround(seed, ("scientifico", "classico")[seed % 2])
    for seat in range(4):
        view = SeatView.of(r, seat)
        others = mask_of(c for s in range(4) if s != seat for c in r.hand(s))
        assert view.unseen_mask == others
        assert view.hand == tuple(r.hand(seat))
        assert view.hand_counts == tuple(len(h) for h in r.hands)
        assert view.unseen_mask | view.hand_mask | view.table_mask | mask_of(
            [*view.piles[0], *view.piles[1]]) == ALL_MASK


@pytest.mark.parametrize("seed", range(30))
def test_sample_round_keeps_counts_own_cards_and_public_cards(seed: int) -> None:
    r = _midround(seed, ("scientifico", "classico")[seed % 2])
    rng = random.Random(seed)
    for seat in range(4):
        view = SeatView.of(r, seat)
        deals = set()
        for _ in range(5):
            s = view.sample_round(rng)
            assert [len(h) for h in s.hands] == [len(h) for h in r.hands]
            assert sorted(s.hands[seat]) == sorted(r.hands[seat])
            assert mask_of(DECK[i] for o in range(4) if o != seat for i in s.hands[o]) == \
                view.unseen_mask
            assert (s.table, s.piles, s.scope, s.turn, s.plays_left, s.dealer, s.last_taker) == \
                (r.table, r.piles, r.scope, r.turn, r.plays_left, r.dealer, r.last_taker)
            assert s.rules == r.rules
            deals.add(tuple(tuple(sorted(h)) for h in s.hands))
            s.playout(rng)  # the sampled round is a complete, playable position
            assert s.is_over and (s.piles[0] | s.piles[1]) == ALL_MASK
        if view.unseen_mask.bit_count() > max(view.hand_counts) + 1:
            assert len(deals) > 1  # it really samples


def test_sample_round_leaves_the_view_and_the_round_alone() -> None:
    r = _midround(4)
    before = repr(r), r.piles[:], r.scope[:]
    view = SeatView.of(r, 2)
    snapshot = view.to_dict()
    view.sample_round(random.Random(1)).playout(random.Random(2))
    assert view.to_dict() == snapshot
    assert (repr(r), r.piles[:], r.scope[:]) == before


def test_sample_round_is_uniform_enough() -> None:
    # Seat 0 at the start of a round: each unseen card goes to seat 1, 2 or 3 equally often.
    r = Round.deal(Rules(), 3, random.Random(0))
    view = SeatView.of(r, 0)
    rng = random.Random(5)
    counts = {c: [0, 0, 0, 0] for c in r.hands[1] + r.hands[2] + r.hands[3]}
    for _ in range(600):
        s = view.sample_round(rng)
        for seat in (1, 2, 3):
            for c in s.hands[seat]:
                counts[c][seat] += 1
    for c, per_seat in counts.items():
        assert per_seat[0] == 0
        assert all(120 < n < 280 for n in per_seat[1:]), (c, per_seat)


def test_determinize_checks_the_cards_and_the_counts() -> None:
    r = _midround(7)
    seat = r.turn
    view = SeatView.of(r, seat)
    real = [r.hand(s) for s in range(4)]
    d = view.determinize(real)
    assert d.hands == r.hands and d.table == r.table and d.turn == r.turn
    # Swapping two hidden cards between two other seats is fine.
    a, b = [s for s in range(4) if s != seat and r.hands[s]][:2]
    swapped = [h[:] for h in real]
    swapped[a][0], swapped[b][0] = swapped[b][0], swapped[a][0]
    assert view.determinize(swapped).hand(a)[0] in real[b]
    # Moving a card from one seat to another breaks the counts.
    wrong_counts = [h[:] for h in real]
    wrong_counts[b].append(wrong_counts[a].pop())
    with pytest.raises(ValueError):
        view.determinize(wrong_counts)
    # A card the seat has seen (its own, or public) cannot be in an imagined hand.
    seen = view.hand[0]
    wrong_cards = [h[:] for h in real]
    wrong_cards[a][0] = seen
    with pytest.raises(ValueError):
        view.determinize(wrong_cards)
    if view.table:
        wrong_cards[a][0] = view.table[0]
        with pytest.raises(ValueError):
            view.determinize(wrong_cards)


@pytest.mark.parametrize("seed", range(4))
def test_the_view_holds_the_rounds_public_plays(seed: int) -> None:
    # Every play so far, in order: what the computer players read the table from.
    r = _midround(seed)
    assert r.history
    for seat in range(4):
        view = SeatView.of(r, seat)
        assert view.history == tuple(r.history)
        assert [p["card"] for p in view.to_dict()["history"]] == [str(p.card) for p in r.history]


@pytest.mark.parametrize("seed", range(10))
def test_the_views_legal_moves_are_the_rounds(seed: int) -> None:
    r = _midround(seed)
    for seat in range(4):
        view = SeatView.of(r, seat)
        if seat == r.turn and not r.is_over:
            assert view.is_my_turn
            assert view.legal_moves() == r.legal_pairs()
        else:
            assert not view.is_my_turn and view.legal_moves() == []


def test_the_view_as_plain_data() -> None:
    # What logs and tools read: every field, cards by their codes, in a round small enough to
    # write out whole.
    r = Round.from_deal([parse_cards("7D 1C"), parse_cards("5C 2S"), parse_cards("3C 4B"),
                         parse_cards("4C 6B")], parse_cards("5S"), dealer=3)
    r.play(Move.parse("7D"))
    r.play(Move.parse("5C:5S"))
    assert SeatView.of(r, 2).to_dict() == {
        "seat": 2, "turn": 2, "dealer": 3, "hand": ["3C", "4B"], "table": ["7D"],
        "hand_counts": [1, 1, 2, 2],
        "history": [{"seat": 0, "card": "7D", "capture": [], "scopa": False},
                    {"seat": 1, "card": "5C", "capture": ["5S"], "scopa": False}],
        "piles": [[], ["5C", "5S"]], "scope": [0, 0], "last_taker": 1, "plays_left": 6,
    }
