"""Speed figures of the engine and the computer players: ``python -m scopone.bench``.

Everything runs on one core from fixed seeds, so two runs differ only by the machine's load.
Each rate is the median of several timed runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from .arena import time_summary
from .engine import Round, Rules, SeatView
from .players import TIME_BUDGET, make_player
from .players.endgame import Solver
from .players.hard import HardPlayer
from .players.search import TAIL_PLAYS, finish


def _rate(body: Callable[[int], None], count: int, runs: int) -> float:
    # Median of ``runs`` timings of ``count`` calls, as calls per second.
    rates = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for i in range(count):
            body(i)
        rates.append(count / (time.perf_counter() - t0))
    return statistics.median(rates)


def random_rounds_per_second(count: int, runs: int, seed: int = 1) -> float:
    """Complete rounds dealt, played with uniformly random moves and scored, per second."""
    rng = random.Random(seed)
    rules = Rules()

    def body(i: int) -> None:
        r = Round.deal(rules, i % 4, rng)
        r.history = None
        r.playout(rng)
        r.points()

    return _rate(body, count, runs)


def positions(n: int, seed: int = 7, variant: str = "scientifico") -> list[Round]:
    """``n`` fixed positions from seeded rounds, each some plays into the round (0 to 38)."""
    rng = random.Random(seed)
    normal = make_player("normal")
    rules = Rules(variant="classico") if variant == "classico" else Rules()
    out = []
    for i in range(n):
        r = Round.deal(rules, i % 4, rng)
        stop = rng.randrange(r.plays_left - 1)
        for _ in range(stop):
            r.play(normal.choose(SeatView.of(r, r.turn), rng))
        out.append(r)
    return out


def playouts_per_second(start: Sequence[Round], count: int, runs: int, greedy: bool,
                        seed: int = 1, tail: int = 0) -> float:
    """Playouts to the end and scoring from copies of ``start`` positions, per second; greedy
    ones with a ``tail`` hand their last plays to the exact solver, as Hard's do."""
    rng = random.Random(seed)

    def body(i: int) -> None:
        r = start[i % len(start)].copy()
        if greedy:
            finish(r, rng, 0.0, tail, Solver(r.napola))
        else:
            r.playout(rng)
            r.points()

    return _rate(body, count, runs)


def solver_times(n: int, plays: int, seed: int = 3) -> list[float]:
    """Seconds to solve exactly every move of ``n`` random positions with ``plays`` plays left."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        r = Round.deal(Rules(), i % 4, rng)
        r.history = None
        while r.plays_left > plays:
            pairs = r.legal_pairs()
            r.apply(*pairs[rng.randrange(len(pairs))])
        t0 = time.perf_counter()
        Solver(r.napola).move_values(r, r.legal_pairs())
        out.append(time.perf_counter() - t0)
    return out


def think_times(level: str, start: Sequence[Round], budget: float, seed: int = 1
                ) -> tuple[list[float], list[int]]:
    """Think time of ``level`` at each position (and, for Hard, imagined deals per move)."""
    player = make_player(level, time_budget=budget)
    times = []
    samples = []
    for i, r in enumerate(start):
        view = SeatView.of(r, r.turn)
        rng = random.Random(f"{seed}:{i}")
        t0 = time.perf_counter()
        player.choose(view, rng)
        times.append(time.perf_counter() - t0)
        if isinstance(player, HardPlayer) and player.last_samples:
            samples.append(player.last_samples)
    return times, samples


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scopone.bench", description=__doc__)
    ap.add_argument("--rounds", type=int, default=2000, help="rounds per timed run")
    ap.add_argument("--runs", type=int, default=5, help="timed runs (the median is shown)")
    ap.add_argument("--positions", type=int, default=200,
                    help="positions for the easy and normal think times")
    ap.add_argument("--hard-positions", type=int, default=40,
                    help="positions for Hard's think time (each costs up to its budget)")
    ap.add_argument("--hard-budget", type=float, default=TIME_BUDGET,
                    help=f"Hard's seconds a move (default {TIME_BUDGET})")
    ap.add_argument("--solver", type=int, default=20, help="positions for the endgame solver")
    ap.add_argument("--quick", action="store_true", help="a fifth of everything")
    args = ap.parse_args(argv)
    if args.quick:
        for name in ("rounds", "positions", "hard_positions", "solver"):
            setattr(args, name, max(1, getattr(args, name) // 5))
        args.runs = 3
    print(f"one core; median of {args.runs} runs", flush=True)
    rate = random_rounds_per_second(args.rounds, args.runs)
    print(f"engine: complete random rounds (deal, random playout, score): {rate:,.0f} /s",
          flush=True)
    start = positions(50, seed=11)
    rate = playouts_per_second(start, args.rounds, args.runs, greedy=False)
    print(f"engine: random playouts from mid-round positions: {rate:,.0f} /s", flush=True)
    rate = playouts_per_second(start, args.rounds, args.runs, greedy=True)
    print(f"players: greedy playouts (Hard's policy) from mid-round positions: {rate:,.0f} /s",
          flush=True)
    for tail in (TAIL_PLAYS, 10):
        rate = playouts_per_second(start, args.rounds, args.runs, greedy=True, tail=tail)
        print(f"players: the same with the last {tail} plays solved exactly: {rate:,.0f} /s",
              flush=True)
    for plays in (8, 10, 12):
        ts = solver_times(args.solver, plays)
        print(f"players: exact endgame solver, {plays} plays left: {time_summary(ts)}",
              flush=True)
    easy_normal = positions(args.positions)
    for level in ("easy", "normal"):
        ts, _ = think_times(level, easy_normal, args.hard_budget)
        print(f"think time {level}: {time_summary(ts)}", flush=True)
    ts, samples = think_times("hard", easy_normal[:args.hard_positions], args.hard_budget)
    print(f"think time hard (budget {args.hard_budget} s): {time_summary(ts)}; imagined deals "
          f"a move: median {statistics.median(samples) if samples else 0:.0f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
