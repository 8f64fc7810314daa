"""The controls one by one: choosing among captures by tap and by keys, Esc, N, L, D, the
on-screen buttons and settings, a reload, a stale page resyncing, the computer's turn shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import ARTIFACTS, DESKTOP, TEST_PREFS, Server
from .test_match import WATCH_PLAYABLE, codes, game_id

pytestmark = pytest.mark.browser

# Seat 0 leads (dealer 3) with four cards on the table. 5D takes 1C+4C or 1B+4C (4C is in
# both, so tapping it narrows nothing); 8C has one way only, taking all four: a scopa.
TABLE = "1C 1B 4C 2S"
HANDS = [
    "5D 7D 3C 6C 8C 9C 10C 5S 6S",
    "1D 2D 3D 4D 6D 8D 9D 10D 2C",
    "5C 7C 1S 3S 4S 7S 8S 9S 10S",
    "2B 3B 4B 5B 6B 7B 8B 9B 10B",
]
FIVE_OPTIONS = [["1C", "4C"], ["4C", "1B"]]  # in the deck's order: D, C, S, B


def scripted(open_page: Callable[..., Any], server: Server, **kw: Any) -> tuple[Any, str]:
    gid = server.insert(HANDS, TABLE, dealer=kw.pop("dealer", 3))
    page = open_page(DESKTOP, game=gid, **kw)
    assert game_id(page) == gid
    return page, gid


def first_play(server: Server, gid: str) -> dict[str, Any]:
    history = server.game(gid)["history"]
    assert history, "nothing was played"
    return dict(history[0])


def wait_played(page: Any, server: Server, gid: str) -> dict[str, Any]:
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length < 9")
    return first_play(server, gid)


def test_capture_choice_by_tap_narrows_down(open_page: Callable[..., Any],
                                            server: Server) -> None:
    page, gid = scripted(open_page, server)
    page.wait_for_selector("#hand.playable")
    assert [o["capture"] for o in server.game(gid)["legal"] if o["card"] == "5D"] == FIVE_OPTIONS
    page.click("#hand .card[data-code='5D']")
    assert codes(page, "#hand .card.selected") == ["5D"]
    assert sorted(codes(page, "#table-cards .card.lit")) == ["1B", "1C", "4C"]
    assert "2S" not in codes(page, "#table-cards .card.lit")
    assert page.inner_text("#status") == "Pick a lit card on the table to choose what to take"
    page.click("#table-cards .card[data-code='2S']", force=True)  # not takeable: no effect
    page.click("#table-cards .card[data-code='4C']")  # in both options: still a choice
    assert codes(page, "#hand .card.selected") == ["5D"]
    assert codes(page, "#table-cards .card.picked") == ["4C"]
    assert sorted(codes(page, "#table-cards .card.lit")) == ["1B", "1C"]
    assert server.game(gid)["history"] == []
    page.screenshot(path=str(ARTIFACTS / "desktop-choice-by-tap.png"))
    page.click("#table-cards .card[data-code='1B']")  # now decided: played at once
    play = wait_played(page, server, gid)
    assert (play["seat"], play["card"], play["capture"]) == (0, "5D", ["4C", "1B"])


def test_capture_choice_by_arrows_and_enter_and_esc(open_page: Callable[..., Any],
                                                    server: Server) -> None:
    page, gid = scripted(open_page, server)
    page.wait_for_selector("#hand.playable")
    hand = codes(page, "#hand .card")
    key = str(hand.index("5D") + 1)
    page.keyboard.press(key)
    assert codes(page, "#hand .card.selected") == ["5D"]
    assert sorted(codes(page, "#table-cards .card.chosen")) == sorted(FIVE_OPTIONS[0])
    page.keyboard.press("Escape")  # cancels: nothing selected, nothing lit, nothing played
    assert codes(page, "#hand .card.selected") == []
    assert codes(page, "#table-cards .card.lit") == []
    assert server.game(gid)["version"] == 0
    page.keyboard.press(key)
    # A screen reader hears each option the keys point at (the lit cards are only seen).
    said = "() => document.getElementById('announce').textContent"
    assert page.evaluate(said) == "Five of Coins takes Ace of Cups and Four of Cups (1 of 2)"
    assert page.inner_text("#status") == "Arrows switch the move, Enter plays it, Esc cancels"
    page.keyboard.press("ArrowRight")
    assert sorted(codes(page, "#table-cards .card.chosen")) == sorted(FIVE_OPTIONS[1])
    assert page.evaluate(said) == "Five of Coins takes Four of Cups and Ace of Clubs (2 of 2)"
    page.keyboard.press("ArrowLeft")
    assert sorted(codes(page, "#table-cards .card.chosen")) == sorted(FIVE_OPTIONS[0])
    page.keyboard.press("ArrowDown")
    chosen = sorted(codes(page, "#table-cards .card.chosen"))
    assert chosen == sorted(FIVE_OPTIONS[1])
    page.screenshot(path=str(ARTIFACTS / "desktop-choice-by-keys.png"))
    page.keyboard.press("Enter")
    play = wait_played(page, server, gid)
    assert (play["seat"], play["card"], sorted(play["capture"])) == (0, "5D", chosen)


def test_one_way_plays_at_once_and_a_scopa_is_shown(open_page: Callable[..., Any],
                                                    server: Server) -> None:
    page, gid = scripted(open_page, server)
    page.wait_for_selector("#hand.playable")
    page.evaluate("""() => {
      window.banners = [];
      const banner = document.getElementById('banner');
      new MutationObserver(() => { if (!banner.hidden) window.banners.push(banner.textContent); })
        .observe(banner, {attributes: true, childList: true});
      window.said = [];
      const announce = document.getElementById('announce');
      new MutationObserver(() => window.said.push(announce.textContent))
        .observe(announce, {childList: true, characterData: true, subtree: true});
    }""")
    page.click("#hand .card[data-code='8C']")
    page.wait_for_function("() => window.banners.length > 0")
    assert page.evaluate("() => window.banners[0]") == "Scopa!"
    # The banner is only seen (aria-hidden): a screen reader hears the player's own play, once
    # the view after it is the page's (after the banner: the capture is shown first).
    page.wait_for_function("() => window.said.length > 0")
    assert page.evaluate("() => window.said[0]") == (
        "You play Jack of Cups and take Ace of Cups, Four of Cups, Two of Swords and Ace of"
        " Clubs. Scopa!")
    play = wait_played(page, server, gid)
    assert (play["card"], sorted(play["capture"]), play["scopa"]) == (
        "8C", ["1B", "1C", "2S", "4C"], True)
    # The scopa card lies across our pile, face up; the pile counts all five cards.
    page.wait_for_selector("#pile-0 .scopa-card")
    assert int(page.inner_text("#pile-0 .pile-count b")) >= 5
    assert "scope: 1" in (page.get_attribute("#pile-0", "aria-label") or "")


def test_computer_turn_shows_thinking_and_is_announced(open_page: Callable[..., Any],
                                                       server: Server) -> None:
    page, gid = scripted(open_page, server,
                         prefs={"level": "easy", "speed": "normal", "lang": "en"})
    page.wait_for_selector("#hand.playable")
    # Watch the right opponent's seat from inside the page, so no moment is missed.
    page.evaluate("""() => {
      window.seen = [];
      new MutationObserver(() => {
        if (document.getElementById('seat-1').classList.contains('thinking'))
          window.seen.push(document.getElementById('status').textContent);
      }).observe(document.getElementById('seat-1'), {attributes: true});
      window.said = [];
      const live = document.getElementById('announce');
      new MutationObserver(() => window.said.push(live.textContent))
        .observe(live, {childList: true, characterData: true, subtree: true});
    }""")
    page.click("#hand .card[data-code='9C']")  # laid; then the right opponent (seat 1) plays
    page.wait_for_function("() => window.seen.length > 0")
    assert "Right opponent is thinking" in page.evaluate("() => window.seen[0]")
    page.wait_for_function("() => window.said.length > 1")
    assert page.evaluate("() => window.said[0]") == "You play Knight of Cups"
    play = server.game(gid)["history"][1]
    assert play["seat"] == 1
    announced = page.evaluate("() => window.said[1]")
    assert announced.startswith("Right opponent plays ")
    # Seat 1 holds 1D 2D 3D 4D 6D 8D 9D 10D 2C; the card is named in words.
    names = {"1D": "Ace of Coins", "2D": "Two of Coins", "3D": "Three of Coins",
             "4D": "Four of Coins", "6D": "Six of Coins", "8D": "Jack of Coins",
             "9D": "Knight of Coins", "10D": "King of Coins", "2C": "Two of Cups"}
    assert names[play["card"]] in announced


def test_keys_n_l_d(open_page: Callable[..., Any], server: Server) -> None:
    page = open_page(DESKTOP)
    first = game_id(page)
    assert page.inner_text("#btn-level") == "Level: Easy"
    page.keyboard.press("l")
    page.wait_for_function("() => document.getElementById('btn-level').dataset.level === 'normal'")
    assert server.game(first)["level"] == "normal"
    page.keyboard.press("L")
    page.wait_for_function("() => document.getElementById('btn-level').dataset.level === 'hard'")
    assert server.game(first)["level"] == "hard"
    assert page.inner_text("#btn-level") == "Level: Hard"

    before = page.inner_html("#hand .card >> nth=0")
    assert page.get_attribute("body", "data-design") == "classic"
    page.keyboard.press("d")
    assert page.get_attribute("body", "data-design") == "clear"
    assert page.inner_html("#hand .card >> nth=0") != before
    assert page.inner_text("#btn-design") == "Cards: High contrast"
    page.keyboard.press("D")
    assert page.get_attribute("body", "data-design") == "classic"

    page.keyboard.press("n")
    page.wait_for_function("old => localStorage.getItem('scopone.game') !== old", arg=first)
    second = server.game(game_id(page))
    assert second["level"] == "hard"  # a new match keeps the level
    assert second["score"] == [0, 0] and second["round_number"] == 1
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 10")


def test_buttons_and_settings_start_the_right_match(open_page: Callable[..., Any],
                                                    server: Server) -> None:
    page = open_page(DESKTOP)
    first = game_id(page)
    assert page.get_attribute("#btn-napola", "aria-pressed") == "false"
    page.click("#btn-napola")  # Napola starts a new match
    page.wait_for_function("old => localStorage.getItem('scopone.game') !== old", arg=first)
    assert server.game(game_id(page))["rules"]["napola"] is True
    assert page.get_attribute("#btn-napola", "aria-pressed") == "true"
    assert page.inner_text("#btn-napola") == "Napola: on"

    page.click("#btn-level")
    page.wait_for_function("() => document.getElementById('btn-level').dataset.level === 'normal'")
    assert server.game(game_id(page))["level"] == "normal"

    page.click("#btn-settings")
    assert page.is_visible("#settings")
    second = game_id(page)
    page.select_option("#set-variant", "classico")
    page.wait_for_function("old => localStorage.getItem('scopone.game') !== old", arg=second)
    view = server.game(game_id(page))
    assert view["rules"] == {"variant": "classico", "napola": True, "target": 11}
    assert view["level"] == "normal"
    assert sum(view["hand_counts"]) + len(view["table"]) + sum(map(len, view["piles"])) == 40
    third = game_id(page)
    page.click("#btn-settings")
    page.select_option("#set-target", "21")
    page.wait_for_function("old => localStorage.getItem('scopone.game') !== old", arg=third)
    assert server.game(game_id(page))["rules"]["target"] == 21
    assert page.inner_text("#score .target") == "to 21"
    page.click("#btn-settings")
    page.select_option("#set-design", "clear")
    assert page.get_attribute("body", "data-design") == "clear"
    page.click("#btn-new")
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length >= 9")


def test_a_reload_keeps_the_game_and_the_settings(open_page: Callable[..., Any],
                                                  server: Server) -> None:
    page, gid = scripted(open_page, server)
    page.wait_for_selector("#hand.playable")
    page.click("#hand .card[data-code='9C']")  # laid on the table
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 8")
    page.keyboard.press("d")
    page.reload()
    page.wait_for_selector("#hand .card")
    assert game_id(page) == gid
    assert page.get_attribute("body", "data-design") == "clear"
    page.wait_for_selector("#hand.playable")
    view = server.game(gid)
    assert codes(page, "#hand .card") == view["hand"]
    assert "9C" not in view["hand"] and len(view["hand"]) == 8
    assert sorted(codes(page, "#table-cards .card")) == sorted(view["table"])


def test_no_card_is_chosen_while_the_page_still_shows_its_own_capture(
        open_page: Callable[..., Any], server: Server) -> None:
    """The answer to a capture comes before the page has shown it (the card flies, rests, is
    swept): meanwhile the hand is not playable and a key or a hint chooses nothing, since the
    view shown is one the server has left. (It was playable again as soon as the answer came:
    a second card then was refused with a 409.)"""
    page, gid = scripted(open_page, server, prefs={**TEST_PREFS, "speed": "normal"})
    page.wait_for_selector("#hand.playable")
    page.evaluate(WATCH_PLAYABLE)
    key = page.get_attribute("#hand .card[data-code='9C']", "data-key")  # a lay: one way only
    with page.expect_response(lambda r: r.url.endswith(f"/api/games/{gid}/moves")):
        page.click("#hand .card[data-code='8C']")  # one way: takes all four, at once
    for _ in range(6):  # within the half second the capture takes to show at normal speed
        page.keyboard.press(key)
        page.keyboard.press("h")
        page.wait_for_timeout(40)
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 8")
    hands = page.evaluate("() => window.playableHands")
    assert not [h for h in hands if "8C" in h], hands
    moves = [r for r in page.watch.requests if r.endswith(f"/api/games/{gid}/moves")]
    assert moves == [f"POST /api/games/{gid}/moves"]
    assert not [r for r in page.watch.requests if r.endswith("/hint")]
    assert page.watch.refused == []
    assert [p["card"] for p in server.game(gid)["history"] if p["seat"] == 0] == ["8C"]


def test_a_stale_page_resyncs_from_the_409(open_page: Callable[..., Any],
                                           server: Server) -> None:
    page, gid = scripted(open_page, server)
    page.watch.expected.append("409")  # the browser logs the refused request
    page.wait_for_selector("#hand.playable")
    # The page's event stream is cut off (as behind a proxy that holds it), and behind its back
    # the game changes: its version moves on, and this page does not hear of it.
    page.route("**/events*", lambda route: route.abort())
    page.evaluate("() => window.dispatchEvent(new Event('offline'))")  # drops the stream
    r = server.http.patch(f"/api/games/{gid}", json={"level": "hard"})
    assert r.status_code == 200 and r.json()["version"] == 1
    assert page.get_attribute("#btn-level", "data-level") == "easy"  # not heard of
    page.click("#hand .card[data-code='9C']")
    page.wait_for_function("() => document.getElementById('btn-level').dataset.level === 'hard'")
    assert server.game(gid)["history"] == []  # the stale move changed nothing
    assert codes(page, "#hand .card") == server.game(gid)["hand"]
    page.unroute("**/events*")
    page.click("#hand .card[data-code='9C']")  # from the fresh view it goes through
    play = wait_played(page, server, gid)
    assert (play["card"], play["capture"]) == ("9C", [])


def test_a_lost_game_starts_a_new_match(open_page: Callable[..., Any], server: Server) -> None:
    page = open_page(DESKTOP, game="no-such-game")
    page.watch.expected.append("404")
    page.wait_for_function("() => localStorage.getItem('scopone.game') !== 'no-such-game'")
    view = server.game(game_id(page))
    assert view["round_number"] == 1 and view["score"] == [0, 0]


SELECT_LOGIC = """async () => {
  const s = await import('/static/js/select.js');
  const legal = [
    {card: '5D', capture: ['1C', '4C']}, {card: '5D', capture: ['4C', '1B']},
    {card: '8C', capture: ['1C', '4C', '2S', '1B']}, {card: '9C', capture: []},
  ];
  const out = {};
  out.once = s.pickCard(null, legal, '8C', false).move;
  out.layByKey = s.pickCard(null, legal, '9C', true).sel.options.length;
  let r = s.pickCard(null, legal, '5D', false);
  out.lit = [...s.highlights(r.sel).lit].sort();
  out.again = s.pickCard(r.sel, legal, '5D', false).sel;  // the same card again cancels
  r = s.pickTable(r.sel, '4C');
  out.narrowed = [...s.highlights(r.sel).lit].sort();
  out.unknown = s.pickTable(r.sel, '2S').sel === r.sel;
  out.decided = s.pickTable(r.sel, '1B').move;
  const k = s.pickCard(null, legal, '5D', true).sel;
  out.cycle = [s.current(k), s.current(s.cycle(k, 1)), s.current(s.cycle(k, -1)),
               s.current(s.cycle(s.cycle(k, 1), 1))].map(m => m.capture.join('+'));
  return out;
}"""


def test_choosing_logic_uses_only_the_legal_moves(open_page: Callable[..., Any]) -> None:
    page = open_page(DESKTOP)
    out = page.evaluate(SELECT_LOGIC)
    assert out["once"] == {"card": "8C", "capture": ["1C", "4C", "2S", "1B"]}
    assert out["layByKey"] == 1  # by key even a one-way card waits for Enter
    assert out["lit"] == ["1B", "1C", "4C"]
    assert out["again"] is None
    assert out["narrowed"] == ["1B", "1C"]
    assert out["unknown"] is True
    assert out["decided"] == {"card": "5D", "capture": ["4C", "1B"]}
    assert out["cycle"] == ["1C+4C", "4C+1B", "4C+1B", "1C+4C"]


def refuse_moves(page: Any) -> list[str]:
    """Every card the page sends is answered 503 (the database away) until the test unroutes
    ``**/moves``; returns the list of the refused requests' URLs, growing as they come."""
    refused: list[str] = []

    def unavailable(route: Any) -> None:
        refused.append(route.request.url)
        route.fulfill(status=503, content_type="application/json",
                      body='{"detail": "database unavailable"}')

    page.route("**/moves", unavailable)
    return refused


