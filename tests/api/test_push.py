"""The push seam's hub (``scopone.web.push``): a watch learns the newest version of its game,
never an old one twice; a game nobody watches is forgotten; the store's listener thread wakes
the event loop only for news (PostgreSQL's NOTIFY brings every process its own commits too)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import signal
import threading
from typing import Any

from scopone.web.push import Hub
from scopone.web.shutdown import on_stop_signal

from .aio import run_alone


def test_a_watch_learns_the_newest_version_and_old_news_is_ignored() -> None:
    async def scenario() -> list[Any]:
        hub = Hub()
        seen = []
        async with hub.watch("g", 3) as w:
            seen.append(await w.changed(0.01))  # nothing newer than 3 yet
            hub.publish("g", 2)  # old news
            seen.append(await w.changed(0.01))
            hub.publish("g", 4)
            hub.publish("g", 6)  # two quick versions: the newest one wakes it once
            seen.append((await w.changed(0.01), w.version))
            seen.append(await w.changed(0.01))
        return seen

    assert run_alone(scenario()) == [False, False, (True, 6), False]


def test_a_nudge_wakes_a_watch_once_without_a_version() -> None:
    """What the drivers' ``look_again`` does when processes are judged gone: a waiting watch
    wakes with its version unchanged, and the next wait waits again."""

    async def scenario() -> tuple[bool, int, bool]:
        hub = Hub()
        async with hub.watch("g", 3) as w:
            asyncio.get_running_loop().call_soon(w.nudge)
            woke = await w.changed(5.0)
            return woke, w.version, await w.changed(0.01)

    assert run_alone(scenario()) == (True, 3, False)


def test_a_watch_opened_later_learns_what_is_known_and_an_unwatched_game_is_forgotten() -> None:
    async def scenario() -> tuple[bool, int, bool, dict[str, int]]:
        hub = Hub()
        async with hub.watch("g", 1) as first:
            hub.publish("g", 5)
            async with hub.watch("g", 2) as second:  # it saw 2; 5 is already known here
                woke = await second.changed(0.01)
            await first.changed(0.01)
        hub.publish("g", 9)  # nobody watches: nothing is kept
        async with hub.watch("g", 7) as third:
            woke_third = await third.changed(0.01)
        return woke, second.version, woke_third, hub.watched()

    woke, version, woke_third, watched = run_alone(scenario())
    assert (woke, version) == (True, 5)
    assert woke_third is False  # 9 was not kept for a game nobody watched
    assert watched == {}


class _Loop:
    """Stands for the event loop: records what the listener's thread asks it to run."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def is_closed(self) -> bool:
        return False

    def call_soon_threadsafe(self, *call: Any) -> None:
        self.calls.append(call)


def test_the_listener_wakes_the_loop_only_for_news_of_a_watched_game() -> None:
    async def scenario() -> list[tuple[Any, ...]]:
        hub = Hub()
        async with hub.watch("g", 4):
            loop = _Loop()
            hub.bind(loop)  # type: ignore[arg-type]  # the loop's stand-in
            hub.publish_threadsafe("g", 4)  # this process's own commit, come back
            hub.publish_threadsafe("g", 3)  # older still
            hub.publish_threadsafe("other", 8)  # a game nobody here watches
            hub.publish_threadsafe("g", 5)  # news: another process's commit
            return loop.calls

    calls = run_alone(scenario())
    assert [args for _, *args in calls] == [["g", 5]]


def test_news_from_another_thread_wakes_the_watch() -> None:
    async def scenario() -> tuple[bool, int]:
        hub = Hub()
        async with hub.watch("g", 1) as w:
            threading.Thread(target=hub.publish_threadsafe, args=("g", 2)).start()
            woke = await w.changed(5.0)  # a guard, not a measure
            return woke, w.version

    assert run_alone(scenario()) == (True, 2)


def test_only_a_version_committed_while_watched_is_heard() -> None:
    """``heard`` is what the hub was told while the game was watched, never the version a
    watcher only says it has seen: a copy of that version may be older than the store."""

    async def scenario() -> list[int | None]:
        hub = Hub()
        seen: list[int | None] = []
        hub.publish("g", 3)  # nobody watches
        async with hub.watch("g", 5):
            seen.append(hub.heard("g"))  # only said to be seen
            hub.publish("g", 6)
            seen.append(hub.heard("g"))
        seen.append(hub.heard("g"))  # nobody watches any more
        return seen

    assert run_alone(scenario()) == [None, 6, None]


def test_closing_the_hub_ends_the_streams_watches_and_not_the_drivers() -> None:
    """``close`` (the server told to stop): a stream's watch wakes and stays closed, as does
    one opened later; a driver's watch goes on learning versions as before."""

    async def scenario() -> list[Any]:
        hub = Hub()
        seen: list[Any] = []
        async with hub.watch("g", 1, stream=True) as page, hub.watch("g", 1) as driver:
            waiting = asyncio.ensure_future(page.changed(60))
            await asyncio.sleep(0)
            hub.close()
            seen.append(await asyncio.wait_for(waiting, 5))  # woken at once, not in 60 s
            seen.append((page.closed, await page.changed(60)))  # and at once ever after
            seen.append((driver.closed, await driver.changed(0.01)))
            hub.publish("g", 2)
            seen.append((await driver.changed(0.01), driver.version))
            async with hub.watch("h", 0, stream=True) as late:
                seen.append(late.closed)
        return seen

    assert run_alone(scenario()) == [True, (True, True), (False, False), (True, 2), True]


def test_a_stop_signal_closes_the_hub_then_reaches_the_handler_before_it() -> None:
    """``on_stop_signal``: SIGTERM and SIGINT (signals reach the main thread only, where this
    test runs) put the hook on the loop, then call the handler that was there (uvicorn's,
    which begins the graceful shutdown); after the block that handler is back."""
    got: list[Any] = []

    def before(sig: int, frame: Any) -> None:
        got.append(("before", sig))

    loop = asyncio.new_event_loop()
    saved = {s: signal.signal(s, before) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        with on_stop_signal(loop, lambda: got.append("hook")):
            for sig in (signal.SIGTERM, signal.SIGINT):
                signal.raise_signal(sig)
        assert all(signal.getsignal(s) is before for s in (signal.SIGTERM, signal.SIGINT))
        assert got == [("before", signal.SIGTERM), ("before", signal.SIGINT)]
        # The hook runs on the loop, run in a thread of its own (see ``run_alone``).
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(loop.run_until_complete, asyncio.sleep(0)).result()
    finally:
        for s, handler in saved.items():
            signal.signal(s, handler)
        loop.close()
    assert got[2:] == ["hook", "hook"]

