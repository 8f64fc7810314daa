"""Hard thinks as long wherever it plays unless told otherwise: the service and the arena measure
the same player."""

from __future__ import annotations

from scopone import arena
from scopone.players import TIME_BUDGET, make_player
from scopone.players.hard import HardPlayer
from scopone.web import Settings


def test_the_service_and_the_arena_share_hards_budget() -> None:
    hard = make_player("hard")
    assert isinstance(hard, HardPlayer)
    assert hard.limits.seconds == TIME_BUDGET and hard.limits.early_stop
    assert HardPlayer().limits.seconds == TIME_BUDGET
    assert Settings().ai_time_budget == TIME_BUDGET
    for level in ("hard", "cheat"):
        player = arena.build(level, arena.Settings())
        assert isinstance(player, HardPlayer | arena.CheatPlayer)
        assert player.limits.seconds == TIME_BUDGET


def test_an_operator_can_give_hard_more_or_less_time() -> None:
    for seconds in (0.4, 2.5):
        assert seconds != TIME_BUDGET
        env = {"SCOPONE_AI_TIME_BUDGET": str(seconds)}
        assert Settings.from_env(env).ai_time_budget == seconds
        hard = make_player("hard", time_budget=seconds)
        assert isinstance(hard, HardPlayer) and hard.limits.seconds == seconds
        # A side's own budget wins over the run's.
        for given in (arena.Settings(), arena.Settings(budget=0.1)):
            player = arena.build(f"hard:budget={seconds}", given)
            assert isinstance(player, HardPlayer) and player.limits.seconds == seconds