def hold_the_first(page: Any, url: str) -> list[Any]:
    """The page's first request to ``url`` (a glob) is never answered (a connection lost
    without a word: a phone changing networks, a proxy dropping it); later ones go through.
    Returns the held request's route once it came."""
    held: list[Any] = []

    def hold(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)  # never answered

    page.route(url, hold)
    return held


def sent_again(page: Any, refused: list[str]) -> None:
    """Waits until the page, untouched, has sent the refused card (or deal) a second time."""
    for _ in range(200):  # a guard, not a measure
        if len(refused) >= 2:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"not sent again: {refused}")


def test_a_card_whose_answer_never_comes_goes_again_and_the_game_goes_on(
        open_page: Callable[..., Any], server: Server) -> None:
    """The card's request is never answered (a connection lost without a word: a phone
    changing networks, a proxy dropping it): the page gives it up and sends the card again,
    and the computers play on. (The page waited for that answer for ever: its hand never
    playable again, and every later request, a new match too, queued behind it.)"""
    page, gid = scripted(open_page, server)
    page.watch.expected.append("no answer in 10 s")  # the page logs every failed request
    page.wait_for_selector("#hand.playable")
    held = hold_the_first(page, "**/moves")
    page.click("#hand .card[data-code='9C']")
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 8"
                           " && document.querySelector('#hand.playable') !== null",
                           timeout=30_000)
    assert held, "the card's first request was not held"
    history = server.game(gid)["history"]
    assert [p["seat"] for p in history] == [0, 1, 2, 3] and history[0]["card"] == "9C"


