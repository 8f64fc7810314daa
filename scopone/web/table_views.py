"""A table as one viewer sees it: a seat (its own hand, its legal moves) or nobody (the lobby,
a spectator: no hand at all). Built from the stored record for each viewer, never shared."""

from __future__ import annotations

import time
from typing import Any

from .coach import match_number
from .schemas import RulesOut
from .schemas_tables import (
    ClockOut,
    LastMatchOut,
    OptionsOut,
    SeatOut,
    TableGameOut,
    TableView,
)
from .store import GameRecord
from .table import PAIRS, Timing, chosen_by_computer, former_holders, phase_of, turn_clock
from .views import view_for


def table_view(rec: GameRecord, table: dict[str, Any], seat: int | None,
               timing: Timing) -> TableView:
    m = rec.match
    phase = phase_of(rec, table)
    game = None
    if phase != "lobby":
        history = rec.match.round.history or ()
        view = view_for(rec, seat, other="their_turn", by_computer=chosen_by_computer(table),
                        held_by=former_holders(table, [p.seat for p in history]))
        clock = turn_clock(rec, table, timing.pace, timing.reconnect, time.time())
        last = table.get("last_match")
        game = TableGameOut(
            seat=seat, match=match_number(rec) + 1, **view,
            clock=None if clock is None else ClockOut(
                seat=clock[0], reason=clock[1], seconds=round(clock[2], 1)),
            last_match=None if last is None else LastMatchOut(**last))
    return TableView(
        code=rec.code or "",
        version=rec.version,
        phase=phase,  # type: ignore[arg-type]
        you=seat,
        host=table["host"],
        options=OptionsOut(
            level=rec.level,  # type: ignore[arg-type]
            away_seconds=table["options"]["away_seconds"],
            hints=table["options"]["hints"],
            rules=RulesOut(variant=m.rules.variant, napola=m.rules.napola,
                           target=m.rules.target)),
        seats=[SeatOut(seat=i, pair=PAIRS[i % 2], kind=s["kind"], name=s["name"],
                       connected=s["kind"] == "computer" or bool(s["connected"]),
                       away=bool(s["away"]))
               for i, s in enumerate(table["seats"])],
        game=game,
    )
