"""``assert_accessible(page)``: axe-core (bundled by axe-playwright-python) finds no violation."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

_AXE = Axe()
# Every rule axe runs by default (WCAG A/AA and best practices), and one experimental rule the
# audits of the issue found failing: a control's name must contain the text it shows.
OPTIONS = {"resultTypes": ["violations"],
           "rules": {"label-content-name-mismatch": {"enabled": True}}}


def violations(page: Any) -> list[dict[str, Any]]:
    """axe's violations on the page as it is now: rule id, impact and the offending nodes."""
    # The package's own run() writes the options as Python text; pass them as data instead.
    page.evaluate(_AXE.axe_script)
    results = page.evaluate("options => axe.run(document, options)", OPTIONS)
    return [{"id": v["id"], "impact": v.get("impact"), "help": v.get("help"),
             "nodes": [n.get("target") for n in v.get("nodes", [])][:5]}
            for v in results["violations"]]


def assert_accessible(page: Any, where: str = "") -> None:
    found = violations(page)
    assert found == [], f"{where}: {found}"
