"""Load figures: latency of ``moves`` and ``advance`` with many games at once, against real
server processes on 127.0.0.1.

    python -m scopone.web.loadbench --pace human --games 500,1000,1500 [--workers 2]
                                    [--database-url postgresql://...] [--seconds 30]
    python -m scopone.web.loadbench --pace flat --games 20       # as fast as answers come
    python -m scopone.web.loadbench --level hard --games 10,20,40 [--time-budget 1.0]

``--pace human`` plays like people: each simulated player waits about 0.7 s before asking a
computer to play and 1–3 s before its own move, so a game sends about one request a second;
``--pace flat`` sends each game's next request as soon as the last is answered. ``--pace page``
plays like today's page: it follows its game's event stream, and the server plays the computers'
cards at its pace (0.7 s, ``SCOPONE_TABLE_PACE``) while the player only sends its own moves
(after 1–3 s) and next rounds; ``card`` is how late each computer card arrives after its pace.
Prints the median, 95th percentile and maximum per endpoint, the throughput, and the CPU a
request (with ``page``: a card) costs the server processes (Hard's worker processes included)
and this load generator; it asserts nothing. A run "holds" when its requests' p95 stays under
50 ms (and with ``page``, its cards' lateness); for Hard, whose ``advance`` is its think time,
when that p95 stays within Hard's budget plus 0.1 s (no card waits in a queue for a free
worker) and the other requests' under 50 ms.

The load generator speaks HTTP/1.1 over asyncio streams itself (one kept-alive connection per
game): a general-purpose client costs several times the server's CPU per request, and on a
2-core machine it would measure itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
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

from .settings import Settings

Timings = dict[str, list[float]]

#: Seconds a simulated person waits: before asking a computer to play, and before their own
#: move (uniform between the two numbers).
THINK_COMPUTER = 0.7
THINK_OWN = (1.0, 3.0)


class Conn:
    """One kept-alive HTTP/1.1 connection that sends JSON and reads JSON back."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        for attempt in (0, 1):
            if self.writer is None:
                await self._open()
            assert self.reader is not None and self.writer is not None
            raw = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
            head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
                    f"Content-Type: application/json\r\nContent-Length: {len(raw)}\r\n\r\n")
            try:
                self.writer.write(head.encode() + raw)
                status_line = await self.reader.readuntil(b"\r\n")
                headers = await self.reader.readuntil(b"\r\n\r\n")
            except (ConnectionError, asyncio.IncompleteReadError):
                # The server closed an idle kept-alive connection: open a new one, once.
                await self.close()
                if attempt:
                    raise
                continue
            length = 0
            for line in headers.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            data = await self.reader.readexactly(length)
            return int(status_line.split(b" ", 2)[1]), json.loads(data) if data else None
        raise AssertionError("unreachable")

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


async def _player(host: str, port: int, level: str, pace: str, rng: random.Random,
                  timings: Timings, measuring: asyncio.Event, stop: asyncio.Event,
                  start_delay: float) -> None:
    await asyncio.sleep(start_delay)  # players arrive spread out, as they would
    conn = Conn(host, port)
    try:
        _, game = await conn.request("POST", "/api/games", {"level": level})
        while not stop.is_set():
            status, gid, v = game["status"], game["id"], game["version"]
            if status == "your_turn":
                wait = rng.uniform(*THINK_OWN)
                kind, path, body = "moves", f"/api/games/{gid}/moves", {
                    "version": v, **rng.choice(game["legal"])}
            elif status == "computer_turn":
                wait = THINK_COMPUTER
                kind, path, body = "advance", f"/api/games/{gid}/advance", {"version": v}
            elif status == "round_over":
                wait = THINK_OWN[1]
                kind, path, body = "next-round", f"/api/games/{gid}/next-round", {"version": v}
            else:
                wait = THINK_OWN[1]
                kind, path, body = "create", "/api/games", {"level": level}
            if pace == "human":
                await asyncio.sleep(wait * rng.uniform(0.8, 1.2))
                if stop.is_set():
                    break
            t0 = time.perf_counter()
            code, answer = await conn.request("POST", path, body)
            if measuring.is_set():
                timings[kind].append(time.perf_counter() - t0)
            if code not in (200, 201):
                timings["errors"].append(0.0)
                _, answer = await conn.request("GET", f"/api/games/{gid}")
            game = answer
    finally:
        await conn.close()


