"""The operations on tables with friends: lock, load by code, check the seat token and the
version, change the table (``scopone.web.table``) or the game (the seat-generic functions of
``scopone.web.service``), store, and wake the driver. Each answer is the table as the caller's
seat sees it."""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Callable
from typing import Any

from ..engine import Match, Rules
from . import errors as e
from . import table as t
from .coach import match_number, new_match
from .liveness import STALE_SECONDS, Liveness
from .schemas_tables import SeatTaken, TableCreate, TableMoveIn, TableView
from .service import GameService, parse_move, play_card
from .store import GameRecord
from .table_views import table_view

#: Tables whose newest record this process keeps for its event streams.
CACHED_TABLES = 2000

#: Attempts at a change that takes no version (sitting down, standing up, coming back, presence)
#: when other processes keep changing the table in between.
RETRIES = 5

#: A change of a table for the token's seat; one that finds nothing to change (it was made
#: meanwhile, by another request or process) returns False, and nothing is stored.
Change = Callable[[GameRecord, dict[str, Any], int | None], bool | None]
#: Who may make a change at all (``table.require_host``, ``seated``): raises 403 for anyone else.
Allowed = Callable[[dict[str, Any], int | None], object]


def seated(table: dict[str, Any], seat: int | None) -> int:
    """Any person at the table (a spectator may not play nor deal)."""
    return t.require_seat(seat)


