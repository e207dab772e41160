"""One MCP session's way to the host (``browserx mcp``, interfaces/mcp_server.py): the browser
the session is bound to, resolved once, followed across a restart of its host by the extension
and never swapped for another browser's; calls serialised over a single :class:`Client`.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any

from browserx.control.client import Client
from browserx.errors import AmbiguousHost, BrowserxError, HostDisconnected, NoHost
from browserx.runtime import (
    HostRecord,
    browser_name,
    discover_socket,
    listening,
    live_hosts,
    record_of,
    successor,
)
from browserx.setup.launch import Launched

log = logging.getLogger("browserx.mcp")  # the server's own log: mcp_server.main sends it to stderr

# How long a call waits for the extension to restart the session's host after it died.
RESTART_WAIT_S = 5.0

Call = Callable[..., Any]


class HostLink:
    """One MCP session's way to the host: a single :class:`Client`, dropped when the host goes
    away. The session is bound to one browser: the host named (``--socket``, ``$BROWSERX_SOCKET``)
    or the only one running, resolved once at the start (:meth:`pin`; several and none named is
    ``ambiguous_host``), or at the first call when no browser ran yet. When that host dies, the
    next call goes to the host the extension restarted for the same browser, never to another
    browser's: without one it fails with ``no_host`` saying so. Calls are serialised: the socket
    carries one request at a time, and an action and the view that follows it belong together."""

    def __init__(self, socket_path: str | None = None, launching: Future[Launched] | None = None) -> None:
        self.socket_path = socket_path
        self.launching = launching  # --launch: the socket is known once the browser's host is up
        self.pinned: HostRecord | None = None  # the host (so the browser) this session is bound to
        self._pinned_socket: str | None = None
        self._client: Client | None = None
        self._lock = threading.Lock()

    def pin(self) -> HostRecord | None:
        """Bind the session to its host now: the one named, else the only one running. Raises
        AmbiguousHost with several and none named; with none running, the first call binds."""
        if self.launching is not None:
            return None  # bound to the browser it launches
        try:
            path = discover_socket(self.socket_path)
        except AmbiguousHost:
            raise
        except NoHost:
            return None
        self._pinned_socket = path
        self.pinned = record_of(path)
        return self.pinned

    @contextlib.contextmanager
    def session(self) -> Iterator[Call]:
        """Exclusive use of the host for a few calls: ``with link.session() as call: call("tabs")``."""
        with self._lock:
            yield self._call

    def call(self, method: str, /, **params: Any) -> Any:
        with self.session() as call:
            return call(method, **params)

    def _call(self, method: str, /, **params: Any) -> Any:
        if self._client is None:
            self._client = Client(self._socket())
        try:
            return self._client.call(method, **params)
        except HostDisconnected:
            self._drop()
            raise

    def _socket(self) -> str | None:
        if self.launching is None:
            return self._bound_socket()
        try:
            launched = self.launching.result()  # waits for a launch still under way
        except BrowserxError:
            raise
        except Exception as exc:
            raise NoHost(f"Starting a browser for this session failed: {exc}") from exc
        # The extension restarts a host that died, on a new socket: look for our profile's host.
        for record in live_hosts():
            if record.profile == str(launched.user_data_dir):
                return record.socket
        return launched.host.socket

    def _bound_socket(self) -> str:
        if self._pinned_socket is None:
            self.pin()  # no host ran at the start: bind to the one named or the only one now
            if self._pinned_socket is None:
                return discover_socket(self.socket_path)  # raises no_host
        pinned = self.pinned
        if pinned is None or listening(pinned.socket):
            return self._pinned_socket  # a socket named without a record: that one or nothing
        follower = successor(pinned)
        deadline = time.monotonic() + RESTART_WAIT_S
        while follower is None and time.monotonic() < deadline:
            time.sleep(0.2)  # the extension restarts a host that died within a second or so
            follower = successor(pinned)
        if follower is None:
            raise NoHost(
                f"The browser this MCP session works in ({browser_name(pinned.browser)}, profile "
                f"{pinned.profile or 'default'}, host pid {pinned.pid}) has no browserx host any more: it "
                "was closed, or its host died and was not restarted. browserx does not switch to another "
                "browser by itself: reopen that browser, or restart `browserx mcp` with `--socket PATH` "
                "for another one."
            )
        log.info("host pid %d gone; following its browser to host pid %d", pinned.pid, follower.pid)
        self.pinned, self._pinned_socket = follower, follower.socket
        return follower.socket

    def _drop(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(OSError):
                client.close()

    def close(self) -> None:
        """End of the session. A call still waiting on the host (a long ``wait``, say) is cut
        short, not waited for: its socket is shut down, its thread sees the host gone and drops
        the client itself (closing it from here would block on the reader's lock)."""
        if self._lock.acquire(blocking=False):
            try:
                self._drop()
            finally:
                self._lock.release()
            return
        client = self._client
        if client is not None:
            client.interrupt()


__all__ = ["Call", "HostLink"]
