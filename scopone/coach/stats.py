"""A person's statistics across matches, as plain JSON-able data (what the store keeps).

Everything is counted from the person's own seat: "points" and "scope made" are their pair's,
"scope conceded" the other pair's. Averages are worked out when shown, so the stored data stays
sums and counts that a new round simply adds to.
"""

from __future__ import annotations

import copy
import time
from typing import Any

from ..engine import RoundScore

CATEGORIES = ("carte", "denari", "settebello", "primiera", "scope", "napola")
LEVELS = ("easy", "normal", "hard")
#: Points of the accuracy chart kept (the most recent rounds).
ACCURACY_KEPT = 100
#: Rounds remembered as already credited with an accuracy, so a review computed twice (two
#: processes at once) counts once.
REVIEWED_KEPT = 50


def empty_stats() -> dict[str, Any]:
    return {
        "levels": {lv: {"matches": 0, "matches_won": 0, "rounds": 0, "rounds_won": 0}
                   for lv in LEVELS},
        "rounds": 0,
        "points": dict.fromkeys(CATEGORIES, 0),
        "scope_made": 0,
        "scope_conceded": 0,
        "hints": 0,
        "cards_seen": 0,
        "accuracy": [],  # [[unix time, accuracy 0..1, judged plays], ...] oldest first
        "reviewed": [],
        "counted": [],  # the rounds counted (``credit_round``'s keys), whose accuracy may come
    }


def _filled(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``data`` with any field a newer release added, so old records keep working;
    the credits change the copy, never the caller's record (a failed write leaves it whole)."""
    base = empty_stats()
    for k, v in data.items():
        if k in base:
            base[k] = copy.deepcopy(v)
    for lv in LEVELS:
        base["levels"].setdefault(lv, empty_stats()["levels"][lv])
    return base


def credit_round(data: dict[str, Any], level: str, seat: int, score: RoundScore,
                 match_winner: int | None, match_level: str | None = None,
                 key: str | None = None) -> dict[str, Any]:
    """Adds a finished round at ``level`` (and the match at ``match_level``, by default the
    same, when ``match_winner`` is a pair) for ``seat``; ``key`` (game, round and seat) is
    what its review's accuracy will be credited under (``credit_accuracy``)."""
    out = _filled(data)
    if key is not None:
        out["counted"] = [*out["counted"], key][-REVIEWED_KEPT:]
    me, them = seat % 2, 1 - seat % 2
    lv = out["levels"].setdefault(level, empty_stats()["levels"]["easy"])
    lv["rounds"] += 1
    a_b = score.points
    if a_b[me] > a_b[them]:
        lv["rounds_won"] += 1
    if match_winner is not None:
        mv = out["levels"].setdefault(match_level or level, empty_stats()["levels"]["easy"])
        mv["matches"] += 1
        if match_winner == me:
            mv["matches_won"] += 1
    out["rounds"] += 1
    for cat in CATEGORIES:
        out["points"][cat] += getattr(score, cat)[me]
    out["scope_made"] += score.tallies[me].scope
    out["scope_conceded"] += score.tallies[them].scope
    return out


def credit_help(data: dict[str, Any], kind: str) -> dict[str, Any]:
    """Counts one hint (``"hints"``) or one opening of the cards seen (``"cards_seen"``)."""
    out = _filled(data)
    out[kind] += 1
    return out


def credit_accuracy(data: dict[str, Any], key: str, value: float | None, judged: int,
                    when: float | None = None) -> dict[str, Any]:
    """Adds a reviewed round's accuracy once per ``key`` (game, round and seat), for a round
    counted since the statistics were last cleared: a review judged after a clearing, of a
    round played before it, adds nothing (a late review once brought a cleared round back)."""
    out = _filled(data)
    if key in out["reviewed"] or value is None or key not in out["counted"]:
        return out
    out["reviewed"] = [*out["reviewed"], key][-REVIEWED_KEPT:]
    out["accuracy"] = [*out["accuracy"], [round(when or time.time(), 1), round(value, 4),
                                          judged]][-ACCURACY_KEPT:]
    return out


def stats_summary(data: dict[str, Any]) -> dict[str, Any]:
    """What the statistics page shows: counts, averages per round, the accuracy series."""
    d = _filled(data)
    n = d["rounds"]
    return {
        "levels": [{"level": lv, **d["levels"][lv]} for lv in LEVELS],
        "rounds": n,
        "average_points": {c: (d["points"][c] / n if n else 0.0) for c in CATEGORIES},
        "scope_made": d["scope_made"],
        "scope_conceded": d["scope_conceded"],
        # SPEC §7: opening the cards seen is counted like a hint; the split stays visible.
        "hints": d["hints"] + d["cards_seen"],
        "cards_seen": d["cards_seen"],
        "accuracy": [{"time": t, "accuracy": a, "judged": j} for t, a, j in d["accuracy"]],
    }
