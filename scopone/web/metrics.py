"""Request metrics in the Prometheus format: a count and a latency histogram per route.

Labels are the route's template (``/api/games/{game_id}``), never the raw path, so game ids
never become label values. With several server processes, set ``PROMETHEUS_MULTIPROC_DIR`` to
an empty directory shared by them before they start: each process then writes its figures there
and ``/metrics`` adds up every process's (prometheus_client's multiprocess mode).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector
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
        self._read_at_scrape: list[Collector] = []
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

    def read_at_scrape(self, collector: Collector) -> None:
        """Adds figures the answering process reads when scraped (in multiprocess mode too:
        what it reads is the same in every process, so it is not added up)."""
        self._read_at_scrape.append(collector)
        self.registry.register(collector)

    def exposition(self) -> tuple[bytes, str]:
        """The text ``/metrics`` serves, and its content type."""
        if os.environ.get(MULTIPROC_ENV):
            # Every process's figures, read from the shared directory at each scrape.
            registry = CollectorRegistry()
            MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
            for collector in self._read_at_scrape:
                registry.register(collector)
            return generate_latest(registry), CONTENT_TYPE_LATEST
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


class ProcessesHeard(Collector):
    """The server processes sharing the database, as the heartbeats tell them
    (``Liveness.heard``): each one's seconds since its last beat, and how many beat within the
    silence after which the others judge a process gone. An operator of several machines alerts
    on a process silent too long (a machine cut off, a frozen process) or on fewer processes
    heard than were started. Before the first heartbeat was read there is nothing to say."""

    def __init__(self, heard: Callable[[], dict[str, float] | None], stale: float) -> None:
        self.heard = heard
        self.stale = stale

    def collect(self) -> Iterator[Metric]:
        ages = self.heard()
        if ages is None:
            return
        age = GaugeMetricFamily(
            "scopone_process_heartbeat_age_seconds",
            "Seconds since each server process sharing the database last stored its heartbeat",
            labels=["process"])
        for name, seconds in sorted(ages.items()):
            age.add_metric([name], seconds)
        yield age
        yield GaugeMetricFamily(
            "scopone_processes_heard",
            f"Server processes whose heartbeat is at most {self.stale:g} s old (older ones are "
            "judged gone)", value=sum(1 for s in ages.values() if s <= self.stale))

    def describe(self) -> Iterator[Metric]:
        # Registering asks for the names; an empty answer spares a look at the heartbeats.
        return iter(())


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
