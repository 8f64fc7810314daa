"""The site's HTML as the server renders it: every page in every language, its head (title,
description, hreflang alternates, manifest), and the worked example equal to the engine's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scopone.engine import Round, Rules, parse_cards
from scopone.engine.cards import mask_of
from scopone.engine.scoring import score_round
from scopone.web import create_app
from scopone.web.texts import LANGS, RULES_PATH, SITE, card_name
from scopone.web.worked_example import CAPTURES, PILE_A, PILE_B, SCOPE

from .conftest import make_settings

PAGES = [("/", lang) for lang in LANGS] + [(RULES_PATH[lang], lang) for lang in LANGS]
SECTIONS = ("rules", "scoring", "example", "levels", "strategy", "controls", "history",
            "questions")


class Page(HTMLParser):
    """What the tests read from a page: elements with their attributes, and texts by id."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: dict[str, str] = {}
        self._open: list[str] = []  # ids of the elements being read
        self._stack: list[tuple[str, str | None]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.tags.append((tag, a))
        if tag in ("meta", "link", "br", "img", "input"):
            return
        self._stack.append((tag, a.get("id")))
        if a.get("id"):
            self._open.append(a["id"])
            self.text[a["id"]] = ""

    def handle_endtag(self, tag: str) -> None:
        while self._stack:
            t, ident = self._stack.pop()
            if ident:
                self._open.remove(ident)
            if t == tag:
                break

    def handle_data(self, data: str) -> None:
        for ident in self._open:
            self.text[ident] += data

    def all(self, tag: str, **match: str) -> list[dict[str, str]]:
        return [a for t, a in self.tags if t == tag
                and all(a.get(k.replace("_", "-")) == v for k, v in match.items())]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(make_settings(Path(tmp_path_factory.mktemp("pages"))))
    with TestClient(app) as c:
        yield c


def get_page(client: TestClient, path: str, **headers: str) -> Page:
    r = client.get(path, headers=headers)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/html")
    return Page(r.text)


@pytest.mark.parametrize(("path", "lang"), PAGES)
def test_every_page_in_every_language(client: TestClient, path: str, lang: str) -> None:
    page = get_page(client, path + ("?lang=" + lang if path == "/" else ""))
    assert page.all("html")[0]["lang"] == lang
    assert len(page.all("h1")) == 1
    descriptions = page.all("meta", name="description")
    assert len(descriptions) == 1 and len(descriptions[0]["content"]) > 50
    assert descriptions[0]["content"] in (SITE[lang]["game_description"],
                                          SITE[lang]["rules_description"])
    assert page.all("link", rel="manifest")[0]["href"] == "/manifest.webmanifest"
    assert page.all("meta", name="theme-color")
    # hreflang alternates: one per language and a default, absolute, each answering 200.
    alternates = {a["hreflang"]: a["href"] for a in page.all("link", rel="alternate")}
    assert set(alternates) == {*LANGS, "x-default"}
    for href in alternates.values():
        assert href.startswith("http://testserver/")
        assert client.get(href).status_code == 200
    # The language choice links to the same page in each language, the current one marked.
    switch = [a for a in page.all("a") if a.get("data-lang")]
    assert [a["hreflang"] for a in switch] == list(LANGS)
    assert [a["data-lang"] for a in switch if "aria-current" in a] == [lang]
    # Landmarks: a banner, a navigation, one main.
    assert page.all("header") and page.all("nav") and len(page.all("main")) == 1


def test_the_game_page_speaks_the_browsers_language(client: TestClient) -> None:
    page = get_page(client, "/", **{"accept-language": "it-IT,it;q=0.9,en;q=0.5"})
    assert page.all("html")[0]["lang"] == "it"
    assert page.text["nav-rules"].strip() == "Regole"
    assert page.all("a", id="nav-rules")[0]["href"] == RULES_PATH["it"]
    page = get_page(client, "/", **{"accept-language": "fr-FR"})
    assert page.all("html")[0]["lang"] == "en"


@pytest.mark.parametrize("lang", LANGS)
def test_the_rule_page_has_every_section(client: TestClient, lang: str) -> None:
    page = get_page(client, RULES_PATH[lang])
    ids = [a.get("id") for a in page.all("section")]
    assert ids == list(SECTIONS)
    toc = [a["href"] for a in page.all("a") if a.get("href", "").startswith("#")]
    assert [h for h in toc if h != "#main"] == [f"#{s}" for s in SECTIONS]
    for s in SECTIONS:
        assert page.text[f"h-{s}"].strip()
    assert page.all("a", href=f"/?lang={lang}")  # back to the game, in this language
    # Every card is named as in the game, its rank's numeral first.
    cards = page.all("span", role="img")
    assert len(cards) > 40
    for card in cards:
        assert card["aria-label"] == card_name(lang, card["data-code"])


@pytest.mark.parametrize("lang", LANGS)
def test_the_worked_example_is_the_engines(client: TestClient, lang: str) -> None:
    html = client.get(RULES_PATH[lang]).text
    piles = (mask_of(parse_cards(PILE_A)), mask_of(parse_cards(PILE_B)))
    score = score_round(piles, SCOPE, Rules())
    napola = score_round(piles, SCOPE, Rules(napola=True))
    # The seed's example: 6 to 2, and 10 with Napola.
    assert score.points == (6, 2) and napola.points == (10, 2)
    rows = {cat: re.findall(r"<td[^>]*>(.*?)</td>", body)
            for cat, body in re.findall(r'<tr data-cat="([\w-]+)">(.*?)</tr>', html, re.S)}
    a, b = score.tallies
    yes, no = SITE[lang]["yes"], SITE[lang]["no"]
    figures = {"carte": (a.cards, b.cards), "denari": (a.denari, b.denari),
               "settebello": (yes if a.settebello else no, yes if b.settebello else no),
               "primiera": (a.primiera, b.primiera), "scope": (a.scope, b.scope)}
    for cat, (fa, fb) in figures.items():
        points = getattr(score, cat)
        assert rows[cat] == [str(fa), str(fb), str(points[0]), str(points[1])], cat
    assert rows["total"] == [str(p) for p in score.points]
    assert rows["napola"] == [str(p) for p in napola.napola]
    assert rows["total-napola"] == [str(p) for p in napola.points]
    # The prose carries the same figures: the primiera sums and the round's points.
    page = Page(html)
    prose = page.text["example"]
    assert str(a.primiera) in prose and str(b.primiera) in prose
    # Both piles are shown, every card once.
    shown_cards = [c["data-code"] for c in page.all("span", role="img")]
    assert set(parse_cards(PILE_A + " " + PILE_B)) <= set(parse_cards(shown_cards))


def test_the_capture_examples_are_the_engines_legal_moves(client: TestClient) -> None:
    html = client.get(RULES_PATH["en"]).text
    figures = re.findall(r'<figure class="capture">(.*?)</figure>', html, flags=re.S)
    assert len(figures) == len(CAPTURES)
    for (table, card), figure in zip(CAPTURES, figures, strict=True):
        rnd = Round.from_deal([parse_cards(card), [], [], []], parse_cards(table), dealer=3)
        expected = sorted(sorted(str(c) for c in m.capture) for m in rnd.legal_moves())
        options = re.findall(r"<li>(.*?)</li>", figure, flags=re.S)
        shown = sorted(sorted(re.findall(r'data-code="(\w+)"', o)) for o in options)
        assert shown == expected


def test_the_manifest_and_its_icons(client: TestClient) -> None:
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/manifest+json")
    m: dict[str, Any] = r.json()
    assert m["name"] == "Scopone Scientifico" and m["start_url"] == "/"
    assert m["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", m["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", m["background_color"])
    sizes = set()
    for icon in m["icons"]:
        assert icon["src"].startswith("/static/")  # our own origin
        got = client.get(icon["src"])
        assert got.status_code == 200 and got.headers["content-type"] == icon["type"]
        if icon["type"] == "image/png":
            assert got.content[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = (int.from_bytes(got.content[i:i + 4], "big") for i in (16, 20))
            assert f"{width}x{height}" == icon["sizes"]
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes
    assert any(i.get("purpose") == "maskable" for i in m["icons"])


def test_robots_and_the_pages_are_not_in_the_api_document(client: TestClient) -> None:
    assert "Disallow: /api/" in client.get("/robots.txt").text
    paths = client.get("/openapi.json").json()["paths"]
    assert not {"/", "/manifest.webmanifest", "/robots.txt", *RULES_PATH.values()} & set(paths)