def test_a_card_the_server_could_not_take_goes_by_itself_when_it_answers(
        open_page: Callable[..., Any], server: Server) -> None:
    page, gid = scripted(open_page, server)
    page.watch.expected.append("503")
    page.wait_for_selector("#hand.playable")
    # The card fails on the way (the server restarting, its database away): the page says so,
    # offers Retry, and sends the card again by itself; it stays in the hand meanwhile.
    refused = refuse_moves(page)
    page.click("#hand .card[data-code='9C']")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error-text") == (
        "Connection problem: your card goes as soon as the server answers.")
    assert page.is_visible("#error-retry")
    sent_again(page, refused)  # nobody clicks
    assert server.game(gid)["history"] == []
    assert page.locator("#hand .card[data-code='9C']").count() == 1
    # The server answers again: the card goes without another click, and the server plays the
    # three computers' cards, never asked by the page.
    page.unroute("**/moves")
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 8"
                           " && document.querySelector('#hand.playable') !== null",
                           timeout=30_000)
    page.wait_for_selector("#error", state="hidden")
    history = server.game(gid)["history"]
    assert [p["seat"] for p in history] == [0, 1, 2, 3] and history[0]["card"] == "9C"
    assert not [r for r in page.watch.requests if r.endswith("/advance")]


def test_a_card_that_waits_is_dropped_when_the_server_refuses_it(
        open_page: Callable[..., Any], server: Server) -> None:
    """Another tab plays a card while this one's waits: the page hears of it (its stream, or
    the 409 its card sent again gets) and drops its own card; the notice goes, and the card
    stays in the hand, not played."""
    page, gid = scripted(open_page, server)
    page.watch.expected += ["503", "409"]
    page.wait_for_selector("#hand.playable")
    page.route("**/moves", lambda route: route.fulfill(
        status=503, content_type="application/json", body='{"detail": "database unavailable"}'))
    page.click("#hand .card[data-code='9C']")
    page.wait_for_selector("#error:not([hidden])")
    game = server.game(gid)
    move = next(m for m in game["legal"] if m["card"] == "5D")
    server.http.post(f"/api/games/{gid}/moves", json={"version": game["version"], **move})
    page.unroute("**/moves")
    page.wait_for_selector("#error", state="hidden", timeout=30_000)
    page.wait_for_function("() => !document.querySelector(\"#hand .card[data-code='5D']\")")
    history = server.game(gid)["history"]
    assert history[0]["card"] == "5D" and "9C" not in [p["card"] for p in history if p["seat"] == 0]
    assert page.locator("#hand .card[data-code='9C']").count() == 1


