"""The JSON API of tables with friends under ``/api/tables``.

The invite code is in the path; a seat token only ever in ``Authorization: Bearer <token>``
(URLs end up in logs and histories). Every answer is the table as the caller's seat sees it.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Path, Query, Request, status

from .errors import EVERY_ROUTE, documented, json_errors
from .events import (
    STREAM_HEADERS,
    EventStream,
    Presence,
    event_schema,
    headers_only,
    resume_from,
    table_events,
)
from .head import head_only
from .schemas import VersionIn
from .schemas_tables import SeatIn, SeatTaken, TableCreate, TableMoveIn, TableView
from .table import seat_of_token
from .tables import TableService


async def get_tables(request: Request) -> TableService:
    tables: TableService = request.app.state.tables
    return tables


Tables = Annotated[TableService, Depends(get_tables)]
Code = Annotated[str, Path(description="the table's invite code")]
SeatNo = Annotated[int, Path(ge=0, le=3, description="seat 0-3 (pairs: 0+2 A, 1+3 B)")]
# Optional in the schema: a missing token is the route's own 403, not a malformed request.
Authorization = Annotated[str | None, Header(description="Bearer <seat token>")]


def bearer(authorization: str | None) -> str | None:
    """The seat token of an ``Authorization: Bearer`` header; anything else in the header is
    kept as a (wrong) token, so it gets 403 rather than passing as no token at all.

    >>> bearer("Bearer abc"), bearer(None), bearer("Basic x")
    ('abc', None, 'Basic x')
    """
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else authorization


def _answers(success: int, *errors: int) -> dict[int | str, dict[str, Any]]:
    return {success: {"description": "the table as the caller's seat sees it"},
            **documented(*errors)}


# 400 and 413 come from the body-limit middleware, in front of every route.
router = APIRouter(prefix="/api/tables", tags=["tables"], responses=documented(*EVERY_ROUTE))


@router.post("", response_model=SeatTaken, status_code=status.HTTP_201_CREATED,
             operation_id="create_table", responses=_answers(201, 422))
async def create_table(req: TableCreate, tables: Tables) -> SeatTaken:
    """A table in the lobby; its creator is the host at seat 0 (the token is only here)."""
    return await tables.create(req)


@router.get("/{code}", response_model=TableView, operation_id="get_table",
            responses=_answers(200, 403, 404))
async def get_table(code: Code, tables: Tables,
                    authorization: Authorization = None) -> TableView:
    """The table for the token's seat; without a token the lobby or a spectator's view."""
    return await tables.get(code, bearer(authorization))


@router.post("/{code}/seats/{seat}", response_model=SeatTaken,
             status_code=status.HTTP_201_CREATED, operation_id="take_seat",
             responses=_answers(201, 404, 409, 422, 503))
async def take_seat(code: Code, seat: SeatNo, req: SeatIn, tables: Tables) -> SeatTaken:
    """Sits down at a free seat in the lobby; the answer holds the seat's token."""
    return await tables.sit(code, seat, req.name)


@router.delete("/{code}/seats/{seat}", response_model=TableView, operation_id="leave_seat",
               responses=_answers(200, 403, 404, 409, 422, 503))
async def leave_seat(code: Code, seat: SeatNo, tables: Tables,
                     authorization: Authorization = None) -> TableView:
    """Stands up from the seat (its own token, lobby only; the host stays)."""
    return await tables.leave(code, seat, bearer(authorization))


@router.post("/{code}/start", response_model=TableView, operation_id="start_table",
             responses=_answers(200, 403, 404, 409, 422, 503))
async def start_table(code: Code, req: VersionIn, tables: Tables,
                      authorization: Authorization = None) -> TableView:
    """The host starts the match; free seats become computers."""
    return await tables.start(code, req.version, bearer(authorization))


@router.post("/{code}/moves", response_model=TableView, operation_id="play_table_move",
             responses=_answers(200, 403, 404, 409, 422, 503))
async def play_table_move(code: Code, req: TableMoveIn, tables: Tables,
                          authorization: Authorization = None) -> TableView:
    """The token's seat plays ``card`` taking ``capture``."""
    return await tables.move(code, req, bearer(authorization))


