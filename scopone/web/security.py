"""ASGI middleware: security headers on every response, and a limit on request bodies."""

from __future__ import annotations

import json
import logging
from collections.abc import MutableMapping
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .accesslog import redact_path
from .errors import BAD_CONTENT_LENGTH, BODY_TOO_LARGE, DATABASE_UNAVAILABLE, RETRY_AFTER
from .store import log_failure, unavailable

log = logging.getLogger(__name__)

# Only our own origin: no inline scripts or styles, no framing; data: images for SVG cards.
CSP = ("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")

SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


async def _send_json(send: Send, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(data)).encode())]
    if status == 503:
        headers += [(k.lower().encode(), v.encode()) for k, v in RETRY_AFTER.items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


class SecurityHeaders:
    """Adds the headers to every response, errors and static files included. It sits outside
    everything else, so it also turns an unexpected exception into a plain 500 with them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        # Game state must never be served from a cache: a stale view would replay old versions.
        extra = [(b"cache-control", b"no-store")] if scope["path"].startswith("/api/") else []

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                ours = SECURITY_HEADERS + extra
                names = {h for h, _ in ours}
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() not in names]
                message["headers"] = headers + ours
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception as exc:
            # The path names a table's code or a game's id: capabilities, never logged.
            where = (scope.get("method"), redact_path(str(scope.get("path"))))
            if unavailable(exc):
                # Not the request's fault nor the code's: the client may try again.
                # A database known to be away was said once (``ObservedStore``): its refusals
                # at debug, not a line a request (91 in a 10 s outage, QA helper-54).
                log_failure(log, "database unavailable on {} {}".format(*where), exc)
                status, detail = 503, DATABASE_UNAVAILABLE
            else:
                log.exception("unhandled error on %s %s", *where)
                status, detail = 500, "internal error"
            if started:
                raise
            await _send_json(send_with_headers, status, {"detail": detail})


class BodyLimit:
    """Refuses request bodies over ``max_bytes`` with 413, whether announced by Content-Length
    or streamed in chunks; the body is read here and handed on whole."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers: MutableMapping[bytes, bytes] = dict(scope.get("headers", []))
        length = headers.get(b"content-length")
        if length is not None:
            try:
                announced = int(length)
            except ValueError:
                await _send_json(send, 400, {"detail": BAD_CONTENT_LENGTH})
                return
            if announced > self.max_bytes:
                await _send_json(send, 413, {"detail": BODY_TOO_LARGE})
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await _send_json(send, 413, {"detail": BODY_TOO_LARGE})
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: wait for the disconnect, as a server would

        await self.app(scope, replay, send)