def test_the_computers_play_on_when_the_event_stream_comes_back(
        open_page: Callable[..., Any], server: Server) -> None:
    page, gid = scripted(open_page, server)
    page.watch.expected.append("503")
    page.wait_for_selector("#hand.playable")
    # The stream breaks and its server refuses it for a while: the page says so; the server
    # (nobody following) plays no card meanwhile; the stream back, the game goes on by itself.
    page.route("**/events*", lambda route: route.fulfill(
        status=503, content_type="application/json", body='{"detail": "unavailable"}'))
    page.evaluate("() => window.dispatchEvent(new Event('offline'))")  # drops the stream
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error-text") == "Connection problem."
    page.click("#hand .card[data-code='9C']")
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 8")
    assert [p["seat"] for p in server.game(gid)["history"]] == [0]
    page.unroute("**/events*")
    page.click("#error-retry")
    page.wait_for_selector("#error", state="hidden")
    page.wait_for_selector("#hand.playable", timeout=30_000)
    assert [p["seat"] for p in server.game(gid)["history"]] == [0, 1, 2, 3]


def test_the_game_goes_on_when_the_browser_is_back_online(open_page: Callable[..., Any],
                                                          server: Server) -> None:
    page, gid = scripted(open_page, server)
    page.watch.expected.append("ERR_INTERNET_DISCONNECTED")
    page.watch.expected.append("Failed to fetch")
    page.wait_for_selector("#hand.playable")
    page.context.set_offline(True)
    page.click("#hand .card[data-code='9C']")
    page.wait_for_selector("#error:not([hidden])")
    assert server.game(gid)["history"] == []  # the card never left: it stays in the hand
    assert page.locator("#hand .card[data-code='9C']").count() == 1
    n = page.locator("#hand .card").count()
    page.context.set_offline(False)
    # Back online, the card goes by itself (resend.js), and the three computers answer: our
    # turn again, one card fewer.
    page.wait_for_function("n => document.querySelectorAll('#hand .card').length === n - 1"
                           " && document.querySelector('#hand.playable') !== null", arg=n,
                           timeout=30_000)
    page.wait_for_selector("#error", state="hidden")
    history = server.game(gid)["history"]
    assert [p["seat"] for p in history] == [0, 1, 2, 3] and history[0]["card"] == "9C"


