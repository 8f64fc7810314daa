"""Access logs without secrets: uvicorn's access log names the raw path (invite codes, game ids:
capabilities both) and the query; this filter puts the route's template in its place, e.g.
``/api/tables/{code}/moves``. Seat tokens travel only in a header, which no log line prints."""

from __future__ import annotations

import logging
import re
from urllib.parse import urlsplit

from .route_table import RouteTable

ACCESS_LOGGER = "uvicorn.access"

_SECRET_SEGMENT = re.compile(r"^/(api/tables|api/games|t)/[^/?]+")
_NAMES = {"api/tables": "{code}", "api/games": "{game_id}", "t": "{code}"}


def redact_path(path: str) -> str:
    """A path fit for any log line: the code or game id in it replaced by its name.

    >>> redact_path("/api/tables/Secret123abc/moves"), redact_path("/api/games/x")
    ('/api/tables/{code}/moves', '/api/games/{game_id}')
    """
    return _SECRET_SEGMENT.sub(lambda m: f"/{m.group(1)}/{_NAMES[m.group(1)]}", path)


class RouteTemplates(logging.Filter):
    """Rewrites the path argument of uvicorn's access records to its route template."""

    def __init__(self, routes: RouteTable) -> None:
        super().__init__()
        self.routes = routes

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        # uvicorn: '%s - "%s %s HTTP/%s" %d' % (client, method, path?query, version, status)
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            path = urlsplit(args[2]).path
            scope = {"type": "http", "path": path, "method": str(args[1]), "root_path": ""}
            template = self.routes.template(scope)
            if path.startswith("/static/") or path in ("/", "/openapi.json"):
                template = path  # nothing secret in them, and the file names help
            record.args = (args[0], args[1], template, args[3], args[4])
        return True


def install(routes: RouteTable) -> None:
    """Puts the filter on uvicorn's access logger (replacing one an earlier app put there)."""
    logger = logging.getLogger(ACCESS_LOGGER)
    for old in [f for f in logger.filters if isinstance(f, RouteTemplates)]:
        logger.removeFilter(old)
    logger.addFilter(RouteTemplates(routes))
