"""What every worker process of the server runs first (the thinker's and the coach's pools).

Kept outside ``scopone.web`` so a worker imports nothing of the web app to run it.
"""

from __future__ import annotations

import os
import threading
import time


def watch_server(server_pid: int) -> None:
    """A pool's initializer: ends the worker when the server is gone, so no worker outlives it
    (a killed server runs no shutdown code)."""

    def watch() -> None:
        # The pid comes from the server itself: read here, it could already be the reaper's.
        while os.getppid() == server_pid:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="scopone-parent-watch", daemon=True).start()
