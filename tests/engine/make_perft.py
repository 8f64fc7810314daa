"""Writes data/perft.txt: fixed positions and their move counts, computed by the reference only.

Run ``python tests/engine/make_perft.py`` to regenerate; the engine is never asked for a count,
so the file is an independent check of it (see test_perft.py).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

DATA = Path(__file__).with_name("data") / "perft.txt"

#: Hand-made positions that stress the capture rule: (hands, table, seat to play).
CRAFTED = [
    # Equal ranks on the table beside sums of the same value: only the single cards count.
    (["7D 7B 5D 2C 9S", "1B 3S 8C 6D 10C", "2B 4D 9C 6S 10D", "1C 8S 3B 5C 10S"],
     "7C 7S 3D 4C 2D 5B", 0),
    # Many small cards: many sums.
    (["6B 8D 9D 10B 7B", "5S 8B 9B 10C 2S", "7D 8C 9S 10D 4S", "6S 7S 8S 9C 10S"],
     "1D 1C 2D 2B 3C 3S 4D 5D", 1),
    # A table of kings and figures: kings never sum, 8 and 9 only as 1+7, 2+7, 4+5 ...
    (["10D 9D 8D 1S 2S", "10C 9C 8C 3S 4S", "5C 6C 7C 5D 6D", "10S 9S 8S 5B 6B"],
     "10B 9B 8B 1B 7S 4B", 2),
    # Seat 3 to play with one card more than seat 0: a hand played mid-round.
    (["1C 2C", "3C 4C", "5C 6C", "7C 8C 9C"], "1D 2D 3D 4D 5D 6D", 3),
]


def _line(ref: object, hands: list[list[object]], table: list[object], turn: int) -> str:
    r = ref.RefRound([h[:] for h in hands], table[:], turn)  # type: ignore[attr-defined]
    moves = ref.perft(r, 1)  # type: ignore[attr-defined]
    d2 = ref.perft(r, 2)  # type: ignore[attr-defined]
    d3 = ref.perft(r, 3) if d2 <= 2500 else "-"  # type: ignore[attr-defined]
    text = "|".join(" ".join(str(c) for c in h) for h in hands)
    return f"{text} ; {' '.join(str(c) for c in table)} ; {turn} ; {moves} ; {d2} ; {d3}"


def main() -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    import reference as ref

    from scopone import DECK, Card
    from scopone.engine import parse_cards

    rng = random.Random(20261202)
    lines = [
        "# hands of seats 0|1|2|3 ; table ; seat to play ; legal moves ; sequences of 2 plays ;",
        "# sequences of 3 plays (- when not computed). Made by make_perft.py from reference.py.",
    ]
    for hands_text, table_text, turn in CRAFTED:
        hands = [parse_cards(h) for h in hands_text]
        lines.append(_line(ref, hands, parse_cards(table_text), turn))
    for i in range(40):
        deck: list[Card] = list(DECK)
        rng.shuffle(deck)
        classico = i % 2 == 1
        n = 9 if classico else 10
        hands = [sorted(deck[k * n:(k + 1) * n]) for k in range(4)]
        table = sorted(deck[4 * n:])
        r = ref.RefRound(hands, table, rng.randrange(4))
        for _ in range(rng.randrange(0, 28)):
            moves = sorted(r.moves(), key=lambda m: (m[0], sorted(m[1])))
            r.play(*moves[rng.randrange(len(moves))])
        lines.append(_line(ref, r.hands, sorted(r.table), r.turn))
    DATA.write_text("\n".join(lines) + "\n")
    print(f"wrote {len(lines) - 2} positions to {DATA}")


if __name__ == "__main__":
    main()
