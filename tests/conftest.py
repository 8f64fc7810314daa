"""Fixtures for every test folder: the database a test's server keeps its games in.

``store_url`` is parametrized: each test that uses it runs once on a SQLite file and once on
PostgreSQL (a schema of its own in the throwaway server that ``scripts/test.sh`` starts and
names in ``SCOPONE_TEST_DATABASE_URL``).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

PG_ENV = "SCOPONE_TEST_DATABASE_URL"


def pg_base_url() -> str | None:
    """The test PostgreSQL server, or None; the test command sets SCOPONE_REQUIRE_POSTGRES so
    that a missing server fails there instead of skipping half the suite."""
    url = os.environ.get(PG_ENV)
    if not url and os.environ.get("SCOPONE_REQUIRE_POSTGRES"):
        raise RuntimeError(f"{PG_ENV} is not set but PostgreSQL is required")
    return url or None


def pg_schema_url(base: str, schema: str) -> str:
    """``base`` with every connection's search_path set to ``schema``.

    >>> pg_schema_url("postgresql://u@h:5/db", "t_1")
    'postgresql://u@h:5/db?options=-csearch_path%3Dt_1'
    """
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options={quote('-csearch_path=' + schema, safe='-')}"


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, empty schema on the test PostgreSQL server, dropped afterwards."""
    base = pg_base_url()
    if base is None:
        pytest.skip(f"no PostgreSQL ({PG_ENV} unset; scripts/test.sh starts one)")
    import psycopg

    schema = "t_" + secrets.token_hex(6)
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")  # type: ignore[arg-type]  # our own name
    try:
        yield pg_schema_url(base, schema)
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")  # type: ignore[arg-type]


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's games live: a SQLite file, then a PostgreSQL schema."""
    if request.param == "sqlite":
        return str(tmp_path / "db" / "games.sqlite3")
    return str(request.getfixturevalue("pg_url"))
