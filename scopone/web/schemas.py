"""The JSON the API takes in and gives out, split by direction (the contract with the page).

Out-schemas are built only from what seat 0 may see; ``response_model`` on every route makes
anything else impossible to leak.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

Level = Literal["easy", "normal", "hard"]
Variant = Literal["scientifico", "classico"]
Status = Literal["your_turn", "computer_turn", "round_over", "match_over"]
#: The page's speed setting: the pace at which the server plays the computers' cards.
Speed = Literal["normal", "fast"]
# Exactly the 40 codes of the deck (rank 1–10, then the suit letter), so that the schema alone
# tells a client which codes exist: a schema-valid card code is always a real card.
CARD_PATTERN = r"^(10|[1-9])[DCSB]$"
CardCode = Annotated[str, Field(pattern=CARD_PATTERN, examples=["7D", "10B"])]


def _whole(value: object) -> object:
    """A float with no fraction as the int it is: JSON Schema counts ``3.0`` as an integer, so
    the strict models must too (but not ``"3"``, nor ``true``).

    >>> _whole(3.0), _whole(3.5), _whole("3"), _whole(True)
    (3, 3.5, '3', True)
    """
    return int(value) if isinstance(value, float) and value.is_integer() else value


Version = Annotated[Annotated[int, Field(ge=0)], BeforeValidator(_whole)]


class _In(BaseModel):
    # Strict: JSON types are not coerced, so ``"napola": 0`` is not a boolean and
    # ``"version": "3"`` is not a number; unknown fields are refused.
    model_config = ConfigDict(extra="forbid", strict=True)


# ----- requests -----------------------------------------------------------------------------


class GameCreate(_In):
    level: Level = "normal"
    napola: bool = False
    variant: Variant = "scientifico"
    target: Literal[11, 21, 31] = 11


class MoveIn(_In):
    version: Version
    card: CardCode
    # Each table card at most once; the service refuses duplicates with 422 "invalid move".
    capture: list[CardCode] = Field(default_factory=list, max_length=10,
                                    json_schema_extra={"uniqueItems": True})


class VersionIn(_In):
    version: Version


class GamePatch(_In):
    level: Level


# ----- responses ----------------------------------------------------------------------------


class RulesOut(BaseModel):
    variant: Variant
    napola: bool
    target: int


class PlayOut(BaseModel):
    seat: int
    card: CardCode
    capture: list[CardCode]
    scopa: bool


class MoveOut(BaseModel):
    card: CardCode
    capture: list[CardCode]


class PairTallyOut(BaseModel):
    cards: int
    denari: int
    settebello: bool
    primiera: int | None  # None: a suit missing, no primiera
    scope: int
    napola: int  # scoring run length from 1D, 0 when none or Napola off


class CategoriesOut(BaseModel):
    """Points per category, each as [pair A, pair B]."""

    carte: list[int]
    denari: list[int]
    settebello: list[int]
    primiera: list[int]
    scope: list[int]
    napola: list[int]


class RoundSummaryOut(BaseModel):
    number: int  # 1 for the first round of the match
    dealer: int
    points: list[int]  # [pair A, pair B] for this round
    categories: CategoriesOut
    tallies: list[PairTallyOut]  # [pair A, pair B]
    score_after: list[int]  # match score after this round


class GameView(BaseModel):
    """A game as seat 0 sees it."""

    id: str
    version: int
    status: Status
    level: Level
    rules: RulesOut
    round_number: int
    turn: int | None  # seat to play; None once the round is over
    dealer: int
    hand: list[CardCode]  # seat 0's cards only
    hand_counts: list[int]  # cards left in each seat's hand, seats 0–3
    table: list[CardCode]
    history: list[PlayOut]  # every play of the current round, in order
    legal: list[MoveOut]  # seat 0's legal moves when it is its turn, else []
    piles: list[list[CardCode]]  # cards each pair has taken this round (public)
    scope: list[int]  # scope each pair has made this round
    last_taker: int | None  # seat that took last this round
    score: list[int]  # match points [pair A, pair B], rounds finished so far
    rounds: list[RoundSummaryOut]  # breakdown of every finished round
    winner: Literal["A", "B"] | None


class HealthOut(BaseModel):
    status: Literal["ok"]  # a database that does not answer gets 503 and an ErrorOut instead


class FieldErrorOut(BaseModel):
    """One reason a request was malformed, as pydantic reports it."""

    loc: list[str | int]  # where in the request: ["body", "capture", 2]
    msg: str
    type: str


class ErrorOut(BaseModel):
    detail: str  # short and stable: tests and the page compare it
    game: GameView | None = None  # the current view, on 409, so the page can resync
    # At a table with friends, on 409: the TableView for the viewer (schemas_tables.TableView).
    table: dict[str, Any] | None = None
    errors: list[FieldErrorOut] | None = None  # the particulars, on 422 from the schema
