"""The driver of tables with friends (``scopone.web.driver``), on a virtual clock: a computer's
card comes at the pace after the last change, from the process that holds the table's lease (any
other one only ``takeover`` later, and then takes the lease over); the card renews the lease
and the turn's clock, marks a person played for as away and counts as a card for the version a
person's card is judged by; one driver a table in a process, kept while a page watches and
woken by the people's cards, gone when nobody watches and nothing is due. Mutation testing of
scopone/web/driver.py showed that no test noticed these going wrong.

The clock and the push hub are ``Sim`` (test_solo_driver_cases.py): nothing here sleeps. The
tables are ``_playing``'s (test_table_rules.py): Anna (host, seat 0) and Carla (seat 2) with
two computers, started at t=100."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from scopone.web import driver as driver_module
from scopone.web import errors as e
from scopone.web import service as service_module
from scopone.web import table as t
from scopone.web import tables as tables_module
from scopone.web.driver import IDLE_SECONDS, Driver
from scopone.web.schemas_tables import TableMoveIn
from scopone.web.store import GameRecord
from scopone.web.tables import TableService

from .aio import run_alone
from .test_solo_driver_cases import Sim, sim_games
from .test_table_rules import _playing, _turn_to

PACE = 0.75  # binary fractions: the virtual clock's sums are exact
TAKEOVER = 2.0
GRACE = 5.0
CARLA = t.new_token()


@pytest.fixture
def sim(monkeypatch: pytest.MonkeyPatch) -> Sim:
    """The virtual clock, for the driver and for every time a change is stored at."""
    clock = Sim(100.0)
    for module in (driver_module, service_module, tables_module):
        monkeypatch.setattr(module, "time", clock)
    return clock


@dataclass
class At:
    tables: TableService
    driver: Driver
    rec: GameRecord

    def stored(self) -> tuple[GameRecord, dict[str, Any]]:
        rec = self.tables.store.load(self.rec.id)
        assert rec is not None
        table = t.table_of(rec)
        assert table is not None
        return rec, table


@asynccontextmanager
async def at_table(tmp_path: Path, sim: Sim, rec: GameRecord) -> AsyncIterator[At]:
    """``rec`` stored as a started table would be, and a driver for this process."""
    table = t.table_of(rec)
    assert table is not None
    # What the start stores beside the deal: the version the game's cards are judged from.
    table["settled_version"] = table["game_version"] = rec.version
    table["seats"][2]["token"] = t.token_hash(CARLA)
    async with sim_games(tmp_path, sim) as games:
        tables = TableService(games, t.Timing(PACE, GRACE))
        games.store.insert(rec)
        yield At(tables, Driver(tables, PACE, takeover=TAKEOVER, reconnect=GRACE), rec)


def _computer_then_carla(lease_owner: str | None) -> GameRecord:
    """Seat 1 (a computer) to play, then Carla, whose page is open and who has no time limit:
    one card is due, then none."""
    rec, table = _playing(away_seconds=None)
    _turn_to(rec, 1)
    table["seats"][2]["connected"] = True
    table["lease"] = None if lease_owner is None else {"owner": lease_owner, "since": 100.0}
    return rec


def _carlas_move(rec: GameRecord, version: int) -> TableMoveIn:
    move = rec.match.round.legal_moves()[0]
    return TableMoveIn(version=version, card=str(move.card),
                       capture=[str(c) for c in move.capture])


async def _drive(at: At) -> None:
    """Drives the table as the app does when it changes, until the driver stops."""
    at.driver.kick(at.rec.id)
    await at.driver._tasks[at.rec.id]
    assert at.driver._tasks == {}  # nothing left behind for a table no longer driven


@pytest.mark.parametrize(("lease", "after"), [
    ("here", PACE),  # this process holds the lease
    ("elsewhere", PACE + TAKEOVER),  # another process does: it goes first
    (None, PACE),  # a table stored before leases were kept
])
def test_a_computers_card_comes_at_the_pace_and_renews_the_lease_and_the_turns_clock(
        tmp_path: Path, sim: Sim, lease: str | None, after: float) -> None:
    async def scenario() -> tuple[At, GameRecord, dict[str, Any]]:
        rec = _computer_then_carla(lease)
        async with at_table(tmp_path, sim, rec) as at:
            if lease == "here":
                t.table_of(rec)["lease"]["owner"] = at.driver.owner  # type: ignore[index]
                at.tables.store.update(rec, rec.version)
            await _drive(at)
            return at, *at.stored()

    at, rec, table = run_alone(scenario())
    played = 100.0 + after
    assert sim.changes == [(rec.id, 1, played)]
    assert rec.match.round.history[-1].seat == 1  # type: ignore[index]
    assert table["turn_since"] == played  # Carla's time (and the next pace) counts from it
    assert table["lease"] == {"owner": at.driver.owner, "since": played}
    assert table["seats"][1]["away"] is False and table["by_computer"] == []
    assert at.driver.cards_played == 1
    # A card is the game's change, not the seats': a host's hand-over read before it stands.
    assert table["game_version"] == rec.version and table["settled_version"] == rec.version - 1


def test_cards_due_one_after_another_are_played_by_one_drive(tmp_path: Path, sim: Sim) -> None:
    """Seat 1 (a computer), Carla (away: the computer plays for her at the pace) and seat 3: one
    card after another, each the pace after the one before, without anyone's change or page
    in between; then Anna's turn, who has no time limit, and the driver ends."""

    async def scenario() -> str:
        rec = _computer_then_carla(None)
        t.table_of(rec)["seats"][2]["away"] = True  # type: ignore[index]
        async with at_table(tmp_path, sim, rec) as at:
            await _drive(at)
            assert at.driver.cards_played == 3
            return rec.id

    gid = run_alone(scenario())
    assert sim.changes == [(gid, 1, 100.0 + PACE), (gid, 2, 100.0 + 2 * PACE),
                           (gid, 3, 100.0 + 3 * PACE)]


