"""The game operations behind the API: load, check, change, store, under a per-game lock.

Seat-generic: a card is played for a seat (``play_card``), a computer decides for a seat
(``GameService.decide``), views are built per seat (``views.view_for``). The single-player
endpoints are the table with one person at seat 0; ``scopone.web.tables`` drives the tables with
friends through the same functions.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Protocol

from ..engine import (
    Card,
    IllegalMoveError,
    InvalidMoveError,
    Match,
    Move,
    OutOfTurnError,
    RoundOverError,
    Rules,
    SeatView,
)
from ..engine.cards import InvalidCardError
from . import errors as e
from .push import Hub
from .schemas import GameCreate, GameView, MoveIn
from .store import GameRecord, Store
from .store.offloop import OffLoop
from .thinker import Thinker
from .views import HUMAN, game_view

#: Single-player games whose last stored record this process keeps to play on (see
#: ``GameService._change``): enough for the thousand games at once one machine serves.
HOT_GAMES = 2048
#: A game's meta: the version of its last card or deal, kept while changes of the level since
#: have moved the version on (``GameService.position_version``).
GAME_VERSION = "game_version"


class RoundWatcher(Protocol):
    """Who hears of games created and rounds finished (the coach: statistics, reviews)."""

    async def game_created(self, rec: GameRecord, person: str | None) -> None: ...

    def level_changed(self, rec: GameRecord, old: str) -> None:
        """Before a new level (``rec.level``, ``old`` before it) is stored: may add to
        ``rec.meta``."""

    def round_over(self, rec: GameRecord) -> None:
        """Before the finishing move is stored: may add to ``rec.meta``."""

    async def round_stored(self, rec: GameRecord) -> None:
        """After the finishing move is stored (once per round, whichever process)."""


class GameService:
    """Every state change goes: lock the game, load it, check the version, change, store."""

    def __init__(self, store: Store, thinker: Thinker, hub: Hub | None = None) -> None:
        self.store = store
        # Every store call of a request, stream or driver goes through ``db``, which makes one
        # that would wait off the event loop (``OffLoop``).
        self.db = OffLoop(store)
        self.thinker = thinker
        self.hub = hub or Hub()
        self.watcher: RoundWatcher | None = None
        # Locks live as long as a request holds one; finished games leave nothing behind.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        # The record each single-player game was last stored as by this process, by id, least
        # recently stored first. Taken out (never shared) by the request that changes the game
        # next, which saves it loading and parsing the match again: the CPU of a move.
        self._hot: OrderedDict[str, GameRecord] = OrderedDict()
        # Seat 0's view of each hot record as JSON, once made (``view``, ``view_json``): a
        # move (a person's, or the server's computer card) answers with the view that the
        # page's stream then sends again. A hot record is never changed while hot, so its view
        # holds until the record leaves ``_hot`` (``_take``). Text, not the view's objects: a
        # thousand games' views as objects made the garbage collector's full passes half as
        # long again (45 -> 74 ms, scratch measure), and those passes stop every game at once.
        self._views: dict[str, str] = {}

    @asynccontextmanager
    async def _locked(self, game_id: str) -> AsyncIterator[None]:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        async with lock:
            yield

    # ----- reading ------------------------------------------------------------------------

    @asynccontextmanager
    async def locked(self, game_id: str) -> AsyncIterator[None]:
        """This process's lock on one game (other processes are held off by the version)."""
        async with self._locked(game_id):
            yield

    async def _load(self, game_id: str) -> GameRecord:
        rec = await self.db.load(game_id) if len(game_id) <= 64 else None
        # A game id is the capability of seat 0 of a single-player game only: a table with
        # friends is reached by its code and its seat tokens, never by its id.
        if rec is None or rec.code is not None:
            raise e.NotFound(e.GAME_NOT_FOUND)
        return rec

    @staticmethod
    def position_version(rec: GameRecord) -> int:
        """The version the game's position dates from: the last card or deal's, however many
        changes of the level came since (each a version of its own, the cards unmoved). The
        coach's hint of a position is judged and counted once (as at a table, whose
        ``game_version`` is the same idea)."""
        return int(rec.meta.get(GAME_VERSION, rec.version))

    async def commit(self, rec: GameRecord, card_played: bool = False) -> bool:
        """Stores ``rec`` as the next version and announces it; False (nothing stored) when
        another process changed it since it was loaded. ``card_played``: the change is a card
        (``play_card``), so a round over now is a round that card ended, and the watcher hears
        of it once, whichever process stored it."""
        ended = card_played and rec.match.round.is_over and self.watcher is not None
        if ended:
            self.watcher.round_over(rec)  # type: ignore[union-attr]
        old, old_updated = rec.version, rec.updated
        rec.version = old + 1
        rec.updated = time.time()
        if not await self.db.update(rec, old, old_updated):
            rec.version, rec.updated = old, old_updated
            return False
        self.hub.publish(rec.id, rec.version)
        if ended:
            # The watcher may keep this record (a review in the background): not kept hot, so
            # the next change loads a copy of its own.
            await self.watcher.round_stored(rec)  # type: ignore[union-attr]
        elif rec.code is None:
            self._keep(rec)
        return True

    def _keep(self, rec: GameRecord) -> None:
        """Keeps the record this process just stored as the game's hot copy."""
        self._take(rec.id)
        self._hot[rec.id] = rec
        if len(self._hot) > HOT_GAMES:
            self._take(next(iter(self._hot)))

    def _take(self, game_id: str) -> GameRecord | None:
        """The game's hot record, no longer hot (to change it, or to forget it), or None."""
        self._views.pop(game_id, None)
        return self._hot.pop(game_id, None)

    def view(self, rec: GameRecord) -> GameView:
        """Seat 0's view of ``rec``; of a hot record, its JSON is kept for ``view_json``."""
        view = game_view(rec)
        if rec.id not in self._views and self._hot.get(rec.id) is rec:
            self._views[rec.id] = view.model_dump_json()
        return view

    def view_json(self, rec: GameRecord) -> str:
        """``view(rec)`` as JSON (what the page's stream sends); of a hot record made once."""
        if self._hot.get(rec.id) is not rec:
            return game_view(rec).model_dump_json()
        if rec.id not in self._views:
            self.view(rec)  # which keeps it
        return self._views[rec.id]

    async def decide(self, rec: GameRecord, seat: int) -> Move:
        """The computer's card for ``seat`` at the game's level, from that seat's view only."""
        view = SeatView.of(rec.match.round, seat)
        # Server-side randomness only: the secret seed never leaves, and the version makes
        # each decision's rng distinct and replayable.
        return await self.thinker.choose(rec.level, view, f"{rec.seed}:{rec.version}")

    async def get(self, game_id: str) -> GameView:
        rec = await self.peek(game_id) if len(game_id) <= 64 else None
        if rec is None or rec.code is not None:
            raise e.NotFound(e.GAME_NOT_FOUND)  # as ``_load`` says it
        return self.view(rec)

    async def peek(self, game_id: str) -> GameRecord | None:
        """The game's newest record, to read at once and never to change (the server's own
        players, its event streams): the copy this process stored last while the store holds
        that version (a cheap query instead of loading and parsing the match), else the
        store's."""
        rec = self._hot.get(game_id)
        # Still hot after the store's answer: a request may have taken it out meanwhile to
        # change it (``_change``), and a record being changed is no version that was stored.
        if (rec is not None and await self.db.version(game_id) == rec.version
                and self._hot.get(game_id) is rec):
            return rec
        return await self.db.load(game_id)

    async def newest(self, game_id: str) -> GameRecord | None:
        """``peek`` for those who follow the game's news on the hub (the server's driver and
        the page's stream, each with a watch open): the hot record, without asking the store,
        when it is the newest version committed since this process began to watch the game
        (``Hub.heard``). A newer one stored by another process is then at most the store
        listener's delay away, and its notice wakes them to look again; a card the driver
        plays on the older one is not stored (the version)."""
        rec = self._hot.get(game_id)
        if rec is not None and self.hub.heard(game_id) == rec.version:
            return rec
        return await self.peek(game_id)

    def forget(self, game_id: str) -> None:
        """The game was stored by other means (the coach's counts): load it next time."""
        self._take(game_id)

    async def _change(self, game_id: str, version: int,
                      change: Callable[[GameRecord], Awaitable[None]],
                      card_played: bool = False) -> GameRecord:
        """Applies ``change`` to the game at ``version`` and stores it, under the game's lock;
        409 (nothing stored) when the game is at another version. Returns the record stored,
        to read at once (it may be the hot copy).

        The record this process stored last is used when it is at that version, rather than
        loaded and parsed again (most of a move's CPU). The write is checked against the
        stored version and time, so if another process changed the game since, the write is
        refused: at a newer version the request is stale (409); at the same one (the coach
        counted a hint), the change is applied again to the stored copy."""
        async with self._locked(game_id):
            rec = self._take(game_id)
            hot = rec is not None and rec.version == version
            if rec is None or not hot:
                rec = await self._load(game_id)
            for _ in range(2):
                if rec.version != version:
                    raise e.Conflict(e.STALE_VERSION, game_view(rec))
                try:
                    await change(rec)
                except e.Conflict:
                    # A hot copy is only this process's last write: the store may have moved
                    # on (another process played) or dropped the game (the sweep). Its
                    # refusal (not your turn, match over...) would answer with that copy's
                    # view, a 409 showing a game the store no longer holds at that version,
                    # or at all (GET said 404). Ask the store before answering with it.
                    if hot and await self.db.version(game_id) != rec.version:
                        rec = await self._load(game_id)  # 404 when it was swept away
                        raise e.Conflict(e.STALE_VERSION, game_view(rec)) from None
                    raise
                hot = False
                rec.meta.pop(GAME_VERSION, None)  # the position changed with this version
                if await self.commit(rec, card_played):
                    return rec
                rec = await self._load(game_id)
            raise e.Conflict(e.STALE_VERSION, game_view(rec))

    # ----- changing -----------------------------------------------------------------------

    async def create(self, req: GameCreate, person: str | None = None) -> GameView:
        rules = Rules(variant=req.variant, napola=req.napola, target=req.target)
        # The deck's rng is seeded from the OS so no client can predict a deal.
        match = Match(rules, random.Random(secrets.randbits(128)))
        rec = GameRecord.new(match, req.level)
        if self.watcher:
            await self.watcher.game_created(rec, person)
        await self.db.insert(rec)
        self._keep(rec)  # its first computer card (or move) is played on this copy
        return self.view(rec)

    async def play(self, game_id: str, req: MoveIn) -> GameView:
        card, capture = parse_move(req.card, req.capture)

        async def change(rec: GameRecord) -> None:
            try:
                play_card(rec, HUMAN, card, capture)
            except e.Conflict as c:
                raise e.Conflict(c.detail, game_view(rec)) from None

        return self.view(await self._change(game_id, req.version, change, card_played=True))

    async def advance(self, game_id: str, version: int) -> GameView:
        async def change(rec: GameRecord) -> None:
            _check_playing(rec)
            r = rec.match.round
            if r.turn == HUMAN:
                raise e.Conflict(e.NOT_COMPUTER_TURN, game_view(rec))
            seat = r.turn
            try:
                move = await self.decide(rec, seat)
                r.play(move, seat=seat)
            except Exception as exc:
                # The player's fault, not the client's: say so, and store nothing.
                raise e.Unavailable(e.COMPUTER_FAILED) from exc
            finish_if_over(rec.match)

        return self.view(await self._change(game_id, version, change, card_played=True))

    async def next_round(self, game_id: str, version: int) -> GameView:
        async def change(rec: GameRecord) -> None:
            if rec.match.winner is not None:
                raise e.Conflict(e.MATCH_OVER, game_view(rec))
            if not rec.match.round.is_over:
                raise e.Conflict(e.ROUND_NOT_OVER, game_view(rec))
            rec.match.next_round()

        return self.view(await self._change(game_id, version, change))

    async def set_level(self, game_id: str, level: str) -> GameView:
        async with self._locked(game_id):
            rec = await self._load(game_id)
            if rec.level == level:
                return game_view(rec)  # nothing changes, so the version stays
            old, rec.level = rec.level, level
            rec.meta.setdefault(GAME_VERSION, rec.version)
            if self.watcher is not None:
                self.watcher.level_changed(rec, old)
            if not await self.commit(rec):
                # Another process changed the row between our load and this write.
                raise e.Conflict(e.STALE_VERSION, game_view(await self._load(game_id)))
            return self.view(rec)


