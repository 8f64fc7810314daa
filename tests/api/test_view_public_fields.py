"""What every view shows besides its viewer's own cards (SPEC §1 "Who sees what": what is
played is public; §5: the fields of a view; §6: seats and options): who took last, who won,
each finished round's breakdown and dealer, the away option, computers shown as present.
Mutation testing of scopone/web/views.py and table_views.py showed that no test noticed
these values going wrong."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from scopone.engine import Match, Round, Rules, parse_cards
from scopone.web import table as t
from scopone.web import table_views
from scopone.web.store import GameRecord
from scopone.web.table_views import table_view
from scopone.web.views import game_view

from .tables_live import auth

VIEWERS = (0, 1, 2, 3, None)  # the four seats and a spectator
TIMING = t.Timing(pace=0.7, reconnect=10.0)  # the settings' defaults


def _playing(match: Match) -> tuple[GameRecord, dict[str, Any]]:
    """A table with friends (Anna at seat 0, three computers) playing ``match``."""
    table = t.new_table("Anna", t.new_token(), 60, False)
    rec = GameRecord.new(match, "easy", {"table": table}, "code")
    t.start(table, now=100.0)
    return rec, table


def _games(rec: GameRecord, table: dict[str, Any]) -> dict[int | None, dict[str, Any]]:
    """The game as each seat and a spectator see it, as the JSON they are sent."""
    return {seat: table_view(rec, table, seat, TIMING).model_dump(mode="json")["game"]
            for seat in VIEWERS}


def _play_round(match: Match, rng: random.Random) -> None:
    r = match.round
    while not r.is_over:
        r.play(rng.choice(r.legal_moves()), seat=r.turn)


def test_the_last_taker_is_none_before_any_capture_then_the_seat_that_took() -> None:
    match = Match(Rules(), random.Random(1))
    match.round = Round.from_deal([parse_cards(h) for h in ("7D 1C", "2B 3B", "4S 5S", "6C 8C")],
                                  parse_cards("7C"), dealer=3)  # seat 0 leads
    rec, table = _playing(match)
    assert all(g["last_taker"] is None for g in _games(rec, table).values())
    assert game_view(rec).last_taker is None
    r = match.round
    r.play(next(m for m in r.legal_moves() if str(m.card) == "7D" and m.capture), seat=0)
    r.play(next(m for m in r.legal_moves() if not m.capture), seat=1)
    # Seat 0 took last (a seat number that is also falsy): every viewer is told so.
    assert all(g["last_taker"] == 0 for g in _games(rec, table).values())
    assert game_view(rec).last_taker == 0


def test_the_last_taker_follows_the_history_through_a_whole_round() -> None:
    rng = random.Random(5)
    rec, table = _playing(Match(Rules(), random.Random(8)))
    r = rec.match.round
    takers = set()
    while not r.is_over:
        games = _games(rec, table)
        taken = [p["seat"] for p in games[None]["history"] if p["capture"]]
        expected = taken[-1] if taken else None
        takers.add(expected)
        assert all(g["last_taker"] == expected for g in games.values()), expected
        r.play(rng.choice(r.legal_moves()), seat=r.turn)
    assert {None, 0} <= takers  # the cases that matter were met


def _won_by(pair: int, seed: int) -> Match:
    """A match one round from its end: ``pair`` has 10 of 11 points and the other none."""
    match = Match(Rules(), random.Random(seed))
    match.scores = [10, 0] if pair == 0 else [0, 10]
    _play_round(match, random.Random(seed))
    match.finish_round()
    assert match.winner == pair  # the seed's round gives the other pair less than 11
    return match


@pytest.mark.parametrize(("pair", "shown"), [(0, "A"), (1, "B")])
def test_the_winner_is_the_pair_that_won_and_nobody_before(pair: int, shown: str) -> None:
    match = Match(Rules(), random.Random(2))
    rec, table = _playing(match)
    assert all(g["winner"] is None for g in _games(rec, table).values())
    assert game_view(rec).winner is None
    rec.match = _won_by(pair, seed=3)
    games = _games(rec, table)
    assert all(g["winner"] == shown and g["status"] == "match_over" for g in games.values())
    assert game_view(rec).winner == shown
    assert table_view(rec, table, None, TIMING).phase == "match_over"


def test_every_finished_round_shows_its_breakdown_and_its_dealer() -> None:
    """Three rounds dealt by seats 3, 0 and 1 (the deal passes on and wraps round): every
    viewer's summary of each finished round is the engine's score of it."""
    rng = random.Random(11)
    match = Match(Rules(target=31), random.Random(4), dealer=3)
    rec, table = _playing(match)
    dealers = []
    for _ in range(3):
        dealers.append(match.round.dealer)
        _play_round(match, rng)
        if len(dealers) < 3:
            match.next_round()
            t.dealt(table)
    match.finish_round()
    assert dealers == [3, 0, 1] and match.winner is None
    primiera_seen = False
    for g in _games(rec, table).values():
        assert [s["dealer"] for s in g["rounds"]] == dealers
        total = [0, 0]
        for i, (shown, score) in enumerate(zip(g["rounds"], match.rounds, strict=True)):
            total = [total[0] + score.points[0], total[1] + score.points[1]]
            assert shown["number"] == i + 1
            assert shown["points"] == list(score.points) and shown["score_after"] == total
            assert shown["categories"] == {
                name: list(getattr(score, name))
                for name in ("carte", "denari", "settebello", "primiera", "scope", "napola")}
            assert shown["tallies"] == [
                {"cards": p.cards, "denari": p.denari, "settebello": p.settebello,
                 "primiera": p.primiera, "scope": p.scope, "napola": p.napola}
                for p in score.tallies]
            primiera_seen |= any(p.primiera is not None for p in score.tallies)
    assert primiera_seen
    assert [s.dealer for s in game_view(rec).rounds] == dealers


def test_every_viewer_sees_the_turn_clock_to_a_tenth_of_a_second(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The person to play, why the computer would play their card and in how long: the same
    for every viewer, in seconds to one decimal (what the page counts down from)."""
    rec, table = _playing(Match(Rules(), random.Random(6)))
    r = rec.match.round
    while r.turn != 0:
        r.play(r.legal_moves()[0], seat=r.turn)
    table["seats"][0]["connected"] = True
    monkeypatch.setattr(table_views, "time", SimpleNamespace(time=lambda: 112.34))
    games = _games(rec, table)  # Anna's 60 s from t=100: 47.66 s left
    assert all(g["clock"] == {"seat": 0, "reason": "turn", "seconds": 47.7}
               for g in games.values())
    table["seats"][0].update(connected=False, gone_since=110.0)  # her page closed
    games = _games(rec, table)  # back within TIMING.reconnect (10 s) of 110: 7.66 s left
    assert all(g["clock"] == {"seat": 0, "reason": "offline", "seconds": 7.7}
               for g in games.values())