@pytest.mark.parametrize("stamp", ["turn", "gone"])
def test_a_clock_stepped_back_does_not_hold_the_table(
        tmp_path: Path, sim: Sim, stamp: str) -> None:
    """The table's turn, or Carla's going, is stamped an hour after this process's clock reads
    now (the clock stepped back an hour): the turn starts now and the cards come at the pace
    and the grace from now, not an hour later (QA: a game alone froze so)."""

    async def scenario() -> tuple[str, dict[str, Any]]:
        rec = _computer_then_carla(None)
        table = t.table_of(rec)
        assert table is not None
        if stamp == "turn":
            table["turn_since"] = 100.0 + 3600
        else:
            _turn_to(rec, 2)
            carla = table["seats"][2]
            carla["connected"], carla["gone_since"] = False, 100.0 + 3600
        async with at_table(tmp_path, sim, rec) as at:
            await _drive(at)
            return rec.id, at.stored()[1]

    gid, table = run_alone(scenario())
    # Version 1: the turn started again at 100; version 2: the card, at the pace or the grace.
    assert sim.changes[0] == (gid, 1, 100.0)
    assert sim.changes[1] == (gid, 2, 100.0 + (PACE if stamp == "turn" else GRACE))
    assert all(s["gone_since"] is None or s["gone_since"] <= 100.0 + GRACE
               for s in table["seats"])


def test_a_person_whose_page_closed_is_played_for_after_the_grace(
        tmp_path: Path, sim: Sim) -> None:
    """Carla's turn, her page gone (no stream since t=100): the driver waits the grace after
    it went, not the pace and not for ever, then plays her card and marks her away."""

    async def scenario() -> tuple[str, dict[str, Any]]:
        rec = _computer_then_carla(None)
        _turn_to(rec, 2)
        seat = t.table_of(rec)["seats"][2]  # type: ignore[index]
        seat["connected"], seat["gone_since"] = False, 100.0
        async with at_table(tmp_path, sim, rec) as at:
            await _drive(at)
            return rec.id, at.stored()[1]

    gid, table = run_alone(scenario())
    assert sim.changes[0] == (gid, 1, 100.0 + GRACE)
    assert table["seats"][2]["away"] is True


