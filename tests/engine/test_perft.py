"""Perft: fixed positions with move counts computed by the reference (data/perft.txt)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scopone import Round
from scopone.engine import parse_cards

DATA = Path(__file__).with_name("data") / "perft.txt"


def _positions() -> list[tuple[str, Round, list[int]]]:
    out = []
    for line in DATA.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        hands, table, turn, *counts = (part.strip() for part in line.split(";"))
        r = Round.from_deal([parse_cards(h) for h in hands.split("|")], parse_cards(table),
                            dealer=(int(turn) - 1) % 4)
        out.append((line, r, [int(c) for c in counts if c != "-"]))
    return out


POSITIONS = _positions()


def perft(r: Round, depth: int) -> int:
    """Move sequences of exactly ``depth`` plays, through the fast path (copy + apply)."""
    if depth == 0:
        return 1
    if depth == 1:
        return len(r.legal_pairs())
    total = 0
    for card, capture in r.legal_pairs():
        child = r.copy()
        child.apply(card, capture)
        total += perft(child, depth - 1)
    return total


def test_the_data_file_is_there() -> None:
    assert len(POSITIONS) >= 40
    assert all(len(counts) == 3 for _, _, counts in POSITIONS)


@pytest.mark.parametrize(("line", "r", "counts"), POSITIONS, ids=range(len(POSITIONS)))
def test_move_counts(line: str, r: Round, counts: list[int]) -> None:
    moves = r.legal_moves()
    assert len(moves) == counts[0]
    assert len(set(moves)) == len(moves), "a move is listed twice"
    assert [(m.card.index, m.capture_mask) for m in moves] == r.legal_pairs()
    for depth, expected in enumerate(counts, start=1):
        assert perft(r, depth) == expected, f"depth {depth}"


def test_perft_through_the_public_path() -> None:
    # play() with checks must allow exactly the moves legal_moves() lists, from every child too.
    _, r, counts = POSITIONS[0]
    total = 0
    for move in r.legal_moves():
        child = r.copy(history=True)
        child.play(move)
        total += len(child.legal_moves())
    assert total == counts[1]
