"""Strength of two levels against each other in duplicate deals: ``python -m scopone.arena A B``.

Each deal is played twice with the pairs swapping seats, so the luck of the cards cancels out and
what is left is the difference in play. Dealers rotate from deal to deal. Also offers ``cheat``,
an evaluation-only level that sees every hand and runs Hard's search on the true deal: the ceiling
Hard is measured against. It exists only here, never in ``make_player`` or the web app.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .engine import Match, Move, Round, Rules, SeatView
from .players import TIME_BUDGET, Player, make_player
from .players.chain import STEPS
from .players.hard import READING, READINGS, TIEBREAK, HardPlayer
from .players.inference import BETA
from .players.likelihood import MIX, POOL
from .players.normal import move_score
from .players.search import EXACT_PLAYS, TAIL_PLAYS, SearchLimits, search

ARENA_LEVELS = ("easy", "normal", "hard", "cheat")
CHEAT_EPSILON = 0.1


class CheatPlayer:
    """Hard's search run on the true deal instead of imagined ones: sees all four hands."""

    level = "cheat"

    def __init__(self, limits: SearchLimits, tiebreak: float = TIEBREAK) -> None:
        if limits.epsilon == 0.0:
            # Greedy playouts of the one true deal all come out the same: one is enough.
            limits = replace(limits, seconds=None, iterations=1)
        self.limits = limits
        self.tiebreak = tiebreak

    def choose_seeing_all(self, r: Round, rng: random.Random) -> Move:
        moves = r.legal_pairs()
        if len(moves) == 1:
            return Move.from_masks(*moves[0])
        truth = r.copy()
        result = search(lambda _rng: truth.copy(), moves, r.turn % 2, rng, self.limits)
        view = SeatView.of(r, r.turn)
        bias = [self.tiebreak * move_score(view, c, m) for c, m in moves]
        return Move.from_masks(*moves[result.best_index(bias)])


#: Whose hand ``hard:peek=...`` shows Hard, as a seat counted from its own: one of the three
#: hidden hands (shown two, Hard would know all three).
PEEKS = {"next": 1, "partner": 2, "previous": 3}


class PeekPlayer(HardPlayer):
    """Hard shown one other seat's hand (``PEEKS``), the other two imagined as Hard reads them:
    the most that reading that seat (or, for the partner, a convention) could be worth.
    Evaluation only, like the cheat."""

    truth: Round | None = None

    def __init__(self, peek: str = "partner", **kwargs: Any) -> None:
        if peek not in PEEKS:
            raise ValueError(f"peek is one of {', '.join(PEEKS)}, not {peek!r}")
        super().__init__(**kwargs)
        self.peek = peek

    def choose_seeing_all(self, r: Round, rng: random.Random) -> Move:
        self.truth = r
        try:
            return self.choose(SeatView.of(r, r.turn), rng)
        finally:
            self.truth = None

    def sampler(self, view: SeatView) -> Callable[[random.Random], Round]:
        base = super().sampler(view)
        if self.truth is None:
            return base
        seat = (view.seat + PEEKS[self.peek]) % 4
        held = list(self.truth.hands[seat])

        def sample(rng: random.Random) -> Round:
            r = base(rng)
            hands = r.hands
            # Trade each of the shown seat's true cards in from whoever was dealt it, for one of
            # its imagined cards it does not hold: every hand keeps its size.
            spare = [c for c in hands[seat] if c not in held]
            for c in held:
                if c in hands[seat]:
                    continue
                owner = next(s for s in range(4) if s != seat and c in hands[s])
                x = spare.pop()
                hands[owner][hands[owner].index(c)] = x
                hands[seat][hands[seat].index(x)] = c
            return r

        return sample


@dataclass(frozen=True, slots=True)
class Settings:
    """How each level is built and which rules are played."""

    budget: float | None = None  # seconds a move for hard and cheat
    iterations: int | None = None  # imagined deals a move for hard and cheat (deterministic)
    rules: Rules = field(default_factory=Rules)


