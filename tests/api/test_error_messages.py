"""The refusals' stable messages: each comes with one status, the OpenAPI document lists them
under it, and the code raises each with that status. (Every API test checks what it met too:
``conftest.stable_detail``.)"""

from __future__ import annotations

import re
from pathlib import Path

from scopone.web import Settings, create_app
from scopone.web import errors as e

DOC = create_app(Settings()).openapi()
WEB = Path(e.__file__).parent
# How each refusal is raised in scopone/web, and with which status.
RAISED_AS = {"NotFound": 404, "Conflict": 409, "conflict": 409, "_conflict": 409,
             "Forbidden": 403, "Malformed": 422, "Unavailable": 503}


def test_every_message_constant_is_a_stable_message_with_its_status() -> None:
    constants = {name: value for name, value in vars(e).items()
                 if name.isupper() and isinstance(value, str) and name != "NAME_RULE"}
    assert set(constants.values()) == set(e.MESSAGES)
    assert len(e.MESSAGES) >= 30


def test_the_code_raises_each_message_with_its_documented_status() -> None:
    seen = 0
    for path in WEB.rglob("*.py"):
        text = path.read_text()
        for how, name in re.findall(r"\b(\w+)\(\s*(?:e\.)?([A-Z][A-Z_]+)\b", text):
            if how not in RAISED_AS or not isinstance(getattr(e, name, None), str):
                continue
            seen += 1
            assert e.MESSAGES[getattr(e, name)] == RAISED_AS[how], (path.name, how, name)
    assert seen >= 40  # the scan finds the raises (a changed pattern would find none)


def test_each_error_status_of_each_operation_names_its_messages() -> None:
    """Under each error status, the messages it may carry: all of them (``documented``), or
    those of the operation alone (the statistics' 404: "person not found")."""
    for status in (400, 403, 404, 409, 413, 422, 503):
        described = e.documented(status)[status]["description"]
        assert all(f'"{m}"' in described for m, of in e.MESSAGES.items() if of == status)
    checked = 0
    for path, ops in DOC["paths"].items():
        for method, op in ops.items():
            for status, answer in op["responses"].items():
                if int(status) < 400:
                    continue
                named = re.findall(r'"([^"]+)"', answer["description"])
                assert named, (method, path, status)
                assert all(e.MESSAGES.get(m) == int(status) for m in named), (method, path,
                                                                             status, named)
                checked += 1
    assert checked > 100


def test_the_api_tests_check_of_each_refusal_fails_on_a_message_not_documented() -> None:
    import httpx
    import pytest

    from .conftest import stable_detail

    request = httpx.Request("POST", "http://test/api/games/x/moves")

    def answer(status: int, detail: str) -> httpx.Response:
        return httpx.Response(status, json={"detail": detail}, request=request)

    stable_detail(answer(409, e.STALE_VERSION))
    stable_detail(answer(404, "Not Found"))  # the router's, for a path of no operation
    with pytest.raises(AssertionError):
        stable_detail(answer(409, "something new"))
    with pytest.raises(AssertionError):
        stable_detail(answer(404, e.STALE_VERSION))  # a message with another status
