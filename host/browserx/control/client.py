"""``browserx.Client``: a small synchronous client for the control socket.

with Client() as bx:            # finds the running host (see browserx.runtime)
    tabs = bx.tabs()
    bx.cdp("Runtime.evaluate", {"expression": "1+1", "returnByValue": True})
"""

from __future__ import annotations

import contextlib
import itertools
import socket
from types import TracebackType
from typing import Any

import msgspec

from browserx.control.client_tools import ToolMethods
from browserx.errors import BrowserxError, HostDisconnected, error_from_dict
from browserx.runtime import discover_socket

# Params that say how long a call may wait on the host's side (seconds), and what is added to one.
WAIT_PARAMS = frozenset({"timeout_s", "timeout"})
WAIT_MARGIN_S = 30.0


class Client(ToolMethods):
    """A connection to the host. Its tool methods (``click``, ``snapshot``, …) are generated from
    control/tools.py into control/client_tools.py; ``call`` sends any method by name."""

    def __init__(self, socket_path: str | None = None, timeout: float = 120.0) -> None:
        self.socket_path = discover_socket(socket_path)
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(timeout)
        self.timeout = timeout
        try:
            self._sock.connect(self.socket_path)
        except OSError as exc:
            self._sock.close()
            raise HostDisconnected(
                f"Cannot connect to the browserx host at {self.socket_path}: {exc}. Is the browser "
                "with the extension still running?"
            ) from exc
        self._file = self._sock.makefile("rb")
        self._ids = itertools.count(1)

    def call(self, method: str, /, **params: Any) -> Any:
        """Send one request; return its result or raise the structured error it carried."""
        request_id = next(self._ids)
        payload = {
            "id": request_id,
            "method": method,
            "params": {k: v for k, v in params.items() if v is not None},
        }
        # A call that waits longer than the socket's timeout by design (``ask_user``'s
        # ``timeout_s``, ``wait``'s ``timeout``) gets that long, and a little more, for its answer.
        waits = max(
            (v for k, v in params.items() if k in WAIT_PARAMS and isinstance(v, int | float)), default=0
        )
        self._sock.settimeout(max(self.timeout, waits + WAIT_MARGIN_S))
        try:
            self._sock.sendall(msgspec.json.encode(payload) + b"\n")
            line = self._file.readline()
        except OSError as exc:
            raise HostDisconnected(f"The browserx host connection failed: {exc}") from exc
        finally:
            self._sock.settimeout(self.timeout)
        if not line:
            raise HostDisconnected("The browserx host closed the connection; is it still running?")
        response = msgspec.json.decode(line)
        if response.get("ok"):
            return response.get("result")
        raise error_from_dict(response.get("error") or {})

    # -- lifecycle ------------------------------------------------------------------------

    def interrupt(self) -> None:
        """End a call another thread is waiting in (it raises HostDisconnected); the client is
        then unusable."""
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        try:
            self._file.close()
        finally:
            self._sock.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


__all__ = ["BrowserxError", "Client"]
