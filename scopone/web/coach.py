"""The coach behind the API: hints, reviews, cards seen and statistics for any seat of a game.

Judging positions costs CPU (about 0.1 s a position, a second a round), so it runs in a pool of
its own, off the event loop and apart from the computer players' (a review never waits for, nor
delays, a computer's card). Everything a person may see is built from their own ``SeatView`` or
from a finished round's public plays. Functions take a ``seat`` so tables with friends can use
them for every person (the solo game's routes pass seat 0).

How a game is loaded is the caller's: the solo routes go through ``GameService._load`` (a game id
is the capability of a solo game's seat 0, never of a table), the table routes hand in the record
they loaded by invite code and seat token and a loader bound to that table (``*_for`` methods).

What the coach keeps lives in ``GameRecord.meta["coach"]``:
``people`` {seat: person id}, ``traces`` {round: the round's plays, for reviews after the next
deal}, ``reviews`` {"round:seat": the computed review}, ``help`` {"round:seat": {"hints": n,
"seen": n, "hinted_at": the position of the last hint}}, ``match`` (rematches so far) and
``last_match``: the match before a rematch, its last round's trace, help and reviews only.
These writes keep the game's version (they change nothing a player sees), so they never make a
waiting move stale.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import logging
import multiprocessing
import os
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from ..coach import RoundTrace, cards_seen
from ..coach.payload import REVIEW_SLACK, compute_hint, compute_review, warm
from ..coach.stats import credit_accuracy, credit_help, credit_round, empty_stats
from ..engine import Rules, SeatView
from ..players import LEVELS
from ..workers import watch_server
from . import errors as e
from .store import GameRecord, PersonRecord, log_failure
from .table import chosen_by_computer, former_holders, table_of
from .views import HUMAN, codes, game_view

if TYPE_CHECKING:
    from .service import GameService

log = logging.getLogger(__name__)

#: Reviews stored with a game (per game, all seats together).
REVIEWS_KEPT = 4
#: Hints kept in a process once judged: the same position asked again (a reload, another
#: tab, a client asking in a loop) costs no second judgement.
HINTS_KEPT = 256
#: Judgements waiting or running per worker beyond which a hint or review is refused (503,
#: the client may retry): each beyond it would wait seconds behind the others, and one
#: client asking for many positions at once would hold everybody's hints that long.
QUEUE_PER_WORKER = 4
#: Tries to add the coach's data to a game that other requests keep changing.
META_TRIES = 3
#: Rounds waiting, in a process, for an idle pool to review them (their accuracy for the
#: statistics): beyond it the oldest waits for its review to be opened instead.
LATER_KEPT = 64
#: How often a round waiting for an idle pool looks again (seconds).
IDLE_POLL_SECONDS = 0.5

#: Tries at changing a person's statistics while other processes change them too.
PERSON_TRIES = 5

#: Loads a game's newest record by id, refusing what the caller may not reach (404).
Loader = Callable[[str], Awaitable[GameRecord]]


def coach_meta(rec: GameRecord) -> dict[str, Any]:
    meta: dict[str, Any] = rec.meta.setdefault("coach", {})
    return meta


def seat_person(rec: GameRecord, seat: int, person: str) -> None:
    """Credits ``seat``'s rounds to ``person`` from now on (their statistics must exist:
    ``CoachService.claim_seat``)."""
    coach_meta(rec).setdefault("people", {})[str(seat)] = person


#: What the coach keeps of one match: rounds by number, so a new match at the same table
#: (a rematch) starts without them.
MATCH_PARTS = ("traces", "help", "reviews", "round_level", "match_level", "credit_levels")
#: Where the match before a rematch is kept (``new_match``).
LAST_MATCH = "last_match"


_EASE: dict[str, int] = {level: i for i, level in enumerate(LEVELS)}


def easiest(a: str, b: str) -> str:
    """The easier of two levels."""
    return a if _EASE[a] <= _EASE[b] else b


def new_match(rec: GameRecord) -> None:
    """A new match in the same record (a rematch): its rounds are numbered from 1 again, so the
    last match's plays, help counts and reviews go, but for its last round's (``last_match``):
    a person who opens that round's review as the host starts the next match, or whose page
    asked for it just before the new match reached it, still gets it. Who the seats count for
    stays."""
    meta = rec.meta.get("coach")
    if meta is None:
        return
    number = match_number(rec)
    traces: dict[str, Any] = meta.get("traces", {})
    meta.pop(LAST_MATCH, None)
    if traces:
        last = max(traces, key=int)

        def of_last(part: str) -> dict[str, Any]:
            return {k: v for k, v in meta.get(part, {}).items() if k.split(":")[0] == last}

        meta[LAST_MATCH] = {"match": number, "traces": {last: traces[last]},
                            "help": of_last("help"), "reviews": of_last("reviews")}
    for part in MATCH_PARTS:
        meta.pop(part, None)
    meta["match"] = number + 1


def match_number(rec: GameRecord) -> int:
    """The record's current match: 0 for the first, one more after each rematch."""
    return int(rec.meta.get("coach", {}).get("match", 0))


