"""Request metrics in the Prometheus format: a count and a latency histogram per route.

Labels are the route's template (``/api/games/{game_id}``), never the raw path, so game ids
never become label values. With several server processes, set ``PROMETHEUS_MULTIPROC_DIR`` to
an empty directory shared by them before they start: each process then writes its figures there
and ``/metrics`` adds up every process's (prometheus_client's multiprocess mode).
"""

from __future__ import annotations

import os
import time

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.multiprocess import MultiProcessCollector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .route_table import RouteTable

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
# Any other method a client invents is counted as "other", for the same reason.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# From a fast GET to Hard thinking its full budget (1 s by default) and a little more.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.5, 5.0,
                   10.0)


class RequestMetrics:
    """The counters one app keeps. Each app has its own registry (tests build many apps in one
    process); in multiprocess mode the figures live in the shared directory instead."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        labels = ("method", "route", "status")
        self.requests = Counter("scopone_http_requests", "HTTP requests answered",
                                labels, registry=self.registry)
        self.latency = Histogram("scopone_http_request_duration_seconds",
                                 "Time from a request's arrival to the end of its answer",
                                 labels, buckets=LATENCY_BUCKETS, registry=self.registry)

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        key = (method, route, str(status))
        self.requests.labels(*key).inc()
        self.latency.labels(*key).observe(seconds)

    def exposition(self) -> tuple[bytes, str]:
        """The text ``/metrics`` serves, and its content type."""
        if os.environ.get(MULTIPROC_ENV):
            # Every process's figures, read from the shared directory at each scrape.
            registry = CollectorRegistry()
            MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
            return generate_latest(registry), CONTENT_TYPE_LATEST
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


class MetricsMiddleware:
    """Times every HTTP request from its arrival to the last byte of its answer. It sits outside
    the other middleware, so answers they give (413, a 500) are counted too.

    A request is counted just before its last byte goes out, not after: a client that has its
    answer then always finds it in ``/metrics`` (two workers raced eight moves and a test read
    six of the seven refusals)."""

    def __init__(self, app: ASGIApp, metrics: RequestMetrics, routes: RouteTable) -> None:
        self.app = app
        self.metrics = metrics
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        # Before the app runs: mounts rewrite the scope's paths on their way in.
        route = self.routes.template(scope)
        method = scope["method"] if scope["method"] in METHODS else "other"
        status = 500  # if the app fails before answering, the server answers 500
        counted = False

        def count() -> None:
            nonlocal counted
            counted = True
            # The router names the route it chose (one hidden from the document included).
            chosen = getattr(scope.get("route"), "path_format", None)
            self.metrics.observe(method, chosen or route, status, time.perf_counter() - start)

        async def send_timed(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                count()
            await send(message)

        try:
            await self.app(scope, receive, send_timed)
        finally:
            if not counted:
                count()