def test_cards_keep_their_buttons_while_their_state_changes(open_page: Callable[..., Any],
                                                           server: Server) -> None:
    # A card drawn again lit, picked or landed is the same button with new classes: a finger or
    # the focus on it stays on it. A rewrite swapped the buttons out between a touch and its
    # target (CI's phone match once measured a table card that had just been replaced).
    page, gid = scripted(open_page, server)
    page.wait_for_selector("#hand.playable")
    page.evaluate("() => { window.kept = [...document.querySelectorAll('#hand .card,"
                  " #table-cards .card')]; }")
    page.click("#hand .card[data-code='5D']")
    page.click("#table-cards .card[data-code='4C']")  # in both options: still a choice
    assert codes(page, "#table-cards .card.picked") == ["4C"]
    assert sorted(codes(page, "#table-cards .card.lit")) == ["1B", "1C"]
    assert page.evaluate("() => window.kept.every((el) => el.isConnected)")
    assert page.evaluate("() => window.kept.filter((el) => el.classList.contains('selected'))"
                         ".map((el) => el.dataset.code)") == ["5D"]
    page.keyboard.press("Escape")  # and back: the same buttons, plain again
    page.wait_for_function("() => !document.querySelector('#table-cards .card.lit')")
    assert page.evaluate("() => window.kept.every((el) => el.isConnected"
                         " && !el.matches('.lit, .picked, .selected'))")
    assert not server.game(gid)["history"]  # nothing was played meanwhile


