"""What the popup hears of the agent's work: whether it is working (and on which tab) and one
Activity line per call (control/person/controls.py decides both). Sent in the host's quiet moments, not
beside an action's round trips: each notice is a chrome.storage write in the browser, whose thread
the debugger's commands share, and the three an action made (working, idle, its line) cost a typed
field a few milliseconds. A notice waits until no request has run for QUIET_S, or at most
MAX_DELAY_S (an action that takes longer shows as working by then); only the newest state goes,
and none when the popup already has it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import structlog

from browserx.errors import BrowserxError, clip
from browserx.relay.connection import ExtensionConnection

log = structlog.get_logger("browserx.popup_notices")

QUIET_S = 0.03
MAX_DELAY_S = 0.1


class PopupNotices:
    """The notices not sent yet, and the timer that sends them."""

    def __init__(self, conn: ExtensionConnection | None, busy: Callable[[], bool]) -> None:
        self.conn = conn
        self._busy = busy  # a request is running
        self._state: tuple[bool, int | None] | None = None  # the newest, not sent yet
        self._sent_state: tuple[bool, int | None] | None = None
        self._lines: list[dict[str, Any]] = []
        self._first: float | None = None  # when the oldest unsent notice came
        self._timer: asyncio.TimerHandle | None = None
        self._background: set[asyncio.Task[Any]] = set()

    def state(self, working: bool, tab_id: int | None) -> None:
        self._state = (working, tab_id)
        self._soon()

    def line(self, entry: dict[str, Any]) -> None:
        self._lines.append(entry)
        self._soon()

    def _soon(self) -> None:
        loop = asyncio.get_running_loop()
        if self._first is None:
            self._first = loop.time()
        if self._timer is None:
            self._timer = loop.call_later(QUIET_S, self._flush)

    def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        waited = loop.time() - (self._first if self._first is not None else loop.time())
        if self._busy() and waited < MAX_DELAY_S:
            self._timer = loop.call_later(QUIET_S, self._flush)
            return
        self._timer = self._first = None
        state, self._state = self._state, None
        lines, self._lines = self._lines, []
        if state is not None and state != self._sent_state:
            self._sent_state = state
            self._send("agentState", working=state[0], tabId=state[1])
        for entry in lines:
            self._send("activity", entry=entry)

    def _send(self, kind: str, **fields: Any) -> None:
        """Tell the extension without waiting (nobody's answer depends on it)."""
        if self.conn is None or self.conn.closed:
            return
        task = asyncio.ensure_future(self._request(kind, fields))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _request(self, kind: str, fields: dict[str, Any]) -> None:
        assert self.conn is not None
        try:
            await self.conn.request(kind, timeout=5.0, **fields)
        except BrowserxError as exc:
            log.debug("person_notice_failed", kind=kind, error=clip(exc.message, 200))
