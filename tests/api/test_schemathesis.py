"""The OpenAPI document is the contract: schemathesis generates requests from it, valid and
invalid, one at a time (its examples, coverage and fuzzing phases) and chained along the
document's links (stateful), against the app in-process, and checks every answer with all its
checks (no 5xx, documented status, content type and body schema, valid data accepted and invalid
refused, Allow on 405...). ``python -m scopone.web.fuzz --cases 10000`` is the long run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from schemathesis.python import asgi

from scopone.web import create_app
from scopone.web.fuzz import STATELESS, FuzzReport, fuzz, fuzz_settings

# Together well over 1,000 requests (about 1,400) in about half a minute on this machine.
MAX_EXAMPLES = 150
# The chains spread over every operation linked from a created game or table: enough of them
# that the games' own operations (get, move, advance, level) come up answered 200 too.
STATEFUL_EXAMPLES = 400
STATEFUL_REQUESTS = 1000
#: The operations the links reach with a game the chain created.
LINKED = ("GET /api/games/{game_id}", "PATCH /api/games/{game_id}",
          "POST /api/games/{game_id}/advance")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    yield create_app(fuzz_settings(tmp_path_factory.mktemp("schemathesis")))
    asgi.shutdown_lifespans()  # schemathesis started the app's lifespan itself


@pytest.fixture(scope="module")
def stateless(app: Any) -> FuzzReport:
    return fuzz(app, max_examples=MAX_EXAMPLES, seed=1, phases=STATELESS)


@pytest.fixture(scope="module")
def stateful(app: Any) -> FuzzReport:
    # Hypothesis sometimes ends a stateful run after a hundred-odd requests without any failure
    # (seen with the same seed: 110 requests in one run, 2,540 in the next): further seeds run
    # until the chains have really been walked, each run's findings kept.
    # Nor does a run always follow each link to a game: one stopped at 1,253 requests with no
    # GET of a game answered 200 (four runs of the same seeds gave 1, 11, 32 and 3 such GETs), so
    # the runs also go on until every linked operation has answered a real game.
    report = FuzzReport()
    for seed in range(2, 12):
        report.add(fuzz(app, max_examples=STATEFUL_EXAMPLES, seed=seed, phases=("stateful",)))
        if report.total >= STATEFUL_REQUESTS and all(
                report.answers[(operation, 200)] for operation in LINKED):
            break
    return report


def _operations(report: FuzzReport) -> set[str]:
    return {label for label, _ in report.answers}


def test_single_requests_answer_as_documented(app: Any, stateless: FuzzReport) -> None:
    assert not stateless.failures and not stateless.errors, "\n\n".join(
        stateless.failures + stateless.errors)
    documented = {f"{method.upper()} {path}"
                  for path, item in app.openapi()["paths"].items() for method in item}
    assert _operations(stateless) == documented  # every operation was tried
    assert stateless.requests["coverage"] > 0 and stateless.requests["fuzzing"] > 0


def test_chained_requests_answer_as_documented(stateful: FuzzReport) -> None:
    assert not stateful.failures and not stateful.errors, "\n\n".join(
        stateful.failures + stateful.errors)
    # The links carried real games along: moves, advances and level changes on them succeeded.
    answers = stateful.answers
    assert answers[("POST /api/games", 201)] > 0
    for operation in LINKED:
        assert answers[(operation, 200)] > 0, operation


def test_over_a_thousand_requests_in_all(stateless: FuzzReport, stateful: FuzzReport) -> None:
    assert stateless.total + stateful.total >= 1000, (stateless.requests, stateful.requests)
