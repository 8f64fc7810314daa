"""The coach's routes (SPEC §7): hint, review and cards seen for the solo game's seat 0, and a
person's statistics. The work is in ``coach.CoachService``, written for any seat."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response, status
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from ..coach.stats import stats_summary
from . import errors as e
from .coach import CoachService
from .errors import EVERY_ROUTE, documented
from .schemas import ErrorOut, VersionIn
from .schemas_coach import PERSON_PATTERN, CardsSeenOut, HintOut, ReviewOut, StatsOut
from .texts import RULES_PATH, best_lang
from .views import HUMAN


async def get_coach(request: Request) -> CoachService:
    coach: CoachService = request.app.state.coach
    return coach


Coach = Annotated[CoachService, Depends(get_coach)]
PersonId = Annotated[str, Path(pattern=PERSON_PATTERN,
                               description="the anonymous person's id (browser-made, secret)")]
RoundNumber = Annotated[int, Path(ge=1, le=1000, description="1 for the match's first round")]

_UNKNOWN_PERSON: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": f'unknown person. `detail`: "{e.PERSON_NOT_FOUND}"'}}

games = APIRouter(prefix="/api/games", tags=["coach"], responses=documented(*EVERY_ROUTE))
people = APIRouter(prefix="/api/people", tags=["coach"], responses=documented(*EVERY_ROUTE))
pages = APIRouter()


async def _judged(work: Any) -> dict[str, Any]:
    """A judgement, or 503 when the evaluation itself failed (nothing is stored then)."""
    try:
        out: dict[str, Any] = await work
        return out
    except e.GameError:
        raise
    except Exception as exc:
        raise e.Unavailable(e.NO_REVIEW) from exc


@games.post("/{game_id}/hint", response_model=HintOut, operation_id="hint",
            responses=documented(404, 409, 422, 503))
async def hint(game_id: str, req: VersionIn, coach: Coach) -> dict[str, Any]:
    """The move Hard would make from seat 0's own view, with the best few margins. 409 when it
    is not seat 0's turn (or on an old version). Counted in the round's and the person's hints."""
    return await _judged(coach.hint(game_id, req.version, HUMAN))


@games.get("/{game_id}/rounds/{number}/review", response_model=ReviewOut,
           operation_id="review_round", responses=documented(404, 409, 422, 503))
async def review(game_id: str, number: RoundNumber, coach: Coach) -> dict[str, Any]:
    """Seat 0's plays of a finished round judged against the best; 409 while the round is still
    being played, 404 for a round the match has not reached. Computed once, then stored."""
    return await _judged(coach.review(game_id, number, HUMAN))


@games.post("/{game_id}/cards-seen", response_model=CardsSeenOut, operation_id="cards_seen",
            responses=documented(404, 503))
async def cards_seen(game_id: str, coach: Coach) -> dict[str, Any]:
    """Where each card is as far as seat 0 knows; opening it is counted like a hint."""
    return await coach.cards_seen(game_id, HUMAN)


@people.get("/{person_id}/stats", response_model=StatsOut, operation_id="person_stats",
            responses={**documented(422), **_UNKNOWN_PERSON})
async def person_stats(person_id: PersonId, coach: Coach) -> dict[str, Any]:
    """The person's statistics across matches (404 for an id no game was created with)."""
    return stats_summary((await coach.person(person_id)).data)


@people.delete("/{person_id}/stats", status_code=status.HTTP_204_NO_CONTENT,
               operation_id="clear_stats", responses={**documented(422), **_UNKNOWN_PERSON})
async def clear_stats(person_id: PersonId, coach: Coach) -> Response:
    """Clears the person's statistics; rounds played from now on count again, those of a
    match under way included."""
    await coach.clear(person_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@pages.get("/stats", response_class=HTMLResponse, include_in_schema=False)
async def stats_page(request: Request) -> HTMLResponse:
    templates = Jinja2Templates(directory=request.app.state.settings.templates_dir)
    # The browser's language until the page's script reads the one chosen in the game.
    lang = best_lang(request.headers.get("accept-language"))
    return templates.TemplateResponse(request, "stats.html", {
        "static": "/static", "lang": lang, "rules": RULES_PATH[lang]})
