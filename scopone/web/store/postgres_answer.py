"""PostgreSQL connections that wait for the server's answer only so long.

A server that hangs with its connections open (stopped by a signal, its storage stalled, a
line cut without a reset) still has its kernel acknowledge what is sent: neither the statement
timeout (the server's own) nor TCP's fire, and a call waited as long as the hang. Made on the
event loop, that held up every request, stream and table of the process (helper-54: ``/`` took
12 s in a 12 s freeze). Here each statement's wait has a deadline past the server's own
timeouts; past it the connection, whose state is then unknown, is closed (its pool makes
another) and the call fails with ``NoAnswer``.

What the server does with a statement it read before it hung is its own: it may still be done
once it runs again, while the call is made again (off the loop) or retried. Each write is done
at most once however often it is made (``postgres``: made again, the same write answers as
done; any other write based on the same copy is refused as stale).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import psycopg
from psycopg.abc import PQGen

#: A statement of the pools' connections: the statement timeout (10 s, ``postgres``) and a
#: second for its answer to come back.
ANSWER_SECONDS = 11.0
#: A statement of the event loop's connection: its statement timeout (100 ms) and a margin for
#: a busy machine (the loop's statements answer in about a millisecond). Past it the call is
#: made again off the loop (``WouldWait``), where a server that hangs holds up only its request.
AT_ONCE_ANSWER_SECONDS = 0.25
#: A ping's ``SELECT 1`` (``/healthz``, the probe that hears the database back): it answers in
#: a millisecond when all is well, so a load balancer hears of a hang in two seconds, not the
#: eleven a statement may take.
PING_ANSWER_SECONDS = 2.0

RV = TypeVar("RV")


class NoAnswer(psycopg.OperationalError):
    """The server did not answer a statement in time: taken to hang, as a server away is."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the database did not answer in {seconds:g} s")


class Answering(psycopg.Connection[Any]):
    """A connection whose every wait for the server ends by ``answer_seconds``."""

    answer_seconds = ANSWER_SECONDS

    def wait(self, gen: PQGen[RV], interval: float = 0.1,
             timeout: float | None = None) -> RV:
        seconds = self.answer_seconds if timeout is None else timeout
        try:
            return super().wait(gen, interval, seconds)
        except psycopg.errors._WaitTimeout:
            self.close()  # a statement in flight: the connection's state is unknown
            raise NoAnswer(seconds) from None


class LoopAnswering(Answering):
    """The event loop's connection (``PostgresStore.at_once``)."""

    answer_seconds = AT_ONCE_ANSWER_SECONDS


@contextmanager
def answering_within(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any],
                     seconds: float) -> Iterator[None]:
    """Inside, ``conn`` waits at most ``seconds`` for each answer (never longer than its own
    deadline); a connection of another class is left as it is."""
    if not isinstance(conn, (Answering, AsyncAnswering)):
        yield
        return
    own = conn.answer_seconds
    conn.answer_seconds = min(own, seconds)
    try:
        yield
    finally:
        conn.answer_seconds = own


class AsyncAnswering(psycopg.AsyncConnection[Any]):
    """As ``Answering``, for the async pool (``postgres_async``)."""

    answer_seconds = ANSWER_SECONDS

    async def wait(self, gen: PQGen[RV], interval: float = 0.1,
                   timeout: float | None = None) -> RV:
        seconds = self.answer_seconds if timeout is None else timeout
        try:
            return await super().wait(gen, interval, seconds)
        except psycopg.errors._WaitTimeout:
            await self.close()
            raise NoAnswer(seconds) from None
