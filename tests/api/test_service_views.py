"""Seat 0's view of a game played alone is built once a version and kept as the JSON the
page's stream sends (``GameService.view``, ``view_json``); the driver and the stream read this
process's own last commit from memory (``GameService.newest``). Both must always give the stored
game: nothing kept may outlive the record it came from, whether this process changed the game,
another process did, or the coach stored a count.

Why: a move (a person's, or the server's own computer card) answers with the view that the
page's stream sends again a moment later, and building it twice was a tenth of the server's CPU
a card; on PostgreSQL, asking the store for the version at every read was a seventh."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from scopone.web import views
from scopone.web.schemas import GameCreate, GameView, MoveIn
from scopone.web.service import GameService
from scopone.web.solo import SoloDriver, solo_events
from scopone.web.store import GameRecord, open_store
from scopone.web.thinker import Thinker
from scopone.web.views import game_view

from .aio import run_alone


@asynccontextmanager
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    store = open_store(tmp_path / "games.sqlite3")
    thinker = Thinker(0.05, processes=False, workers=1)
    try:
        yield GameService(store, thinker)
    finally:
        thinker.close()
        store.close()


def stored_view(games: GameService, game_id: str) -> GameView:
    """The view built afresh from what the store holds."""
    rec = games.store.load(game_id)
    assert rec is not None
    return game_view(rec)


def store_elsewhere(games: GameService, game_id: str, cards: int = 1) -> GameRecord:
    """Another process plays the next ``cards`` (dealing the next round if one ends) and
    stores each on the same file, as its own version; this process is not told."""
    other = games.store.load(game_id)
    assert other is not None
    for _ in range(cards):
        r = other.match.round
        if r.is_over:
            other.match.next_round()
        else:
            r.play(r.legal_moves()[0], seat=r.turn)
        old, old_updated = other.version, other.updated
        other.version += 1
        other.updated += 1.0
        assert games.store.update(other, old, old_updated)
    return other


async def step(games: GameService, view: GameView) -> GameView:
    """The game's next change, through the service as the API (or the server's driver)
    makes it."""
    gid = view.id
    if view.status == "your_turn":
        move = view.legal[0]
        return await games.play(gid, MoveIn(version=view.version, card=move.card,
                                            capture=move.capture))
    if view.status == "computer_turn":
        return await games.advance(gid, view.version)
    return await games.next_round(gid, view.version)


async def first_event(games: GameService, game_id: str, after: int) -> bytes:
    """The first event a page's stream of the game sends, having seen ``after``."""
    driver = SoloDriver(games, {"normal": 0.75})
    stream = solo_events(games, driver, game_id, "normal", after, max_seconds=60.0)
    try:
        return await anext(stream)
    finally:
        await stream.aclose()
        driver.close()


def test_every_answer_is_the_stored_game_through_a_whole_match(tmp_path: Path) -> None:
    """Each answer, and each read after it, equals the view built from the store, every
    version of a whole match (round ends and next rounds included)."""

    async def scenario() -> int:
        async with service(tmp_path) as games:
            view = await games.create(GameCreate(level="easy"))
            changes = 0
            while view.status != "match_over":
                view = await step(games, view)
                changes += 1
                fresh = stored_view(games, view.id)
                assert view == fresh
                assert await games.get(view.id) == fresh
            return changes

    assert run_alone(scenario()) > 40  # at least a round's cards and its end


def test_a_change_stored_by_another_process_is_what_the_next_read_shows(
        tmp_path: Path) -> None:
    """This process built (and kept) the view of version N; another process stores N + 1 on
    the same file. The next read is N + 1's view, not the one kept."""

    async def scenario() -> None:
        async with service(tmp_path) as games:
            view = await games.create(GameCreate(level="easy"))
            while view.status != "computer_turn":
                view = await step(games, view)
            hot = await games.peek(view.id)
            assert hot is not None
            assert games.view_json(hot) is games.view_json(hot)  # kept, made once
            store_elsewhere(games, view.id)
            now = await games.get(view.id)
            assert now.version == view.version + 1
            assert now == stored_view(games, view.id)
            assert len(now.history) == len(view.history) + 1

    run_alone(scenario())


