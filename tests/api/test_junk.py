"""Whatever a client sends, the answer is never a 500: hypothesis throws junk at every route."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CARDS = [f"{r}{s}" for s in "DCSB" for r in range(1, 11)]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=20) | st.sampled_from(CARDS),
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)
# Bodies shaped like the real ones, with the fields mistyped, missing, extra or out of range.
field_values = st.one_of(json_values, st.sampled_from(CARDS), st.integers(-3, 10**30),
                         st.lists(st.sampled_from([*CARDS, "", "ZZ", "10X"]), max_size=12))
near_bodies = st.dictionaries(
    st.sampled_from(["version", "card", "capture", "level", "napola", "variant", "target",
                     "seat", "", "__proto__"]),
    field_values, max_size=5)
bodies = st.one_of(json_values, near_bodies)
routes = st.sampled_from([("POST", ""), ("POST", "/moves"), ("POST", "/advance"),
                          ("POST", "/next-round"), ("PATCH", ""), ("GET", "")])
ids = st.one_of(st.just("GAME"), st.text(max_size=80))


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(route=routes, gid=ids, body=bodies, raw=st.one_of(st.none(), st.binary(max_size=64)))
def test_junk_never_makes_a_500(api: Any, route: tuple[str, str], gid: str, body: Any,
                                raw: bytes | None) -> None:
    method, tail = route
    if not hasattr(api, "junk_game"):
        api.junk_game = api.create()["id"]
    real = gid == "GAME"
    path = "/api/games" if (method, tail) == ("POST", "") and real else \
        f"/api/games/{api.junk_game if real else quote(gid, safe='')}{tail}"
    content = raw if raw is not None else json.dumps(body).encode()
    r = api.client.request(method, path, content=content,
                           headers={"content-type": "application/json"})
    assert r.status_code < 500, (method, path, content, r.text)
    if r.status_code >= 400:
        assert isinstance(r.json()["detail"], str)
