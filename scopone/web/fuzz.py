"""Schemathesis against the app in-process: generated requests checked against the OpenAPI document.

``python -m scopone.web.fuzz --cases 10000`` runs every phase (the document's examples, its
boundary values, random valid and invalid requests, chains along its links) with every check
schemathesis has, round after round with new seeds, until that many requests have been sent; it
prints what was sent and answered, and exits 1 on any failure. The test suite runs a short
version (``tests/api/test_schemathesis.py``). Needs the test extra (``pip install -e .[test]``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .app import create_app
from .settings import Settings

STATELESS = ("examples", "coverage", "fuzzing")
PHASES = (*STATELESS, "stateful")


@dataclass
class FuzzReport:
    """What one or more schemathesis runs sent, what came back, and what failed."""

    requests: Counter[str] = field(default_factory=Counter)  # per phase
    answers: Counter[tuple[str, int]] = field(default_factory=Counter)  # (operation, status)
    failures: list[str] = field(default_factory=list)  # check failures, with a curl to replay
    errors: list[str] = field(default_factory=list)  # schemathesis could not run something
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.requests.values())

    def add(self, other: FuzzReport) -> None:
        self.requests.update(other.requests)
        self.answers.update(other.answers)
        self.failures += other.failures
        self.errors += other.errors
        self.seconds += other.seconds


def fuzz_settings(directory: Path) -> Settings:
    """The API tests' settings: a fresh SQLite file, computer players in threads, quick Hard."""
    # Event streams end after half a second: schemathesis reads a response to its end.
    # Short streams and short judgements: thousands of requests, each answered at once.
    return Settings(db_path=directory / "games.sqlite3", ai_processes=False, ai_time_budget=0.05,
                    events_max_seconds=0.05, coach_seconds=0.05)


def fuzz(app: Any, *, max_examples: int, seed: int,
         phases: tuple[str, ...] = PHASES) -> FuzzReport:
    """One schemathesis run over ``app`` with every check. Its lifespan is started by
    schemathesis and stays up for later runs; ``schemathesis.python.asgi.shutdown_lifespans``
    stops it."""
    import schemathesis
    from schemathesis.config import SchemathesisConfig
    from schemathesis.engine import Status, events

    config = SchemathesisConfig()
    config.update(seed=seed, max_failures=None)
    project = config.projects.override
    project.phases.update(phases=list(phases))
    project.checks.update(included_check_names=["all"])
    project.generation.update(max_examples=max_examples)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app, config=config)

    report = FuzzReport()
    start = time.perf_counter()
    for event in schemathesis.engine.from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            rec = event.recorder
            for case_id, interaction in rec.interactions.items():
                report.requests[event.phase.value] += 1
                if interaction.response is not None:
                    label = rec.cases[case_id].value.operation.label
                    report.answers[(label, interaction.response.status_code)] += 1
            for checks in rec.checks.values():
                for check in checks:
                    if check.failure_info is not None:
                        failure = check.failure_info.failure
                        report.failures.append(
                            f"{event.label}: {check.name}: {failure.title}\n{failure.message}\n"
                            f"{check.failure_info.code_sample}")
            if event.status is Status.ERROR:
                report.errors.append(f"{event.phase.value} {event.label}: error")
        elif isinstance(event, events.NonFatalError | events.FatalError):
            report.errors.append(f"{type(event).__name__}: {event.info.message}"
                                 if hasattr(event, "info") else repr(event))
        elif isinstance(event, events.EngineFinished):
            report.failures += [f"after the run: {f.title}\n{f.message}" for f in event.failures]
    report.seconds = time.perf_counter() - start
    return report


def _print(report: FuzzReport) -> None:
    print(f"requests: {report.total:,} in {report.seconds:.1f} s "
          f"({report.total / max(report.seconds, 1e-9):,.0f}/s)")
    for phase in PHASES:
        print(f"  {phase:<10} {report.requests[phase]:>8,}")
    print("answers (operation, status):")
    for (label, status), n in sorted(report.answers.items()):
        print(f"  {label:<45} {status}  {n:>7,}")
    print(f"failures: {len(report.failures)}   errors: {len(report.errors)}")
    for text in report.failures + report.errors:
        print("-" * 72 + "\n" + text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopone.web.fuzz", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=10_000,
                        help="keep going until at least this many requests were sent")
    parser.add_argument("--examples", type=int, default=300,
                        help="schemathesis max-examples per operation and phase in one round")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first round")
    parser.add_argument("--phases", default=",".join(PHASES),
                        help=f"comma-separated, from {', '.join(PHASES)}")
    args = parser.parse_args(argv)
    phases = tuple(p for p in args.phases.split(",") if p)
    if unknown := set(phases) - set(PHASES):
        parser.error(f"unknown phases: {', '.join(sorted(unknown))}")
    try:
        from schemathesis.python import asgi
    except ImportError:
        print("schemathesis is missing: pip install -e '.[test]'", file=sys.stderr)
        return 2

    total = FuzzReport()
    with tempfile.TemporaryDirectory(prefix="scopone-fuzz-") as tmp:
        app = create_app(fuzz_settings(Path(tmp)))
        seed = args.seed
        try:
            while total.total < args.cases:
                round_ = fuzz(app, max_examples=args.examples, seed=seed, phases=phases)
                total.add(round_)
                print(f"round with seed {seed}: {round_.total:,} requests, "
                      f"{len(round_.failures)} failures", flush=True)
                if round_.total == 0:
                    break
                seed += 1
        finally:
            asgi.shutdown_lifespans()
    _print(total)
    return 1 if total.failures or total.errors else 0


if __name__ == "__main__":
    sys.exit(main())
