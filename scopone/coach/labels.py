"""How much a play cost, in words: best, good, inaccuracy, mistake, blunder.

The loss of a play is the best move's expected margin minus the played move's, both judged on the
same imagined deals (``players.evaluate``). A loss is only meaningful beyond the evaluation's own
noise, so the "best" window comes from measuring it (``python -m scopone.coach.bench``): the
same position judged twice with independent seeds, over positions from real games.

Measured (``python -m scopone.coach.bench noise --positions 200``, 200 positions from games of
four Normal players, 1,271 legal moves, JUDGE_LIMITS of 0.5 s or 200 deals, on the shared 2-core
machine): the difference between two runs' losses of the same move has sd 0.24; |difference|
median 0.125, p90 0.42, p95 0.52, p99 0.67. One run's loss therefore errs by about
0.24 / sqrt(2) = 0.17 (sd), and the best move itself differs between two runs in 72 of 200
positions (near-ties, mostly). Hence:

- best: loss <= 0.25, about 1.5 sd of one run's error: a play that is truly as good as the best
  is called best nearly nine times in ten, not "good" for the noise of the dice.
- inaccuracy from 0.5 (SPEC's 0.3 was inside the noise: two runs disagree by more than 0.3 in
  over one case in five; 0.5 is their p95), so an inaccuracy is one in another run too.
- mistake from 0.8: beyond the p99 of the noise (0.67), a real loss nearly a point.
- blunder from 1.5, as SPEC §7: a scopa or the settebello handed over; far beyond the noise.
- good: between best and inaccuracy (0.25-0.5): probably a little worse, within what the
  evaluation can tell.
"""

from __future__ import annotations

from typing import Literal

Label = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
LABELS: tuple[Label, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")

#: A loss up to this is within the evaluation's noise: the play is as good as the best.
BEST_WINDOW = 0.25
#: Lower bounds of a loss for inaccuracy, mistake and blunder (SPEC §7 started from 0.3, 0.7 and
#: 1.5; moved to clear the measured noise, see above).
THRESHOLDS = (0.5, 0.8, 1.5)


def label_for(loss: float) -> Label:
    """The label of a play that cost ``loss`` points of expected margin.

    >>> [label_for(x) for x in (0.0, 0.3, 0.6, 1.0, 2.0)]
    ['best', 'good', 'inaccuracy', 'mistake', 'blunder']
    """
    if loss <= BEST_WINDOW:
        return "best"
    inaccuracy, mistake, blunder = THRESHOLDS
    if loss < inaccuracy:
        return "good"
    if loss < mistake:
        return "inaccuracy"
    if loss < blunder:
        return "mistake"
    return "blunder"


def accuracy(labels: list[Label]) -> float | None:
    """The share of judged plays rated best or good; None when nothing was judged.

    >>> accuracy(["best", "good", "mistake", "blunder"]), accuracy([])
    (0.5, None)
    """
    if not labels:
        return None
    return sum(1 for x in labels if x in ("best", "good")) / len(labels)
