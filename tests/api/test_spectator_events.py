"""A table's spectators share one event a version (``events.SpectatorEvents``): built once
for all of them while it is fresh, so the turn clock in it never ages by more than
``SHARED_EVENT_SECONDS``; a new version, or the clock's time passing, builds it anew."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scopone.web import events as events_module
from scopone.web import table_views
from scopone.web.events import SHARED_EVENT_SECONDS, SpectatorEvents

from .aio import run_alone
from .test_solo_driver_cases import Sim
from .test_table_driver_cases import at_table, sim  # noqa: F401  (the fixture)
from .test_table_rules import _playing, _turn_to


def test_spectators_share_one_event_a_version_while_it_is_fresh(
        tmp_path: Path, sim: Sim, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    for module in (events_module, table_views):
        monkeypatch.setattr(module, "time", sim)

    async def scenario() -> list[tuple[int, bytes]]:
        rec, _ = _playing(away_seconds=60)
        _turn_to(rec, 2)  # Carla's turn: a clock in the view
        async with at_table(tmp_path, sim, rec) as at:
            feed = SpectatorEvents(at.tables)
            out = []
            for step in ("first", "same version", "clock aged", "new version"):
                if step == "clock aged":
                    sim.now += SHARED_EVENT_SECONDS + 0.25
                if step == "new version":
                    stored, table = at.stored()
                    table["seats"][2]["connected"] = True
                    assert await at.tables.commit(stored, seats_changed=False)
                stored, table = at.stored()
                out.append((feed.built, feed.event(stored, table)))
            out.append((feed.built, b""))
            return out

    (b0, first), (b1, same), (b2, aged), (b3, newer), (b4, _) = run_alone(scenario())
    assert (b0, b1, b2, b3, b4) == (0, 1, 1, 2, 3)
    assert same is first
    head, _, data = first.decode().partition("data: ")
    assert head == "id: 0\nevent: table\n" and first.endswith(b"\n\n")
    view = json.loads(data)
    assert view["you"] is None and view["game"]["hand"] == []  # a spectator's: no hand
    assert view["game"]["clock"] == {"seat": 2, "reason": "turn", "seconds": 60.0}
    aged_view = json.loads(aged.decode().partition("data: ")[2])
    assert aged_view["game"]["clock"]["seconds"] == 60.0 - SHARED_EVENT_SECONDS - 0.25
    assert newer.startswith(b"id: 1\n")