def test_a_game_forgotten_is_read_again(tmp_path: Path) -> None:
    """The coach stores a game by other means at the same version and says so (``forget``):
    the view kept for that version is dropped with the record."""

    async def scenario() -> None:
        async with service(tmp_path) as games:
            view = await games.create(GameCreate(level="easy"))
            hot = await games.peek(view.id)
            assert hot is not None
            kept = games.view_json(hot)
            assert games.view_json(hot) is kept
            games.forget(view.id)
            assert games.view_json(hot) is not kept  # no longer hot: made anew
            loaded = await games.peek(view.id)
            assert loaded is not None and loaded is not hot
            assert games.view_json(loaded) == kept

    run_alone(scenario())


def test_a_followed_games_views_are_built_once_a_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move (a person's, or a computer's) and the page's stream that sends it again build
    one view between them."""
    built: list[int] = []
    real = views.view_for

    def counting(rec: GameRecord, *args: Any, **kwargs: Any) -> dict[str, Any]:
        built.append(rec.version)
        return real(rec, *args, **kwargs)

    monkeypatch.setattr(views, "view_for", counting)  # what every game_view calls

    async def scenario() -> list[int]:
        async with service(tmp_path) as games:
            view = await games.create(GameCreate(level="easy"))
            sent = [view.version]
            for _ in range(30):
                view = await step(games, view)
                # What the page's stream sends of the version just stored.
                event = await first_event(games, view.id, view.version - 1)
                assert event == (f"id: {view.version}\nevent: game\n"
                                 f"data: {view.model_dump_json()}\n\n").encode()
                sent.append(view.version)
            return sent

    sent = run_alone(scenario())
    assert built == sent  # each version once, in order


def test_the_followers_of_a_game_read_its_newest_version_without_asking_the_store(
        tmp_path: Path) -> None:
    """``newest`` (the server's driver and the page's stream, with a watch open): this
    process's own last commit is read from memory, a version another process stored is read
    from the store as soon as the hub hears of it, and a game nobody here watches is always
    read from the store."""

    async def scenario() -> None:
        async with service(tmp_path) as games:
            view = await games.create(GameCreate(level="easy"))
            asked: list[str] = []
            real_version = games.store.version

            def version(game_id: str) -> int | None:
                asked.append(game_id)
                return real_version(game_id)

            games.store.version = version  # type: ignore[method-assign]
            gid = view.id
            # Nobody watches: the store is asked.
            assert await games.newest(gid) is await games.peek(gid)
            assert len(asked) == 2
            async with games.hub.watch(gid, -1):
                view = await step(games, view)  # stored here, announced on the hub
                asked.clear()
                rec = await games.newest(gid)
                assert rec is not None and rec.version == view.version
                assert asked == []
                other = store_elsewhere(games, gid)
                games.hub.publish(gid, other.version)  # what its listener does
                rec = await games.newest(gid)
                assert rec is not None and rec.version == view.version + 1
                assert len(rec.match.round.history or []) == len(view.history) + 1

    run_alone(scenario())


def test_a_page_back_on_a_process_whose_copy_is_old_gets_the_stored_game(
        tmp_path: Path) -> None:
    """This process stored version N and then nobody here followed the game; another process
    played on to N + 2, which the page did not see (its connection dropped). Its stream comes
    back here having seen N: the store is asked, not the old copy trusted, and the stream sends
    N + 2 at once."""

    async def scenario() -> tuple[int, bytes]:
        async with service(tmp_path) as games:
            view = await games.create(GameCreate(level="easy"))
            async with games.hub.watch(view.id, -1):
                view = await step(games, view)  # N, stored and kept here
            store_elsewhere(games, view.id, cards=2)  # nobody watching here
            async with games.hub.watch(view.id, view.version):
                rec = await games.newest(view.id)
                assert rec is not None
            event = await first_event(games, view.id, view.version)
            return rec.version - view.version, event

    ahead, event = run_alone(scenario())
    assert ahead == 2
    assert event.startswith(b"id: ")  # sent at once, not after news that never comes
