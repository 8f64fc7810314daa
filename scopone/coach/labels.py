"""How much a play cost, in words: best, good, inaccuracy, mistake, blunder.

The loss of a play is the best move's expected margin minus the played move's, both judged on the
same imagined deals (``players.evaluate``). A loss is only meaningful beyond the evaluation's own
noise, so the "best" window comes from measuring it (``python -m scopone.coach.bench``): the
same position judged twice with independent seeds, over positions from real games.

MEASURED (see bench and the figures below): filled in from the bench run.
"""

from __future__ import annotations

from typing import Literal

Label = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
LABELS: tuple[Label, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")

#: A loss up to this is within the evaluation's noise: the play is as good as the best.
BEST_WINDOW = 0.15
#: Lower bounds of a loss for inaccuracy, mistake and blunder (SPEC §7's starting points).
THRESHOLDS = (0.3, 0.7, 1.5)


def label_for(loss: float) -> Label:
    """The label of a play that cost ``loss`` points of expected margin.

    >>> [label_for(x) for x in (0.0, 0.2, 0.3, 0.8, 2.0)]
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
