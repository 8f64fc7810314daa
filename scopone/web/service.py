"""The game operations behind the API: load, check, change, store, under a per-game lock."""

from __future__ import annotations

import asyncio
import random
import secrets
import time
import weakref
from collections.abc import AsyncIterator
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
from .thinker import Thinker
from .views import HUMAN, game_view


class RoundWatcher(Protocol):
    """Who hears of games created and rounds finished (the coach: statistics, reviews)."""

    def game_created(self, rec: GameRecord, person: str | None) -> None: ...

    def round_over(self, rec: GameRecord) -> None:
        """Before the finishing move is stored: may add to ``rec.meta``."""

    def round_stored(self, rec: GameRecord) -> None:
        """After the finishing move is stored (once per round, whichever process)."""


class GameService:
    """Every state change goes: lock the game, load it, check the version, change, store."""

    def __init__(self, store: Store, thinker: Thinker, hub: Hub | None = None) -> None:
        self.store = store
        self.thinker = thinker
        self.hub = hub or Hub()
        self.watcher: RoundWatcher | None = None
        # Locks live as long as a request holds one; finished games leave nothing behind.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())

    @asynccontextmanager
    async def _locked(self, game_id: str) -> AsyncIterator[None]:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        async with lock:
            yield

    # ----- reading ------------------------------------------------------------------------

    def _load(self, game_id: str) -> GameRecord:
        rec = self.store.load(game_id) if len(game_id) <= 64 else None
        if rec is None:
            raise e.NotFound(e.GAME_NOT_FOUND)
        return rec

    def get(self, game_id: str) -> GameView:
        return game_view(self._load(game_id))

    def _checked(self, game_id: str, version: int) -> GameRecord:
        rec = self._load(game_id)
        if version != rec.version:
            raise e.Conflict(e.STALE_VERSION, game_view(rec))
        return rec

    def _save(self, rec: GameRecord) -> GameView:
        old = rec.version
        rec.version = old + 1
        rec.updated = time.time()
        if not self.store.update(rec, old):
            # Another process changed the row between our load and this write.
            current = self._load(rec.id)
            raise e.Conflict(e.STALE_VERSION, game_view(current))
        self.hub.publish(rec.id, rec.version)
        return game_view(rec)

    def _save_move(self, rec: GameRecord) -> GameView:
        """Stores a game after a card was played, telling the watcher when it ended the round."""
        _finish_if_over(rec.match)
        ended = rec.match.round.is_over
        if ended and self.watcher:
            self.watcher.round_over(rec)
        view = self._save(rec)
        if ended and self.watcher:
            self.watcher.round_stored(rec)
        return view

    # ----- changing -----------------------------------------------------------------------

    def create(self, req: GameCreate, person: str | None = None) -> GameView:
        rules = Rules(variant=req.variant, napola=req.napola, target=req.target)
        # The deck's rng is seeded from the OS so no client can predict a deal.
        match = Match(rules, random.Random(secrets.randbits(128)))
        rec = GameRecord.new(match, req.level)
        if self.watcher:
            self.watcher.game_created(rec, person)
        self.store.insert(rec)
        return game_view(rec)

    async def play(self, game_id: str, req: MoveIn) -> GameView:
        card, capture = _parse_move(req)
        async with self._locked(game_id):
            rec = self._checked(game_id, req.version)
            _check_playing(rec)
            r = rec.match.round
            try:
                # Taking the card one plays is well-formed JSON the schema cannot rule out, and
                # never legal: refused like any other illegal move, not as malformed.
                move = Move(card, capture)
            except InvalidMoveError:
                raise e.Conflict(e.ILLEGAL_MOVE, game_view(rec)) from None
            try:
                r.play(move, seat=HUMAN)
            except OutOfTurnError:
                raise e.Conflict(e.NOT_YOUR_TURN, game_view(rec)) from None
            except RoundOverError:
                raise e.Conflict(e.ROUND_OVER, game_view(rec)) from None
            except IllegalMoveError:
                raise e.Conflict(e.ILLEGAL_MOVE, game_view(rec)) from None
            return self._save_move(rec)

    async def advance(self, game_id: str, version: int) -> GameView:
        async with self._locked(game_id):
            rec = self._checked(game_id, version)
            _check_playing(rec)
            r = rec.match.round
            if r.turn == HUMAN:
                raise e.Conflict(e.NOT_COMPUTER_TURN, game_view(rec))
            seat = r.turn
            view = SeatView.of(r, seat)
            # Server-side randomness only: the secret seed never leaves, and the version makes
            # each decision's rng distinct and replayable.
            try:
                move = await self.thinker.choose(rec.level, view, f"{rec.seed}:{rec.version}")
                r.play(move, seat=seat)
            except Exception as exc:
                # The player's fault, not the client's: say so, and store nothing.
                raise e.Unavailable(e.COMPUTER_FAILED) from exc
            return self._save_move(rec)

    async def next_round(self, game_id: str, version: int) -> GameView:
        async with self._locked(game_id):
            rec = self._checked(game_id, version)
            if rec.match.winner is not None:
                raise e.Conflict(e.MATCH_OVER, game_view(rec))
            if not rec.match.round.is_over:
                raise e.Conflict(e.ROUND_NOT_OVER, game_view(rec))
            rec.match.next_round()
            return self._save(rec)

    async def set_level(self, game_id: str, level: str) -> GameView:
        async with self._locked(game_id):
            rec = self._load(game_id)
            if rec.level == level:
                return game_view(rec)  # nothing changes, so the version stays
            rec.level = level
            return self._save(rec)


def _parse_move(req: MoveIn) -> tuple[Card, frozenset[Card]]:
    """The played card and the capture; 422 for what the schema forbids (the request model
    already holds the card codes to the deck's, so the first refusal is a second line)."""
    try:
        card = Card.parse(req.card)
        capture = [Card.parse(c) for c in req.capture]
    except InvalidCardError:
        raise e.Malformed(e.INVALID_CARD) from None
    if len(set(capture)) != len(capture):  # the schema's uniqueItems
        raise e.Malformed(e.INVALID_MOVE)
    return card, frozenset(capture)


def _check_playing(rec: GameRecord) -> None:
    if rec.match.winner is not None:
        raise e.Conflict(e.MATCH_OVER, game_view(rec))
    if rec.match.round.is_over:
        raise e.Conflict(e.ROUND_OVER, game_view(rec))


def _finish_if_over(match: Match) -> None:
    # Score a finished round at once, so its summary and the match score show straight away.
    if match.round.is_over:
        match.finish_round()
