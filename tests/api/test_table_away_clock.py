"""When the computer plays a person's card (SPEC §6: disconnected, or out of time), coming
back, and the marks of the cards it chose for a person (``scopone.web.table``). Mutation
testing of scopone/web/table.py showed that no test noticed these going wrong."""

from __future__ import annotations

from scopone.web import table as t

# Anna (host, seat 0) and Carla (seat 2) with two computers, started at t=100; nobody's
# browser has opened an event stream yet.
from .test_table_rules import _playing, _turn_to

PACE = 0.7
GRACE = 5.0


def test_a_person_who_never_opened_the_page_is_timed_by_the_away_option_only() -> None:
    """A person who sat down (the answer holds their token) but never opened an event stream
    is not shown connected and has no time they left: their card is due after the table's
    away time, and never when the option is "never" (SPEC §6's 60 s default)."""
    for seat in (0, 2):  # the host's seat and a seat taken in the lobby
        rec, table = _playing(away_seconds=60)
        _turn_to(rec, seat)
        s = table["seats"][seat]
        assert s["kind"] == "person" and not s["connected"] and s["gone_since"] is None
        assert t.next_due(rec, table, PACE, GRACE) == (160.0, seat)
        table["options"]["away_seconds"] = None
        assert t.next_due(rec, table, PACE, GRACE) is None


def test_a_person_gone_since_before_their_turn_is_played_for_at_the_pace() -> None:
    """Their page closed long before their turn: the card comes at the pace after the last
    change (the computers' speed), not before it, nor a grace after they left."""
    rec, table = _playing(away_seconds=None)
    _turn_to(rec, 2)
    seat = table["seats"][2]
    seat["connected"], seat["gone_since"] = False, 20.0  # 80 s before the last change
    assert t.next_due(rec, table, PACE, GRACE) == (100.0 + PACE, 2)
    seat["gone_since"] = 99.0  # just before: the grace from when they left decides
    assert t.next_due(rec, table, PACE, GRACE) == (99.0 + GRACE, 2)


def test_being_back_clears_away_once() -> None:
    _, table = _playing(away_seconds=60)
    seat = table["seats"][2]
    assert t.back(table, 2) is False and seat["away"] is False  # not away: nothing changes
    seat["away"] = True
    assert t.back(table, 2) is True
    assert seat["away"] is False
    assert t.back(table, 2) is False


def test_a_table_stored_before_the_marks_were_kept_gets_them_from_then_on() -> None:
    rec, table = _playing(away_seconds=60)
    del table["by_computer"]  # as stored by a version that did not keep them
    _turn_to(rec, 2)
    done = len(rec.match.round.history or ())
    t.computer_chose(rec, table, 2)  # Carla's card, chosen for her
    assert t.chosen_by_computer(table) == {done}
    assert table["by_computer"] == [done]
