"""Engine state to the JSON schemas, as seat 0 sees it: the only place a game becomes a view."""

from __future__ import annotations

from collections.abc import Iterable

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
from .store import GameRecord

HUMAN = 0  # the seat the browser plays


def codes(cards: Iterable[Card]) -> list[str]:
    """Card codes in the deck's order (suit, then rank).

    >>> codes([Card.parse("7D"), Card.parse("1D")])
    ['1D', '7D']
    """
    return [str(c) for c in sorted(cards)]


def status_of(match: Match) -> Status:
    if match.winner is not None:
        return "match_over"
    if match.round.is_over:
        return "round_over"
    return "your_turn" if match.round.turn == HUMAN else "computer_turn"


def _legal(round_: Round) -> list[MoveOut]:
    if round_.is_over or round_.turn != HUMAN:
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


def game_view(rec: GameRecord) -> GameView:
    """The game as seat 0 sees it: its own hand and what is public, nothing else."""
    m = rec.match
    r = m.round
    over = r.is_over
    return GameView(
        id=rec.id,
        version=rec.version,
        status=status_of(m),
        level=rec.level,  # type: ignore[arg-type]  # stored values are checked on the way in
        rules=RulesOut(variant=m.rules.variant, napola=m.rules.napola, target=m.rules.target),
        round_number=m.round_number,
        turn=None if over else r.turn,
        dealer=r.dealer,
        hand=codes(r.hand(HUMAN)),
        hand_counts=[len(h) for h in r.hands],
        table=codes(r.table_cards),
        history=[
            PlayOut(seat=p.seat, card=str(p.card), capture=codes(p.capture), scopa=p.scopa)
            for p in (r.history or [])
        ],
        legal=_legal(r),
        piles=[codes(r.pile(0)), codes(r.pile(1))],
        scope=list(r.scope),
        last_taker=r.last_taker if r.last_taker >= 0 else None,
        score=list(m.scores),
        rounds=round_summaries(m),
        winner=None if m.winner is None else ("A" if m.winner == 0 else "B"),
    )