def match_parts(rec: GameRecord, number: int) -> dict[str, Any]:
    """What the coach keeps of match ``number`` of ``rec`` (``traces``, ``help``,
    ``reviews``): the current match's, or the last round's of the one before (``new_match``);
    404 for any other."""
    meta = coach_meta(rec)
    if number == match_number(rec):
        return meta
    last: dict[str, Any] | None = meta.get(LAST_MATCH)
    if last is not None and last["match"] == number:
        return last
    raise e.NotFound(e.MATCH_NOT_FOUND)


def _trace_of(rec: GameRecord) -> dict[str, Any]:
    """The current round, over, as its review reads it: with the plays the computer chose for
    a person at a table, which are not that person's to be judged on, and the names of those
    who made plays of a seat the host handed to the computer since (``held_by``: the seat's
    holder now is not who made them)."""
    table = table_of(rec)
    chosen = chosen_by_computer(table) if table is not None else frozenset()
    trace = RoundTrace.of(rec.match.round, chosen).to_dict()
    held = former_holders(table, [p[0] for p in trace["plays"]]) if table is not None else {}
    if held:
        trace["held_by"] = {str(i): name for i, name in held.items()}
    return trace


def _named(history: list[dict[str, Any]], trace: dict[str, Any]) -> list[dict[str, Any]]:
    """The review's plays of the round, each made by a former holder of its seat named."""
    held: dict[str, str] = trace.get("held_by", {})
    if not held:
        return history
    return [{**h, "held_by": held[str(i)]} if str(i) in held else h
            for i, h in enumerate(history)]


def match_key(rec: GameRecord, number: int | None = None) -> str:
    """The record's match ``number`` (the current one by default), for crediting each of its
    rounds once: the id for the first match (as it always was), the id and the match's number
    after a rematch."""
    n = match_number(rec) if number is None else number
    return rec.id if n == 0 else f"{rec.id}#{n}"


def people_of(rec: GameRecord) -> dict[int, str]:
    """The seats whose person collects statistics, with their person ids.

    At a table with friends a seat counts for its person only while it is still theirs: held by
    the seat token it was claimed with (``claims``: the token's hash). A seat handed to the
    computer, or taken anew in the lobby, no longer credits the person who claimed it."""
    meta = coach_meta(rec)
    people = {int(s): p for s, p in meta.get("people", {}).items()}
    table = rec.meta.get("table") if rec.code is not None else None
    if table is None:
        return people
    claims = meta.get("claims", {})
    return {s: p for s, p in people.items()
            if claims.get(str(s)) is not None and claims[str(s)] == table["seats"][s]["token"]}


def help_counts(rec: GameRecord, number: int, seat: int,
                parts: dict[str, Any] | None = None) -> dict[str, Any]:
    """The help ``seat`` used in round ``number`` as stored in ``rec`` (a copy), or in
    ``parts`` of an earlier match (``match_parts``)."""
    kept = coach_meta(rec) if parts is None else parts
    return dict(kept.get("help", {}).get(f"{number}:{seat}", {}))


