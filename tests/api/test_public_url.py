"""The absolute links the pages print (canonical, hreflang alternates) start with the configured
``public_url``, never with the Host header a client sent: behind a shared cache one forged Host
would otherwise be served to everyone."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scopone.__main__ import main
from scopone.web import Settings, create_app
from scopone.web.texts import LANGS, RULES_PATH

from .conftest import make_settings
from .test_pages import Page

PUBLIC = "https://scopone.example"
FORGED = "attacker.example"
PATHS = ["/", RULES_PATH["en"], RULES_PATH["it"], RULES_PATH["de"]]


def _links(client: TestClient, path: str, host: str) -> tuple[str, dict[str, str], list[str]]:
    """The page at ``path`` asked for with ``host``: its whole text, its canonical and
    alternate links (hreflang: href) and every absolute address in it."""
    r = client.get(path, headers={"host": host})
    assert r.status_code == 200, r.text
    page = Page(r.text)
    links = {a.get("hreflang", "canonical"): a["href"] for a in page.all("link")
             if a.get("rel") in ("canonical", "alternate")}
    absolute = [v for _, a in page.tags for v in a.values() if "://" in v]
    return r.text, links, absolute


@pytest.mark.parametrize("public", [PUBLIC, PUBLIC + "/"])
def test_a_forged_host_appears_nowhere_when_the_public_url_is_set(tmp_path: Path,
                                                                  public: str) -> None:
    app = create_app(make_settings(tmp_path, public_url=public))
    with TestClient(app) as client:
        for path in PATHS:
            text, links, absolute = _links(client, path, FORGED)
            assert FORGED not in text, path
            assert absolute and all(href.startswith(PUBLIC + "/") for href in absolute), absolute
            assert set(links) >= {*LANGS, "x-default"}
            if path != "/":
                assert links["canonical"] == PUBLIC + path
                assert {links[lang] for lang in LANGS} == {PUBLIC + RULES_PATH[lang]
                                                          for lang in LANGS}
                assert links["x-default"] == PUBLIC + RULES_PATH["en"]
            else:
                assert links["x-default"] == PUBLIC + "/"


def test_without_a_public_url_the_links_are_the_requests_own_address(tmp_path: Path) -> None:
    """Someone playing on their own machine: the address they typed, as before."""
    app = create_app(make_settings(tmp_path))
    with TestClient(app) as client:
        _, links, _ = _links(client, RULES_PATH["it"], "127.0.0.1:8123")
        assert links["canonical"] == "http://127.0.0.1:8123" + RULES_PATH["it"]
        _, links, _ = _links(client, "/", "localhost:8000")
        assert links["x-default"] == "http://localhost:8000/"


def test_the_public_url_comes_from_the_environment() -> None:
    assert Settings.from_env({"SCOPONE_PUBLIC_URL": PUBLIC}).public_url == PUBLIC
    assert Settings.from_env({"SCOPONE_PUBLIC_URL": ""}).public_url == ""
    assert Settings.from_env(Settings(public_url=PUBLIC).to_env()).public_url == PUBLIC


@pytest.mark.parametrize(("url", "problem"), [
    ("scopone.example", "is not http or https"), ("ftp://scopone.example", "is not http"),
    ("https://", "has no host"), ("https://:443", "has no host"),
    ("https://scopone.example/play", "has a path"), ("https://scopone.example//", "has a path"),
    ("https://scopone.example/?a=1", "a query"), ("https://scopone.example?", "a query"),
    ("https://scopone.example#top", "a fragment"), ("https://me@scopone.example", "user name"),
    ("https://scopone.example:99999", "bad port"), ("https://scopone.example:x", "bad port"),
    ("https://scopone .example", "a blank"), (" https://scopone.example", "a blank"),
    ("https://scopone.example\n", "a blank"),
])
def test_a_malformed_public_url_is_refused_at_start(url: str, problem: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="SCOPONE_PUBLIC_URL") as refused:
        Settings(public_url=url)
    assert problem in str(refused.value) and repr(url) in str(refused.value)
    with pytest.raises(ValueError, match=problem):
        Settings.from_env({"SCOPONE_PUBLIC_URL": url})
    # The server does not start: it says why before it opens the database or a port.
    monkeypatch.setenv("SCOPONE_PUBLIC_URL", url)
    with pytest.raises(ValueError, match="SCOPONE_PUBLIC_URL"):
        main(["serve", "--db", "/nonexistent/never-made.sqlite3"])


@pytest.mark.parametrize("url", ["https://scopone.example", "https://scopone.example/",
                                 "http://localhost:8000", "https://[::1]:8443", ""])
def test_a_public_url_of_a_scheme_and_a_host_is_taken(url: str) -> None:
    assert Settings(public_url=url).public_url == url
