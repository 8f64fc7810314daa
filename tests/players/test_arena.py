"""The arena plays duplicate deals and reports margins; the bench command runs its measures."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import scopone.arena as arena
from scopone import Rules, SeatView
from scopone.arena import (
    CheatPlayer,
    PeekPlayer,
    Settings,
    build,
    main,
    mean_ci,
    parse_level,
    play_deal,
    run,
    run_versus,
)
from scopone.bench import playouts_per_second, positions, solver_times, think_times
from scopone.players.hard import HardPlayer
from scopone.players.search import SearchLimits

from .helpers import random_positions


def test_each_deal_is_played_twice_with_the_pairs_swapped() -> None:
    out = play_deal(("normal", "normal"), Settings(), seed=5, index=2)
    assert len(out.margins) == 2
    assert len(out.times["normal"]) == 80  # two rounds of forty plays
    # Same level on both sides, same deal: the seat swap is the only difference.
    assert play_deal(("normal", "normal"), Settings(), 5, 2).margins == out.margins


def test_normal_beats_easy_in_duplicate_deals() -> None:
    margins = [m for out in run(("normal", "easy"), 40, seed=3, settings=Settings())
               for m in out.margins]
    assert sum(margins) / len(margins) > 2.0


def test_two_processes_give_the_same_results() -> None:
    one = [o.margins for o in run(("easy", "normal"), 6, 9, Settings(), jobs=1)]
    two = [o.margins for o in run(("easy", "normal"), 6, 9, Settings(), jobs=2)]
    assert one == two


def test_two_levels_each_against_a_third_on_the_same_deals(
        capsys: pytest.CaptureFixture[str]) -> None:
    pairs = list(run_versus(("normal", "easy"), "normal", 3, 7, Settings(), jobs=2, first=4))
    assert [(a.index, b.index) for a, b in pairs] == [(4, 4), (5, 5), (6, 6)]
    for a, b in pairs:
        assert a.margins == play_deal(("normal", "normal"), Settings(), 7, a.index).margins
        assert b.margins == play_deal(("easy", "normal"), Settings(), 7, b.index).margins
    assert main(["normal", "easy", "--versus", "normal", "--deals", "3", "--seed", "7",
                 "--first", "4", "--quiet"]) == 0
    out = capsys.readouterr().out
    diff = sum(sum(a.margins) - sum(b.margins) for a, b in pairs) / 6
    assert f"difference, normal minus easy (each against normal, same deals): {diff:+.3f}" in out
    assert "points per round, easy minus normal" in out
    assert "think time easy" in out and "think time normal" in out


def test_classico_and_matches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["normal", "easy", "--deals", "2", "--matches", "--variant", "classico",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "points per round, normal minus easy" in out
    assert "match win rate of normal" in out
    assert "think time easy" in out and "think time normal" in out


def test_cheat_sees_the_true_deal_and_plays_legal_moves() -> None:
    cheat = CheatPlayer(SearchLimits(iterations=2))
    rng = random.Random(1)
    for r in random_positions(25, seed=12):
        assert cheat.choose_seeing_all(r, rng) in r.legal_moves()


@pytest.mark.parametrize(("peek", "shown"), [("next", 1), ("partner", 2), ("previous", 3)])
def test_the_peek_imagines_the_shown_hand_true_and_the_rest_as_hard_does(peek: str, shown: int
                                                                        ) -> None:
    player = build(f"hard:peek={peek}", Settings(iterations=3))
    assert isinstance(player, PeekPlayer)
    rng = random.Random(2)
    varied = 0  # positions where the hidden hands were imagined more than one way
    for r in random_positions(25, seed=13):
        seat = r.turn
        known = {seat, (seat + shown) % 4}
        hidden = min({0, 1, 2, 3} - known)
        view = SeatView.of(r, seat)
        player.truth = r
        sample = player.sampler(view)
        imagined = set()
        for _ in range(6):
            d = sample(rng)
            for s in known:
                assert sorted(d.hands[s]) == sorted(r.hands[s])
            assert [len(h) for h in d.hands] == [len(h) for h in r.hands]
            assert sorted(c for h in d.hands for c in h) == sorted(c for h in r.hands for c in h)
            imagined.add(tuple(sorted(d.hands[hidden])))
        varied += len(imagined) > 1
        player.truth = None
        assert player.choose_seeing_all(r, rng) in r.legal_moves()
        assert player.truth is None  # the truth is lent for one decision only
    assert varied >= 20
    out = play_deal((f"hard:peek={peek}", "hard"), Settings(iterations=2), seed=1, index=0)
    assert len(out.margins) == 2


def test_the_peek_takes_only_hard_and_known_seats() -> None:
    for bad in ("hard:peek=all", "hard:peek=opponents", "cheat:peek=partner",
                "normal:peek=partner"):
        with pytest.raises(ValueError):
            parse_level(bad)
    with pytest.raises(ValueError, match="peek is one of"):
        PeekPlayer("self")


def test_hard_and_cheat_in_the_arena_with_iterations() -> None:
    out = play_deal(("hard", "cheat"), Settings(iterations=2, rules=Rules()), seed=1, index=0)
    assert len(out.margins) == 2 and set(out.times) == {"hard", "cheat"}


def test_bench_measures_run() -> None:
    start = positions(3, seed=1)
    assert playouts_per_second(start, 5, 1, greedy=True) > 0
    assert playouts_per_second(start, 5, 1, greedy=False) > 0
    assert playouts_per_second(start, 5, 1, greedy=True, tail=8) > 0
    assert len(solver_times(2, 8)) == 2
    times, _ = think_times("normal", start, budget=0.01)
    assert len(times) == 3


def test_each_side_takes_its_own_settings() -> None:
    assert parse_level("hard:reading=off,budget=0.25") == (
        "hard", {"reading": "off", "budget": "0.25"})
    a = build("hard:budget=0.25", Settings(iterations=50))
    b = build("hard:iterations=100,reading=voids", Settings(budget=1.0))
    c = build("hard", Settings(iterations=50))
    assert isinstance(a, HardPlayer) and isinstance(b, HardPlayer) and isinstance(c, HardPlayer)
    assert (a.limits.seconds, a.limits.iterations) == (0.25, None)
    assert (b.limits.seconds, b.limits.iterations, b.reading) == (None, 100, "voids")
    assert (c.limits.iterations, c.reading, c.pool) == (50, "policy", 4)
    assert (c.mix, c.partner_beta) == (0.0, None)
    d = build("hard:mix=0.2,pbeta=4", Settings(iterations=50))
    assert isinstance(d, HardPlayer) and (d.mix, d.partner_beta) == (0.2, 4.0)
    e = build("hard:reading=chain,steps=3", Settings(iterations=50))
    assert isinstance(e, HardPlayer) and (e.reading, e.steps, c.steps) == ("chain", 3, 8)
    f = build("hard:prune=0", Settings(iterations=50))
    assert isinstance(f, HardPlayer) and (f.limits.prune, c.limits.prune) == (False, True)
    g = build("hard:sharp=8,pool=16", Settings(iterations=50))
    assert isinstance(g, HardPlayer) and (g.sharp, g.pool, c.sharp) == (8.0, 16, None)
    for bad in ("hard:reading=maybe", "hard:budget=0", "normal:budget=1", "cheat:reading=off",
                "hard:iterations=many", "hard:speed=2", "cheat:pbeta=4", "hard:mix=some",
                "cheat:steps=4", "hard:steps=few", "cheat:sharp=8", "hard:sharp=very"):
        with pytest.raises(ValueError):
            parse_level(bad)


def test_two_versions_of_hard_in_one_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hard:iterations=3", "hard:iterations=2,reading=off", "--deals", "1",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "hard:iterations=3 minus hard:iterations=2,reading=off" in out
    assert "think time hard:iterations=2,reading=off" in out


def test_margins_file_adds_up_runs_extended_with_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = tmp_path / "margins.jsonl"
    base = ["normal", "easy", "--seed", "7", "--quiet", "--margins", str(kept)]
    assert main([*base, "--deals", "3"]) == 0
    assert "all 3 deals of this pairing" in capsys.readouterr().out
    assert main([*base, "--deals", "3", "--first", "3"]) == 0
    halves = capsys.readouterr().out
    # Exactly the figure of one six-deal run, not two halves combined by hand.
    whole = [sum(play_deal(("normal", "easy"), Settings(), 7, i).margins) / 2 for i in range(6)]
    m, h = mean_ci(whole)
    assert f"all 6 deals of this pairing in {kept} (#0 to #5): {m:+.3f} ± {h:.3f}" in halves
    # Another seed, or the first half played again, never mixes in or counts twice.
    assert main(["normal", "easy", "--seed", "8", "--quiet", "--margins", str(kept),
                 "--deals", "2"]) == 0
    assert "all 2 deals" in capsys.readouterr().out
    assert main([*base, "--deals", "3"]) == 0
    assert f"all 6 deals of this pairing in {kept} (#0 to #5): {m:+.3f}" in capsys.readouterr().out
    assert len(kept.read_text().splitlines()) == 3 + 3 + 2 + 3
    # Against a third level, the file keeps each deal's difference.
    assert main(["normal", "easy", "--versus", "normal", "--deals", "2", "--seed", "7",
                 "--quiet", "--margins", str(kept)]) == 0
    assert "all 2 deals of this pairing" in capsys.readouterr().out


def test_a_stopped_run_keeps_the_deals_it_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
        ) -> None:
    def stop_after_two(args: object, k: int, values: list[float], started: float) -> None:
        if k == 2:
            raise KeyboardInterrupt

    kept = tmp_path / "margins.jsonl"
    base = ["normal", "easy", "--seed", "7", "--quiet", "--margins", str(kept)]
    monkeypatch.setattr(arena, "_progress", stop_after_two)
    with pytest.raises(KeyboardInterrupt):
        main([*base, "--deals", "5"])
    assert len(kept.read_text().splitlines()) == 2
    monkeypatch.undo()
    # The rest, played later from where the stopped run ended, adds up to the whole run.
    assert main([*base, "--deals", "3", "--first", "2"]) == 0
    whole = [sum(play_deal(("normal", "easy"), Settings(), 7, i).margins) / 2 for i in range(5)]
    m, h = mean_ci(whole)
    assert f"all 5 deals of this pairing in {kept} (#0 to #4): {m:+.3f} ± {h:.3f}" in (
        capsys.readouterr().out)
