"""The version rule and concurrency: stale or repeated requests change nothing; one game's
requests are serialized; different games do not wait for each other."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx

from scopone.engine import Move, SeatView


def test_stale_and_repeated_requests_are_409_and_change_nothing(api: Any) -> None:
    gid = api.insert(["5C 7D 2D", "1B 2B 3B", "1S 2S 3S", "1C 2C 3C"], dealer=3)
    view = api.get(gid)
    v = view["version"]
    body = {"version": v, "card": "5C", "capture": []}
    first = api.client.post(f"/api/games/{gid}/moves", json=body)
    assert first.status_code == 200 and first.json()["version"] == v + 1
    after = api.get(gid)
    stored = api.store.load(gid).match.to_dict()
    for path, b in [("/moves", body),  # the same request again
                    ("/moves", {**body, "card": "7D"}),
                    ("/moves", {**body, "version": v + 7}),  # from the future
                    ("/advance", {"version": v}),
                    ("/next-round", {"version": v})]:
        r = api.client.post(f"/api/games/{gid}{path}", json=b)
        assert r.status_code == 409 and r.json()["detail"] == "stale version", (path, b)
        assert r.json()["game"] == after
    assert api.get(gid) == after
    assert api.store.load(gid).match.to_dict() == stored
    # The current version goes through.
    r = api.client.post(f"/api/games/{gid}/advance", json={"version": v + 1})
    assert r.status_code == 200 and r.json()["version"] == v + 2


def test_level_change_bumps_the_version_and_applies_at_the_next_computer_card(api: Any) -> None:
    gid = api.insert(["5C 7D", "1B 2B", "1S 2S", "1C 2C"], dealer=0, level="easy")
    seen: list[str] = []
    thinker = api.app.state.service.thinker
    real = thinker.choose

    async def recording(level: str, view: SeatView, seed: str) -> Move:
        seen.append(level)
        move: Move = await real(level, view, seed)
        return move

    thinker.choose = recording
    game = api.get(gid)
    game = api.step(game, random.Random(0))  # seat 1 plays at easy
    r = api.client.patch(f"/api/games/{gid}", json={"level": "normal"})
    assert r.status_code == 200
    changed = r.json()
    assert changed["level"] == "normal" and changed["version"] == game["version"] + 1
    # The same level again is no change: the version stays.
    same = api.client.patch(f"/api/games/{gid}", json={"level": "normal"}).json()
    assert same["version"] == changed["version"]
    # A request based on the version before the change is now stale.
    r = api.client.post(f"/api/games/{gid}/advance", json={"version": game["version"]})
    assert r.status_code == 409
    api.step(changed, random.Random(0))  # seat 2 plays at normal
    assert seen == ["easy", "normal"]


def test_two_requests_on_one_game_at_once_are_serialized(api: Any) -> None:
    """Both carry the same version: one plays, the other is stale; exactly one card played."""
    gid = api.insert(["5C 7D", "1B 2B", "1S 2S", "1C 2C"], dealer=0)
    v = api.get(gid)["version"]
    thinker = api.app.state.service.thinker
    real = thinker.choose
    inside = 0
    overlapped = False

    async def slow(level: str, view: SeatView, seed: str) -> Move:
        nonlocal inside, overlapped
        inside += 1
        overlapped |= inside > 1
        await asyncio.sleep(0)  # let the other request run if nothing holds it back
        await asyncio.sleep(0)
        move: Move = await real(level, view, seed)
        inside -= 1
        return move

    thinker.choose = slow

    async def both() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=api.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            return list(await asyncio.gather(
                *(c.post(f"/api/games/{gid}/advance", json={"version": v}) for _ in range(2))))

    responses = api.client.portal.call(both)
    assert sorted(r.status_code for r in responses) == [200, 409]
    assert not overlapped
    after = api.get(gid)
    assert after["version"] == v + 1 and len(after["history"]) == 1


def test_a_thinking_game_does_not_hold_up_another(api: Any) -> None:
    slow_gid = api.insert(["5C 7D", "1B 2B", "1S 2S", "1C 2C"], dealer=0)
    quick_gid = api.insert(["5C 7D", "1B 2B", "1S 2S", "1C 2C"], dealer=0)
    thinker = api.app.state.service.thinker
    real = thinker.choose
    slow_seed = api.store.load(slow_gid).seed
    release: asyncio.Event | None = None
    started: asyncio.Event | None = None

    async def held(level: str, view: SeatView, seed: str) -> Move:
        assert release is not None and started is not None
        if seed.startswith(slow_seed) and not release.is_set():
            started.set()
            await asyncio.wait_for(release.wait(), 30)  # a guard against hanging, not a measure
        move: Move = await real(level, view, seed)
        return move

    thinker.choose = held

    async def scenario() -> tuple[int, int, bool]:
        nonlocal release, started
        release, started = asyncio.Event(), asyncio.Event()
        transport = httpx.ASGITransport(app=api.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            slow = asyncio.ensure_future(
                c.post(f"/api/games/{slow_gid}/advance", json={"version": 0}))
            await asyncio.wait_for(started.wait(), 30)
            quick = await c.post(f"/api/games/{quick_gid}/advance", json={"version": 0})
            get = await c.get(f"/api/games/{slow_gid}")
            still_thinking = not slow.done()
            release.set()
            return quick.status_code, (await slow).status_code, still_thinking \
                and get.status_code == 200

    quick, slow, ok = api.client.portal.call(scenario)
    assert (quick, slow, ok) == (200, 200, True)


def _elsewhere(api: Any, gid: str, change: Any, new_version: bool) -> None:
    """What another process does to the game behind this one's back: a move (a new version),
    or the coach's count of a hint (the same version, a new time)."""
    rec = api.store.load(gid)
    before_version, before_updated = rec.version, rec.updated
    change(rec)
    rec.version += new_version
    rec.updated = before_updated + 1.0
    assert api.store.update(rec, before_version, before_updated)


