"""Whether this machine's clock stepped forward (set by hand, or by NTP after a suspend).

A table's turn is stamped with the wall clock (``time.time``): every process and machine reads
the same stamps, so a monotonic clock, which is each process's own, cannot replace it. A clock
stepped forward makes every turn stamped before the step look long run out: the driver would
play a present person's card at once and mark them away. So the driver asks here, and a turn
begun before a step gets its time again once (``Driver._time_lost_in_turn``), as after a
database outage. A clock stepped back is seen in the stamps themselves (``table.stamped_ahead``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: How far the wall clock may move against the monotonic one between two looks before it counts
#: as a step. Slewing (NTP's gradual correction) moves it at most half a millisecond a second.
STEP_SECONDS = 5.0


class ClockSteps:
    """The wall clock watched against the monotonic one; ``look()`` gives the wall time at which
    a forward step was last seen (after the step), or None."""

    def __init__(self, wall: Callable[[], float] = time.time,
                 monotonic: Callable[[], float] = time.monotonic,
                 step: float = STEP_SECONDS) -> None:
        self._wall = wall
        self._monotonic = monotonic
        self._step = step
        self._offset = wall() - monotonic()
        self.stepped_at: float | None = None

    def look(self) -> float | None:
        """The wall time of the last forward step seen, this look included.

        >>> clock = {"wall": 1000.0, "mono": 5.0}
        >>> steps = ClockSteps(lambda: clock["wall"], lambda: clock["mono"])
        >>> clock["wall"] += 10; clock["mono"] += 10; steps.look() is None   # time passing
        True
        >>> clock["wall"] += 3601; clock["mono"] += 1; steps.look()  # 1 s and a step of 1 h
        4611.0
        """
        now = self._wall()
        offset = now - self._monotonic()
        if offset - self._offset > self._step:
            self.stepped_at = now
        # Followed, so slewing never adds up to a step, nor a step back to a later one.
        self._offset = offset
        return self.stepped_at
