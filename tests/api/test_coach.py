"""The coach over HTTP on both stores: hint, review, cards seen, statistics, and every error."""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from .aio import run_alone
from .conftest import Api

Json = dict[str, Any]


@pytest.fixture
def api(api_factory: Callable[..., Api]) -> Iterator[Api]:
    # A short judgement: the tests check what is shown, not how well it is judged.
    a = api_factory(coach_seconds=0.02)
    with a.client:
        yield a


def person() -> str:
    return secrets.token_hex(16)


def create(api: Api, pid: str | None = None, **body: Any) -> Json:
    headers = {"X-Scopone-Person": pid} if pid else {}
    r = api.client.post("/api/games", json={"level": "easy", **body}, headers=headers)
    assert r.status_code == 201, r.text
    return dict(r.json())


def hidden_from_seat0(api: Api, gid: str) -> set[str]:
    """The cards in seats 1-3's hands now, from the server's own state."""
    rec = api.store.load(gid)
    assert rec is not None
    return {str(c) for s in (1, 2, 3) for c in rec.match.round.hand(s)}


def test_a_hint_names_a_legal_move_of_the_persons_own_view_and_is_counted(api: Api) -> None:
    pid = person()
    game = create(api, pid)
    rng = random.Random(1)
    asked = 0

    def ask(g: Json) -> None:
        nonlocal asked
        hidden = hidden_from_seat0(api, g["id"])
        r = api.client.post(f"/api/games/{g['id']}/hint", json={"version": g["version"]})
        assert r.status_code == 200, r.text
        h = r.json()
        asked += 1
        assert h["move"] in g["legal"] and h["version"] == g["version"]
        assert h["hints_used"] == asked
        shown = {h["move"]["card"], *h["move"]["capture"]}
        for o in h["options"]:
            shown |= {o["card"], *o["capture"]}
        assert not shown & hidden  # never a card hidden from the person
        assert shown <= set(g["hand"]) | set(g["table"])
        margins = [o["margin"] for o in h["options"]]
        assert margins == sorted(margins, reverse=True)
        # Each move with its reasons; a scopa exactly where the move sweeps the table and is
        # not the round's last card (SPEC §1).
        last = sum(g["hand_counts"]) == 1
        if h["options"]:  # the first is the hint's move
            assert h["reasons"] == h["options"][0]["reasons"]
        for o in [{**h["move"], "reasons": h["reasons"]}, *h["options"]]:
            sweeps = bool(o["capture"]) and len(o["capture"]) == len(g["table"]) and not last
            assert ({"kind": "scopa"} in o["reasons"]) == sweeps, (o, g["table"])
            # What a capture wins: on the round's last card, whatever is left on the table too.
            won = 1 + (len(g["table"]) if last else len(o["capture"]))
            assert [r for r in o["reasons"] if r["kind"] == "cards"] == (
                [{"kind": "cards", "count": won}] if o["capture"] else [])

    game = api.round_end(game, rng, ask)
    assert asked == 10
    # The hint did not change the version: the moves after it were never stale.
    stats = api.client.get(f"/api/people/{pid}/stats").json()
    assert stats["hints"] == 10 and stats["rounds"] == 1
    # The round's review (its summary) counts the same hints.
    review = api.client.get(f"/api/games/{game['id']}/rounds/1/review").json()
    assert review["hints_used"] == 10 and review["cards_seen_opened"] == 0