def test_a_table_card_still_landing_takes_a_tap(open_page: Callable[..., Any],
                                                server: Server) -> None:
    # The hand is playable as soon as the view is, while the last card laid still flies in
    # (its place on the table drawn as a ghost): a tap there must choose it, not fall through.
    page, gid = scripted(open_page, server)
    page.wait_for_selector("#hand.playable")
    page.click("#hand .card[data-code='5D']")
    page.eval_on_selector("#table-cards .card[data-code='1B']", "el => el.classList.add('ghost')")
    box = page.locator("#table-cards .card[data-code='1B']").bounding_box()
    # A tap at its place, as a finger does (no waiting for the card to be visible).
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert wait_played(page, server, gid) == {"seat": 0, "card": "5D", "capture": ["4C", "1B"],
                                             "scopa": False}


IN_FRIENDS = "() => document.activeElement.closest('#friends') !== null"


def test_the_friends_dialog_keeps_the_keyboard(open_page: Callable[..., Any],
                                               server: Server) -> None:
    """"Play with friends" is modal for the keyboard: Tab and Shift+Tab stay inside, Esc closes
    it from anywhere inside, and the game's keys (the coach's H, C, R too) do nothing meanwhile."""
    page, gid = scripted(open_page, server)
    page.wait_for_selector("#hand.playable")
    page.click("#btn-friends")
    page.wait_for_selector("#friends #fr-name")
    assert page.evaluate("() => document.activeElement.id") == "fr-name"
    stops = page.eval_on_selector_all(
        "#friends input, #friends select, #friends button:not([hidden])",
        "els => els.filter((e) => e.getClientRects().length).map((e) => e.id)")
    for key in ("Tab", "Shift+Tab"):
        visited = []
        for _ in range(len(stops) + 2):  # once round and on
            page.keyboard.press(key)
            assert page.evaluate(IN_FRIENDS), f"{key} left the dialog"
            visited.append(page.evaluate("() => document.activeElement.id"))
        assert set(visited) == set(stops)
    # From a button of the dialog (keys typed in its fields are the fields' own), after a click
    # on the dimmed page around it, and with the focus nowhere: no game key reaches the game or
    # opens the coach behind the dialog.
    page.focus("#fr-close")
    for where in ("button", "page around", "nowhere"):
        if where == "page around":
            page.mouse.click(3, 300)
            assert page.evaluate(IN_FRIENDS)
        elif where == "nowhere":
            page.evaluate("() => document.activeElement.blur()")
        for key in ("c", "h", "r", "n", "l", "d", "1", "0", "ArrowRight"):
            page.keyboard.press(key)
        assert page.is_visible("#friends .friends-panel")
        assert page.is_hidden("#seen-panel") and page.is_hidden("#coach-hint")
        assert page.is_hidden("#review")
        assert codes(page, "#hand .card.selected") == []
        assert page.get_attribute("body", "data-design") == "classic"
        assert page.inner_text("#btn-level") == "Level: Easy"
    page.keyboard.press("Tab")  # from nowhere, back into the dialog
    assert page.evaluate(IN_FRIENDS)
    # Esc closes it, from a button or from a field, and the focus goes back to its button.
    for field in ("#fr-close", "#fr-level"):
        page.focus(field)
        page.keyboard.press("Escape")
        page.wait_for_selector("#friends", state="hidden")
        assert page.evaluate("() => document.activeElement.id") == "btn-friends"
        if field == "#fr-close":
            page.click("#btn-friends")
            page.wait_for_selector("#friends #fr-name")
    # The keys are the game's again; the first request the coach makes is this one (any made
    # behind the dialog would have been sent before it).
    with page.expect_response(lambda r: r.url.endswith("/cards-seen")):
        page.keyboard.press("c")
    page.wait_for_selector("#seen-panel .seen-card")
    coach = [r for r in page.watch.requests if r.endswith(("/hint", "/cards-seen", "/review"))]
    assert coach == [f"POST /api/games/{gid}/cards-seen"]
    assert "POST /api/games" not in page.watch.requests  # no new match
    view = server.game(gid)
    assert (view["version"], view["level"]) == (0, "easy")


