"""The coach at a table with friends, on both stores: each seat's hint, cards seen and review are
its own, built from its own view, counted for it alone, and only where the host allowed hints."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from .conftest import Api
from .tables_live import auth

Json = dict[str, Any]


@pytest.fixture
def api(api_factory: Callable[..., Api]) -> Iterator[Api]:
    # A short judgement: these tests check who gets what, not how well it is judged.
    a = api_factory(coach_seconds=0.02)
    with a.client:
        yield a


def table(api: Api, hints: bool = True, people: int = 4,
          target: int = 11) -> tuple[str, list[str]]:
    """A started table of ``people`` persons (four: nobody's card is played by the server).
    A test that looks on past its first round's end wants ``target`` 21: to 11, a random
    deal's first round ends the match about once in 200."""
    r = api.client.post("/api/tables", json={"name": "Anna", "level": "easy", "hints": hints,
                                             "away_seconds": None, "target": target})
    assert r.status_code == 201, r.text
    code, tokens = r.json()["table"]["code"], [r.json()["token"]]
    for seat in range(1, people):
        r = api.client.post(f"/api/tables/{code}/seats/{seat}", json={"name": f"P{seat}"})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    r = api.client.post(f"/api/tables/{code}/start", json={"version": view(api, code)["version"]},
                        headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    return code, tokens


def view(api: Api, code: str, token: str | None = None) -> Json:
    r = api.client.get(f"/api/tables/{code}", headers=auth(token))
    assert r.status_code == 200, r.text
    return dict(r.json())


def hidden_from(api: Api, code: str, seat: int) -> set[str]:
    """The cards in the other seats' hands now, from the server's own state."""
    rec = api.store.load_by_code(code)
    assert rec is not None
    return {str(c) for s in range(4) if s != seat for c in rec.match.round.hand(s)}


def hint(api: Api, code: str, token: str | None, version: int) -> Any:
    return api.client.post(f"/api/tables/{code}/hint", json={"version": version},
                           headers=auth(token))


def refused(r: Any, status: int, detail: str) -> Json:
    assert r.status_code == status, r.text
    assert r.json()["detail"] == detail
    return dict(r.json())


def play_round(api: Api, code: str, tokens: list[str],
               on_turn: Callable[[int, Json], None] | None = None) -> Json:
    """Plays the round to its end, each card by its seat's own token (the hint's move, or the
    first legal move when no hint is asked)."""
    for _ in range(41):
        tv0 = view(api, code)
        if tv0["game"]["status"] in ("round_over", "match_over"):
            return tv0
        seat = tv0["game"]["turn"]
        mine = view(api, code, tokens[seat])
        move = mine["game"]["legal"][0]
        if on_turn is not None:
            on_turn(seat, mine)
        r = api.client.post(f"/api/tables/{code}/moves",
                            json={"version": mine["version"], **move}, headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
    raise AssertionError("the round never ended")


def test_each_seat_gets_its_own_hint_from_its_own_view_counted_for_it_alone(api: Api) -> None:
    code, tokens = table(api)
    asked = [0, 0, 0, 0]

    def ask(seat: int, mine: Json) -> None:
        hidden = hidden_from(api, code, seat)
        r = hint(api, code, tokens[seat], mine["version"])
        assert r.status_code == 200, r.text
        h = r.json()
        asked[seat] += 1
        assert h["move"] in mine["game"]["legal"] and h["version"] == mine["version"]
        assert h["hints_used"] == asked[seat]  # this seat's own count, not the table's
        shown = {h["move"]["card"], *h["move"]["capture"]}
        for o in h["options"]:
            shown |= {o["card"], *o["capture"]}
        assert not shown & hidden  # never a card hidden from this seat
        assert shown <= set(mine["game"]["hand"]) | set(mine["game"]["table"])
        # Any other seat asking now is refused, with the table as *it* sees it.
        other = (seat + 1) % 4
        body = refused(hint(api, code, tokens[other], mine["version"]), 409, "not your turn")
        assert body["table"]["you"] == other and "game" not in body
        assert not set(body["table"]["game"]["hand"]) & (hidden_from(api, code, other))

    # Seats 0 and 2 ask at every turn, seat 1 at its first only, seat 3 never, but it opens
    # the cards seen once, which counts like a hint (SPEC §7).
    first_of_1 = [True]
    opened = [0, 0, 0, 0]

    def sometimes(seat: int, mine: Json) -> None:
        if seat in (0, 2) or (seat == 1 and first_of_1[0]):
            first_of_1[0] = first_of_1[0] and seat != 1
            ask(seat, mine)
        if seat == 3 and not opened[3]:
            r = api.client.post(f"/api/tables/{code}/cards-seen", headers=auth(tokens[3]))
            assert r.status_code == 200 and r.json()["hints_used"] == 1, r.text
            opened[3] += 1

    over = play_round(api, code, tokens, sometimes)
    assert over["game"]["status"] in ("round_over", "match_over")  # the end of round 1
    assert asked == [10, 1, 10, 0]
    # A hint never changed the version: no card after one was refused as stale (play_round).
    for seat in range(4):
        r = api.client.get(f"/api/tables/{code}/rounds/1/review", headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        assert r.json()["hints_used"] == asked[seat] + opened[seat]
        assert r.json()["cards_seen_opened"] == opened[seat] and r.json()["seat"] == seat


def test_a_hint_at_a_table_is_refused_as_the_contract_says(api: Api) -> None:
    code, tokens = table(api)
    tv = view(api, code)
    turn, v = tv["game"]["turn"], tv["version"]
    c = api.client
    refused(hint(api, "nosuchcode00", tokens[turn], v), 404, "table not found")
    refused(c.post("/api/tables/nosuchcode00/cards-seen", headers=auth(tokens[turn])), 404,
            "table not found")
    refused(c.get("/api/tables/nosuchcode00/rounds/1/review", headers=auth(tokens[turn])), 404,
            "table not found")
    refused(hint(api, code, None, v), 403, "seat token required")
    for bad in ("wrong", tokens[turn] + "x"):
        refused(hint(api, code, bad, v), 403, "wrong seat token")
    refused(c.post(f"/api/tables/{code}/hint", json={"version": v},
                   headers={"Authorization": "Basic " + tokens[turn]}), 403, "wrong seat token")
    body = refused(hint(api, code, tokens[turn], v + 3), 409, "stale version")
    assert body["table"]["you"] == turn and body["table"]["version"] == v
    assert c.post(f"/api/tables/{code}/hint", json={"version": "1"},
                  headers=auth(tokens[turn])).status_code == 422
    # After a card the old version is stale for the next seat too.
    move = view(api, code, tokens[turn])["game"]["legal"][0]
    r = c.post(f"/api/tables/{code}/moves", json={"version": v, **move},
               headers=auth(tokens[turn]))
    assert r.status_code == 200, r.text
    nxt = r.json()["game"]["turn"]
    refused(hint(api, code, tokens[nxt], v), 409, "stale version")
    assert hint(api, code, tokens[nxt], r.json()["version"]).status_code == 200
    # Never through the solo game's capability: a table is not a game.
    gid = api.store.load_by_code(code).id
    refused(c.post(f"/api/games/{gid}/hint", json={"version": r.json()["version"]}), 404,
            "game not found")
    refused(c.post(f"/api/games/{gid}/cards-seen"), 404, "game not found")
    refused(c.get(f"/api/games/{gid}/rounds/1/review"), 404, "game not found")


def test_the_round_end_and_the_lobby_are_409_with_the_seats_table(api: Api) -> None:
    r = api.client.post("/api/tables", json={"name": "Anna", "hints": True})
    code, token = r.json()["table"]["code"], r.json()["token"]
    v = r.json()["table"]["version"]
    body = refused(hint(api, code, token, v), 409, "table is not playing")
    assert body["table"]["phase"] == "lobby" and body["table"]["you"] == 0
    refused(api.client.post(f"/api/tables/{code}/cards-seen", headers=auth(token)), 409,
            "table is not playing")
    refused(api.client.get(f"/api/tables/{code}/rounds/1/review", headers=auth(token)), 409,
            "table is not playing")
    code, tokens = table(api, target=21)
    over = play_round(api, code, tokens)
    for seat in range(4):
        body = refused(hint(api, code, tokens[seat], over["version"]), 409, "round is over")
        assert body["table"]["you"] == seat


def test_no_hint_and_no_cards_seen_where_the_host_allowed_no_hints(api: Api) -> None:
    code, tokens = table(api, hints=False)
    tv = view(api, code)
    assert tv["options"]["hints"] is False
    turn = tv["game"]["turn"]
    before = api.store.load_by_code(code)
    refused(hint(api, code, tokens[turn], tv["version"]), 403, "hints are off at this table")
    refused(api.client.post(f"/api/tables/{code}/cards-seen", headers=auth(tokens[turn])), 403,
            "hints are off at this table")
    after = api.store.load_by_code(code)
    assert after.version == before.version and after.meta.get("coach") == before.meta.get("coach")
    # The review of a finished round is not help with a card to play: each person's own.
    refused(api.client.get(f"/api/tables/{code}/rounds/1/review", headers=auth(tokens[turn])),
            409, "round is not over")


def test_cards_seen_is_the_seats_own_and_counted_for_it(api: Api) -> None:
    code, tokens = table(api)
    for seat in (1, 1, 3):
        r = api.client.post(f"/api/tables/{code}/cards-seen", headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        seen = r.json()
        mine = set(view(api, code, tokens[seat])["game"]["hand"])
        assert {c["card"] for c in seen["cards"] if c["place"] == "hand"} == mine
        assert sum(seen["unseen_by_rank"]) == 30  # the others' 30 cards, none named
        assert not {c["card"] for c in seen["cards"] if c["place"] != "unseen"} \
            & hidden_from(api, code, seat)
    assert seen["opened"] == 1  # seat 3's first, whatever seat 1 did
    # Counted like a hint: once a position, however often opened there (seat 1 twice above).
    again = api.client.post(f"/api/tables/{code}/cards-seen", headers=auth(tokens[1])).json()
    assert again["opened"] == 1 and again["hints_used"] == 1
    turn = view(api, code)["game"]["turn"]
    mine = view(api, code, tokens[turn])
    r = api.client.post(f"/api/tables/{code}/moves", headers=auth(tokens[turn]),
                        json={"version": mine["version"], **mine["game"]["legal"][0]})
    assert r.status_code == 200, r.text
    again = api.client.post(f"/api/tables/{code}/cards-seen", headers=auth(tokens[1])).json()
    assert again["opened"] == 2 and again["hints_used"] == 2  # a card later, counted
    refused(api.client.post(f"/api/tables/{code}/cards-seen"), 403, "seat token required")


def test_each_seat_reviews_its_own_plays_and_a_spectator_none(api: Api) -> None:
    code, tokens = table(api, people=4, target=21)
    dealt = {}
    for seat in range(4):
        dealt[seat] = set(view(api, code, tokens[seat])["game"]["hand"])
    c = api.client
    refused(c.get(f"/api/tables/{code}/rounds/1/review", headers=auth(tokens[0])), 409,
            "round is not over")
    over = play_round(api, code, tokens)
    assert over["game"]["status"] == "round_over"  # the end of round 1
    for seat in range(4):
        r = c.get(f"/api/tables/{code}/rounds/1/review", headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        rv = r.json()
        assert rv["seat"] == seat and rv["round"] == 1 and len(rv["plays"]) == 10
        assert {p["played"]["card"] for p in rv["plays"]} == dealt[seat]
        for p in rv["plays"]:
            assert set(p["hand"]) <= dealt[seat]  # its own hand only, never another's
    refused(c.get(f"/api/tables/{code}/rounds/1/review"), 403, "seat token required")
    refused(c.get(f"/api/tables/{code}/rounds/1/review", headers=auth("nope")), 403,
            "wrong seat token")
    refused(c.get(f"/api/tables/{code}/rounds/2/review", headers=auth(tokens[0])), 404,
            "round not found")
    # The next round is dealt: round 1's review is still each seat's own (from the stored plays).
    r = c.post(f"/api/tables/{code}/next-round", json={"version": over["version"]},
               headers=auth(tokens[2]))
    assert r.status_code == 200, r.text
    r = c.get(f"/api/tables/{code}/rounds/1/review", headers=auth(tokens[2]))
    assert r.status_code == 200 and r.json()["seat"] == 2


def test_a_version_read_before_a_mere_presence_change_still_gets_its_hint(api: Api) -> None:
    """The tables' rule for a card (``game_version``: the game's last change) holds for a hint:
    a version from before someone merely connected is not stale, one from before a card is."""
    code, tokens = table(api)
    tv = view(api, code)
    turn, v = tv["game"]["turn"], tv["version"]
    rec = api.store.load_by_code(code)
    assert rec is not None
    # What a presence change stores: the table's version moves on, the game stays.
    rec.meta["table"]["game_version"] = v
    rec.meta["table"]["seats"][turn]["connected"] = True
    rec.version = v + 1
    assert api.store.update(rec, v)
    first = hint(api, code, tokens[turn], v)
    assert first.status_code == 200, first.text
    again = hint(api, code, tokens[turn], v + 1)
    assert again.status_code == 200, again.text
    # The same position's hint again: the same hint, not a second one.
    assert again.json()["hints_used"] == 1
    refused(hint(api, code, tokens[turn], v - 1), 409, "stale version")
    refused(hint(api, code, tokens[turn], v + 2), 409, "stale version")


def person_stats(api: Api, pid: str) -> Json:
    r = api.client.get(f"/api/people/{pid}/stats")
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_each_persons_statistics_count_their_own_seat_only(api: Api) -> None:
    r = api.client.post("/api/tables", json={"name": "Anna", "level": "easy", "hints": True,
                                             "away_seconds": None})
    code, tokens = r.json()["table"]["code"], [r.json()["token"]]
    anna, bea, cid = "a" * 32, "b" * 32, "c" * 32
    claim = api.client.post(f"/api/tables/{code}/person", headers={
        **auth(tokens[0]), "X-Scopone-Person": anna})
    assert claim.status_code == 204, claim.text
    # Bea sits at seat 1, claims it, stands up; Carl takes seat 1 and claims nothing.
    r = api.client.post(f"/api/tables/{code}/seats/1", json={"name": "Bea"})
    bea_token = r.json()["token"]
    assert api.client.post(f"/api/tables/{code}/person", headers={
        **auth(bea_token), "X-Scopone-Person": bea}).status_code == 204
    assert api.client.delete(f"/api/tables/{code}/seats/1",
                             headers=auth(bea_token)).status_code == 200
    for seat, name in ((1, "Carl"), (2, "Dora"), (3, "Ezio")):
        r = api.client.post(f"/api/tables/{code}/seats/{seat}", json={"name": name})
        tokens.append(r.json()["token"])
    v = view(api, code)["version"]
    assert api.client.post(f"/api/tables/{code}/start", json={"version": v},
                           headers=auth(tokens[0])).status_code == 200
    hints = [0]

    def ask(seat: int, mine: Json) -> None:
        if seat in (0, 1) and hints[0] < 3:
            assert hint(api, code, tokens[seat], mine["version"]).status_code == 200
            hints[0] += seat == 0
    play_round(api, code, tokens, ask)
    a = person_stats(api, anna)
    assert a["rounds"] == 1 and a["hints"] == 3
    # Seat 1's rounds and hints are not Bea's: the seat changed hands after she claimed it.
    b = person_stats(api, bea)
    assert b["rounds"] == 0 and b["hints"] == 0
    assert api.client.get(f"/api/people/{cid}/stats").status_code == 404
    # Refusals: no token, a wrong one, no or a malformed person id, an unknown table.
    c = api.client
    refused(c.post(f"/api/tables/{code}/person", headers={"X-Scopone-Person": anna}), 403,
            "seat token required")
    refused(c.post(f"/api/tables/{code}/person", headers={**auth("x"), "X-Scopone-Person": anna}),
            403, "wrong seat token")
    assert c.post(f"/api/tables/{code}/person", headers=auth(tokens[0])).status_code == 422
    assert c.post(f"/api/tables/{code}/person", headers={
        **auth(tokens[0]), "X-Scopone-Person": "XYZ"}).status_code == 422
    refused(c.post("/api/tables/nosuchcode00/person", headers={
        **auth(tokens[0]), "X-Scopone-Person": anna}), 404, "table not found")


def test_a_rematch_starts_the_coach_afresh(api: Api) -> None:
    """A rematch numbers its rounds from 1 again in the same record: the last match's help
    counts and reviews are not the new one's, and its rounds' accuracy is credited anew."""
    code, tokens = table(api)
    anna = "a" * 32
    assert api.client.post(f"/api/tables/{code}/person", headers={
        **auth(tokens[0]), "X-Scopone-Person": anna}).status_code == 204
    c = api.client
    assert c.post(f"/api/tables/{code}/cards-seen", headers=auth(tokens[0])).json()["opened"] == 1
    over = play_round(api, code, tokens)
    first = c.get(f"/api/tables/{code}/rounds/1/review", headers=auth(tokens[0])).json()
    assert first["cards_seen_opened"] == 1
    while over["game"]["status"] != "match_over":
        r = c.post(f"/api/tables/{code}/next-round", json={"version": over["version"]},
                   headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
        over = play_round(api, code, tokens)
    r = c.post(f"/api/tables/{code}/rematch", json={"version": over["version"]},
               headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    dealt = set(view(api, code, tokens[0])["game"]["hand"])
    seen = c.post(f"/api/tables/{code}/cards-seen", headers=auth(tokens[0])).json()
    assert (seen["opened"], seen["hints_used"]) == (1, 1)
    refused(c.get(f"/api/tables/{code}/rounds/1/review", headers=auth(tokens[0])), 409,
            "round is not over")
    play_round(api, code, tokens)
    again = c.get(f"/api/tables/{code}/rounds/1/review", headers=auth(tokens[0])).json()
    assert {p["played"]["card"] for p in again["plays"]} == dealt  # the new match's round 1
    assert again["cards_seen_opened"] == 1
    # Both matches' first rounds are credited to Anna, each once (the review credits before
    # it answers).
    rec, person = api.store.load_by_code(code), api.store.load_person(anna)
    assert rec is not None and person is not None
    assert {f"{rec.id}:1:0", f"{rec.id}#1:1:0"} <= set(person.data["reviewed"])


def test_the_last_rounds_review_outlives_a_rematch_for_the_match_it_was_asked_of(
        api: Api) -> None:
    """A page names the match its view showed (``match``): asked for as the host starts a
    rematch (or after, by a page that has not heard of it yet), the last round of the match
    before is still reviewed, judged or kept, with its help counts, until the new match's first
    round is over; other rounds of that match and matches never played are 404, and the new
    match's rounds are asked for as before.
    Before, the match's reviews went with the rematch: the page's review failed (a 404)."""
    code, tokens = table(api)
    c = api.client
    assert view(api, code, tokens[0])["game"]["match"] == 1
    while True:
        # Seat 2 opens the cards seen once a round: its help counts, kept with the last round.
        assert c.post(f"/api/tables/{code}/cards-seen", headers=auth(tokens[2])).status_code == 200
        over = play_round(api, code, tokens)
        if over["game"]["status"] == "match_over":
            break
        r = c.post(f"/api/tables/{code}/next-round", json={"version": over["version"]},
                   headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
    last = over["game"]["round_number"]
    # Seat 0's review is judged (and kept) before the rematch, seat 2's not.
    before = c.get(f"/api/tables/{code}/rounds/{last}/review", headers=auth(tokens[0]))
    assert before.status_code == 200, before.text
    r = c.post(f"/api/tables/{code}/rematch", json={"version": over["version"]},
               headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    assert view(api, code, tokens[0])["game"]["match"] == 2

    kept = c.get(f"/api/tables/{code}/rounds/{last}/review?match=1", headers=auth(tokens[0]))
    assert kept.status_code == 200, kept.text
    assert kept.json() == before.json()
    judged = c.get(f"/api/tables/{code}/rounds/{last}/review?match=1", headers=auth(tokens[2]))
    assert judged.status_code == 200, judged.text
    out = judged.json()
    assert out["round"] == last and out["history"] == before.json()["history"]
    assert out["cards_seen_opened"] == 1
    assert {p["played"]["card"] for p in out["plays"]} == {
        h["card"] for h in out["history"] if h["seat"] == 2}
    # Kept once judged: the same answer again (no second judgement).
    again = c.get(f"/api/tables/{code}/rounds/{last}/review?match=1", headers=auth(tokens[2]))
    assert again.json() == out
    rec = api.store.load_by_code(code)
    assert rec is not None
    assert set(rec.meta["coach"]["last_match"]["reviews"]) == {f"{last}:0", f"{last}:2"}

    # Another round of that match (the round after when the first round ended it: 0 is 422).
    other = last - 1 or last + 1
    refused(c.get(f"/api/tables/{code}/rounds/{other}/review?match=1",
                  headers=auth(tokens[0])), 404, "round not found")
    refused(c.get(f"/api/tables/{code}/rounds/1/review?match=3", headers=auth(tokens[0])),
            404, "match not found")
    assert c.get(f"/api/tables/{code}/rounds/1/review?match=0",
                 headers=auth(tokens[0])).status_code == 422
    # The new match's rounds: named or not, as before.
    for query in ("", "?match=2"):
        refused(c.get(f"/api/tables/{code}/rounds/1/review{query}", headers=auth(tokens[0])),
                409, "round is not over")
    refused(c.get(f"/api/tables/{code}/rounds/{last}/review?match=1"), 403,
            "seat token required")  # a spectator has no review, of any match
    # Kept until the new match's first round is over: then no page still shows the last one.
    play_round(api, code, tokens)
    refused(c.get(f"/api/tables/{code}/rounds/{last}/review?match=1", headers=auth(tokens[0])),
            404, "match not found")
    assert c.get(f"/api/tables/{code}/rounds/1/review?match=2",
                 headers=auth(tokens[0])).status_code == 200


def test_only_the_match_just_before_is_kept() -> None:
    """Each rematch keeps the last round of the match it ends, and forgets the one before."""
    import random

    from scopone.engine import Match, Rules
    from scopone.web import errors as e
    from scopone.web.coach import match_parts, new_match
    from scopone.web.store import GameRecord

    rec = GameRecord.new(Match(Rules(), random.Random(3)), "easy", meta={"coach": {
        "traces": {"1": {"plays": [1]}, "2": {"plays": [2]}},
        "help": {"1:0": {"hints": 1}, "2:0": {"hints": 2}, "2:1": {"seen": 1}},
        "reviews": {"1:0": {"r": 1}, "2:3": {"r": 2}}}})
    new_match(rec)
    assert match_parts(rec, 0) == {"match": 0, "traces": {"2": {"plays": [2]}},
                                   "help": {"2:0": {"hints": 2}, "2:1": {"seen": 1}},
                                   "reviews": {"2:3": {"r": 2}}}
    assert "traces" not in match_parts(rec, 1)
    new_match(rec)  # a match with no round over: nothing of it to keep
    for gone in (0, 1):
        with pytest.raises(e.NotFound):
            match_parts(rec, gone)
    assert match_parts(rec, 2) is rec.meta["coach"]


def test_help_that_cannot_be_stored_is_503_and_never_claimed(api: Api,
                                                             monkeypatch: Any) -> None:
    """Another process writing the table between each of the coach's loads and writes (a
    presence change, say) makes every try fail: the answer is 503 and nothing is counted,
    rather than a count the answer claims but the store never kept."""
    code, tokens = table(api)
    store = api.store
    real_update = store.update

    def another_process_first(rec: Any, version: int, updated: float | None = None) -> bool:
        if updated is not None:  # the coach's write (same version, newer time)
            other = store.load(rec.id)
            assert other is not None
            other.updated += 0.5
            assert real_update(other, other.version)
        return real_update(rec, version, updated)

    with monkeypatch.context() as m:
        api.patch_store(m, "update", another_process_first)
        refused(api.client.post(f"/api/tables/{code}/cards-seen", headers=auth(tokens[1])),
                503, "database unavailable")
        refused(api.client.post(f"/api/tables/{code}/person", headers={
            **auth(tokens[1]), "X-Scopone-Person": "b" * 32}), 503, "database unavailable")
    rec = store.load_by_code(code)
    assert rec is not None
    coach = rec.meta.get("coach", {})
    assert not coach.get("help") and not coach.get("claims")
    assert api.client.post(f"/api/tables/{code}/cards-seen",
                           headers=auth(tokens[1])).json()["opened"] == 1