def _conflict(detail: str, rec: GameRecord, seat: int) -> e.Conflict:
    """A 409 carrying the current game only as the solo game's seat 0 sees it: any other seat
    (a table with friends) gets none here, never seat 0's hand; its route adds its own view."""
    return e.Conflict(detail, game_view(rec) if seat == HUMAN else None)


def _rules_dict(rules: Rules) -> dict[str, Any]:
    return {"variant": rules.variant, "napola": rules.napola, "target": rules.target}


#: Where a round's help counts keep the position each kind was last asked at.
ASKED_AT = {"hints": "hinted_at", "seen": "seen_at"}


def hints_used(help_: dict[str, Any]) -> int:
    """A round's hints used from its counts: SPEC §7 counts each opening of the cards seen like
    a hint."""
    return int(help_.get("hints", 0)) + int(help_.get("seen", 0))


class CoachService:
    """Hint, review, cards seen and statistics; watches the games for finished rounds.

    Two workers: a hint never waits behind a whole review being judged in the other.
    """

    def __init__(self, service: GameService, seconds: float, processes: bool,
                 workers: int = 2) -> None:
        self.service = service
        self.db = service.db  # the store's calls as the service makes them (``OffLoop``)
        self.seconds = seconds
        self._processes = processes
        self._pool = self._new_pool(workers)
        self._workers = workers
        if processes:
            # Start the workers now, not at the first hint (a spawn and the imports: a second).
            for _ in range(workers):
                self._pool.submit(warm)
        self._busy = 0  # jobs in the pool now: prefetching waits for an idle pool
        self._flights: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._hints: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._tasks: set[asyncio.Task[Any]] = set()
        # Rounds to review once the pool is idle (game id, match, round, seat), oldest first,
        # and the task that reviews them (``_review_later``).
        self._later: deque[tuple[str, int, int, int]] = deque(maxlen=LATER_KEPT)
        self._reviewer: asyncio.Task[None] | None = None
        # A person's statistics are read, changed and written back, with store calls awaited
        # in between (one that would wait is made on a thread, and others run meanwhile): the
        # write is refused if another came between (``save_person``), and in this process they
        # take turns, so that is another process's (a round's credit read before a clear and
        # written after it brought the cleared rounds back: once in eight runs of a test).
        self._person_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        service.watcher = self

    def _new_pool(self, workers: int) -> cf.Executor:
        if self._processes:
            ctx = multiprocessing.get_context("spawn")
            # Like the thinker's workers, these end with the server even when it is killed.
            return cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx,
                                          initializer=watch_server, initargs=(os.getpid(),))
        return cf.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="scopone-coach")

    def close(self) -> None:
        for t in self._tasks:
            t.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def _run(self, fn: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
        if self._busy >= self._workers * QUEUE_PER_WORKER:
            raise e.Unavailable(e.COACH_BUSY)
        loop = asyncio.get_running_loop()
        self._busy += 1
        try:
            try:
                return await loop.run_in_executor(self._pool, fn, *args)
            except BrokenProcessPool:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = self._new_pool(self._workers)
                return await loop.run_in_executor(self._pool, fn, *args)
        finally:
            self._busy -= 1

    # ----- the game's watcher ---------------------------------------------------------------

    async def game_created(self, rec: GameRecord, person: str | None) -> None:
        if person is None:
            return
        await self.claim_seat(rec, 0, person)

    async def claim_seat(self, rec: GameRecord, seat: int, person: str) -> None:
        """Credits ``seat``'s rounds to ``person`` from now on, in ``rec`` (stored by the
        caller)."""
        await self._known(person)
        seat_person(rec, seat, person)

    async def _known(self, person: str) -> None:
        """The person's statistics exist from their first game on (empty until a round;
        made once, whichever process is first)."""
        if await self.db.load_person(person) is None:
            now = time.time()
            await self.db.save_person(PersonRecord(person, empty_stats(), now, now))

    def _person(self, person: str) -> asyncio.Lock:
        """This process's lock on one person's statistics, held from reading to writing."""
        lock = self._person_locks.get(person)
        if lock is None:
            lock = self._person_locks[person] = asyncio.Lock()
        return lock

    async def claim_table_seat(self, rec: GameRecord, seat: int, person: str, holder: str,
                               load: Loader) -> None:
        """Credits a table seat's rounds and help to ``person`` while the seat keeps the token
        whose hash is ``holder`` (``people_of``); nothing if the seat changed hands meanwhile."""
        def claim(r: GameRecord) -> None:
            if r.meta["table"]["seats"][seat]["token"] != holder:
                return
            seat_person(r, seat, person)
            coach_meta(r).setdefault("claims", {})[str(seat)] = holder

        await self._known(person)
        await self._change_meta(rec.id, claim, load)

    def level_changed(self, rec: GameRecord, old: str) -> None:
        """A round, and a match, count for the easiest level any of their cards was played at:
        switched to Hard before the last card, a round played at Easy is not Hard's."""
        meta = coach_meta(rec)
        m = rec.match
        played = bool(m.round.history) and not m.round.is_over
        if played:
            meta["round_level"] = easiest(meta.get("round_level", old), rec.level)
        else:
            meta.pop("round_level", None)  # the next round's cards are all played at the new one
        if m.round_number > 1 or m.round.history:  # a card of the match was played
            meta["match_level"] = easiest(meta.get("match_level", old), rec.level)

    def round_over(self, rec: GameRecord) -> None:
        meta = coach_meta(rec)
        # The match before a rematch was kept for a page that had not yet seen the rematch;
        # a round of the new one later, none asks for it (and the game is written on every
        # move: up to four reviews of about 5 KB less).
        meta.pop(LAST_MATCH, None)
        # The plays are kept so the round can be reviewed after the next deal replaces it.
        meta.setdefault("traces", {})[str(rec.match.round_number)] = _trace_of(rec)
        # The levels the round and the match count for (``level_changed``); the next round
        # starts at the level set now.
        meta["credit_levels"] = [meta.pop("round_level", rec.level),
                                 meta.get("match_level", rec.level)]

    async def round_stored(self, rec: GameRecord) -> None:
        m = rec.match
        score = m.rounds[-1]
        round_level, match_level = coach_meta(rec).get("credit_levels", [rec.level, rec.level])
        for seat, person in people_of(rec).items():
            # Made again if the sweep removed it meanwhile (a person untouched for the idle
            # limit with no round counted: ``remove_idle_people``); a seat's person is known.
            await self._known(person)
            await self._change_person(person, lambda d, s=seat: credit_round(  # type: ignore[misc]
                d, round_level, s, score, m.winner, match_level,
                key=f"{match_key(rec)}:{m.round_number}:{s}"))
            if self._busy == 0:
                # An idle pool reviews the round at once, so opening the review is instant.
                self._spawn(self.review_for(rec, m.round_number, seat, self._load_any))
            else:
                self._review_later(rec, m.round_number, seat)

    def _review_later(self, rec: GameRecord, number: int, seat: int) -> None:
        """A round that ended while the pool was busy (a hint, another seat's review) is
        reviewed once it is idle: its accuracy is credited to the person's statistics whether
        or not they open its review. It was left to the request, and a round whose review
        nobody opened never reached the accuracy chart (QA helper-78: at a table, the second
        person's round, reviewed only when the first person's review was done)."""
        self._later.append((rec.id, match_number(rec), number, seat))
        if self._reviewer is None or self._reviewer.done():
            self._reviewer = asyncio.get_running_loop().create_task(self._review_when_idle())
            self._tasks.add(self._reviewer)
            self._reviewer.add_done_callback(self._done)

    async def _review_when_idle(self) -> None:
        while self._later:
            while self._busy:
                await asyncio.sleep(IDLE_POLL_SECONDS)
            game_id, match, number, seat = self._later.popleft()
            try:
                # The game as it is now: its review may have been asked for meanwhile.
                rec = await self._load_any(game_id)
                await self.review_for(rec, number, seat, self._load_any, match)
            except (e.NotFound, e.Conflict, e.Unavailable):
                pass  # gone, a rematch kept only its last round, or the pool busy again
            except Exception as exc:
                log_failure(log, "reviewing a round later failed", exc)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("reviewing a round failed", exc_info=task.exception())

    async def _change_person(self, person: str,
                             change: Callable[[dict[str, Any]], dict[str, Any]],
                             required: bool = False) -> bool:
        """Changes the person's statistics, made again on another process's change stored
        in between (two games of one person on two processes: neither's count is lost). False
        when other writes won every try (logged; 503 if ``required``) or nobody has the id."""
        async with self._person(person):
            for _ in range(PERSON_TRIES):
                rec = await self.db.load_person(person)
                if rec is None:
                    return False  # an id no game was created with
                before = rec.updated
                rec.data = change(rec.data)
                # Later than the copy read, so a write based on that copy is refused.
                rec.updated = max(time.time(), before + 1e-3)
                if await self.db.save_person(rec, before):
                    return True
        if required:
            raise e.Unavailable(e.DATABASE_UNAVAILABLE)
        log.warning("a person's statistics were not changed: other writes won every try")
        return False

    async def _load_any(self, game_id: str) -> GameRecord:
        """Any game or table by id: only for the coach's own work on a record it was handed
        (a round just stored), never for an id from a request."""
        rec = await self.db.load(game_id)
        if rec is None:
            raise e.NotFound(e.GAME_NOT_FOUND)
        return rec

    async def _change_meta(self, game_id: str, change: Callable[[GameRecord], None],
                           load: Loader, required: bool = True) -> None:
        """Adds to the game's coach data without a new version; a move stored in between by
        another process wins, and the count is tried again on top of it. When other writes win
        every try: 503 (nothing counted, so the answer never claims what was not stored),
        unless the change is not ``required`` (a review kept only to save judging it again)."""
        for _ in range(META_TRIES):
            async with self.service._locked(game_id):
                self.service.forget(game_id)
                rec = await load(game_id)
                before = rec.updated
                change(rec)
                # A new time though the same version: a change based on the copy before this
                # one (another process's, kept to play on) is refused and made again on this.
                rec.updated = max(time.time(), before + 1e-3)
                if await self.db.update(rec, rec.version, before):
                    return
        if required:
            raise e.Unavailable(e.DATABASE_UNAVAILABLE)

    async def _count_help(self, rec: GameRecord, seat: int, kind: str, load: Loader,
                          position: int | None = None) -> dict[str, Any]:
        """Counts one hint (``kind`` "hints") or one opening of the cards seen ("seen") for the
        seat's round, and for its person; returns the round's counts as stored with this one.
        Help of a kind asked again at the ``position`` it was last asked at shows nothing new:
        not counted twice (the cards seen closed and opened again at one position counted
        twice, unlike the hint it is counted like, SPEC §7)."""
        key = f"{rec.match.round_number}:{seat}"
        at_key = ASKED_AT[kind]
        known = help_counts(rec, rec.match.round_number, seat)
        if position is not None and known.get(at_key) == position:
            return known  # nothing to store
        stored: dict[str, Any] = {}
        counted = False

        def add(r: GameRecord) -> None:
            nonlocal counted
            help_ = coach_meta(r).setdefault("help", {}).setdefault(key, {})
            # Another request for this hint may have been stored since ``rec`` was read.
            counted = position is None or help_.get(at_key) != position
            if counted:
                help_[kind] = int(help_.get(kind, 0)) + 1
                if position is not None:
                    help_[at_key] = position
            stored.clear()
            stored.update(help_)

        await self._change_meta(rec.id, add, load)
        person = people_of(rec).get(seat)
        if person is not None and counted:
            await self._change_person(person, lambda d: credit_help(
                d, "hints" if kind == "hints" else "cards_seen"))
        return stored

    # ----- what the person asks for ---------------------------------------------------------

    async def hint(self, game_id: str, version: int, seat: int) -> dict[str, Any]:
        rec = await self.service._load(game_id)
        if version != rec.version:
            raise _conflict(e.STALE_VERSION, rec, seat)
        # A change of the level since the last card is no new position: the same hint, once.
        return await self.hint_for(rec, seat, self.service._load,
                                   self.service.position_version(rec))

    async def hint_for(self, rec: GameRecord, seat: int, load: Loader,
                       position: int | None = None) -> dict[str, Any]:
        """The hint for ``seat`` in ``rec`` (its version already checked by the caller).
        ``position``: the version the game's position dates from (a table's version also moves
        when someone merely connects), so the same position draws the same imagined deals."""
        m = rec.match
        if m.winner is not None:
            raise _conflict(e.MATCH_OVER, rec, seat)
        if m.round.is_over:
            raise _conflict(e.ROUND_OVER, rec, seat)
        if m.round.turn != seat:
            raise _conflict(e.NOT_YOUR_TURN, rec, seat)
        view = SeatView.of(m.round, seat)  # the person's own view: nothing else goes in
        at = rec.version if position is None else position
        flight = f"hint:{rec.id}:{seat}:{at}"
        out = self._hints.get(flight)
        if out is None:
            out = await self._once(flight, lambda: self._run(
                compute_hint, view, f"{rec.seed}:hint:{seat}:{at}", self.seconds))
            self._hints[flight] = out
            if len(self._hints) > HINTS_KEPT:
                self._hints.popitem(last=False)  # the oldest
        counts = await self._count_help(rec, seat, "hints", load, position=at)
        return {**out, "version": rec.version, "hints_used": hints_used(counts)}

    async def cards_seen(self, game_id: str, seat: int) -> dict[str, Any]:
        rec = await self.service._load(game_id)
        return await self.cards_seen_for(rec, seat, self.service._load,
                                         self.service.position_version(rec))

    async def cards_seen_for(self, rec: GameRecord, seat: int, load: Loader,
                             position: int) -> dict[str, Any]:
        """Where each card is as far as ``seat`` knows; counted like a hint, once a
        ``position`` (the version the cards lie as they do since, as for the hint)."""
        seen = cards_seen(SeatView.of(rec.match.round, seat))
        if rec.match.round.is_over:
            # Every card is in sight once the round is over: opened then, the panel helps
            # with nothing, and the round's summary already said how much help was used.
            counts = help_counts(rec, rec.match.round_number, seat)
        else:
            counts = await self._count_help(rec, seat, "seen", load, position)
        return {"cards": [{"card": str(c), "place": p} for c, p in seen.places],
                "played": codes(seen.played), "unseen_by_rank": list(seen.unseen_by_rank),
                "settebello": seen.settebello, "opened": int(counts.get("seen", 0)),
                "hints_used": hints_used(counts)}

    def _trace(self, rec: GameRecord, number: int, seat: int) -> dict[str, Any]:
        m = rec.match
        current = m.round_number
        if number == current and not m.round.is_over:
            raise _conflict(e.ROUND_NOT_OVER, rec, seat)
        if not 1 <= number <= current:
            raise e.NotFound(e.ROUND_NOT_FOUND)
        trace: dict[str, Any] | None = coach_meta(rec).get("traces", {}).get(str(number))
        if trace is None and number == current:
            trace = _trace_of(rec)
        if trace is None:  # a round finished before the coach kept rounds
            raise e.NotFound(e.ROUND_NOT_FOUND)
        return trace

    async def review(self, game_id: str, number: int, seat: int) -> dict[str, Any]:
        return await self.review_for(await self.service._load(game_id), number, seat,
                                     self.service._load)

    async def review_for(self, rec: GameRecord, number: int, seat: int,
                         load: Loader, match: int | None = None) -> dict[str, Any]:
        """Round ``number``'s review for ``seat``, of the current match or of ``match``
        (``match_number``; the one before a rematch keeps its last round only)."""
        match = match_number(rec) if match is None else match
        parts = match_parts(rec, match)
        if match == match_number(rec):
            trace = self._trace(rec, number, seat)
        else:  # the match before a rematch: its last round only, over
            trace = parts["traces"].get(str(number))
            if trace is None:
                raise e.NotFound(e.ROUND_NOT_FOUND)
        key = f"{number}:{seat}"
        cached = parts.get("reviews", {}).get(key)
        if cached is None:
            cached = await self._computed(rec, trace, number, seat, load, match)
        help_ = help_counts(rec, number, seat, parts)
        # Names at answer time, not in the review kept: it is judged once for every viewer.
        return {**cached, "history": _named(cached["history"], trace), "round": number,
                "hints_used": hints_used(help_), "cards_seen_opened": int(help_.get("seen", 0))}

    async def _once(self, flight: str,
                    work: Callable[[], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
        """``work()`` done once however many ask for ``flight`` at the same time: the others
        wait for its answer (or its error)."""
        running = self._flights.get(flight)
        if running is not None:
            return await asyncio.shield(running)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._flights[flight] = fut
        try:
            out = await work()
            fut.set_result(out)
            return out
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._flights[flight]

    async def _computed(self, rec: GameRecord, trace: dict[str, Any], number: int,
                        seat: int, load: Loader, match: int) -> dict[str, Any]:
        """Computes a review once however many ask at the same time, stores it with the game
        and credits the round's accuracy to the seat's person."""
        return await self._once(f"review:{rec.id}:{match}:{number}:{seat}", lambda: self._judged(
            rec, trace, number, seat, load, match))

    async def _judged(self, rec: GameRecord, trace: dict[str, Any], number: int, seat: int,
                      load: Loader, match: int) -> dict[str, Any]:
        out = await self._run(compute_review, trace, _rules_dict(rec.match.rules), seat,
                              f"{rec.seed}:review:{number}:{seat}",
                              self.seconds * REVIEW_SLACK)
        key = f"{number}:{seat}"

        def keep(r: GameRecord) -> None:
            try:
                parts = match_parts(r, match)
            except e.NotFound:
                return  # rematched twice meanwhile: that match is no longer kept
            reviews = parts.setdefault("reviews", {})
            reviews[key] = out
            # A review is about 5 KB and the game is written on every move: the latest few
            # are kept (a reload shows them), older ones are judged again if asked for.
            for old in sorted(reviews, key=lambda k: int(k.split(":")[0]))[:-REVIEWS_KEPT]:
                if old != key:
                    del reviews[old]

        await self._change_meta(rec.id, keep, load, required=False)
        person = people_of(rec).get(seat)
        if person is not None:
            judged = sum(1 for p in out["plays"]
                         if not p["forced"] and not p.get("by_computer"))
            await self._change_person(person, lambda d: credit_accuracy(
                d, f"{match_key(rec, match)}:{key}", out["accuracy"], judged))
        return out

    # ----- statistics -----------------------------------------------------------------------

    async def person(self, person: str) -> PersonRecord:
        rec = await self.db.load_person(person)
        if rec is None:
            raise e.NotFound(e.PERSON_NOT_FOUND)
        return rec

    async def clear(self, person: str) -> None:
        """Empties the person's statistics. The id stays theirs: the games that credit it (a
        match under way, a table's seat) go on counting from now on, where a forgotten id
        would leave the rest of that match counted for no one."""
        await self.person(person)  # 404 for an id no game was created with
        if not await self._change_person(person, lambda _: empty_stats(), required=True):
            raise e.NotFound(e.PERSON_NOT_FOUND)  # removed meanwhile


__all__ = ["CoachService", "Loader", "new_match", "people_of"]
