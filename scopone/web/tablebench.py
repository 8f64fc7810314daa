"""Push latency at tables with friends, measured against a running server (one is started on a
temporary SQLite file unless ``--url`` names one).

``python -m scopone.web.tablebench`` seats four people at one table, opens their four event
streams and a spectator's, and plays as fast as the answers come: for each accepted move, the
time until each of the three other seats' streams has that version (from the move's answer, and
from its sending), median and p95 over ``--moves`` moves.

``python -m scopone.web.tablebench --tables N`` plays N such tables at once at a human pace (each
person moves 1-3 s after their turn begins, 1 s before the next round), every stream open, for
``--seconds``; it prints the request p95 (moves) and the push p95, and the p95 the server's own
``/metrics`` histogram gives the moves (the time spent in the app alone).

The load generator runs on the same machine and shares its cores with the server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


@dataclass
class Table:
    code: str
    tokens: list[str]
    latest: list[dict[str, Any] | None] = field(default_factory=lambda: [None] * 5)
    arrivals: dict[tuple[int, int], float] = field(default_factory=dict)  # (seat, version)
    changed: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Figures:
    request: list[float] = field(default_factory=list)  # seconds, a move's round trip
    push: list[float] = field(default_factory=list)  # answer received -> another seat has it
    push_from_send: list[float] = field(default_factory=list)
    moves: int = 0
    errors: int = 0


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


async def _listen(client: httpx.AsyncClient, table: Table, seat: int) -> None:
    """One viewer's stream (seat 4: the spectator), reconnecting when it ends."""
    token = table.tokens[seat] if seat < 4 else None
    last: int | None = None
    while True:
        headers = _auth(token)
        if last is not None:
            headers["Last-Event-ID"] = str(last)
        try:
            async with client.stream("GET", f"/api/tables/{table.code}/events",
                                     headers=headers) as r:
                data = ""
                async for line in r.aiter_lines():
                    if line.startswith("data: "):
                        data = line[6:]
                    elif line == "" and data:
                        view = json.loads(data)
                        now = time.perf_counter()
                        last = view["version"]
                        table.arrivals[(seat, view["version"])] = now
                        table.latest[seat] = view
                        table.changed.set()
                        data = ""
        except httpx.HTTPError:
            await asyncio.sleep(0.2)


async def _post(client: httpx.AsyncClient, path: str, **kw: Any) -> httpx.Response:
    """A POST, sent again when a kept-alive connection turned out closed (the server drops
    idle ones after a few seconds); a move sent twice gets 409 the second time, counted."""
    for attempt in range(3):
        try:
            return await client.post(path, **kw)
        except httpx.TransportError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def _new_table(client: httpx.AsyncClient, n: int) -> Table:
    r = await _post(client, "/api/tables", json={"name": f"P{n}-0", "level": "easy"})
    r.raise_for_status()
    code, tokens = r.json()["table"]["code"], [r.json()["token"]]
    for seat in (1, 2, 3):
        r = await _post(client, f"/api/tables/{code}/seats/{seat}",
                        json={"name": f"P{n}-{seat}"})
        r.raise_for_status()
        tokens.append(r.json()["token"])
    return Table(code, tokens)


async def _wait(table: Table, pred: Any, timeout: float = 30.0) -> None:
    deadline = time.perf_counter() + timeout
    while not pred():
        table.changed.clear()
        left = deadline - time.perf_counter()
        if left <= 0:
            raise TimeoutError("the table did not get there")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(table.changed.wait(), left)


def _newest(table: Table) -> dict[str, Any] | None:
    views = [v for v in table.latest[:4] if v is not None]
    return max(views, key=lambda v: int(v["version"])) if views else None


async def _play(client: httpx.AsyncClient, table: Table, figures: Figures, rng: random.Random,
                pace: tuple[float, float] | None, until: float, max_moves: int) -> None:
    """Plays the table: each person from their own stream's view."""
    def everyone_at(version: int) -> bool:
        return all(v is not None and v["version"] >= version for v in table.latest[:4])

    await _wait(table, lambda: everyone_at(0))
    view = _newest(table)
    assert view is not None
    r = await _post(client, f"/api/tables/{table.code}/start",
                    json={"version": view["version"]}, headers=_auth(table.tokens[0]))
    r.raise_for_status()
    version = r.json()["version"]
    while time.perf_counter() < until and figures.moves < max_moves:
        await _wait(table, lambda v=version: everyone_at(v))
        game = table.latest[0]["game"]  # type: ignore[index]
        if game["status"] == "match_over":
            path, body, seat = "rematch", {"version": version}, 0
        elif game["status"] == "round_over":
            path, body, seat = "next-round", {"version": version}, 0
        else:
            seat = game["turn"]
            mine = table.latest[seat]["game"]
            path, body = "moves", {"version": version, **rng.choice(mine["legal"])}
        if pace is not None:
            await asyncio.sleep(rng.uniform(*pace) if path == "moves" else 1.0)
        sent = time.perf_counter()
        r = await _post(client, f"/api/tables/{table.code}/{path}", json=body,
                        headers=_auth(table.tokens[seat]))
        answered = time.perf_counter()
        if r.status_code != 200:
            figures.errors += 1
            view = _newest(table)
            version = view["version"] if view else version
            continue
        version = r.json()["version"]
        if path != "moves":
            continue
        figures.moves += 1
        figures.request.append(answered - sent)
        others = [s for s in range(4) if s != seat]
        await _wait(table, lambda v=version, o=others: all((s, v) in table.arrivals for s in o))
        for s in others:
            arrived = table.arrivals[(s, version)]
            figures.push.append(max(0.0, arrived - answered))
            figures.push_from_send.append(arrived - sent)


