"""Computer decisions off the event loop: Hard thinks in worker processes, never in the server's.

A player receives only the deciding seat's ``SeatView`` (it pickles); the rng seed is derived on
the server from the game's secret seed and version, so every decision can be replayed there.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import contextlib
import multiprocessing
import os
import random
from concurrent.futures.process import BrokenProcessPool

from ..engine import Move, SeatView
from ..players import make_player
from ..workers import in_pool, watch_server


@in_pool
def decide(level: str, time_budget: float, view: SeatView, seed: str) -> tuple[int, int]:
    """The move the computer player of ``level`` makes in ``view``, as (card index, capture
    mask); a top-level function so a worker process can run it."""
    move: Move = make_player(level, time_budget).choose(view, random.Random(seed))
    return move.card.index, move.capture_mask


def _init_worker(server_pid: int) -> None:
    """Prepares a fresh worker process: imports the players, so the first real move does not
    pay for it, and watches the server (``watch_server``)."""
    watch_server(server_pid)
    for level in ("easy", "normal", "hard"):
        # A level not written yet fails later, where it is used.
        with contextlib.suppress(ImportError):
            make_player(level)


def _ready() -> None:
    """A no-op task: submitting it makes the pool start a worker now."""


#: Levels decided in the server's own thread: a Normal decision takes about 0.2 ms (p95 0.3 ms),
#: far less than handing it to another process and back.
INLINE_LEVELS = frozenset({"easy", "normal"})

#: Under load Hard thinks no less than this share of its budget: at a quarter of a second it
#: plays as well as at a whole one against itself, perhaps a tenth of a point a round worse
#: against Normal (``players.TIME_BUDGET``).
LEAST_SHARE = 0.25


def shared_budget(budget: float, workers: int, thinking: int) -> float:
    """Hard's seconds for one decision while ``thinking`` decisions (this one included) want
    the ``workers``: the whole budget while each has a worker to itself; beyond that the
    workers' time is shared, so a card waits in the queue for about one budget, not one for
    every decision ahead of it; never less than ``LEAST_SHARE`` of the budget.

    >>> [shared_budget(1.0, 2, n) for n in (1, 2, 4, 5, 20)]
    [1.0, 1.0, 0.5, 0.4, 0.25]
    """
    if thinking <= workers:
        return budget
    return max(budget * LEAST_SHARE, budget * workers / thinking)


class Thinker:
    """Runs Hard's decisions in an executor so the event loop never waits on them; Easy and
    Normal decide at once, inline. When more of Hard's decisions are asked for than there are
    workers, each new one gets a share of the budget (``shared_budget``)."""

    def __init__(self, time_budget: float, processes: bool, workers: int) -> None:
        self.time_budget = time_budget
        self._processes = processes
        self.workers = max(1, workers)
        self._hard = self._new_executor()
        self.thinking = 0  # Hard's decisions asked for and not answered yet

    def _new_executor(self) -> cf.Executor:
        if self._processes:
            # spawn, not fork: forking a process that runs an event loop and threads is unsafe.
            ctx = multiprocessing.get_context("spawn")
            return cf.ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx,
                                          initializer=_init_worker, initargs=(os.getpid(),))
        return cf.ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="scopone-ai")

    def start(self) -> None:
        """Starts the workers now rather than at the first Hard move."""
        if self._processes:
            for _ in range(self.workers):
                self._hard.submit(_ready)

    async def choose(self, level: str, view: SeatView, seed: str) -> Move:
        if level in INLINE_LEVELS:
            return Move.from_masks(*decide(level, self.time_budget, view, seed))
        loop = asyncio.get_running_loop()
        ex = self._hard
        # Counted on the event loop's thread, before the first await: no lock needed.
        self.thinking += 1
        try:
            budget = shared_budget(self.time_budget, self.workers, self.thinking)
            try:
                card, capture = await loop.run_in_executor(
                    ex, decide, level, budget, view, seed)
            except BrokenProcessPool:
                # A worker died (killed, out of memory): replace the pool, once even when
                # several requests find it broken, and try once more.
                ex = self._replace(ex)
                card, capture = await loop.run_in_executor(
                    ex, decide, level, budget, view, seed)
        finally:
            self.thinking -= 1
        return Move.from_masks(card, capture)

    def _replace(self, broken: cf.Executor) -> cf.Executor:
        if self._hard is not broken:
            return self._hard  # another request has replaced it already
        broken.shutdown(wait=False, cancel_futures=True)
        self._hard = self._new_executor()
        return self._hard

    def close(self) -> None:
        self._hard.shutdown(wait=True, cancel_futures=True)
