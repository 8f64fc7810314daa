"""The server plays the computer seats of tables with friends (and an away person's cards).

One driver per table across processes, by a lease kept in the table
(``meta["table"]["lease"] = {"owner", "since"}``) and written with every card the driver plays,
through the same version-checked update as every other change. The owner plays when a card is
due; any other process that watches the table plays it only ``takeover`` seconds later, so a
live owner is never raced, and a killed process's tables go on (its lease is taken over with the
first card another process plays; at once, with the table's clock started again, when the owner
is known gone: a restart, or its heartbeat silent, ``scopone.web.liveness``). A person's card or
a deal moves the lease to the process that stored it, whose driver it kicks. Two processes
acting at once cannot both succeed: the version decides, the loser drops its card.

A process drives a table while it has one of its event streams open or has just changed it;
Hard decides in the thinker's process pool, never on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from . import table as t
from .push import Watch
from .service import play_card
from .store import log_failure
from .tables import TableService

log = logging.getLogger(__name__)

#: How long a driver waits when nothing is due before it looks again anyway.
IDLE_SECONDS = 30.0


class Driver:
    def __init__(self, tables: TableService, pace: float, takeover: float,
                 reconnect: float, away_at: Callable[[], float | None] = lambda: None,
                 stepped_at: Callable[[], float | None] = lambda: None) -> None:
        self.tables = tables
        self.games = tables.games
        self.pace = pace
        self.takeover = takeover
        self.reconnect = reconnect  # an offline person's grace before their card is played
        # When the database last failed this process (``ObservedStore.away_at``), or None.
        self.away_at = away_at
        # When this machine's clock last stepped forward (``wallclock.ClockSteps.look``).
        self.stepped_at = stepped_at
        # How many event streams of a table this process has open (set by the app).
        self.streams: Callable[[str], int] = lambda game_id: 0
        self.owner = tables.process
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._watches: dict[str, Watch] = {}  # each driven table's
        self.cards_played = 0

    def kick(self, game_id: str) -> None:
        """Something changed at (or someone watches) this table: drive it if not yet."""
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self._tasks[game_id] = asyncio.get_running_loop().create_task(self._run(game_id))

    def look_again(self) -> None:
        """Something besides the tables changed (processes judged gone): every table driven
        here is looked at now, not when its driver would next wake."""
        for watch in self._watches.values():
            watch.nudge()

    def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()

    def _watched_here(self, game_id: str) -> bool:
        return self.streams(game_id) > 0

    async def _run(self, game_id: str) -> None:
        try:
            async with self.tables.hub.watch(game_id, -1) as watch:
                self._watches[game_id] = watch
                while True:
                    # An error (the database away for a moment, while the table is read or
                    # while a card is played) is logged and tried again a second later: a
                    # driver that ended would leave the table stalled until someone changed
                    # it or a page connected again. (A table that can never be read again is
                    # swept after its idle hours, and then the driver ends.)
                    try:
                        if not await self._step(game_id, watch):
                            return
                    except Exception as exc:
                        log_failure(log, "the driver could not play a card", exc)
                        await watch.changed(1.0)
        finally:
            self._tasks.pop(game_id, None)
            self._watches.pop(game_id, None)

    async def _step(self, game_id: str, watch: Watch) -> bool:
        """Plays the card due, or waits for a change or for it to be due; False when the
        table is gone, or nothing is due and no page of it is open here."""
        rec = await self.tables.record(game_id, None)  # read only: a cached copy
        table = t.table_of(rec) if rec is not None else None
        if rec is None or table is None:
            return False
        gone = self.tables.gone
        if t.dead_lease(table, self.owner, gone) or t.dead_streams(table, gone):
            # A process gone drove it, or held a page's stream (a restart, a crash, a machine
            # lost): taken over at once, its clock started again, the streams gone (``revive``).
            if not await self.tables.revive(game_id):
                await watch.changed(1.0)  # other writes won every try: again in a second
            return True
        if t.stamped_ahead(table, time.time()):
            # The clock stepped back: every wait reckoned from these stamps would last the
            # step (the cards held for an hour after a step of an hour). The turn starts now.
            if not await self.tables.restart_clock(game_id, rec.version):
                await watch.changed(1.0)
            return True
        due = t.next_due(rec, table, self.pace, self.reconnect)
        if due is None:
            if not self._watched_here(game_id):
                # A change stored while the table was read (the read had the version before
                # it) kicked this driver while it still ran, so no other will come: the table
                # is looked at again rather than left waiting for a page or someone's change.
                heard = self.tables.hub.heard(game_id)
                return heard is not None and heard > rec.version
            await watch.changed(IDLE_SECONDS)
            return True
        when, seat = due
        lease = table.get("lease")
        if lease is not None and lease["owner"] != self.owner:
            when += self.takeover  # the owner first; us only if it is gone
        wait = when - time.time()
        if wait > 0:
            await watch.changed(wait)
            return True
        if self._time_lost_in_turn(table, seat):
            # The database was away during a person's turn (their card may have been refused
            # all through it), or the clock stepped forward in it (their time ran out at
            # once). Their time starts again, as after a restart (``revive``).
            if not await self.tables.restart_clock(game_id, rec.version):
                await watch.changed(1.0)
            return True
        await self._play(game_id, rec.version, seat)
        return True

    def _time_lost_in_turn(self, table: dict[str, Any], seat: int) -> bool:
        """Whether the card due is a present person's whose turn lost time to the server (the
        database away, or this machine's clock stepped forward, as this process saw it), and
        their time was not started again for it yet: once a turn, so a database that keeps
        failing cannot hold a table up for ever."""
        s = table["seats"][seat]
        since = float(table["turn_since"])
        lost = [at for at in (self.away_at(), self.stepped_at()) if at is not None]
        return (s["kind"] == "person" and not s["away"] and any(at >= since for at in lost)
                and table.get("clock_restarted") != since)

    async def _play(self, game_id: str, version: int, seat: int) -> None:
        """Decides for ``seat`` at ``version`` and stores the card if nothing changed since."""
        rec = await self.tables.record(game_id, version)  # read only: a cached copy will do
        if rec is None or rec.version != version:
            return
        move = await self.games.decide(rec, seat)  # off the loop for Hard
        async with self.games.locked(game_id):
            rec = await self.tables.db.load(game_id)
            table = t.table_of(rec) if rec is not None else None
            if rec is None or table is None or rec.version != version:
                return  # a person played or the table changed meanwhile: look again
            t.computer_chose(rec, table, seat)
            play_card(rec, seat, move.card, move.capture)
            now = time.time()
            if table["seats"][seat]["kind"] == "person":
                table["seats"][seat]["away"] = True  # until they are back
            table["turn_since"] = now
            table["game_version"] = rec.version + 1  # what commit makes it
            table["lease"] = {"owner": self.owner, "since": now}
            if await self.tables.commit(rec, card_played=True, seats_changed=False):
                self.cards_played += 1