def parse_level(text: str) -> tuple[str, dict[str, str]]:
    """A level name with optional settings for hard and cheat, e.g. ``hard:reading=off``,
    ``hard:budget=0.25`` or ``hard:iterations=100,exact=10``. Settings given here win over
    ``--budget`` and ``--iterations`` for this side only.

    >>> parse_level("hard:exact=8,tiebreak=0.1,reading=voids")
    ('hard', {'exact': '8', 'tiebreak': '0.1', 'reading': 'voids'})
    """
    name, _, opts = text.partition(":")
    if name not in ARENA_LEVELS:
        raise ValueError(f"unknown level {name!r}; expected one of {ARENA_LEVELS}")
    options: dict[str, str] = {}
    for item in filter(None, opts.split(",")):
        key, _, value = item.partition("=")
        if key not in SEARCH_OPTIONS or name not in ("hard", "cheat"):
            raise ValueError(f"unknown option {key!r} for {name}; hard and cheat take "
                             f"{', '.join(SEARCH_OPTIONS)}")
        if key in HARD_ONLY and name != "hard":
            raise ValueError(f"{key} is for hard only")
        if key == "peek":
            if value not in PEEKS:
                raise ValueError(f"peek is one of {', '.join(PEEKS)}, not {value!r}")
        elif key == "reading":
            if value not in READINGS:
                raise ValueError(f"reading is one of {', '.join(READINGS)}, not {value!r}")
        else:
            try:
                number = float(value)
            except ValueError:
                raise ValueError(f"{key} takes a number, not {value!r}") from None
            if key in ("budget", "iterations") and number <= 0:
                raise ValueError(f"{key} must be positive, not {value!r}")
        options[key] = value
    return name, options


#: Settings the arena may vary for hard and cheat (evaluation only): seconds a move, imagined
#: deals a move, plays left solved exactly (exact: from the root; tail: at the end of every
#: playout, ``search.TAIL_PLAYS``, 0 for greedy playouts to the end), Normal's weight in
#: near-ties, share of random moves in playouts, whether moves trailing far behind stop being
#: played out (prune=0|1, on by default: ``search.PRUNE_MARGIN``), and (hard only) how the
#: table is read (``hard.READINGS``), whether to stop early when one move is clearly best
#: (stop=1; by default on with a budget, off with iterations), how sharply it reads the plays
#: (beta, ``inference.BETA``), how many candidate deals the policy reading picks each deal from
#: (pool, ``likelihood.POOL``) and what share of each modelled play it leaves to chance (mix,
#: ``likelihood.MIX``); pbeta reads the partner's plays with a beta of its own; steps is how
#: many trades the chain reading makes between two deals (``chain.STEPS``); peek shows Hard the
#: partner's or one opponent's hand (``PeekPlayer``: what reading that seat is worth at
#: most); sharp reads each seat as one of two types, the second at that sharper beta
#: (``likelihood.typed_loglik``).
SEARCH_OPTIONS = ("budget", "iterations", "exact", "tiebreak", "epsilon", "reading", "stop", "beta",
                  "pool", "mix", "pbeta", "steps", "prune", "peek", "sharp", "tail")
HARD_ONLY = ("reading", "stop", "beta", "pool", "mix", "pbeta", "steps", "peek", "sharp")


def build(level: str, settings: Settings) -> Player | CheatPlayer:
    """A player of ``level`` (a name, perhaps with search options) as the arena's settings say."""
    name, opts = parse_level(level)
    if name in ("easy", "normal"):
        return make_player(name)
    budget = settings.budget if settings.budget is not None else TIME_BUDGET
    iterations = settings.iterations
    if "budget" in opts:
        budget, iterations = float(opts["budget"]), None
    if "iterations" in opts:
        iterations = int(float(opts["iterations"]))
    limits = SearchLimits(
        seconds=None if iterations else budget,
        iterations=iterations,
        exact_plays=int(float(opts.get("exact", EXACT_PLAYS))),
        # The cheat's one true deal needs varied playouts to use its budget: a tenth random
        # moves (hard vs cheat, 0.8 s, 20 deals: -2.00 ± 0.81, against +0.12 ± 0.58 with one
        # greedy playout a move).
        epsilon=float(opts.get("epsilon", CHEAT_EPSILON if name == "cheat" else 0.0)),
        prune=bool(float(opts.get("prune", 1))),
        tail_plays=int(float(opts.get("tail", TAIL_PLAYS))),
    )
    tiebreak = float(opts.get("tiebreak", TIEBREAK))
    if name == "cheat":
        return CheatPlayer(limits, tiebreak)
    stop = opts.get("stop")
    hard: dict[str, Any] = dict(
        limits=limits, tiebreak=tiebreak, reading=opts.get("reading", READING),
        early_stop=None if stop is None else bool(float(stop)),
        beta=float(opts.get("beta", BETA)),
        pool=int(float(opts.get("pool", POOL))),
        mix=float(opts.get("mix", MIX)),
        partner_beta=float(opts["pbeta"]) if "pbeta" in opts else None,
        steps=int(float(opts.get("steps", STEPS))),
        sharp=float(opts["sharp"]) if "sharp" in opts else None)
    if "peek" in opts:
        return PeekPlayer(opts["peek"], **hard)
    return HardPlayer(**hard)


