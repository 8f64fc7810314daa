"""The service's settings, read once from ``SCOPONE_*`` environment variables."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..players import TIME_BUDGET

# The repository root, found from this file so the app works from any working directory.
REPO_ROOT = Path(__file__).resolve().parents[2]

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _bool(text: str) -> bool:
    low = text.strip().lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise ValueError(f"not a boolean: {text!r}")


#: The most Hard workers a server process starts by itself: each is a Python process of about
#: 53 MB at rest (37 MB its own; measured with two workers on this machine), more as its search
#: caches fill, so a 64-core machine would otherwise hold 3 GB of them per server process. More
#: cores are served by more server processes (``serve --workers N``) or ``SCOPONE_AI_WORKERS``.
HARD_WORKERS_MAX = 8


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, e.g. a container's cpuset), else
    all the machine's."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _check_public_url(url: str) -> None:
    """Refuse, at start, a public address the pages could not put in front of their paths: an
    http or https scheme and a host (and a port if wanted), nothing else.

    >>> _check_public_url("https://scopone.example/")
    >>> _check_public_url("https://scopone.example/play")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: SCOPONE_PUBLIC_URL must be ...: 'https://scopone.example/play' has a path
    """
    parts = urlsplit(url)
    try:
        _ = parts.port  # urlsplit checks the port only when asked for it
        port_problem = ""
    except ValueError as exc:
        port_problem = f"has a bad port ({exc})"
    problems = [
        (not url.isprintable() or any(c.isspace() for c in url), "has a blank or a control"),
        (parts.scheme not in ("http", "https"), "is not http or https"),
        (not parts.hostname, "has no host"),
        (parts.username is not None, "has a user name"),
        (bool(port_problem), port_problem),
        (parts.path not in ("", "/"), "has a path"),
        ("?" in url or "#" in url, "has a query or a fragment"),
    ]
    for wrong, problem in problems:
        if wrong:
            raise ValueError("SCOPONE_PUBLIC_URL must be http(s)://host[:port] with no path, "
                             f"query or fragment, as https://scopone.example: {url!r} {problem}")


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the service can be configured with; ``Settings.from_env()`` reads them.

    >>> Settings(port=8123).port, Settings().max_body_bytes
    (8123, 16384)
    """

    db_path: Path = Path("data/scopone.sqlite3")
    # A postgresql:// URL puts every game in PostgreSQL instead (several processes or machines
    # on one database); empty means the SQLite file at db_path.
    database_url: str = ""
    host: str = "127.0.0.1"
    port: int = 8000
    # Seconds Hard may think per card (players.TIME_BUDGET says what more or less buys).
    ai_time_budget: float = TIME_BUDGET
    # Computer decisions run in processes so CPU-bound thinking never holds this process's GIL;
    # False runs them in threads (tests use it to start faster).
    ai_processes: bool = True
    # Processes (or threads) for Hard's decisions; Easy and Normal decide in the request. 0:
    # as many as this process's share of the machine's cores (``hard_workers``).
    ai_workers: int = 0
    max_body_bytes: int = 16 * 1024
    # Seconds between two cards the server plays at a table with friends (SPEC §6: people
    # follow the computers' cards at about this pace).
    table_pace: float = 0.7
    # The same for a single-player game whose page asks for the "fast" speed (its "normal"
    # speed is ``table_pace``): the computers' cards of a game played alone (SPEC §6).
    fast_pace: float = 0.25
    # Seconds a person shown offline at a table (their page's connection closed and did not
    # come back within events.GONE_AFTER_SECONDS) has before the computer plays their card
    # (SPEC §6): a phone changing networks or waking up reconnects within it and plays on.
    table_reconnect_seconds: float = 10.0
    # A server process silent this long (no heartbeat in the database) is judged gone by the
    # others, on every machine: its tables are taken over and the people whose pages were
    # connected to it are shown offline (scopone.web.liveness). It beats six times as often.
    process_stale_seconds: float = 30.0
    # An event stream ends after this long and the browser reconnects (Last-Event-ID): no
    # connection outlives a proxy's timeout, and a process being replaced sheds its streams.
    events_max_seconds: float = 300.0
    # The coach's judgement of one position (hint, each play of a review): at most this many
    # seconds, and at most 200 imagined deals (players.evaluate.JUDGE_LIMITS).
    coach_seconds: float = 0.5
    workers: int = 1  # server processes (`serve --workers N`), each with its own thinkers
    # Finished matches are removed this many hours after their last change, any game after
    # idle_hours untouched (abandoned); 0 keeps them forever.
    finished_hours: float = 24.0
    idle_hours: float = 24.0 * 7
    # Seconds between two of those sweeps (each process sweeps once as it starts, then at this
    # period); 0: only at the start.
    sweep_seconds: float = 600.0
    static_dir: Path = field(default=REPO_ROOT / "static")
    templates_dir: Path = field(default=REPO_ROOT / "templates")
    # The site's own address, e.g. "https://scopone.example", for every absolute link the pages
    # print (canonical, hreflang alternates). Empty: each request's own address, right for a
    # game on one's own machine; but its Host header is whatever the client sent, and behind a
    # proxy or a shared cache one forged Host would be served to everyone: set it there.
    public_url: str = ""
    # A secret that GET /metrics then asks for (``Authorization: Bearer <token>``, 401 without
    # it): where the port is reachable by more than the operator's scraper. Empty: open, as a
    # service on one's own machine or behind a proxy that keeps /metrics inside needs.
    metrics_token: str = field(default="", repr=False)

    def __post_init__(self) -> None:
        if self.public_url:
            _check_public_url(self.public_url)

    @property
    def hard_workers(self) -> int:
        """Hard's workers in each server process: ``ai_workers`` when set, else the cores this
        machine lets the server use, shared among its ``workers`` processes (at least one, at
        most ``HARD_WORKERS_MAX``). A fixed two left most of a larger machine idle while Hard's
        cards queued for their share of two (``thinker.shared_budget``); more than the cores
        would only slice each second.

        >>> Settings(ai_workers=3).hard_workers
        3
        >>> Settings(workers=2).hard_workers == max(1, min(8, available_cores() // 2))
        True
        """
        if self.ai_workers:
            return self.ai_workers
        share = available_cores() // max(1, self.workers)
        return max(1, min(HARD_WORKERS_MAX, share))

    @property
    def store_url(self) -> str:
        """What ``open_store`` opens: the database URL, else the SQLite file."""
        return self.database_url or str(self.db_path)

    def to_env(self) -> dict[str, str]:
        """The settings as ``SCOPONE_*`` variables, for worker processes started by uvicorn.

        >>> Settings.from_env(Settings(port=8123, workers=2).to_env()).port
        8123
        """
        return {"SCOPONE_" + name.upper(): str(getattr(self, name))
                for name in self.__dataclass_fields__}

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from ``SCOPONE_DB_PATH``, ``SCOPONE_PORT`` and so on, then ``overrides``.

        >>> Settings.from_env({"SCOPONE_PORT": "8150", "SCOPONE_AI_PROCESSES": "no"}).port
        8150
        """
        env = os.environ if environ is None else environ
        casts: dict[str, Any] = {
            "db_path": Path, "database_url": str, "host": str, "port": int,
            "ai_time_budget": float, "ai_processes": _bool, "ai_workers": int,
            "max_body_bytes": int, "table_pace": float, "fast_pace": float,
            "table_reconnect_seconds": float, "process_stale_seconds": float,
            "events_max_seconds": float, "workers": int, "finished_hours": float,
            "idle_hours": float, "sweep_seconds": float, "coach_seconds": float,
            "static_dir": Path, "templates_dir": Path, "public_url": str,
            "metrics_token": str,
        }
        values: dict[str, Any] = {}
        for name, cast in casts.items():
            raw = env.get("SCOPONE_" + name.upper())
            if raw is not None and raw != "":
                values[name] = cast(raw)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return replace(cls(), **values)