async def _events(host: str, port: int, path: str,
                  out: asyncio.Queue[tuple[float, dict[str, Any]]]) -> None:
    """Reads an event stream (chunked, as uvicorn sends it) into ``out``: (arrival, view)."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n"
                     f"Accept: text/event-stream\r\n\r\n".encode())
        await reader.readuntil(b"\r\n\r\n")
        buffer = b""
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                return  # the server ended the stream (events_max_seconds)
            buffer += (await reader.readexactly(size + 2))[:-2]
            *blocks, buffer = buffer.split(b"\n\n")
            for block in blocks:
                for line in block.split(b"\n"):
                    if line.startswith(b"data: "):
                        out.put_nowait((time.perf_counter(), json.loads(line[6:])))
    finally:
        writer.close()


async def _page_player(host: str, port: int, level: str, pace: float, rng: random.Random,
                       timings: Timings, measuring: asyncio.Event, stop: asyncio.Event,
                       start_delay: float) -> None:
    """A player as the page plays: it follows the game's events, the server plays the
    computers; it sends its own moves and next rounds, and starts a new match at the end."""
    await asyncio.sleep(start_delay)
    conn = Conn(host, port)
    try:
        _, game = await conn.request("POST", "/api/games", {"level": level})
        while not stop.is_set():
            views: asyncio.Queue[tuple[float, dict[str, Any]]] = asyncio.Queue()
            gid = game["id"]
            stream = asyncio.create_task(
                _events(host, port, f"/api/games/{gid}/events?speed=normal", views))
            since = time.perf_counter()  # the last change this player knows of
            try:
                while not stop.is_set() and game["status"] != "match_over":
                    if game["status"] == "computer_turn":
                        try:
                            arrived, view = await asyncio.wait_for(views.get(), 1.0)
                        except TimeoutError:
                            continue
                        if view["version"] <= game["version"]:
                            continue
                        if measuring.is_set() and view["history"] and view["history"][-1][
                                "seat"] != 0 and view["round_number"] == game["round_number"]:
                            timings["card"].append(max(0.0, arrived - since - pace))
                        since, game = arrived, view
                        continue
                    await asyncio.sleep(rng.uniform(*THINK_OWN))
                    v = game["version"]
                    if game["status"] == "your_turn":
                        kind, path, body = "moves", f"/api/games/{gid}/moves", {
                            "version": v, **rng.choice(game["legal"])}
                    else:
                        kind, path, body = ("next-round", f"/api/games/{gid}/next-round",
                                            {"version": v})
                    t0 = time.perf_counter()
                    code, answer = await conn.request("POST", path, body)
                    since = time.perf_counter()
                    if measuring.is_set():
                        timings[kind].append(since - t0)
                    if code != 200:
                        timings["errors"].append(0.0)
                        _, answer = await conn.request("GET", f"/api/games/{gid}")
                    game = answer
            finally:
                stream.cancel()
            if stop.is_set():
                break
            t0 = time.perf_counter()
            _, game = await conn.request("POST", "/api/games", {"level": level})
            if measuring.is_set():
                timings["create"].append(time.perf_counter() - t0)
    finally:
        await conn.close()


async def _run(host: str, port: int, games: int, level: str, pace: str, seconds: float,
               seed: int, server_pids: list[int]) -> tuple[Timings, float, float, float]:
    timings: Timings = defaultdict(list)
    measuring, stop = asyncio.Event(), asyncio.Event()
    ramp = min(10.0, games / 100) if pace in ("human", "page") else 0.0
    card_pace = Settings.from_env().table_pace
    tasks = [asyncio.create_task(
        _page_player(host, port, level, card_pace, random.Random(seed * 7919 + i), timings,
                     measuring, stop, random.uniform(0, ramp)) if pace == "page" else
        _player(host, port, level, pace, random.Random(seed * 7919 + i), timings, measuring,
                stop, random.uniform(0, ramp)))
             for i in range(games)]
    # Warm up until every player has arrived and the first moves are out of the way.
    await asyncio.sleep(ramp + (1.0 if pace == "flat" else 4.0))
    server0, client0 = _cpu(server_pids), time.process_time()
    t0 = time.perf_counter()
    measuring.set()
    await asyncio.sleep(seconds)
    measuring.clear()
    elapsed = time.perf_counter() - t0
    server_cpu, client_cpu = _cpu(server_pids) - server0, time.process_time() - client0
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return timings, elapsed, server_cpu, client_cpu


def _cpu(pids: list[int]) -> float:
    """CPU time (user + system) these processes have used so far; 0 where /proc is missing."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _server_pids(root: int) -> list[int]:
    """The server and every process under it: uvicorn's workers and their pools for Hard."""
    children: dict[int, list[int]] = defaultdict(list)
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            ppid = int((p / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children[ppid].append(int(p.name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children[pid])
    return out


def _p95(xs: list[float]) -> float:
    """The 95th percentile of ``xs`` (seconds) in milliseconds; infinite for none."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.95 * len(xs)))] * 1000 if xs else float("inf")


def _stats(xs: list[float]) -> str:
    if not xs:
        return f"{'-':>8} {'-':>8} {'-':>8}"
    return f"{statistics.median(xs) * 1000:8.1f} {_p95(xs):8.1f} {max(xs) * 1000:8.1f}"


def _wait_up(host: str, port: int, proc: subprocess.Popen[bytes]) -> None:
    async def probe() -> bool:
        conn = Conn(host, port)
        try:
            code, _ = await conn.request("GET", "/openapi.json")
            return code == 200
        except OSError:
            return False
        finally:
            await conn.close()

    for _ in range(300):
        if proc.poll() is not None:
            raise SystemExit(f"server exited with {proc.returncode}")
        if asyncio.run(probe()):
            return
        time.sleep(0.1)
    raise SystemExit("server did not come up")


#: What "holds" means for the summary line: request p95 under this many milliseconds (for
#: Hard's ``advance``: under its budget plus HARD_SLACK_MS).
HOLD_P95_MS = 50.0
HARD_SLACK_MS = 100.0
KINDS = ("moves", "advance", "next-round", "create")


def holds(timings: Timings, level: str, budget: float) -> bool:
    """Whether a run's latencies held (module docstring).

    >>> quick = {"moves": [0.01] * 20, "advance": [0.2] * 39 + [1.0]}
    >>> holds(quick, "normal", 0.25), holds(quick, "hard", 0.25), holds(quick, "hard", 1.0)
    (False, True, True)
    >>> holds({"moves": [0.01] * 20, "advance": [0.4] * 20}, "hard", 0.25)
    False
    """
    if timings.get("card") and _p95(timings["card"]) >= HOLD_P95_MS:
        return False  # the server's computer cards came late (--pace page)
    if level != "hard":
        return _p95([x for k in KINDS for x in timings.get(k, [])]) < HOLD_P95_MS
    rest = [x for k in KINDS if k != "advance" for x in timings.get(k, [])]
    return (_p95(timings.get("advance", [])) < budget * 1000 + HARD_SLACK_MS
            and (not rest or _p95(rest) < HOLD_P95_MS))


def _budget(args: argparse.Namespace) -> float:
    # What the server will give Hard: the flag, else the environment's or the default.
    if args.time_budget is not None:
        return float(args.time_budget)
    return Settings.from_env().ai_time_budget


def _measure(args: argparse.Namespace, games: int) -> bool:
    """One run with a fresh server: prints its figures, returns whether it held (``holds``)."""
    host = "127.0.0.1"
    with tempfile.TemporaryDirectory(prefix="scopone-bench-") as tmp:
        cmd = [sys.executable, "-m", "scopone", "serve", "--port", str(args.port),
               "--workers", str(args.workers)]
        cmd += (["--database-url", args.database_url] if args.database_url
                else ["--db", str(Path(tmp) / "bench.sqlite3")])
        if args.time_budget is not None:
            cmd += ["--time-budget", str(args.time_budget)]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
        try:
            _wait_up(host, args.port, proc)
            # Every worker up, and Hard's pools started (``Thinker.start``).
            time.sleep(1.0 if args.workers > 1 or args.level == "hard" else 0.0)
            pids = _server_pids(proc.pid)
            store = "PostgreSQL" if args.database_url else "SQLite"
            workers = Settings.from_env(workers=args.workers).hard_workers
            hard = (f" (Hard's budget {_budget(args)} s, {workers} worker(s) a process)"
                    if args.level == "hard" else "")
            print(f"server: {args.workers} process(es) on {store}, {os.cpu_count()} CPUs; "
                  f"{games} {args.level} games{hard}, pace {args.pace}, {args.seconds:.0f} s "
                  f"measured (load generator on the same machine; load average "
                  f"{os.getloadavg()[0]:.2f} before)")
            timings, elapsed, server_cpu, client_cpu = asyncio.run(_run(
                host, args.port, games, args.level, args.pace, args.seconds, args.seed, pids))
            print(f"{'endpoint':<12}{'n':>7} {'median':>8} {'p95':>8} {'max':>8}  (ms)")
            for kind in KINDS:
                if timings.get(kind):
                    print(f"{kind:<12}{len(timings[kind]):>7} {_stats(timings[kind])}")
            if timings.get("card"):
                print(f"{'card late':<12}{len(timings['card']):>7} {_stats(timings['card'])}"
                      "  (a computer card after its pace; not a request)")
            every = sorted(x for k in KINDS for x in timings.get(k, []))
            total = len(every)
            print(f"{'all':<12}{total:>7} {_stats(every)}")
            errors = len(timings.get("errors", []))
            print(f"throughput  {total / elapsed:7.1f} req/s; errors {errors}")
            if not total:
                return False
            # Following events, each computer card is work the server does unasked.
            per, what = total + len(timings.get("card", [])), "card"
            if not timings.get("card"):
                per, what = total, "request"
            print(f"cpu/{what} server {server_cpu / per * 1000:.2f} ms, "
                  f"load generator {client_cpu / per * 1000:.2f} ms", flush=True)
            return holds(timings, args.level, _budget(args))
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m scopone.web.loadbench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", default="20",
                   help="games played at once (default 20); a list such as 500,1000,1500 runs "
                        "each in turn and names the largest that held")
    p.add_argument("--pace", choices=("human", "flat", "page"), default="human",
                   help="human: people's pauses between requests; flat: none; page: as the "
                        "page plays, following events (default human)")
    p.add_argument("--level", default="normal", help="level of those games (default normal)")
    p.add_argument("--seconds", type=float, default=30.0, help="measured time (default 30)")
    p.add_argument("--workers", type=int, default=1, help="server processes (default 1)")
    p.add_argument("--database-url", default="", help="postgresql://... (default: SQLite)")
    p.add_argument("--port", type=int, default=8190)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--time-budget", type=float, default=None,
                   help="Hard's seconds a move (default: the server's, SCOPONE_AI_TIME_BUDGET)")
    args = p.parse_args(argv)
    try:
        counts = [int(n) for n in args.games.split(",")]
    except ValueError:
        p.error(f"--games: whole numbers separated by commas, not {args.games!r}")
    held = []
    for games in counts:
        if _measure(args, games):
            held.append(games)
        print()
    if len(counts) > 1:
        best = max(held) if held else None
        rule = (f"advance p95 < Hard's budget + {HARD_SLACK_MS:.0f} ms, other requests' < "
                f"{HOLD_P95_MS:.0f} ms" if args.level == "hard"
                else f"request p95 < {HOLD_P95_MS:.0f} ms")
        if args.pace == "page":  # holds() asks the server's own cards to be on time too
            rule += f" and computer cards late by p95 < {HOLD_P95_MS:.0f} ms"
        print(f"largest number of games with {rule}: "
              f"{best if best is not None else 'none of ' + args.games}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
