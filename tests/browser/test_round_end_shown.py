"""The round's end as the page shows it: the last card is seen on the table, and the cards left
there are seen going to the pile of the pair that took last (SPEC §1), and are said; only then
does the summary open. A page opened at round over shows the summary at once."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from scopone.engine import Round, parse_cards
from scopone.web.store import SqliteStore

from .conftest import DESKTOP, TEST_PREFS, Server
from .test_match import SUMMARY_OPEN, game_id

pytestmark = pytest.mark.browser

# Seat 0 leads (dealer 3): 5D takes 5C (a scopa), then 2B, 9C and 3S are laid: 3S, the round's
# last card, takes nothing, and the three cards left go to us (seat 0 took last).
LAID_LAST = ["5D", "2B", "9C", "3S"]
# The same, but the last card 2S takes 2B and leaves 9C, which goes to them (seat 3 took last).
TAKES_LAST = ["5D", "2B", "9C", "2S"]
# Seat 1 leads (dealer 0) and takes 5C; 2B, 9C are laid, and seat 0's own 3S is the last card.
MINE_LAST = ["3S", "5D", "2B", "9C"]

# Everything the page draws, in order (``window.seen``), from inside the page so that no moment
# is missed whatever the speed: the cards on the table (a card still flying in, drawn invisible,
# is not yet on it), each pile's count, each card in flight (the card it shows and where it goes:
# "table", "pile-0" or "pile-1"), each text of the live region, and the summary opening.
# A card in flight is told by its drawing, learned from the table and the hand.
WATCH = """() => {
  window.seen = [];
  const log = (...entry) => window.seen.push(entry);
  const drawings = new Map();
  const table = document.getElementById('table-cards');
  const onTable = () => [...table.querySelectorAll('.card')]
    .filter((c) => !c.classList.contains('ghost')).map((c) => c.dataset.code);
  const count = (pair) => {
    const b = document.querySelector(`#pile-${pair} .pile-count b`);
    return b ? Number(b.textContent) : null;
  };
  const whereTo = (el) => {
    const anim = el.getAnimations()[0];
    if (!anim) return 'nowhere';
    const frames = anim.effect.getKeyframes();
    const m = /translate\\(([^,]+)px,\\s*([^)]+)px\\)/.exec(frames[frames.length - 1].transform);
    if (!m) return 'table'; // it lands where it was put: on its place on the table
    const x = parseFloat(el.style.left) + parseFloat(m[1]);
    const y = parseFloat(el.style.top) + parseFloat(m[2]);
    for (const pair of [0, 1]) {
      const r = document.querySelector(`#pile-${pair} .pile-stack`).getBoundingClientRect();
      if (Math.abs(r.left - x) < 2 && Math.abs(r.top - y) < 2) return `pile-${pair}`;
    }
    return `${Math.round(x)},${Math.round(y)}`;
  };
  const summary = document.getElementById('summary');
  const live = document.getElementById('announce');
  let was = {table: JSON.stringify(onTable()), counts: [count(0), count(1)], said: live.textContent,
             open: !summary.hidden, score: document.getElementById('score-a').textContent + '-'
               + document.getElementById('score-b').textContent};
  new MutationObserver((records) => {
    for (const c of document.querySelectorAll('#table-cards .card, #hand .card'))
      drawings.set(c.querySelector('svg').outerHTML, c.dataset.code);
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (n.classList && n.classList.contains('flyer'))
          log('fly', drawings.get(n.querySelector('svg').outerHTML) || '?', whereTo(n));
      }
    }
    const now = JSON.stringify(onTable());
    if (now !== was.table) { was.table = now; log('table', onTable()); }
    for (const pair of [0, 1]) {
      const n = count(pair);
      if (n !== was.counts[pair]) { was.counts[pair] = n; log('pile', pair, n); }
    }
    if (live.textContent !== was.said) { was.said = live.textContent; log('said', was.said); }
    const score = document.getElementById('score-a').textContent + '-'
      + document.getElementById('score-b').textContent;
    if (score !== was.score) { was.score = score; log('score', score); }
    if (!summary.hidden !== was.open) { was.open = !summary.hidden; if (was.open) log('summary'); }
  }).observe(document.body, {childList: true, subtree: true, attributes: true,
                             characterData: true});
}"""

# From the very start of a page (an init script, before the body exists): whether anything was
# animated or drawn on the table before the summary opened, and each pile count drawn.
FROM_START = """(() => {
  window.seen = [];
  new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (n.classList && n.classList.contains('flyer')) window.seen.push(['fly']);
      }
    }
    if (document.querySelector('#table-cards .card')) window.seen.push(['table']);
    for (const pair of [0, 1]) {
      const b = document.querySelector(`#pile-${pair} .pile-count b`);
      if (b) window.seen.push(['pile', pair, Number(b.textContent)]);
    }
    const summary = document.getElementById('summary');
    if (summary && !summary.hidden) window.seen.push(['summary']);
  }).observe(document, {childList: true, subtree: true, attributes: true, characterData: true});
})();"""


def first(seen: list[list[Any]], *entry: Any, after: int = -1) -> int:
    """The index of the first entry of ``seen`` after ``after`` that starts with ``entry``."""
    for i, e in enumerate(seen):
        if i > after and tuple(e[:len(entry)]) == entry:
            return i
    raise AssertionError(f"never seen: {entry} (after {after}) in {seen}")


def flights(seen: list[list[Any]], after: int, before: int) -> dict[str, str]:
    """Where each card put in flight between the two indices went."""
    return {e[1]: e[2] for e in seen[after + 1:before] if e[0] == "fly"}


def play_to_the_summary(page: Any, play: Callable[[], None]) -> list[list[Any]]:
    page.wait_for_selector("#hand.playable")
    page.evaluate(WATCH)
    play()
    page.wait_for_function(SUMMARY_OPEN)
    return list(page.evaluate("() => window.seen"))


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_last_card_laid_by_a_computer_is_seen_and_the_rest_goes_to_the_last_taker(
        open_page: Callable[..., Any], server: Server, motion: str) -> None:
    # At the normal pace; with reduced motion nothing glides, and the rest is as it was.
    gid = server.insert(LAID_LAST, "5C", dealer=3)
    page = open_page({**DESKTOP, "reduced_motion": motion}, game=gid,
                     prefs={**TEST_PREFS, "speed": "normal"})
    moving = motion != "reduce"
    seen = play_to_the_summary(page, lambda: page.click("#hand .card[data-code='5D']"))
    view = server.game(gid)
    assert view["status"] == "round_over" and view["last_taker"] == 0
    assert [p["card"] for p in view["history"]] == ["5D", "2B", "9C", "3S"]
    # 3S flies in from the left opponent's seat and lies on the table with the two others...
    landed = first(seen, "fly", "3S", "table" if moving else "nowhere")
    on_table = first(seen, "table", ["9C", "3S", "2B"], after=landed)
    # ...while our pile still holds what we took (5D 5C); then all three go to our pile, the
    # count follows them, and the live region says where they went. Then the summary.
    assert seen[:on_table].count(["pile", 0, 2]) == 1 and ["pile", 0, 5] not in seen[:on_table]
    emptied = first(seen, "table", [], after=on_table)
    grown = first(seen, "pile", 0, 5, after=on_table)
    summary = first(seen, "summary")
    to = "pile-0" if moving else "nowhere"
    assert flights(seen, on_table, summary) == {"2B": to, "9C": to, "3S": to}
    said = first(seen, "said", "Left opponent plays Three of Swords. What is left on the table"
                 " goes to us: Knight of Cups, Three of Swords and Two of Clubs", after=on_table)
    assert max(emptied, grown, said) < summary
    # The score bar shows the round's points with the summary, not as the last card starts.
    assert first(seen, "score") > max(emptied, grown)
    assert page.inner_text("#score-a") == str(view["score"][0]) != "0"
    assert [e for e in seen if e[0] == "pile" and e[1] == 1] == []  # nothing went to them
    assert int(page.inner_text("#pile-0 .pile-count b")) == 5
    assert page.query_selector_all(".flyer") == []


def test_the_card_left_by_the_last_capture_is_seen_going_to_the_takers_pile(
        open_page: Callable[..., Any], server: Server) -> None:
    # In German: the announcement is in the game's language.
    gid = server.insert(TAKES_LAST, "5C", dealer=3)
    page = open_page(DESKTOP, game=gid, prefs={**TEST_PREFS, "lang": "de"})
    seen = play_to_the_summary(page, lambda: page.click("#hand .card[data-code='5D']"))
    view = server.game(gid)
    assert view["history"][-1] == {"seat": 3, "card": "2S", "capture": ["2B"], "scopa": False}
    assert view["last_taker"] == 3 and sorted(view["piles"][1]) == ["2B", "2S", "9C"]
    # 2S takes 2B: their pile counts those two while 9C still lies alone on the table...
    taken = first(seen, "pile", 1, 2)
    alone = first(seen, "table", ["9C"])
    assert flights(seen, -1, alone).get("2B") == "pile-1"
    # ...then 9C goes to their pile too, and is said to, before the summary.
    gone = first(seen, "pile", 1, 3, after=max(taken, alone))
    summary = first(seen, "summary")
    assert flights(seen, alone, summary) == {"9C": "pile-1"}
    said = first(seen, "said", "Gegner links spielt Zwei Schwerter und nimmt Zwei Stäbe. Was auf"
                 " dem Tisch übrig ist, geht an sie: Reiter Kelche", after=alone)
    assert first(seen, "table", [], after=alone) < summary and max(gone, said) < summary
    assert int(page.inner_text("#pile-1 .pile-count b")) == 3


def test_my_own_last_card_is_seen_on_the_table_and_the_rest_goes_to_them(
        open_page: Callable[..., Any], server: Server) -> None:
    # In Italian, and by keys: 1 chooses the only card, Enter plays it.
    gid = server.insert(MINE_LAST, "5C", dealer=0)
    page = open_page(DESKTOP, game=gid, prefs={**TEST_PREFS, "lang": "it"})

    def play() -> None:
        page.keyboard.press("1")
        page.wait_for_selector("#hand .card.selected")
        page.keyboard.press("Enter")

    seen = play_to_the_summary(page, play)
    assert game_id(page) == gid
    view = server.game(gid)
    assert view["history"][-1]["seat"] == 0 and view["last_taker"] == 1
    landed = first(seen, "fly", "3S", "table")
    on_table = first(seen, "table", ["9C", "3S", "2B"], after=landed)
    assert ["pile", 1, 5] not in seen[:on_table]
    grown = first(seen, "pile", 1, 5, after=on_table)
    summary = first(seen, "summary")
    assert flights(seen, on_table, summary) == {"2B": "pile-1", "9C": "pile-1", "3S": "pile-1"}
    said = first(seen, "said", "Giochi Tre di Spade. Quel che resta in tavola va a loro:"
                 " Cavallo di Coppe, Tre di Spade e Due di Bastoni", after=on_table)
    assert max(grown, said) < summary
    assert int(page.inner_text("#pile-1 .pile-count b")) == 5


def test_a_page_reloaded_at_round_over_shows_the_summary_at_once(
        open_page: Callable[..., Any], server: Server) -> None:
    gid = server.insert(LAID_LAST, "5C", dealer=3)
    page = open_page(DESKTOP, game=gid)
    page.wait_for_selector("#hand.playable")
    page.click("#hand .card[data-code='5D']")
    page.wait_for_function(SUMMARY_OPEN)
    assert server.game(gid)["status"] == "round_over"
    page.context.add_init_script(FROM_START)
    page.reload()
    page.wait_for_function(SUMMARY_OPEN)
    seen = page.evaluate("() => window.seen")
    # Nothing flew and nothing was drawn on the table: the page opened on the round's end, and
    # its piles were drawn as they ended (ours with the leftovers: 5D 5C 2B 9C 3S).
    assert ["fly"] not in seen and ["table"] not in seen, seen
    assert {e[2] for e in seen if e[:2] == ["pile", 0]} <= {0, 5}
    assert int(page.inner_text("#pile-0 .pile-count b")) == 5
    assert page.query_selector_all(".flyer") == []
    assert page.inner_text("#summary-title") == "Round 1"


def test_a_seat_holding_one_card_is_named_so(open_page: Callable[..., Any],
                                             server: Server) -> None:
    """What a screen reader hears of each seat on the round's last cards: one card, not
    "1 cards" (nor "1 carte", "1 Karten")."""
    gid = server.insert(LAID_LAST, "5C", dealer=3)
    label = "el => el.getAttribute('aria-label')"
    for lang, seat, said in (("it", 3, "Avversario a sinistra: 1 carta"),
                             ("de", 2, "Partner: 1 Karte"),
                             ("en", 1, "Right opponent: 1 card")):
        page = open_page(DESKTOP, game=gid, prefs={**TEST_PREFS, "lang": lang})
        page.wait_for_selector("#hand.playable")
        assert page.eval_on_selector(f"#seat-{seat}", label) == said
    page.click("#hand .card[data-code='5D']")  # it takes 5C; each other seat plays its card
    page.wait_for_function(SUMMARY_OPEN)
    assert page.eval_on_selector("#seat-1", label) == "Right opponent: 0 cards"


def test_the_summary_leads_to_how_the_points_are_counted_and_back(
        open_page: Callable[..., Any], server: Server) -> None:
    """From the round's summary, a newcomer reaches the rule page's scoring section in the
    game's language, and coming back finds the summary as it was."""
    gid = server.insert(LAID_LAST, "5C", dealer=3)
    page = open_page(DESKTOP, game=gid, prefs={**TEST_PREFS, "lang": "it"})
    page.wait_for_selector("#hand.playable")
    page.click("#hand .card[data-code='5D']")
    page.wait_for_function(SUMMARY_OPEN)
    link = page.locator("#summary-rules")
    assert link.inner_text() == "Come si contano i punti"
    assert link.get_attribute("target") is None  # alone, the game waits: the same tab
    assert link.get_attribute("href") == "/it/regole#scoring"
    link.click()
    page.wait_for_url("**/it/regole#scoring")
    assert page.evaluate("() => document.getElementById('scoring').getBoundingClientRect().top"
                         " < innerHeight")
    page.go_back()
    page.wait_for_function(SUMMARY_OPEN)
    assert game_id(page) == gid and page.inner_text("#summary-title") == "Smazzata 1"