def test_a_person_out_of_time_gets_the_computers_card_marked_as_its_choice(
        tmp_path: Path, sim: Sim) -> None:
    """Carla's 60 s run out: the computer plays her card, she is away from then on (her next
    cards at the pace), and the card is noted as the computer's choice, not hers."""

    async def scenario() -> tuple[At, GameRecord, dict[str, Any], int]:
        rec, table = _playing(away_seconds=60)
        _turn_to(rec, 2)
        table["seats"][2]["connected"] = True
        done = len(rec.match.round.history or ())
        async with at_table(tmp_path, sim, rec) as at:
            sim.now = 160.0
            await at.driver._play(rec.id, rec.version, 2)
            return at, *at.stored(), done

    at, rec, table, done = run_alone(scenario())
    carla = table["seats"][2]
    assert rec.version == 1 and rec.match.round.history[-1].seat == 2  # type: ignore[index]
    assert carla["away"] is True
    assert table["by_computer"] == [done]
    assert table["turn_since"] == 160.0
    assert table["lease"] == {"owner": at.driver.owner, "since": 160.0}
    assert table["seats"][0]["away"] is False


def test_a_persons_card_is_judged_against_the_computers_card_before_it(
        tmp_path: Path, sim: Sim) -> None:
    """After the computer's card, Carla's card on the view before it is stale (409), and her
    card on the view with it is played."""

    async def scenario() -> tuple[str, int]:
        rec = _computer_then_carla(None)
        async with at_table(tmp_path, sim, rec) as at:
            await _drive(at)
            now, _ = at.stored()
            with pytest.raises(e.Conflict) as stale:
                await at.tables.move("code", _carlas_move(now, 0), CARLA)
            played = await at.tables.move("code", _carlas_move(now, 1), CARLA)
            return str(stale.value.detail), played.version

    detail, version = run_alone(scenario())
    assert detail == e.STALE_VERSION
    assert version == 2


