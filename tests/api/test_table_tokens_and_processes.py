"""Seat tokens of any text, and the processes whose event streams keep a seat connected
(``scopone.web.table``). Mutation testing of scopone/web/table.py showed that no test noticed
these going wrong."""

from __future__ import annotations

import os

import pytest

from scopone.web import errors as e
from scopone.web import table as t


@pytest.mark.parametrize("token", ["\udc80", "abc\ud800", "\udfff" * 40, "é", "\x00"])
def test_any_text_is_a_wrong_token_never_an_error(token: str) -> None:
    """A token that is not valid UTF-8 text (a lone surrogate, as a Python caller or a decoder
    with ``surrogateescape`` may hand over) is hashed like any other: 403, not a crash."""
    table = t.new_table("Anna", t.new_token(), 60, False)
    digest = t.token_hash(token)
    assert len(digest) == 64 and int(digest, 16) >= 0
    with pytest.raises(e.Forbidden):
        t.seat_of_token(table, token)
    t.sit(table, 1, "Bo", token)
    assert t.seat_of_token(table, token) == 1


def test_a_process_that_cannot_be_signalled_is_not_known_dead(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Another user's live process (``os.kill`` is not permitted) keeps its streams: judged dead,
    its seats would show their people gone and the computer would play their cards."""
    host = t.process_name().split(":")[0]

    def not_permitted(pid: int, sig: int) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "kill", not_permitted)
    assert not t.pid_gone(f"{host}:1:abcd")
