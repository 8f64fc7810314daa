"""Load figures: latency of ``moves`` and ``advance`` with many games at once, against a real
uvicorn on 127.0.0.1, alone and while a Hard game thinks.

    python -m scopone.web.loadbench [--games 20] [--level normal] [--steps 60] [--port 8190]

Prints the median and 95th percentile per endpoint and scenario; it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx

Timings = dict[str, list[float]]


async def _step(c: httpx.AsyncClient, game: dict[str, Any], rng: random.Random,
                level: str, timings: Timings) -> dict[str, Any]:
    """One request moving the game on; a finished match is replaced by a new one."""
    gid, v, status = game["id"], game["version"], game["status"]
    if status == "your_turn":
        kind, req = "moves", c.post(f"/api/games/{gid}/moves",
                                    json={"version": v, **rng.choice(game["legal"])})
    elif status == "computer_turn":
        kind, req = "advance", c.post(f"/api/games/{gid}/advance", json={"version": v})
    elif status == "round_over":
        kind, req = "next-round", c.post(f"/api/games/{gid}/next-round", json={"version": v})
    else:
        kind, req = "create", c.post("/api/games", json={"level": level})
    t0 = time.perf_counter()
    try:
        r = await req
    except httpx.TransportError:
        # A dropped connection (say, closed by the server's keep-alive timeout just as it was
        # reused): counted and shown, then the game is read back rather than the move retried.
        timings["transport errors"].append(0.0)
        r = await c.get(f"/api/games/{gid}") if status != "match_over" else \
            await c.post("/api/games", json={"level": level})
        r.raise_for_status()
        out_: dict[str, Any] = r.json()
        return out_
    timings[kind].append(time.perf_counter() - t0)
    r.raise_for_status()
    out: dict[str, Any] = r.json()
    return out


async def _player(c: httpx.AsyncClient, level: str, steps: int | None, rng: random.Random,
                  timings: Timings, stop: asyncio.Event) -> None:
    r = await c.post("/api/games", json={"level": level})
    r.raise_for_status()
    game = r.json()
    n = 0
    while not stop.is_set() and (steps is None or n < steps):
        game = await _step(c, game, rng, level, timings)
        n += 1


async def _scenario(base: str, games: int, level: str, steps: int, with_hard: bool,
                    seed: int) -> tuple[Timings, Timings, float]:
    timings: Timings = defaultdict(list)
    hard: Timings = defaultdict(list)
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=games + 4)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=120) as c:
        rngs = [random.Random(seed * 1000 + i) for i in range(games + 1)]
        hard_task = None
        if with_hard:
            hard_task = asyncio.create_task(_player(c, "hard", None, rngs[-1], hard, stop))
            # Start measuring once Hard is actually thinking.
            while not hard["advance"] and not hard_task.done():
                await asyncio.sleep(0.05)
        t0 = time.perf_counter()
        await asyncio.gather(*(_player(c, level, steps, rngs[i], timings, stop)
                               for i in range(games)))
        elapsed = time.perf_counter() - t0
        stop.set()
        if hard_task is not None:
            await hard_task
    return timings, hard, elapsed


def _ms(xs: list[float]) -> str:
    if not xs:
        return "      -        -"
    med = statistics.median(xs) * 1000
    p95 = statistics.quantiles(xs, n=20)[-1] * 1000 if len(xs) >= 2 else med
    return f"{med:7.1f}  {p95:7.1f}"


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far; 0 where /proc is missing."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_up(base: str, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(200):
        if proc.poll() is not None:
            raise SystemExit(f"server exited with {proc.returncode}")
        try:
            if httpx.get(base + "/openapi.json", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise SystemExit("server did not come up")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m scopone.web.loadbench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=20, help="games played at once (default 20)")
    p.add_argument("--level", default="normal", help="level of those games (default normal)")
    p.add_argument("--steps", type=int, default=60, help="requests per game (default 60)")
    p.add_argument("--port", type=int, default=8190)
    p.add_argument("--time-budget", type=float, default=1.0, help="Hard's seconds per card")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)

    base = f"http://127.0.0.1:{args.port}"
    with tempfile.TemporaryDirectory(prefix="scopone-bench-") as tmp:
        env = {**os.environ, "SCOPONE_AI_TIME_BUDGET": str(args.time_budget)}
        cmd = [sys.executable, "-m", "scopone", "serve", "--port", str(args.port),
               "--db", str(Path(tmp) / "bench.sqlite3")]
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL)
        try:
            _wait_up(base, proc)
            # Warm up (worker processes spawned, players imported) before measuring anything.
            asyncio.run(_scenario(base, 2, args.level, 10, False, args.seed + 99))
            print(f"server: uvicorn on {base}, {os.cpu_count()} CPUs; {args.games} games at "
                  f"{args.level}, {args.steps} requests each; Hard budget {args.time_budget}s")
            print(f"{'scenario':<22}{'endpoint':<12}{'n':>6}  {'median':>7}  {'p95':>7}  (ms)")
            for name, with_hard in (("alone", False), ("while Hard thinks", True)):
                server0, client0 = _cpu_seconds(proc.pid), time.process_time()
                timings, hard, elapsed = asyncio.run(_scenario(
                    base, args.games, args.level, args.steps, with_hard, args.seed))
                server_cpu = _cpu_seconds(proc.pid) - server0
                client_cpu = time.process_time() - client0
                for kind in ("moves", "advance"):
                    xs = timings[kind]
                    print(f"{name:<22}{kind:<12}{len(xs):>6}  {_ms(xs)}")
                dropped = len(timings.pop("transport errors", []))
                total = sum(len(v) for v in timings.values())
                if dropped:
                    print(f"{name:<22}{'dropped':<12}{dropped:>6}  connections (not timed)")
                print(f"{name:<22}{'throughput':<12}{total:>6}  {total / elapsed:7.1f} req/s")
                # CPU per request: the server's own process (not its AI workers) and this
                # client's, to tell service cost from load-generator cost on a small machine.
                per = 1000 / total
                print(f"{name:<22}{'cpu/request':<12}{total:>6}  server {server_cpu * per:.1f} ms,"
                      f" client {client_cpu * per:.1f} ms")
                if with_hard:
                    xs = hard["advance"]
                    print(f"{'(the Hard game)':<22}{'advance':<12}{len(xs):>6}  {_ms(xs)}")
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