def test_a_card_the_computer_chose_for_a_version_gone_is_dropped(
        tmp_path: Path, sim: Sim, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the computer decides Carla's card (out of time), she plays her own: the
    computer's card is not played on top, and she is not marked away."""

    async def scenario() -> tuple[GameRecord, dict[str, Any]]:
        rec, _ = _playing(away_seconds=60)
        _turn_to(rec, 2)
        async with at_table(tmp_path, sim, rec) as at:
            decide = at.tables.games.decide

            async def slow(rec: GameRecord, seat: int) -> Any:
                move = await decide(rec, seat)
                await at.tables.move("code", _carlas_move(rec, rec.version), CARLA)
                return move

            monkeypatch.setattr(at.tables.games, "decide", slow)
            sim.now = 160.0
            await at.driver._play(rec.id, rec.version, 2)
            return at.stored()

    rec, table = run_alone(scenario())
    assert rec.version == 1  # Carla's card only
    assert table["seats"][2]["away"] is False and table["by_computer"] == []


def test_the_computers_card_that_ends_a_round_is_heard_by_the_coach(
        tmp_path: Path, sim: Sim) -> None:
    class Watcher:
        def __init__(self) -> None:
            self.heard: list[str] = []

        async def game_created(self, rec: GameRecord, person: str | None) -> None:
            pass

        def round_over(self, rec: GameRecord) -> None:
            self.heard.append("over")

        async def round_stored(self, rec: GameRecord) -> None:
            self.heard.append("stored")

    async def scenario() -> tuple[list[str], GameRecord]:
        rec, _ = _playing(away_seconds=None)
        r = rec.match.round
        while len(r.history or ()) < 39:
            r.play(r.legal_moves()[0], seat=r.turn)
        async with at_table(tmp_path, sim, rec) as at:
            watcher = Watcher()
            at.tables.games.watcher = watcher
            await at.driver._play(rec.id, rec.version, r.turn)
            return watcher.heard, at.stored()[0]

    heard, rec = run_alone(scenario())
    assert rec.match.round.is_over
    assert heard == ["over", "stored"]  # once, for the coach's review of the round


def test_a_watched_table_keeps_its_driver_which_wakes_at_a_persons_card(
        tmp_path: Path, sim: Sim) -> None:
    """Carla (no time limit) thinks 3 s while her page is open: the driver looks again now and
    then, wakes at her card and plays the computer's after it at the pace; at Anna's turn the
    last page closes and the driver stops."""

    async def scenario() -> str:
        rec, table = _playing(away_seconds=None)
        _turn_to(rec, 2)
        for seat in (0, 2):
            table["seats"][seat]["connected"] = True
        async with at_table(tmp_path, sim, rec) as at:
            streams = {rec.id: 1}
            at.driver.streams = lambda game_id: streams.get(game_id, 0)

            async def meanwhile(timeout: float | None) -> None:
                now, _ = at.stored()
                if now.version == 0:  # Carla plays after 3 s
                    sim.now += 3.0
                    await at.tables.move("code", _carlas_move(now, 0), CARLA)
                elif now.match.round.turn == 0:
                    streams[rec.id] = 0  # Anna's turn: the last page closes

            sim.meanwhile = meanwhile
            await _drive(at)
            return rec.id

    gid = run_alone(scenario())
    assert sim.waits[0] == IDLE_SECONDS  # nothing due: it looks again, now and then
    assert sim.changes == [(gid, 1, 103.0), (gid, 2, 103.0 + PACE)]  # Carla's, seat 3's


def test_a_persons_card_stored_while_an_idle_driver_reads_the_table_is_played_on(
        tmp_path: Path, sim: Sim, monkeypatch: pytest.MonkeyPatch) -> None:
    """Carla's turn, no time limit, no page of the table open here: nothing is due and the
    driver is about to stop. Her card is stored while it reads the table, and the read has what
    the store held before it. The card's kick finds the driver still running, so the driver
    itself must see that the table moved on. (It stopped: seat 3's card then waited until a
    page of the table connected or someone changed it.)"""

    async def scenario() -> str:
        rec, _ = _playing(away_seconds=None)
        _turn_to(rec, 2)
        async with at_table(tmp_path, sim, rec) as at:
            at.tables.on_change = at.driver.kick  # as the app wires it
            record = at.tables.record
            racing = [True]

            async def read_as_carla_plays(game_id: str, version: int | None) -> Any:
                before = await record(game_id, version)
                if racing:
                    racing.pop()
                    now, _ = at.stored()
                    await at.tables.move("code", _carlas_move(now, now.version), CARLA)
                return before

            monkeypatch.setattr(at.tables, "record", read_as_carla_plays)
            await _drive(at)
            return rec.id

    gid = run_alone(scenario())
    # Carla's card, then seat 3's at the pace; then Anna's turn: nothing due, the driver stops.
    assert sim.changes == [(gid, 1, 100.0), (gid, 2, 100.0 + PACE)]


def test_a_failed_card_is_tried_again_within_a_second(
        tmp_path: Path, sim: Sim, monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> str:
        rec = _computer_then_carla(None)
        async with at_table(tmp_path, sim, rec) as at:
            decide = at.tables.games.decide
            failures = [RuntimeError("the thinker's worker died")]

            async def flaky(rec: GameRecord, seat: int) -> Any:
                if failures:
                    raise failures.pop()
                return await decide(rec, seat)

            monkeypatch.setattr(at.tables.games, "decide", flaky)
            await _drive(at)
            return rec.id

    gid = run_alone(scenario())
    [(game, version, when)] = sim.changes
    assert (game, version) == (gid, 1)
    assert 100.0 + PACE < when <= 100.0 + PACE + 1.0


def test_a_table_that_cannot_be_read_for_a_moment_is_driven_on(
        tmp_path: Path, sim: Sim, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database fails once while the driver reads the table (not while it plays): the
    driver logs it and looks again a second later, as after a failed card. (It ended instead,
    and the table stalled, its computers' cards unplayed, until someone changed it or a page
    connected again.)"""

    async def scenario() -> str:
        rec = _computer_then_carla(None)
        async with at_table(tmp_path, sim, rec) as at:
            record = at.tables.record
            failures = [OSError("database is locked")]

            def flaky(game_id: str, version: int | None) -> Any:
                if failures:
                    raise failures.pop()
                return record(game_id, version)

            monkeypatch.setattr(at.tables, "record", flaky)
            await _drive(at)
            return rec.id

    gid = run_alone(scenario())
    [(game, version, when)] = sim.changes
    assert (game, version) == (gid, 1)
    assert 100.0 + PACE <= when <= 100.0 + PACE + 1.0


def test_one_driver_a_table_however_often_it_is_kicked(tmp_path: Path, sim: Sim) -> None:
    async def scenario() -> bool:
        async with at_table(tmp_path, sim, _computer_then_carla(None)) as at:
            gid = at.rec.id
            at.driver.kick(gid)
            first = at.driver._tasks[gid]
            at.driver.kick(gid)  # a change, a page opening: the driver is there already
            same = at.driver._tasks[gid] is first
            at.driver.close()
            for task in (first, at.driver._tasks.get(gid)):
                if task is not None:
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            return same

    assert run_alone(scenario()) is True


def test_the_driver_of_a_table_gone_stops_quietly(
        tmp_path: Path, sim: Sim, monkeypatch: pytest.MonkeyPatch) -> None:
    """Swept away before the driver looks, or while the computer decides: nothing is played,
    and nothing fails."""

    async def scenario() -> int:
        rec = _computer_then_carla(None)
        async with at_table(tmp_path, sim, rec) as at:
            await at.driver._run("swept-away")
            await at.driver._play("swept-away", 0, 1)
            decide = at.tables.games.decide

            async def swept(rec: GameRecord, seat: int) -> Any:
                move = await decide(rec, seat)
                assert at.tables.store.remove_old(0.0, float("inf")) == 1
                return move

            monkeypatch.setattr(at.tables.games, "decide", swept)
            await at.driver._play(rec.id, rec.version, 1)
            return at.driver.cards_played

    assert run_alone(scenario()) == 0
    assert sim.changes == []


# A process known to be dead: this machine's, with a pid no process can have.
DEAD = f"{t.machine()}:{2**31 - 1}:dead"
# A process of another machine, never heard of: not judged dead from here.
LIVE = "elsewhere:1:live"
# A process of another machine whose heartbeat falls silent (``_silent``).
SILENT = "faraway:2:silent"


@pytest.mark.parametrize("carla", ["gone with the server", "back on another process"])
def test_a_table_a_dead_process_drove_is_taken_over_at_once_and_its_clock_starts_again(
        tmp_path: Path, sim: Sim, carla: str) -> None:
    """A restart: the lease names a process that is dead, and Carla's 60 s ran out while the
    server was down (her turn began at t=100, the driver looks at t=500). The time the server
    was down is nobody's: the table is taken over at once and its clock starts again. Carla
    whose page did not come back (her only stream the dead process's) is offline from then,
    and the computer plays for her after the grace; Carla back on a live process gets her
    whole minute again. Her card is not played the moment the server is back."""

    async def scenario() -> tuple[At, list[tuple[str, int, float]], dict[str, Any]]:
        rec, table = _playing(away_seconds=60)
        _turn_to(rec, 2)
        seat = table["seats"][2]
        seat["streams"] = {DEAD: True, **({LIVE: True} if carla != "gone with the server"
                                          else {})}
        seat["connected"] = True
        table["lease"] = {"owner": DEAD, "since": 100.0}
        async with at_table(tmp_path, sim, rec) as at:
            sim.now = 500.0
            await _drive(at)
            revived = at.tables.store.load(rec.id)
            return at, sim.changes[:2], t.table_of(revived)  # type: ignore[return-value]

    at, changes, table = run_alone(scenario())
    (_, v1, revived_at), (_, v2, carlas_card_at) = changes
    assert (v1, revived_at, v2) == (1, 500.0, 2)
    if carla == "gone with the server":
        assert carlas_card_at == 500.0 + GRACE
    else:
        assert carlas_card_at == 500.0 + 60
    assert table["lease"]["owner"] == at.driver.owner
    assert all(DEAD not in s.get("streams", {}) for s in table["seats"])


def _carla_connected_only_by(process: str) -> GameRecord:
    """Carla's turn at a table with no time limit, her seat connected by one stream, of
    ``process``; the lease a live process's elsewhere."""
    rec, table = _playing(away_seconds=None)
    _turn_to(rec, 2)
    table["seats"][2]["streams"] = {process: True}
    table["seats"][2]["connected"] = True
    table["lease"] = {"owner": LIVE, "since": 100.0}
    return rec


def _silent(at: At, name: str) -> None:
    """``name``, a process of another machine, beat once and then fell silent: judged gone
    at this process's next look (``scopone.web.liveness``)."""
    at.tables.store.beat(name)
    at.tables.liveness.stale = 0.05
    time.sleep(0.1)
    assert at.tables.liveness.look()


@pytest.mark.parametrize("dead", [DEAD, SILENT])
def test_a_seat_connected_only_by_a_dead_process_goes_offline_at_a_table_with_no_clock(
        tmp_path: Path, sim: Sim, dead: str) -> None:
    """No time limit at the table: Carla, counted connected by a stream of a process that is
    dead (this machine's pid gone, or another machine's heartbeat silent), would be waited for
    for ever. The driver finds the dead stream: she is offline from then and her card is played
    after the grace (the lease is a live process's elsewhere, so its takeover too); the
    table's clock is left alone, its driver being alive."""

    async def scenario() -> tuple[list[tuple[str, int, float]], dict[str, Any]]:
        rec = _carla_connected_only_by(dead)
        async with at_table(tmp_path, sim, rec) as at:
            if dead == SILENT:
                _silent(at, SILENT)
            sim.now = 500.0
            await _drive(at)
            stored = at.tables.store.load(rec.id)
            return sim.changes[:2], t.table_of(stored)  # type: ignore[return-value]

    changes, table = run_alone(scenario())
    assert [(v, when) for _, v, when in changes] == [(1, 500.0), (2, 500.0 + GRACE + TAKEOVER)]
    carla = table["seats"][2]
    assert carla["streams"] == {} and carla["away"] is True


def test_a_persons_card_moves_the_lease_to_the_process_that_stored_it(
        tmp_path: Path, sim: Sim) -> None:
    """The lease is another live process's, which may have stopped driving (no page of the
    table open there). Carla's card, stored here, makes this process the driver: the next
    computer's card comes at the pace, not a takeover later."""

    async def scenario() -> tuple[str, dict[str, Any], str]:
        rec, table = _playing(away_seconds=None)
        _turn_to(rec, 2)
        table["seats"][2]["connected"] = True
        table["lease"] = {"owner": LIVE, "since": 100.0}
        async with at_table(tmp_path, sim, rec) as at:
            sim.now = 110.0
            await at.tables.move("code", _carlas_move(rec, 0), CARLA)
            await _drive(at)
            return rec.id, at.stored()[1], at.driver.owner

    gid, table, owner = run_alone(scenario())
    assert sim.changes[:2] == [(gid, 1, 110.0), (gid, 2, 110.0 + PACE)]
    assert table["lease"]["owner"] == owner


def test_a_process_newly_judged_gone_wakes_an_idle_driver_at_once(
        tmp_path: Path, sim: Sim) -> None:
    """Carla, no time limit, is counted connected by a page on another machine's process, and
    a page of the table is open here, so the driver idles, looking again every
    ``IDLE_SECONDS``. That process falls silent: the heartbeat that judges
    it gone wakes the driver (the app's ``on_gone``), which takes the stream away now, not at
    its next idle look."""

    async def scenario() -> str:
        rec = _carla_connected_only_by(SILENT)
        async with at_table(tmp_path, sim, rec) as at:
            liveness = at.tables.liveness
            liveness.on_gone = at.driver.look_again
            streams = {rec.id: 1}
            at.driver.streams = lambda game_id: streams.get(game_id, 0)
            at.tables.store.beat(SILENT)
            liveness.stale = 0.05

            async def meanwhile(timeout: float | None) -> None:
                if len(sim.waits) == 1:  # while the driver idles, SILENT falls silent
                    time.sleep(0.1)
                    await liveness.beat_once()
                else:
                    streams[rec.id] = 0  # then the page here closes

            sim.now = 500.0
            sim.meanwhile = meanwhile
            await _drive(at)
            return rec.id

    gid = run_alone(scenario())
    assert sim.waits[0] == IDLE_SECONDS
    assert sim.changes[0] == (gid, 1, 500.0)  # the stream dropped at once, not 30 s later


def test_a_process_heard_again_stores_its_pages_connected_again(
        tmp_path: Path, sim: Sim) -> None:
    """Another process judged this one gone and dropped its stream of Carla's seat (she is
    shown offline). Heard again, this process tells the table her page is still open here;
    a seat whose stream is still stored is left as it is (no new version)."""
    from scopone.web.events import Presence

    async def scenario() -> tuple[list[int], dict[str, Any]]:
        rec, _ = _playing(away_seconds=None)
        async with at_table(tmp_path, sim, rec) as at:
            presence = Presence(at.tables, at.tables.process)
            await presence.opened(rec.id, 2)
            versions = [at.stored()[0].version]
            stored, table = at.stored()
            carla = table["seats"][2]
            carla["streams"].clear()  # what the other process's revive stored
            t.note_presence(carla, sim.now)
            assert await at.tables.commit(stored, seats_changed=False)
            versions.append(at.stored()[0].version)
            await presence.tell_again()
            versions.append(at.stored()[0].version)
            await presence.tell_again()
            versions.append(at.stored()[0].version)
            return versions, at.stored()[1]

    versions, table = run_alone(scenario())
    assert versions == [1, 2, 3, 3]
    carla = table["seats"][2]
    assert carla["connected"] is True and carla["gone_since"] is None
    assert len(carla["streams"]) == 1


def test_a_spectators_stream_keeps_the_table_driven_here_and_stores_nothing(
        tmp_path: Path, sim: Sim) -> None:
    """A spectator's page is a reason to drive the table in its process (so a process judged
    gone is noticed there); unlike a seat's, it changes nothing stored."""
    from scopone.web.events import Presence

    async def scenario() -> list[tuple[int, int]]:
        rec, _ = _playing(away_seconds=None)
        async with at_table(tmp_path, sim, rec) as at:
            presence = Presence(at.tables, at.tables.process)
            at.driver.streams = presence.streams
            seen = [(presence.streams(rec.id), at.stored()[0].version)]
            presence.spectating(rec.id, 1)
            presence.spectating(rec.id, 1)
            seen.append((presence.streams(rec.id), at.stored()[0].version))
            assert at.driver._watched_here(rec.id)
            presence.spectating(rec.id, -1)
            presence.spectating(rec.id, -1)
            seen.append((presence.streams(rec.id), at.stored()[0].version))
            assert presence.spectators == {}
            return seen

    assert run_alone(scenario()) == [(0, 0), (2, 0), (0, 0)]