class TableService:
    def __init__(self, games: GameService, timing: t.Timing,
                 stale: float = STALE_SECONDS) -> None:
        self.games = games
        # The pace and an offline person's grace, as the driver plays them: the clock in
        # every view counts down to the card the driver will play for a person.
        self.timing = timing
        self.store = games.store
        self.db = games.db
        self.hub = games.hub
        # Set by the app: woken after every change so the computers play on (scopone.web.driver).
        self.on_change: Callable[[str], None] = lambda game_id: None
        # The newest record seen per table, so the streams of a table's viewers load it once
        # per version (each still builds its own view from it). Never changed once here.
        self._newest: dict[str, GameRecord] = {}
        # This process as the driver's lease names it (scopone.web.driver).
        self.process = t.process_name()
        # Which processes named in the tables are gone; the app starts its heartbeat.
        self.liveness = Liveness(self.store, self.process, stale)
        self.gone = self.liveness.gone

    def _remember(self, rec: GameRecord) -> None:
        old = self._newest.pop(rec.id, None)
        self._newest[rec.id] = rec if old is None or old.version <= rec.version else old
        if len(self._newest) > CACHED_TABLES:
            del self._newest[next(iter(self._newest))]  # the least recently stored

    async def record(self, game_id: str, version: int | None) -> GameRecord | None:
        """The table's record at ``version`` or newer (None: whatever the store holds now)."""
        if version is None:
            version = await self.db.version(game_id)
            if version is None:
                return None
        cached = self._newest.get(game_id)  # after the store's answer: it may be newer now
        if cached is not None and cached.version >= version:
            return cached
        rec = await self.db.load(game_id)
        if rec is not None:
            self._remember(rec)
        return rec

    async def commit(self, rec: GameRecord, card_played: bool = False,
               seats_changed: bool = True) -> bool:
        """``GameService.commit``, and the record kept for the streams.

        A change of the seats (someone sat down, left or came back, a seat handed over, the
        start) records the version it makes as ``settled_version``, against which the host's
        start and seat hand-overs are judged. Cards, deals and presence (a browser connecting
        or going) leave it: the host acts on the seats they see, so their click is not refused
        because a computer played a card or a friend's page connected meanwhile."""
        table = t.table_of(rec)
        if table is not None and seats_changed:
            table["settled_version"] = rec.version + 1  # what commit makes it
        if not await self.games.commit(rec, card_played):
            return False
        self._remember(rec)
        return True

    # ----- reading ------------------------------------------------------------------------

    async def load(self, code: str) -> tuple[GameRecord, dict[str, Any]]:
        rec = await self.db.load_by_code(code) if 0 < len(code) <= 64 else None
        table = t.table_of(rec) if rec is not None else None
        if rec is None or table is None:
            raise e.NotFound(e.TABLE_NOT_FOUND)
        return rec, table

    async def get(self, code: str, token: str | None) -> TableView:
        rec, table = await self.load(code)
        return self.view(rec, table, t.seat_of_token(table, token))

    def view(self, rec: GameRecord, table: dict[str, Any], seat: int | None) -> TableView:
        """The table as ``seat`` (None: the lobby or a spectator) sees it, now."""
        return table_view(rec, table, seat, self.timing)

    # ----- changing -----------------------------------------------------------------------

    async def create(self, req: TableCreate) -> SeatTaken:
        name = t.clean_name(req.name)
        rules = Rules(variant=req.variant, napola=req.napola, target=req.target)
        # The deck's rng is seeded from the OS so no client can predict a deal.
        match = Match(rules, random.Random(secrets.randbits(128)))
        token = t.new_token()
        meta = {"table": t.new_table(name, token, req.away_seconds, req.hints)}
        rec = GameRecord.new(match, req.level, meta, t.new_code())
        # Settled from the start: the host's start at the version this answer gives is not
        # refused because their own browser's stream connected since (a presence change).
        meta["table"]["settled_version"] = rec.version
        await self.db.insert(rec)
        return SeatTaken(seat=t.HOST, token=token, table=self.view(rec, meta["table"], t.HOST))

    async def _change(self, code: str, token: str | None, version: int | None,
                      change: Change, *, game_changed: bool = False,
                      card_played: bool = False,
                      seats_changed: bool | None = None,
                      allowed: Allowed | None = None) -> TableView:
        """Applies ``change(rec, table, seat)`` for the token's seat and stores it. With a
        ``version``, an older one gets 409; before that, ``allowed(table, seat)`` refuses
        (403) a caller who may not make this change at all, whatever the version (a
        spectator's card, a friend's rematch are refused as such, not as stale). When another
        process stored the table between the load and the write, the change is made again on
        a fresh copy (where a version that is stale now gets its 409).

        A change of the game (a card, a deal) is judged against the game's own last change
        (``game_version``), not the table's: a version a person read before someone merely
        connected, left or came back still shows them the game as it is, so their card is not
        refused as stale. Everything else (the start, seats handed over) is judged against the
        last change of the seats (``commit``): a host who starts just as a friend's browser
        connects, or hands a seat over while the computers play on, is not refused.
        ``seats_changed`` says whether this change is one of the seats (by default, every change
        but the game's)."""
        rec, _ = await self.load(code)
        async with self.games.locked(rec.id):
            for _ in range(RETRIES):
                rec, table = await self.load(code)
                seat = t.seat_of_token(table, token)
                if allowed is not None:
                    allowed(table, seat)
                # Before the first deal (the start) there is no game to judge against.
                settled = int(table.get("settled_version", rec.version))
                oldest = int(table.get("game_version", settled)) if game_changed else settled
                if version is not None and not oldest <= version <= rec.version:
                    raise e.Conflict(e.STALE_VERSION, table=self.view(rec, table, seat))
                try:
                    changed = change(rec, table, seat)
                except e.GameError as err:
                    if err.status != 409:
                        raise
                    raise e.Conflict(err.detail, table=self.view(rec, table, seat)) from None
                if changed is False:
                    return self.view(rec, table, seat)  # a version would tell nobody anything
                if game_changed:
                    table["turn_since"] = time.time()
                    table["game_version"] = rec.version + 1  # what commit makes it
                    # The process that changes the game (the start, a person's card, a deal)
                    # drives it on: its driver is kicked now (``on_change``). Without a lease
                    # every process watching the table would race for the next computer card;
                    # left with the last owner, which may have stopped driving (no page of the
                    # table open there), the others would wait ``takeover`` for it.
                    table["lease"] = {"owner": self.process, "since": table["turn_since"]}
                seats = not game_changed if seats_changed is None else seats_changed
                if await self.commit(rec, card_played, seats):
                    self.on_change(rec.id)
                    return self.view(rec, table, seat)
                # Another process stored the table since it was loaded: the next turn of the
                # loop loads it again and refuses a version that is now stale.
        raise e.Unavailable(e.DATABASE_UNAVAILABLE)

    async def sit(self, code: str, seat: int, name: str) -> SeatTaken:
        clean = t.clean_name(name)
        token = t.new_token()
        view = await self._change(code, None, None,
                                  lambda rec, table, _: t.sit(table, seat, clean, token))
        # The answer is the table as the new seat sees it.
        return SeatTaken(seat=seat, token=token, table=view.model_copy(update={"you": seat}))

    async def leave(self, code: str, seat: int, token: str | None) -> TableView:
        def change(rec: GameRecord, table: dict[str, Any], you: int | None) -> None:
            if t.require_seat(you) != seat:
                raise e.Forbidden(e.WRONG_TOKEN)
            t.leave(table, seat)

        view = await self._change(code, token, None, change)
        return view.model_copy(update={"you": None})

    async def start(self, code: str, version: int, token: str | None) -> TableView:
        def change(rec: GameRecord, table: dict[str, Any], you: int | None) -> None:
            t.start(table, time.time())

        # The free seats become computers: a change of the seats as well as the game's.
        return await self._change(code, token, version, change, game_changed=True,
                                  seats_changed=True, allowed=t.require_host)

    async def move(self, code: str, req: TableMoveIn, token: str | None) -> TableView:
        card, capture = parse_move(req.card, req.capture)

        def change(rec: GameRecord, table: dict[str, Any], you: int | None) -> None:
            seat = t.require_seat(you)
            if table["phase"] != "playing":
                raise e.Conflict(e.TABLE_NOT_PLAYING)
            play_card(rec, seat, card, capture)
            table["seats"][seat]["away"] = False  # a move of one's own: back at the table

        return await self._change(code, token, req.version, change, game_changed=True,
                                  card_played=True, allowed=seated)

    async def next_round(self, code: str, version: int, token: str | None) -> TableView:
        def change(rec: GameRecord, table: dict[str, Any], you: int | None) -> None:
            if table["phase"] != "playing":
                raise e.Conflict(e.TABLE_NOT_PLAYING)
            if rec.match.winner is not None:
                raise e.Conflict(e.MATCH_OVER)
            if not rec.match.round.is_over:
                raise e.Conflict(e.ROUND_NOT_OVER)
            rec.match.next_round()
            t.dealt(table)

        return await self._change(code, token, version, change, game_changed=True,
                                  allowed=seated)

    async def to_computer(self, code: str, seat: int, version: int,
                          token: str | None) -> TableView:
        def change(rec: GameRecord, table: dict[str, Any], you: int | None) -> None:
            if seat == table["host"]:
                raise e.Conflict(e.HOST_SEAT)
            playing = table["phase"] == "playing"
            t.to_computer(table, seat, len(rec.match.round.history or ()) if playing else 0)

        return await self._change(code, token, version, change, allowed=t.require_host)

    async def open_seat(self, code: str, seat: int, version: int,
                        token: str | None) -> TableView:
        def change(rec: GameRecord, table: dict[str, Any], you: int | None) -> None:
            t.open_seat(table, seat)

        return await self._change(code, token, version, change, allowed=t.require_host)

    async def rematch(self, code: str, version: int, token: str | None) -> TableView:
        def change(rec: GameRecord, table: dict[str, Any], you: int | None) -> None:
            if table["phase"] != "playing" or rec.match.winner is None:
                raise e.Conflict(e.TABLE_PLAYING if table["phase"] == "playing"
                                 else e.TABLE_NOT_PLAYING)
            t.match_ended(table, match_number(rec) + 1, rec.match.scores, rec.match.winner)
            rec.match = Match(rec.match.rules, random.Random(secrets.randbits(128)))
            new_match(rec)
            t.dealt(table)

        return await self._change(code, token, version, change, game_changed=True,
                                  allowed=t.require_host)

    async def back(self, code: str, token: str | None) -> TableView:
        def change(rec: GameRecord, table: dict[str, Any], you: int | None) -> bool:
            return t.back(table, t.require_seat(you))

        # Checked before the lock too, so that the usual case (a page saying it is there while
        # it is not away) costs no lock; checked again under it (change) against a race.
        rec, table = await self.load(code)
        seat = t.require_seat(t.seat_of_token(table, token))
        if not table["seats"][seat]["away"]:
            return self.view(rec, table, seat)  # nothing changes, so the version stays
        return await self._change(code, token, None, change)

    async def revive(self, game_id: str) -> bool:
        """What processes known to be gone (a restart, a crash, a machine lost) left
        behind. A table whose driver's process is gone was driven by nobody since: this
        process takes it over, and its clock starts again now (the time the server was down
        counts against nobody's turn). The streams gone processes left in the seats go: a
        person whose browser has not come back is offline from now on, not connected for
        ever. False when other writes won every try (nothing stored)."""
        async with self.games.locked(game_id):
            for _ in range(RETRIES):
                rec = await self.db.load(game_id)
                table = t.table_of(rec) if rec is not None else None
                if rec is None or table is None:
                    return True
                orphaned = t.dead_lease(table, self.process, self.gone)
                if not orphaned and not t.dead_streams(table, self.gone):
                    return True  # another process did it meanwhile
                now = time.time()
                for s in table["seats"]:
                    if t.drop_dead_streams(s, self.gone):
                        t.note_presence(s, now)
                if orphaned:
                    table["turn_since"] = now
                    table["lease"] = {"owner": self.process, "since": now}
                if await self.commit(rec, seats_changed=False):
                    self.on_change(rec.id)
                    return True
                await asyncio.sleep(0)
        return False

    async def restart_clock(self, game_id: str, version: int) -> bool:
        """The turn's clock of the table at ``version`` starts again now, once
        (``clock_restarted``: see ``Driver._time_lost_in_turn``), and a seat's going stamped
        later than now is stamped now (``table.stamped_ahead``). Not a change of the game: a
        person's card at that version stands. True when stored, or when the table changed
        meanwhile (its driver looks again); False when the write lost."""
        async with self.games.locked(game_id):
            rec = await self.db.load(game_id)
            table = t.table_of(rec) if rec is not None else None
            if rec is None or table is None or rec.version != version:
                return True
            now = time.time()
            table["turn_since"] = table["clock_restarted"] = now
            for s in table["seats"]:
                if s.get("gone_since") is not None and float(s["gone_since"]) > now:
                    s["gone_since"] = now
            if not await self.commit(rec, seats_changed=False):
                return False
        self.on_change(rec.id)
        return True

    async def set_connected(self, game_id: str, seat: int, process: str,
                            connected: bool) -> None:
        """Stores whether ``process`` has a stream of ``seat`` open, when that changes; the
        seat is connected while any process has one (a browser that reconnects to another
        process is not lost when the first one notices the old connection closed). A new
        version, so every viewer sees it: presence is part of the table's state."""
        async with self.games.locked(game_id):
            for _ in range(RETRIES):
                rec = await self.db.load(game_id)
                table = t.table_of(rec) if rec is not None else None
                if rec is None or table is None:
                    return
                s = table["seats"][seat]
                dead = t.drop_dead_streams(s, self.gone, keep=process)
                streams: dict[str, bool] = s["streams"]
                if s["kind"] != "person" or (streams.get(process, False) == connected
                                             and not dead):
                    return
                if connected:
                    streams[process] = True
                else:
                    streams.pop(process, None)
                t.note_presence(s, time.time())
                if await self.commit(rec, seats_changed=False):
                    self.on_change(rec.id)
                    return
                await asyncio.sleep(0)
