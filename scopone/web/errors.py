"""What can go wrong with a request, as data: a status code and a short stable ``detail``."""

from __future__ import annotations

from typing import Any

from .schemas import ErrorOut, GameView


class GameError(Exception):
    """A request the service refuses; ``detail`` is stable, tests and the page rely on it."""

    status = 400

    def __init__(self, detail: str, game: GameView | None = None,
                 table: Any = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.game = game
        self.table = table  # a TableView for the viewer, on a 409 at a table


class NotFound(GameError):
    status = 404


class Conflict(GameError):
    """Well-formed but not allowed now (stale version, out of turn, round over...): 409, with
    the current view so the page can catch up."""

    status = 409


class Unauthorized(GameError):
    """An operator's endpoint asked without its token (``/metrics`` where one is set): 401."""

    status = 401


class Forbidden(GameError):
    """A seat token that is missing, wrong, or not allowed this (a non-host starting): 403."""

    status = 403


class Malformed(GameError):
    """Input that can never be right, such as a card code that is not in the deck: 422."""

    status = 422


#: Each stable message with the status it comes with: the OpenAPI document lists them under
#: that status (``documented``), so a client can tell one refusal from another without reading
#: this module (QA helper-57: ``detail`` read as a free string).
MESSAGES: dict[str, int] = {}


def _stable(text: str, status: int) -> str:
    MESSAGES[text] = status
    return text


# The stable messages, in one place.
GAME_NOT_FOUND = _stable("game not found", 404)
STALE_VERSION = _stable("stale version", 409)
NOT_YOUR_TURN = _stable("not your turn", 409)
NOT_COMPUTER_TURN = _stable("not a computer's turn", 409)
ILLEGAL_MOVE = _stable("illegal move", 409)
ROUND_OVER = _stable("round is over", 409)
ROUND_NOT_OVER = _stable("round is not over", 409)
MATCH_OVER = _stable("match is over", 409)
INVALID_CARD = _stable("invalid card", 422)
INVALID_MOVE = _stable("invalid move", 422)
INVALID_REQUEST = _stable("invalid request", 422)
BODY_TOO_LARGE = _stable("request body too large", 413)
BAD_CONTENT_LENGTH = _stable("bad content-length", 400)
COMPUTER_FAILED = _stable("computer player failed", 503)
DATABASE_UNAVAILABLE = _stable("database unavailable", 503)
COACH_BUSY = _stable("coach busy", 503)
# Tables with friends (scopone.web.tables).
TABLE_NOT_FOUND = _stable("table not found", 404)
TOKEN_REQUIRED = _stable("seat token required", 403)
WRONG_TOKEN = _stable("wrong seat token", 403)
NOT_HOST = _stable("only the host can do this", 403)
HINTS_OFF = _stable("hints are off at this table", 403)
SEAT_TAKEN = _stable("seat taken", 409)
TABLE_FULL = _stable("table is full", 409)
TABLE_PLAYING = _stable("table is already playing", 409)
TABLE_NOT_PLAYING = _stable("table is not playing", 409)
NOT_IN_LOBBY = _stable("table has left the lobby", 409)
NOT_A_PERSON = _stable("seat is not held by a person", 409)
NOT_A_COMPUTER = _stable("seat is not held by the computer", 409)
HOST_SEAT = _stable("the host keeps their seat", 409)
INVALID_NAME = _stable("invalid name", 422)
# What a refused name's error says in place of the schema's pattern (a page of invisible
# characters nobody can read).
NAME_RULE = ("a name has 1 to 20 characters once trimmed, none of them a control character, "
             "and is not blank")
# The coach (scopone.web.coach).
ROUND_NOT_FOUND = _stable("round not found", 404)
MATCH_NOT_FOUND = _stable("match not found", 404)
PERSON_NOT_FOUND = _stable("person not found", 404)
NO_REVIEW = _stable("review unavailable", 503)
# The operator's endpoints (scopone.web.ops).
METRICS_TOKEN_REQUIRED = _stable("metrics token required", 401)

# What each error status means, for the OpenAPI document; every body is an ``ErrorOut``.
_MEANING = {
    400: "unreadable request framing (a Content-Length that is not a number; `scopone serve`'s "
         "HTTP server refuses most such requests itself, before the app: a 400 in plain text, "
         "not JSON)",
    401: "the operator's token is missing or wrong (`/metrics` where `SCOPONE_METRICS_TOKEN` "
         "is set); the answer's `WWW-Authenticate` says how to give it",
    403: "a seat token is missing or wrong, or the seat may not do this (not the host; "
         "a hint where the host allowed none)",
    404: "what the request names is not there (a game, a table, a round, a match, a person)",
    409: "well-formed but not allowed now (stale version, out of turn, illegal move...); "
         "carries the current game",
    413: "request body over the limit",
    422: "malformed request: not JSON, or not what the schema allows",
    503: "the server could not do its part; nothing changed",
}


#: What every route that reads the database may answer, whatever it does: 400 and 413 from the
#: request's framing (``security.BodyLimit``), 503 when the database cannot be reached (PostgreSQL
#: down or restarting: ``security.SecurityHeaders``).
EVERY_ROUTE = (400, 413, 503)


#: Seconds a 503 asks the client to wait before it tries again (``Retry-After``): the database
#: is asked every half second whether it is back (``store.ObservedStore``), a busy coach frees
#: its workers in about a second, so a client's first retry finds the answer that has changed.
RETRY_AFTER_SECONDS = 2

#: The header every 503 carries, as the ASGI layer and Starlette's responses take it.
RETRY_AFTER = {"Retry-After": str(RETRY_AFTER_SECONDS)}

#: The header every 401 carries (RFC 6750): the token goes in ``Authorization: Bearer``.
BEARER = {"WWW-Authenticate": 'Bearer realm="scopone"'}

_RETRY_AFTER_DOC = {"Retry-After": {
    "description": "seconds to wait before trying again", "schema": {"type": "integer"}}}


_BEARER_DOC = {"WWW-Authenticate": {
    "description": "how to give the token: `Bearer`", "schema": {"type": "string"}}}


def _described(status: int) -> str:
    """What ``status`` means, and the ``detail`` messages it may carry (on any route).

    >>> _described(413)
    'request body over the limit. `detail`: "request body too large"'
    """
    texts = ", ".join(f'"{m}"' for m, s in MESSAGES.items() if s == status)
    return f"{_MEANING[status]}. `detail`: {'one of ' if ',' in texts else ''}{texts}"


def documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` entries for these error statuses (a 503 with its
    ``Retry-After``).

    >>> sorted(documented(404, 422))
    [404, 422]
    >>> list(documented(503)[503]["headers"])
    ['Retry-After']
    """
    out: dict[int | str, dict[str, Any]] = {}
    for s in statuses:
        out[s] = {"model": ErrorOut, "description": _described(s)}
        if s == 503:
            out[s]["headers"] = _RETRY_AFTER_DOC
        if s == 401:
            out[s]["headers"] = _BEARER_DOC
    return out


def json_errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``documented`` for a route whose success is not JSON (an event stream): its errors
    still are (FastAPI would give them the route's media type)."""
    return {status: {**{k: v for k, v in entry.items() if k != "model"},
                     "content": {"application/json": {
                         "schema": {"$ref": "#/components/schemas/ErrorOut"}}}}
            for status, entry in documented(*statuses).items()}


class Unavailable(GameError):
    """The server could not do its own part (a computer player crashed): 503, nothing changed."""

    status = 503
