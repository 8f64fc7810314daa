"""The server's computer cards in a game played alone (``scopone.web.solo``), on a virtual
clock: when each card comes (the quickest page's pace after the game's last change), that the
computers wait at the person's turn and stop when the last page goes or the server closes,
that one driver plays a game however many pages follow it, and what a page's event stream
sends (the game at once, then every newer version, a ping now and then, an end). Mutation
testing of scopone/web/solo.py showed that no test noticed these going wrong.

``Sim`` stands for the clock and the push hub: a wait for a change that nothing announces moves
the clock on by its timeout at once, so nothing here sleeps or races the real time. The table
driver's cases (test_table_driver_cases.py) use it too."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import ExitStack, asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import pytest

from scopone.engine import Match, Rules
from scopone.web import service as service_module
from scopone.web import solo
from scopone.web.events import PING_SECONDS
from scopone.web.service import GameService
from scopone.web.solo import IDLE_SECONDS, SoloDriver, solo_events
from scopone.web.store import GameRecord, open_store
from scopone.web.thinker import Thinker
from scopone.web.views import game_view, status_of

from .aio import run_alone

#: The paces of a page's two speeds (near ``Settings``' defaults): binary fractions, so the virtual
#: clock's sums are exact.
PACES = {"normal": 0.75, "fast": 0.25}
START = 1000.0  # the virtual time the game last changed at when a test begins


class Stuck(AssertionError):
    """A driver that would wait for ever, or never stops waiting."""


class Sim:
    """A virtual clock (``time``, ``monotonic``) and the push hub on it (``watch``,
    ``publish``), for one waiter at a time. ``meanwhile(timeout)`` is what happens while the
    waiter waits (a person's card, a page closing); it may return an awaitable."""

    LIMIT = 200  # waits: more is a driver that never stops

    def __init__(self, now: float) -> None:
        self.now = now
        self.waits: list[float | None] = []
        self.newest: dict[str, int] = {}
        self.changes: list[tuple[str, int, float]] = []  # (game, version, when) published
        self.watched: list[str] = []  # the games watched, once for each watch opened
        self.closing = False  # the hub closed (the server told to stop): streams' watches end
        self.meanwhile: Callable[[float | None], Awaitable[None] | None] = lambda _: None

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now

    def publish(self, game_id: str, version: int) -> None:
        self.changes.append((game_id, version, self.now))
        self.newest[game_id] = max(version, self.newest.get(game_id, -1))

    def heard(self, game_id: str) -> int | None:
        return self.newest.get(game_id)

    @asynccontextmanager
    async def watch(self, game_id: str, version: int,
                    stream: bool = False) -> AsyncIterator[SimWatch]:
        self.watched.append(game_id)
        yield SimWatch(self, game_id, version, stream)


class SimWatch:
    """``Watch`` on the virtual clock: a version newer than the one last taken (one published
    before the watch opened, too) ends a wait at once, as do a stream's watch closed and a
    nudge; else the clock moves on by the wait."""

    def __init__(self, sim: Sim, game_id: str, version: int, stream: bool) -> None:
        self.sim, self.game_id, self.version, self.stream = sim, game_id, version, stream
        self.nudged = False

    def nudge(self) -> None:
        self.nudged = True

    @property
    def closed(self) -> bool:
        return self.stream and self.sim.closing

    async def changed(self, timeout: float | None = None) -> bool:
        await asyncio.sleep(0)  # a wait lets the loop run, as a real one does
        sim = self.sim
        sim.waits.append(timeout)
        if len(sim.waits) > sim.LIMIT:
            raise Stuck("the driver never stops waiting")
        happening = sim.meanwhile(timeout)
        if inspect.isawaitable(happening):
            await happening
        if self.closed:
            return True
        if self.nudged:  # woken at once, with no new version
            self.nudged = False
            return True
        newest = sim.newest.get(self.game_id, -1)
        if newest > self.version:
            self.version = newest
            return True
        if timeout is None:
            raise Stuck("a wait for a change that does not come")
        sim.now += timeout
        return False


@asynccontextmanager
async def sim_games(tmp_path: Path, sim: Sim) -> AsyncIterator[GameService]:
    """The game service on a SQLite file, announcing to ``sim``; Easy decides inline."""
    store = open_store(tmp_path / "games.sqlite3")
    thinker = Thinker(0.05, processes=False, workers=1)
    try:
        yield GameService(store, thinker, sim)  # type: ignore[arg-type]  # the hub's stand-in
    finally:
        thinker.close()
        store.close()


async def card_now(games: GameService, game_id: str) -> None:
    """The seat to play plays its first legal card, stored at once (a tool's advance, or the
    person's card: who plays it makes no difference to a driver)."""
    rec = games.store.load(game_id)
    assert rec is not None
    r = rec.match.round
    r.play(r.legal_moves()[0], seat=r.turn)
    assert await games.commit(rec, card_played=True)


def _at_computer_turn(games: GameService) -> GameRecord:
    """A game played alone, last changed at ``START``, whose next card is seat 1's: three
    computers' cards, then the person's."""
    match = Match(Rules(), random.Random(7))
    r = match.round
    while r.turn != 1:
        r.play(r.legal_moves()[0], seat=r.turn)
    rec = GameRecord.new(match, "easy")
    rec.updated = START
    games.store.insert(rec)
    return rec


@pytest.fixture
def sim(monkeypatch: pytest.MonkeyPatch) -> Sim:
    """The virtual clock, for the driver and for the time a change is stored at."""
    clock = Sim(START)
    monkeypatch.setattr(solo, "time", clock)
    monkeypatch.setattr(service_module, "time", clock)
    return clock


def _status(games: GameService, game_id: str) -> str:
    rec = games.store.load(game_id)
    assert rec is not None
    return status_of(rec.match)


# ----- the driver -----------------------------------------------------------------------------


def test_each_computer_card_comes_at_the_quickest_pages_pace_after_the_last_change(
        tmp_path: Path, sim: Sim) -> None:
    """Two pages follow the game, one at each speed: the three computers play one after
    another, each the fast pace after the card before (not at once, not later), by one driver
    on one watch; at the person's turn they wait, and the driver ends when the pages go."""

    async def scenario() -> tuple[GameRecord, SoloDriver]:
        async with sim_games(tmp_path, sim) as games:
            rec = _at_computer_turn(games)
            driver = SoloDriver(games, PACES)
            pages = ExitStack()
            pages.enter_context(driver.following(rec.id, "normal"))
            pages.enter_context(driver.following(rec.id, "fast"))
            task = driver._tasks[rec.id]

            def meanwhile(timeout: float | None) -> None:
                if _status(games, rec.id) == "your_turn":
                    pages.close()  # the person's turn: both pages close

            sim.meanwhile = meanwhile
            await task
            assert not driver.followed(rec.id)
            return rec, driver

    rec, driver = run_alone(scenario())
    assert sim.changes == [(rec.id, 1, START + 0.25), (rec.id, 2, START + 0.5),
                           (rec.id, 3, START + 0.75)]
    assert driver.cards_played == 3
    assert sim.watched == [rec.id]  # one driver, one watch, for the whole game
    assert driver._tasks == {}  # nothing left behind for a game nobody follows


def test_a_clock_stepped_back_does_not_stop_the_computers(tmp_path: Path, sim: Sim) -> None:
    """The game's last change is stamped an hour after the server's clock reads now (the clock
    stepped back): the computers' cards come at the pace all the same, not in an hour (QA: a
    step back of an hour froze the game, and nothing woke its driver)."""

    async def scenario() -> tuple[GameRecord, SoloDriver]:
        async with sim_games(tmp_path, sim) as games:
            rec = _at_computer_turn(games)
            rec.updated = START + 3600
            assert games.store.update(rec, rec.version)
            games.forget(rec.id)
            driver = SoloDriver(games, PACES)
            with driver.following(rec.id, "fast"):
                task = driver._tasks[rec.id]
                sim.meanwhile = lambda timeout: None
                for _ in range(10_000):  # the loop's turns, not time: a guard only
                    if _status(games, rec.id) == "your_turn" or sim.now > START + 60:
                        break
                    await asyncio.sleep(0)
                assert sim.now < START + 60, "the computers waited for the clock"
                assert _status(games, rec.id) == "your_turn"
            await task
            return rec, driver

    rec, driver = run_alone(scenario())
    assert sim.changes == [(rec.id, 1, START + 0.25), (rec.id, 2, START + 0.5),
                           (rec.id, 3, START + 0.75)]
    assert driver.cards_played == 3


def test_at_the_persons_turn_the_computer_waits_and_looks_again_later(
        tmp_path: Path, sim: Sim) -> None:
    async def scenario() -> tuple[bool, int]:
        async with sim_games(tmp_path, sim) as games:
            rec = _at_computer_turn(games)
            for _ in range(3):
                await card_now(games, rec.id)
            assert _status(games, rec.id) == "your_turn"
            driver = SoloDriver(games, PACES)
            async with sim.watch(rec.id, 3) as watch:
                went_on = await driver._step(rec.id, watch)
            version = (await games.peek(rec.id)).version  # type: ignore[union-attr]
            return went_on, version

    went_on, version = run_alone(scenario())
    assert went_on is True  # still driving: the person's card will come
    assert sim.waits == [IDLE_SECONDS]  # a change, or a look again anyway
    assert version == 3  # nobody played for the person


def test_a_game_gone_stops_its_driver_without_an_error(tmp_path: Path, sim: Sim) -> None:
    async def scenario() -> bool:
        async with sim_games(tmp_path, sim) as games:
            driver = SoloDriver(games, PACES)
            async with sim.watch("swept-away", -1) as watch:
                return await driver._step("swept-away", watch)

    assert run_alone(scenario()) is False
    assert sim.waits == []


def test_a_card_that_fails_is_tried_again_within_a_second(
        tmp_path: Path, sim: Sim, monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer's card fails once (the database away for a moment): logged, and played a
    second later, not never nor much later; the computers then go on at the pace."""

    async def scenario() -> str:
        async with sim_games(tmp_path, sim) as games:
            rec = _at_computer_turn(games)
            advance = games.advance
            failures = [RuntimeError("the database is away")]

            async def flaky(game_id: str, version: int) -> Any:
                if failures:
                    raise failures.pop()
                return await advance(game_id, version)

            monkeypatch.setattr(games, "advance", flaky)
            driver = SoloDriver(games, PACES)
            pages = ExitStack()
            pages.enter_context(driver.following(rec.id, "fast"))
            sim.meanwhile = lambda _: (pages.close() if _status(games, rec.id) == "your_turn"
                                       else None)
            await driver._tasks[rec.id]
            return rec.id

    gid = run_alone(scenario())
    times = [when for game, _, when in sim.changes if game == gid]
    assert len(times) == 3
    assert START + 0.25 < times[0] <= START + 0.25 + 1.0
    assert times[1:] == [times[0] + 0.25, times[0] + 0.5]


def test_a_closed_driver_plays_no_more_and_starts_for_no_page(tmp_path: Path, sim: Sim) -> None:
    """The server shuts down while a page follows a game: the driver is cancelled before the
    computer's card and not started again, not even for a page that opens afterwards."""

    async def scenario() -> tuple[str, dict[str, Any], dict[str, Any]]:
        async with sim_games(tmp_path, sim) as games:
            rec = _at_computer_turn(games)
            driver = SoloDriver(games, PACES)
            with driver.following(rec.id, "fast"):
                task = driver._tasks[rec.id]
                await asyncio.sleep(0)  # the driver starts, and waits for the card's time
                driver.close()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                after_close = dict(driver._tasks)
                with driver.following(rec.id, "normal"):  # another page, after the close
                    late = dict(driver._tasks)
            return rec.id, after_close, late

    _, after_close, late = run_alone(scenario())
    assert after_close == {} and late == {}
    assert sim.changes == []  # no computer's card once closed


# ----- the event stream ------------------------------------------------------------------------


class Pages:
    """Stands for the driver in a stream's tests: which games are followed at which speed."""

    def __init__(self) -> None:
        self.open: list[tuple[str, str]] = []
        self.opened: list[tuple[str, str]] = []

    @contextmanager
    def following(self, game_id: str, speed: str) -> Iterator[None]:
        self.open.append((game_id, speed))
        self.opened.append((game_id, speed))
        try:
            yield
        finally:
            self.open.remove((game_id, speed))


def _event(games: GameService, game_id: str) -> bytes:
    rec = games.store.load(game_id)
    assert rec is not None
    return (f"id: {rec.version}\nevent: game\n"
            f"data: {game_view(rec).model_dump_json()}\n\n").encode()


PING = b": ping\n\n"


async def _stream(games: GameService, pages: Pages, game_id: str, after: int,
                  max_seconds: float) -> list[bytes]:
    out = []
    stream = solo_events(games, pages, game_id, "fast", after,  # type: ignore[arg-type]
                         max_seconds)
    async for chunk in stream:
        assert pages.open == [(game_id, "fast")]  # the computers play while it is open
        out.append(chunk)
    return out


def test_a_new_page_gets_the_game_at_once_a_ping_every_15_s_and_an_end(
        tmp_path: Path, sim: Sim) -> None:
    async def scenario() -> tuple[list[bytes], bytes]:
        async with sim_games(tmp_path, sim) as games:
            rec = _at_computer_turn(games)
            pages = Pages()
            chunks = await _stream(games, pages, rec.id, -1, 40.0)
            assert pages.opened == [(rec.id, "fast")] and pages.open == []
            return chunks, _event(games, rec.id)

    chunks, event = run_alone(scenario())
    assert chunks == [event, PING, PING]
    assert sim.waits == [PING_SECONDS, PING_SECONDS, 10.0]
    assert sim.now == START + 40.0  # the stream ends then; the page reconnects


def test_a_page_that_saw_the_game_gets_the_next_version_at_once_and_nothing_twice(
        tmp_path: Path, sim: Sim) -> None:
    """Resumed after the version the page saw: nothing until the game changes, then that
    version at once (no ping first), then pings until the end."""

    async def scenario() -> tuple[list[bytes], bytes]:
        async with sim_games(tmp_path, sim) as games:
            rec = _at_computer_turn(games)
            pages = Pages()
            # The game changes at the stream's first wait (a computer's card).
            sim.meanwhile = lambda _: (None if sim.changes else card_now(games, rec.id))
            chunks = await _stream(games, pages, rec.id, rec.version, 40.0)
            return chunks, _event(games, rec.id)

    chunks, event = run_alone(scenario())
    assert event.startswith(b"id: 1\n")
    assert chunks == [event, PING, PING]


def test_a_page_stream_ends_at_once_when_the_server_is_told_to_stop(
        tmp_path: Path, sim: Sim) -> None:
    """The hub closed while the page waits for news (``Hub.close``, on SIGTERM): the stream
    ends then, not at its own end, and the computers stop playing for that page."""

    async def scenario() -> tuple[list[bytes], bytes, Pages]:
        async with sim_games(tmp_path, sim) as games:
            rec = _at_computer_turn(games)
            pages = Pages()
            sim.meanwhile = lambda _: setattr(sim, "closing", True)
            chunks = await _stream(games, pages, rec.id, -1, 40.0)
            return chunks, _event(games, rec.id), pages

    chunks, event, pages = run_alone(scenario())
    assert chunks == [event] and pages.open == []
    assert sim.waits == [PING_SECONDS] and sim.now == START


def test_the_stream_of_a_game_gone_ends_at_once(tmp_path: Path, sim: Sim) -> None:
    async def scenario() -> tuple[list[bytes], Pages]:
        async with sim_games(tmp_path, sim) as games:
            pages = Pages()
            return await _stream(games, pages, "swept-away", -1, 40.0), pages

    chunks, pages = run_alone(scenario())
    assert chunks == [] and pages.open == [] and sim.waits == []
