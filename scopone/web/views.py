"""Engine state to the JSON schemas, as one seat sees it: the only place a game becomes a view."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..engine import Card, Match, Move, Round, RoundScore
from .schemas import (
    CategoriesOut,
    GameView,
    MoveOut,
    PairTallyOut,
    PlayOut,
    RoundSummaryOut,
    RulesOut,
    Status,
)
from .schemas_tables import TablePlayOut
from .store import GameRecord

HUMAN = 0  # the seat the browser plays


def codes(cards: Iterable[Card]) -> list[str]:
    """Card codes in the deck's order (suit, then rank).

    >>> codes([Card.parse("7D"), Card.parse("1D")])
    ['1D', '7D']
    """
    return [str(c) for c in sorted(cards)]


def status_of(match: Match, seat: int | None = HUMAN, other: str = "computer_turn") -> Status:
    """The match's status for ``seat``: ``other`` when another seat (or, for a spectator, any
    seat) is to play."""
    if match.winner is not None:
        return "match_over"
    if match.round.is_over:
        return "round_over"
    return "your_turn" if match.round.turn == seat else other  # type: ignore[return-value]


def _legal(round_: Round, seat: int | None) -> list[MoveOut]:
    if seat is None or round_.is_over or round_.turn != seat:
        return []
    return [_move_out(m) for m in round_.legal_moves()]


def _move_out(move: Move) -> MoveOut:
    return MoveOut(card=str(move.card), capture=codes(move.capture))


def _summary(number: int, dealer: int, score: RoundScore, after: list[int]) -> RoundSummaryOut:
    return RoundSummaryOut(
        number=number,
        dealer=dealer,
        points=list(score.points),
        categories=CategoriesOut(
            carte=list(score.carte), denari=list(score.denari),
            settebello=list(score.settebello), primiera=list(score.primiera),
            scope=list(score.scope), napola=list(score.napola),
        ),
        tallies=[
            PairTallyOut(cards=t.cards, denari=t.denari, settebello=t.settebello,
                         primiera=t.primiera, scope=t.scope, napola=t.napola)
            for t in score.tallies
        ],
        score_after=after,
    )


def round_summaries(match: Match) -> list[RoundSummaryOut]:
    """Every finished round; dealers are not stored per round, but the deal passes on by one
    seat each round, so they follow from the current round's dealer."""
    current = match.round_number
    out: list[RoundSummaryOut] = []
    total = [0, 0]
    for i, score in enumerate(match.rounds):
        number = i + 1
        a, b = score.points
        total = [total[0] + a, total[1] + b]
        dealer = (match.round.dealer - (current - number)) % 4
        out.append(_summary(number, dealer, score, total))
    return out


def view_for(rec: GameRecord, seat: int | None, other: str = "computer_turn",
             by_computer: frozenset[int] | None = None,
             held_by: dict[int, str] | None = None) -> dict[str, Any]:
    """The game as ``seat`` sees it (None: a spectator, who has no hand): its own hand and its
    legal moves, and what is public, nothing else. The fields every game view shares. A table
    passes ``by_computer`` (the plays the computer chose for a person): its history marks them,
    and ``held_by`` (plays of a person whose seat is the computer's since) names them."""
    m = rec.match
    r = m.round
    over = r.is_over
    return {
        "version": rec.version,
        "status": status_of(m, seat, other),
        "level": rec.level,  # stored values are checked on the way in
        "rules": RulesOut(variant=m.rules.variant, napola=m.rules.napola, target=m.rules.target),
        "round_number": m.round_number,
        "turn": None if over else r.turn,
        "dealer": r.dealer,
        "hand": [] if seat is None else codes(r.hand(seat)),
        "hand_counts": [len(h) for h in r.hands],
        "table": codes(r.table_cards),
        "history": [
            PlayOut(seat=p.seat, card=str(p.card), capture=codes(p.capture), scopa=p.scopa)
            if by_computer is None else
            TablePlayOut(seat=p.seat, card=str(p.card), capture=codes(p.capture),
                         scopa=p.scopa, by_computer=i in by_computer,
                         held_by=(held_by or {}).get(i))
            for i, p in enumerate(r.history or [])
        ],
        "legal": _legal(r, seat),
        "piles": [codes(r.pile(0)), codes(r.pile(1))],
        "scope": list(r.scope),
        "last_taker": r.last_taker if r.last_taker >= 0 else None,
        "score": list(m.scores),
        "rounds": round_summaries(m),
        "winner": None if m.winner is None else ("A" if m.winner == 0 else "B"),
    }


def game_view(rec: GameRecord) -> GameView:
    """The single-player game as seat 0 sees it (the /api/games view)."""
    return GameView(id=rec.id, **view_for(rec, HUMAN))
