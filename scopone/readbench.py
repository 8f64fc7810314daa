"""How near each reading of the table comes to the true hands: ``python -m scopone.readbench``.

Showing Hard any one of the three hidden hands wins it about a point a round (``arena``'s
``peek``: partner +1.18 ± 0.23, next opponent +1.02 ± 0.20), so what a reading is worth is how
much of the unseen cards it places right. This measures that in a minute where the arena takes
ten: positions come from rounds Hard plays against itself (as in the arena; ``--level normal``
reads Normal's rounds instead), and at each one every reading imagines the unseen cards
``--samples`` times. For each hidden seat (the next opponent, the partner, the previous
opponent):

- *placed right*: the share of the seat's imagined cards that it truly holds (a third by chance
  when the three hands are even; 1 for a hand shown);
- *bits a card*: for each card the seat truly holds, log2 of the share of imagined deals that
  gave it to that seat (drawn towards chance by ``PRIOR``), minus log2 of its chance there (the
  seat's hand size over the unseen cards). Zero for a reading that knows nothing, less what
  a share estimated from few deals scatters (``off`` reads about −0.03 at 40 deals): compare
  readings at the same ``--samples``. Unlike *placed right*, it punishes a reading sure of a
  wrong seat.

Measured (stop 22, the default command, 112 s): bits a card ``off`` −0.03, ``voids`` +0.01,
``plays`` +0.01, ``policy`` +0.05, ``chain`` +0.02; placed right 0.335, 0.352, 0.377, 0.376,
0.390 (0.431 to 0.476 in the 33rd to 36th plays for the last three). The arena's order follows
the bits, not the share placed right (``policy`` − ``plays`` +0.19 ± 0.21, ``chain`` −
``policy`` +0.04 ± 0.22: the chain places most right but is surer of wrong seats too). A
hand shown is 1.58 bits a card: the readings have a twentieth of it. Normal's rounds say more
to a sharp model: ``policy`` +0.05 there too, but ``chain:beta=8,steps=16`` +0.15 (on Hard's
rounds +0.03: surer of wrong seats), and reading each seat as one of two types
(``sharp``, ``likelihood.typed_loglik``) keeps most of both: ``policy:sharp=8,pool=16`` +0.12
on Normal's rounds, +0.07 on Hard's. A reading that scores higher here is not yet stronger: the
arena decides.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence

from .engine import Round, Rules, SeatView
from .players import LEVELS, make_player
from .players.chain import STEPS
from .players.hard import READINGS, HardPlayer, deal_sampler
from .players.inference import BETA
from .players.likelihood import MIX, POOL

#: The hidden seats, counted from the seat to play.
SEATS = {1: "next", 2: "partner", 3: "previous"}
#: Phases by plays made, eight each but the last (the last four plays are left out: with one
#: card a hand the readings have little left to place).
PHASES = ("1-8", "9-16", "17-24", "25-32", "33-36")
#: Weight, in imagined deals, of a prior at chance that keeps an estimated share off zero
#: (and keeps a reading that knows nothing near zero bits).
PRIOR = 2.0


def positions(deals: int, seed: int, iterations: int, level: str = "hard"
              ) -> Iterator[tuple[Round, int]]:
    """Rounds of ``level`` against itself (Hard at ``iterations`` deals a move), yielded before
    each play with at least five plays left, with the phase (index in ``PHASES``) that play
    falls in."""
    player = HardPlayer(iterations=iterations) if level == "hard" else make_player(level)
    for i in range(deals):
        r = Round.deal(Rules(), i % 4, random.Random(f"{seed}:deal:{i}"))
        rngs = [random.Random(f"{seed}:{i}:{s}") for s in range(4)]
        while not r.is_over:
            seat = r.turn
            if r.plays_left > 4:
                yield r, (40 - r.plays_left) // 8
            r.play(player.choose(SeatView.of(r, seat), rngs[seat]), seat)


def score(truth: Round, sample: Callable[[random.Random], Round], rng: random.Random,
          samples: int) -> dict[int, tuple[float, float, int]]:
    """For each hidden seat (``SEATS``) holding cards: placed right, bits a card, and the number
    of cards behind the bits, over ``samples`` imagined deals from the seat to play's view."""
    seat = truth.turn
    hidden = [k for k in SEATS if truth.hands[(seat + k) % 4]]
    unseen = sum(len(truth.hands[(seat + k) % 4]) for k in hidden)
    right = dict.fromkeys(hidden, 0.0)
    given: dict[tuple[int, int], int] = defaultdict(int)  # (hidden seat, card): deals giving it
    for _ in range(samples):
        d = sample(rng)
        for k in hidden:
            s = (seat + k) % 4
            true = set(truth.hands[s])
            held = d.hands[s]
            right[k] += sum(c in true for c in held) / len(true)
            for c in held:
                given[k, c] += 1
    out = {}
    for k in hidden:
        cards = truth.hands[(seat + k) % 4]
        chance = len(cards) / unseen
        bits = sum(math.log2((given[k, c] + PRIOR * chance) / (samples + PRIOR) / chance)
                   for c in cards)
        out[k] = (right[k] / samples, bits / len(cards), len(cards))
    return out