MOVES_ROUTE = 'route="/api/tables/{code}/moves",status="200"'


def _moves_buckets(base: str) -> dict[float, float]:
    """The server's own histogram of accepted moves (``/metrics``): how many took at most each
    bucket's seconds, from the request's arrival in the app to its answer."""
    text = httpx.get(base + "/metrics", timeout=30).text
    buckets: dict[float, float] = {}
    for line in text.splitlines():
        if line.startswith("scopone_http_request_duration_seconds_bucket") and MOVES_ROUTE in line:
            le = line.split('le="', 1)[1].split('"', 1)[0]
            buckets[float(le)] = buckets.get(float(le), 0.0) + float(line.rsplit(" ", 1)[1])
    return buckets


def _bucket_p95(before: dict[float, float], after: dict[float, float]) -> float | None:
    """The smallest bucket bound that holds 95% of the moves between two scrapes."""
    counts = {le: after[le] - before.get(le, 0.0) for le in sorted(after)}
    total = counts.get(float("inf"), 0.0)
    if total <= 0:
        return None
    return next(le for le, n in counts.items() if n >= 0.95 * total)


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process and its children so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def _start_server(database_url: str | None) -> tuple[subprocess.Popen[bytes], str, Path]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    tmp = Path(tempfile.mkdtemp(prefix="scopone-tablebench-"))
    where = ["--database-url", database_url] if database_url else ["--db",
                                                                   str(tmp / "t.sqlite3")]
    proc = subprocess.Popen([sys.executable, "-m", "scopone", "serve", "--port", str(port),
                             *where], env={**os.environ, "SCOPONE_AI_WORKERS": "1"},
                            stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                return proc, base, tmp
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


async def _run(base: str, tables: int, pace: tuple[float, float] | None, seconds: float,
               moves: int, seed: int) -> Figures:
    figures = Figures()
    limits = httpx.Limits(max_connections=5 * tables + 20, max_keepalive_connections=None)
    timeout = httpx.Timeout(60.0, read=None)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) as streams, \
            httpx.AsyncClient(base_url=base, limits=limits, timeout=60.0) as client:
        made = [await _new_table(client, n) for n in range(tables)]
        listeners = [asyncio.create_task(_listen(streams, t, seat))
                     for t in made for seat in range(5)]
        until = time.perf_counter() + seconds
        players = [_play(client, t, figures, random.Random(seed + i), pace, until, moves)
                   for i, t in enumerate(made)]
        try:
            await asyncio.gather(*players)
        finally:
            for task in listeners:
                task.cancel()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopone.web.tablebench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--database-url", help="postgresql://... for the started server")
    parser.add_argument("--tables", type=int, default=0,
                        help="N tables at once at a human pace (default: one table, no pause)")
    parser.add_argument("--moves", type=int, default=400, help="moves of the latency run")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the --tables run")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    proc = None
    base = args.url
    if base is None:
        proc, base, _ = _start_server(args.database_url)
    cpu_before = _cpu_seconds(proc.pid) if proc is not None else 0.0
    served_before = _moves_buckets(base)
    started = time.perf_counter()
    mine_before = time.process_time()
    try:
        if args.tables:
            figures = asyncio.run(_run(base, args.tables, (1.0, 3.0), args.seconds, 10**9,
                                       args.seed))
            label = f"{args.tables} tables at a human pace, {args.seconds:.0f} s"
        else:
            figures = asyncio.run(_run(base, 1, None, 3600.0, args.moves, args.seed))
            label = "one table, moves back to back"
        served = _bucket_p95(served_before, _moves_buckets(base))
    finally:
        cpu = _cpu_seconds(proc.pid) - cpu_before if proc is not None else None
        if proc is not None:
            proc.terminate()
            proc.wait(20)
    ms = 1000.0
    print(f"{label}: {figures.moves} moves, {len(figures.push)} pushes, "
          f"{figures.errors} refused requests")
    if figures.request:
        print(f"  request (move)       median {statistics.median(figures.request) * ms:7.1f} ms"
              f"   p95 {_pct(figures.request, 95) * ms:7.1f} ms")
    if figures.push:
        print(f"  push (from answer)   median {statistics.median(figures.push) * ms:7.1f} ms"
              f"   p95 {_pct(figures.push, 95) * ms:7.1f} ms")
        print(f"  push (from sending)  median "
              f"{statistics.median(figures.push_from_send) * ms:7.1f} ms"
              f"   p95 {_pct(figures.push_from_send, 95) * ms:7.1f} ms")
        if served is not None:
            # The server's side alone: when it is far below the request p95 above, the time
            # went in the load generator or in waiting for the server's event loop.
            print(f"  request in the app   p95 <= {served * ms:.0f} ms (its /metrics histogram)")
    wall = time.perf_counter() - started
    mine = time.process_time() - mine_before
    # The generator itself: near one core (100%) means the figures measure the client.
    print(f"  load generator CPU   {mine:.2f} s in {wall:.0f} s ({mine / wall:.0%} of a core)")
    if cpu is not None and figures.moves:
        # Everything the server did, next-round and rematch requests and streams included.
        print(f"  server CPU           {cpu:.2f} s in all, {cpu / figures.moves * ms:.2f} ms "
              f"a move (its request and the five views pushed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
