"""The site's HTML: the game page, the rule pages in three languages, the manifest, robots.txt."""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.templating import Jinja2Templates

from .texts import LANG_NAMES, LANGS, RULES_PATH, SECTIONS, SITE, best_lang, card_name
from .worked_example import example

STATIC_URL = "/static"
THEME_COLOUR = "#1d6b3c"  # the felt, as in static/css/scopone.css
BACKGROUND_COLOUR = "#134d2a"

router = APIRouter(include_in_schema=False)


def _templates(request: Request) -> Jinja2Templates:
    # One environment per app, made on first use from the app's own settings.
    state = request.app.state
    if getattr(state, "page_templates", None) is None:
        state.page_templates = Jinja2Templates(directory=state.settings.templates_dir)
    templates: Jinja2Templates = state.page_templates
    return templates


def _page(request: Request, template: str, lang: str, **context: Any) -> HTMLResponse:
    t = SITE[lang]
    return _templates(request).TemplateResponse(request, template, {
        "static": STATIC_URL, "api": "/api", "lang": lang, "t": t, "langs": LANGS,
        "lang_names": LANG_NAMES, "site_texts": SITE, "rules_path": RULES_PATH,
        "theme": THEME_COLOUR, "card_name": partial(card_name, lang), **context})


def _origin(request: Request) -> str:
    """What the absolute links of a page start with: the settings' ``public_url``, else this
    request's own address, whose Host header is whatever the client sent."""
    public: str = request.app.state.settings.public_url
    return (public or str(request.base_url)).rstrip("/")


@router.get("/", response_class=HTMLResponse)
async def index(request: Request, lang: str | None = None) -> HTMLResponse:
    """The game. Its texts follow the player's stored choice in the browser; the server's
    language (``?lang=`` from a language link, else the browser's) sets the first paint."""
    chosen = lang if lang in LANGS else best_lang(request.headers.get("accept-language"))
    switch = [(code, f"/?lang={code}") for code in LANGS]
    origin = _origin(request)
    return _page(request, "index.html", chosen, title=SITE[chosen]["game_title"],
                 description=SITE[chosen]["game_description"], switch=switch, current="play",
                 alternates=[(code, origin + href) for code, href in switch],
                 x_default=origin + "/")


def _rules(lang: str) -> Any:
    async def rules(request: Request) -> HTMLResponse:
        t = SITE[lang]
        # Alternates and the canonical address are absolute, as search engines require.
        origin = _origin(request)
        return _page(request, f"rules/{lang}.html", lang, title=t["rules_title"],
                     description=t["rules_description"], sections=SECTIONS[lang],
                     switch=[(code, RULES_PATH[code]) for code in LANGS],
                     alternates=[(code, origin + RULES_PATH[code]) for code in LANGS],
                     x_default=origin + RULES_PATH["en"], canonical=origin + RULES_PATH[lang],
                     ex=example(), current="rules")
    rules.__name__ = f"rules_{lang}"
    return rules


for _lang in LANGS:
    router.add_api_route(RULES_PATH[_lang], _rules(_lang), methods=["GET"],
                         response_class=HTMLResponse)


def not_found(request: Request) -> HTMLResponse:
    """A person's 404: an address typed wrong, a link cut short (``/t/`` without its code), in
    the browser's language, with the way to the game and the rules. The API's 404s stay JSON."""
    lang = best_lang(request.headers.get("accept-language"))
    t = SITE[lang]
    response = _page(request, "not_found.html", lang, title=t["missing_title"],
                     description=t["game_description"],
                     switch=[(code, f"/?lang={code}") for code in LANGS], current=None)
    response.status_code = 404
    return response


@router.get("/manifest.webmanifest")
async def manifest() -> JSONResponse:
    """What a phone needs to put the game on its home screen."""
    icons = f"{STATIC_URL}/icons"
    body = {
        "name": "Scopone Scientifico",
        "short_name": "Scopone",
        "description": SITE["en"]["game_description"],
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": f"{icons}/icon.svg", "sizes": "any", "type": "image/svg+xml"},
            {"src": f"{icons}/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": f"{icons}/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {"src": f"{icons}/icon-maskable-512.png", "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }
    return JSONResponse(body, media_type="application/manifest+json")


@router.get("/robots.txt")
async def robots() -> PlainTextResponse:
    return PlainTextResponse("User-agent: *\nAllow: /\nDisallow: /api/\n")
