#!/usr/bin/env bash
# Play: installs into .venv when needed, then serves the game on http://127.0.0.1:8000.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
stamp=.venv/.installed-play
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e .
  echo "$want" > "$stamp"
fi
exec .venv/bin/python -m scopone serve "$@"
