"""Command line: ``python -m scopone serve [--host H] [--port P] [--db PATH] [--workers N]``."""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path


def _share_metrics() -> None:
    """Several workers behind one port: each writes its request metrics to one shared folder so
    that ``/metrics``, whichever worker answers it, adds up all of them. An operator's own
    ``PROMETHEUS_MULTIPROC_DIR`` is used as given; otherwise a fresh folder, removed at exit."""
    from .web.metrics import MULTIPROC_ENV

    if os.environ.get(MULTIPROC_ENV):
        return
    folder = tempfile.mkdtemp(prefix="scopone-metrics-")
    os.environ[MULTIPROC_ENV] = folder
    atexit.register(shutil.rmtree, folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    from .players import TIME_BUDGET

    parser = argparse.ArgumentParser(prog="python -m scopone", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="start the game server (uvicorn)")
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default 8000)")
    serve.add_argument("--db", type=Path, help="SQLite file (default ./data/scopone.sqlite3)")
    serve.add_argument("--database-url", dest="database_url",
                       help="postgresql://... to keep the games in PostgreSQL instead")
    serve.add_argument("--workers", type=int,
                       help="server processes sharing the port and the database (default 1)")
    serve.add_argument("--time-budget", type=float, dest="ai_time_budget",
                       help=f"seconds Hard may think per card (default {TIME_BUDGET})")
    serve.add_argument("--access-log", action="store_true", dest="access_log",
                       help="log every request (route templates only: no codes, no ids)")
    args = parser.parse_args(argv)

    # Imported here so worker processes that re-import this module stay light.
    import uvicorn

    from .web import Settings
    from .web.logs import log_config
    from .web.store import open_store, unavailable

    settings = Settings.from_env(host=args.host, port=args.port, db_path=args.db,
                                 database_url=args.database_url, workers=args.workers,
                                 ai_time_budget=args.ai_time_budget)
    # Made or upgraded once here, before any worker starts, so a bad URL fails loudly.
    try:
        open_store(settings.store_url).close()
    except Exception as exc:
        if not unavailable(exc):
            raise
        # Unreachable is not a bug: one line that says where, without a traceback (nor the
        # URL's password).
        print(f"Scopone: cannot reach the database ({_where(settings.store_url)}): {exc}",
              file=sys.stderr, flush=True)
        return 1
    where = "PostgreSQL" if settings.database_url else f"games in {settings.db_path}"
    print(f"Scopone: http://{settings.host}:{settings.port}/  ({where}, "
          f"{settings.workers} process{'es' if settings.workers > 1 else ''}, Hard thinks in "
          f"{settings.hard_workers}{' each' if settings.workers > 1 else ''})", flush=True)
    # Every worker builds its app from the environment, so the settings travel through it.
    os.environ.update(settings.to_env())
    if settings.workers > 1:
        _share_metrics()
    uvicorn.run("scopone.web.app:app_from_env", factory=True, host=settings.host,
                port=settings.port, workers=settings.workers if settings.workers > 1 else None,
                log_level=None, access_log=args.access_log,
                log_config=log_config(everything=args.access_log))
    return 0


def _where(url: str) -> str:
    """A database URL without its user and password.

    >>> _where("postgresql://u:secret@db.example:5433/games?sslmode=require")
    'postgresql://db.example:5433/games'
    """
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if not parts.hostname:
        return url  # a SQLite path
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{parts.hostname}{port}{parts.path}"


if __name__ == "__main__":
    raise SystemExit(main())
