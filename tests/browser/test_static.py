"""The page's files obey the Content-Security-Policy by construction: no inline styles or
scripts, nothing fetched from elsewhere. (No browser needed.)"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE_FILES = [*sorted((ROOT / "templates").rglob("*.html")),
              *sorted((ROOT / "static").rglob("*.js")), *sorted((ROOT / "static").rglob("*.css"))]


def test_the_page_files_exist() -> None:
    names = {p.name for p in PAGE_FILES}
    assert {"index.html", "table.html", "main.js", "table.js", "push.js", "render.js",
            "motion.js", "cards.js", "i18n.js", "select.js", "api.js", "scopone.css",
            "tables.css"} <= names


def test_no_inline_style_attributes_or_script_bodies() -> None:
    for path in PAGE_FILES:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\sstyle\s*=", text), f"{path.name}: a style attribute"
        assert not re.search(r"\son[a-z]+\s*=\s*[\"']", text), f"{path.name}: an inline handler"
    for page in (ROOT / "templates").rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        for tag in re.findall(r"<script\b[^>]*>(.*?)</script>", html, flags=re.S):
            assert tag.strip() == "", f"{page.name}: an inline script body"
        assert "<style" not in html


def test_nothing_is_loaded_from_elsewhere() -> None:
    for path in PAGE_FILES:
        text = path.read_text(encoding="utf-8")
        # The SVG namespace is a name, not a request.
        urls = [u for u in re.findall(r"https?://[^\s\"'`)]+", text)
                if u != "http://www.w3.org/2000/svg"]
        assert urls == [], f"{path.name}: {urls}"
        assert "@import" not in text and "@font-face" not in text