def test_the_coach_keys_close_the_settings_as_the_coach_buttons_do(
        open_page: Callable[..., Any], server: Server) -> None:
    """With the settings open, C (and H, R) closes them and opens its panel in view, as the
    coach's buttons do, clicked; every other key of the game acts with the settings open too.
    (C and H once did nothing there while 1-0, N, L and D acted: a keyboard player could not
    tell why.) Esc closes the settings only."""
    page, gid = scripted(open_page, server)
    page.wait_for_selector("#hand.playable")
    page.click("#btn-settings")
    assert page.is_visible("#settings")
    page.keyboard.press("Escape")
    page.wait_for_selector("#settings", state="hidden")
    assert page.is_hidden("#seen-panel") and page.is_hidden("#coach-hint")
    page.click("#btn-settings")
    assert page.is_visible("#settings")
    with page.expect_response(lambda r: r.url.endswith("/cards-seen")):
        page.keyboard.press("c")
    page.wait_for_selector("#seen-panel .seen-card")
    assert page.is_hidden("#settings")
    assert [r for r in page.watch.requests if r.endswith(("/hint", "/cards-seen"))] == [
        f"POST /api/games/{gid}/cards-seen"]
    page.keyboard.press("c")
    page.wait_for_selector("#seen-panel", state="hidden")
    page.click("#btn-settings")
    with page.expect_response(lambda r: r.url.endswith("/hint")):
        page.keyboard.press("h")
    page.wait_for_selector("#coach-hint:visible")
    assert page.is_hidden("#settings")
    page.keyboard.press("h")
    page.wait_for_selector("#coach-hint", state="hidden")
    page.click("#btn-settings")
    assert page.is_visible("#settings")
    page.click("#btn-seen")
    page.wait_for_selector("#settings", state="hidden")
    page.wait_for_selector("#seen-panel .seen-card")


