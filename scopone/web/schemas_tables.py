"""The JSON of tables with friends (the contract is the OpenAPI document): what the lobby, the
seats and the table page send and receive. Every view is built for one viewer."""

from __future__ import annotations

import re
import sys
import unicodedata
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
from .table import (
    NAME_BIDI_CONTROLS,
    NAME_BLANK_CATEGORIES,
    NAME_DEFAULT_IGNORABLES,
    NAME_MARK_CATEGORIES,
    NAME_MARKS_PER_BASE,
    NAME_SILENT_CATEGORIES,
    NAME_TRIMMED,
    name_char,
)


def _name_classes() -> tuple[str, str, str]:
    """The characters ``table.name_char`` does not call drawn, the marks and the silent ones,
    each as the inside of a regex character class: ranges, a BMP character as ``\\uXXXX``
    (Python's ``re`` and ECMA read it alike), any other as itself (ECMA reads it as one
    character with the u flag, the flag JSON Schema validators use)."""
    # name_char goes by the category but for the characters it has the last word on.
    by_category = {**dict.fromkeys(NAME_MARK_CATEGORIES, "m"),
                   **dict.fromkeys(NAME_SILENT_CATEGORIES, "s"),
                   **dict.fromkeys(NAME_BLANK_CATEGORIES, "b")}
    kinds = [by_category.get(category, "d") for category in
             map(unicodedata.category, map(chr, range(sys.maxunicode + 1)))]
    for cp in {*map(ord, NAME_TRIMMED),
               *(cp for lo, hi in NAME_DEFAULT_IGNORABLES for cp in range(lo, hi + 1))}:
        kinds[cp] = name_char(chr(cp))[0]
    # The surrogates are named in no class: Rust's regex (jsonschema-rs, which schemathesis
    # checks the document with) refuses a pattern that names one, even in a range, and a lone
    # surrogate is no character a JSON client sends. ``clean_name`` refuses a name of them.
    kinds[0xD800:0xE000] = ["x"] * 0x800
    text = "".join(kinds)

    def one(cp: int) -> str:
        return f"\\u{cp:04x}" if cp <= 0xFFFF else chr(cp)

    def chars(of: str) -> str:
        return "".join(one(m.start()) if m.end() - m.start() == 1
                       else f"{one(m.start())}-{one(m.end() - 1)}"
                       for m in re.finditer(f"[{of}]+", text))

    return chars("msb"), chars("m"), chars("s")


_NOT_DRAWN, _MARKS, _SILENT = _name_classes()
#: A name as the schema allows it, exactly the names ``scopone.web.table.clean_name`` keeps, so
#: that a schema-valid name is never refused: after trimming NAME_TRIMMED (every Unicode
#: whitespace, as Python's ``str.strip()`` and JavaScript's ``trim()`` see it, and the
#: characters that show nothing), 1-20 characters, no control character (Unicode category Cc:
#: U+0000-U+001F, U+007F-U+009F) and no bidirectional override; some character drawn (not all
#: of them ``_NOT_DRAWN``) and no more than NAME_MARKS_PER_BASE combining marks in a row, a
#: silent character between two not ending the row. A blank inside a name stays, as in "Anna
#: Maria". The blanks are written out, never as ``\s``, whose meaning differs between regex
#: engines; so are the kinds of characters, never as ``\p{...}``, which Python's ``re`` (the
#: engine of the names' models and of schemathesis) does not have. Characters beyond the BMP
#: stand as themselves, so an ECMA engine reads the pattern with the u flag (as JSON Schema
#: validators do); without it, no pattern could give them ranges Python reads the same.
#: Both lookaheads come after the leading blanks (a newline among those would stop their search
#: before the name), and both are negative: Hypothesis, which draws schemathesis's names, skips
#: a negative one but spells out a positive one's classes code point by code point (for the
#: million of ``_NOT_DRAWN``, half a second a name: the schemathesis test took seven minutes).
_REFUSED = f"\x00-\x1f\x7f-\x9f{NAME_BIDI_CONTROLS}"
_NOTHING_DRAWN = f"(?![{_NOT_DRAWN}]*$)"
_STACKED = f"(?![^{_REFUSED}]*?(?:[{_MARKS}][{_SILENT}]*){{{NAME_MARKS_PER_BASE + 1}}})"
NAME_PATTERN = (f"^[{NAME_TRIMMED}]*{_NOTHING_DRAWN}{_STACKED}[^{NAME_TRIMMED}{_REFUSED}]"
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
    # The person who played this card, when the host has handed their seat to the computer
    # since (this round): the play is theirs, not the computer's. None otherwise.
    held_by: str | None = None


class ClockOut(BaseModel):
    """A person's turn that the computer will play if they do not (SPEC §6)."""

    seat: int
    # "turn": their time to play runs out (the table's away_seconds); "offline": their
    # browser went away and has not come back.
    reason: Literal["turn", "offline"]
    seconds: float  # left when the view was built


class LastMatchOut(BaseModel):
    """The match a rematch ended: a page away when it ended (offline, asleep) learns how it
    went, whose summary it never showed."""

    match: int  # its number (``TableGameOut.match``)
    score: list[int]  # pair A's, pair B's
    winner: Literal["A", "B"]


class TableGameOut(BaseModel):
    """The game as one seat (or a spectator, ``seat`` None) sees it: its own hand only."""

    seat: int | None
    version: int
    match: int  # the table's match: 1 for the first, one more after each rematch
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
    last_match: LastMatchOut | None = None  # the match before this one; None in the first


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
