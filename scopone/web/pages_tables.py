"""The page of a table with friends, ``/t/{code}``: the lobby, then the game, for any viewer."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

#: Where the page finds its scripts and styles (the app mounts them there).
STATIC_URL = "/static"


def page_router(templates: Jinja2Templates) -> APIRouter:
    """The router of the table page. The page is the same for every code: the code stays in the
    URL (the script reads it from ``location``) and never enters the HTML, so nothing a visitor
    types in a link is echoed into the page, and an unknown table is told by the API's 404."""
    router = APIRouter(include_in_schema=False)

    @router.get("/t/{code}", response_class=HTMLResponse)
    async def table_page(request: Request, code: str) -> HTMLResponse:
        return templates.TemplateResponse(request, "table.html", {"static": STATIC_URL})

    return router