# ----- a table with friends (static/js/table.js shows plays with the same show.js) ------------

def scripted_table(server: Server, hands: list[str], table: str, dealer: int,
                   scores: tuple[int, int] = (0, 0)) -> tuple[str, str]:
    """A table of Anna (host, seat 0) and three computers, started on a scripted deal (and the
    match's ``scores`` before it, of 21): its code and Anna's seat token. The deal replaces the
    lobby's before the start (the store directly, as ``Server.insert`` does for a game
    alone)."""
    r = server.http.post("/api/tables", json={"name": "Anna", "level": "easy", "hints": False,
                                              "away_seconds": None, "target": 21})
    assert r.status_code == 201, r.text
    code, token = r.json()["table"]["code"], r.json()["token"]
    start_scripted(server, code, token, hands, table, dealer, scores)
    return code, token


def start_scripted(server: Server, code: str, token: str, hands: list[str], table: str,
                   dealer: int, scores: tuple[int, int]) -> None:
    """Table ``code``'s lobby deal replaced by a scripted one (and the match's ``scores``
    before it), then started by its host (``token``)."""
    store = SqliteStore(server.db_path)
    try:
        rec = store.load_by_code(code)
        assert rec is not None
        old = rec.version
        rec.match.round = Round.from_deal([parse_cards(h) for h in hands], parse_cards(table),
                                          dealer=dealer, rules=rec.match.rules)
        rec.match.scores = list(scores)
        rec.version += 1
        rec.meta["table"]["settled_version"] = rec.version
        assert store.update(rec, old)
    finally:
        store.close()
    auth = {"Authorization": f"Bearer {token}"}
    version = server.http.get(f"/api/tables/{code}", headers=auth).json()["version"]
    r = server.http.post(f"/api/tables/{code}/start", json={"version": version}, headers=auth)
    assert r.status_code == 200, r.text


