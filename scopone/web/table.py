"""The rules of a table (SPEC §6), kept in the game record's ``meta["table"]``.

One model: every game is a table of four seats. A table with friends has an invite code and a
``meta["table"]`` entry; the single-player game (no code) is the table with one person at seat 0
(its game id is that person's capability) and three computers, and carries no entry.

What is stored per seat: ``kind`` (person, computer, free), ``name``, ``token`` (the sha256 of
the seat token: the token itself is only ever in the answer that created it), ``away`` (the
computer plays this person's cards until they are back), ``streams`` (the processes that have
an event stream of the seat open), ``connected`` (any has) and ``gone_since`` (when the last
closed). A process killed with streams open leaves its entry behind, which goes once that
process is known gone (``scopone.web.liveness``: its pid on this machine, its heartbeat on
any). The table keeps its ``host``, ``options``, ``phase`` (lobby, playing), ``turn_since``
(when the last card was played or the round began: the away clock and the computers' pace
count from it), the driver's ``lease`` and ``by_computer``: the plays of the current round
(indices into its history) whose card the computer chose for a person (away or out of time),
so nobody credits them to the person.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import secrets
import socket
import unicodedata
from collections.abc import Callable
from typing import Any, Literal, NamedTuple

from . import errors as e
from .store import GameRecord

SEATS = 4
HOST = 0
PAIRS: tuple[Literal["A"], Literal["B"]] = ("A", "B")
MAX_NAME = 20
#: What trimming removes from either end of a name: every character Python's ``str.strip()``
#: removes (``str.isspace``: Unicode's White_Space and U+001C-1F) and every one JavaScript's
#: ``trim()`` removes (the same less U+001C-1F and U+0085, plus U+FEFF), so a name trimmed by
#: the page first ends up the same. Named one by one, because "whitespace" differs between
#: Python, the schema's ECMA regexes and pydantic's: the schema (``schemas_tables.NAME_PATTERN``)
#: and ``clean_name`` must agree. U+001C-1F and U+0085 are control characters: trimmed at the
#: ends like a tab or a newline, refused inside a name.
NAME_BLANKS = ("\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004"
               "\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")
#: Characters that show nothing, trimmed at the ends like a blank so that a name made only of
#: them is empty (refused) rather than shown as nobody: the zero-width space, joiners and word
#: joiner, the soft hyphen, invisible operators, direction marks, the Mongolian vowel separator,
#: the Hangul fillers and the blank Braille pattern (the usual "invisible name" tricks). Inside
#: a name they stay (a joiner inside an emoji sequence is part of it). Variation selectors are
#: not here: one ends an emoji like "❤️". Trimming is only the first net: ``name_char`` below
#: says which characters are drawn at all, whatever the list here misses.
NAME_INVISIBLES = ("\xad\u115f\u1160\u180e\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062"
                   "\u2063\u2064\u2800\u3164\uffa0")
#: Trimmed from either end of a name.
NAME_TRIMMED = NAME_BLANKS + NAME_INVISIBLES
#: Refused anywhere in a name, like a control character: the bidirectional embeddings,
#: overrides and isolates, which would reorder the text shown after the name ("Anna (away)").
NAME_BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
#: Unicode's Default_Ignorable_Code_Point: characters a renderer may show as nothing, whatever
#: their category (Chromium draws the tag characters, the variation selectors, U+034F and the
#: Khmer inherent vowels zero pixels wide; the Hangul fillers are letters). Python's
#: ``unicodedata`` does not have the property, so the ranges are written out from
#: DerivedCoreProperties.txt of Unicode 14.0.0, the version Python 3.11's
#: ``unicodedata.unidata_version`` reports. The browser's own, newer,
#: ``\p{Default_Ignorable_Code_Point}`` is compared with it (tests/browser/test_tables.py).
NAME_DEFAULT_IGNORABLES: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),    # Cf soft hyphen
    (0x034F, 0x034F),    # Mn combining grapheme joiner
    (0x061C, 0x061C),    # Cf Arabic letter mark
    (0x115F, 0x1160),    # Lo Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),    # Mn Khmer inherent vowels
    (0x180B, 0x180D),    # Mn Mongolian free variation selectors one to three
    (0x180E, 0x180E),    # Cf Mongolian vowel separator
    (0x180F, 0x180F),    # Mn Mongolian free variation selector four
    (0x200B, 0x200F),    # Cf zero width space, joiners, direction marks
    (0x202A, 0x202E),    # Cf bidirectional embeddings and overrides
    (0x2060, 0x2064),    # Cf word joiner, invisible operators
    (0x2065, 0x2065),    # Cn reserved
    (0x2066, 0x206F),    # Cf bidirectional isolates, deprecated format characters
    (0x3164, 0x3164),    # Lo Hangul filler
    (0xFE00, 0xFE0F),    # Mn variation selectors 1-16
    (0xFEFF, 0xFEFF),    # Cf zero width no-break space
    (0xFFA0, 0xFFA0),    # Lo halfwidth Hangul filler
    (0xFFF0, 0xFFF8),    # Cn reserved
    (0x1BCA0, 0x1BCA3),  # Cf shorthand format controls
    (0x1D173, 0x1D17A),  # Cf musical symbol format controls
    (0xE0000, 0xE0000),  # Cn reserved
    (0xE0001, 0xE0001),  # Cf language tag
    (0xE0002, 0xE001F),  # Cn reserved
    (0xE0020, 0xE007F),  # Cf tag characters
    (0xE0080, 0xE00FF),  # Cn reserved
    (0xE0100, 0xE01EF),  # Mn variation selectors 17-256
    (0xE01F0, 0xE0FFF),  # Cn reserved
)
#: The categories of the combining marks drawn on the character before them (nonspacing and
#: enclosing; a spacing mark, Mc, takes room of its own, like the vowel signs of "हिन्दी").
NAME_MARK_CATEGORIES = frozenset({"Mn", "Me"})
#: The format characters (Cf): nothing of their own, like the Default_Ignorable ones.
NAME_SILENT_CATEGORIES = frozenset({"Cf"})
#: The categories never drawn as something: separators (blanks), controls, private use (no
#: font anyone shares) and surrogates. Unassigned code points (Cn) count as drawn unless they are
#: Default_Ignorable: to this Python's Unicode 14 an emoji added since is unassigned, and a
#: browser draws it; one unassigned everywhere shows as a box, never as nothing.
NAME_BLANK_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Co", "Cs"})
#: Combining marks (Mn, Me) allowed in a row on one character: a letter with its accents, an
#: Indic or Tibetan stack, a keycap emoji ("1", VS16, U+20E3) fit; "Zalgo" text, a letter under
#: twenty stacked accents, would paint over the rows above and below the name, so five marks in
#: a row are refused. A format or Default_Ignorable character between two marks draws nothing
#: and ends no row (the marks still stack on the same character), so it does not reset the count.
NAME_MARKS_PER_BASE = 4

NameChar = Literal["drawn", "mark", "silent", "blank"]


def new_token() -> str:
    """A seat token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_code() -> str:
    """An invite code: 72 random bits in 12 URL-safe characters."""
    return secrets.token_urlsafe(9)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def name_char(c: str) -> NameChar:
    """What the character ``c`` of a name is on the page: ``drawn``; a combining ``mark``
    (drawn on the character before it); ``silent``, a format or Default_Ignorable character
    (nothing at all, and a row of marks runs on across it); or a ``blank`` (a separator, a
    control, unassigned, private use, a surrogate, or what trimming removes), never counted as
    drawn. The schema's ``NAME_PATTERN`` is built from this, character class by class.

    >>> [name_char(c) for c in "a\\u0301\\u034f\\U000e0041 \\u3164\\u2800"]
    ['drawn', 'mark', 'mark', 'silent', 'blank', 'silent', 'blank']
    """
    category = unicodedata.category(c)
    if category in NAME_MARK_CATEGORIES:
        return "mark"
    if category in NAME_SILENT_CATEGORIES or any(
            lo <= ord(c) <= hi for lo, hi in NAME_DEFAULT_IGNORABLES):
        return "silent"
    if category in NAME_BLANK_CATEGORIES or c in NAME_TRIMMED:
        return "blank"
    return "drawn"


