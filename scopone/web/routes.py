"""The JSON API under ``/api``: one router for the games resource."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Header, Query, Request, status

from .errors import EVERY_ROUTE, documented, json_errors
from .events import STREAM_HEADERS, EventStream, event_schema, headers_only, resume_from
from .head import head_only
from .schemas import GameCreate, GamePatch, GameView, MoveIn, Speed, VersionIn
from .schemas_coach import PERSON_HEADER_PATTERN
from .service import GameService
from .solo import SoloDriver, solo_events


async def get_service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


Service = Annotated[GameService, Depends(get_service)]

# OpenAPI links: every answer that carries a game leads to the operations on that game, so
# tools (schemathesis's stateful phase among them) can follow a game from its creation on.
# A move link plays the first legal move; with none (not seat 0's turn) the link does not apply.
_THIS_GAME = {"game_id": "$response.body#/id"}
_AT_VERSION = {"version": "$response.body#/version"}
GAME_LINKS: dict[str, dict[str, Any]] = {
    "GetGame": {"operationId": "get_game", "parameters": _THIS_GAME},
    "PlayFirstLegalMove": {
        "operationId": "play_move", "parameters": _THIS_GAME,
        "requestBody": {**_AT_VERSION, "card": "$response.body#/legal/0/card",
                        "capture": "$response.body#/legal/0/capture"}},
    "Advance": {"operationId": "advance", "parameters": _THIS_GAME, "requestBody": _AT_VERSION},
    "NextRound": {"operationId": "next_round", "parameters": _THIS_GAME,
                  "requestBody": _AT_VERSION},
    "ChangeLevel": {"operationId": "change_level", "parameters": _THIS_GAME},
}


def _answers(success: int, *errors: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route: the success with its links, and every error it can give."""
    return {success: {"links": GAME_LINKS}, **documented(*errors)}


# 400 and 413 come from the body-limit middleware, in front of every route.
router = APIRouter(prefix="/api/games", tags=["games"], responses=documented(*EVERY_ROUTE))


@router.post("", response_model=GameView, status_code=status.HTTP_201_CREATED,
             operation_id="create_game", responses=_answers(201, 422))
async def create_game(
        service: Service, req: Annotated[GameCreate | None, Body()] = None,
        # A plain string (empty: nobody), so the schema holds no null a client could send.
        person: Annotated[str, Header(alias="X-Scopone-Person", pattern=PERSON_HEADER_PATTERN,
                                      description="the anonymous person's id, whose "
                                      "statistics this game's rounds count for")] = "",
) -> GameView:
    """A new match; seat 0 is the human, seats 1–3 the computer at ``level``."""
    return await service.create(req or GameCreate(), person or None)


@router.get("/{game_id}", response_model=GameView, operation_id="get_game",
            responses=_answers(200, 404))
async def get_game(game_id: str, service: Service) -> GameView:
    return await service.get(game_id)


@router.get("/{game_id}/events", operation_id="game_events", response_class=EventStream,
            responses={200: {"description": "one event per version of the game",
                             "content": {"text/event-stream": {
                                 "schema": event_schema("game", "GameView")}}},
                       **json_errors(400, 404, 413, 422, 503)})
async def game_events(request: Request, game_id: str, service: Service,
                      speed: Speed = "normal",
                      last_event_id: Annotated[str | None, Header()] = None,
                      after: Annotated[str, Query(pattern=r"^[0-9]{0,18}$")] = "") -> EventStream:
    """Server-sent events: the game as seat 0 sees it at every new version (the first one at
    once when newer than ``Last-Event-ID``/``after``), a ``: ping`` comment every 15 s. While
    a stream is open the server plays the computers' cards, one every ``speed``'s pace (SPEC
    §6: a game played alone is a table with one person); the server ends a stream after a
    while and the client reconnects with ``Last-Event-ID``, missing nothing."""
    view = await service.get(game_id)  # 404 for no such game (or a table's record)
    seen = resume_from(last_event_id, after)
    if seen > view.version:
        seen = -1  # a version the game never had: the page gets the game now
    if head_only(request):
        return headers_only()  # a HEAD is no page following the game: no computer plays
    driver: SoloDriver = request.app.state.solo
    max_seconds: float = request.app.state.settings.events_max_seconds
    stream = solo_events(service, driver, game_id, speed, seen, max_seconds)
    return EventStream(stream, headers=STREAM_HEADERS)


@router.post("/{game_id}/moves", response_model=GameView, operation_id="play_move",
             responses=_answers(200, 404, 409, 422))
async def play_move(game_id: str, req: MoveIn, service: Service) -> GameView:
    """Seat 0 plays ``card`` taking ``capture`` (table cards; empty to lay it down)."""
    return await service.play(game_id, req)


@router.post("/{game_id}/advance", response_model=GameView, operation_id="advance",
             responses=_answers(200, 404, 409, 422, 503))
async def advance(game_id: str, req: VersionIn, service: Service) -> GameView:
    """The computer seat to play decides and plays one card, at once (for tools: a page that
    follows the game's events has the server play them at its pace)."""
    return await service.advance(game_id, req.version)


@router.post("/{game_id}/next-round", response_model=GameView, operation_id="next_round",
             responses=_answers(200, 404, 409, 422))
async def next_round(game_id: str, req: VersionIn, service: Service) -> GameView:
    """Deals the next round once the finished one has been shown; the deal passes on."""
    return await service.next_round(game_id, req.version)


@router.patch("/{game_id}", response_model=GameView, operation_id="change_level",
              responses=_answers(200, 404, 409, 422))
async def change_level(game_id: str, req: GamePatch, service: Service) -> GameView:
    """Changes the level of the three computer seats from their next card on."""
    return await service.set_level(game_id, req.level)
