"""Whole matches through the API: statuses, versions, round summaries, the deal passing on."""

from __future__ import annotations

import random
from typing import Any

from scopone.engine import Match


def test_a_whole_match_to_its_end(api: Any) -> None:
    rng = random.Random(11)
    game = api.create(target=11)
    assert game["version"] == 0 and game["round_number"] == 1
    assert game["status"] in {"your_turn", "computer_turn"}
    dealers = [game["dealer"]]
    seen_statuses = {game["status"]}
    for _ in range(2000):
        if game["status"] == "match_over":
            break
        before = game
        game = api.step(game, rng)
        seen_statuses.add(game["status"])
        assert game["version"] == before["version"] + 1
        assert len(game["hand"]) == game["hand_counts"][0]
        if game["status"] == "your_turn":
            assert game["turn"] == 0 and game["legal"]
            assert {m["card"] for m in game["legal"]} == set(game["hand"])
        else:
            assert game["legal"] == []
        if game["status"] in {"round_over", "match_over"}:
            assert game["turn"] is None and sum(game["hand_counts"]) == 0
            assert len(game["history"]) == 40
            assert sum(map(len, game["piles"])) == 40
            last = game["rounds"][-1]
            assert last["number"] == len(game["rounds"]) == game["round_number"]
            assert last["score_after"] == game["score"]
            assert last["dealer"] == game["dealer"]
        if before["status"] == "round_over":
            # next-round: a fresh deal, the deal passed on by one seat.
            assert game["round_number"] == before["round_number"] + 1
            assert game["dealer"] == (before["dealer"] + 1) % 4
            assert game["history"] == [] and game["hand_counts"] == [10, 10, 10, 10]
            assert game["score"] == before["score"]
            dealers.append(game["dealer"])
    assert game["status"] == "match_over"
    assert seen_statuses >= {"your_turn", "computer_turn", "match_over"}
    a, b = game["score"]
    assert max(a, b) >= 11 and a != b
    assert game["winner"] == ("A" if a > b else "B")
    totals = [sum(r["points"][i] for r in game["rounds"]) for i in (0, 1)]
    assert totals == game["score"]
    assert [r["dealer"] for r in game["rounds"]] == dealers
    for r in game["rounds"]:
        cats = r["categories"]
        assert [sum(cats[k][i] for k in cats) for i in (0, 1)] == r["points"]
        assert r["tallies"][0]["cards"] + r["tallies"][1]["cards"] == 40
    # A finished match takes no more requests that change it.
    gid, v = game["id"], game["version"]
    for path in ("advance", "next-round"):
        r = api.client.post(f"/api/games/{gid}/{path}", json={"version": v})
        assert r.status_code == 409 and r.json()["detail"] == "match is over"
    assert api.get(gid) == game


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() if k != "id" for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_no_response_shows_another_seats_hand(api: Any) -> None:
    """Every body, 409s included, against the server-side hands of seats 1–3 at that moment."""
    rng = random.Random(5)
    game = api.create(target=11)
    checked = 0
    while game["status"] != "match_over":
        stored = api.store.load(game["id"])
        assert stored is not None
        match: Match = stored.match
        hidden = {str(c) for seat in (1, 2, 3) for c in match.round.hand(seat)}
        assert set(game["hand"]) == {str(c) for c in match.round.hand(0)}
        bodies = [game, api.get(game["id"])]
        stale = api.client.post(f"/api/games/{game['id']}/advance",
                                json={"version": game["version"] + 5})
        assert stale.status_code == 409
        bodies.append(stale.json())
        for body in bodies:
            leaked = hidden & set(_strings(body))
            assert not leaked, f"cards of other seats in a response: {leaked}"
            checked += 1
        game = api.step(game, rng)
    assert checked > 100


def test_a_classico_napola_match_at_21_deals_the_table(api: Any) -> None:
    game = api.create(variant="classico", napola=True, target=21)
    assert game["rules"] == {"variant": "classico", "napola": True, "target": 21}
    assert len(game["table"]) == 4 and game["hand_counts"] == [9, 9, 9, 9]
    game = api.round_end(game, random.Random(2))
    assert len(game["history"]) == 36 and game["rounds"][0]["number"] == 1
