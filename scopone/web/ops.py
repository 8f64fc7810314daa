"""The operator's endpoints: ``/healthz`` for load balancers, ``/metrics`` for Prometheus."""

from __future__ import annotations

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
            responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}}}})
async def metrics(request: Request) -> Response:
    """Request counts and latencies per route and status, in Prometheus's text format."""
    body, content_type = request.app.state.metrics.exposition()
    return Response(body, media_type=content_type)
