"""Summarises ``mutmut results --all true`` (read from stdin): the mutation score of the engine
and its surviving mutants by function.

Functions that build lookup tables when the module is imported (capture options, primiera
tables, card objects) are counted apart: mutmut 3 switches a mutant on inside a test, after the
import, so it can never reach them. Their tables are checked by the tests all the same (perft
counts, the reference implementation, the scoring tests); mutation testing cannot say so.
"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict

#: Run once at import time to fill a module's tables (see above).
IMPORT_TIME = ("cards.xǁCardǁ_build", "captures.x__same_rank_options",
               "captures.x__tops_to_ranks", "scoring.x__best_primiera_table")

LINE = re.compile(r"^\s*(scopone\.engine\.(\S+?))__mutmut_\d+: (.+)$")


def main() -> int:
    status: Counter[str] = Counter()
    unreachable: Counter[str] = Counter()
    survivors: dict[str, int] = defaultdict(int)
    for line in sys.stdin:
        m = LINE.match(line)
        if m is None:
            continue
        function, result = m.group(2), m.group(3).strip()
        if function.startswith(IMPORT_TIME):
            unreachable[result] += 1
            continue
        status[result] += 1
        if result == "survived":
            survivors[function] += 1
    unchecked = status.pop("not checked", 0)  # a run cut short
    total = sum(status.values())
    if unchecked:
        print(f"{unchecked} mutants not checked yet: run again to finish", file=sys.stderr)
    if total == 0:
        print("no mutants: did mutmut run?", file=sys.stderr)
        return 1
    killed = status["killed"] + status["timeout"] + status["segfault"]
    print(f"engine mutants: {total} (+ {sum(unreachable.values())} in import-time tables, "
          "not counted)")
    for name, n in status.most_common():
        print(f"  {name}: {n}")
    print(f"mutation score: {killed / total:.1%} killed (timeouts and crashes count as killed)")
    if survivors:
        print("survivors by function (`.venv/bin/mutmut show NAME` shows each):")
        for function, n in sorted(survivors.items(), key=lambda kv: -kv[1]):
            print(f"  {n:4d}  {function}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