@dataclass(slots=True)
class Outcome:
    """What one task (a duplicate deal or a duplicate match) produced."""

    index: int
    margins: list[float]  # A minus B, points per round, one per round played
    wins: list[float] = field(default_factory=list)  # 1 A won, 0 B won, one per match
    times: dict[str, list[float]] = field(default_factory=dict)


def _play_round(r: Round, players: Sequence[Player | CheatPlayer], labels: Sequence[str],
                rngs: Sequence[random.Random], times: dict[str, list[float]]) -> None:
    while not r.is_over:
        seat = r.turn
        p = players[seat]
        t0 = time.perf_counter()
        if isinstance(p, (CheatPlayer, PeekPlayer)):
            move = p.choose_seeing_all(r, rngs[seat])
        else:
            move = p.choose(SeatView.of(r, seat), rngs[seat])
        times.setdefault(labels[seat], []).append(time.perf_counter() - t0)
        r.play(move, seat)


def _seating(levels: tuple[str, str], a_pair: int, settings: Settings
             ) -> tuple[list[Player | CheatPlayer], list[str]]:
    # Level A sits in pair ``a_pair`` (seats a_pair and a_pair + 2).
    a = build(levels[0], settings)
    b = build(levels[1], settings)
    labels = [levels[0] if s % 2 == a_pair else levels[1] for s in range(4)]
    return [a if s % 2 == a_pair else b for s in range(4)], labels


def play_deal(levels: tuple[str, str], settings: Settings, seed: int, index: int) -> Outcome:
    """Deal ``index`` played twice, level A first as pair A (seats 0+2), then as pair B."""
    out = Outcome(index, [])
    for a_pair in (0, 1):
        deal_rng = random.Random(f"{seed}:deal:{index}")
        r = Round.deal(settings.rules, index % 4, deal_rng)
        players, labels = _seating(levels, a_pair, settings)
        rngs = [random.Random(f"{seed}:{index}:{a_pair}:{s}") for s in range(4)]
        _play_round(r, players, labels, rngs, out.times)
        points = r.points()
        out.margins.append(float(points[a_pair] - points[1 - a_pair]))
    return out


def play_match(levels: tuple[str, str], settings: Settings, seed: int, index: int) -> Outcome:
    """Match ``index`` played twice with the same deals, the levels swapping pairs."""
    out = Outcome(index, [])
    for a_pair in (0, 1):
        match = Match(settings.rules, random.Random(f"{seed}:match:{index}"))
        players, labels = _seating(levels, a_pair, settings)
        rngs = [random.Random(f"{seed}:m{index}:{a_pair}:{s}") for s in range(4)]
        while True:
            _play_round(match.round, players, labels, rngs, out.times)
            score = match.finish_round()
            a, b = score.points
            out.margins.append(float((a - b) if a_pair == 0 else (b - a)))
            if match.winner is not None:
                break
            match.next_round()
        out.wins.append(1.0 if match.winner == a_pair else 0.0)
    return out


def _task(args: tuple[str, tuple[str, str], Settings, int, int]) -> Outcome:
    kind, levels, settings, seed, index = args
    return (play_match if kind == "match" else play_deal)(levels, settings, seed, index)


def run(levels: tuple[str, str], n: int, seed: int, settings: Settings, jobs: int = 1,
        matches: bool = False, first: int = 0) -> Iterator[Outcome]:
    """Duplicate deals (or matches) ``first`` to ``first + n - 1`` in order, on ``jobs``
    processes; a run can be extended later with the next indices."""
    kind = "match" if matches else "deal"
    yield from _outcomes([(kind, levels, settings, seed, i) for i in range(first, first + n)],
                         jobs)


def run_versus(levels: tuple[str, str], versus: str, n: int, seed: int, settings: Settings,
               jobs: int = 1, matches: bool = False, first: int = 0
               ) -> Iterator[tuple[Outcome, Outcome]]:
    """Each of two levels against a third one on the same deals (or matches) with the same
    generators: A − C and B − C deal by deal, whose difference compares A with B as seen by C
    (a reading of the table measured against players unlike itself)."""
    kind = "match" if matches else "deal"
    outs = _outcomes([(kind, (level, versus), settings, seed, i)
                      for i in range(first, first + n) for level in levels], jobs)
    for a in outs:
        yield a, next(outs)


