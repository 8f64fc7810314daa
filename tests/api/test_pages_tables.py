"""The table page /t/{code}: the same page for any code, which is never written into it."""

from __future__ import annotations

import pytest

from .conftest import Api

CODES = [
    "AbC123xyz_-0",  # the shape the server makes (token_urlsafe(9))
    "x",
    "0" * 200,
    "%3Cscript%3Ealert(1)%3C%5Cscript%3E",  # "<script>alert(1)<\\script>" once decoded
    "%22%3E%3Cimg%20src%3Dx%3E",  # '"><img src=x>'
    "caf%C3%A9",  # "café"
    "a'b\"c",
]


@pytest.mark.parametrize("code", CODES)
def test_any_code_gets_the_page_and_the_code_is_not_in_it(api: Api, code: str) -> None:
    r = api.client.get(f"/t/{code}")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    page = r.text
    assert '<script type="module" src="/static/js/table.js">' in page
    assert 'id="lobby"' in page and 'id="board"' in page
    # The script reads the code from the address: nothing of it, raw or decoded, is in the page.
    assert "<script>alert" not in page and "<img src=x>" not in page
    if len(code) > 3:
        assert code not in page


def test_the_page_is_the_same_for_every_code(api: Api) -> None:
    pages = {api.client.get(f"/t/{code}").text for code in CODES}
    assert len(pages) == 1


def test_the_page_has_the_security_headers_and_no_referrer(api: Api) -> None:
    r = api.client.get("/t/AbC123xyz_-0")
    # No referrer: the invite code in the address must not leak to where links lead.
    assert r.headers["referrer-policy"] == "no-referrer"
    assert "script-src" not in r.headers["content-security-policy"]  # default-src 'self' only
    assert r.headers["content-security-policy"].startswith("default-src 'self'")


def test_the_page_is_not_in_the_openapi_document(api: Api) -> None:
    paths = api.client.get("/openapi.json").json()["paths"]
    assert not any(p.startswith("/t/") for p in paths)


def test_a_path_below_a_code_is_not_found(api: Api) -> None:
    assert api.client.get("/t/abc/def").status_code == 404
    # An encoded slash is a slash to the router: no code, no page, nothing echoed.
    r = api.client.get("/t/%3Cscript%3E%2Fx")
    assert r.status_code == 404 and "<script>" not in r.text
    assert api.client.get("/t/").status_code == 404