def test_the_copy_kept_to_play_on_never_hides_another_process_change(api: Any) -> None:
    """The service plays on the record it stored last rather than load it again; a change
    another process stored meanwhile is never overwritten by that copy."""
    gid = api.insert(["5C 7D 2D", "1B 2B 3B", "1S 2S 3S", "1C 2C 3C"], dealer=3)
    game = api.step(api.get(gid), random.Random(0))  # seat 0's card: now kept by this process
    assert game["status"] == "computer_turn"

    # A count at the same version (a hint asked through another process): this process's
    # next change is made again on top of it, not refused, and the count stays.
    def mark(rec: Any) -> None:
        rec.meta["elsewhere"] = 1

    _elsewhere(api, gid, mark, new_version=False)
    r = api.client.post(f"/api/games/{gid}/advance", json={"version": game["version"]})
    assert r.status_code == 200, r.text
    assert api.store.load(gid).meta["elsewhere"] == 1
    game = r.json()

    # A computer's card stored by another process: the kept copy is stale, so the version the
    # browser holds is refused with the stored game, and the stored game's version goes on.
    def play(rec: Any) -> None:
        r = rec.match.round
        r.play(r.legal_moves()[0], seat=r.turn)

    _elsewhere(api, gid, play, new_version=True)
    stored = api.store.load(gid)
    r = api.client.post(f"/api/games/{gid}/advance", json={"version": game["version"]})
    assert r.status_code == 409 and r.json()["detail"] == "stale version"
    assert r.json()["game"]["version"] == stored.version == game["version"] + 1
    assert len(r.json()["game"]["history"]) == len(game["history"]) + 1
    assert api.store.load(gid).match.to_dict() == stored.match.to_dict()
    r = api.client.post(f"/api/games/{gid}/advance", json={"version": stored.version})
    assert r.status_code == 200 and r.json()["version"] == stored.version + 1
