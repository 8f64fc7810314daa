"""A PostgreSQL server of a test's own, which the test really stops and starts again: the shared
one (``scripts/pg.sh``) holds every other test's schema. Made as that script makes it (the
same binaries, initdb without sync, run as the postgres user when the tests run as root); a
fresh cluster takes well under a second."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest


def _binaries() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                   key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit()
                   else 0)
    return found[-1].parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class OwnPostgres:
    """A running server; ``stop`` it as an operator would (``pg_ctl stop -m fast``: every
    connection ended, new ones refused), ``start`` it again on the same port."""

    def __init__(self) -> None:
        bin_dir = _binaries()
        if bin_dir is None:
            pytest.skip("no PostgreSQL binaries for a server of the test's own")
        self._bin = bin_dir
        self._dir = Path(tempfile.mkdtemp(prefix="scopone-own-pg."))
        # initdb and postgres refuse to run as root: as the package's postgres user then.
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self._as:
            shutil.chown(self._dir, "postgres")
        self.port = _free_port()
        self.url = f"postgresql://scopone@127.0.0.1:{self.port}/postgres"
        self._run("initdb", "-D", str(self._dir / "data"), "-U", "scopone", "-A", "trust",
                  "--no-sync", "-E", "UTF8")
        self.start()

    def _run(self, program: str, *args: str) -> None:
        # From / : the postgres user may not enter the caller's folder.
        subprocess.run([*self._as, str(self._bin / program), *args], cwd="/", check=True,
                       stdout=subprocess.DEVNULL)

    def _ctl(self, *args: str) -> None:
        self._run("pg_ctl", "-D", str(self._dir / "data"), "-l", str(self._dir / "log"),
                  "-w", "-s", *args)

    def start(self) -> None:
        self._ctl("start", "-o", f"-p {self.port} -k {self._dir}"
                  " -c listen_addresses=127.0.0.1 -c fsync=off")

    def stop(self) -> None:
        self._ctl("-m", "fast", "stop")

    def close(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # stopped already
            self._ctl("-m", "immediate", "stop")
        shutil.rmtree(self._dir, ignore_errors=True)
