"""What every worker process of the server runs first (the thinker's and the coach's pools).

Kept outside ``scopone.web`` so a worker imports nothing of the web app to run it.
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def in_pool(fn: Callable[P, R]) -> Callable[P, R]:
    """Marks a function a pool runs for the event loop: a ``StopIteration`` escaping it becomes
    a ``RuntimeError``. asyncio cannot set a ``StopIteration`` on the future awaiting the
    pool's result (it raises ``TypeError`` in the loop's callback instead), so that future
    would never finish: the request would wait forever, and so would the server's shutdown."""

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except StopIteration as exc:
            raise RuntimeError(f"{fn.__qualname__} raised StopIteration") from exc

    return run


def watch_server(server_pid: int) -> None:
    """A pool's initializer: ends the worker when the server is gone, so no worker outlives it
    (a killed server runs no shutdown code)."""

    def watch() -> None:
        # The pid comes from the server itself: read here, it could already be the reaper's.
        while os.getppid() == server_pid:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="scopone-parent-watch", daemon=True).start()
