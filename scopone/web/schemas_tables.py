"""The JSON of tables with friends (the contract is the OpenAPI document): what the lobby, the
seats and the table page send and receive. Every view is built for one viewer."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .schemas import (
    CardCode,
    Level,
    MoveOut,
    PlayOut,
    RoundSummaryOut,
    RulesOut,
    Variant,
    Version,
    _In,
)
from .table import NAME_BIDI_CONTROLS, NAME_TRIMMED

#: A name as the schema allows it, so that a schema-valid name is never refused: after trimming
#: NAME_TRIMMED (every Unicode whitespace, as Python's ``str.strip()`` and JavaScript's ``trim()``
#: see it, and the characters that show nothing), 1-20 characters, no control character
#: (Unicode category Cc: U+0000-U+001F, U+007F-U+009F) and no bidirectional override.
#: ``scopone.web.table.clean_name`` checks the same rule in code; a blank inside a name stays,
#: as in "Anna Maria". The blanks are written out, never as ``\s``, whose meaning differs
#: between regex engines.
_REFUSED = f"\x00-\x1f\x7f-\x9f{NAME_BIDI_CONTROLS}"
NAME_PATTERN = (f"^[{NAME_TRIMMED}]*[^{NAME_TRIMMED}{_REFUSED}]"
                f"(?:[^{_REFUSED}]{{0,18}}[^{NAME_TRIMMED}{_REFUSED}])?"
                f"[{NAME_TRIMMED}]*$")
#: A generous bound on the untrimmed name, so the schema stays finite.
NAME_MAX_RAW = 64

Name = Field(pattern=NAME_PATTERN, max_length=NAME_MAX_RAW, examples=["Anna"])
TableStatus = Literal["your_turn", "their_turn", "round_over", "match_over"]
Phase = Literal["lobby", "playing", "match_over"]
SeatKind = Literal["person", "computer", "free"]


class _NameIn(_In):
    # Python's re, not pydantic's Rust engine: the two disagree on what \s is, and the schema's
    # readers (schemathesis among them) use Python's.
    model_config = ConfigDict(extra="forbid", strict=True, regex_engine="python-re")


# ----- requests -----------------------------------------------------------------------------


class TableCreate(_NameIn):
    name: str = Name
    level: Level = "normal"
    variant: Variant = "scientifico"
    napola: bool = False
    target: Literal[11, 21, 31] = 11
    # Seconds a person may think before the computer plays their card; null: never.
    away_seconds: Literal[30, 60, 120] | None = 60
    hints: bool = False


class SeatIn(_NameIn):
    name: str = Name


class TableMoveIn(_In):
    version: Version
    card: CardCode
    capture: list[CardCode] = Field(default_factory=list, max_length=10,
                                    json_schema_extra={"uniqueItems": True})


# ----- responses ----------------------------------------------------------------------------


class OptionsOut(BaseModel):
    level: Level
    away_seconds: int | None
    hints: bool
    rules: RulesOut


class SeatOut(BaseModel):
    seat: int
    pair: Literal["A", "B"]
    kind: SeatKind
    name: str | None  # a person's name (shown escaped); None for a computer or a free seat
    connected: bool  # a person with an event stream open (a computer always is)
    away: bool  # a person whose cards the computer plays until they are back


class TablePlayOut(PlayOut):
    # A person's card that the computer chose (they were away or out of time, SPEC §6);
    # false for a person's own card and for a computer seat's.
    by_computer: bool


class ClockOut(BaseModel):
    """A person's turn that the computer will play if they do not (SPEC §6)."""

    seat: int
    # "turn": their time to play runs out (the table's away_seconds); "offline": their
    # browser went away and has not come back.
    reason: Literal["turn", "offline"]
    seconds: float  # left when the view was built


class TableGameOut(BaseModel):
    """The game as one seat (or a spectator, ``seat`` None) sees it: its own hand only."""

    seat: int | None
    version: int
    status: TableStatus
    level: Level
    rules: RulesOut
    round_number: int
    turn: int | None
    dealer: int
    hand: list[CardCode]  # the viewer's own cards; [] for a spectator
    hand_counts: list[int]
    table: list[CardCode]
    history: list[TablePlayOut]
    legal: list[MoveOut]  # only when it is the viewer's turn
    piles: list[list[CardCode]]
    scope: list[int]
    last_taker: int | None
    score: list[int]
    rounds: list[RoundSummaryOut]
    winner: Literal["A", "B"] | None
    clock: ClockOut | None  # None while no person's card is timed


class TableView(BaseModel):
    code: str
    version: int
    phase: Phase
    you: int | None  # the viewer's seat; None for the lobby or a spectator
    host: int
    options: OptionsOut
    seats: list[SeatOut]
    game: TableGameOut | None  # None in the lobby


class SeatTaken(BaseModel):
    """A seat just taken (or the table just created): the seat's token, shown only here."""

    seat: int
    token: str
    table: TableView
