"""The site's HTML as the server renders it: every page in every language, its head (title,
description, hreflang alternates, manifest), and the worked example equal to the engine's."""

from __future__ import annotations

import html
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
    # q=0: a language the reader does not want (it was chosen all the same, QA helper-83).
    page = get_page(client, "/", **{"accept-language": "fr-FR, it;q=0"})
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


def js_texts(client: TestClient, path: str) -> dict[str, dict[str, str]]:
    """The game's own texts per language from one of its JS text tables (``key: 'text'``)."""
    source = client.get(path).text
    blocks = re.findall(r"^  (\w\w): \{\n(.*?)^  \},", source, flags=re.S | re.M)
    assert {lang for lang, _ in blocks} >= set(LANGS), path
    return {lang: {k: v.replace("\\u2019", "\u2019")
                   for k, v in re.findall(r"(\w+): '((?:[^'\\]|\\.)*)'", body)}
            for lang, body in blocks}


def section_html(html: str, ident: str) -> str:
    found = re.search(rf'<section id="{ident}".*?</section>', html, flags=re.S)
    assert found, ident
    return found.group(0)


def plain(html: str) -> str:
    """The text of some HTML, tags dropped and white space made single."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture(scope="module")
def game_texts(client: TestClient) -> dict[str, dict[str, str]]:
    """Every text the game page shows, per language: the coach's, the tables' and its own; where
    a key is in two tables the game's own wins (the statistics page has its own "level")."""
    tables = [js_texts(client, f"/static/js/{name}")
              for name in ("coach-text.js", "i18n-tables.js", "i18n.js")]
    return {lang: {k: v for table in tables for k, v in table[lang].items()} for lang in LANGS}


#: How the rule pages write the numbers of cards dealt.
NUMBER_WORDS = {"en": {4: "four", 9: "nine", 10: "ten"},
                "it": {4: "quattro", 9: "nove", 10: "dieci"},
                "de": {4: "vier", 9: "neun", 10: "zehn"}}
#: The words rule 2 uses for "you choose"; rule 1 must use them too (SPEC §1: the player chooses).
YOU_CHOOSE = {"en": "you choose", "it": "scegli tu", "de": "wählst du"}


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_name_the_dealer_as_the_game_does(client: TestClient, lang: str,
                                                    game_texts: dict[str, dict[str, str]]) -> None:
    # The word is the one under the game's dealer mark (render.js), and the mark is shown.
    rules = plain(section_html(client.get(RULES_PATH[lang]).text, "rules"))
    dealer = game_texts[lang]["dealer"]
    assert rules.lower().count(dealer.lower()) >= 3, dealer  # drawn, leads after, plays last
    assert "●" in rules


@pytest.mark.parametrize("lang", LANGS)
def test_the_example_never_calls_the_players_pair_by_the_opponents_short_name(
        client: TestClient, lang: str, game_texts: dict[str, dict[str, str]]) -> None:
    """The example's table names the pairs as the game's bar does ("Wir"/"Ihr"); its text said
    "Ihr habt 22 Karten" of the reader's own pair, the name the table gives the opponents."""
    example = section_html(client.get(RULES_PATH[lang]).text, "example")
    prose = plain(re.sub(r"<table.*?</table>", " ", example, flags=re.S))
    theirs = game_texts[lang]["pairB"]
    assert re.search(rf"\b{theirs}\b", prose) is None, prose
    assert theirs in plain(example)  # the table's short name, as the game's


@pytest.mark.parametrize("lang", LANGS)
def test_capture_rule_one_lets_the_player_choose(client: TestClient, lang: str) -> None:
    rules = section_html(client.get(RULES_PATH[lang]).text, "rules")
    first, second = (plain(li) for li in re.findall(r"<li>.*?</li>", rules, flags=re.S)[:2])
    assert YOU_CHOOSE[lang] in second  # the sums rule, as it always said
    assert YOU_CHOOSE[lang] in first


@pytest.mark.parametrize("lang", LANGS)
def test_the_controls_name_every_key_and_button_of_the_game(
        client: TestClient, lang: str, game_texts: dict[str, dict[str, str]]) -> None:
    html = client.get(RULES_PATH[lang]).text
    controls = section_html(html, "controls")
    text = plain(controls)
    texts = game_texts[lang]
    # Every letter of the game's key help, with the game's word for what it does.
    keys = re.findall(r"· ([A-Z]) ([^·]+)", texts["keysHelp"])
    assert {k for k, _ in keys} >= {"N", "L", "D", "H", "C", "R"}
    assert re.search(r"· \? \w", texts["keysHelp"])  # "?" opens this page's controls
    kbd = set(re.findall(r"<kbd>(.*?)</kbd>", controls))
    for key, word in keys:
        assert key in kbd, key
        assert word.strip().lower() in text.lower(), (key, word)
    # Every button of the game page's bar, by the name it shows in this language.
    index = re.search(r'<div id="controls">(.*?)</div>', client.get(f"/?lang={lang}").text,
                      flags=re.S)
    assert index
    bar = re.findall(r'<button type="button" id="btn-(\w+)"', index.group(1))
    label = {"new": "newMatch", "friends": "playFriends", "level": "level", "napola": "napola",
             "design": "design", "settings": "settings", "hint": "hint", "seen": "seen",
             "review": "review", "menu": "menu"}
    assert set(bar) == set(label)
    for button in bar:
        assert f"<i>{texts[label[button]]}</i>" in controls, button
    # What starts a new match (the game's note): Napola, the variant and the target.
    assert texts["napola"] in texts["newMatchNote"]
    for setting in ("variant", "targetLabel"):
        assert f"<i>{texts[setting]}</i>" in controls, setting


