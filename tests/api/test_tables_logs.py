"""Access log lines name route templates: no invite code, no game id, no query string."""

from __future__ import annotations

import logging

from scopone.web import Settings, create_app
from scopone.web.accesslog import ACCESS_LOGGER, RouteTemplates
from scopone.web.route_table import RouteTable


def _line(path: str, method: str = "GET") -> str:
    app = create_app(Settings())
    record = logging.LogRecord(ACCESS_LOGGER, logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5000", method, path, "1.1", 200), None)
    assert RouteTemplates(RouteTable(app)).filter(record)
    return record.getMessage()


def test_codes_and_ids_become_their_route_templates() -> None:
    assert _line("/api/tables/Secret123abc/events?after=3") == (
        '127.0.0.1:5000 - "GET /api/tables/{code}/events HTTP/1.1" 200')
    assert "Secret" not in _line("/api/tables/Secret123abc/seats/2", "POST")
    assert "/api/games/{game_id}/moves" in _line("/api/games/SecretGameId/moves", "POST")
    assert "/t/{code}" in _line("/t/Secret123abc") or "(unmatched)" in _line("/t/Secret123abc")
    assert "Secret" not in _line("/nowhere/Secret123abc?token=Secret")
    assert "/static/js/main.js" in _line("/static/js/main.js")


def test_the_app_puts_the_filter_on_uvicorns_access_logger_once() -> None:
    create_app(Settings())
    create_app(Settings())
    filters = logging.getLogger(ACCESS_LOGGER).filters
    assert sum(isinstance(f, RouteTemplates) for f in filters) == 1
