"""Lighthouse's four scores for the game page and a rule page, on a phone and a desktop.

    python -m scopone.web.lighthouse [--runs 3] [--url http://127.0.0.1:8000] [--npm-dir DIR]

Installs npm's ``lighthouse`` 12.2.3 (the last release for Node 20) into a temporary folder,
starts a server of its own on a free port with a throwaway database (unless ``--url`` names a
running one), runs Lighthouse with Debian's Chromium against each page and preset, and prints
the median of each category over the runs. Targets: performance ≥ 0.95, the others 1.0.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LIGHTHOUSE = "lighthouse@12.2.3"
CHROME = "/usr/bin/chromium"
# No network beyond loopback here: Chromium must not try to reach Google's services.
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage "
                "--disable-background-networking --disable-component-update --disable-sync "
                "--no-first-run --disable-quic")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
PAGES = (("game", "/"), ("rules", "/en/rules"))
PRESETS = ("phone", "desktop")
TARGETS = {"performance": 0.95, "accessibility": 1.0, "best-practices": 1.0, "seo": 1.0}


def install(prefix: Path) -> Path:
    """Lighthouse's command-line script, installed under ``prefix`` if it is not there yet."""
    cli = prefix / "node_modules" / "lighthouse" / "cli" / "index.js"
    if not cli.exists():
        subprocess.run(["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
                        "--loglevel=error", LIGHTHOUSE], check=True)
    return cli


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """A server of our own on a free port, stopped afterwards."""
    port = _free_port()
    env = {**os.environ, "SCOPONE_DB_PATH": str(folder / "lighthouse.sqlite3")}
    env.pop("SCOPONE_DATABASE_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "scopone", "serve", "--port", str(port)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("the server did not start")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def audit(cli: Path, url: str, preset: str, folder: Path) -> dict[str, float]:
    """One Lighthouse run: the four category scores, and the layout shift it measured."""
    out = folder / "report.json"
    cmd = ["node", str(cli), url, "--quiet", "--output=json", f"--output-path={out}",
           f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={CHROME_FLAGS}",
           "--disable-full-page-screenshot"]
    if preset == "desktop":
        cmd.append("--preset=desktop")
    for attempt in (1, 2, 3):
        # Lighthouse now and then loses its trace on a busy machine (NO_NAVSTART): run again.
        done = subprocess.run(cmd, env={**os.environ, "CHROME_PATH": CHROME},
                              stdout=subprocess.DEVNULL)
        if done.returncode == 0:
            break
        print(f"    {url} {preset}: Lighthouse failed (attempt {attempt})", flush=True)
    else:
        raise RuntimeError(f"Lighthouse failed three times on {url} ({preset})")
    report = json.loads(out.read_text(encoding="utf-8"))
    scores = {c: float(report["categories"][c]["score"] or 0.0) for c in CATEGORIES}
    scores["cls"] = float(report["audits"]["cumulative-layout-shift"]["numericValue"])
    scores["lcp_ms"] = float(report["audits"]["largest-contentful-paint"]["numericValue"])
    scores["tbt_ms"] = float(report["audits"]["total-blocking-time"]["numericValue"])
    failing = [a for cat in CATEGORIES if cat != "performance"
               for a in (ref["id"] for ref in report["categories"][cat]["auditRefs"])
               if report["audits"][a].get("score") not in (None, 1)
               and report["audits"][a].get("scoreDisplayMode") == "binary"]
    if failing:
        print(f"    {url} {preset}: failing audits {sorted(set(failing))}", flush=True)
    return scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--npm-dir", type=Path, help="where lighthouse is or goes (default: a "
                        "temporary folder)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="scopone-lighthouse-") as tmp:
        folder = Path(tmp)
        cli = install(args.npm_dir or folder / "npm")
        with serve(folder) if args.url is None else _given(args.url) as url:
            print(f"{LIGHTHOUSE}, {args.runs} run(s) each, median; {url}")
            print(f"{'page':8} {'preset':8} " + " ".join(f"{c:>15}" for c in CATEGORIES)
                  + f" {'CLS':>7} {'LCP ms':>7} {'TBT ms':>7}")
            ok = True
            for name, path in PAGES:
                for preset in PRESETS:
                    runs = [audit(cli, url + path, preset, folder) for _ in range(args.runs)]
                    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
                    ok &= all(med[c] >= TARGETS[c] for c in CATEGORIES)
                    print(f"{name:8} {preset:8} " + " ".join(f"{med[c]:>15.2f}" for c in CATEGORIES)
                          + f" {med['cls']:>7.3f} {med['lcp_ms']:>7.0f} {med['tbt_ms']:>7.0f}",
                          flush=True)
            print("targets met" if ok else "targets NOT met (performance ≥ 0.95, others 1.0)")
    return 0 if ok else 1


@contextmanager
def _given(url: str) -> Iterator[str]:
    yield url.rstrip("/")


if __name__ == "__main__":
    raise SystemExit(main())
