"""One round of Scopone: hands, table, capture piles, turn, and the moves that change them."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .captures import (
    _CACHE,
    _FIELD,
    _LIGHT,
    _SAME_RANK,
    card_options,
    light_after_lay,
    new_entry,
    only_sum,
    playout_entry,
    sum_options,
)
from .cards import BIT, DECK, RANK_MASK, RANK_OF, Card, cards_of, mask_of
from .deal import deal_indices
from .errors import (
    IllegalMoveError,
    InvalidMoveError,
    OutOfTurnError,
    RoundOverError,
)
from .rules import Rules
from .scoring import RoundScore, round_points, score_round


@dataclass(frozen=True, slots=True)
class Move:
    """A card played and the frozenset of table cards it takes (empty: laid on the table).

    >>> str(Move(Card.parse("7D"), frozenset(Card.parse(c) for c in ("3C", "4S"))))
    '7D:3C+4S'
    >>> Move.parse("7D:4S+3C") == Move.parse("7D:3C+4S"), str(Move.parse("5B"))
    (True, '5B')
    """

    card: Card
    capture: frozenset[Card] = frozenset()

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            raise InvalidMoveError(f"a move needs a Card, not {self.card!r}")
        if not isinstance(self.capture, frozenset):
            object.__setattr__(self, "capture", frozenset(self.capture))
        if not all(isinstance(c, Card) for c in self.capture):
            raise InvalidMoveError(f"a capture is a set of Cards, not {set(self.capture)!r}")
        if self.card in self.capture:
            raise InvalidMoveError(f"card {self.card} cannot capture itself")

    @classmethod
    def parse(cls, text: str) -> Move:
        """A move from ``CARD`` or ``CARD:CARD+CARD`` (the form ``str()`` gives)."""
        head, _, tail = text.partition(":")
        try:
            capture = frozenset(Card.parse(c) for c in tail.split("+")) if tail else frozenset()
            return cls(Card.parse(head), capture)
        except ValueError as e:
            raise InvalidMoveError(f"not a move: {text!r} ({e})") from None

    @classmethod
    def from_masks(cls, card_index: int, capture: int) -> Move:
        return cls(DECK[card_index], frozenset(cards_of(capture)))

    @property
    def capture_mask(self) -> int:
        return mask_of(self.capture)

    def __str__(self) -> str:
        if not self.capture:
            return str(self.card)
        return f"{self.card}:" + "+".join(str(c) for c in sorted(self.capture))


@dataclass(frozen=True, slots=True)
class Play:
    """One play of the round as everybody saw it."""

    seat: int
    card: Card
    capture: frozenset[Card]
    scopa: bool

    @property
    def move(self) -> Move:
        return Move(self.card, self.capture)


#: What a card that takes nothing "captures": it is laid on the table.
_LAY: tuple[int] = (0,)
#: For each card index, the mask of the four cards of its rank.
_SAME_RANK_AS: tuple[int, ...] = tuple(RANK_MASK[r] for r in RANK_OF)
#: For each card index, where the count of the table's sets adding up to its rank sits in the
#: counts of ``playout_entry``.
_COUNT_SHIFT: tuple[int, ...] = tuple(r * _FIELD for r in RANK_OF)
_COUNT_MASK = (1 << _FIELD) - 1


class Round:
    """The state of one round, from the deal to the last card.

    The public methods (``legal_moves``, ``play``) check everything and speak in ``Card`` and
    ``Move``. The fast path used by searches (``legal_pairs``, ``apply``, ``copy``) works on card
    indices and 40-bit masks and checks nothing.

    >>> from .cards import parse_cards
    >>> r = Round.from_deal([parse_cards("7D"), parse_cards("7C"), parse_cards("3B"),
    ...                      parse_cards("4B")], dealer=3)
    >>> r.turn, [str(m) for m in r.legal_moves()]
    (0, ['7D'])
    >>> r.play(Move(Card.parse("7D")))
    Play(seat=0, card=Card.parse('7D'), capture=frozenset(), scopa=False)
    >>> r.play(Move(Card.parse("7C"), frozenset([Card.parse("7D")]))).scopa
    True
    """

    __slots__ = (
        "dealer",
        "hands",
        "history",
        "last_taker",
        "napola",
        "piles",
        "plays_left",
        "rules",
        "scope",
        "table_mask",
        "turn",
    )
    hands: list[list[int]]
    table_mask: int  # the cards face up on the table, one bit per card index
    piles: list[int]
    scope: list[int]
    last_taker: int
    turn: int
    plays_left: int
    dealer: int
    rules: Rules
    napola: bool
    history: list[Play] | None

    # ----- construction -------------------------------------------------------------------

    @classmethod
    def from_deal(
        cls,
        hands: Sequence[Iterable[Card]],
        table: Iterable[Card] = (),
        dealer: int = 0,
        rules: Rules | None = None,
    ) -> Round:
        """A round from explicit hands (four sequences of cards) and face-up table cards.

        The seat after the dealer leads. Hands may be of any equal-ish size, so tests can script
        endings; every card may appear only once.
        """
        rules = rules or Rules()
        hand_lists = [list(h) for h in hands]
        table_list = list(table)
        if len(hand_lists) != 4:
            raise InvalidMoveError(f"a deal needs four hands, got {len(hand_lists)}")
        if dealer not in range(4):
            raise InvalidMoveError(f"dealer must be a seat 0–3, not {dealer!r}")
        seen: set[Card] = set()
        for c in [*table_list, *(c for h in hand_lists for c in h)]:
            if not isinstance(c, Card):
                raise InvalidMoveError(f"not a card: {c!r}")
            if c in seen:
                raise InvalidMoveError(f"card {c} dealt twice")
            seen.add(c)
        return cls._from_indices(
            [sorted(c.index for c in h) for h in hand_lists], mask_of(table_list), dealer, rules
        )

    @classmethod
    def deal(cls, rules: Rules, dealer: int, rng: random.Random) -> Round:
        """Shuffle with ``rng`` and deal by the variant's rules (classico: redeal 3+ kings)."""
        hands, table = deal_indices(rules, rng)
        return cls._from_indices(hands, table, dealer, rules)

    @classmethod
    def _from_indices(cls, hands: list[list[int]], table: int, dealer: int, rules: Rules) -> Round:
        # Fast path behind from_deal and deal: the caller has checked the cards.
        r = cls.__new__(cls)
        r.hands = hands
        r.table_mask = table
        r.piles = [0, 0]
        r.scope = [0, 0]
        r.last_taker = -1
        r.dealer = dealer
        r.turn = (dealer + 1) % 4
        r.plays_left = len(hands[0]) + len(hands[1]) + len(hands[2]) + len(hands[3])
        r.rules = rules
        r.napola = rules.napola
        r.history = []
        return r

    def copy(self, history: bool = False) -> Round:
        """An independent copy; without history unless asked (searches do not need it)."""
        r = Round.__new__(Round)
        h = self.hands
        r.hands = [h[0][:], h[1][:], h[2][:], h[3][:]]
        r.table_mask = self.table_mask
        r.piles = self.piles[:]
        r.scope = self.scope[:]
        r.last_taker = self.last_taker
        r.turn = self.turn
        r.plays_left = self.plays_left
        r.dealer = self.dealer
        r.rules = self.rules
        r.napola = self.napola
        r.history = list(self.history) if history and self.history is not None else None
        return r

    # ----- reading ------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.plays_left == 0

    @property
    def table(self) -> list[Card]:
        """The cards face up on the table, in deck order (SPEC §5's ``round.table``)."""
        return cards_of(self.table_mask)

    @property
    def table_cards(self) -> list[Card]:
        """The same as ``table`` (the name it had first)."""
        return self.table

    def hand(self, seat: int) -> list[Card]:
        return [DECK[i] for i in self.hands[seat]]

    def pile(self, pair: int) -> list[Card]:
        return cards_of(self.piles[pair])

    @property
    def is_last_play(self) -> bool:
        return self.plays_left == 1

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to play: each card with each of its capture options."""
        return [Move.from_masks(c, m) for c, m in self.legal_pairs()]

    def legal_pairs(self) -> list[tuple[int, int]]:
        """Fast path: legal moves as ``(card_index, capture_mask)`` pairs."""
        if not self.plays_left:
            return []
        opts = (_CACHE.get(self.table_mask) or new_entry(self.table_mask))[0]
        return [(c, m) for c in self.hands[self.turn] for m in opts[RANK_OF[c]] or _LAY]

    # ----- changing -----------------------------------------------------------------------

    def play(self, move: Move, seat: int | None = None) -> Play:
        """Play a move for the seat to play (or check that ``seat`` is that seat) and record it.

        Raises a ``ValueError`` subclass naming the move and the position for anything illegal.
        """
        if not isinstance(move, Move):
            raise InvalidMoveError(f"not a move: {move!r}")
        if self.is_over:
            raise RoundOverError(f"move {move}: the round is over")
        if seat is not None and seat != self.turn:
            raise OutOfTurnError(f"move {move} by seat {seat}: it is seat {self.turn}'s turn")
        c = move.card.index
        if c not in self.hands[self.turn]:
            raise IllegalMoveError(
                f"move {move}: {move.card} is not in the hand of seat {self.turn}"
                f" ({self.describe()})"
            )
        cap = move.capture_mask
        if cap & ~self.table_mask:
            missing = " ".join(str(x) for x in cards_of(cap & ~self.table_mask))
            raise IllegalMoveError(f"move {move}: {missing} not on the table ({self.describe()})")
        options = card_options(self.table_mask, c)
        if options and cap not in options:
            if not cap:
                raise IllegalMoveError(
                    f"move {move}: {move.card} can take, so it must take ({self.describe()})"
                )
            raise IllegalMoveError(
                f"move {move}: not one of the captures of {move.card} ({self.describe()})"
            )
        if not options and cap:
            raise IllegalMoveError(f"move {move}: {move.card} takes nothing ({self.describe()})")
        seat_played = self.turn
        scopa = self.apply(c, cap)
        play = Play(seat_played, move.card, move.capture, scopa)
        if self.history is not None:
            self.history.append(play)
        return play

    def apply(self, card: int, capture: int) -> bool:
        """Fast path: play ``card`` taking ``capture`` without any check; returns whether scopa.

        The caller guarantees the move is in ``legal_pairs()``.
        """
        seat = self.turn
        self.hands[seat].remove(card)
        left = self.plays_left - 1
        self.plays_left = left
        self.turn = (seat + 1) & 3
        if capture:
            table = self.table_mask ^ capture
            self.piles[seat & 1] |= capture | BIT[card]
            self.last_taker = seat
            if table:
                if not left:
                    # Leftovers go to the pair that took last; this is never a scopa.
                    self.piles[seat & 1] |= table
                    table = 0
                self.table_mask = table
                return False
            self.table_mask = 0
            if left:
                self.scope[seat & 1] += 1
                return True
            return False  # the last play of the round never scores a scopa
        table = self.table_mask | BIT[card]
        if not left and self.last_taker >= 0:
            # Leftovers go to the pair that took last; this is never a scopa.
            self.piles[self.last_taker & 1] |= table
            table = 0
        self.table_mask = table
        return False

    def playout(self, rng: random.Random) -> None:
        """Fast path: play to the end with uniformly random legal moves (for benchmarks).

        Each play draws one ``rng.random()`` and takes that fraction of the list that
        ``legal_pairs()`` gives, so a seeded playout is reproducible. It is ``apply`` in a loop,
        with the state in local variables and, when no card in the hand has a choice of
        captures (most plays), the move drawn without listing the moves: the options are listed
        only when the card drawn takes a sum (``playout_entry`` counts the sums, cheaply).
        """
        if not self.plays_left:
            return
        rand = rng.random
        cached = _CACHE.get
        rank_of = RANK_OF
        bit = BIT
        hands = self.hands
        held = [0, 0, 0, 0]  # each hand as a mask, to test it against a table's multi mask
        for s in range(4):
            for c in hands[s]:
                held[s] |= bit[c]
        piles = self.piles
        table = self.table_mask
        turn = self.turn
        left = self.plays_left
        last = self.last_taker
        light = _LIGHT.get
        same_rank_as = _SAME_RANK_AS
        count_shift = _COUNT_SHIFT
        entry = light(table) or playout_entry(table)
        while True:
            multi, sums, counts, _, _ = entry
            hand = hands[turn]
            if held[turn] & multi:
                # The k-th of the moves legal_pairs() lists, without listing them: count each
                # card's options, then list only the chosen card's.
                full = cached(table)
                if full:
                    opts = full[0]
                    moves = [(c, m) for c in hand for m in opts[rank_of[c]] or _LAY]
                    c, m = moves[int(rand() * len(moves))]
                    hand.remove(c)
                else:
                    ns = []
                    for c in hand:
                        same = table & same_rank_as[c]
                        if same:
                            ns.append(same.bit_count())
                        elif bit[c] & sums:
                            ns.append(counts >> count_shift[c] & _COUNT_MASK)
                        else:
                            ns.append(1)
                    k = int(rand() * sum(ns))
                    i = 0
                    while k >= ns[i]:
                        k -= ns[i]
                        i += 1
                    c = hand.pop(i)
                    same = table & same_rank_as[c]
                    if same:
                        m = _SAME_RANK[same][k]
                    elif bit[c] & sums:
                        m = sum_options(table, rank_of[c])[k]
                    else:
                        m = 0
                b = bit[c]
            else:
                # One move per card: the k-th move is the k-th card's. Without a choice, a card
                # takes the one card of its rank on the table, or its one sum, or is laid.
                c = hand.pop(int(rand() * len(hand)))
                b = bit[c]
                m = table & same_rank_as[c]
                if not m and b & sums:
                    m = only_sum(table, rank_of[c])
            held[turn] ^= b
            left -= 1
            if m:
                table ^= m
                piles[turn & 1] |= m | b
                last = turn
                turn = (turn + 1) & 3
                if not left:
                    break
                if not table:
                    self.scope[last & 1] += 1
                entry = light(table) or playout_entry(table)
            else:
                turn = (turn + 1) & 3
                if not left:
                    table |= b
                    break
                entry = light(table | b) or light_after_lay(entry, table, b)
                table |= b
        if table and last >= 0:
            # Leftovers go to the pair that took last; this is never a scopa.
            piles[last & 1] |= table
            table = 0
        self.table_mask = table
        self.turn = turn
        self.plays_left = left
        self.last_taker = last

    # ----- results ------------------------------------------------------------------------

    def score(self) -> RoundScore:
        """The breakdown of the finished round."""
        if not self.is_over:
            raise IllegalMoveError(f"the round is not over: {self.plays_left} plays left")
        return score_round((self.piles[0], self.piles[1]), (self.scope[0], self.scope[1]),
                           self.rules)

    def points(self) -> tuple[int, int]:
        """Fast path: points of both pairs at the end of the round, no breakdown."""
        return round_points(self.piles, self.scope, self.napola)

    def describe(self) -> str:
        table = " ".join(str(c) for c in self.table_cards) or "empty"
        return f"seat {self.turn} to play, table {table}"

    def __repr__(self) -> str:
        hands = " | ".join(" ".join(str(c) for c in self.hand(s)) for s in range(4))
        return f"<Round {self.describe()}, hands {hands}>"
