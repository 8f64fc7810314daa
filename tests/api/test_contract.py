"""The OpenAPI document says exactly what each operation can answer, and the app keeps to it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scopone.engine.cards import Card
from scopone.web import Settings, create_app
from scopone.web.schemas import CARD_PATTERN

DOC = create_app(Settings()).openapi()
GAME = "/api/games/{game_id}"
TABLE = "/api/tables/{code}"

# Every status each operation can answer: 400 and 413 come from the body limit in front of all.
EXPECTED = {
    ("post", "/api/games"): {"201", "400", "413", "422"},
    ("get", GAME): {"200", "400", "404", "413"},
    ("patch", GAME): {"200", "400", "404", "409", "413", "422"},
    ("post", GAME + "/moves"): {"200", "400", "404", "409", "413", "422"},
    ("post", GAME + "/advance"): {"200", "400", "404", "409", "413", "422", "503"},
    ("post", GAME + "/next-round"): {"200", "400", "404", "409", "413", "422"},
    ("get", GAME + "/events"): {"200", "400", "404", "413", "422"},
    ("post", "/api/tables"): {"201", "400", "413", "422"},
    ("get", TABLE): {"200", "400", "403", "404", "413"},
    ("post", TABLE + "/seats/{seat}"): {"201", "400", "404", "409", "413", "422", "503"},
    ("delete", TABLE + "/seats/{seat}"): {"200", "400", "403", "404", "409", "413", "422",
                                          "503"},
    # 503: other processes' writes won every try (tables._change), nothing changed.
    ("post", TABLE + "/start"): {"200", "400", "403", "404", "409", "413", "422", "503"},
    ("post", TABLE + "/moves"): {"200", "400", "403", "404", "409", "413", "422", "503"},
    ("post", TABLE + "/next-round"): {"200", "400", "403", "404", "409", "413", "422", "503"},
    ("post", TABLE + "/seats/{seat}/computer"): {"200", "400", "403", "404", "409", "413",
                                                 "422", "503"},
    ("post", TABLE + "/seats/{seat}/open"): {"200", "400", "403", "404", "409", "413", "422",
                                             "503"},
    ("post", TABLE + "/rematch"): {"200", "400", "403", "404", "409", "413", "422", "503"},
    ("post", TABLE + "/back"): {"200", "400", "403", "404", "413", "503"},
    ("get", TABLE + "/events"): {"200", "400", "403", "404", "413", "422"},
    ("get", "/healthz"): {"200", "400", "413", "503"},
    ("get", "/metrics"): {"200", "400", "401", "413"},  # 401: SCOPONE_METRICS_TOKEN set
}
# The coach's operations (SPEC §7): they answer judgements and statistics, not a game.
COACH = {
    ("post", GAME + "/hint"): {"200", "400", "404", "409", "413", "422", "503"},
    ("get", GAME + "/rounds/{number}/review"): {"200", "400", "404", "409", "413", "422", "503"},
    ("post", GAME + "/cards-seen"): {"200", "400", "404", "413", "503"},
    ("get", "/api/people/{person_id}/stats"): {"200", "400", "404", "413", "422"},
    ("delete", "/api/people/{person_id}/stats"): {"204", "400", "404", "413", "422"},
    # At a table: the token's seat only (403 without one, or when the host allowed no hints).
    ("post", TABLE + "/hint"): {"200", "400", "403", "404", "409", "413", "422", "503"},
    ("post", TABLE + "/cards-seen"): {"200", "400", "403", "404", "409", "413", "503"},
    ("get", TABLE + "/rounds/{number}/review"): {"200", "400", "403", "404", "409", "413",
                                                 "422", "503"},
    ("post", TABLE + "/person"): {"204", "400", "403", "404", "413", "422", "503"},
}
EXPECTED.update(COACH)
# Every operation that reads the database answers 503 when it cannot be reached (PostgreSQL
# down or restarting); only the process's own metrics do not read it.
for operation, statuses in EXPECTED.items():
    if operation != ("get", "/metrics"):
        statuses.add("503")


def test_each_operation_documents_exactly_its_statuses() -> None:
    found = {(method, path): set(op["responses"])
             for path, item in DOC["paths"].items() for method, op in item.items()}
    assert found == EXPECTED


def test_every_error_is_an_error_out_in_json() -> None:
    for (method, path), statuses in EXPECTED.items():
        responses = DOC["paths"][path][method]["responses"]
        for status in statuses - {"200", "201", "204"}:
            content = responses[status]["content"]
            assert list(content) == ["application/json"], (method, path, status)
            assert content["application/json"]["schema"] == {
                "$ref": "#/components/schemas/ErrorOut"}


def test_every_503_says_when_to_try_again() -> None:
    for (method, path), statuses in EXPECTED.items():
        if "503" in statuses:
            headers = DOC["paths"][path][method]["responses"]["503"].get("headers", {})
            assert headers.get("Retry-After", {}).get("schema") == {"type": "integer"}, (
                method, path)


def test_answers_that_carry_a_game_link_to_the_operations_on_it() -> None:
    operation_ids = {op["operationId"] for item in DOC["paths"].values() for op in item.values()}
    for (method, path), statuses in EXPECTED.items():
        # The event stream's events carry the game; its answer is a stream, with no body.
        if not path.startswith("/api/games") or (method, path) in COACH or path.endswith(
                "/events"):
            continue
        success = min(statuses)
        links = DOC["paths"][path][method]["responses"][success]["links"]
        assert {link["operationId"] for link in links.values()} == {
            "get_game", "play_move", "advance", "next_round", "change_level"}
        assert {link["operationId"] for link in links.values()} <= operation_ids
        for link in links.values():
            assert link["parameters"] == {"game_id": "$response.body#/id"}


def test_the_card_pattern_is_exactly_the_deck() -> None:
    codes = [str(c) for c in Card._ALL]
    assert len(codes) == 40 and all(re.match(CARD_PATTERN, code) for code in codes)
    near = ["0D", "11D", "07D", "7d", "7X", " 7D", "7D ", "7DD", "D7", "10", "", "1OD"]
    assert not any(re.match(CARD_PATTERN, code) for code in near)


def test_the_move_schema_constrains_card_codes_and_duplicates() -> None:
    move = DOC["components"]["schemas"]["MoveIn"]
    assert move["properties"]["card"]["pattern"] == CARD_PATTERN
    capture = move["properties"]["capture"]
    assert capture["items"]["pattern"] == CARD_PATTERN
    assert capture["uniqueItems"] is True and capture["maxItems"] == 10
    assert move["additionalProperties"] is False


def test_request_models_are_strict_in_the_schema_too() -> None:
    schemas = DOC["components"]["schemas"]
    for name in ("GameCreate", "MoveIn", "VersionIn", "GamePatch"):
        assert schemas[name]["additionalProperties"] is False, name
    assert schemas["GameCreate"]["properties"]["napola"]["type"] == "boolean"
    assert schemas["VersionIn"]["properties"]["version"]["type"] == "integer"


@pytest.mark.parametrize("body", [
    b'{"version": "\x80"}',  # not UTF-8: FastAPI alone would answer a bare 400
    b"\x80\x81\x82",
    b"{version: 0",
    b"",
])
def test_a_body_that_is_not_json_is_422(api: Any, body: bytes) -> None:
    gid = api.create()["id"]
    before = api.get(gid)
    r = api.client.post(f"/api/games/{gid}/advance", content=body,
                        headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"] == "invalid request"
    assert api.get(gid) == before


def test_422_names_the_particulars(api: Any) -> None:
    gid = api.create()["id"]
    r = api.client.post(f"/api/games/{gid}/moves", json={"version": "3", "card": "7D"})
    assert r.status_code == 422
    assert r.json()["errors"] == [{"loc": ["body", "version"], "msg": "Input should be a valid "
                                   "integer", "type": "int_type"}]


def test_a_whole_float_is_an_integer_as_in_json_schema(api: Any) -> None:
    game = api.create()
    r = api.client.post(f"/api/games/{game['id']}/advance", json={"version": 99.0})
    assert r.status_code == 409 and r.json()["detail"] == "stale version"  # read, not refused


@pytest.mark.parametrize(("method", "path", "allow"), [
    ("DELETE", "/api/games/abc", "GET, PATCH, HEAD"),
    ("PUT", "/api/games", "POST"),
    ("GET", "/api/games/abc/moves", "POST"),
    ("HEAD", "/api/games/abc/moves", "POST"),
    ("POST", "/healthz", "GET, HEAD"),
])
def test_405_names_every_method_of_the_path(api: Any, method: str, path: str,
                                            allow: str) -> None:
    r = api.client.request(method, path)
    assert r.status_code == 405 and r.headers["allow"] == allow


def test_an_unreadable_content_length_is_the_documented_400(api: Any) -> None:
    # Servers refuse this themselves; the app's own answer is documented all the same.
    r = api.client.post("/api/games", content=b"{}",
                        headers={"content-type": "application/json", "content-length": "x"})
    assert r.status_code == 400 and r.json() == {"detail": "bad content-length"}


def test_the_operator_endpoints_document_their_bodies() -> None:
    health = DOC["paths"]["/healthz"]["get"]["responses"]
    assert health["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/HealthOut"}
    metrics = DOC["paths"]["/metrics"]["get"]["responses"]["200"]["content"]
    assert metrics == {"text/plain": {"schema": {"type": "string"}}}


def test_no_automatic_validation_error_schema_is_left() -> None:
    # FastAPI's own 422 body is never sent (see scopone.web.openapi), so it is not documented.
    assert "HTTPValidationError" not in DOC["components"]["schemas"]


def test_head_answers_as_get_without_the_body(api: Any) -> None:
    """RFC 9110: HEAD wherever GET is (an uptime monitor's ``curl -I /healthz``), the same
    status and headers, no body; errors included."""
    gid = api.create()["id"]
    for path in ("/healthz", "/", f"/api/games/{gid}", "/rules", "/robots.txt",
                 "/api/games/nosuchgame", "/static/css/scopone.css"):
        get, head = api.client.get(path), api.client.head(path)
        assert head.status_code == get.status_code, path
        assert head.content == b"" and get.content, path
        assert head.headers["content-type"] == get.headers["content-type"], path
        assert head.headers.get("content-length") == get.headers.get("content-length"), path
    assert api.client.get(f"/api/games/{gid}").json()["version"] == 0  # HEAD changed nothing
