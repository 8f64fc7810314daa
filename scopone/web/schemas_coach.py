"""The JSON of the coach's endpoints: hint, review, cards seen, statistics (SPEC §7)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from .schemas import CardCode, MoveOut

#: An anonymous person's id: 128 random bits or more from the browser, as 32-64 hex digits.
PERSON_PATTERN = r"^[0-9a-f]{32,64}$"
#: The header that names the person creating a game: an id, or empty for nobody.
PERSON_HEADER_PATTERN = r"^([0-9a-f]{32,64})?$"

LabelOut = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
PlaceOut = Literal["hand", "table", "taken_a", "taken_b", "unseen"]


# ----- the reasons of a move (scopone/coach/reasons.py): facts from the person's own view ------


class FactOut(BaseModel):
    """scopa: the move sweeps the table (not on the round's last card); settebello: it takes
    the settebello; lays_settebello: it lays the settebello on the table, someone still to play."""

    kind: Literal["scopa", "settebello", "lays_settebello"]


class CountOut(BaseModel):
    """How many cards the capture wins (the played card included), and of them how many sevens
    and how many coins (denari); sevens and coins only when there are some."""

    kind: Literal["cards", "sevens", "coins"]
    count: int = Field(ge=1, le=40)


class LeavesOut(BaseModel):
    """The table left adds up to ``sum``, and ``unseen`` cards of that rank are still unseen by
    the person: the next player (an opponent) may sweep it with one of them for a scopa."""

    kind: Literal["leaves"]
    sum: int = Field(ge=1, le=10)
    unseen: int = Field(ge=1, le=4)


ReasonOut = Annotated[FactOut | CountOut | LeavesOut, Field(discriminator="kind")]


class CoachMoveOut(MoveOut):
    """A move the coach names, with its reasons in the position it was judged in (in the
    order: scopa, cards, settebello, sevens, coins, lays_settebello, leaves)."""

    # Empty in reviews stored before reasons were kept.
    reasons: list[ReasonOut] = Field(default_factory=list)


class OptionOut(CoachMoveOut):
    margin: float  # expected points of our pair minus theirs to the round's end


class HintOut(BaseModel):
    """Hard's recommended move from the person's own view, and the best few with margins."""

    version: int  # the game version the hint is for
    move: MoveOut  # as a move is played (POST .../moves), so a client can play it as it is
    reasons: list[ReasonOut]  # the reasons of ``move`` (as each option's)
    options: list[OptionOut]  # best first, at most three; none for a forced move
    deals: int  # imagined deals behind the margins; 0 for a forced move
    # Hints asked this round, this one included (a position asked again counts once), and the
    # openings of the cards seen (SPEC §7 counts one like a hint).
    hints_used: int


class PlayReviewOut(BaseModel):
    index: int  # position in the round's plays (history), 0 for the lead
    hand: list[CardCode]  # the person's own hand before the play
    table: list[CardCode]  # the table before the play
    played: CoachMoveOut
    scopa: bool
    forced: bool  # only one legal move: shown, not judged
    best: CoachMoveOut | None
    label: LabelOut | None
    loss: float | None  # expected points the play cost against the best
    options: list[OptionOut]
    # The computer chose this card for the person (away or out of time at a table): shown, not
    # judged, like a forced play. (False in reviews stored before it was kept.)
    by_computer: bool = False


class PublicPlayOut(BaseModel):
    seat: int
    card: CardCode
    capture: list[CardCode]
    scopa: bool
    by_computer: bool = False  # a person's card the computer chose (see TablePlayOut)
    # The person who made this play, when the host has handed its seat to the computer since
    # (see TablePlayOut); null: the seat's holder now.
    held_by: str | None = None


class ReviewOut(BaseModel):
    round: int
    seat: int
    plays: list[PlayReviewOut]  # the person's plays, in order
    history: list[PublicPlayOut]  # every play of the round, as everyone saw it
    accuracy: float | None  # share of judged plays rated best or good; None: nothing judged
    counts: dict[LabelOut, int]
    hints_used: int  # hints asked in the round, each opening of the cards seen included
    cards_seen_opened: int  # of those, the openings of the cards seen


class SeenCardOut(BaseModel):
    card: CardCode
    place: PlaceOut


class CardsSeenOut(BaseModel):
    cards: list[SeenCardOut]  # the 40 cards in the deck's order
    played: list[CardCode]  # played from a hand this round
    unseen_by_rank: list[int]  # ranks 1-10: cards still unseen by the person
    settebello: PlaceOut
    opened: int  # times opened this round, this one included (not counted once it is over)
    hints_used: int  # the same count as a hint's: hints and openings this round, this one too


class LevelStatsOut(BaseModel):
    level: Literal["easy", "normal", "hard"]
    matches: int
    matches_won: int
    rounds: int
    rounds_won: int


class AccuracyPointOut(BaseModel):
    time: float  # unix seconds
    accuracy: float
    judged: int


class StatsOut(BaseModel):
    levels: list[LevelStatsOut]
    rounds: int
    average_points: dict[Literal["carte", "denari", "settebello", "primiera", "scope",
                                 "napola"], float]
    scope_made: int
    scope_conceded: int
    hints: int  # hints used: hints asked and openings of the cards seen (SPEC §7)
    cards_seen: int  # of those, the openings of the cards seen
    accuracy: list[AccuracyPointOut]  # oldest first, the last hundred reviewed rounds