@pytest.mark.parametrize("lang", LANGS)
def test_the_pages_know_tables_with_friends(client: TestClient, lang: str,
                                            game_texts: dict[str, dict[str, str]]) -> None:
    html = client.get(RULES_PATH[lang]).text
    friends = f"<i>{game_texts[lang]['playFriends']}</i>"
    intro = re.search(r"<p>.*?</p>", section_html(html, "rules"), flags=re.S)
    assert intro and friends in intro.group(0)
    assert friends in section_html(html, "questions")


@pytest.mark.parametrize("lang", LANGS)
def test_the_faq_deals_both_variants(client: TestClient, lang: str) -> None:
    faq = section_html(client.get(RULES_PATH[lang]).text, "questions")
    answers = [plain(dd).lower() for dd in re.findall(r"<dd>.*?</dd>", faq, flags=re.S)]
    words = NUMBER_WORDS[lang]
    dealt = [a for a in answers if "classico" in a and words[Rules().hand_size] in a]
    assert len(dealt) == 1, answers
    classico = Rules(variant="classico")
    assert words[classico.hand_size] in dealt[0] and words[classico.table_size] in dealt[0]


@pytest.mark.parametrize(("lang", "captions"), [
    ("it", ("Carte prese dalla tua coppia", "Carte prese dagli avversari")),
    ("en", ("Cards taken by your pair", "Cards taken by the opponents")),
    ("de", ("Von deinem Paar genommene Karten", "Von den Gegnern genommene Karten")),
])
def test_the_pile_captions_are_sentences(client: TestClient, lang: str,
                                         captions: tuple[str, str]) -> None:
    example = section_html(client.get(RULES_PATH[lang]).text, "example")
    # The first two figures are the piles (the primiera's follow), each with its card count.
    figures = re.findall(r'<figure class="pile-fig">\s*<figcaption>(.*?)</figcaption>', example,
                         flags=re.S)
    shown = [plain(c) for c in figures[:2]]
    counts = [len(parse_cards(PILE_A)), len(parse_cards(PILE_B))]
    assert shown == [f"{c}: {n}" for c, n in zip(captions, counts, strict=True)]


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


BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.mark.parametrize(("path", "lang"), [("/nope", "en"), ("/t/", "it"), ("/en/Rules", "de")])
def test_a_person_at_an_address_that_leads_nowhere_gets_a_page(client: TestClient, path: str,
                                                              lang: str) -> None:
    """A browser at a wrong address (typed wrong, a link cut short) gets a 404 page in its
    language with the ways to the game and the rules, not the API's JSON."""
    r = client.get(path, headers={"Accept": BROWSER, "Accept-Language": lang})
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    page = Page(r.text)
    assert page.all("html")[0]["lang"] == lang
    text = html.unescape(plain(r.text))
    assert SITE[lang]["missing_title"] in text and SITE[lang]["missing_text"] in text
    links = {a["href"] for a in page.all("a")}
    assert {f"/?lang={lang}", RULES_PATH[lang]} <= links


@pytest.mark.parametrize("path", ["/api/games/nope", "/api/nope", "/static/js/missing.js"])
def test_the_api_and_static_files_answer_404_in_json_even_to_a_browser(
        client: TestClient, path: str) -> None:
    for accept in (BROWSER, "*/*"):
        r = client.get(path, headers={"Accept": accept})
        assert r.status_code == 404 and r.headers["content-type"] == "application/json", path
        assert r.json()["detail"] in ("game not found", "Not Found")
    r = client.get("/nope", headers={"Accept": "application/json"})  # a script, not a person
    assert r.status_code == 404 and r.json() == {"detail": "Not Found"}


def test_static_files_are_compressed_and_nothing_else_is(client: TestClient) -> None:
    """Scripts and styles go out gzipped to a browser that takes it (a first visit on a phone
    loads a third of the bytes); an API answer is never held back to be compressed."""
    r = client.get("/static/js/main.js", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in r.headers["vary"].lower()
    assert "export" in r.text or "import" in r.text  # decoded by the client as a browser does
    assert int(r.headers["content-length"]) < len(r.content) / 2
    plain = client.get("/static/js/main.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == r.content
    game = client.post("/api/games", json={}, headers={"Accept-Encoding": "gzip"})
    assert game.status_code == 201 and "content-encoding" not in game.headers


def test_the_pages_scripts_know_the_rule_pages_addresses() -> None:
    """site.js links to the rule pages from pages without the site's navigation (a table's
    round summary): its addresses are the server's."""
    import json
    import re

    from scopone.web.texts import RULES_PATH

    text = (Path(__file__).parents[2] / "static" / "js" / "site.js").read_text()
    found = re.search(r"export const RULES_PATH = (\{[^}]*\});", text)
    assert found is not None
    as_json = re.sub(r"(\w+):", r'"\1":', found.group(1)).replace("'", '"')
    assert json.loads(as_json) == RULES_PATH


@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_the_statistics_page_starts_in_the_browsers_language_with_the_rules_at_hand(
        client: TestClient, lang: str) -> None:
    """Before its script reads the language chosen in the game, the statistics page is in the
    browser's (it was English whatever the browser's), and it links to the rules."""
    r = client.get("/stats", headers={"Accept": BROWSER, "Accept-Language": lang})
    assert r.status_code == 200
    page = Page(r.text)
    assert page.all("html")[0]["lang"] == lang
    assert RULES_PATH[lang] in {a["href"] for a in page.all("a")}
