#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs what it needs, then ruff, mypy, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/venv.sh
ensure_venv "[test]" test

# Browser tests use Debian's Chromium (never a downloaded browser build).
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
  else
    echo "note: /usr/bin/chromium is missing and we are not root: browser tests will be skipped" >&2
  fi
fi

. scripts/pg.sh
start_postgres

echo "== ruff"
.venv/bin/ruff check scopone tests
# The engine and the computer players import only the standard library, so a new release of a
# web dependency cannot fail this step; the web app is kept clean too (`mypy --strict scopone`)
# but not gated on, since its types come from FastAPI's and Starlette's releases.
echo "== mypy --strict (engine, players)"
.venv/bin/mypy --strict scopone/engine scopone/players
echo "== pytest"
# pytest exits 5 when it collected no test; set -e turns that (and any failure) into ours
# (and the EXIT trap still stops PostgreSQL).
.venv/bin/python -m pytest "$@"
