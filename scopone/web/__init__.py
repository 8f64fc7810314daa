"""The web service: FastAPI app, JSON API, SQLite persistence, the page."""

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