def test_hint_errors(api: Api) -> None:
    game = create(api)
    gid = game["id"]
    rng = random.Random(2)
    while game["status"] != "computer_turn":
        game = api.step(game, rng)
    r = api.client.post(f"/api/games/{gid}/hint", json={"version": game["version"]})
    assert r.status_code == 409 and r.json()["detail"] == "not your turn"
    assert r.json()["game"]["version"] == game["version"]
    r = api.client.post(f"/api/games/{gid}/hint", json={"version": game["version"] + 5})
    assert r.status_code == 409 and r.json()["detail"] == "stale version"
    r = api.client.post("/api/games/nope/hint", json={"version": 0})
    assert r.status_code == 404 and r.json()["detail"] == "game not found"
    r = api.client.post(f"/api/games/{gid}/hint", json={"version": "1"})
    assert r.status_code == 422
    game = api.round_end(game, rng)
    # The deal is random: now and then its one round already decides the match (11 points).
    over = "match is over" if game["status"] == "match_over" else "round is over"
    r = api.client.post(f"/api/games/{gid}/hint", json={"version": game["version"]})
    assert r.status_code == 409 and r.json()["detail"] == over


def test_the_review_of_a_round_its_errors_and_its_storage(api: Api) -> None:
    pid = person()
    game = create(api, pid)
    gid = game["id"]
    rng = random.Random(3)
    r = api.client.get(f"/api/games/{gid}/rounds/1/review")
    assert r.status_code == 409 and r.json()["detail"] == "round is not over"
    game = api.round_end(game, rng)
    history = game["history"]
    r = api.client.get(f"/api/games/{gid}/rounds/1/review")
    assert r.status_code == 200, r.text
    rev = r.json()
    assert rev["round"] == 1 and rev["seat"] == 0
    mine = [(i, p) for i, p in enumerate(history) if p["seat"] == 0]
    assert [p["index"] for p in rev["plays"]] == [i for i, _ in mine]
    assert [p["played"]["card"] for p in rev["plays"]] == [p["card"] for _, p in mine]
    # The round's public plays; none chosen by the computer for the person, none by a former
    # holder of a seat (only a table's away person, or a seat handed over, has such plays).
    marks = ("by_computer", "held_by")
    assert [{k: v for k, v in p.items() if k not in marks} for p in rev["history"]] == history
    assert not any(p["by_computer"] for p in rev["history"] + rev["plays"])
    assert all(p["held_by"] is None for p in rev["history"])
    own = {p["card"] for _, p in mine}
    for p in rev["plays"]:
        # Only the person's own earlier hand and the public table: never another's card.
        assert set(p["hand"]) <= own
        before = {h["card"] for h in history[:p["index"]]}
        assert set(p["table"]) <= before
        # Its reasons, the scopa among them when it was one.
        assert ({"kind": "scopa"} in p["played"]["reasons"]) == p["scopa"]
        if p["forced"]:
            assert p["label"] is None and p["best"] is None
        else:
            assert all("reasons" in o for o in [p["best"], *p["options"]])
            assert p["label"] in ("best", "good", "inaccuracy", "mistake", "blunder")
            assert p["best"]["card"] in p["hand"] and p["loss"] >= 0
    judged = [p for p in rev["plays"] if not p["forced"]]
    assert sum(rev["counts"].values()) == len(judged)
    if judged:
        good = sum(1 for p in judged if p["label"] in ("best", "good"))
        assert rev["accuracy"] == pytest.approx(good / len(judged))
    # Stored with the game: a reload (or another process) shows the same review.
    rec = api.store.load(gid)
    assert rec is not None and "1:0" in rec.meta["coach"]["reviews"]
    assert rec.version == game["version"]  # storing it made no move stale
    assert api.client.get(f"/api/games/{gid}/rounds/1/review").json() == rev
    # After the next deal the first round is still reviewable; the new one is not over.
    if game["status"] == "round_over":
        game = api.step(game, rng)
        assert api.client.get(f"/api/games/{gid}/rounds/1/review").json() == rev
        r = api.client.get(f"/api/games/{gid}/rounds/2/review")
        assert r.status_code == 409
    r = api.client.get(f"/api/games/{gid}/rounds/9/review")
    assert r.status_code == 404 and r.json()["detail"] == "round not found"
    assert api.client.get(f"/api/games/{gid}/rounds/0/review").status_code == 422
    assert api.client.get("/api/games/nope/rounds/1/review").status_code == 404
    stats = api.client.get(f"/api/people/{pid}/stats").json()
    if judged:
        assert [p["accuracy"] for p in stats["accuracy"]] == [
            pytest.approx(rev["accuracy"], abs=1e-3)]


