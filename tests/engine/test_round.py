"""A round by SPEC.md §1: the deal of both variants, turn order, scopa, leftovers, errors."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scopone import (
    Card,
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    Match,
    Move,
    OutOfTurnError,
    Round,
    RoundOverError,
    Rules,
    ScoponeError,
)
from scopone.engine import parse_cards
from scopone.engine.cards import ALL_MASK, mask_of
from scopone.engine.deal import deal_cards


def _m(text: str) -> Move:
    return Move.parse(text)


# ----- the deal ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_scientifico_deals_ten_each_and_an_empty_table(seed: int) -> None:
    r = Round.deal(Rules(), seed % 4, random.Random(seed))
    assert [len(h) for h in r.hands] == [10, 10, 10, 10]
    assert r.table == [] and r.table_cards == []
    assert mask_of(c for s in range(4) for c in r.hand(s)) == ALL_MASK
    assert r.plays_left == 40 and not r.is_over


@pytest.mark.parametrize("seed", range(20))
def test_classico_deals_nine_each_and_four_face_up(seed: int) -> None:
    r = Round.deal(Rules(variant="classico"), seed % 4, random.Random(seed))
    assert [len(h) for h in r.hands] == [9, 9, 9, 9]
    assert len(r.table_cards) == 4
    assert mask_of([*r.table_cards, *(c for s in range(4) for c in r.hand(s))]) == ALL_MASK
    assert r.plays_left == 36


def test_classico_never_leaves_three_kings_face_up() -> None:
    redealt = 0
    for seed in range(3000):
        r = Round.deal(Rules(variant="classico"), 0, random.Random(seed))
        assert sum(1 for c in r.table_cards if c.rank == 10) < 3, seed
        # The plain deal of cards (the engine's reference) deals the same from the same seed.
        rng = random.Random(seed)
        hands, table = deal_cards(Rules(variant="classico"), rng)
        assert [sorted(h) for h in hands] == [r.hand(s) for s in range(4)], seed
        assert sorted(table) == r.table_cards, seed
        redealt += rng.getstate() != _after_one_shuffle(seed)
    assert redealt > 0  # some of these seeds voided a deal and dealt again


def _after_one_shuffle(seed: int) -> object:
    rng = random.Random(seed)
    rng.shuffle(list(range(40)))
    return rng.getstate()


def _kings_on_top(order: list[int], table_size: int) -> int:
    return sum(1 for i in order[len(order) - table_size:] if i % 10 == 9)


def test_classico_redeals_when_three_or_four_kings_are_face_up() -> None:
    # Seeds whose first shuffle (the standard library's, not the engine's) puts three or four
    # kings among the last four cards, which are the table in classico.
    seeds = []
    for seed in range(20_000):
        order = list(range(40))
        random.Random(seed).shuffle(order)
        if _kings_on_top(order, 4) >= 3:
            seeds.append(seed)
    assert len(seeds) >= 5
    for seed in seeds:
        expected = random.Random(seed)
        first = list(range(40))
        expected.shuffle(first)
        again = list(range(40))
        expected.shuffle(again)
        while _kings_on_top(again, 4) >= 3:
            again = list(range(40))
            expected.shuffle(again)
        r = Round.deal(Rules(variant="classico"), 0, random.Random(seed))
        assert r.table_mask == mask_of(Card.from_index(i) for i in again[36:])
        assert r.hands == [sorted(again[k * 9:(k + 1) * 9]) for k in range(4)]


def test_a_redeal_through_a_scripted_shuffle() -> None:
    kings_last = [c for c in range(40) if c % 10 != 9] + [9, 19, 29, 39]

    class Scripted(random.Random):
        calls = 0

        def shuffle(self, x: list) -> None:  # type: ignore[override, type-arg]
            self.calls += 1
            if self.calls == 1:
                x[:] = [x[i] for i in kings_last]  # 4 kings face up: void
            else:
                x.reverse()  # kings first: a valid deal

    rng = Scripted(0)
    hands, table = deal_cards(Rules(variant="classico"), rng)
    assert rng.calls == 2
    assert [str(c) for c in table] == ["4D", "3D", "2D", "1D"]
    assert sum(1 for h in hands for c in h if c.rank == 10) == 4
    rng = Scripted(0)
    r = Round.deal(Rules(variant="classico"), 0, rng)
    assert rng.calls == 2 and r.table == parse_cards("1D 2D 3D 4D")


def test_the_deal_depends_only_on_the_generator() -> None:
    a = Round.deal(Rules(), 0, random.Random(42))
    b = Round.deal(Rules(), 0, random.Random(42))
    c = Round.deal(Rules(), 0, random.Random(43))
    assert a.hands == b.hands and a.hands != c.hands
    # The engine's shuffle is the standard library's, card for card.
    stdlib = random.Random(42)
    order = list(range(40))
    stdlib.shuffle(order)
    assert a.hands == [sorted(order[k * 10:(k + 1) * 10]) for k in range(4)]
    # ... and leaves the generator where the standard library's would, for what draws next.
    engine = random.Random(42)
    Round.deal(Rules(), 0, engine)
    assert engine.random() == stdlib.random()


def test_the_first_dealer_is_drawn_at_random_and_dealer_plus_one_leads() -> None:
    dealers = Counter()
    for seed in range(400):
        m = Match(Rules(), random.Random(seed))
        dealers[m.round.dealer] += 1
        assert m.round.turn == (m.round.dealer + 1) % 4
        assert Match(Rules(), random.Random(seed)).round.dealer == m.round.dealer
    assert set(dealers) == {0, 1, 2, 3}
    assert min(dealers.values()) > 60  # roughly uniform over 400 draws


@pytest.mark.parametrize("dealer", range(4))
def test_the_seat_after_the_dealer_leads_and_the_dealer_plays_last(dealer: int) -> None:
    r = Round.deal(Rules(), dealer, random.Random(dealer))
    seats = []
    rng = random.Random(1)
    while not r.is_over:
        seats.append(r.turn)
        moves = r.legal_moves()
        play = r.play(moves[rng.randrange(len(moves))], seat=r.turn)
        assert play.seat == seats[-1]
    # Counterclockwise: 0 → 1 → 2 → 3 → 0, starting at dealer + 1, ten times round.
    assert seats == [(dealer + 1 + i) % 4 for i in range(40)]
    assert seats[-1] == dealer


def test_the_deal_passes_on_each_round() -> None:
    m = Match(Rules(target=31), random.Random(5))
    first = m.round.dealer
    for n in range(1, 4):
        m.round.playout(random.Random(n))
        m.finish_round()
        if m.winner is not None:
            break
        m.next_round()
        assert m.round.dealer == (first + n) % 4
        assert m.round.turn == (first + n + 1) % 4
    assert len(m.rounds) >= 1


# ----- scopa and the end of the round ------------------------------------------------------


def test_a_capture_that_clears_the_table_is_a_scopa() -> None:
    r = Round.from_deal([parse_cards("5D 1B"), parse_cards("2C 1C"), parse_cards("3S 1S"),
                         parse_cards("9B 2B")], parse_cards("2D 3D"), dealer=3)
    play = r.play(_m("5D:2D+3D"))
    assert play.scopa and r.scope == [1, 0] and r.table == []
    r.play(_m("2C"))
    play = r.play(_m("3S"))  # 3S cannot take the 2C: laid
    assert not play.scopa and r.table == parse_cards("2C 3S")
    play = r.play(_m("9B"))
    assert not play.scopa and r.scope == [1, 0]
    r.play(_m("1B"))
    play = r.play(_m("1C:1B"))
    assert not play.scopa and r.pile(1) == parse_cards("1C 1B")


def test_a_scopa_by_either_partner_counts_for_the_pair() -> None:
    r2 = Round.from_deal([parse_cards("6D 9D"), parse_cards("1B 8B"), parse_cards("1C 9C"),
                          parse_cards("2S 8S")], parse_cards("3D 3C"), dealer=3)
    assert r2.play(_m("6D:3D+3C")).scopa  # seat 0
    r2.play(_m("1B"))
    assert r2.play(_m("1C:1B")).scopa  # seat 2, the partner
    assert r2.scope == [2, 0]
    assert r2.pile(0) == sorted(parse_cards("6D 3D 3C 1C 1B"))


def test_no_scopa_on_the_last_play_of_the_round() -> None:
    # The same capture clears the table in both rounds; only in the second is it the last play.
    r = Round.from_deal([[], [], [], parse_cards("4B 9B")], parse_cards("4C"), dealer=2)
    assert r.play(_m("4B:4C")).scopa is True and r.scope == [0, 1]
    r = Round.from_deal([parse_cards("10D"), parse_cards("10C"), parse_cards("3S"),
                         parse_cards("4B")], parse_cards("3D 4C"), dealer=3)
    r.play(_m("10D"))
    assert r.play(_m("10C:10D")).scopa is False
    assert r.play(_m("3S:3D")).scopa is False
    assert r.is_last_play and r.table == parse_cards("4C")
    play = r.play(_m("4B:4C"))
    assert play.capture == frozenset(parse_cards("4C")) and r.table == []
    assert play.scopa is False and r.scope == [0, 0] and r.is_over
    assert r.score().scope == (0, 0)


def test_leftovers_go_to_the_pair_that_took_last_and_are_no_scopa() -> None:
    r = Round.from_deal([parse_cards("6D 9D"), parse_cards("6C 8C"), parse_cards("1S 2S"),
                         parse_cards("3B 4B")], parse_cards("5S 10B"), dealer=3)
    r.play(_m("6D"))
    r.play(_m("6C:6D"))  # pair B takes
    r.play(_m("1S"))
    r.play(_m("3B"))
    with pytest.raises(IllegalMoveError):
        r.play(_m("9D"))  # 9 = 5+1+3: it must take
    assert r.play(_m("9D:5S+1S+3B")).scopa is False  # pair A takes last; 10B stays
    r.play(_m("8C"))
    r.play(_m("2S"))
    assert r.is_last_play and r.table == parse_cards("8C 2S 10B")
    play = r.play(_m("4B"))
    assert not play.capture and not play.scopa
    assert r.is_over and r.table == []
    assert r.pile(0) == sorted(parse_cards("9D 5S 1S 3B 8C 2S 10B 4B"))
    assert r.pile(1) == sorted(parse_cards("6C 6D"))
    assert r.scope == [0, 0] and r.score().scope == (0, 0)


def test_partners_captures_are_pooled_in_the_score() -> None:
    r = Round.from_deal([parse_cards("7D"), parse_cards("1B"), parse_cards("2C"),
                         parse_cards("3B")], parse_cards("7C 2S"), dealer=3)
    r.play(_m("7D:7C"))
    r.play(_m("1B"))
    r.play(_m("2C:2S"))  # seat 2, the partner of seat 0
    assert r.pile(0) == sorted(parse_cards("7D 7C 2C 2S"))
    r.play(_m("3B"))  # takes nothing; the 1B and 3B left go to pair A, which took last
    s = r.score()
    assert s.tallies[0].cards == 6 and s.tallies[0].settebello and s.tallies[0].denari == 1
    assert s.tallies[1].cards == 0
    assert s.carte == (1, 0) and s.settebello == (1, 0) and s.denari == (1, 0)


# ----- errors -----------------------------------------------------------------------------


def _position() -> Round:
    return Round.from_deal([parse_cards("7D 2C"), parse_cards("5B 1B"), parse_cards("9S 8S"),
                            parse_cards("4B 6B")], parse_cards("7S 3D"), dealer=3)


def test_a_card_not_in_hand() -> None:
    r = _position()
    with pytest.raises(IllegalMoveError) as e:
        r.play(_m("5B"))
    assert "5B" in str(e.value) and "seat 0" in str(e.value) and "3D 7S" in str(e.value)


def test_a_capture_that_is_not_an_option() -> None:
    r = _position()
    with pytest.raises(IllegalMoveError) as e:
        r.play(_m("7D:3D"))
    assert "7D:3D" in str(e.value) and "3D 7S" in str(e.value) and "seat 0" in str(e.value)


def test_a_capture_of_cards_not_on_the_table() -> None:
    r = _position()
    with pytest.raises(IllegalMoveError) as e:
        r.play(_m("7D:7B"))
    assert "7D:7B" in str(e.value) and "7B" in str(e.value) and "3D 7S" in str(e.value)
    with pytest.raises(IllegalMoveError):
        r.play(_m("2C:1B"))  # a card that takes nothing cannot claim a capture


def test_laying_a_card_that_must_capture() -> None:
    r = _position()
    with pytest.raises(IllegalMoveError) as e:
        r.play(_m("7D"))
    assert "must take" in str(e.value) and "7D" in str(e.value) and "3D 7S" in str(e.value)


def test_playing_out_of_turn() -> None:
    r = _position()
    with pytest.raises(OutOfTurnError) as e:
        r.play(_m("5B"), seat=1)
    assert isinstance(e.value, IllegalMoveError)
    assert "5B" in str(e.value) and "seat 1" in str(e.value) and "seat 0" in str(e.value)


def test_playing_after_the_round_is_over() -> None:
    r = Round.from_deal([parse_cards("7D"), [], [], []], [], dealer=3)
    r.play(_m("7D"))
    assert r.is_over
    with pytest.raises(RoundOverError) as e:
        r.play(_m("7D"))
    assert isinstance(e.value, IllegalMoveError)
    assert "7D" in str(e.value) and "over" in str(e.value)
    with pytest.raises(IllegalMoveError):
        Round.from_deal([parse_cards("7D"), [], [], []], [], dealer=3).score()


def test_a_failed_play_changes_nothing() -> None:
    r = _position()
    before = repr(r), r.piles[:], r.scope[:], r.turn, r.plays_left
    for bad in ("5B", "7D:3D", "7D:7B", "7D", "2C:3D"):
        with pytest.raises(ScoponeError):
            r.play(_m(bad))
    assert (repr(r), r.piles[:], r.scope[:], r.turn, r.plays_left) == before


@pytest.mark.parametrize("code", ["", "7", "D", "11D", "0C", "7X", "7d", " 7D", "1 0B", "10"])
def test_malformed_card_codes(code: str) -> None:
    with pytest.raises(InvalidCardError):
        Card.parse(code)
    with pytest.raises(ValueError):
        Card.parse(code)


def test_malformed_moves() -> None:
    with pytest.raises(InvalidMoveError):
        Move.parse("7D:7X")
    with pytest.raises(InvalidMoveError):
        Move(Card.parse("7D"), frozenset([Card.parse("7D")]))
    with pytest.raises(InvalidMoveError):
        _position().play("7D")  # type: ignore[arg-type]
    assert issubclass(InvalidMoveError, ScoponeError) and issubclass(ScoponeError, ValueError)
    assert issubclass(InvalidCardError, ValueError)


def test_a_deal_by_hand_is_checked() -> None:
    hands = [parse_cards("7D 1C"), parse_cards("2C"), parse_cards("3C"), parse_cards("4C")]
    with pytest.raises(InvalidMoveError, match="dealt twice"):
        Round.from_deal([hands[0], hands[1], hands[2], parse_cards("7D")])
    with pytest.raises(InvalidMoveError, match="dealt twice"):
        Round.from_deal(hands, parse_cards("2C"))
    with pytest.raises(InvalidMoveError, match="four hands"):
        Round.from_deal(hands[:3])
    for dealer in (-1, 4):
        with pytest.raises(InvalidMoveError, match="dealer"):
            Round.from_deal(hands, dealer=dealer)
    r = Round.from_deal(hands)
    assert r.dealer == 0 and r.turn == 1  # the default dealer: seat 0, so seat 1 leads


@pytest.mark.parametrize("variant", ["scientifico", "classico"])
def test_nobody_has_taken_before_the_first_capture(variant: str) -> None:
    # Leftovers go to the pair that took last: before any capture that is nobody (-1).
    r = Round.deal(Rules(variant=variant), 2, random.Random(4))
    assert r.last_taker == -1
    assert Round.from_deal([parse_cards("7D"), [], [], []]).last_taker == -1


def test_cards_and_moves_take_any_form_of_their_parts() -> None:
    seven, six = Card.parse("7D"), Card.parse("6D")
    assert not seven < seven and six < seven and sorted([seven, six]) == [six, seven]
    with pytest.raises(InvalidCardError):
        Card.parse(["7D"])  # type: ignore[arg-type]
    # A capture given as a list or a set is kept as a frozenset: equal, hashable, immutable.
    a = Move(Card.parse("7C"), [seven])  # type: ignore[arg-type]
    assert a.capture == frozenset({seven}) and isinstance(a.capture, frozenset)
    assert a == Move(Card.parse("7C"), frozenset({seven})) and len({a, a}) == 1
    with pytest.raises(InvalidMoveError):
        Move(Card.parse("7C"), ["7D"])  # type: ignore[list-item]
