"""Command line: ``python -m scopone serve [--host H] [--port P] [--db PATH]``."""

from __future__ import annotations

import argparse
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopone", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="start the game server (uvicorn)")
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default 8000)")
    serve.add_argument("--db", type=Path, help="SQLite file (default ./data/scopone.sqlite3)")
    serve.add_argument("--time-budget", type=float, dest="ai_time_budget",
                       help="seconds Hard may think per card (default 1.0)")
    args = parser.parse_args(argv)

    # Imported here so worker processes that re-import this module stay light.
    import uvicorn

    from .web import Settings, create_app

    settings = Settings.from_env(host=args.host, port=args.port, db_path=args.db,
                                 ai_time_budget=args.ai_time_budget)
    print(f"Scopone: http://{settings.host}:{settings.port}/  (games in {settings.db_path})",
          flush=True)
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port,
                log_level="warning", access_log=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