def test_cards_seen_shows_no_hidden_card_and_is_counted(api: Api) -> None:
    pid = person()
    game = create(api, pid)
    rng = random.Random(4)
    for _ in range(7):
        game = api.step(game, rng)
    gid = game["id"]
    hidden = hidden_from_seat0(api, gid)
    r = api.client.post(f"/api/games/{gid}/cards-seen")
    assert r.status_code == 200, r.text
    seen = r.json()
    places = {c["card"]: c["place"] for c in seen["cards"]}
    assert len(places) == 40 and seen["opened"] == 1
    assert {c for c, p in places.items() if p == "hand"} == set(game["hand"])
    assert {c for c, p in places.items() if p == "table"} == set(game["table"])
    assert all(places[c] == "unseen" for c in hidden)
    assert sum(seen["unseen_by_rank"]) == len(hidden)
    assert set(seen["played"]) == {p["card"] for p in game["history"]}
    assert seen["settebello"] == places["7D"]
    # Counted like a hint (SPEC §7): opened again at the same position, it shows nothing new
    # and is not counted again; a card later, it is. A hint now is the round's third, and the
    # statistics count the openings among the hints used.
    again = api.client.post(f"/api/games/{gid}/cards-seen").json()
    assert again["opened"] == 1 and again["hints_used"] == 1
    game = api.step(api.get(gid), rng)
    again = api.client.post(f"/api/games/{gid}/cards-seen").json()
    assert again["opened"] == 2 and again["hints_used"] == 2
    game = api.until(game, "your_turn", rng)
    h = api.client.post(f"/api/games/{gid}/hint", json={"version": game["version"]}).json()
    assert h["hints_used"] == 3
    stats = api.client.get(f"/api/people/{pid}/stats").json()
    assert stats["cards_seen"] == 2 and stats["hints"] == 3
    assert api.client.post("/api/games/nope/cards-seen").status_code == 404


def test_cards_seen_opened_once_the_round_is_over_is_not_counted(api: Api) -> None:
    """Every card is in sight at the round's end: opening the panel then helps with nothing,
    so the round's summary and the statistics keep the help that was really used."""
    pid = person()
    game = create(api, pid)
    rng = random.Random(6)
    game = api.until(game, "your_turn", rng)
    assert api.client.post(f"/api/games/{game['id']}/cards-seen").json()["opened"] == 1
    game = api.round_end(game, rng)
    assert game["status"] in ("round_over", "match_over")
    r = api.client.post(f"/api/games/{game['id']}/cards-seen")
    assert r.status_code == 200, r.text
    assert (r.json()["opened"], r.json()["hints_used"]) == (1, 1)
    review = api.client.get(f"/api/games/{game['id']}/rounds/1/review").json()
    assert review["cards_seen_opened"] == 1
    stats = api.client.get(f"/api/people/{pid}/stats").json()
    assert stats["cards_seen"] == 1 and stats["hints"] == 1


