"""The coach at a table with friends (SPEC §7, notes/tables-contract.md): hint, cards seen and
review for the seat whose token comes in ``Authorization: Bearer``, each person's their own.

The table is loaded by its invite code and the seat by its token, here; ``CoachService`` then
works on that record with a loader bound to this table, so a table is never reachable through
a game id (``/api/games/{id}`` stays the capability of a solo game's seat 0 only).

What the host's ``options.hints`` governs: the hint and the cards seen (help while playing;
SPEC §7 counts opening the cards seen like a hint). The review of a finished round is not help
with a card still to play, so every seated person may open their own whatever the option.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Path, Query, Response, status

from . import errors as e
from . import table as t
from .coach import CoachService
from .errors import EVERY_ROUTE, documented
from .routes_coach import get_coach
from .routes_tables import Authorization, Code, bearer, get_tables
from .schemas import VersionIn
from .schemas_coach import PERSON_PATTERN, CardsSeenOut, HintOut, ReviewOut
from .store import GameRecord
from .tables import TableService

Tables = Annotated[TableService, Depends(get_tables)]
Coach = Annotated[CoachService, Depends(get_coach)]
RoundNumber = Annotated[int, Path(ge=1, le=1000, description="1 for the match's first round")]
MatchNumber = Annotated[int | None, Query(
    ge=1, le=1_000_000, description="the table's match (the view's ``match``: 1 for the first, "
    "one more after each rematch); the current one when left out. The match before a rematch "
    "keeps its last round's review; any other is 404")]
Person = Annotated[str, Header(alias="X-Scopone-Person", pattern=PERSON_PATTERN,
                               description="the anonymous person's id (browser-made, secret)")]

router = APIRouter(prefix="/api/tables", tags=["coach"], responses=documented(*EVERY_ROUTE))


class _Seated:
    """The table at ``code`` as the token's seat reaches it: the record, the table, the seat,
    and a loader that reloads this table only (the coach's counts are written through it)."""

    def __init__(self, tables: TableService, code: str, rec: GameRecord,
                 table: dict[str, Any], authorization: str | None, *, help_: bool) -> None:
        self.rec, self.table = rec, table
        # A spectator (no token) has no hand, no turn and no review of their own.
        self.seat = t.require_seat(t.seat_of_token(self.table, bearer(authorization)))
        if help_ and not self.table["options"]["hints"]:
            raise e.Forbidden(e.HINTS_OFF)
        self._tables = tables
        self._code = code

    @classmethod
    async def at(cls, tables: TableService, code: str, authorization: str | None,
                 *, help_: bool) -> _Seated:
        rec, table = await tables.load(code)
        return cls(tables, code, rec, table, authorization, help_=help_)

    async def load(self, game_id: str) -> GameRecord:
        rec, _ = await self._tables.load(self._code)
        if rec.id != game_id:  # the code now names another record: nothing of ours is there
            raise e.NotFound(e.TABLE_NOT_FOUND)
        return rec

    def conflict(self, detail: str) -> e.Conflict:
        """A 409 carrying the table as this seat sees it (as the table routes' 409s do)."""
        return e.Conflict(detail, table=self._tables.view(self.rec, self.table, self.seat))

    def require_playing(self) -> None:
        if self.table["phase"] != "playing":
            raise self.conflict(e.TABLE_NOT_PLAYING)

    async def judged(self, work: Callable[[], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
        """The coach's answer; its 409s get this seat's table, and an evaluation that failed
        is 503 (nothing stored)."""
        try:
            return await work()
        except e.Conflict as err:
            raise self.conflict(err.detail) from None
        except e.GameError:
            raise
        except Exception as exc:
            raise e.Unavailable(e.NO_REVIEW) from exc


@router.post("/{code}/hint", response_model=HintOut, operation_id="table_hint",
             responses=documented(403, 404, 409, 422, 503))
async def table_hint(code: Code, req: VersionIn, tables: Tables, coach: Coach,
                     authorization: Authorization = None) -> dict[str, Any]:
    """The move Hard would make from the token's seat's own view, with the best few margins.
    403 when the host did not allow hints; 409 (with the table for this seat) when it is not
    the seat's turn, the round is over or the version is old. Counted for this seat only."""
    at = await _Seated.at(tables, code, authorization, help_=True)
    at.require_playing()
    rec = at.rec
    # As for a card: stale only when the game changed since ``version`` (a card, a deal), not
    # when someone merely connected or left (the table's version moves, the game does not).
    oldest = int(at.table.get("game_version", rec.version))
    if not oldest <= req.version <= rec.version:
        raise at.conflict(e.STALE_VERSION)
    return await at.judged(lambda: coach.hint_for(rec, at.seat, at.load, oldest))


@router.post("/{code}/cards-seen", response_model=CardsSeenOut, operation_id="table_cards_seen",
             responses=documented(403, 404, 409, 503))
async def table_cards_seen(code: Code, tables: Tables, coach: Coach,
                           authorization: Authorization = None) -> dict[str, Any]:
    """Where each card is as far as the token's seat knows; counted like a hint, and like the
    hint only when the host allowed hints (403 otherwise)."""
    at = await _Seated.at(tables, code, authorization, help_=True)
    at.require_playing()
    # The game's position, as for the hint: someone connecting moves the table's version only.
    position = int(at.table.get("game_version", at.rec.version))
    return await coach.cards_seen_for(at.rec, at.seat, at.load, position)


@router.get("/{code}/rounds/{number}/review", response_model=ReviewOut,
            operation_id="table_review_round", responses=documented(403, 404, 409, 422, 503))
async def table_review(code: Code, number: RoundNumber, tables: Tables, coach: Coach,
                       match: MatchNumber = None,
                       authorization: Authorization = None) -> dict[str, Any]:
    """The token's seat's plays of a finished round judged against the best (its own review;
    a spectator gets 403). 409 while the round is being played, 404 for a round not reached
    or a match no longer kept. A page names the match its view showed, so a review asked for
    as the host starts a rematch is still the round it meant."""
    at = await _Seated.at(tables, code, authorization, help_=False)
    at.require_playing()
    return await at.judged(lambda: coach.review_for(
        at.rec, number, at.seat, at.load, None if match is None else match - 1))



@router.post("/{code}/person", status_code=status.HTTP_204_NO_CONTENT,
             operation_id="table_person", responses=documented(403, 404, 422, 503))
async def table_person(code: Code, person: Person, tables: Tables, coach: Coach,
                       authorization: Authorization = None) -> Response:
    """The token's seat collects statistics for the person of ``X-Scopone-Person`` (their rounds,
    hints and accuracy, as in the solo game) while the seat is theirs. Not governed by the
    hints option: statistics are no help during play."""
    at = await _Seated.at(tables, code, authorization, help_=False)
    holder = t.token_hash(bearer(authorization) or "")  # a seat was found: there is a token
    await coach.claim_table_seat(at.rec, at.seat, person, holder, at.load)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