def clean_name(raw: str) -> str:
    """The name as shown: trimmed of blanks and invisible characters, 1-20 characters, no
    control character (nor a bidirectional override), at least one character drawn and no more
    than ``NAME_MARKS_PER_BASE`` combining marks on one; 422 otherwise.

    >>> clean_name("  Anna ")
    'Anna'
    >>> clean_name("\\u2003Anna\\u2028")
    'Anna'
    >>> clean_name("\\u2003")
    Traceback (most recent call last):
    ...
    scopone.web.errors.Malformed: invalid name
    >>> clean_name("\\u200b\\u3164")
    Traceback (most recent call last):
    ...
    scopone.web.errors.Malformed: invalid name
    >>> clean_name("a\\x07b")
    Traceback (most recent call last):
    ...
    scopone.web.errors.Malformed: invalid name
    >>> clean_name("\\ufe0f\\ufe0f")
    Traceback (most recent call last):
    ...
    scopone.web.errors.Malformed: invalid name
    >>> clean_name("a" + "\\u0301" * 5)
    Traceback (most recent call last):
    ...
    scopone.web.errors.Malformed: invalid name
    """
    name = raw.strip(NAME_TRIMMED)
    if not 1 <= len(name) <= MAX_NAME or any(
            unicodedata.category(c) == "Cc" or c in NAME_BIDI_CONTROLS for c in name):
        raise e.Malformed(e.INVALID_NAME)
    drawn, marks = False, 0
    for kind in map(name_char, name):
        if kind == "mark":
            marks += 1
            if marks > NAME_MARKS_PER_BASE:
                raise e.Malformed(e.INVALID_NAME)
        elif kind != "silent":
            marks = 0
            drawn = drawn or kind == "drawn"
    if not drawn:
        raise e.Malformed(e.INVALID_NAME)
    return name


