"""Finished and abandoned games are removed after the configured time, by the server itself, and
so are the people who never finished a round, untouched as long."""

from __future__ import annotations

import random
import secrets
import time
from typing import Any

from scopone.coach.stats import empty_stats
from scopone.engine import Match, Rules
from scopone.web.store import GameRecord, PersonRecord, open_store


def test_the_server_sweeps_old_games_at_start(api_factory: Any) -> None:
    built = api_factory(finished_hours=1.0, idle_hours=24.0)
    settings = built.app.state.settings
    store = open_store(settings.store_url)
    try:
        recs = {name: GameRecord.new(Match(Rules(), random.Random(n)), "easy")
                for n, name in enumerate(("playing", "done_long_ago", "done_just_now",
                                          "abandoned"))}
        recs["done_long_ago"].match.winner = 1
        recs["done_just_now"].match.winner = 0
        ages = {"playing": 3 * 3600, "done_long_ago": 2 * 3600, "done_just_now": 60,
                "abandoned": 25 * 3600}
        for name, rec in recs.items():
            rec.updated = time.time() - ages[name]
            store.insert(rec)
    finally:
        store.close()
    with built.client as client:
        kept = {name for name, rec in recs.items()
                if client.get(f"/api/games/{rec.id}").status_code == 200}
    assert kept == {"playing", "done_just_now"}


def test_zero_hours_keeps_everything(api_factory: Any) -> None:
    built = api_factory(finished_hours=0.0, idle_hours=0.0)
    store = open_store(built.app.state.settings.store_url)
    try:
        rec = GameRecord.new(Match(Rules(), random.Random(1)), "easy")
        rec.match.winner = 0
        rec.updated = time.time() - 10 * 365 * 86400
        store.insert(rec)
    finally:
        store.close()
    with built.client as client:
        assert client.get(f"/api/games/{rec.id}").status_code == 200


def test_the_server_sweeps_again_at_its_period(api_factory: Any) -> None:
    """SCOPONE_SWEEP_SECONDS: a game finished long ago and stored after the start is gone at
    the next sweep (the period was a constant of 600 s that no operator could change)."""
    built = api_factory(finished_hours=1.0, idle_hours=24.0, sweep_seconds=0.2)
    with built.client as client:
        store = open_store(built.app.state.settings.store_url)
        try:
            rec = GameRecord.new(Match(Rules(), random.Random(2)), "easy")
            rec.match.winner = 0
            rec.updated = time.time() - 2 * 3600
            store.insert(rec)
        finally:
            store.close()
        deadline = time.monotonic() + 10.0  # a guard on a loaded machine, not a measure
        while (client.get(f"/api/games/{rec.id}").status_code == 200
               and time.monotonic() < deadline):
            time.sleep(0.05)
        assert client.get(f"/api/games/{rec.id}").status_code == 404


# Every card code, to find one not in a hand (refused by the rules whoever's turn it is).
ALL_CARDS = [f"{rank}{suit}" for suit in "DCSB" for rank in range(1, 11)]


def test_a_game_swept_away_is_404_to_a_move_where_it_was_kept_hot(api: Any) -> None:
    """The process that stored a game last keeps it hot. Swept away (a finished match's page
    still open a day later), a move the rules refuse on that copy answered 409 with the swept
    game's whole view while GET answered 404, until 2,048 newer games pushed it out of the
    cache (QA helper-79): the page then showed the dead game again instead of a new one."""
    game = api.create()
    gid, version = game["id"], game["version"]
    assert api.store.remove_old(time.time() + 60, time.time() + 60) == 1
    assert api.client.get(f"/api/games/{gid}").status_code == 404
    card = next(c for c in ALL_CARDS if c not in game["hand"])
    for path, body in ((f"/api/games/{gid}/moves",
                        {"version": version, "card": card, "capture": []}),
                       (f"/api/games/{gid}/next-round", {"version": version})):
        r = api.client.post(path, json=body)
        assert r.status_code == 404, r.text