@router.post("/{code}/next-round", response_model=TableView, operation_id="table_next_round",
             responses=_answers(200, 403, 404, 409, 422, 503))
async def table_next_round(code: Code, req: VersionIn, tables: Tables,
                           authorization: Authorization = None) -> TableView:
    """Any seated person deals the next round after the summary."""
    return await tables.next_round(code, req.version, bearer(authorization))


@router.post("/{code}/seats/{seat}/computer", response_model=TableView,
             operation_id="seat_to_computer",
             responses=_answers(200, 403, 404, 409, 422, 503))
async def seat_to_computer(code: Code, seat: SeatNo, req: VersionIn, tables: Tables,
                           authorization: Authorization = None) -> TableView:
    """The host hands a person's seat to the computer from now on (the person loses it)."""
    return await tables.to_computer(code, seat, req.version, bearer(authorization))


@router.post("/{code}/seats/{seat}/open", response_model=TableView, operation_id="open_seat",
             responses=_answers(200, 403, 404, 409, 422, 503))
async def open_seat(code: Code, seat: SeatNo, req: VersionIn, tables: Tables,
                    authorization: Authorization = None) -> TableView:
    """In the lobby, the host opens a seat held by the computer to people again."""
    return await tables.open_seat(code, seat, req.version, bearer(authorization))


@router.post("/{code}/rematch", response_model=TableView, operation_id="rematch",
             responses=_answers(200, 403, 404, 409, 422, 503))
async def rematch(code: Code, req: VersionIn, tables: Tables,
                  authorization: Authorization = None) -> TableView:
    """The host starts a new match with the same seats once the match is over."""
    return await tables.rematch(code, req.version, bearer(authorization))


@router.post("/{code}/back", response_model=TableView, operation_id="back_at_table",
             responses=_answers(200, 403, 404, 503))
async def back_at_table(code: Code, tables: Tables,
                        authorization: Authorization = None) -> TableView:
    """The away person is back: the computer stops playing their cards."""
    return await tables.back(code, bearer(authorization))


#: One event of a table's stream, as the OpenAPI document describes it.
EVENT_SCHEMA = event_schema("table", "TableView")


@router.get("/{code}/events", operation_id="table_events", response_class=EventStream,
            responses={200: {"description": "one event per version, for the caller's seat",
                             "content": {"text/event-stream": {"schema": EVENT_SCHEMA}}},
                       **json_errors(400, 403, 404, 413, 422, 503)})
async def events(request: Request, code: Code, tables: Tables,
                 authorization: Authorization = None,
                 last_event_id: Annotated[str | None, Header()] = None,
                 after: Annotated[str, Query(pattern=r"^[0-9]{0,18}$")] = "") -> EventStream:
    """Server-sent events: the table for this viewer at every new version (the first one at
    once when newer than ``Last-Event-ID``/``after``), a ``: ping`` comment every 15 s. The
    server ends a stream after a while (settings ``events_max_seconds``); the client
    reconnects with ``Last-Event-ID`` and misses nothing."""
    token = bearer(authorization)
    rec, table = await tables.load(code)
    seat = seat_of_token(table, token)
    if head_only(request):
        return headers_only()  # a HEAD (a monitor, curl -I) is no viewer: nobody comes online
    presence: Presence = request.app.state.presence
    max_seconds: float = request.app.state.settings.events_max_seconds
    seen = resume_from(last_event_id, after)
    if seen > rec.version:
        # A version the table never had (a stale browser after a restore, or a made-up one) is
        # no version seen: the viewer gets the table now, and the push seam never takes a
        # client's number for the newest it knows (that would silence the table's news).
        seen = -1
    # A viewer is reason enough to drive the table here (after a restart, the first stream
    # that comes back is what gets the computers playing again).
    tables.on_change(rec.id)
    leave = await presence.enter(rec.id, seat)
    stream = table_events(tables, presence, rec.id, seat, token, seen, max_seconds)
    return EventStream(stream, headers=STREAM_HEADERS, on_close=leave)
