"""Finished and abandoned games are removed after the configured time, by the server itself."""

from __future__ import annotations

import random
import time
from typing import Any

from scopone.engine import Match, Rules
from scopone.web.store import GameRecord, open_store


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
