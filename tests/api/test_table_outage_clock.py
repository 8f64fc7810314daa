"""A database outage (``ObservedStore``), or the clock stepped forward (``ClockSteps``), during a
person's turn counts against nobody (``Driver._time_lost_in_turn``), on the virtual clock of
test_table_driver_cases.py.

Carla (seat 2, 60 s a turn, her page open) has the turn from t=100. The database is away from
t=150 to t=165: her card is refused (503) at t=150, and her 60 s run out at t=160 while it is
away. The driver, when the database is back, found her time gone and played the computer's card
for her: she was marked away and her own card, sent again, refused as stale (QA of stop 37, one
run in three). Now her time starts again when the database is back, and her card stands.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import pytest

from scopone.web import table as t
from scopone.web.driver import Driver
from scopone.web.store import GameRecord, ObservedStore, unavailable
from scopone.web.store import observed as observed_module
from scopone.web.store.offloop import OffLoop
from scopone.web.tables import TableService
from scopone.web.wallclock import ClockSteps

from .aio import run_alone
from .test_solo_driver_cases import Sim, sim_games
from .test_table_driver_cases import CARLA, GRACE, PACE, TAKEOVER, At, _carlas_move
from .test_table_driver_cases import sim as sim  # the fixture, as there
from .test_table_rules import _playing, _turn_to


@asynccontextmanager
async def observed_table(tmp_path: Path, sim: Sim, rec: GameRecord,
                         monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[At]:
    """``rec`` stored as a started table, its store observed as the app's is, and a driver."""
    monkeypatch.setattr(observed_module, "time", sim)
    table = t.table_of(rec)
    assert table is not None
    table["settled_version"] = table["game_version"] = rec.version
    table["seats"][2]["token"] = t.token_hash(CARLA)
    async with sim_games(tmp_path, sim) as games:
        store = games.store = ObservedStore(games.store)
        games.db = OffLoop(store)
        tables = TableService(games, t.Timing(PACE, GRACE))
        store.insert(rec)
        yield At(tables, Driver(tables, PACE, takeover=TAKEOVER, reconnect=GRACE,
                                away_at=lambda: store.away_at), rec)


@contextmanager
def database_away(at: At, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every read and write of the database fails as SQLite's does when another program holds
    it past the busy timeout."""
    store = at.tables.store
    assert isinstance(store, ObservedStore)

    def locked(*args: Any) -> Any:
        err = sqlite3.OperationalError("database is locked")
        err.sqlite_errorcode = 5  # type: ignore[attr-defined]
        assert unavailable(err)
        raise err

    with monkeypatch.context() as m:
        for name in ("load", "load_by_code", "version", "update", "insert"):
            m.setattr(store.inner, name, locked)
        yield


def _carlas_turn() -> GameRecord:
    rec, table = _playing(away_seconds=60)
    _turn_to(rec, 2)
    table["seats"][2]["connected"] = True
    return rec


async def _step(at: At, sim: Sim) -> None:
    """One look of the driver, its wait on the clock (the versions published so far known)."""
    async with sim.watch(at.rec.id, sim.newest.get(at.rec.id, -1)) as watch:
        await at.driver._step(at.rec.id, watch)  # type: ignore[arg-type]


def test_a_turn_the_database_was_away_in_starts_again_and_the_persons_card_stands(
        tmp_path: Path, sim: Sim, monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> tuple[At, list[dict[str, Any]], int]:
        rec = _carlas_turn()
        async with observed_table(tmp_path, sim, rec, monkeypatch) as at:
            with database_away(at, monkeypatch):
                sim.now = 150.0
                with pytest.raises(sqlite3.OperationalError):  # her card: 503
                    await at.tables.move("code", _carlas_move(rec, 0), CARLA)
                sim.now = 160.0
                with pytest.raises(sqlite3.OperationalError):  # the driver: tried again
                    await _step(at, sim)
            sim.now = 165.0  # the database is back
            await _step(at, sim)
            tables = [dict(at.stored()[1])]
            # Her card, sent again on the view she had: taken, not stale.
            played = await at.tables.move("code", _carlas_move(rec, 0), CARLA)
            tables.append(at.stored()[1])
            return at, tables, played.version

    at, (restarted, after), version = run_alone(scenario())
    assert restarted["turn_since"] == 165.0  # her whole minute again, from the outage's end
    assert restarted["seats"][2]["away"] is False and restarted["by_computer"] == []
    assert at.driver.cards_played == 0
    assert version == 2  # the clock's restart (1), then her card
    assert after["seats"][2]["away"] is False and after["by_computer"] == []


@pytest.mark.parametrize(("outages", "played_at"), [
    ((90.0,), 165.0),  # before her turn began: at the first look after her time ran out
    ((150.0, 170.0), 165.0 + 60),  # one in her turn, then one in it started again: her
    # time from the first restart, not from the second outage
])
def test_an_outage_gives_a_turn_its_time_again_once_and_only_an_outage_in_it(
        tmp_path: Path, sim: Sim, monkeypatch: pytest.MonkeyPatch,
        outages: tuple[float, ...], played_at: float) -> None:
    """A second outage in the restarted turn does not start it again (a database that keeps
    failing cannot hold a table up for ever), and one before the turn began gives it nothing:
    the computer plays her card when her time is out, marking her away."""

    async def scenario() -> tuple[dict[str, Any], int]:
        rec = _carlas_turn()
        async with observed_table(tmp_path, sim, rec, monkeypatch) as at:
            for outage in outages:
                with database_away(at, monkeypatch):
                    sim.now = outage
                    with pytest.raises(sqlite3.OperationalError):
                        at.tables.store.version(rec.id)
                sim.now = max(sim.now, 165.0)
                await _step(at, sim)  # past due: acts at once
            while at.driver.cards_played == 0 and sim.now < 300.0:
                await _step(at, sim)  # waits until due, then acts
            return at.stored()[1], at.driver.cards_played

    table, played = run_alone(scenario())
    assert played == 1
    assert table["turn_since"] == played_at
    assert table["seats"][2]["away"] is True


def test_a_clock_stepped_forward_in_a_turn_gives_it_its_time_again(
        tmp_path: Path, sim: Sim, monkeypatch: pytest.MonkeyPatch) -> None:
    """Carla's minute from t=100; ten seconds in, the machine's clock steps an hour forward (the
    monotonic clock does not). Her turn looked an hour old: the computer played her card at
    once and marked her away. Now her minute starts again from the step."""
    stepped = 0.0

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], int]:
        nonlocal stepped
        rec = _carlas_turn()
        async with observed_table(tmp_path, sim, rec, monkeypatch) as at:
            at.driver.stepped_at = ClockSteps(sim.time, lambda: sim.now - stepped).look
            await _step(at, sim)  # waits for her time to run out (t=160)
            assert sim.now == 160.0 and at.driver.cards_played == 0
            stepped = 3600.0
            sim.now += stepped  # the step: found when the driver wakes
            await _step(at, sim)
            restarted = dict(at.stored()[1])
            while at.driver.cards_played == 0 and sim.now < 5000.0:
                await _step(at, sim)
            return restarted, at.stored()[1], at.driver.cards_played

    restarted, table, played = run_alone(scenario())
    assert restarted["turn_since"] == 3760.0 and restarted["seats"][2]["away"] is False
    assert played == 1 and table["turn_since"] == 3760.0 + 60  # her whole minute, from then
