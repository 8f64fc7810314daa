"""The coach's judgements as plain JSON-able data, computed where the server sends them: in a
worker process (these functions are top-level and import nothing of the web)."""

from __future__ import annotations

import random
from typing import Any

from ..engine import Move, Rules, SeatView
from ..players.search import SearchLimits
from ..workers import in_pool
from .hint import hint_for
from .reasons import reasons
from .review import Option, PlayReview, RoundTrace, review_round

#: At most this many deals judge a position (as players.evaluate.JUDGE_LIMITS).
DEALS = 200
#: A review's play is judged on its ``DEALS`` imagined deals however long they take, up to
#: this many times a hint's seconds: judged on fewer when the time ran out, the same round
#: judged again (only the latest ``web.coach.REVIEWS_KEPT`` are stored) said something else
#: (QA: 5 of 16 older reviews asked again, a loss of 2.11 then 1.84, another best move). 200
#: deals of a round's first play take 0.28 to 0.50 s of CPU here; 2 s leaves room for a busy
#: machine, mostly spent in the background at the round's end, not while a person waits.
REVIEW_SLACK = 4.0


def codes(cards: Any) -> list[str]:
    """Card codes in the deck's order, as the game's views list them."""
    return [str(c) for c in sorted(cards, key=lambda c: c.index)]


def warm() -> None:
    """Imports the search in a fresh worker, so the first real judgement does not pay for it."""
    from ..players import hard  # noqa: F401


def _move(m: Move) -> dict[str, Any]:
    return {"card": str(m.card), "capture": codes(m.capture)}


def _why(view: SeatView, m: Move) -> dict[str, Any]:
    """A move the coach names, with its reasons in ``view``: the position it was chosen in."""
    return {**_move(m), "reasons": reasons(view, m)}


def _option(view: SeatView, o: Option) -> dict[str, Any]:
    return {**_why(view, o.move), "margin": round(o.margin, 3)}


def _play(p: PlayReview, view: SeatView) -> dict[str, Any]:
    """``view``: the seat's view just before the play, all it knew then."""
    return {"index": p.index, "hand": codes(p.hand), "table": codes(p.table),
            "played": _why(view, p.played), "scopa": p.scopa, "forced": p.forced,
            "best": None if p.best is None else _why(view, p.best), "label": p.label,
            "loss": None if p.loss is None else round(p.loss, 3),
            "options": [_option(view, o) for o in p.options], "by_computer": p.by_computer}


@in_pool
def compute_hint(view: SeatView, seed: str, seconds: float) -> dict[str, Any]:
    h = hint_for(view, random.Random(seed), SearchLimits(seconds, DEALS, prune=False))
    # A forced move (no deals): nothing was compared, and its one option's 0 is no expected
    # margin, so no options are sent to show as one.
    options = [_option(view, o) for o in h.options] if h.deals else []
    # The move stays a move one can play as it is; its reasons go beside it.
    return {"move": _move(h.best.move), "reasons": reasons(view, h.best.move),
            "options": options, "deals": h.deals}


@in_pool
def compute_review(trace: dict[str, Any], rules: dict[str, Any], seat: int, seed: str,
                   seconds: float) -> dict[str, Any]:
    """The review of ``seat``'s plays, and the round's public plays with their scopa marks."""
    t = RoundTrace.from_dict(trace, Rules(**rules))
    rev = review_round(t, seat, seed, SearchLimits(seconds, DEALS, prune=False))
    r = t.deal()
    history = []
    views: dict[int, SeatView] = {}  # the seat's view before each of its plays
    for i, (s, m) in enumerate(t.plays):
        if s == seat:
            views[i] = SeatView.of(r, seat)
        play = r.play(m, seat=s)
        history.append({"seat": s, **_move(m), "scopa": play.scopa,
                        "by_computer": i in t.by_computer})
    plays = [_play(p, views[p.index]) for p in rev.plays]
    return {"seat": seat, "plays": plays, "history": history,
            "accuracy": rev.accuracy, "counts": rev.counts}


