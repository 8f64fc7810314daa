"""Engine speed: complete random rounds per second on one core, the median of several runs.

Run it as ``python tests/engine/measure_speed.py [--runs N] [--seconds S]``; it prints figures
and asserts nothing (speed is measured, never tested).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scopone.engine import Round, Rules


def rounds_per_second(seconds: float, rules: Rules, seed: int) -> float:
    """Deal, play out at random and score whole rounds for about ``seconds``; rounds a second."""
    rng = random.Random(seed)
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            r = Round.deal(rules, n & 3, rng)
            r.history = None
            r.playout(rng)
            r.points()
            n += 1
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--variant", default="scientifico", choices=["scientifico", "classico"])
    args = parser.parse_args()
    rules = Rules(variant=args.variant)
    rounds_per_second(0.5, rules, 0)  # warm the capture cache and the interpreter
    figures = [rounds_per_second(args.seconds, rules, seed) for seed in range(1, args.runs + 1)]
    print("runs:", " ".join(f"{f:,.0f}" for f in figures))
    print(f"median: {statistics.median(figures):,.0f} rounds/s ({args.variant}, one core)")


if __name__ == "__main__":
    main()