@pytest.fixture
def table_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """``table_page(url, seat=None)`` → a page at a table, as the person holding ``seat`` (a
    ``scopone.seat.CODE`` entry) or as a spectator; its console errors fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_(url: str, seat: dict[str, str] | None = None) -> Any:
        ctx = browser.new_context(locale="en-GB", **DESKTOP)
        contexts.append(ctx)
        seed = {"scopone.prefs": json.dumps(TEST_PREFS), **(seat or {})}
        ctx.add_init_script(f"for (const [k, v] of Object.entries({json.dumps(seed)}))"
                            " localStorage.setItem(k, v);")
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
        page.on("console", lambda msg: errors.append(f"console: {msg.text}")
                if msg.type == "error" else None)
        page.goto(url)
        return page

    yield open_
    for ctx in contexts:
        ctx.close()
    assert not errors, errors


def test_at_a_table_the_rest_goes_to_the_last_taker_for_player_and_spectator(
        server: Server, table_page: Callable[..., Any]) -> None:
    code, token = scripted_table(server, LAID_LAST, "5C", dealer=3)
    url = f"{server.url}/t/{code}"
    anna = table_page(url, {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": token})})
    watcher = table_page(url)
    anna.wait_for_selector("#hand.playable")
    watcher.wait_for_selector("#table-cards .card[data-code='5C']")
    for page in (anna, watcher):
        page.evaluate(WATCH)
    anna.keyboard.press("1")
    anna.wait_for_selector("#hand .card.selected")
    anna.keyboard.press("Enter")
    texts = {anna: "What is left on the table goes to us: Knight of Cups, Three of Swords and"
                   " Two of Clubs",
             watcher: "What is left on the table goes to pair A: Knight of Cups, Three of Swords"
                      " and Two of Clubs"}
    for page, text in texts.items():
        page.wait_for_function(SUMMARY_OPEN)
        seen = page.evaluate("() => window.seen")
        landed = first(seen, "fly", "3S", "table")
        on_table = first(seen, "table", ["9C", "3S", "2B"], after=landed)
        assert ["pile", 0, 5] not in seen[:on_table]
        summary = first(seen, "summary")
        assert flights(seen, on_table, summary) == {"2B": "pile-0", "9C": "pile-0",
                                                    "3S": "pile-0"}
        grown = first(seen, "pile", 0, 5, after=on_table)
        said = next(i for i, e in enumerate(seen) if e[0] == "said" and e[1].endswith(text))
        assert on_table < said and max(grown, said) < summary
        # The list of last plays says it too, under the last card.
        assert page.inner_text("#last-list li >> nth=0").endswith(text)


def test_at_a_table_the_last_card_of_the_match_is_shown_too(
        server: Server, table_page: Callable[..., Any]) -> None:
    """The round that ends the match (20 to 0 of 21, and this round's primiera is ours): its
    last card lands and the rest goes to our pile before the match's summary opens. The
    table's phase turns to "match_over" with that card; the page once took the phase's change
    for a change of seat and showed the summary at once, with no card seen."""
    code, token = scripted_table(server, LAID_LAST, "5C", dealer=3, scores=(20, 0))
    anna = table_page(f"{server.url}/t/{code}",
                      {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": token})})
    anna.wait_for_selector("#hand.playable")
    anna.evaluate(WATCH)
    anna.keyboard.press("1")
    anna.wait_for_selector("#hand .card.selected")
    anna.keyboard.press("Enter")
    anna.wait_for_function(SUMMARY_OPEN)
    seen = anna.evaluate("() => window.seen")
    landed = first(seen, "fly", "3S", "table")
    on_table = first(seen, "table", ["9C", "3S", "2B"], after=landed)
    summary = first(seen, "summary")
    assert flights(seen, on_table, summary) == {"2B": "pile-0", "9C": "pile-0", "3S": "pile-0"}
    assert "You and your partner win the match!" in anna.inner_text("#summary")
    # How the points are counted opens in a tab of its own: leaving the table's page would
    # show Anna offline to the others.
    assert anna.get_attribute("#summary-rules", "target") == "_blank"
    # 20 to 0 until every card lies in a pile; the winning score with the summary.
    scores = [e[1] for e in seen if e[0] == "score"]
    assert first(seen, "score") > first(seen, "pile", 0, 5, after=on_table), seen
    assert len(scores) == 1 and int(scores[0].split("-")[0]) >= 21, scores
