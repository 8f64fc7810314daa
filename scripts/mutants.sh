#!/usr/bin/env bash
# Mutation testing of the rules engine: how many small changes to scopone/engine (a `<` made
# `<=`, a 1 made 2, a condition negated...) the engine's tests and doctests notice. Not part of
# the test command (about 15 minutes on two cores); run it after changing the engine or its
# tests, and read the survivors it lists: each is a rule change no test would catch, or a change
# that cannot alter behaviour (then say why where it matters).
#   bash scripts/mutants.sh                       # the whole engine (mutmut keeps earlier
#                                                 # results in mutants/: delete it to start anew)
#   bash scripts/mutants.sh "scopone.engine.scoring*"   # some functions again
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
ensure_venv "[test,mutation]" mutation
# A mutant that loops while growing a list (some do) fails at 4 GB instead of taking the machine.
ulimit -v $((4 * 1024 * 1024))
# mutmut's progress line is one long line of control characters: kept out of the terminal.
.venv/bin/mutmut run --max-children "${JOBS:-$(nproc)}" "$@" > mutants.log 2>&1 || {
  tail -c 2000 mutants.log; exit 1; }
.venv/bin/mutmut results --all true 2>/dev/null | .venv/bin/python scripts/mutants_report.py