#: Settings a reading may take after a colon, as in the arena (``policy:beta=1,pool=8``).
OPTIONS = ("beta", "pool", "mix", "pbeta", "steps", "sharp")


def parse_reading(text: str) -> tuple[str, dict[str, float]]:
    """A reading's name and its settings.

    >>> parse_reading("chain:beta=1,steps=16")
    ('chain', {'beta': 1.0, 'steps': 16.0})
    """
    name, _, opts = text.partition(":")
    if name not in READINGS:
        raise ValueError(f"unknown reading {name!r}; expected one of {', '.join(READINGS)}")
    settings = {}
    for item in filter(None, opts.split(",")):
        key, _, value = item.partition("=")
        if key not in OPTIONS:
            raise ValueError(f"unknown setting {key!r}; expected one of {', '.join(OPTIONS)}")
        try:
            settings[key] = float(value)
        except ValueError:
            raise ValueError(f"{key} takes a number, not {value!r}") from None
    return name, settings


def sampler(view: SeatView, reading: str) -> Callable[[random.Random], Round]:
    """The deals ``reading`` (a name with settings) imagines from this view."""
    name, opts = parse_reading(reading)
    return deal_sampler(view, name, beta=opts.get("beta", BETA), pool=int(opts.get("pool", POOL)),
                        mix=opts.get("mix", MIX), partner_beta=opts.get("pbeta"),
                        steps=int(opts.get("steps", STEPS)), sharp=opts.get("sharp"))


def measure(readings: Sequence[str], deals: int, seed: int, iterations: int, samples: int,
            level: str = "hard") -> dict[tuple[str, int, int], list[float]]:
    """Totals by (reading, hidden seat, phase): [placed right summed, positions, bits summed,
    cards]."""
    totals: dict[tuple[str, int, int], list[float]] = defaultdict(lambda: [0.0, 0, 0.0, 0])
    for n, (truth, phase) in enumerate(positions(deals, seed, iterations, level)):
        view = SeatView.of(truth, truth.turn)
        for reading in readings:
            # The same generator for every reading at a position: their differences are theirs.
            got = score(truth, sampler(view, reading), random.Random(f"{seed}:{n}"), samples)
            for k, (right, bits, cards) in got.items():
                t = totals[reading, k, phase]
                t[0] += right
                t[1] += 1
                t[2] += bits * cards
                t[3] += cards
    return totals


def _sum(totals: dict[tuple[str, int, int], list[float]], reading: str,
         seats: Sequence[int], phases: Sequence[int]) -> tuple[float, float]:
    # Placed right (a mean over positions and seats) and bits a card, over the cells given.
    cells = [totals[reading, k, p] for k in seats for p in phases if (reading, k, p) in totals]
    seen = sum(c[1] for c in cells)
    cards = sum(c[3] for c in cells)
    return (sum(c[0] for c in cells) / seen if seen else math.nan,
            sum(c[2] for c in cells) / cards if cards else math.nan)


def report(totals: dict[tuple[str, int, int], list[float]], readings: Sequence[str]
           ) -> list[str]:
    """The figures as text lines: by hidden seat, then placed right by phase."""
    every = range(len(PHASES))
    lines = ["placed right (bits a card)   " + "".join(f"{SEATS[k]:>17}" for k in SEATS)
             + f"{'all':>17}"]
    for reading in readings:
        cells = [_sum(totals, reading, [k], every) for k in SEATS]
        cells.append(_sum(totals, reading, list(SEATS), every))
        lines.append(f"{reading:<28} " + "".join(f"{r:>9.3f} ({b:+.3f})" for r, b in cells))
    lines.append("placed right by plays made   " + "".join(f"{p:>9}" for p in PHASES))
    for reading in readings:
        lines.append(f"{reading:<28} " + "".join(
            f"{_sum(totals, reading, list(SEATS), [p])[0]:>9.3f}" for p in every))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopone.readbench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=30, help="rounds played and read")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--level", choices=LEVELS, default="hard",
                        help="who plays the rounds read (all four seats)")
    parser.add_argument("--iterations", type=int, default=100,
                        help="imagined deals a move of the Hard that plays the rounds")
    parser.add_argument("--samples", type=int, default=40,
                        help="imagined deals a reading makes at each position")
    parser.add_argument("readings", nargs="*", default=list(READINGS),
                        help=f"readings to compare (default all: {' '.join(READINGS)}), each "
                             f"perhaps with settings after a colon: {', '.join(OPTIONS)} "
                             "(e.g. policy:beta=1,pool=8)")
    args = parser.parse_args(argv)
    try:
        for reading in args.readings:
            parse_reading(reading)
    except ValueError as e:
        parser.error(str(e))
    if args.deals < 1 or args.samples < 1 or args.iterations < 1:
        parser.error("--deals, --samples and --iterations must be positive")
    readings = args.readings
    started = time.perf_counter()
    totals = measure(readings, args.deals, args.seed, args.iterations, args.samples, args.level)
    who = (f"Hard ({args.iterations} deals a move, seed {args.seed})" if args.level == "hard"
           else f"{args.level.capitalize()} (seed {args.seed})")
    print(f"{args.deals} rounds of {who}, "
          f"{args.samples} imagined deals a reading a position")
    for line in report(totals, readings):
        print(line)
    print(f"wall time {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
