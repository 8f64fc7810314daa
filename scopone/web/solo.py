"""The server plays the computer seats of a game played alone while its page follows it.

SPEC §6: playing alone is a table with one person at seat 0, and computer seats are played by
the server at a pace people can follow, never by a browser. A page follows its game by an event
stream (``GET /api/games/{id}/events?speed=``, ``solo_events``); while one is open in this
process, this process plays the computers' cards, each ``pace`` seconds after the game's last
change (the pace of the page's speed setting; with two pages open, the quicker). Nobody
following, the computers wait: a game left alone is not played out in an empty room, and comes
back where it was. ``advance`` plays a computer's card at once for tools, whoever else drives
the game: the version rule settles a race (the loser's card is not stored).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import contextmanager

from . import errors as e
from .events import PING_SECONDS, swept, wait_while_away
from .push import Watch
from .service import GameService
from .store import log_failure
from .views import status_of

log = logging.getLogger(__name__)

#: How long the driver of a game sleeps when no computer is to play before it looks again.
IDLE_SECONDS = 30.0


class SoloDriver:
    def __init__(self, games: GameService, paces: Mapping[str, float]) -> None:
        self.games = games
        self.paces = paces  # seconds a card, by the page's speed setting
        # The paces of the streams this process has open, by game.
        self._following: dict[str, list[float]] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        # The version of each game whose change is stamped in the future (the server's clock
        # stepped back) for which the driver has already waited a pace: its card is due.
        self._paced: dict[str, int] = {}
        self._closed = False
        self.cards_played = 0

    @contextmanager
    def following(self, game_id: str, speed: str) -> Iterator[None]:
        """A page follows ``game_id`` at ``speed`` for as long as the block runs."""
        pace = self.paces[speed]
        paces = self._following.setdefault(game_id, [])
        paces.append(pace)
        self._start(game_id)
        try:
            yield
        finally:
            paces.remove(pace)
            if not paces:
                del self._following[game_id]

    def followed(self, game_id: str) -> bool:
        return game_id in self._following

    def close(self) -> None:
        self._closed = True
        for task in self._tasks.values():
            task.cancel()

    def _start(self, game_id: str) -> None:
        task = self._tasks.get(game_id)
        if not self._closed and (task is None or task.done()):
            self._tasks[game_id] = asyncio.get_running_loop().create_task(self._run(game_id))

    async def _run(self, game_id: str) -> None:
        try:
            async with self.games.hub.watch(game_id, -1) as watch:
                while game_id in self._following:
                    try:
                        if not await self._step(game_id, watch):
                            return
                    except Exception as exc:
                        log_failure(log, "the computer could not play a card of a game", exc)
                        await watch.changed(1.0)
        finally:
            self._tasks.pop(game_id, None)
            self._paced.pop(game_id, None)
        if game_id in self._following:
            self._start(game_id)  # a page came back just as the last one went

    async def _step(self, game_id: str, watch: Watch) -> bool:
        """Plays the computer's card when it is due, else waits for a change or for it to be
        due; False when the game is gone."""
        rec = await self.games.newest(game_id)
        if rec is None or rec.code is not None:
            return False
        if status_of(rec.match) != "computer_turn":
            await watch.changed(IDLE_SECONDS)
            return True
        pace = min(self._following.get(game_id, [0.0]))
        wait = rec.updated + pace - time.time()
        if wait > pace:
            # The change is stamped in the future: the server's clock stepped back. One pace
            # from now, not from the stamp, or the computers would wait, woken by nothing,
            # until the clock caught up with it.
            if self._paced.get(game_id) != rec.version:
                self._paced[game_id] = rec.version
                await watch.changed(pace)
                return True
        elif wait > 0:
            await watch.changed(wait)
            return True
        try:
            await self.games.advance(game_id, rec.version)
            self.cards_played += 1
        except e.Conflict:
            pass  # a card came first (another page's driver, a tool): look again
        return True


async def solo_events(games: GameService, driver: SoloDriver, game_id: str, speed: str,
                      after: int, max_seconds: float) -> AsyncIterator[bytes]:
    """The stream of a game's page: every version newer than ``after`` as seat 0 sees it
    (several quick versions may arrive as the newest: each event is the whole view), for
    ``max_seconds`` (then the client reconnects with Last-Event-ID); the computers play
    while it is open."""
    with driver.following(game_id, speed):
        async with games.hub.watch(game_id, after, stream=True) as watch:
            sent = after
            end = time.monotonic() + max_seconds
            newer = True  # the first look is at once, not at the next news
            while (left := end - time.monotonic()) > 0 and not watch.closed:
                if newer:
                    try:
                        rec = await games.newest(game_id)
                    except Exception as exc:
                        yield await wait_while_away(exc, watch, left)
                        continue  # looked at again: ``newer`` stays
                    if rec is None:
                        return  # swept away
                    if rec.version > sent:
                        yield (f"id: {rec.version}\nevent: game\n"
                               f"data: {games.view_json(rec)}\n\n").encode()
                        sent = rec.version
                newer = await watch.changed(min(PING_SECONDS, left))
                if not newer and left > PING_SECONDS:
                    yield b": ping\n\n"  # first: a slow store must not hold the ping back
                    if await swept(games.db, game_id):
                        return  # swept away meanwhile (no news told it): the page meets a 404
