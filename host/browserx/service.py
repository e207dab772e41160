"""DomService: everything browserx knows and does for one tab. One per tab, created lazily by
the TabRegistry, attached on first use; requests on a tab run one at a time under its lock."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

import structlog

from browserx.errors import DebuggerDetached
from browserx.relay.connection import ExtensionConnection
from browserx.relay.protocol import AttachedToTarget, DetachedFromTarget, Inbound, TargetInfo, decode_raw

log = structlog.get_logger("browserx.service")

T = TypeVar("T")
EventListener = Callable[[Inbound], None]


class DomService:
    def __init__(self, tab_id: int, conn: ExtensionConnection) -> None:
        self.tab_id = tab_id
        self.conn = conn
        self.lock = asyncio.Lock()
        self.attached = False
        # Child CDP sessions (out-of-process iframes, workers) by sessionId.
        self.sessions: dict[str, TargetInfo] = {}
        self._listeners: list[EventListener] = []

    async def ensure_attached(self) -> None:
        if not self.attached:
            await self.conn.request("attach", tabId=self.tab_id)
            self.attached = True
            log.info("attached", tab=self.tab_id)

    async def cdp(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        session_id: str | None = None,
        timeout: float | None = None,
        result_type: type[T] = dict,  # type: ignore[assignment]
    ) -> T:
        """Run a CDP command in this tab; re-attach once if the debugger was detached."""
        await self.ensure_attached()
        try:
            return await self.conn.cdp(self.tab_id, method, params, session_id, timeout, result_type)
        except DebuggerDetached:
            if session_id:
                raise
            self.attached = False
            await self.ensure_attached()
            return await self.conn.cdp(self.tab_id, method, params, session_id, timeout, result_type)

    def add_listener(self, listener: EventListener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def handle_event(self, msg: Inbound) -> None:
        if msg.method == "Target.attachedToTarget":
            attached: AttachedToTarget = decode_raw(msg.params, AttachedToTarget)
            self.sessions[attached.sessionId] = attached.targetInfo
        elif msg.method == "Target.detachedFromTarget":
            detached: DetachedFromTarget = decode_raw(msg.params, DetachedFromTarget)
            self.sessions.pop(detached.sessionId, None)
        for listener in list(self._listeners):
            listener(msg)

    def handle_detached(self, reason: str | None) -> None:
        self.attached = False
        self.sessions.clear()
        log.info("detached", tab=self.tab_id, reason=reason)