def _outcomes(tasks: list[tuple[str, tuple[str, str], Settings, int, int]], jobs: int
              ) -> Iterator[Outcome]:
    # The tasks' outcomes in order, on ``jobs`` processes.
    if jobs <= 1:
        yield from map(_task, tasks)
        return
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield from pool.imap(_task, tasks)


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% confidence interval (normal approximation).

    >>> m, h = mean_ci([1.0, 3.0])
    >>> m, round(h, 2)
    (2.0, 1.96)
    """
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, math.inf
    return m, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def time_summary(samples: Sequence[float]) -> str:
    """Mean (the CPU a move costs), median, 95th percentile and maximum of think times, in
    milliseconds."""
    s = sorted(samples)
    p95 = s[min(len(s) - 1, math.ceil(0.95 * len(s)) - 1)]
    return (f"mean {1000 * statistics.fmean(s):.2f} ms, median {1000 * statistics.median(s):.2f} "
            f"ms, p95 {1000 * p95:.2f} ms, "
            f"max {1000 * s[-1]:.2f} ms over {len(s)} moves")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scopone.arena", description=__doc__)
    ap.add_argument("level_a", help=f"one of {', '.join(ARENA_LEVELS)}; hard and cheat take "
                    f"settings after a colon, comma-separated: {', '.join(SEARCH_OPTIONS)} "
                    "(e.g. hard:reading=off, hard:budget=0.25, hard:iterations=100; reading is "
                    f"one of {', '.join(READINGS)}, default {READING}); they win over --budget "
                    "and --iterations for that side")
    ap.add_argument("level_b", help="the same")
    ap.add_argument("--deals", type=int, default=100, help="duplicate deals (or matches)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0,
                    help="index of the first deal: extends an earlier run with the same seed")
    ap.add_argument("--matches", action="store_true",
                    help="play whole duplicate matches instead of single deals; report win rate")
    ap.add_argument("--budget", type=float, default=None,
                    help=f"seconds a move for hard and cheat (default {TIME_BUDGET})")
    ap.add_argument("--iterations", type=int, default=None,
                    help="imagined deals a move for hard and cheat instead of a time budget")
    ap.add_argument("--jobs", type=int, default=1, help="processes (use 2 for both cores)")
    ap.add_argument("--variant", choices=("scientifico", "classico"), default="scientifico")
    ap.add_argument("--napola", action="store_true")
    ap.add_argument("--target", type=int, default=11, choices=(11, 21, 31))
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    ap.add_argument("--versus", metavar="LEVEL", default=None,
                    help="play A and B each against LEVEL on the same deals instead of against "
                    "each other, and report (A − LEVEL) − (B − LEVEL) deal by deal")
    ap.add_argument("--margins", metavar="FILE", type=Path, default=None,
                    help="append each deal's figure to FILE (JSON lines) as it is played and "
                    "report every deal of this pairing and seed in FILE: runs stopped early or "
                    "extended with --first add up exactly")
    args = ap.parse_args(argv)
    for level in (args.level_a, args.level_b, *([args.versus] if args.versus else [])):
        try:
            parse_level(level)
        except ValueError as e:
            ap.error(str(e))
    settings = Settings(args.budget, args.iterations,
                        Rules(args.variant, args.napola, args.target))
    levels = (args.level_a, args.level_b)
    if args.versus:
        return _main_versus(levels, args.versus, args, settings)
    unit = "matches" if args.matches else "deals"
    print(f"{levels[0]} vs {levels[1]}: {args.deals} duplicate {unit} from #{args.first}, "
          f"seed {args.seed}, "
          f"{args.variant}{' + napola' if args.napola else ''}, jobs {args.jobs}, "
          f"budget {_budget_text(args)}", flush=True)
    started = time.perf_counter()
    per_unit: list[float] = []
    wins: list[float] = []
    margins: list[float] = []
    times: dict[str, list[float]] = {}
    pairing = _pairing(args, levels, None)
    for k, out in enumerate(run(levels, args.deals, args.seed, settings, args.jobs,
                                args.matches, args.first), 1):
        per_unit.append(statistics.fmean(out.margins))
        _keep_margin(args, pairing, k - 1, per_unit[-1])
        margins.extend(out.margins)
        wins.extend(out.wins)
        for level, ts in out.times.items():
            times.setdefault(level, []).extend(ts)
        _progress(args, k, per_unit, started)
    m, h = mean_ci(per_unit)
    print(f"points per round, {levels[0]} minus {levels[1]}: {m:+.3f} ± {h:.3f} "
          f"(95% CI {m - h:+.3f} .. {m + h:+.3f}; {len(margins)} rounds)")
    _report_margins(args, pairing)
    if args.matches:
        w, hw = mean_ci(wins)
        print(f"match win rate of {levels[0]}: {100 * w:.1f}% ± {100 * hw:.1f}% "
              f"({len(wins)} matches)")
    _print_times(times, started)
    return 0


def _main_versus(levels: tuple[str, str], versus: str, args: argparse.Namespace,
                 settings: Settings) -> int:
    unit = "matches" if args.matches else "deals"
    print(f"{levels[0]} and {levels[1]}, each vs {versus}: {args.deals} duplicate {unit} from "
          f"#{args.first}, seed {args.seed}, {args.variant}, jobs {args.jobs}, "
          f"budget {_budget_text(args)}", flush=True)
    started = time.perf_counter()
    each: tuple[list[float], list[float]] = ([], [])
    diff: list[float] = []
    times: dict[str, list[float]] = {}
    pairing = _pairing(args, levels, versus)
    for k, outs in enumerate(run_versus(levels, versus, args.deals, args.seed, settings,
                                        args.jobs, args.matches, args.first), 1):
        for side, out in enumerate(outs):
            each[side].append(statistics.fmean(out.margins))
            for level, ts in out.times.items():
                times.setdefault(level, []).extend(ts)
        diff.append(each[0][-1] - each[1][-1])
        _keep_margin(args, pairing, k - 1, diff[-1])
        _progress(args, k, diff, started)
    for level, margins in zip(levels, each, strict=True):
        m, h = mean_ci(margins)
        print(f"points per round, {level} minus {versus}: {m:+.3f} ± {h:.3f} "
              f"(95% CI {m - h:+.3f} .. {m + h:+.3f})")
    m, h = mean_ci(diff)
    print(f"difference, {levels[0]} minus {levels[1]} (each against {versus}, same deals): "
          f"{m:+.3f} ± {h:.3f} (95% CI {m - h:+.3f} .. {m + h:+.3f}; {len(diff)} {unit})")
    _report_margins(args, pairing)
    _print_times(times, started)
    return 0


def _pairing(args: argparse.Namespace, levels: tuple[str, str], versus: str | None
             ) -> dict[str, object]:
    # What makes two runs' figures comparable in the --margins file: two runs of 100 deals (the
    # second with --first 100) give the exact 200-deal interval, not one combined by hand.
    return {"levels": list(levels), "versus": versus, "seed": args.seed,
            "matches": args.matches, "budget": _budget_text(args), "variant": args.variant,
            "napola": args.napola, "target": args.target}


def _keep_margin(args: argparse.Namespace, pairing: dict[str, object], k: int,
                 value: float) -> None:
    # Each deal's figure is written as soon as it is played, so a run stopped after an hour
    # keeps its deals and can be extended with --first instead of played again.
    if args.margins:
        with args.margins.open("a", encoding="utf-8") as f:
            f.write(json.dumps({**pairing, "index": args.first + k, "value": value}) + "\n")


def _report_margins(args: argparse.Namespace, pairing: dict[str, object]) -> None:
    # All the figures the file holds for the same pairing, seed and settings; a deal played
    # again replaces its earlier figure.
    if not args.margins:
        return
    kept: dict[int, float] = {}
    for line in args.margins.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if all(row.get(key) == want for key, want in pairing.items()):
            kept[row["index"]] = row["value"]
    m, h = mean_ci(list(kept.values()))
    unit = "matches" if args.matches else "deals"
    print(f"all {len(kept)} {unit} of this pairing in {args.margins} (#{min(kept)} to "
          f"#{max(kept)}): {m:+.3f} ± {h:.3f} (95% CI {m - h:+.3f} .. {m + h:+.3f})")


def _budget_text(args: argparse.Namespace) -> str:
    # Hard and the cheat think as long as the service's Hard unless told otherwise (``build``).
    if args.iterations is not None:
        return f"{args.iterations} iterations"
    return f"{args.budget if args.budget is not None else TIME_BUDGET} s"


def _progress(args: argparse.Namespace, k: int, values: list[float], started: float) -> None:
    # Every tenth deal (and the last), the running mean on stderr.
    if not args.quiet and (k % 10 == 0 or k == args.deals):
        m, h = mean_ci(values)
        print(f"  {k}/{args.deals}: {m:+.2f} ± {h:.2f} "
              f"({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)


def _print_times(times: dict[str, list[float]], started: float) -> None:
    for level in sorted(times):
        print(f"think time {level}: {time_summary(times[level])}")
    print(f"wall time {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    raise SystemExit(main())
