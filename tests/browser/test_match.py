"""Whole matches played through the page: with the mouse, with touch on a phone, keys only."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import ARTIFACTS, DESKTOP, PHONE, Server

pytestmark = pytest.mark.browser

# Functions, not bare expressions: the page's CSP forbids eval, which bare strings would need.
SUMMARY_OPEN = "() => !document.getElementById('summary').hidden"
READY = "() => document.querySelector('#hand.playable') !== null ||"\
    " !document.getElementById('summary').hidden"
SUMMARY_CLOSED = "() => document.getElementById('summary').hidden"
# Records the hand each time it becomes playable (``window.playableHands``): a card already
# played must never be in one (the page would send a move at a version the server has left).
WATCH_PLAYABLE = """() => {
  window.playableHands = [];
  const hand = document.getElementById('hand');
  let was = hand.classList.contains('playable');
  new MutationObserver(() => {
    const now = hand.classList.contains('playable');
    if (now && !was)
      window.playableHands.push([...hand.querySelectorAll('.card')].map(c => c.dataset.code));
    was = now;
  }).observe(hand, {attributes: true, attributeFilter: ['class']});
}"""


def game_id(page: Any) -> str:
    return str(page.evaluate("localStorage.getItem('scopone.game')"))


def codes(page: Any, selector: str) -> list[str]:
    return list(page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.code)"))


def visible_centre(page: Any, code: str) -> tuple[float, float]:
    """The middle of the part of a hand card that the next card does not cover."""
    x, y = page.evaluate(
        """code => {
          const cards = [...document.querySelectorAll('#hand .card')];
          const i = cards.findIndex(c => c.dataset.code === code);
          const r = cards[i].getBoundingClientRect();
          const right = i + 1 < cards.length ? cards[i + 1].getBoundingClientRect().left : r.right;
          return [(r.left + Math.min(right, r.right)) / 2, r.top + r.height / 2];
        }""",
        code,
    )
    return float(x), float(y)


def check_table_matches_server(page: Any, view: dict[str, Any]) -> None:
    """What the player sees is the server's game: hand, table, counts, score."""
    assert codes(page, "#hand .card") == view["hand"]
    assert sorted(codes(page, "#table-cards .card")) == sorted(view["table"])
    for seat in (1, 2, 3):
        shown = page.inner_text(f"#seat-{seat} .count")
        assert int(shown) == view["hand_counts"][seat]
        assert page.locator(f"#seat-{seat} .backs .mini").count() == view["hand_counts"][seat]
    mine = sum(1 for p in view["history"] if p["seat"] == 0)
    assert len(view["hand"]) == 10 - mine  # ten cards, one fewer for every card played
    assert [int(page.inner_text("#score-a")), int(page.inner_text("#score-b"))] == view["score"]
    for pair in (0, 1):
        assert int(page.inner_text(f"#pile-{pair} .pile-count b")) == len(view["piles"][pair])


def check_summary(page: Any, view: dict[str, Any]) -> None:
    """The round summary shows the server's breakdown, and the figures add up."""
    last = view["rounds"][-1]
    a, b = last["tallies"]

    def figures(cat: str) -> list[str]:
        return list(page.eval_on_selector_all(
            f"#summary tr[data-cat='{cat}'] .fig", "els => els.map(e => e.textContent)"))

    assert figures("carte") == [str(a["cards"]), str(b["cards"])]
    assert a["cards"] + b["cards"] == 40
    assert figures("denari") == [str(a["denari"]), str(b["denari"])]
    assert a["denari"] + b["denari"] == 10
    assert figures("settebello") == ["yes" if t["settebello"] else "—" for t in (a, b)]
    assert a["settebello"] != b["settebello"]
    assert figures("scope") == [str(a["scope"]), str(b["scope"])]
    prim = [str(x) if x is not None else "—" for x in (a["primiera"], b["primiera"])]
    assert figures("primiera") == prim
    assert [int(page.inner_text("#round-a")), int(page.inner_text("#round-b"))] == last["points"]
    assert [int(page.inner_text("#match-a")), int(page.inner_text("#match-b"))] == view["score"]
    assert page.inner_text("#summary-title") == f"Round {last['number']}"


def play_match(page: Any, server: Server, play: Callable[[Any, dict[str, Any], dict[str, Any]],
               None], advance: Callable[[Any], None], shot: str) -> dict[str, Any]:
    """Plays the page's match to its end with ``play`` (one move) and ``advance`` (next round)."""
    rng = random.Random(5)
    rounds = 0

    for _ in range(1000):
        page.wait_for_function(READY)
        view = server.game(game_id(page))
        if page.evaluate(SUMMARY_OPEN):
            assert view["status"] in ("round_over", "match_over")
            check_summary(page, view)
            rounds += 1
            if view["status"] == "match_over":
                winner = page.inner_text("#winner")
                we_won = view["winner"] == "A"
                assert ("You and your partner win" in winner) == we_won
                assert max(view["score"]) >= 11
                page.screenshot(path=str(ARTIFACTS / shot))
                assert rounds == len(view["rounds"])
                # The server played the computers' cards (SPEC §6): the page never asked
                # for one; it followed the game's event stream.
                assert not [r for r in page.watch.requests if r.endswith("/advance")]
                assert any(r.startswith(f"GET /api/games/{view['id']}/events?speed=")
                           for r in page.watch.requests)
                return view
            advance(page)
            page.wait_for_function(SUMMARY_CLOSED)
            continue
        assert view["status"] == "your_turn"
        check_table_matches_server(page, view)
        move = rng.choice(view["legal"])
        n = len(view["hand"])
        play(page, view, move)
        page.wait_for_function(
            "n => document.querySelectorAll('#hand .card').length < n"
            " || !document.getElementById('summary').hidden", arg=n)
        mine = [p for p in server.game(view["id"])["history"] if p["seat"] == 0]
        if mine:  # (empty once a round ended and the next was dealt)
            assert {"card": mine[-1]["card"], "capture": mine[-1]["capture"]} == move
    raise AssertionError("the match did not end")


