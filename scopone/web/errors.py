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


class Forbidden(GameError):
    """A seat token that is missing, wrong, or not allowed this (a non-host starting): 403."""

    status = 403


class Malformed(GameError):
    """Input that can never be right, such as a card code that is not in the deck: 422."""

    status = 422


# The stable messages, in one place.
GAME_NOT_FOUND = "game not found"
STALE_VERSION = "stale version"
NOT_YOUR_TURN = "not your turn"
NOT_COMPUTER_TURN = "not a computer's turn"
ILLEGAL_MOVE = "illegal move"
ROUND_OVER = "round is over"
ROUND_NOT_OVER = "round is not over"
MATCH_OVER = "match is over"
INVALID_CARD = "invalid card"
INVALID_MOVE = "invalid move"
INVALID_REQUEST = "invalid request"
BODY_TOO_LARGE = "request body too large"
BAD_CONTENT_LENGTH = "bad content-length"
COMPUTER_FAILED = "computer player failed"
DATABASE_UNAVAILABLE = "database unavailable"
COACH_BUSY = "coach busy"
# Tables with friends (scopone.web.tables).
TABLE_NOT_FOUND = "table not found"
TOKEN_REQUIRED = "seat token required"
WRONG_TOKEN = "wrong seat token"
NOT_HOST = "only the host can do this"
HINTS_OFF = "hints are off at this table"
SEAT_TAKEN = "seat taken"
TABLE_FULL = "table is full"
TABLE_PLAYING = "table is already playing"
TABLE_NOT_PLAYING = "table is not playing"
NOT_IN_LOBBY = "table has left the lobby"
NOT_A_PERSON = "seat is not held by a person"
NOT_A_COMPUTER = "seat is not held by the computer"
HOST_SEAT = "the host keeps their seat"
INVALID_NAME = "invalid name"
# What a refused name's error says in place of the schema's pattern (a page of invisible
# characters nobody can read).
NAME_RULE = ("a name has 1 to 20 characters once trimmed, none of them a control character, "
             "and is not blank")
# The coach (scopone.web.coach).
ROUND_NOT_FOUND = "round not found"
MATCH_NOT_FOUND = "match not found"
PERSON_NOT_FOUND = "person not found"
NO_REVIEW = "review unavailable"

# What each error status means, for the OpenAPI document; every body is an ``ErrorOut``.
_MEANING = {
    400: "unreadable request framing (a Content-Length that is not a number)",
    403: "a seat token is missing or wrong, or the seat may not do this (not the host; "
         "a hint where the host allowed none)",
    404: "unknown game or table",
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

_RETRY_AFTER_DOC = {"Retry-After": {
    "description": "seconds to wait before trying again", "schema": {"type": "integer"}}}


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
        out[s] = {"model": ErrorOut, "description": _MEANING[s]}
        if s == 503:
            out[s]["headers"] = _RETRY_AFTER_DOC
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
