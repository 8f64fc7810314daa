"""Which route serves a path: its template (for metric labels) and its methods (for ``Allow``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from fastapi import FastAPI
from starlette.routing import BaseRoute, Match, compile_path
from starlette.types import Scope

UNMATCHED = "(unmatched)"  # any path no route serves, so junk paths add one label value only


class RouteTable:
    """Which path template serves a request, and which methods it allows, found without
    running the request.

    Answers given in front of the router (a 413) need the template too, and the router's own
    405 names only the first route of a path, so this matches the paths of the OpenAPI document
    and the app's top-level routes (the static mount, the document itself) on its own rather
    than relying on the router's internals.
    """

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self._documented: list[tuple[re.Pattern[str], str, list[str]]] | None = None

    def _find(self, path: str) -> tuple[str, list[str]] | None:
        if self._documented is None:  # first request: every route has been added by now
            self._documented = [(compile_path(p)[0], p, sorted(m.upper() for m in item))
                                for p, item in self.app.openapi()["paths"].items()]
        for regex, template, methods in self._documented:
            if regex.match(path):
                return template, methods
        return None

    def template(self, scope: Scope) -> str:
        """The template of the route serving ``scope``, ``UNMATCHED`` when none does."""
        found = self._find(scope["path"])
        return found[0] if found else route_template(self.app.router.routes, scope)

    def methods(self, path: str) -> list[str]:
        """The methods the OpenAPI document lists for ``path``; [] for a path it does not list."""
        found = self._find(path)
        return found[1] if found else []


def route_template(routes: Sequence[BaseRoute], scope: Scope) -> str:
    """The path template of the route among ``routes`` that serves ``scope``; a route that
    matches the path but not the method (405) counts too. ``UNMATCHED`` when none does.

    >>> from starlette.routing import Route
    >>> routes = [Route("/api/games/{game_id}", lambda r: None, methods=["GET"])]
    >>> scope = {"type": "http", "path": "/api/games/abc", "method": "PATCH", "root_path": ""}
    >>> route_template(routes, scope), route_template(routes, {**scope, "path": "/x"})
    ('/api/games/{game_id}', '(unmatched)')
    """
    partial = None
    for route in routes:
        match, _ = route.matches(scope)
        if match is Match.FULL:
            return str(getattr(route, "path", UNMATCHED))
        if match is Match.PARTIAL and partial is None:
            partial = str(getattr(route, "path", UNMATCHED))
    return partial or UNMATCHED