def _table(api: Any, **options: Any) -> tuple[str, str]:
    r = api.client.post("/api/tables", json={"name": "Anna", "level": "easy", **options})
    assert r.status_code == 201, r.text
    return r.json()["table"]["code"], r.json()["token"]


@pytest.mark.parametrize("away_seconds", [30, 120, None])
def test_the_away_option_is_shown_as_chosen(api: Any, away_seconds: int | None) -> None:
    code, host = _table(api, away_seconds=away_seconds)
    r = api.client.post(f"/api/tables/{code}/seats/1", json={"name": "Bo"})
    assert r.status_code == 201, r.text
    for token in (host, r.json()["token"], None):
        view = api.client.get(f"/api/tables/{code}", headers=auth(token)).json()
        assert view["options"]["away_seconds"] == away_seconds


def test_computer_seats_are_shown_present_and_people_as_their_connection_says(
        api: Any) -> None:
    code, host = _table(api)
    r = api.client.post(f"/api/tables/{code}/seats/2", json={"name": "Carla"})
    assert r.status_code == 201, r.text
    version = api.client.get(f"/api/tables/{code}").json()["version"]
    r = api.client.post(f"/api/tables/{code}/start", json={"version": version},
                        headers=auth(host))
    assert r.status_code == 200, r.text
    # Nobody has an event stream open here: the people are not connected, the computers are.
    seats = api.client.get(f"/api/tables/{code}").json()["seats"]
    assert [s["kind"] for s in seats] == ["person", "computer", "person", "computer"]
    assert [s["connected"] for s in seats] == [False, True, False, True]
    assert not any(s["away"] for s in seats)