def _options(view: dict[str, Any], card: str) -> list[dict[str, Any]]:
    return [m for m in view["legal"] if m["card"] == card]


def _pick_captures(page: Any, view: dict[str, Any], move: dict[str, Any],
                   tap: Callable[[str], None]) -> None:
    options = _options(view, move["card"])
    if len(options) < 2:
        return
    lit = set(codes(page, "#table-cards .card.lit"))
    assert set(move["capture"]) <= lit  # the cards it can take light up
    picked: set[str] = set()
    for code in move["capture"]:
        tap(code)
        picked.add(code)
        # The page plays as soon as the chosen cards leave one option open. Decided here, not by
        # reading the page: the move's request may still be on its way, the table about to change.
        if sum(picked <= set(m["capture"]) for m in options) == 1:
            return
    raise AssertionError(f"tapping {move['capture']} left more than one option open")


def test_match_with_the_mouse(open_page: Callable[..., Any], server: Server) -> None:
    page = open_page(DESKTOP)
    page.screenshot(path=str(ARTIFACTS / "desktop.png"))

    def play(page: Any, view: dict[str, Any], move: dict[str, Any]) -> None:
        page.click(f"#hand .card[data-code='{move['card']}']")
        _pick_captures(page, view, move,
                       lambda code: page.click(f"#table-cards .card[data-code='{code}']"))

    def advance(page: Any) -> None:
        page.click("#summary-go")

    view = play_match(page, server, play, advance, "desktop-match-over.png")
    page.click("#summary-go")  # a new match from the summary
    page.wait_for_function("old => localStorage.getItem('scopone.game') !== old", arg=view["id"])
    assert page.inner_text("#score-a") == "0" and page.inner_text("#score-b") == "0"


def test_match_with_touch_on_a_phone(open_page: Callable[..., Any], server: Server) -> None:
    page = open_page(PHONE)
    page.screenshot(path=str(ARTIFACTS / "phone.png"))

    def tap_hand(code: str) -> None:
        page.touchscreen.tap(*visible_centre(page, code))

    def tap_table(code: str) -> None:
        box = page.locator(f"#table-cards .card[data-code='{code}']").bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    def play(page: Any, view: dict[str, Any], move: dict[str, Any]) -> None:
        tap_hand(move["card"])
        _pick_captures(page, view, move, tap_table)

    def advance(page: Any) -> None:
        page.locator("#summary-go").tap()

    play_match(page, server, play, advance, "phone-match-over.png")


def test_match_with_the_keyboard_only(open_page: Callable[..., Any], server: Server) -> None:
    page = open_page(DESKTOP)

    def play(page: Any, view: dict[str, Any], move: dict[str, Any]) -> None:
        i = view["hand"].index(move["card"])
        page.keyboard.press("0" if i == 9 else str(i + 1))
        assert codes(page, "#hand .card.selected") == [move["card"]]
        options = _options(view, move["card"])
        for _ in range(options.index(move)):
            page.keyboard.press("ArrowRight")
        if len(options) > 1:  # the chosen move's cards are lit before Enter plays it
            assert sorted(codes(page, "#table-cards .card.chosen")) == sorted(move["capture"])
        page.keyboard.press("Enter")

    def advance(page: Any) -> None:
        page.keyboard.press("Enter")

    play_match(page, server, play, advance, "keyboard-match-over.png")


def test_a_tie_at_the_target_says_the_match_goes_on(open_page: Callable[..., Any],
                                                    server: Server) -> None:
    """10-10 to 11, and a last round that gives each pair two points: 12-12, both at the target
    and level, so another round is played (SPEC §1). The summary says why there is a "Next
    round" rather than a winner (it once showed only "12 - 12 (to 11)" and the button)."""
    gid = server.insert(["7D", "4D", "5D", "9S"], "7S", scores=(10, 10))
    page = open_page(DESKTOP, game=gid)
    page.wait_for_selector("#hand.playable")
    page.click("#hand .card[data-code='7D']")
    page.wait_for_selector("#summary:not([hidden]) #summary-go")
    view = server.game(gid)
    assert view["status"] == "round_over" and view["winner"] is None
    assert view["score"][0] == view["score"][1] >= 11
    assert page.inner_text("#tied") == (
        f"Both pairs have reached 11, level at {view['score'][0]}: the match goes on until one"
        " pair leads.")
    assert page.locator("#winner").count() == 0
    assert page.inner_text("#summary-go") == "Next round"
