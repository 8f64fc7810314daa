"""The turn clock at a table (SPEC §6): everyone sees how long the person to play has before the
computer plays their card, counting down; the person hears one warning ten seconds before; a
person whose page closed shows "offline" and the grace left. What each page showed is recorded
as it changed (a MutationObserver), so a state shown for a moment is never missed."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE
from .test_tables import (  # noqa: F401  (fixtures)
    TableServer,
    _shorten_away,
    people,
    play_until,
    tserver,
)

pytestmark = pytest.mark.browser

# Every change of the clock (seat, reason, text, low) and every announcement, in order.
RECORD_CLOCK = """() => {
  window.clockSeen = [];
  window.said = [];
  const clock = document.getElementById('turn-clock');
  const note = () => {
    const entry = clock.hidden ? null : [Number(clock.dataset.seat), clock.dataset.reason,
                                         clock.textContent, clock.classList.contains('low')];
    const last = window.clockSeen[window.clockSeen.length - 1];
    if (JSON.stringify(last) !== JSON.stringify(entry)) window.clockSeen.push(entry);
  };
  const all = { attributes: true, childList: true, characterData: true, subtree: true };
  new MutationObserver(note).observe(clock, all);
  const live = document.getElementById('announce');
  new MutationObserver(() => window.said.push(live.textContent)).observe(live, all);
}"""
# The clock entries of `seat` for `reason` seen so far.
SEEN = """([seat, reason]) => window.clockSeen
  .filter((e) => e && e[0] === seat && e[1] === reason)"""
WARNING = "Ten seconds left, then the computer plays your card."


def _seconds(text: str) -> int:
    m = re.search(r"(\d+):(\d\d)", text)
    assert m, text
    return int(m.group(1)) * 60 + int(m.group(2))


def _seen(page: Any, seat: int, reason: str, count: int) -> list[list[Any]]:
    """Waits until the page has shown ``count`` different clocks of ``seat`` for ``reason``."""
    page.wait_for_function(f"arg => ({SEEN})(arg).length >= {count}", arg=[seat, reason])
    return list(page.evaluate(SEEN, [seat, reason]))


def test_everyone_sees_the_clock_of_the_person_to_play(tserver: TableServer,  # noqa: F811
                                                       people: Any) -> None:  # noqa: F811
    srv = tserver
    r = srv.http.post("/api/tables", json={"name": "Anna", "level": "easy", "away_seconds": 30,
                                           "target": 21})
    assert r.status_code == 201, r.text
    code, anna_token = r.json()["table"]["code"], r.json()["token"]
    r = srv.http.post(f"/api/tables/{code}/seats/2", json={"name": "Carla"})
    assert r.status_code == 201, r.text
    carla_token = r.json()["token"]
    anna = people(DESKTOP, f"{srv.url}/t/{code}",
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": anna_token})})
    carla = people(PHONE, f"{srv.url}/t/{code}",
                   {f"scopone.seat.{code}": json.dumps({"seat": 2, "token": carla_token})})
    for person in (anna, carla):
        person.page.wait_for_function("() => document.body.dataset.connection === 'open'")
        person.page.evaluate(RECORD_CLOCK)
    anna.page.wait_for_selector("#lobby-seat-t:has-text('Carla'):not(:has-text('offline'))")
    assert anna.page.locator("#turn-clock").is_hidden()  # the lobby has no clock
    r = srv.http.post(f"/api/tables/{code}/start", json={"version": srv.view(code)["version"]},
                      headers={"Authorization": f"Bearer {anna_token}"})
    assert r.status_code == 200, r.text

    # Anna's turn: she has 30 s "to play", Carla sees the same clock; both count down.
    play_until(srv, code, anna, {2: carla_token}, lambda v: v["game"]["turn"] == 0)
    mine = _seen(anna.page, 0, "turn", 2)
    assert all(text.endswith("left to play") and not low for _, _, text, low in mine), mine
    assert 30 >= _seconds(mine[0][2]) > _seconds(mine[1][2]) >= 20, mine
    theirs = _seen(carla.page, 0, "turn", 2)
    assert all(re.fullmatch(r"0:\d\d left", text) for _, _, text, _ in theirs), theirs
    assert anna.page.locator("#turn-clock").is_visible()

    # Carla's turn: her clock on both pages. She closes her page: after the server notices, the
    # others see her offline and the grace left, then the computer plays her card.
    play_until(srv, code, anna, {0: anna_token}, lambda v: v["game"]["turn"] == 2)
    assert all(t.endswith("left to play") for _, _, t, _ in _seen(carla.page, 2, "turn", 1))
    assert all(t.endswith(" left") for _, _, t, _ in _seen(anna.page, 2, "turn", 1))
    carla.context.close()
    offline = _seen(anna.page, 2, "offline", 1)
    assert all(re.fullmatch(r"offline: the computer plays in 0:0[01]", t)
               for _, _, t, _ in offline), offline
    anna.page.wait_for_selector("#seat-2.away")

    # Anna's next turn with 12 s to play: the last ten seconds show red, she hears one warning,
    # and when the clock runs out the computer plays her card.
    play_until(srv, code, anna, {}, lambda v: v["game"]["turn"] == 0)
    _shorten_away(srv, code, 12)
    anna.page.wait_for_function("w => window.said.includes(w)", arg=WARNING)
    anna.page.wait_for_selector("#seat-0.away")
    shown = _seen(anna.page, 0, "turn", 1)
    red = [_seconds(text) for _, _, text, low in shown if low]
    assert red and max(red) <= 10 and all(
        _seconds(text) > 10 for _, _, text, low in shown if not low), shown
    assert anna.page.evaluate("() => window.said").count(WARNING) == 1
    assert srv.view(code)["seats"][0]["away"]
