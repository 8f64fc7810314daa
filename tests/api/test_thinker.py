"""Computer moves: decided in worker processes from a seat's view only, replayable by seed."""

from __future__ import annotations

import asyncio
import os
import pickle
import random
import subprocess
import sys
import textwrap
from typing import Any

import pytest

from scopone.engine import Match, Rules, SeatView
from scopone.web import Settings, thinker
from scopone.web import settings as settings_module
from scopone.web.thinker import Thinker, decide

from .aio import run_alone


def test_decisions_depend_only_on_view_and_seed() -> None:
    match = Match(Rules(), random.Random(4))
    r = match.round
    view = SeatView.of(r, r.turn)
    # What crosses to the worker process: the view pickles, and carries one hand only.
    assert pickle.loads(pickle.dumps(view)) == view
    assert view.hand == tuple(r.hand(r.turn))
    moves = {decide("easy", 0.05, view, f"s:{n}") for n in range(30)}
    assert all(m in set(r.legal_pairs()) for m in moves)
    assert len(moves) > 1  # the seed matters...
    assert {decide("easy", 0.05, view, "s:7") for _ in range(5)} == {decide("easy", 0.05, view,
                                                                            "s:7")}  # ...alone


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_worker_processes_play_a_round(api_factory: Any, level: str) -> None:
    built = api_factory(ai_processes=True, ai_workers=1)
    with built.client:
        game = built.create(level=level)
        game = built.round_end(game, random.Random(9))
        assert len(game["history"]) == 40 and game["level"] == level


def test_hard_shares_its_workers_time_when_decisions_queue(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    # One worker, three of Hard's decisions asked for at once: the first has the worker to
    # itself and its whole budget; the two queued behind it get a half and a third, so the
    # last card waits about one budget, not three. Alone again, the whole budget.
    budgets: list[float] = []

    def watched(level: str, time_budget: float, view: SeatView, seed: str) -> tuple[int, int]:
        budgets.append(time_budget)
        return decide(level, time_budget, view, seed)

    monkeypatch.setattr(thinker, "decide", watched)
    r = Match(Rules(), random.Random(4)).round
    view = SeatView.of(r, r.turn)
    t = Thinker(0.2, processes=False, workers=1)

    async def three_then_one() -> list[Any]:
        moves = await asyncio.gather(*(t.choose("hard", view, f"s:{n}") for n in range(3)))
        assert t.thinking == 0
        return [*moves, await t.choose("hard", view, "s:3")]

    try:
        moves = run_alone(three_then_one())
    finally:
        t.close()
    assert budgets == pytest.approx([0.2, 0.1, 0.2 / 3, 0.2])
    assert all((m.card.index, m.capture_mask) in set(r.legal_pairs()) for m in moves)


def test_hard_gets_the_servers_share_of_the_cores(monkeypatch: pytest.MonkeyPatch,
                                                  api_factory: Any) -> None:
    # Unset (0), SCOPONE_AI_WORKERS follows the machine: its cores divided among the server's
    # processes, at least one each and at most eight; an operator's number wins.
    assert 1 <= settings_module.available_cores() <= (os.cpu_count() or 1)
    monkeypatch.setattr(settings_module, "available_cores", lambda: 8)
    assert [Settings(workers=n).hard_workers for n in (1, 2, 3, 8, 16)] == [8, 4, 2, 1, 1]
    assert Settings(workers=2, ai_workers=3).hard_workers == 3
    assert Settings.from_env({"SCOPONE_AI_WORKERS": "", "SCOPONE_WORKERS": "4"}).hard_workers == 2
    assert Settings.from_env({"SCOPONE_AI_WORKERS": "5"}).hard_workers == 5
    monkeypatch.setattr(settings_module, "available_cores", lambda: 64)
    assert [Settings(workers=n).hard_workers for n in (1, 4, 16)] == [8, 8, 4]
    assert Settings(ai_workers=12).hard_workers == 12
    monkeypatch.setattr(settings_module, "available_cores", lambda: 8)
    # The app's thinker is built with that share.
    built = api_factory(ai_processes=False, ai_workers=0, workers=2)
    with built.client:
        assert built.app.state.service.thinker.workers == 4


def _stops(n: int) -> int:
    return next(iter(range(n)))  # StopIteration when n == 0


def test_a_stop_iteration_in_a_pool_fails_the_request_instead_of_hanging() -> None:
    """asyncio cannot hand a ``StopIteration`` from a pool to its awaiting future (that future
    then never finishes): ``in_pool`` turns it into an error the request can answer with."""
    from concurrent.futures import ThreadPoolExecutor

    from scopone.coach import payload
    from scopone.workers import in_pool

    async def run(fn: Any) -> str:
        loop = asyncio.get_running_loop()
        with ThreadPoolExecutor(1) as pool:
            try:
                await asyncio.wait_for(loop.run_in_executor(pool, fn, 0), 5.0)
            except Exception as exc:
                return type(exc).__name__
        return "no error"

    # Unguarded, the same call is still waiting when the 5 s run out.
    assert run_alone(run(in_pool(_stops))) == "RuntimeError"
    # Every function the thinker's and the coach's pools run is guarded.
    for fn in (decide, payload.compute_hint, payload.compute_review):
        assert fn.__wrapped__.__name__ == fn.__name__  # type: ignore[attr-defined]


# Run in an interpreter of its own, as a server's: in the test session another test may have
# imported concurrent.futures.process already, which hid the fault.
CANCELLED_OR_FAILED = textwrap.dedent("""
    import asyncio, concurrent.futures as cf, random, threading
    from scopone.engine import Match, Rules, SeatView
    from scopone.web import thinker
    from scopone.web.coach import CoachService
    from scopone.web.thinker import Thinker

    def broken(*args):
        raise ValueError("its own")

    release = threading.Event()  # set once all is asked: the threads then end

    def slow(*args):
        release.wait(10)
        return {}

    async def outcome(call):
        task = asyncio.ensure_future(call)
        await asyncio.sleep(0.05)
        if not task.done():
            task.cancel()
        try:
            await task
        except BaseException as exc:  # noqa: BLE001
            return type(exc).__name__
        return "answered"

    async def main():
        r = Match(Rules(), random.Random(4)).round
        view = SeatView.of(r, r.turn)
        thinker.decide = broken
        print(await outcome(Thinker(0.2, processes=False, workers=1).choose("hard", view, "s")))
        thinker.decide = slow
        print(await outcome(Thinker(0.2, processes=False, workers=1).choose("hard", view, "s")))
        coach = object.__new__(CoachService)  # its pool alone: no game service needed
        coach._processes, coach._workers, coach._busy = False, 1, 0
        coach._pool = cf.ThreadPoolExecutor(max_workers=1)
        print(await outcome(coach._run(broken)))
        print(await outcome(coach._run(slow)))
        release.set()

    asyncio.run(main())
""")


def test_a_decision_failed_or_cancelled_in_threads_ends_with_its_own_error() -> None:
    """With the workers in threads (``SCOPONE_AI_PROCESSES=0``, and the browser tests'
    servers), nothing imported ``concurrent.futures.process``: a Hard decision or a coach's job
    that failed, or was cancelled (a table closed, a server stopping), ended in AttributeError
    "module 'concurrent.futures' has no attribute 'process'" from the clause meant to catch a
    broken process pool, in place of its own error."""
    done = subprocess.run([sys.executable, "-c", CANCELLED_OR_FAILED], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ValueError", "CancelledError", "ValueError",
                                   "CancelledError"], done.stdout
