"""What ``scopone serve`` logs, and how: every line with its time, its level and the logger
that wrote it. (The app's own warnings went through Python's last-resort handler: the bare
message, no time, so an operator could not tell when an outage began or ended.)"""

from __future__ import annotations

import copy
from typing import Any

#: Time (to the millisecond), level, who, what.
LINE = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def log_config() -> dict[str, Any]:
    """uvicorn's logging set-up (``uvicorn.run(log_config=...)``, every worker process applies
    it), with times on every line and the app's loggers (``scopone.*``, and the database
    driver's) written beside the server's, at INFO (``removed N old games``) and above.
    (uvicorn sets its own loggers' levels from ``log_level`` after this: the access log.)"""
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
    loggers["scopone"] = {"handlers": ["app"], "level": "INFO", "propagate": False}
    loggers["psycopg"] = {"handlers": ["app"], "level": "WARNING", "propagate": False}
    # The pool's warning of each connection it could not make or found closed: several a second
    # during an outage, which ``ObservedStore`` says once as it begins and once as it ends.
    # Here as well as in ``store.postgres``: this configuration resets the levels of loggers
    # made before it (``scopone serve`` opens the store once to check it, before uvicorn).
    loggers["psycopg.pool"] = {"level": "ERROR"}
    return config