def test_statistics_per_person_and_clearing_them(api: Api) -> None:
    pid, other = person(), person()
    # To 31: a random deal's first round may give a pair 11 (scope are many in random play),
    # and this test plays a next round (a clean-clone run met a match over after one round).
    game = create(api, pid, level="easy", target=31)
    create(api, other)
    game = api.round_end(game, random.Random(5))
    s = api.client.get(f"/api/people/{pid}/stats").json()
    easy = next(x for x in s["levels"] if x["level"] == "easy")
    assert easy["rounds"] == 1 and s["rounds"] == 1
    summary = game["rounds"][0]
    assert easy["rounds_won"] == int(summary["points"][0] > summary["points"][1])
    for cat, pair in summary["categories"].items():
        assert s["average_points"][cat] == pair[0]
    assert s["scope_made"] == summary["tallies"][0]["scope"]
    assert s["scope_conceded"] == summary["tallies"][1]["scope"]
    # Another person's statistics are their own.
    empty = api.client.get(f"/api/people/{other}/stats").json()
    assert empty["rounds"] == 0
    # Cleared, the statistics are empty, and the match under way counts for the same id
    # from its next round on.
    assert api.client.delete(f"/api/people/{pid}/stats").status_code == 204
    assert api.client.get(f"/api/people/{pid}/stats").json() == empty
    assert game["status"] == "round_over"
    api.round_end(api.step(game, random.Random(6)), random.Random(6))
    s = api.client.get(f"/api/people/{pid}/stats").json()
    assert s["rounds"] == 1 and s["levels"] != empty["levels"]
    unknown = person()
    r = api.client.delete(f"/api/people/{unknown}/stats")
    assert r.status_code == 404 and r.json()["detail"] == "person not found"
    assert api.client.get(f"/api/people/{unknown}/stats").status_code == 404
    assert api.client.get("/api/people/not-hex/stats").status_code == 422
    r = api.client.post("/api/games", json={}, headers={"X-Scopone-Person": "short"})
    assert r.status_code == 422


def _last_round(api: Api, pid: str) -> str:
    """A match's last round, credited to ``pid``: seat 0 sweeps 7C with the settebello, and
    pair A reaches 11 and wins."""
    gid = api.insert(["7D", "1C", "2C", "3C"], table="7C", dealer=3, scores=(10, 0))
    rec = api.store.load(gid)
    assert rec is not None
    run_alone(api.app.state.coach.claim_seat(rec, 0, pid))
    assert api.store.update(rec, rec.version)
    return gid


def test_the_match_is_credited_when_it_ends(api: Api) -> None:
    pid = person()
    gid = _last_round(api, pid)
    game = api.round_end(api.get(gid), random.Random(6))
    s = api.client.get(f"/api/people/{pid}/stats").json()
    easy = next(x for x in s["levels"] if x["level"] == "easy")
    assert game["status"] == "match_over" and easy["matches"] == 1
    assert game["winner"] == "A" and easy["matches_won"] == 1


def _levels(api: Api, pid: str) -> dict[str, tuple[int, int]]:
    # Rounds and matches per level, of the levels with any.
    s = api.client.get(f"/api/people/{pid}/stats").json()
    return {x["level"]: (x["rounds"], x["matches"]) for x in s["levels"]
            if x["rounds"] or x["matches"]}


def _set_level(api: Api, gid: str, level: str) -> None:
    r = api.client.patch(f"/api/games/{gid}", json={"level": level})
    assert r.status_code == 200, r.text


def test_a_round_and_a_match_count_for_the_easiest_level_they_were_played_at(api: Api) -> None:
    # Switched to Hard after seat 0's card of the match's last round, the round and the match
    # were still played at Easy.
    pid = person()
    gid = _last_round(api, pid)
    game = api.step(api.get(gid), random.Random(1))
    assert game["history"]
    _set_level(api, gid, "hard")
    game = api.round_end(api.get(gid), random.Random(2))
    assert game["status"] == "match_over" and game["level"] == "hard"
    assert _levels(api, pid) == {"easy": (1, 1)}


