#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs what it needs, then ruff, mypy, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
# Reinstall only when the dependency list changed since the last install.
stamp=.venv/.installed-test
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[test]'
  echo "$want" > "$stamp"
fi

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

echo "== ruff"
.venv/bin/ruff check scopone tests
echo "== mypy --strict (engine)"
.venv/bin/mypy --strict scopone/engine
echo "== pytest"
# pytest exits 5 when it collected no test; set -e turns that (and any failure) into ours.
.venv/bin/python -m pytest "$@"
