"""Draws the PNG icons of the web app manifest from static/icons/icon.svg with Chromium.

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "static" / "icons"
# (file, size in pixels, how much of the square the drawing takes: maskable icons keep their
# content inside the middle 80%, the safe zone every launcher's mask leaves visible).
OUTPUTS = [("icon-192.png", 192, 1.0), ("icon-512.png", 512, 1.0),
           ("icon-maskable-512.png", 512, 0.8)]


def main() -> None:
    svg = (ICONS / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                     args=["--no-sandbox", "--disable-gpu"])
        for name, size, share in OUTPUTS:
            page = browser.new_page(viewport={"width": size, "height": size})
            inner = round(size * share)
            page.set_content(
                "<html><body style='margin:0;background:#1d6b3c;display:grid;"
                f"place-items:center;width:{size}px;height:{size}px'>"
                f"<div style='width:{inner}px;height:{inner}px'>{svg}</div></body></html>")
            page.screenshot(path=str(ICONS / name))
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
