"""Figures for the coach: the evaluation's noise, review CPU, hint latency, agreement with Hard.

    python -m scopone.coach.bench noise [--positions N] [--seed S]
    python -m scopone.coach.bench review [--rounds N]
    python -m scopone.coach.bench agree [--rounds N]
    python -m scopone.coach.bench latency [--rounds N]

``noise``: positions from real games (four Normal players), each judged twice with independent
seeds; for every legal move, the loss (best mean minus its mean) of run 1 against run 2. The
spread of that difference is what the "best" window must absorb (coach/labels.py).
``review``: CPU seconds to review one seat's round (the work behind one review request).
``agree``: how often the review's best play equals Hard's own choice (Hard at its default budget,
pruning on) over rounds of Normal play: a sanity figure, since both read the same search.
``latency``: hint and review over HTTP as the page gets them (the coach's process pool).
Timings on a shared machine vary with the other work running on it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ..engine import Move, Round, Rules, SeatView
from ..players import make_player
from ..players.evaluate import JUDGE_LIMITS, evaluate_moves
from ..players.search import SearchLimits
from .hint import hint_for
from .labels import LABELS, label_for
from .payload import DEALS, REVIEW_SLACK
from .review import RoundTrace, review_round


def normal_rounds(n: int, seed: int) -> list[Round]:
    """``n`` finished rounds of four Normal players."""
    rng = random.Random(seed)
    normal = make_player("normal")
    out = []
    for i in range(n):
        r = Round.deal(Rules(), i % 4, rng)
        while not r.is_over:
            r.play(normal.choose(SeatView.of(r, r.turn), rng))
        out.append(r)
    return out


def positions(n: int, seed: int) -> list[SeatView]:
    """Views with a real choice from Normal games, one at a random play of each round."""
    rng = random.Random(seed)
    out: list[SeatView] = []
    for r in normal_rounds(n * 2, seed):
        trace = RoundTrace.of(r)
        g = trace.deal()
        stop = rng.randrange(len(trace.plays))
        for k, (s, m) in enumerate(trace.plays):
            if k == stop:
                v = SeatView.of(g, s)
                if len(v.legal_moves()) > 1:
                    out.append(v)
                break
            g.play(m, seat=s)
        if len(out) >= n:
            break
    return out


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def noise(args: argparse.Namespace) -> None:
    diffs: list[float] = []
    se: list[float] = []
    flips = 0
    views = positions(args.positions, args.seed)
    for k, v in enumerate(views):
        a = {x.move: x for x in evaluate_moves(v, random.Random(f"a{k}"), JUDGE_LIMITS)}
        b = {x.move: x for x in evaluate_moves(v, random.Random(f"b{k}"), JUDGE_LIMITS)}
        top_a, top_b = max(x.mean for x in a.values()), max(x.mean for x in b.values())
        best_a = max(a.values(), key=lambda x: x.mean).move
        flips += best_a != max(b.values(), key=lambda x: x.mean).move
        for m in a:
            diffs.append((top_a - a[m].mean) - (top_b - b[m].mean))
            se.append(a[m].noise)
    ad = [abs(d) for d in diffs]
    print(f"positions {len(views)}, moves {len(diffs)}, limits {JUDGE_LIMITS}")
    print(f"loss difference between two runs: sd {statistics.pstdev(diffs):.3f}, "
          f"|diff| median {statistics.median(ad):.3f}, p90 {pct(ad, 0.9):.3f}, "
          f"p95 {pct(ad, 0.95):.3f}, p99 {pct(ad, 0.99):.3f}")
    print(f"one run's loss sd (sd/sqrt 2): {statistics.pstdev(diffs) / 2 ** 0.5:.3f}; "
          f"a move's stderr of mean: median {statistics.median(se):.3f}")
    print(f"best move differs between the runs in {flips}/{len(views)} positions")


def review(args: argparse.Namespace) -> None:
    # As the server judges a review's plays: its deals, or --seconds a play (the server's
    # coach seconds times REVIEW_SLACK), whichever comes first.
    limits = SearchLimits(args.seconds, DEALS, prune=False)
    cpu: list[float] = []
    for k, r in enumerate(normal_rounds(args.rounds, args.seed)):
        t = time.process_time()
        review_round(RoundTrace.of(r), k % 4, f"bench{k}", limits)
        cpu.append(time.process_time() - t)
    print(f"review CPU per round over {len(cpu)} rounds ({limits}): median "
          f"{statistics.median(cpu):.2f} s, max {max(cpu):.2f} s")


def hints(args: argparse.Namespace) -> None:
    wall: list[float] = []
    for k, v in enumerate(positions(args.positions, args.seed)):
        t = time.perf_counter()
        hint_for(v, random.Random(k))
        wall.append(time.perf_counter() - t)
    print(f"hint compute over {len(wall)} positions: median {statistics.median(wall):.3f} s, "
          f"p95 {pct(wall, 0.95):.3f} s")


def agree(args: argparse.Namespace) -> None:
    hard = make_player("hard")
    same = total = 0
    labels: dict[str, int] = {}
    for k, r in enumerate(normal_rounds(args.rounds, args.seed)):
        trace = RoundTrace.of(r)
        g = trace.deal()
        seat = k % 4
        for i, (s, m) in enumerate(trace.plays):
            if s == seat:
                v = SeatView.of(g, s)
                if len(v.legal_moves()) > 1:
                    values = evaluate_moves(v, random.Random(f"r{k}:{i}"))
                    mine: Move = hard.choose(v, random.Random(f"h{k}:{i}"))
                    same += values[0].move == mine
                    total += 1
                    # The review's label for Hard's own choice.
                    loss = values[0].mean - next(x.mean for x in values if x.move == mine)
                    lab = label_for(loss)
                    labels[lab] = labels.get(lab, 0) + 1
            g.play(m, seat=s)
        if args.verbose:
            print(k + 1, same, total, flush=True)
    print(f"review best == Hard's choice in {same}/{total} judged plays "
          f"({same / max(total, 1):.1%}) over {args.rounds} rounds of Normal play")
    print("the review's labels for Hard's choices: "
          + ", ".join(f"{k} {labels.get(k, 0)}" for k in LABELS))


def latency(args: argparse.Namespace) -> None:
    """Hint and review as a person gets them: over HTTP, from the server's process pool."""
    import tempfile
    from pathlib import Path

    from fastapi.testclient import TestClient

    from ..web import Settings, create_app

    hint_ms: list[float] = []
    review_ms: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Settings(db_path=Path(tmp) / "bench.sqlite3", ai_processes=True))
        with TestClient(app) as c:
            for _ in range(args.rounds):
                game = c.post("/api/games", json={"level": "normal"}).json()
                gid = game["id"]
                while game["status"] in ("your_turn", "computer_turn"):
                    v = game["version"]
                    if game["status"] == "your_turn":
                        t = time.perf_counter()
                        h = c.post(f"/api/games/{gid}/hint", json={"version": v})
                        hint_ms.append((time.perf_counter() - t) * 1000)
                        game = c.post(f"/api/games/{gid}/moves",
                                      json={"version": v, **h.json()["move"]}).json()
                    else:
                        game = c.post(f"/api/games/{gid}/advance", json={"version": v}).json()
                t = time.perf_counter()
                r = c.get(f"/api/games/{gid}/rounds/1/review")
                assert r.status_code == 200, r.text
                review_ms.append((time.perf_counter() - t) * 1000)
    print(f"hint over HTTP, {len(hint_ms)} hints: median {statistics.median(hint_ms):.0f} ms, "
          f"p95 {pct(hint_ms, 0.95):.0f} ms")
    print(f"review on request (not prefetched), {len(review_ms)} rounds: median "
          f"{statistics.median(review_ms):.0f} ms, max {max(review_ms):.0f} ms")


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m scopone.coach.bench")
    p.add_argument("what", choices=["noise", "review", "hint", "agree", "latency"])
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--seconds", type=float, default=0.5 * REVIEW_SLACK,
                   help="review: a play's time at most (the server's: its coach seconds, 0.5,"
                   " times REVIEW_SLACK)")
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args()
    {"noise": noise, "review": review, "hint": hints, "agree": agree,
     "latency": latency}[args.what](args)


if __name__ == "__main__":
    main()
