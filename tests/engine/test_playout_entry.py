"""The counting shortcuts of random playouts agree with the listed capture options."""

from __future__ import annotations

import random

from scopone.engine.captures import (
    light_after_lay,
    only_sum,
    playout_entry,
    sum_options,
    table_entry,
)
from scopone.engine.cards import BIT, RANK_MASK


def _tables(n: int) -> list[int]:
    rng = random.Random(7)
    return [sum(BIT[i] for i in rng.sample(range(40), rng.randint(0, 14))) for _ in range(n)]


def test_playout_entry_matches_the_listed_options() -> None:
    for table in _tables(3000):
        opts, multi = table_entry(table)
        light = playout_entry(table)
        assert light[0] == multi
        for rank in range(1, 11):
            if table & RANK_MASK[rank]:
                assert not light[1] & RANK_MASK[rank]
                continue
            assert sum_options(table, rank) == opts[rank]
            assert bool(light[1] & RANK_MASK[rank]) == bool(opts[rank])
            assert light[2] >> (16 * rank) & 0xFFFF == len(opts[rank])
            if len(opts[rank]) == 1:
                assert only_sum(table, rank) == opts[rank][0]


def test_light_after_lay_matches_playout_entry() -> None:
    for table in _tables(1000):
        for i in range(40):
            if table & BIT[i]:
                rest = table ^ BIT[i]
                assert light_after_lay(playout_entry(rest), rest, BIT[i]) == playout_entry(table)
