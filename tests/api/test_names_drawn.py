"""A name has a character that is drawn, and no pile of marks (``scopone.web.table.name_char``),
and the schema's pattern, built class by class from the same rule, agrees at every code point."""

from __future__ import annotations

import re
import sys
import unicodedata
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from scopone.web import errors as e
from scopone.web import table as t
from scopone.web.schemas_tables import NAME_PATTERN

PATTERN = re.compile(NAME_PATTERN)


def _kept(name: str) -> bool:
    try:
        t.clean_name(name)
    except e.Malformed:
        return False
    return True


def _kind(c: str) -> str:
    """The rule in the words of the report that asked for it: drawn (``d``) is not a mark,
    not in categories C (but unassigned) or Z, not Default_Ignorable (``s`` for silent: formats
    and those) and not trimmed (``b``, with the separators and other C)."""
    category = unicodedata.category(c)
    if category in ("Mn", "Me"):
        return "m"
    if category == "Cf" or any(lo <= ord(c) <= hi for lo, hi in t.NAME_DEFAULT_IGNORABLES):
        return "s"
    blank = category[0] in "CZ" and category != "Cn"  # unassigned here, maybe drawn there
    return "b" if blank or c in t.NAME_TRIMMED else "d"


def _rule(raw: str) -> bool:
    """What a name must be, written apart from ``clean_name``: 1-20 characters once trimmed,
    no control or bidirectional override, a character drawn, and no five marks in a row (what
    draws nothing between them does not end the row)."""
    name = raw.strip(t.NAME_TRIMMED)
    if not 1 <= len(name) <= 20 or any(
            unicodedata.category(c) == "Cc" or c in t.NAME_BIDI_CONTROLS for c in name):
        return False
    kinds = "".join(map(_kind, name))
    return "d" in kinds and not re.search("m(?:s*m){4}", kinds)


def _edges() -> list[int]:
    """Every code point where ``name_char`` can change its mind: each end of a run of one
    category, of a Default_Ignorable range and every trimmed character, and their neighbours."""
    points = {ord(c) for c in t.NAME_TRIMMED}
    for lo, hi in t.NAME_DEFAULT_IGNORABLES:
        points |= {lo - 1, lo, hi, hi + 1}
    before = None
    for cp in range(sys.maxunicode + 1):
        category = unicodedata.category(chr(cp))
        if category != before:
            points |= {cp - 1, cp}
            before = category
    # A lone surrogate: the published pattern names none (schemas_tables._name_classes), so
    # it takes one for a character drawn where the code refuses it; no JSON client sends one.
    return sorted(p for p in points if 0 <= p <= sys.maxunicode and not 0xD800 <= p < 0xE000)


def test_the_pattern_and_the_code_agree_at_every_edge_of_every_kind_of_character() -> None:
    """The character alone, after a letter, in a row of marks and five times on a letter: the
    schema keeps what ``clean_name`` keeps, which is what the rule says, at the first and last
    code point of every range the pattern's classes are made of."""
    for cp in _edges():
        c = chr(cp)
        for name in (c, f"a{c}", f"{c}a", f"a\u0301\u0301{c}\u0301\u0301\u0301", "a" + c * 5):
            assert bool(PATTERN.fullmatch(name)) == _kept(name) == _rule(name), (
                hex(cp), ascii(name))


# A few of each kind: drawn, marks, silent, blanks, trimmed, refused, and some far off.
ALPHABET = ("aZ9é名ह\u093fस\u094dไ\u0e34\u2764\U0001f469\u0301\u0302\u20dd\u034f\ufe0f"
            "\U000e0100\u200d\u200b\u061c\U000e0041\u2065\u3164\u2800 \u2003\n\x07\u202e"
            "\ue000\u0378\U0001bca0")


@settings(max_examples=2000, deadline=None)
@given(st.text(st.sampled_from(ALPHABET), max_size=24))
def test_the_pattern_and_the_code_agree_on_any_mix(name: str) -> None:
    assert bool(PATTERN.fullmatch(name)) == _kept(name) == _rule(name), ascii(name)


def test_the_default_ignorables_are_the_characters_they_say() -> None:
    """The list written out from Unicode's DerivedCoreProperties.txt: in order, apart, and of
    the categories Unicode gives them (format, nonspacing marks, unassigned, the Hangul fillers);
    the browser's own property is compared with it in tests/browser/test_tables.py."""
    ranges = t.NAME_DEFAULT_IGNORABLES
    assert all(lo <= hi for lo, hi in ranges)
    assert all(hi < nxt for (_, hi), (nxt, _) in pairwise(ranges))
    fillers = {0x115F, 0x1160, 0x3164, 0xFFA0}
    for lo, hi in ranges:
        for cp in range(lo, hi + 1):
            category = unicodedata.category(chr(cp))
            assert category in {"Cf", "Mn", "Cn"} or (cp in fillers and category == "Lo"), hex(cp)
            assert t.name_char(chr(cp)) in {"mark", "silent"}, hex(cp)


def test_the_published_pattern_is_a_regex_to_the_schema_tools() -> None:
    """jsonschema-rs (Rust's regex; schemathesis checks answers and draws names with it)
    compiles the pattern and reads it as Python does. A pattern naming a surrogate was no
    regex to it, so schemathesis took every string for a valid name."""
    import jsonschema_rs

    valid = jsonschema_rs.validator_for({"type": "string", "pattern": NAME_PATTERN})
    for name in ["Anna", " Anna ", "名前", "\U0001fa77", "a" + "\u0301" * 4, "", "\x81",
                 "\ufe0f\ufe0f", "a" + "\u0301" * 5, "\u3164", "0" * 63]:
        assert valid.is_valid(name) == bool(PATTERN.fullmatch(name)) == _kept(name), ascii(name)