def parse_move(card_code: str, capture_codes: list[str]) -> tuple[Card, frozenset[Card]]:
    """The played card and the capture; 422 for what the schema forbids (the request model
    already holds the card codes to the deck's, so the first refusal is a second line)."""
    try:
        card = Card.parse(card_code)
        capture = [Card.parse(c) for c in capture_codes]
    except InvalidCardError:
        raise e.Malformed(e.INVALID_CARD) from None
    if len(set(capture)) != len(capture):  # the schema's uniqueItems
        raise e.Malformed(e.INVALID_MOVE)
    return card, frozenset(capture)


def play_card(rec: GameRecord, seat: int, card: Card, capture: frozenset[Card]) -> None:
    """``seat`` plays ``card`` taking ``capture``; a 409 (without a view: the caller adds the
    one for its viewer) when the match, the round, the turn or the rules do not allow it."""
    if rec.match.winner is not None:
        raise e.Conflict(e.MATCH_OVER)
    r = rec.match.round
    if r.is_over:
        raise e.Conflict(e.ROUND_OVER)
    try:
        # Taking the card one plays is well-formed JSON the schema cannot rule out, and never
        # legal: refused like any other illegal move, not as malformed.
        move = Move(card, capture)
    except InvalidMoveError:
        raise e.Conflict(e.ILLEGAL_MOVE) from None
    try:
        r.play(move, seat=seat)
    except OutOfTurnError:
        raise e.Conflict(e.NOT_YOUR_TURN) from None
    except RoundOverError:
        raise e.Conflict(e.ROUND_OVER) from None
    except IllegalMoveError:
        raise e.Conflict(e.ILLEGAL_MOVE) from None
    finish_if_over(rec.match)


def _check_playing(rec: GameRecord) -> None:
    if rec.match.winner is not None:
        raise e.Conflict(e.MATCH_OVER, game_view(rec))
    if rec.match.round.is_over:
        raise e.Conflict(e.ROUND_OVER, game_view(rec))


def finish_if_over(match: Match) -> None:
    # Score a finished round at once, so its summary and the match score show straight away.
    if match.round.is_over:
        match.finish_round()
