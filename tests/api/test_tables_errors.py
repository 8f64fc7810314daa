"""Every refusal of the tables contract: the status, the stable detail, and nothing changed."""

from __future__ import annotations

import time
from typing import Any

import pytest

from scopone.web.errors import NAME_RULE

from .aio import run_alone
from .tables_live import auth, settled
from .test_table_rules import DRAWN_NAMES, STACKED_NAMES, UNDRAWN_NAMES


def _table(api: Any, people: int = 4, start: bool = False,
           target: int = 11) -> tuple[str, list[str]]:
    r = api.client.post("/api/tables", json={"name": "Anna", "level": "easy", "target": target})
    assert r.status_code == 201, r.text
    code, tokens = r.json()["table"]["code"], [r.json()["token"]]
    for seat in range(1, people):
        r = api.client.post(f"/api/tables/{code}/seats/{seat}", json={"name": f"P{seat}"})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    if start:
        r = api.client.post(f"/api/tables/{code}/start", json={"version": _view(api, code)[
            "version"]}, headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
    return code, tokens


def _view(api: Any, code: str, token: str | None = None) -> dict[str, Any]:
    """The table as ``token``'s seat sees it, as a state (``settled``: the seconds on its turn
    clock run down between two requests while nothing changes)."""
    r = api.client.get(f"/api/tables/{code}", headers=auth(token))
    assert r.status_code == 200, r.text
    return settled(r.json())


def _refused(r: Any, status: int, detail: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.json()["detail"] == detail
    return dict(r.json())


def test_an_unknown_table_is_404(api: Any) -> None:
    c = api.client
    for r in (c.get("/api/tables/nosuchcode00"),
              c.get("/api/tables/nosuchcode00/events"),
              c.post("/api/tables/nosuchcode00/seats/1", json={"name": "Bo"}),
              c.delete("/api/tables/nosuchcode00/seats/1", headers=auth("x")),
              c.post("/api/tables/nosuchcode00/start", json={"version": 0}, headers=auth("x")),
              c.post("/api/tables/nosuchcode00/moves", json={"version": 0, "card": "7D"}),
              c.post("/api/tables/nosuchcode00/next-round", json={"version": 0}),
              c.post("/api/tables/nosuchcode00/rematch", json={"version": 0}),
              c.post("/api/tables/nosuchcode00/back")):
        _refused(r, 404, "table not found")


def test_a_table_is_not_a_game_and_a_game_not_a_table(api: Any) -> None:
    code, _ = _table(api, people=1)
    gid = api.store.load_by_code(code).id
    _refused(api.client.get(f"/api/games/{gid}"), 404, "game not found")
    _refused(api.client.post(f"/api/games/{gid}/advance", json={"version": 0}), 404,
             "game not found")
    game = api.create()
    _refused(api.client.get(f"/api/tables/{game['id']}"), 404, "table not found")


def test_missing_or_wrong_tokens_are_403_and_change_nothing(api: Any) -> None:
    code, tokens = _table(api, start=True)
    before = _view(api, code)
    v = before["version"]
    turn = before["game"]["turn"]
    legal = _view(api, code, tokens[turn])["game"]["legal"][0]
    c = api.client
    _refused(c.post(f"/api/tables/{code}/moves", json={"version": v, **legal}), 403,
             "seat token required")
    for bad in ("wrong", tokens[0] + "x", "Basic " + tokens[turn]):
        headers = {"Authorization": bad} if bad.startswith("Basic") else auth(bad)
        _refused(c.post(f"/api/tables/{code}/moves", json={"version": v, **legal},
                        headers=headers), 403, "wrong seat token")
        _refused(c.get(f"/api/tables/{code}", headers=headers), 403, "wrong seat token")
        _refused(c.get(f"/api/tables/{code}/events", headers=headers), 403, "wrong seat token")
    _refused(c.post(f"/api/tables/{code}/next-round", json={"version": v}), 403,
             "seat token required")
    _refused(c.post(f"/api/tables/{code}/back"), 403, "seat token required")
    assert _view(api, code) == before


def test_only_the_host_starts_hands_seats_and_rematches(api: Any) -> None:
    code, tokens = _table(api, people=2)
    before = _view(api, code)
    c, v = api.client, before["version"]
    _refused(c.post(f"/api/tables/{code}/start", json={"version": v}, headers=auth(tokens[1])),
             403, "only the host can do this")
    _refused(c.post(f"/api/tables/{code}/start", json={"version": v}), 403,
             "seat token required")
    _refused(c.post(f"/api/tables/{code}/seats/0/computer", json={"version": v},
                    headers=auth(tokens[1])), 403, "only the host can do this")
    _refused(c.post(f"/api/tables/{code}/rematch", json={"version": v},
                    headers=auth(tokens[1])), 403, "only the host can do this")
    assert _view(api, code) == before


@pytest.mark.parametrize("version", ["stale", "future"])
def test_who_may_not_act_is_refused_as_such_whatever_the_version(api: Any, version: str) -> None:
    """QA: a friend asking for a rematch, or a spectator playing a card, with an old version
    got 409 "stale version" (and a table to retry with), as if up to date they might."""
    code, tokens = _table(api, people=2, start=True)
    before = _view(api, code)
    c = api.client
    v = before["version"] - 1 if version == "stale" else before["version"] + 5
    card = {"card": _view(api, code, tokens[0])["game"]["hand"][0], "capture": []}
    for path in ("start", "rematch", "seats/1/computer", "seats/3/open"):
        _refused(c.post(f"/api/tables/{code}/{path}", json={"version": v},
                        headers=auth(tokens[1])), 403, "only the host can do this")
        _refused(c.post(f"/api/tables/{code}/{path}", json={"version": v}), 403,
                 "seat token required")
    _refused(c.post(f"/api/tables/{code}/moves", json={"version": v, **card}), 403,
             "seat token required")
    _refused(c.post(f"/api/tables/{code}/next-round", json={"version": v}), 403,
             "seat token required")
    assert _view(api, code) == before

def test_seats_taken_full_and_playing_are_409(api: Any) -> None:
    code, tokens = _table(api, people=2)
    c = api.client
    body = _refused(c.post(f"/api/tables/{code}/seats/1", json={"name": "Zed"}), 409,
                    "seat taken")
    assert body["table"]["seats"][1]["name"] == "P1" and body["table"]["you"] is None
    _refused(c.post(f"/api/tables/{code}/seats/0", json={"name": "Zed"}), 409, "seat taken")
    full, _ = _table(api, people=4)
    _refused(c.post(f"/api/tables/{full}/seats/3", json={"name": "Zed"}), 409, "table is full")
    v = _view(api, code)["version"]
    assert c.post(f"/api/tables/{code}/start", json={"version": v},
                  headers=auth(tokens[0])).status_code == 200
    before = _view(api, code)
    assert [s["kind"] for s in before["seats"]] == ["person", "person", "computer", "computer"]
    _refused(c.post(f"/api/tables/{code}/seats/2", json={"name": "Zed"}), 409,
             "table is already playing")
    _refused(c.post(f"/api/tables/{code}/start", json={"version": before["version"]},
                    headers=auth(tokens[0])), 409, "table is already playing")
    _refused(c.delete(f"/api/tables/{code}/seats/1", headers=auth(tokens[1])), 409,
             "table has left the lobby")


def test_moves_out_of_turn_illegal_or_stale_are_409_with_the_callers_view(api: Any) -> None:
    code, tokens = _table(api, start=True)
    view = _view(api, code)
    v, turn = view["version"], view["game"]["turn"]
    other = (turn + 1) % 4
    mine = _view(api, code, tokens[turn])["game"]
    theirs = _view(api, code, tokens[other])["game"]
    c = api.client
    body = _refused(c.post(f"/api/tables/{code}/moves",
                           json={"version": v, "card": theirs["hand"][0], "capture": []},
                           headers=auth(tokens[other])), 409, "not your turn")
    assert body["table"]["you"] == other and body["table"]["game"]["hand"] == theirs["hand"]
    not_mine = next(f"{r}{s}" for r in range(1, 11) for s in "DCSB"
                    if f"{r}{s}" not in mine["hand"])
    _refused(c.post(f"/api/tables/{code}/moves",
                    json={"version": v, "card": not_mine, "capture": []},
                    headers=auth(tokens[turn])), 409, "illegal move")
    body = _refused(c.post(f"/api/tables/{code}/moves", json={"version": v + 5,
                                                             **mine["legal"][0]},
                           headers=auth(tokens[turn])), 409, "stale version")
    assert body["table"]["version"] == v and body["table"]["game"]["hand"] == mine["hand"]
    _refused(c.post(f"/api/tables/{code}/next-round", json={"version": v},
                    headers=auth(tokens[turn])), 409, "round is not over")
    _refused(c.post(f"/api/tables/{code}/rematch", json={"version": v},
                    headers=auth(tokens[0])), 409, "table is already playing")
    assert _view(api, code) == view
    r = c.post(f"/api/tables/{code}/moves", json={"version": v, **mine["legal"][0]},
               headers=auth(tokens[turn]))
    assert r.status_code == 200 and r.json()["version"] == v + 1
    _refused(c.post(f"/api/tables/{code}/moves", json={"version": v, **mine["legal"][0]},
                    headers=auth(tokens[(turn + 1) % 4])), 409, "stale version")


# Every Unicode whitespace (as Python's str.strip() and JavaScript's trim() see it) is trimmed:
# a name of blanks only is empty, hence refused, whatever the blanks are.
UNICODE_BLANKS = ["\u2003", "\u2028", "\u2029", "\u3000", "\u00a0", "\u1680", "\u202f",
                  "\u205f", "\ufeff", "\u2000\u200a", " \u2003\t\u2028 "]
# So is every character that shows nothing: a name of them alone would show as nobody.
INVISIBLE_NAMES = ["\u200b", "\u3164", "\u115f\u1160", "\uffa0", "\u2800", "\u00ad",
                   "\u200b\u2003\u200d", "\u2060\u200c\u200e\u200f", "\u180e\u2061"]
# A bidirectional override or isolate inside a name would reorder what follows it on the page.
BIDI_NAMES = ["a\u202eb", "\u202eAnna", "Anna\u202c", "\u2066x\u2069", "x\u202ay", "x\u2067"]


@pytest.mark.parametrize("name", ["", "   ", "x" * 21, "a\x00b", "a\nb", "a\x7fb", "a\x85b",
                                  " \t ", "Anna\x1b[31m", *UNICODE_BLANKS, "\x85", "\x1c\x1f",
                                  "\u2003a\x85b\u2003", *INVISIBLE_NAMES, *BIDI_NAMES,
                                  *UNDRAWN_NAMES, *STACKED_NAMES])
def test_bad_names_are_422(api: Any, name: str) -> None:
    body = _refused(api.client.post("/api/tables", json={"name": name}), 422, "invalid name")
    # The rule in words, not the schema's pattern of invisible characters.
    assert [err["msg"] for err in body["errors"]] == [NAME_RULE]
    code, _ = _table(api, people=1)
    before = _view(api, code)
    _refused(api.client.post(f"/api/tables/{code}/seats/1", json={"name": name}), 422,
             "invalid name")
    assert _view(api, code) == before


@pytest.mark.parametrize(("name", "shown"), [
    ("  Anna  ", "Anna"), ("x" * 20, "x" * 20), ("\tÉlodie Ü ", "Élodie Ü"), ("<b>&", "<b>&"),
    # Every Unicode blank goes at either end; a blank inside a name is part of it.
    ("a\u2003", "a"), ("\u2028Anna\u2029", "Anna"), ("\ufeffAnna", "Anna"),
    ("\u3000\u00a0Bo\u202f", "Bo"), ("Anna\x85", "Anna"), ("\x1fAnna", "Anna"),
    ("Anna\u2003Maria", "Anna\u2003Maria"),
    ("\u2003" * 4 + "x" * 20 + "\u2028" * 4, "x" * 20),  # 20 once trimmed
    # The invisible ones go at either end too; inside a name they are part of it (a joiner
    # inside an emoji sequence), and an emoji's closing variation selector stays.
    ("\u200bAnna\u3164", "Anna"), ("\u2800 Bo\u200d\u2003", "Bo"), ("a\u200bb", "a\u200bb"),
    ("\U0001f469\u200d\U0001f373", "\U0001f469\u200d\U0001f373"), ("\u2764\ufe0f", "\u2764\ufe0f"),
    ("\u200b" * 10 + "x" * 20, "x" * 20),
    # Other scripts and emoji, marks and joiners and all; a tag or a selector drawn on nothing at
    # either end is not trimmed (only what the page trims too is), a drawn character keeps it.
    *((name, name) for name in DRAWN_NAMES), ("\u034fAnna\ufe0f", "\u034fAnna\ufe0f"),
])
def test_names_are_trimmed_and_kept_as_typed(api: Any, name: str, shown: str) -> None:
    r = api.client.post("/api/tables", json={"name": name})
    assert r.status_code == 201, r.text
    assert r.json()["table"]["seats"][0]["name"] == shown
    code = r.json()["table"]["code"]
    r = api.client.post(f"/api/tables/{code}/seats/1", json={"name": name})
    assert r.status_code == 201, r.text
    assert r.json()["table"]["seats"][1]["name"] == shown


def test_leaving_and_handing_a_seat_to_the_computer(api: Any) -> None:
    code, tokens = _table(api, people=3)
    c = api.client
    _refused(c.delete(f"/api/tables/{code}/seats/1", headers=auth(tokens[2])), 403,
             "wrong seat token")
    _refused(c.delete(f"/api/tables/{code}/seats/0", headers=auth(tokens[0])), 409,
             "the host keeps their seat")
    r = c.delete(f"/api/tables/{code}/seats/1", headers=auth(tokens[1]))
    assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "free"
    _refused(c.get(f"/api/tables/{code}", headers=auth(tokens[1])), 403, "wrong seat token")
    v = _view(api, code)["version"]
    _refused(c.post(f"/api/tables/{code}/seats/1/computer", json={"version": v},
                    headers=auth(tokens[0])), 409, "seat is not held by a person")
    r = c.post(f"/api/tables/{code}/seats/2/computer", json={"version": v},
               headers=auth(tokens[0]))
    assert r.status_code == 200 and r.json()["seats"][2]["kind"] == "computer"
    _refused(c.get(f"/api/tables/{code}", headers=auth(tokens[2])), 403, "wrong seat token")


def test_the_host_opens_a_computers_seat_again_in_the_lobby(api: Any) -> None:
    """A seat handed to the computer in the lobby (a stranger sent away) is not lost to
    people: the host opens it again, a friend sits there; only the host, only a computer's
    seat, only in the lobby, only on a version that has seen the seats."""
    code, tokens = _table(api, people=3)
    c = api.client
    v = _view(api, code)["version"]
    r = c.post(f"/api/tables/{code}/seats/2/computer", json={"version": v},
               headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    _refused(c.post(f"/api/tables/{code}/seats/2", json={"name": "Bo"}), 409, "seat taken")
    v = r.json()["version"]
    before = _view(api, code)
    for seat, token, status, detail in (
            (2, None, 403, "seat token required"),
            (2, tokens[1], 403, "only the host can do this"),
            (2, "forged", 403, "wrong seat token"),
            (1, tokens[0], 409, "seat is not held by the computer"),
            (3, tokens[0], 409, "seat is not held by the computer")):
        _refused(c.post(f"/api/tables/{code}/seats/{seat}/open", json={"version": v},
                        headers=auth(token)), status, detail)
    _refused(c.post(f"/api/tables/{code}/seats/2/open", json={"version": v - 1},
                    headers=auth(tokens[0])), 409, "stale version")
    _refused(c.post(f"/api/tables/{code}/seats/9/open", json={"version": v},
                    headers=auth(tokens[0])), 422, "invalid request")
    assert _view(api, code) == before  # nothing changed
    r = c.post(f"/api/tables/{code}/seats/2/open", json={"version": v},
               headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    assert r.json()["seats"][2]["kind"] == "free" and r.json()["version"] == v + 1
    assert r.json()["you"] == 0
    r = c.post(f"/api/tables/{code}/seats/2", json={"name": "Bea"})
    assert r.status_code == 201 and r.json()["table"]["seats"][2]["name"] == "Bea"
    # Once playing, seats are not opened: the free ones became computers at the start.
    r = c.post(f"/api/tables/{code}/start", json={"version": _view(api, code)["version"]},
               headers=auth(tokens[0]))
    assert r.status_code == 200 and r.json()["seats"][3]["kind"] == "computer", r.text
    _refused(c.post(f"/api/tables/{code}/seats/3/open", json={"version": r.json()["version"]},
                    headers=auth(tokens[0])), 409, "table has left the lobby")


def test_back_when_not_away_changes_nothing(api: Any) -> None:
    code, tokens = _table(api, people=2)
    before = _view(api, code)
    r = api.client.post(f"/api/tables/{code}/back", headers=auth(tokens[1]))
    assert r.status_code == 200 and r.json()["version"] == before["version"]
    assert r.json()["you"] == 1


def test_back_sent_twice_at_once_makes_one_version(api: Any, monkeypatch: Any) -> None:
    """Two "back" requests for one away seat (two tabs, two processes) both find it away
    before the table's lock; the second, under the lock, finds it back and stores nothing: a
    version that changes nothing would make a host's action read before it stale for naught."""
    code, tokens = _table(api, people=2, start=True)
    rec = api.store.load_by_code(code)
    rec.meta["table"]["seats"][1]["away"] = True
    assert run_alone(api.app.state.service.commit(rec))
    tables = api.app.state.tables
    stale = run_alone(tables.load(code))  # what the second request read before the first was stored
    r = api.client.post(f"/api/tables/{code}/back", headers=auth(tokens[1]))
    assert r.status_code == 200 and r.json()["seats"][1]["away"] is False
    v = r.json()["version"]
    assert v == rec.version + 1
    real, calls = tables.load, []

    async def load_late(c: str) -> Any:
        calls.append(c)
        return stale if len(calls) == 1 else await real(c)

    monkeypatch.setattr(tables, "load", load_late)
    r = api.client.post(f"/api/tables/{code}/back", headers=auth(tokens[1]))
    assert len(calls) >= 2  # it did go on to the lock, as the race would
    assert r.status_code == 200 and r.json()["version"] == v
    assert r.json()["seats"][1]["away"] is False and r.json()["you"] == 1
    assert api.store.load_by_code(code).version == v


def test_tokens_are_stored_hashed_and_codes_are_long(api: Any) -> None:
    code, tokens = _table(api, people=2)
    rec = api.store.load_by_code(code)
    stored = str(rec.meta)
    assert all(token not in stored for token in tokens)
    assert len(code) >= 12 and all(len(t) >= 32 for t in tokens)


def test_a_card_read_before_a_change_of_seats_only_is_not_stale(api: Any) -> None:
    """Presence, seats handed over, someone back: the table's version moves, the game does
    not; a card chosen from the view before it is still accepted. A card played is a change of
    the game: the old version is stale from then on."""
    code, tokens = _table(api, start=True)
    view = _view(api, code)
    v, turn = view["version"], view["game"]["turn"]
    other = next(s for s in (1, 2, 3) if s != turn)
    mine = _view(api, code, tokens[turn])["game"]
    r = api.client.post(f"/api/tables/{code}/seats/{other}/computer", json={"version": v},
                        headers=auth(tokens[0]))
    assert r.status_code == 200 and r.json()["version"] == v + 1
    r = api.client.post(f"/api/tables/{code}/moves", json={"version": v, **mine["legal"][0]},
                        headers=auth(tokens[turn]))
    assert r.status_code == 200, r.text
    assert r.json()["version"] == v + 2
    r = api.client.post(f"/api/tables/{code}/next-round", json={"version": v + 1},
                        headers=auth(tokens[0]))
    _refused(r, 409, "stale version")


def test_a_seat_handed_over_on_a_version_read_before_cards_and_deals_is_not_stale(
        api: Any) -> None:
    """The cards go on while the host's click travels (the computers play at the table's
    pace): cards and deals since the version the host read change nothing they judged by, so
    the seat is handed over. A change of the seats since does make it stale: the host has not
    seen it."""
    code, tokens = _table(api, start=True, target=21)  # to 21: the first round never ends it
    c = api.client
    v = _view(api, code)["version"]
    while (view := _view(api, code))["game"]["status"] != "round_over":
        turn = view["game"]["turn"]
        mine = _view(api, code, tokens[turn])["game"]
        r = c.post(f"/api/tables/{code}/moves", json={"version": view["version"],
                                                       **mine["legal"][0]},
                   headers=auth(tokens[turn]))
        assert r.status_code == 200, r.text
    r = c.post(f"/api/tables/{code}/next-round", json={"version": view["version"]},
               headers=auth(tokens[1]))
    assert r.status_code == 200, r.text
    assert r.json()["game"]["history"] == [] and r.json()["version"] > v + 40
    r = c.post(f"/api/tables/{code}/seats/2/computer", json={"version": v},
               headers=auth(tokens[0]))
    assert r.status_code == 200 and r.json()["seats"][2]["kind"] == "computer", r.text
    now = r.json()["version"]
    _refused(c.post(f"/api/tables/{code}/seats/3/computer", json={"version": now - 1},
                    headers=auth(tokens[0])), 409, "stale version")
    assert _view(api, code)["seats"][3]["kind"] == "person"
    r = c.post(f"/api/tables/{code}/seats/3/computer", json={"version": now},
               headers=auth(tokens[0]))
    assert r.status_code == 200 and r.json()["seats"][3]["kind"] == "computer", r.text


def test_the_schemas_name_pattern_says_what_the_code_does() -> None:
    """The OpenAPI document's pattern for a name accepts exactly the names ``clean_name``
    keeps (within the untrimmed bound): a client that follows the schema is never refused."""
    import re

    from scopone.web import Settings, create_app
    from scopone.web import errors as e
    from scopone.web.table import NAME_BIDI_CONTROLS, NAME_INVISIBLES, clean_name

    schemas = create_app(Settings()).openapi()["components"]["schemas"]
    patterns = {schemas[model]["properties"]["name"]["pattern"]
                for model in ("TableCreate", "SeatIn")}
    assert len(patterns) == 1
    pattern = re.compile(patterns.pop())
    blanks = "".join(c for c in map(chr, range(0x3001)) if c.isspace()) + "\ufeff"
    names = ["Anna", "x" * 20, "x" * 21, "a b", "a\x07b", "\x7f", "\x9f", "Zoë", "名前",
             *UNICODE_BLANKS, *(f"{b}A{b}" for b in blanks), *(f"A{b}B" for b in blanks),
             *(b * 3 for b in blanks), "\u2003" * 22 + "abc" + "\u2028" * 22,
             "\u200b", "a\u200bb", *INVISIBLE_NAMES, *BIDI_NAMES,
             *(f"{b}A{b}" for b in NAME_INVISIBLES), *(f"A{b}B" for b in NAME_INVISIBLES),
             *(f"A{b}B" for b in NAME_BIDI_CONTROLS), "\u2764\ufe0f",
             *DRAWN_NAMES, *UNDRAWN_NAMES, *STACKED_NAMES, *(f" {n}\u200b" for n in STACKED_NAMES),
             *(f"\n{n}" for n in STACKED_NAMES), *(f"\n{n}\n" for n in UNDRAWN_NAMES)]
    for name in names:
        try:
            clean_name(name)
            kept = True
        except e.Malformed:
            kept = False
        assert bool(pattern.fullmatch(name)) == kept, ascii(name)


def test_the_plays_of_a_seat_handed_to_the_computer_stay_its_persons(api: Any) -> None:
    """The host hands P2's seat to the computer in the middle of a round: P2's plays before
    it are still named as P2's in everyone's history (the page named them the computer's, QA),
    the computer's after it are not."""
    code, tokens = _table(api, start=True)
    c = api.client

    def play(n: int) -> dict[str, Any]:
        for _ in range(n):
            view = _view(api, code)
            turn = view["game"]["turn"]
            mine = _view(api, code, tokens[turn])["game"]
            r = c.post(f"/api/tables/{code}/moves", json={"version": view["version"],
                                                           **mine["legal"][0]},
                       headers=auth(tokens[turn]))
            assert r.status_code == 200, r.text
        return _view(api, code)

    view = play(8)  # each seat twice
    r = c.post(f"/api/tables/{code}/seats/2/computer", json={"version": view["version"]},
               headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    tokens[2] = "gone"
    history = r.json()["game"]["history"]
    assert [p["held_by"] for p in history] == [
        "P2" if p["seat"] == 2 else None for p in history]
    assert sum(p["held_by"] == "P2" for p in history) == 2
    for token in (None, tokens[1]):  # a spectator and another seat see the same
        assert [p["held_by"] for p in _view(api, code, token)["game"]["history"]] == [
            p["held_by"] for p in history]
    # The computer's own cards at seat 2 from now on are not P2's (it plays at the pace).
    deadline = time.monotonic() + 20
    while True:
        later = _view(api, code)["game"]
        if any(p["seat"] == 2 for p in later["history"][8:]):
            break
        assert time.monotonic() < deadline, "the computer never played seat 2"
        if later["turn"] == 2:
            time.sleep(0.05)
        else:
            play(1)
    assert all(p["held_by"] is None for p in later["history"][8:]), later["history"]
    # The round's review names them too, for every seat that reviews it (its kept trace holds
    # the names: the next deal forgets who held the seat).
    deadline = time.monotonic() + 60
    while (game := _view(api, code)["game"])["status"] not in ("round_over", "match_over"):
        assert time.monotonic() < deadline, "the round never ended"
        if game["turn"] == 2:
            time.sleep(0.05)
        else:
            play(1)
    for seat in (0, 1):
        r = c.get(f"/api/tables/{code}/rounds/1/review", headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        assert [p.get("held_by") for p in r.json()["history"]] == [
            "P2" if i < 8 and p["seat"] == 2 else None
            for i, p in enumerate(r.json()["history"])]
