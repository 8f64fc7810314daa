"""A TCP line between the server and PostgreSQL that a test can cut and mend: the database
"away" as a stopped server or a lost network is, while the real PostgreSQL runs on for the
other tests (stopping it would take their schemas away too)."""

from __future__ import annotations

import contextlib
import socket
import threading
from urllib.parse import urlsplit, urlunsplit


class CutLine:
    """Forwards connections from a port of its own to ``url``'s host and port. ``cut``: every
    connection through it ends and new ones are refused; ``mend``: they are taken again.
    ``hang``: the connections stay open and what is sent is taken (acknowledged), but nothing
    goes through, nor does a new connection get an answer, as from a server stopped by a signal
    or whose storage stalls; ``answer``: what was held goes through, and on."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self._upstream = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self._listener = self._listen(0)
        self.port = self._listener.getsockname()[1]
        netloc = f"{parts.username}@127.0.0.1:{self.port}" if parts.username else \
            f"127.0.0.1:{self.port}"
        self.url = urlunsplit(parts._replace(netloc=netloc))
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._flowing = threading.Event()
        self._flowing.set()
        self._accepting = self._start(self._listener)

    @staticmethod
    def _listen(port: int) -> socket.socket:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", port))
        s.listen(64)
        return s

    def _start(self, listener: socket.socket) -> threading.Thread:
        thread = threading.Thread(target=self._accept, args=(listener,), daemon=True)
        thread.start()
        return thread

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            self._flowing.wait()  # hung: the connection is taken, nothing answers it
            try:
                server = socket.create_connection(self._upstream)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open |= {client, server}
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                self._flowing.wait()
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def hang(self) -> None:
        self._flowing.clear()

    def answer(self) -> None:
        self._flowing.set()

    def cut(self) -> None:
        self.answer()  # a hung line's threads wake to end
        # A shutdown wakes the thread waiting in accept (a close alone does not, on Linux).
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        self._accepting.join()
        with self._lock:
            for s in self._open:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self._open.clear()

    def mend(self) -> None:
        self._listener = self._listen(self.port)
        self._accepting = self._start(self._listener)

    def close(self) -> None:
        self.cut()
