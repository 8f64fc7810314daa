"""``HEAD`` for every ``GET``: the same status and headers, no body (RFC 9110 §9.3.2).

FastAPI's routes answer only the methods they name, so an uptime monitor or ``curl -I`` got a
405 from ``/healthz`` and the pages. Here a ``HEAD`` request is served as the ``GET`` it stands
for and its body dropped; an event stream ends as soon as its headers are out (its ``receive``
says the client left), instead of streaming to nobody. A route with effects of its own on a
``GET`` (an event stream's viewer counted present, the computers played for it) asks
``head_only`` and skips them: a ``HEAD`` changes nothing (RFC 9110 §9.2.1).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The scope's mark of a ``HEAD`` served as its ``GET``.
HEAD_ONLY = "scopone.head_only"


def head_only(request: Request) -> bool:
    """Whether this ``GET`` stands for a ``HEAD``: only its status and headers go out."""
    return bool(request.scope.get(HEAD_ONLY))


class HeadAsGet:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        done = False

        async def receive_until_answered() -> Message:
            if done:
                return {"type": "http.disconnect"}
            return await receive()

        async def send_headers_only(message: Message) -> None:
            nonlocal done
            if done:
                return
            if message["type"] == "http.response.body":
                # One empty last part ends the answer; whatever else the GET would send is not.
                done = True
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET", HEAD_ONLY: True}, receive_until_answered,
                       send_headers_only)