def test_a_level_set_between_rounds_is_the_next_rounds_and_the_match_keeps_the_easiest(
        api: Api) -> None:
    # Round 1 (two cards a hand: too few to end the match) at Normal, switched to Easy
    # mid-round: Easy's. Round 2, set to Hard before it is dealt, all Hard's. The match, played
    # at Normal, Easy and Hard, is Easy's, whichever round ends it.
    pid = person()
    gid = api.insert(["7D 2B", "1C 4S", "2C 6D", "3C 5B"], dealer=3, level="normal")
    rec = api.store.load(gid)
    assert rec is not None
    run_alone(api.app.state.coach.claim_seat(rec, 0, pid))
    assert api.store.update(rec, rec.version)
    rng = random.Random(11)
    game = api.step(api.get(gid), rng)
    assert game["history"]
    _set_level(api, gid, "easy")
    game = api.round_end(api.get(gid), rng)
    assert game["status"] == "round_over"
    assert _levels(api, pid) == {"easy": (1, 0)}
    _set_level(api, gid, "hard")
    game = api.round_end(api.step(api.get(gid), rng), rng)
    over = int(game["status"] == "match_over")
    assert _levels(api, pid) == {"easy": (1, over), "hard": (1, 0)}
    # Played on at Hard to the match's end: every later round is Hard's, the match Easy's.
    while game["status"] != "match_over":
        game = api.round_end(api.step(game, rng), rng)
    levels = _levels(api, pid)
    rounds = len(game["rounds"])
    assert levels == {"easy": (1, 1), "hard": (rounds - 1, 0)}


def test_a_finished_round_is_reviewed_without_being_asked(api: Api) -> None:
    # The person's round is judged in the background as soon as it ends, so the review opens
    # at once; without a person nothing is computed until asked.
    pid = person()
    game = api.round_end(create(api, pid), random.Random(7))
    anonymous = api.round_end(create(api), random.Random(8))
    deadline = time.monotonic() + 60
    while True:
        rec = api.store.load(game["id"])
        assert rec is not None
        if "1:0" in rec.meta["coach"].get("reviews", {}):
            break
        assert time.monotonic() < deadline, "the round was never reviewed"
        time.sleep(0.05)
    assert rec.version == game["version"]
    other = api.store.load(anonymous["id"])
    assert other is not None and "reviews" not in other.meta.get("coach", {})
    assert len(api.client.get(f"/api/people/{pid}/stats").json()["accuracy"]) <= 1


def test_a_review_stored_before_reasons_were_kept_is_still_answered(api: Api) -> None:
    """Reviews are stored with the game: one judged before moves had reasons has none, and is
    answered all the same (its moves with no reasons), not refused by the response model."""
    game = api.round_end(create(api), random.Random(10))
    gid = game["id"]
    fresh = api.client.get(f"/api/games/{gid}/rounds/1/review").json()
    rec = api.store.load(gid)
    assert rec is not None
    stored = rec.meta["coach"]["reviews"]["1:0"]
    for p in stored["plays"]:
        for m in [p["played"], p["best"], *p["options"]]:
            if m is not None:
                m.pop("reasons")
    assert api.store.update(rec, rec.version, rec.updated)
    old = api.client.get(f"/api/games/{gid}/rounds/1/review")
    assert old.status_code == 200, old.text
    plays = old.json()["plays"]
    assert [p["played"]["reasons"] for p in plays] == [[] for _ in plays]
    assert [p["played"]["card"] for p in plays] == [p["played"]["card"] for p in fresh["plays"]]


def test_the_reasons_in_the_openapi_document_are_the_coachs_kinds(api: Api) -> None:
    """The contract names every kind of reason coach/reasons.py gives, and no other."""
    from scopone.coach.reasons import KINDS

    schemas = api.client.get("/openapi.json").json()["components"]["schemas"]
    items = schemas["CoachMoveOut"]["properties"]["reasons"]["items"]
    assert set(items["discriminator"]["mapping"]) == set(KINDS)
    kinds = set()
    for ref in items["oneOf"]:
        kind = schemas[ref["$ref"].rsplit("/", 1)[1]]["properties"]["kind"]
        kinds |= set(kind.get("enum", [kind.get("const")]))
    assert kinds == set(KINDS)
    assert schemas["OptionOut"]["properties"]["reasons"] == \
        schemas["CoachMoveOut"]["properties"]["reasons"]
    assert schemas["HintOut"]["properties"]["reasons"] == \
        schemas["CoachMoveOut"]["properties"]["reasons"]
    # A hint's move is still a move as it is played: the reasons go beside it.
    assert schemas["HintOut"]["properties"]["move"] == {"$ref": "#/components/schemas/MoveOut"}


