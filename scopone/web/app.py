"""``create_app(settings)``: the API, the page, the static files and the middleware together."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response

from . import accesslog, openapi, ops, pages
from . import errors as e
from .coach import CoachService
from .driver import Driver
from .events import Presence
from .head import HeadAsGet
from .metrics import MetricsMiddleware, ProcessesHeard, RequestMetrics
from .pages_tables import page_router
from .push import Hub
from .route_table import RouteTable
from .routes import router
from .routes_coach import games as coach_games
from .routes_coach import pages as coach_pages
from .routes_coach import people as coach_people
from .routes_coach_tables import router as coach_tables
from .routes_tables import router as tables_router
from .security import BodyLimit, SecurityHeaders
from .service import GameService
from .settings import Settings
from .shutdown import on_stop_signal
from .solo import SoloDriver
from .store import ObservedStore, Store, log_failure, open_store
from .table import Timing
from .tables import TableService
from .thinker import Thinker
from .wallclock import ClockSteps

STATIC_URL = pages.STATIC_URL

log = logging.getLogger(__name__)


def _sweep_once(store: Store, settings: Settings) -> None:
    """Removes finished and abandoned games (settings ``*_hours``; 0 keeps them), and the
    people untouched as long as an abandoned game who never finished a round."""
    now = time.time()
    forever = 1e18
    finished = now - settings.finished_hours * 3600 if settings.finished_hours else -forever
    idle = now - settings.idle_hours * 3600 if settings.idle_hours else -forever
    try:
        removed = store.remove_old(finished, idle)
    except Exception as exc:  # the database is away for a moment: next time
        log_failure(log, "sweeping old games failed", exc)
        return
    if removed:
        log.info("removed %d old games", removed)
    try:
        gone = store.remove_idle_people(idle)
    except Exception as exc:
        log_failure(log, "sweeping idle people failed", exc)
        return
    if gone:
        log.info("removed %d people who never finished a round", gone)


async def _sweep(store: Store, settings: Settings) -> None:
    """Sweeps every ``sweep_seconds`` while the server runs (it has swept once before
    serving); never again with 0."""
    while settings.sweep_seconds > 0:
        await asyncio.sleep(settings.sweep_seconds)
        # Off the loop: deleting many old games is the store's longest statement.
        await asyncio.to_thread(_sweep_once, store, settings)


def _is_card_error(loc: list[object]) -> bool:
    """Whether a validation error's location is one card code: ``card`` or a ``capture`` entry.

    >>> _is_card_error(["body", "capture", 2]), _is_card_error(["body", "capture"])
    (True, False)
    """
    return loc[1:] == ["card"] or (len(loc) == 3 and loc[1] == "capture"
                                   and isinstance(loc[2], int))


def _heard(app: FastAPI) -> dict[str, float] | None:
    """The heartbeats as this process last read them; None before it runs."""
    tables = getattr(app.state, "tables", None)
    return None if tables is None else tables.liveness.heard()


def create_app(settings: Settings | None = None) -> FastAPI:
    """The whole web app; ``settings`` default to the environment's."""
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Observed: the drivers give a turn the database's outage touched its time again.
        store = ObservedStore(open_store(settings.store_url))
        hub = Hub()
        hub.bind(asyncio.get_running_loop())
        store.listen(hub.publish_threadsafe, hub.watched)
        thinker = Thinker(settings.ai_time_budget, settings.ai_processes, settings.hard_workers)
        thinker.start()
        app.state.service = GameService(store, thinker, hub)
        await app.state.service.db.open()  # PostgreSQL's calls that would wait: this loop's
        timing = Timing(settings.table_pace, settings.table_reconnect_seconds)
        app.state.tables = tables = TableService(app.state.service, timing,
                                                 settings.process_stale_seconds)
        # Another process takes a table over only when its driver has been silent this long.
        driver = Driver(tables, timing.pace, takeover=2.0 + settings.ai_time_budget,
                        reconnect=timing.reconnect, away_at=lambda: store.away_at,
                        stepped_at=ClockSteps().look)
        app.state.presence = presence = Presence(tables, driver.owner)
        driver.streams = presence.streams
        tables.on_change = driver.kick
        tables.liveness.on_gone = driver.look_again
        tables.liveness.on_back = presence.tell_again
        tables.liveness.start()
        app.state.driver = driver
        app.state.solo = solo = SoloDriver(app.state.service, {
            "normal": settings.table_pace, "fast": settings.fast_pace})
        app.state.coach = CoachService(app.state.service, settings.coach_seconds,
                                       settings.ai_processes)
        _sweep_once(store, settings)
        sweeper = asyncio.create_task(_sweep(store, settings))
        try:
            with on_stop_signal(asyncio.get_running_loop(), hub.close):
                yield
        finally:
            sweeper.cancel()
            await presence.close()
            await tables.liveness.close()
            driver.close()
            solo.close()
            app.state.coach.close()
            thinker.close()
            await app.state.service.db.close()
            store.close()

    # No /docs pages: they load scripts from a CDN, which our CSP (rightly) forbids.
    app = FastAPI(title="Scopone Scientifico", version="0.1.0", lifespan=lifespan,
                  docs_url=None, redoc_url=None)
    app.state.settings = settings
    app.state.metrics = RequestMetrics()
    app.state.metrics.read_at_scrape(ProcessesHeard(lambda: _heard(app),
                                                    settings.process_stale_seconds))
    routes = RouteTable(app)
    accesslog.install(routes)  # no invite code or game id in an access log line
    app.include_router(router)
    app.include_router(tables_router)
    app.include_router(coach_games)
    app.include_router(coach_people)
    app.include_router(coach_tables)  # the coach at tables with friends, by code and token
    app.include_router(coach_pages)
    app.include_router(ops.router)
    app.include_router(pages.router)  # the HTML: game, rule pages, manifest
    openapi.install(app)
    # The scripts and styles compressed (a first visit on a phone: about a third of the bytes);
    # only the static files, so no answer of the API or event stream is ever held back to be
    # compressed.
    app.mount(STATIC_URL, GZipMiddleware(StaticFiles(directory=settings.static_dir,
                                                     check_dir=False), minimum_size=1024),
              name="static")
    # One template environment for the game, rule and table pages.
    app.state.page_templates = Jinja2Templates(directory=settings.templates_dir)
    app.include_router(page_router(app.state.page_templates))

    @app.exception_handler(e.GameError)
    async def game_error(request: Request, exc: e.GameError) -> JSONResponse:
        body: dict[str, object] = {"detail": exc.detail}
        if exc.game is not None:
            body["game"] = jsonable_encoder(exc.game)
        if exc.table is not None:
            body["table"] = jsonable_encoder(exc.table)
        return JSONResponse(body, status_code=exc.status,
                            headers=e.RETRY_AFTER if exc.status == 503
                            else e.BEARER if exc.status == 401 else None)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        # A stable string detail like every other error; the particulars go alongside.
        locs = [list(err.get("loc", ())) for err in exc.errors()]
        errs = [{"loc": loc, "msg": str(err.get("msg", "")), "type": str(err.get("type", ""))}
                for loc, err in zip(locs, exc.errors(), strict=True)]
        detail = e.INVALID_CARD if locs and all(map(_is_card_error, locs)) else e.INVALID_REQUEST
        if locs and all(loc[1:] == ["name"] for loc in locs):
            detail = e.INVALID_NAME  # a person's name at a table: the lobby says so
            for err in errs:
                if err["type"] == "string_pattern_mismatch":
                    err["msg"] = e.NAME_RULE
        return JSONResponse({"detail": detail, "errors": errs}, status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 400:
            # FastAPI's "error parsing the body" (bytes that are not text, say): a body that is
            # not JSON, malformed like any other, not a bare 400.
            return JSONResponse({"detail": e.INVALID_REQUEST}, status_code=422)
        if exc.status_code == 405 and routes.methods(request.scope["path"]):
            # Every method of the path, not only those of the first route the router tried
            # (and HEAD wherever GET is: ``HeadAsGet``).
            allow = routes.methods(request.scope["path"])
            allow += ["HEAD"] if "GET" in allow else []
            exc = HTTPException(405, exc.detail, headers={"Allow": ", ".join(allow)})
        if exc.status_code == 404 and _wants_page(request):
            return pages.not_found(request)
        return await http_exception_handler(request, exc)  # 404 and 405 from the router

    # Outermost last. Innermost: HEAD served as GET (the outer layers still see HEAD).
    app.add_middleware(HeadAsGet)
    # The headers wrap everything, the 413 included.
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    # Outside even the headers, so every answer is counted, the 413s and 500s included.
    app.add_middleware(MetricsMiddleware, metrics=app.state.metrics, routes=routes)
    return app


def _wants_page(request: Request) -> bool:
    """A browser come to an address (it asks for HTML first), not a script or the API's client:
    those get the API's JSON 404."""
    path = request.scope["path"]
    if path.startswith(("/api/", STATIC_URL + "/")):
        return False
    return "text/html" in request.headers.get("accept", "")


def app_from_env() -> FastAPI:
    """The app from ``SCOPONE_*`` variables: what each worker process of ``serve --workers N``
    builds (uvicorn imports it by name)."""
    return create_app(Settings.from_env())
