"""Coroutines run from a synchronous test, whatever already runs in the test's thread."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_alone(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coro)`` in a thread of its own. The browser tests' Playwright (sync API)
    leaves its event loop marked as running in the main thread for the rest of the session, so a
    plain ``asyncio.run`` there fails whenever a browser test ran before it in the same process
    (``pytest tests/browser tests/api`` did, once in four runs of the loop)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
