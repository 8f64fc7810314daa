"""Why a store refuses to open."""

from __future__ import annotations


class SchemaTooNew(RuntimeError):
    """The database was written by a later release: opening it could damage it."""

    def __init__(self, found: int, supported: int) -> None:
        super().__init__(f"database schema version {found} is newer than this release's "
                         f"({supported}); upgrade the server")
        self.found = found
        self.supported = supported
