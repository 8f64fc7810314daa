#!/usr/bin/env bash
# Play: installs into .venv when needed, then serves the game on http://127.0.0.1:8000.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/venv.sh
ensure_venv "" play
exec .venv/bin/python -m scopone serve "$@"
