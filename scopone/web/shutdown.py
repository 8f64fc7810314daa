"""A server told to stop (SIGTERM from a deploy or ``systemctl stop``, Ctrl-C) ends its event
streams at once.

uvicorn's graceful shutdown waits for every open response to end, and an event stream ends
only after ``events_max_seconds`` (minutes): one open page held a stopping server for that
long. ASGI has no word for "the server is stopping" before the lifespan's end, which comes
after that wait, so the app hooks the signal itself and hands it on to uvicorn's handler.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def on_stop_signal(loop: asyncio.AbstractEventLoop, hook: Callable[[], None]) -> Iterator[None]:
    """While the block runs, SIGINT and SIGTERM call ``hook`` on ``loop`` and then the handler
    that was there before (uvicorn's, which begins its graceful shutdown). Only the main
    thread takes signals: in any other (a server run in a test's thread) nothing is hooked."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {}  # what signal.signal gave back: a handler, SIG_DFL, None

    def handler(sig: int, frame: FrameType | None) -> None:
        loop.call_soon_threadsafe(hook)
        before = previous[sig]
        if callable(before):
            before(sig, frame)
        elif before == signal.SIG_DFL:
            # Nobody had taken it: stop as the signal would have stopped us.
            signal.signal(sig, signal.SIG_DFL)
            signal.raise_signal(sig)

    for sig in SIGNALS:
        previous[sig] = signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig in SIGNALS:
            if signal.getsignal(sig) is handler:
                signal.signal(sig, previous[sig])