def _seat(kind: str = "free", name: str | None = None, token: str | None = None) -> dict[str, Any]:
    return {"kind": kind, "name": name, "token": token, "away": False, "connected": False,
            "streams": {}, "gone_since": None}


def new_table(host_name: str, host_token: str, away_seconds: int | None,
              hints: bool) -> dict[str, Any]:
    """A table in the lobby with its host at seat 0 and three free seats."""
    seats = [_seat("person", host_name, token_hash(host_token))] + [_seat() for _ in range(3)]
    return {"seats": seats, "host": HOST, "phase": "lobby",
            "options": {"away_seconds": away_seconds, "hints": hints},
            "turn_since": 0.0, "lease": None}


def table_of(rec: GameRecord) -> dict[str, Any] | None:
    """The table with friends this record is, or None for a single-player game."""
    if rec.code is None:
        return None
    table: dict[str, Any] = rec.meta["table"]
    return table


def seat_of_token(table: dict[str, Any], token: str | None) -> int | None:
    """The seat the token belongs to; None without a token; 403 for a token of no seat."""
    if token is None:
        return None
    digest = token_hash(token)
    for i, seat in enumerate(table["seats"]):
        # Constant time, so the answer's timing says nothing about a stored hash.
        if seat["token"] is not None and hmac.compare_digest(seat["token"], digest):
            return i
    raise e.Forbidden(e.WRONG_TOKEN)


def phase_of(rec: GameRecord, table: dict[str, Any]) -> str:
    if table["phase"] == "lobby":
        return "lobby"
    return "match_over" if rec.match.winner is not None else "playing"


def sit(table: dict[str, Any], seat: int, name: str, token: str) -> None:
    """A person takes a free seat in the lobby; 409 when it is taken or the table has left the
    lobby or has no free seat."""
    if table["phase"] != "lobby":
        raise e.Conflict(e.TABLE_PLAYING)
    if all(s["kind"] != "free" for s in table["seats"]):
        raise e.Conflict(e.TABLE_FULL)
    if table["seats"][seat]["kind"] != "free":
        raise e.Conflict(e.SEAT_TAKEN)
    table["seats"][seat] = _seat("person", name, token_hash(token))


def leave(table: dict[str, Any], seat: int) -> None:
    """The person at ``seat`` stands up (lobby only); the host stays (the table is theirs)."""
    if table["phase"] != "lobby":
        raise e.Conflict(e.NOT_IN_LOBBY)
    if seat == table["host"]:
        raise e.Conflict(e.HOST_SEAT)
    table["seats"][seat] = _seat()


def start(table: dict[str, Any], now: float) -> None:
    """From the lobby to play: every free seat becomes a computer."""
    if table["phase"] != "lobby":
        raise e.Conflict(e.TABLE_PLAYING)
    for i, s in enumerate(table["seats"]):
        if s["kind"] == "free":
            table["seats"][i] = _seat("computer")
    table["phase"] = "playing"
    table["turn_since"] = now
    dealt(table)


def match_ended(table: dict[str, Any], number: int, scores: list[int], winner: int) -> None:
    """Match ``number`` ended ``scores`` (pair A's, pair B's), won by pair ``winner`` (0 or 1),
    and a rematch replaces it: kept for the views of the next match (``last_match``), so that a
    page away when it ended learns how it went.

    >>> table = {}
    >>> match_ended(table, 1, [11, 4], 0)
    >>> table["last_match"]
    {'match': 1, 'score': [11, 4], 'winner': 'A'}
    """
    table["last_match"] = {"match": number, "score": list(scores), "winner": PAIRS[winner]}


