"""What ``scopone serve`` logs, and how: every line with its time, its level and the logger
that wrote it. (The app's own warnings went through Python's last-resort handler: the bare
message, no time, so an operator could not tell when an outage began or ended.)"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

#: Time (to the millisecond), level, who, what.
LINE = "%(asctime)s %(levelname)s %(name)s: %(message)s"
#: uvicorn's supervisor of ``--workers`` replacing a worker that ended unasked, at INFO.
WORKER_DIED = re.compile(r"Child process \[\d+\] died")


class ServerLines(logging.Filter):
    """uvicorn's own lines (``uvicorn.error``): its warnings and errors, and of its INFO lines
    (server started, shutting down...) only a worker that died, raised to a WARNING: uvicorn
    replaces it and said so at INFO, under ``serve``'s level, so a worker killed for its memory
    or a crash loop left no line (QA). Every line with ``everything`` (``--access-log``)."""

    def __init__(self, everything: bool = False) -> None:
        super().__init__()
        self.everything = everything

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING and WORKER_DIED.fullmatch(record.getMessage()):
            record.msg = (f"{record.getMessage()} unasked (killed, out of memory or crashed):"
                          " a new worker replaces it")
            record.args = ()
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            return True
        return self.everything or record.levelno >= logging.WARNING


def log_config(everything: bool = False) -> dict[str, Any]:
    """uvicorn's logging set-up (``uvicorn.run(log_config=..., log_level=None)``, the
    supervisor and every worker process apply it), with times on every line and the app's
    loggers (``scopone.*``, and the database driver's) written beside the server's, at INFO
    (``removed N old games``) and above; of uvicorn's own, what ``ServerLines`` lets through,
    and its access log with ``everything`` (``--access-log``)."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    formatters = config["formatters"]
    formatters["default"]["fmt"] = "%(asctime)s %(levelprefix)s %(message)s"
    formatters["access"]["fmt"] = ('%(asctime)s %(levelprefix)s %(client_addr)s - '
                                   '"%(request_line)s" %(status_code)s')
    formatters["app"] = {"format": LINE}
    config["handlers"]["app"] = {"formatter": "app", "class": "logging.StreamHandler",
                                 "stream": "ext://sys.stderr"}
    loggers = config["loggers"]
    config["filters"] = {"server_lines": {"()": ServerLines, "everything": everything}}
    loggers["uvicorn.error"] = {"level": "INFO", "filters": ["server_lines"]}
    loggers["uvicorn.access"]["level"] = "INFO" if everything else "WARNING"
    loggers["scopone"] = {"handlers": ["app"], "level": "INFO", "propagate": False}
    loggers["psycopg"] = {"handlers": ["app"], "level": "WARNING", "propagate": False}
    # The pool's warning of each connection it could not make or found closed: several a second
    # during an outage, which ``ObservedStore`` says once as it begins and once as it ends.
    # Here as well as in ``store.postgres``: this configuration resets the levels of loggers
    # made before it (``scopone serve`` opens the store once to check it, before uvicorn).
    loggers["psycopg.pool"] = {"level": "ERROR"}
    return config
