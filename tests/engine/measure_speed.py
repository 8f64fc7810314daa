"""Engine speed: complete random rounds per second on one core, the median of several runs.

Run it as ``python tests/engine/measure_speed.py [--runs N] [--seconds S]``; it prints figures
and asserts nothing (speed is measured, never tested). Each round is what ``scopone.bench``
times: ``Round.deal`` + ``history = None`` + ``playout`` + ``points``. Rates are given by the
wall clock and by the process's CPU time; on a shared, busy machine the second is the steadier.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scopone.engine import Round, Rules


def rounds_per_second(seconds: float, rules: Rules, seed: int) -> tuple[float, float]:
    """Deal, play out at random and score whole rounds for about ``seconds``.

    Returns rounds per second of wall-clock time and of CPU time.
    """
    rng = random.Random(seed)
    n = 0
    wall, cpu = time.perf_counter(), time.process_time()
    deadline = wall + seconds
    while True:
        for _ in range(100):
            r = Round.deal(rules, n & 3, rng)
            r.history = None
            r.playout(rng)
            r.points()
            n += 1
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - wall), n / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--variant", default="scientifico", choices=["scientifico", "classico"])
    args = parser.parse_args()
    rules = Rules(variant=args.variant)
    rounds_per_second(0.5, rules, 0)  # warm the capture cache and the interpreter
    figures = [rounds_per_second(args.seconds, rules, seed) for seed in range(1, args.runs + 1)]
    walls, cpus = [w for w, _ in figures], [c for _, c in figures]
    print("wall runs:", " ".join(f"{f:,.0f}" for f in walls))
    print("cpu runs: ", " ".join(f"{f:,.0f}" for f in cpus))
    print(f"median: {statistics.median(walls):,.0f} rounds/s wall, "
          f"{statistics.median(cpus):,.0f} rounds/s CPU ({args.variant}, one core)")


if __name__ == "__main__":
    main()