def dealt(table: dict[str, Any]) -> None:
    """A new round was dealt: none of its cards was chosen by the computer for a person, and
    every seat is held by whoever holds it now."""
    table["by_computer"] = []
    table["former"] = []


def former_holders(table: dict[str, Any], seats: list[int]) -> dict[int, str]:
    """The current round's plays (history indices; ``seats`` gives each play's seat) made by a
    person who no longer holds the seat (the host handed it to the computer since), with their
    name: the plays are theirs, not the computer's.

    >>> former_holders({"former": [{"seat": 1, "name": "Bea", "until": 3}]}, [0, 1, 2, 3, 0, 1])
    {1: 'Bea'}
    """
    out: dict[int, str] = {}
    for f in table.get("former", ()):
        for i, seat in enumerate(seats[:int(f["until"])]):
            if seat == f["seat"]:
                out[i] = str(f["name"])
    return out


def chosen_by_computer(table: dict[str, Any]) -> frozenset[int]:
    """The current round's plays (history indices) whose card the computer chose for a
    person; tables stored before this was kept have none."""
    return frozenset(int(i) for i in table.get("by_computer", ()))


def computer_chose(rec: GameRecord, table: dict[str, Any], seat: int) -> None:
    """Notes that the play ``seat`` is about to make is the computer's choice, when the seat
    is a person's (a computer seat's cards are the computer's anyway)."""
    if table["seats"][seat]["kind"] == "person":
        history = rec.match.round.history or ()
        table.setdefault("by_computer", []).append(len(history))


def to_computer(table: dict[str, Any], seat: int, plays: int = 0) -> None:
    """The host hands a person's seat to the computer: the person loses it (and its token).
    The round's ``plays`` so far stay theirs (``former_holders``)."""
    s = table["seats"][seat]
    if s["kind"] != "person":
        raise e.Conflict(e.NOT_A_PERSON)
    if plays:
        table.setdefault("former", []).append({"seat": seat, "name": s["name"], "until": plays})
    table["seats"][seat] = _seat("computer")


def open_seat(table: dict[str, Any], seat: int) -> None:
    """In the lobby, the host opens a seat they handed to the computer to people again (a
    friend who had to go, a stranger who took a seat sent away and the seat kept for the
    friend it was meant for); at the start it becomes a computer's again if nobody took it."""
    if table["phase"] != "lobby":
        raise e.Conflict(e.NOT_IN_LOBBY)
    if table["seats"][seat]["kind"] != "computer":
        raise e.Conflict(e.NOT_A_COMPUTER)
    table["seats"][seat] = _seat()


def require_host(table: dict[str, Any], seat: int | None) -> int:
    if seat is None:
        raise e.Forbidden(e.TOKEN_REQUIRED)
    if seat != table["host"]:
        raise e.Forbidden(e.NOT_HOST)
    return seat


def require_seat(seat: int | None) -> int:
    if seat is None:
        raise e.Forbidden(e.TOKEN_REQUIRED)
    return seat


def back(table: dict[str, Any], seat: int) -> bool:
    """The person at ``seat`` is back; whether that changed anything."""
    s = table["seats"][seat]
    if not s["away"]:
        return False
    s["away"] = False
    return True


def next_due(rec: GameRecord, table: dict[str, Any], pace: float,
             gone_grace: float) -> tuple[float, int] | None:
    """When the server is to play the next card and for which seat, or None when it waits
    for nobody's card but a person's own (or nothing is to be played).

    A computer's card, and an away person's, comes ``pace`` seconds after the last change of
    the game; a person's after ``away_seconds`` of their turn, or at once (at the pace) when
    their last stream closed ``gone_grace`` ago. A person who never opened a stream is only
    timed by ``away_seconds``.
    """
    seat = _turn(rec, table)
    if seat is None:
        return None
    s = table["seats"][seat]
    since = float(table["turn_since"])
    if s["kind"] != "person" or s["away"]:
        return since + pace, seat
    due = _person_due(table, s, since, pace, gone_grace)
    return None if due is None else (due[0], seat)


class Timing(NamedTuple):
    """The server's pace at tables (``Settings.table_pace``) and an offline person's grace
    (``Settings.table_reconnect_seconds``): what the driver plays by and the clock shows."""

    pace: float
    reconnect: float


Clock = tuple[int, Literal["turn", "offline"], float]


