"""Invariants over thousands of random rounds, both variants, Napola on and off.

Every round is played by the engine and, move for move, by the reference of reference.py; the
two must agree on the legal moves and on the whole state after every play.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopone import Match, Move, Round, Rules
from scopone.engine.captures import _CACHE, _LIGHT
from scopone.engine.cards import ALL_MASK, DECK, mask_of

from .reference import RefRound
from .reference import points as reference_points

CONFIGS = [Rules(variant=v, napola=n) for v in ("scientifico", "classico") for n in (False, True)]
IDS = [f"{r.variant}-napola-{'on' if r.napola else 'off'}" for r in CONFIGS]


def _state(r: Round) -> tuple[object, ...]:
    return (tuple(tuple(h) for h in r.hands), r.table_mask, tuple(r.piles), tuple(r.scope), r.turn,
            r.plays_left, r.last_taker)


def _ref_state(ref: RefRound, plays_left: int, last_taker: int) -> tuple[object, ...]:
    return (tuple(tuple(sorted(c.index for c in h)) for h in ref.hands), mask_of(ref.table),
            tuple(mask_of(p) for p in ref.piles), tuple(ref.scope), ref.turn, plays_left,
            last_taker)


def check_round(rules: Rules, seed: int) -> None:
    """Play one random round through ``Round.play`` and check every invariant at every step."""
    rng = random.Random(seed)
    dealer = rng.randrange(4)
    r = Round.deal(rules, dealer, rng)
    ref = RefRound([r.hand(s) for s in range(4)], r.table_cards, r.turn)
    total = 40 if rules.variant == "scientifico" else 36
    assert r.plays_left == total
    plays = 0
    while not r.is_over:
        # 40 cards, each in exactly one place.
        places = [*(mask_of(r.hand(s)) for s in range(4)), r.table_mask, *r.piles]
        assert sum(m.bit_count() for m in places) == 40
        assert (places[0] | places[1] | places[2] | places[3] | places[4] | places[5]
                | places[6]) == ALL_MASK
        assert r.turn == (dealer + 1 + plays) % 4
        moves = r.legal_moves()
        assert {(m.card, m.capture) for m in moves} == ref.moves()
        assert len(set(moves)) == len(moves)
        move = moves[rng.randrange(len(moves))]
        if rng.random() < 0.2:
            # Round.copy is independent: playing the copy out leaves the original as it was.
            before = _state(r)
            r.copy().playout(random.Random(seed))
            assert _state(r) == before
        play = r.play(move, seat=r.turn)
        ref_scopa = ref.play(move.card, move.capture)
        assert play.scopa == ref_scopa
        plays += 1
        assert _state(r) == _ref_state(ref, total - plays, r.last_taker)
    assert plays == total
    assert all(not h for h in r.hands) and r.table_mask == 0
    assert r.piles[0] | r.piles[1] == ALL_MASK and not r.piles[0] & r.piles[1]
    history = r.history or []
    assert len(history) == total
    assert not history[-1].scopa  # never on the last play
    for pair in (0, 1):
        assert r.scope[pair] == sum(1 for p in history if p.scopa and p.seat % 2 == pair)
    score = r.score()
    cats = [score.carte, score.denari, score.settebello, score.primiera, score.scope,
            score.napola]
    assert score.points == (sum(c[0] for c in cats), sum(c[1] for c in cats))
    assert score.points == r.points()
    assert score.points == reference_points(ref.piles, ref.scope, rules.napola)


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_random_rounds_through_the_checked_path(rules: Rules) -> None:
    for seed in range(150):
        check_round(rules, seed)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), config=st.sampled_from(CONFIGS))
def test_random_rounds_hypothesis(seed: int, config: Rules) -> None:
    check_round(config, seed)


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_fast_path_agrees_with_the_reference(rules: Rules) -> None:
    # legal_pairs/apply, as searches use them, against the reference, state by state.
    rng = random.Random(7)
    for _ in range(250):
        r = Round.deal(rules, rng.randrange(4), rng)
        r.history = None
        ref = RefRound([r.hand(s) for s in range(4)], r.table_cards, r.turn)
        while not r.is_over:
            pairs = r.legal_pairs()
            assert {(DECK[c], frozenset(DECK[i] for i in range(40) if m >> i & 1))
                    for c, m in pairs} == ref.moves()
            c, m = pairs[rng.randrange(len(pairs))]
            move = Move.from_masks(c, m)
            assert r.apply(c, m) == ref.play(move.card, move.capture)
            assert _state(r) == _ref_state(ref, r.plays_left, r.last_taker)
        assert r.points() == reference_points(ref.piles, ref.scope, rules.napola)


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_thousands_of_playouts(rules: Rules) -> None:
    rng = random.Random(11)
    total = 40 if rules.variant == "scientifico" else 36
    for _ in range(1500):
        r = Round.deal(rules, rng.randrange(4), rng)
        r.history = None
        start = r.copy()
        r.playout(rng)
        assert r.is_over and r.plays_left == 0 and all(not h for h in r.hands)
        assert r.table_mask == 0 and r.piles[0] | r.piles[1] == ALL_MASK
        assert not r.piles[0] & r.piles[1]
        assert r.points() == r.score().points
        assert start.plays_left == total
        # A scopa needs a play that is not the last; in classico the first play can be one.
        assert r.scope[0] + r.scope[1] <= total - 1


@pytest.mark.parametrize("seed", range(8))
def test_playout_is_a_sequence_of_legal_plays(seed: int) -> None:
    # Replaying a playout's choices: the same random draws pick from legal_pairs() in order.
    rules = CONFIGS[seed % 4]
    r = Round.deal(rules, seed % 4, random.Random(seed))
    r.history = None
    fast = r.copy()
    fast.playout(random.Random(100 + seed))
    draw = random.Random(100 + seed)
    while not r.is_over:
        pairs = r.legal_pairs()
        r.apply(*pairs[int(draw.random() * len(pairs))])
    assert _state(r) == _state(fast)


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_playouts_from_cold_caches_are_legal_plays(rules: Rules) -> None:
    """The playout's own path for a hand with a choice of captures and a table not cached
    yet (counting each card's options instead of listing them): each play is the one
    ``legal_pairs()`` lists at the same draw. Other tests leave tables cached; here each
    playout starts from empty caches, so that path runs."""
    choices = 0
    for seed in range(40):
        r = Round.deal(rules, seed % 4, random.Random(seed))
        r.history = None
        start = r.copy()
        fast = r.copy()
        _CACHE.clear()
        _LIGHT.clear()
        fast.playout(random.Random(500 + seed))
        draw = random.Random(500 + seed)
        while not r.is_over:
            pairs = r.legal_pairs()
            choices += len({c for c, _ in pairs}) < len(pairs)  # a card with a choice
            r.apply(*pairs[int(draw.random() * len(pairs))])
        assert _state(r) == _state(fast), seed
        # Again with every table of this line of play cached (by legal_pairs above): the
        # playout lists the moves from the cache instead, and must draw the same.
        start.playout(random.Random(500 + seed))
        assert _state(start) == _state(r), seed
    assert choices > 40


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_match_round_trips_through_plain_data_mid_round(rules: Rules) -> None:
    rng = random.Random(21)
    for seed in range(25):
        m = Match(Rules(variant=rules.variant, napola=rules.napola, target=21),
                  random.Random(seed))
        for _ in range(rng.randrange(m.round.plays_left)):
            moves = m.round.legal_moves()
            m.round.play(moves[rng.randrange(len(moves))])
        data = m.to_dict()
        m2 = Match.from_dict(json.loads(json.dumps(data)))
        assert m2.to_dict() == data
        assert _state(m2.round) == _state(m.round)
        assert m2.round.history == m.round.history and m2.rules == m.rules
        assert m2.round.napola == rules.napola  # what the fast path scores by
        # Continuing both with the same draws gives the same round and the same next deal.
        a, b = random.Random(seed), random.Random(seed)
        m.round.playout(a)
        m2.round.playout(b)
        assert _state(m2.round) == _state(m.round)
        assert m2.finish_round() == m.finish_round()
        assert m2.winner == m.winner
        if m.winner is None:
            assert m2.next_round().hands == m.next_round().hands


def test_a_match_stored_with_the_older_form_of_its_deck_state_loads() -> None:
    # Records stored before the state was packed as text hold it as a list of numbers.
    m = Match(Rules(), random.Random(8))
    data = json.loads(json.dumps(m.to_dict()))
    data["rng"][1] = list(m.rng.getstate()[1])
    old = Match.from_dict(data)
    assert old.rng.getstate() == m.rng.getstate()
    m.round.playout(random.Random(1))
    old.round.playout(random.Random(1))
    m.finish_round()
    old.finish_round()
    if m.winner is None:
        assert old.next_round().hands == m.next_round().hands


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_a_copy_keeps_the_rules_it_is_scored_by(rules: Rules) -> None:
    """Every search plays on copies and scores them by the fast path: a copy played out scores
    as its breakdown says, Napola included (some of these rounds have one)."""
    rng = random.Random(5)
    napolas = 0
    for _ in range(200):
        c = Round.deal(rules, rng.randrange(4), rng).copy()
        c.playout(rng)
        assert c.points() == c.score().points
        napolas += c.score().napola != (0, 0)
    assert (napolas > 0) == rules.napola


def test_copy_is_independent() -> None:
    r = Round.deal(Rules(variant="classico"), 2, random.Random(3))
    c = r.copy(history=True)
    before = _state(r)
    c.playout(random.Random(0))
    c.hands[0].append(5)
    c.piles[0] |= 1
    c.scope[1] += 3
    assert _state(r) == before
    assert r.history == [] and c.history == []
    r.play(r.legal_moves()[0])
    assert c.history == [] and r.history is not None and len(r.history) == 1