def test_only_the_latest_reviews_are_stored_with_the_game(api: Api) -> None:
    from scopone.web.coach import REVIEWS_KEPT

    game = create(api)
    rng = random.Random(9)
    gid = game["id"]
    rounds = 0
    while game["status"] != "match_over" and rounds < REVIEWS_KEPT + 2:
        game = api.round_end(game, rng)
        rounds = game["round_number"]
        r = api.client.get(f"/api/games/{gid}/rounds/{rounds}/review")
        assert r.status_code == 200
        if game["status"] == "round_over":
            game = api.step(game, rng)
    rec = api.store.load(gid)
    assert rec is not None
    kept = rec.meta["coach"]["reviews"]
    assert len(kept) == min(rounds, REVIEWS_KEPT)
    assert f"{rounds}:0" in kept
    # An older round is judged again when asked for.
    assert api.client.get(f"/api/games/{gid}/rounds/1/review").status_code == 200


def test_a_review_has_time_for_its_deals_so_judged_again_it_says_the_same(
        api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """QA: an older review, no longer stored, judged again on request said something else (a
    loss of 2.11 then 1.84, another best move): its plays were cut at a hint's time before
    their 200 imagined deals. A review's plays get ``REVIEW_SLACK`` times that time; given
    their deals, the same round is judged the same."""
    from scopone.web import coach as coach_module

    given: dict[str, float] = {}

    def timed(name: str) -> Callable[..., Json]:
        real = getattr(coach_module, name)

        def run(*args: Any) -> Json:
            given[name] = args[-1]
            return dict(real(*args))
        return run

    for name in ("compute_hint", "compute_review"):
        monkeypatch.setattr(coach_module, name, timed(name))
    game = create(api)
    rng = random.Random(4)
    while game["status"] != "your_turn":
        game = api.step(game, rng)
    assert api.client.post(f"/api/games/{game['id']}/hint",
                           json={"version": game["version"]}).status_code == 200
    game = api.round_end(game, rng)
    first = api.client.get(f"/api/games/{game['id']}/rounds/1/review").json()
    assert given["compute_review"] == given["compute_hint"] * coach_module.REVIEW_SLACK
    assert coach_module.REVIEW_SLACK >= 4
    # Judged again from scratch (as a round no longer stored is) with time for every deal.
    api.app.state.coach.seconds = 60.0
    again = []
    for _ in range(2):
        rec = api.store.load(game["id"])
        assert rec is not None and rec.meta["coach"]["reviews"]
        rec.meta["coach"]["reviews"].clear()
        assert api.store.update(rec, rec.version, rec.updated)
        again.append(api.client.get(f"/api/games/{game['id']}/rounds/1/review").json())
    assert again[0] == again[1]
    assert first["seat"] == again[0]["seat"] == 0

def test_another_seats_refusals_carry_no_view_of_seat_0(api: Api) -> None:
    # For tables with friends: the service answers any seat; a 409 for seat 2 must not carry
    # the solo view (seat 0's hand).
    from scopone.web import errors as e

    game = api.get(api.insert(["7D", "1C", "2C", "3C"], table="7C", dealer=3))  # seat 0 leads
    coach = api.app.state.coach
    for call in (coach.hint(game["id"], game["version"], 2),
                 coach.hint(game["id"], game["version"] + 1, 2),
                 coach.review(game["id"], 1, 2)):
        with pytest.raises(e.Conflict) as refused:
            run_alone(call)
        assert refused.value.game is None