def turn_clock(rec: GameRecord, table: dict[str, Any], pace: float, gone_grace: float,
               now: float) -> Clock | None:
    """The clock every viewer sees: the person to play, why the computer will play their
    card (their time runs out, or they are offline) and in how many seconds from ``now``;
    None when no person's card is timed (a computer's or an away person's turn, the
    "never" option, a round over)."""
    seat = _turn(rec, table)
    if seat is None:
        return None
    s = table["seats"][seat]
    if s["kind"] != "person" or s["away"]:
        return None
    due = _person_due(table, s, float(table["turn_since"]), pace, gone_grace)
    if due is None:
        return None
    return seat, due[1], max(0.0, due[0] - now)


def _turn(rec: GameRecord, table: dict[str, Any]) -> int | None:
    """The seat whose card is to be played, or None (the lobby, a round or match over)."""
    m = rec.match
    if table["phase"] != "playing" or m.winner is not None or m.round.is_over:
        return None
    return m.round.turn


def _person_due(table: dict[str, Any], s: dict[str, Any], since: float, pace: float,
                gone_grace: float) -> tuple[float, Literal["turn", "offline"]] | None:
    """When the computer plays a present person's card, and why: the earlier of their
    stream's grace running out and their time to play running out."""
    due: tuple[float, Literal["turn", "offline"]] | None = None
    if not s["connected"] and s["gone_since"] is not None:
        due = max(since + pace, float(s["gone_since"]) + gone_grace), "offline"
    away = table["options"]["away_seconds"]
    if away is not None and (due is None or since + float(away) < due[0]):
        due = since + float(away), "turn"
    return due


#: How far ahead of this process's clock a table's stamp may be before it is taken for a
#: clock stepped back (another machine's clock a little ahead is no step).
AHEAD_SECONDS = 5.0


def stamped_ahead(table: dict[str, Any], now: float) -> bool:
    """Whether the table's turn or a seat's going is stamped later than ``now`` allows: the
    clock stepped back since (or another machine's runs far ahead). Every wait reckoned from
    such a stamp would last the step.

    >>> stamped_ahead({"turn_since": 160.0, "seats": []}, 100.0)
    True
    """
    stamps = [table.get("turn_since")] + [s.get("gone_since") for s in table["seats"]]
    return any(x is not None and float(x) > now + AHEAD_SECONDS for x in stamps)


#: Whether a process (``process_name``) is known to be gone: ``liveness.Liveness.gone``.
Gone = Callable[[str], bool]


def dead_lease(table: dict[str, Any], process: str, gone: Gone) -> bool:
    """Whether the table's driver, by its lease, was a process other than ``process`` that is
    known to be gone."""
    lease = table.get("lease")
    return lease is not None and lease["owner"] != process and gone(lease["owner"])


def drop_dead_streams(s: dict[str, Any], gone: Gone, keep: str | None = None) -> bool:
    """Drops from seat ``s`` the streams of processes known to be gone (``keep``'s never);
    True if there were any."""
    streams: dict[str, bool] = s.setdefault("streams", {})
    dead = [name for name in streams if name != keep and gone(name)]
    for name in dead:
        del streams[name]
    return bool(dead)


def note_presence(s: dict[str, Any], now: float) -> None:
    """Seat ``s`` connected while any process has a stream of it open; ``gone_since`` when
    the last one went."""
    was = bool(s["connected"])
    s["connected"] = bool(s["streams"])
    if was and not s["connected"]:
        s["gone_since"] = now
    elif s["connected"]:
        s["gone_since"] = None


def dead_streams(table: dict[str, Any], gone: Gone) -> bool:
    """Whether a seat counts a stream of a process known to be gone."""
    return any(gone(name) for s in table["seats"] for name in s.get("streams", {}))


@functools.cache
def machine() -> str:
    """This machine as process names give it: the host's name and, where it can be read, the
    pid namespace's number. Containers that share the host's name (host networking) but not
    its pids are then different machines, whose pids are never looked up here."""
    try:
        ns = os.readlink("/proc/self/ns/pid")  # "pid:[4026531836]"
    except OSError:
        return socket.gethostname()
    return f"{socket.gethostname()}/{''.join(c for c in ns if c.isdigit())}"


def process_name() -> str:
    """This process as the driver's lease and the seats' ``streams`` name it."""
    return f"{machine()}:{os.getpid()}:{secrets.token_hex(4)}"


def pid_gone(name: str) -> bool:
    """Whether a process named by ``process_name`` ran on this machine and its pid is gone.
    Another machine's processes are judged by their heartbeats (``scopone.web.liveness``)."""
    host, _, rest = name.partition(":")
    pid = rest.partition(":")[0]
    if host != machine() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False
