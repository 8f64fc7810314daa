"""The operator's endpoints: /healthz follows the database, /metrics counts per route template."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from scopone.web.store import open_store


def _samples(text: str, name: str) -> dict[tuple[str, str, str], float]:
    """``{(method, route, status): value}`` of one sample name in a /metrics answer."""
    out: dict[tuple[str, str, str], float] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name:
                out[(s.labels["method"], s.labels["route"], s.labels["status"])] = s.value
    return out


def test_ping_answers_while_the_database_is_open(store_url: str) -> None:
    store = open_store(store_url)
    assert store.ping() is True
    store.close()
    assert store.ping() is False


def test_healthz_is_200_while_the_database_answers(api: Any) -> None:
    r = api.client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}
    assert r.headers["x-content-type-options"] == "nosniff"


def test_healthz_is_503_when_the_database_does_not(api: Any) -> None:
    api.close_database()
    r = api.client.get("/healthz")
    assert r.status_code == 503 and r.json() == {"detail": "database unavailable"}
    assert r.headers["retry-after"] == "2"  # a load balancer or a client knows when to ask again


def test_metrics_count_per_route_template_and_status(api: Any) -> None:
    c = api.client
    gid = api.create()["id"]
    c.get(f"/api/games/{gid}")
    c.get(f"/api/games/{gid}")
    c.get("/api/games/no-such-game")
    c.post(f"/api/games/{gid}/advance", json={"version": 99})
    c.post("/api/games", content=b"x" * 20000)  # 413 before any route ran
    c.get("/no/such/page")
    c.get("/another/missing/page")
    c.request("BREW", "/api/games")
    r = c.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    counts = _samples(r.text, "scopone_http_requests_total")
    game = "/api/games/{game_id}"
    assert counts[("POST", "/api/games", "201")] == 1
    assert counts[("GET", game, "200")] == 2
    assert counts[("GET", game, "404")] == 1
    assert counts[("POST", game + "/advance", "409")] == 1
    assert counts[("POST", "/api/games", "413")] == 1
    assert counts[("GET", "(unmatched)", "404")] == 2  # junk paths share one label value
    assert counts[("other", "/api/games", "405")] == 1  # and so do invented methods
    # Never a raw path: no game id in any label.
    assert gid not in r.text and "no-such-game" not in r.text and "/no/such" not in r.text
    # The latency histogram has the same labels, with its buckets.
    latency = _samples(r.text, "scopone_http_request_duration_seconds_count")
    assert latency[("GET", game, "200")] == 2
    buckets = [line for line in r.text.splitlines()
               if line.startswith("scopone_http_request_duration_seconds_bucket")
               and 'route="/api/games/{game_id}"' in line and 'status="200"' in line]
    assert len(buckets) >= 10 and any('le="+Inf"' in line for line in buckets)


def test_each_app_counts_only_its_own_requests(api_factory: Any) -> None:
    first, second = api_factory(), api_factory()
    with first.client, second.client:
        first.client.get("/healthz")
        text = second.client.get("/metrics").text
    assert ("GET", "/healthz", "200") not in _samples(text, "scopone_http_requests_total")


def test_metrics_with_a_token_set_answer_only_who_gives_it(api_factory: Any) -> None:
    """``SCOPONE_METRICS_TOKEN``: without the token, or with another, 401 with its stable
    message and how to give it; with it, the metrics. The refusals count like any answer."""
    api = api_factory(metrics_token="s3cret-token")
    with api.client as c:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "s3cret-token"},
                        {"Authorization": "Basic s3cret-token"}):
            r = c.get("/metrics", headers=headers)
            assert r.status_code == 401 and r.json() == {"detail": "metrics token required"}, r
            assert r.headers["www-authenticate"] == 'Bearer realm="scopone"'
            assert "scopone_http_requests_total" not in r.text
        r = c.get("/metrics", headers={"Authorization": "Bearer s3cret-token"})
        assert r.status_code == 200
        assert _samples(r.text, "scopone_http_requests_total")[("GET", "/metrics", "401")] == 4
        assert c.get("/healthz").status_code == 200  # a load balancer's check needs none
    assert "s3cret-token" not in repr(api.app.state.settings)  # nor does a logged setting say it


def test_the_metrics_token_comes_from_the_environment_to_every_worker() -> None:
    from scopone.web import Settings

    settings = Settings.from_env({"SCOPONE_METRICS_TOKEN": "s3cret"})
    assert settings.metrics_token == "s3cret"
    assert Settings.from_env(settings.to_env()).metrics_token == "s3cret"
    assert Settings.from_env({}).metrics_token == ""


_WORKER = """
import sys
import time
from pathlib import Path
from fastapi.testclient import TestClient
from scopone.web import Settings, create_app
app = create_app(Settings(db_path=Path(sys.argv[1]), ai_processes=False))
with TestClient(app) as client:
    for _ in range(int(sys.argv[2])):
        client.get("/api/games/none")
    if sys.argv[3] == "scrape":
        deadline = time.monotonic() + 30
        text = client.get("/metrics").text
        while "scopone_processes_heard " not in text:  # until the first heartbeat was read
            assert time.monotonic() < deadline, "no heartbeat read"
            time.sleep(0.05)
            text = client.get("/metrics").text
        print(text)