def test_a_move_refused_on_a_hot_copy_another_process_moved_on_is_stale(
        api_factory: Any) -> None:
    """Two processes: the one that stored the game last keeps its copy hot while the other
    plays the next card. A request at the hot copy's version is stale (409 with the game as
    stored), not refused by the rules on the old copy with the old copy's view."""
    first, second = api_factory(), api_factory()
    rng = random.Random(3)
    with first.client, second.client:
        game = first.until(first.create(), "your_turn", rng)
        moved = first.step(game, rng)  # stored by ``first``: its hot copy
        assert moved["status"] == "computer_turn"
        r = second.client.post(f"/api/games/{moved['id']}/advance",
                               json={"version": moved["version"]})
        assert r.status_code == 200, r.text
        newest = r.json()["version"]
        card = next(c for c in ALL_CARDS if c not in moved["hand"])
        r = first.client.post(f"/api/games/{moved['id']}/moves",
                              json={"version": moved["version"], "card": card, "capture": []})
        assert r.status_code == 409, r.text
        assert r.json()["detail"] == "stale version"
        assert r.json()["game"]["version"] == newest


def _person(store: Any, pid: str, hours_ago: float, **fields: Any) -> None:
    data = {**empty_stats(), **fields}
    when = time.time() - hours_ago * 3600
    assert store.save_person(PersonRecord(pid, data, when, when))


def test_people_who_never_finished_a_round_are_swept_when_idle(api_factory: Any) -> None:
    """Any client may send a new person id with each game it makes (``X-Scopone-Person``),
    and each made a row of statistics kept for ever (QA helper-79). Untouched as long as an
    abandoned game, a person no round was ever counted for is removed: their statistics page
    said "no statistics yet", as it does for an id it does not know. Everyone else stays."""
    built = api_factory(finished_hours=1.0, idle_hours=24.0)
    store = open_store(built.app.state.settings.store_url)
    people = {"idle_never_played": (25, {}), "idle_with_rounds": (25, {"rounds": 2}),
              "recent_never_played": (1, {}), "hints_only_recent": (1, {"hints": 3})}
    ids = {name: secrets.token_hex(16) for name in people}
    try:
        for name, (hours, fields) in people.items():
            _person(store, ids[name], hours, **fields)
    finally:
        store.close()
    with built.client as client:  # the server sweeps at start
        kept = {name for name, pid in ids.items()
                if client.get(f"/api/people/{pid}/stats").status_code == 200}
    assert kept == {"idle_with_rounds", "recent_never_played", "hints_only_recent"}


def test_zero_idle_hours_keeps_every_person(api_factory: Any) -> None:
    built = api_factory(finished_hours=0.0, idle_hours=0.0)
    store = open_store(built.app.state.settings.store_url)
    pid = secrets.token_hex(16)
    try:
        _person(store, pid, 10 * 365 * 24)
    finally:
        store.close()
    with built.client as client:
        assert client.get(f"/api/people/{pid}/stats").status_code == 200


def test_a_round_finished_after_its_person_was_swept_is_counted(api: Any) -> None:
    """A person swept away (no round counted, untouched for the idle limit) who then finishes
    a round of a game still kept: the row is made again and the round counted."""
    pid = secrets.token_hex(16)
    r = api.client.post("/api/games", json={"level": "easy"}, headers={"X-Scopone-Person": pid})
    assert r.status_code == 201, r.text
    game = r.json()
    assert api.store.remove_idle_people(time.time() + 60) == 1  # swept as if long idle
    assert api.client.get(f"/api/people/{pid}/stats").status_code == 404
    api.round_end(game, random.Random(3))
    stats = api.client.get(f"/api/people/{pid}/stats")
    assert stats.status_code == 200 and stats.json()["rounds"] == 1, stats.text
