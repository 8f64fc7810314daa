"""A rematch keeps how the match before it went (``last_match``: its number, score and winner)
in every view of the next match, the same for each seat and a spectator: a page that was away
when the match ended (offline, asleep) learns it, whose summary it never showed. None in a
table's first match."""

from __future__ import annotations

from typing import Any

from scopone.engine import Round, parse_cards

from .conftest import Api
from .tables_live import auth
from .test_coach_tables import play_round, table, view

VIEWERS = (0, 1, 2, 3, None)


def _views(api: Api, code: str, tokens: list[str]) -> list[dict[str, Any]]:
    return [view(api, code, None if seat is None else tokens[seat]) for seat in VIEWERS]


def _last_round_of_a_match_won_by(api: Api, code: str, scores: tuple[int, int]) -> None:
    """The table's round replaced by one card each (seat 0 leads), with ``scores`` before it:
    past the target, the round's end is the match's."""
    rec = api.store.load_by_code(code)
    assert rec is not None
    old = rec.version
    rec.match.round = Round.from_deal([parse_cards(h) for h in ("7D", "1C", "2C", "3C")],
                                      parse_cards(""), dealer=3, rules=rec.match.rules)
    rec.match.scores = list(scores)
    rec.version += 1
    rec.meta["table"]["settled_version"] = rec.version
    assert api.store.update(rec, old)


def test_a_rematch_tells_every_viewer_how_the_last_match_went(api: Api) -> None:
    code, tokens = table(api, hints=False)
    assert all(v["game"]["last_match"] is None for v in _views(api, code, tokens))
    _last_round_of_a_match_won_by(api, code, (0, 20))
    over = play_round(api, code, tokens)
    game = over["game"]
    assert game["status"] == "match_over" and game["winner"] == "B", game
    final = game["score"]
    assert final[1] >= 20
    assert all(v["game"]["last_match"] is None for v in _views(api, code, tokens))
    r = api.client.post(f"/api/tables/{code}/rematch", json={"version": over["version"]},
                        headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    told = {"match": 1, "score": final, "winner": "B"}
    assert r.json()["game"]["last_match"] == told
    for v in _views(api, code, tokens):
        assert v["game"]["match"] == 2 and v["game"]["score"] == [0, 0]
        assert v["game"]["last_match"] == told  # pair A's and B's: the same for every viewer
    # The second rematch tells of the second match.
    _last_round_of_a_match_won_by(api, code, (25, 3))
    over = play_round(api, code, tokens)
    assert over["game"]["winner"] == "A"
    r = api.client.post(f"/api/tables/{code}/rematch", json={"version": over["version"]},
                        headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    assert r.json()["game"]["last_match"] == {"match": 2, "score": over["game"]["score"],
                                              "winner": "A"}