"""


def test_worker_processes_add_up_in_multiprocess_mode(tmp_path: Path) -> None:
    """With PROMETHEUS_MULTIPROC_DIR set, any process's /metrics shows every process's counts,
    as with ``--workers N`` behind one port."""
    shared = tmp_path / "prometheus"
    shared.mkdir()
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(shared)}
    db = str(tmp_path / "games.sqlite3")

    def worker(requests: int, scrape: bool) -> str:
        done = subprocess.run([sys.executable, "-c", _WORKER, db, str(requests),
                               "scrape" if scrape else "-"],
                              env=env, capture_output=True, text=True, timeout=120, check=True)
        return done.stdout

    worker(3, scrape=False)
    text = worker(4, scrape=True)
    counts = _samples(text, "scopone_http_requests_total")
    assert counts[("GET", "/api/games/{game_id}", "404")] == 7  # 3 from one process, 4 from this
    assert len(list(shared.glob("*.db"))) >= 2  # one file per process
    assert not re.search(r'route="/api/games/none"', text)
    # The heartbeats are read by the answering process, not added up over the files: the first
    # worker said goodbye, so one process is heard, once.
    assert _gauge(text, "scopone_processes_heard") == [((), 1.0)]
    assert len(_gauge(text, "scopone_process_heartbeat_age_seconds")) == 1


def _gauge(text: str, name: str) -> list[tuple[tuple[tuple[str, str], ...], float]]:
    """Every sample of ``name``: its labels and value."""
    return [(tuple(sorted(s.labels.items())), s.value)
            for family in text_string_to_metric_families(text) for s in family.samples
            if s.name == name]


def test_metrics_show_the_processes_the_heartbeats_tell_of(api_factory: Any,
                                                          store_url: str) -> None:
    """Each process sharing the database with its heartbeat's age; how many beat within the
    silence after which a process is judged gone. One that stopped is not shown; one silent
    too long is shown, not counted."""
    api = api_factory(process_stale_seconds=2.0)
    with api.client:
        me = api.app.state.tables.process
        other = open_store(store_url)
        try:
            other.beat("elsewhere.example:1:silent")
            other.beat("elsewhere.example:2:stopped")
            other.forget("elsewhere.example:2:stopped")
            # A look begun after the goodbye: one that read between the beat and the goodbye
            # showed the stopped process alive (a race of this test, once in a full run). The
            # first look ended after it may have read before it; the next one did not.
            _scraped_once_beat(api, "elsewhere.example:1:silent", after=time.monotonic())
            looked = api.app.state.tables.liveness._looked
            text = _scraped_once_beat(api, "elsewhere.example:1:silent", after=looked)
            ages = {dict(labels)["process"]: v
                    for labels, v in _gauge(text, "scopone_process_heartbeat_age_seconds")}
            assert set(ages) == {me, "elsewhere.example:1:silent"}
            assert 0 <= ages[me] < 2.0
            assert _gauge(text, "scopone_processes_heard") == [((), 2.0)]
            time.sleep(2.5)  # the other falls silent past the 2 s; this process beats on
            text = _scraped_once_beat(api, "elsewhere.example:1:silent", after=time.monotonic())
            ages = {dict(labels)["process"]: v
                    for labels, v in _gauge(text, "scopone_process_heartbeat_age_seconds")}
            assert ages["elsewhere.example:1:silent"] > 2.0 > ages[me]
            assert _gauge(text, "scopone_processes_heard") == [((), 1.0)]
        finally:
            other.close()


def _scraped_once_beat(api: Any, process: str, after: float = 0.0) -> str:
    """/metrics once the app's heartbeat has read ``process`` (at a look begun after
    ``after``, a ``time.monotonic()``)."""
    deadline = time.monotonic() + 30
    while True:
        liveness = api.app.state.tables.liveness
        if liveness._looked is not None and liveness._looked > after \
                and process in (liveness.heard() or {}):
            return str(api.client.get("/metrics").text)
        assert time.monotonic() < deadline, "the heartbeat never read " + process
        time.sleep(0.05)
