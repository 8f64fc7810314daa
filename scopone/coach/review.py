"""The review of a finished round for one seat: each of its plays judged against the best.

A finished round is kept as a ``RoundTrace`` (dealer, rules and the public plays): every card of
a round is played, so the plays alone give back the deal, and each of the seat's positions is
rebuilt by replaying them. Only ``SeatView.of(round, seat)`` reaches the evaluation, and a review
shows only that seat's own hands and the public plays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from ..engine import Card, Move, Round, Rules, SeatView
from ..engine.cards import DECK, cards_of
from ..players.evaluate import JUDGE_LIMITS, MoveValue, evaluate_moves
from ..players.search import SearchLimits
from .labels import LABELS, Label, accuracy, label_for

#: How many of the best moves a judged play lists with their margins.
SHOWN = 3


@dataclass(frozen=True, slots=True)
class RoundTrace:
    """A finished round as anyone at the table saw it: who dealt, the rules, every play, and
    which of them the computer chose for a person (away or out of time at a table)."""

    dealer: int
    rules: Rules
    plays: tuple[tuple[int, Move], ...]  # (seat, move) in order
    #: The cards face up before the first play; None: every card of the deck not played (what
    #: a whole deck dealt leaves, and all that traces stored before this field say).
    table: tuple[Card, ...] | None = None
    #: Indices into ``plays`` of a person's plays whose card the computer chose.
    by_computer: frozenset[int] = frozenset()

    @classmethod
    def of(cls, round_: Round, by_computer: frozenset[int] = frozenset()) -> RoundTrace:
        if not round_.is_over:
            raise ValueError("the round is not over")
        plays = tuple((p.seat, p.move) for p in (round_.history or ()))
        # Every card of the round ends in a pile or on the table; those never played were dealt
        # face up (none in Scientifico, four in Classico, any in a round built by hand).
        played = {m.card for _, m in plays}
        dealt = cards_of(round_.piles[0] | round_.piles[1] | round_.table_mask)
        return cls(round_.dealer, round_.rules, plays,
                   tuple(c for c in dealt if c not in played), by_computer)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"dealer": self.dealer,
                               "plays": [[s, str(m.card), sorted(str(c) for c in m.capture)]
                                         for s, m in self.plays]}
        if self.table is not None:
            out["table"] = [str(c) for c in self.table]
        if self.by_computer:
            out["by_computer"] = sorted(self.by_computer)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], rules: Rules) -> RoundTrace:
        table = data.get("table")
        return cls(int(data["dealer"]), rules, tuple(
            (int(s), Move(Card.parse(c), frozenset(Card.parse(x) for x in cap)))
            for s, c, cap in data["plays"]),
            None if table is None else tuple(Card.parse(c) for c in table),
            frozenset(int(i) for i in data.get("by_computer", ())))

    def deal(self) -> Round:
        """The round as it was dealt: each seat's hand is what it played, and the table."""
        hands: list[list[Card]] = [[], [], [], []]
        for seat, move in self.plays:
            hands[seat].append(move.card)
        played = {c for h in hands for c in h}
        table = (list(self.table) if self.table is not None
                 else [c for c in DECK if c not in played])
        return Round.from_deal(hands, table, self.dealer, self.rules)


@dataclass(frozen=True, slots=True)
class Option:
    move: Move
    margin: float  # expected margin (our pair minus theirs, to the round's end)


@dataclass(frozen=True, slots=True)
class PlayReview:
    """One of the seat's plays. ``forced`` plays carry no best, label or loss, nor do those
    whose card the computer chose for the seat's person (``by_computer``): neither is judged."""

    index: int  # position in the round's plays, 0 for the lead
    hand: tuple[Card, ...]  # the seat's own hand before the play
    table: tuple[Card, ...]  # the table before the play
    played: Move
    scopa: bool
    forced: bool
    best: Move | None = None
    label: Label | None = None
    loss: float | None = None
    options: tuple[Option, ...] = ()
    by_computer: bool = False

    @property
    def judged(self) -> bool:
        return not self.forced and not self.by_computer


@dataclass(frozen=True, slots=True)
class RoundReview:
    seat: int
    plays: tuple[PlayReview, ...]

    @property
    def judged(self) -> list[PlayReview]:
        return [p for p in self.plays if p.judged]

    @property
    def accuracy(self) -> float | None:
        return accuracy([p.label for p in self.judged if p.label is not None])

    @property
    def counts(self) -> dict[str, int]:
        out: dict[str, int] = dict.fromkeys(LABELS, 0)
        for p in self.judged:
            if p.label is not None:
                out[p.label] += 1
        return out


def judge(view: SeatView, played: Move, rng: random.Random,
          limits: SearchLimits = JUDGE_LIMITS) -> tuple[Move, Label, float, tuple[Option, ...]]:
    """The best move, the played move's label and loss, and the best few with margins."""
    values = evaluate_moves(view, rng, limits)
    best = values[0]
    mine = next((v for v in values if v.move == played), None)
    if mine is None:
        raise ValueError(f"{played} is not a legal move in the seat's view")
    loss = max(0.0, best.mean - mine.mean)
    return best.move, label_for(loss), loss, _options(values, mine)


def _options(values: list[MoveValue], mine: MoveValue) -> tuple[Option, ...]:
    """The best few, best first, and the move played after them when it is not among them: a
    review that says what a play cost shows that play's own margin too."""
    shown = values[:SHOWN]
    if mine not in shown:
        shown = [*shown, mine]
    return tuple(Option(v.move, v.mean) for v in shown)


def review_round(trace: RoundTrace, seat: int, seed: str,
                 limits: SearchLimits = JUDGE_LIMITS) -> RoundReview:
    """Every play of ``seat`` in the round, judged when it had a choice. ``seed`` makes each
    judgement's imagined deals (server-side and secret, so nobody can replay them)."""
    return review_plays(trace.deal(), trace.plays, seat, seed, limits, trace.by_computer)


def review_plays(start: Round, plays: tuple[tuple[int, Move], ...], seat: int, seed: str,
                 limits: SearchLimits = JUDGE_LIMITS,
                 by_computer: frozenset[int] = frozenset()) -> RoundReview:
    """``plays`` made from ``start`` (a copy is played on), ``seat``'s judged as above except
    those at ``by_computer`` (the computer chose them: not the person's to answer for)."""
    r = start.copy(history=True)
    out: list[PlayReview] = []
    for i, (s, move) in enumerate(plays):
        if s == seat:
            view = SeatView.of(r, seat)
            legal = view.legal_moves()
            base = PlayReview(i, view.hand, view.table, move, False, len(legal) == 1,
                              by_computer=i in by_computer)
            if base.judged:
                best, label, loss, options = judge(
                    view, move, random.Random(f"{seed}:{i}"), limits)
                base = replace(base, best=best, label=label, loss=loss, options=options)
        play = r.play(move, seat=s)
        if s == seat:
            out.append(replace(base, scopa=play.scopa))
    return RoundReview(seat, tuple(out))