def test_a_second_tab_of_the_game_follows_it(open_page: Callable[..., Any],
                                              server: Server) -> None:
    """The same game in two tabs: one plays; the other draws the game as it is now without a
    touch (the server pushes every change to both), so its next card is played rather than
    refused as stale; and the two pages never race to play a computer's card."""
    here, gid = scripted(open_page, server)
    there = open_page(DESKTOP, game=gid)
    for page in (here, there):
        page.wait_for_selector("#hand.playable")
    n = here.locator("#hand .card").count()
    played = "n => document.querySelectorAll('#hand .card').length === n - 1" \
             " && document.querySelector('#hand.playable') !== null"
    here.click("#hand .card[data-code='9C']")
    here.wait_for_function(played, arg=n)
    there.wait_for_function(played, arg=n)
    assert codes(there, "#hand .card") == codes(here, "#hand .card")
    # A card that plays at a click: one with a choice of captures (the computers' cards, drawn
    # from the game's secret seed, left the first card one in about 25 games) waits for it.
    legal = [o["card"] for o in server.game(gid)["legal"]]
    card = next(c for c in codes(there, "#hand .card") if legal.count(c) == 1)
    there.click(f"#hand .card[data-code='{card}']")
    there.wait_for_function(played, arg=n - 1)
    here.wait_for_function(played, arg=n - 1)
    # No 409 on the way: the page's watch fails the test at teardown on any refused request.
    assert len(server.game(gid)["history"]) == 8
    for page in (here, there):
        assert not [r for r in page.watch.requests if r.endswith("/advance")]


def test_the_speed_setting_is_the_pace_the_server_plays_at(open_page: Callable[..., Any],
                                                          server: Server) -> None:
    """The page follows its game at the speed chosen (fast in these tests); choosing another
    follows it again at that one, and the computers play on at the new pace."""
    page, gid = scripted(open_page, server)
    page.wait_for_selector("#hand.playable")
    follows = [r for r in page.watch.requests if r.startswith(f"GET /api/games/{gid}/events")]
    assert follows == [f"GET /api/games/{gid}/events?speed=fast"]
    page.click("#btn-settings")
    with page.expect_request(lambda r: r.url.endswith(f"/api/games/{gid}/events?speed=normal")):
        page.select_option("#set-speed", "normal")
    page.click("#btn-close")
    page.click("#hand .card[data-code='9C']")
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 8"
                           " && document.querySelector('#hand.playable') !== null")
    assert [p["seat"] for p in server.game(gid)["history"]] == [0, 1, 2, 3]
