"""A store that remembers when the database last failed this process (``ObservedStore``).

Why: time the database was away must count against nobody's turn. A person whose card the
database refused (503) may have tried to play all through an outage; when it is back, the
table's driver would find their time run out and play the computer's card for them, their own
card then refused as stale and the person marked away. The driver asks ``away_at`` instead, and
gives a turn the outage touched its time again (``scopone.web.driver``). Every store call goes
through here, the heartbeat's included, so an outage of more than a beat (5 s) is seen by every
process, not only the one whose request it failed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from .base import GameRecord, Listener, PersonRecord, Store
from .errors import unavailable

P = ParamSpec("P")
R = TypeVar("R")


class ObservedStore:
    """``inner``, whose calls that fail with the database away (``unavailable``) are noted."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.kind = inner.kind
        #: When (``time.time()``) a call last failed with the database away; None: never.
        self.away_at: float | None = None

    def _call(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            if unavailable(exc):
                self.away_at = time.time()
            raise

    def close(self) -> None:
        self.inner.close()

    def ping(self) -> bool:
        ok = self._call(self.inner.ping)
        if not ok:
            self.away_at = time.time()
        return ok

    def insert(self, rec: GameRecord) -> None:
        self._call(self.inner.insert, rec)

    def load(self, game_id: str) -> GameRecord | None:
        return self._call(self.inner.load, game_id)

    def load_by_code(self, code: str) -> GameRecord | None:
        return self._call(self.inner.load_by_code, code)

    def version(self, game_id: str) -> int | None:
        return self._call(self.inner.version, game_id)

    def update(self, rec: GameRecord, expected_version: int,
               expected_updated: float | None = None) -> bool:
        return self._call(self.inner.update, rec, expected_version, expected_updated)

    def remove_old(self, finished_before: float, idle_before: float) -> int:
        return self._call(self.inner.remove_old, finished_before, idle_before)

    def load_person(self, person_id: str) -> PersonRecord | None:
        return self._call(self.inner.load_person, person_id)

    def save_person(self, rec: PersonRecord) -> None:
        self._call(self.inner.save_person, rec)

    def beat(self, process: str) -> dict[str, float]:
        return self._call(self.inner.beat, process)

    def forget(self, process: str) -> None:
        self._call(self.inner.forget, process)

    def listen(self, listener: Listener, watched: Callable[[], dict[str, int]]) -> None:
        self.inner.listen(listener, watched)
