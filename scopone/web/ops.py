"""The operator's endpoints: ``/healthz`` for load balancers, ``/metrics`` for Prometheus."""

from __future__ import annotations

import hmac

from fastapi import APIRouter, Request, Response

from . import errors as e
from .routes import Service
from .schemas import HealthOut

# In the OpenAPI document like the game's operations, with every status they can give (the body
# limit's 400 and 413 stand in front of these routes too).
router = APIRouter(tags=["operations"], responses=e.documented(400, 413))


@router.get("/healthz", response_model=HealthOut, operation_id="healthz",
            responses=e.documented(503))
async def healthz(service: Service) -> HealthOut:
    """200 while the database answers a trivial query, 503 when it does not."""
    if not await service.db.ping():
        raise e.Unavailable(e.DATABASE_UNAVAILABLE)
    return HealthOut(status="ok")


@router.get("/metrics", operation_id="metrics", response_class=Response,
            responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}}},
                       **e.documented(401)})
async def metrics(request: Request) -> Response:
    """Request counts and latencies per route and status, in Prometheus's text format. Where
    ``SCOPONE_METRICS_TOKEN`` is set, only with ``Authorization: Bearer <token>`` (401 else)."""
    token = request.app.state.settings.metrics_token
    if token and not _bears(request.headers.get("authorization", ""), token):
        raise e.Unauthorized(e.METRICS_TOKEN_REQUIRED)
    body, content_type = request.app.state.metrics.exposition()
    return Response(body, media_type=content_type)


def _bears(authorization: str, token: str) -> bool:
    """Whether an ``Authorization`` header gives ``token`` as a bearer token (compared in
    constant time, so the answer's time tells nothing of how much of a guess was right).

    >>> _bears("Bearer s3cret", "s3cret"), _bears("bearer  s3cret ", "s3cret")
    (True, True)
    >>> _bears("Bearer s3cre", "s3cret"), _bears("Basic s3cret", "s3cret"), _bears("", "s3cret")
    (False, False, False)
    """
    scheme, _, given = authorization.strip().partition(" ")
    return (scheme.lower() == "bearer"
            and hmac.compare_digest(given.strip().encode(), token.encode()))
