"""The JSON API under ``/api``: one router for the games resource."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends, Request, status

from .schemas import ErrorOut, GameCreate, GamePatch, GameView, MoveIn, VersionIn
from .service import GameService


async def get_service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


Service = Annotated[GameService, Depends(get_service)]

_ERRORS: dict[int | str, dict[str, object]] = {
    404: {"model": ErrorOut, "description": "unknown game"},
    409: {"model": ErrorOut, "description": "not allowed now; carries the current game"},
    422: {"model": ErrorOut, "description": "malformed request"},
}

router = APIRouter(prefix="/api/games", tags=["games"], responses=_ERRORS)


@router.post("", response_model=GameView, status_code=status.HTTP_201_CREATED)
async def create_game(service: Service,
                      req: Annotated[GameCreate | None, Body()] = None) -> GameView:
    """A new match; seat 0 is the human, seats 1–3 the computer at ``level``."""
    return service.create(req or GameCreate())


@router.get("/{game_id}", response_model=GameView)
async def get_game(game_id: str, service: Service) -> GameView:
    return service.get(game_id)


@router.post("/{game_id}/moves", response_model=GameView)
async def play_move(game_id: str, req: MoveIn, service: Service) -> GameView:
    """Seat 0 plays ``card`` taking ``capture`` (table cards; empty to lay it down)."""
    return await service.play(game_id, req)


@router.post("/{game_id}/advance", response_model=GameView)
async def advance(game_id: str, req: VersionIn, service: Service) -> GameView:
    """The computer seat to play decides and plays one card."""
    return await service.advance(game_id, req.version)


@router.post("/{game_id}/next-round", response_model=GameView)
async def next_round(game_id: str, req: VersionIn, service: Service) -> GameView:
    """Deals the next round once the finished one has been shown; the deal passes on."""
    return await service.next_round(game_id, req.version)


@router.patch("/{game_id}", response_model=GameView)
async def change_level(game_id: str, req: GamePatch, service: Service) -> GameView:
    """Changes the level of the three computer seats from their next card on."""
    return await service.set_level(game_id, req.level)
