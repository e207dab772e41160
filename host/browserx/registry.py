"""TabRegistry: the host's map of tabs to DomServices, kept in step with the browser's notices."""

from __future__ import annotations

import asyncio
import time

import structlog

from browserx.errors import TabClosed, TabNotFound, clip
from browserx.relay.connection import ExtensionConnection
from browserx.relay.protocol import Inbound, TabInfo, TabsResult, decode_raw
from browserx.service import DomService

log = structlog.get_logger("browserx.registry")


class TabRegistry:
    def __init__(self, conn: ExtensionConnection) -> None:
        self.conn = conn
        self.services: dict[int, DomService] = {}
        conn.on_notice(self._on_notice)

    async def list_tabs(self) -> list[TabInfo]:
        reply = await self.conn.request("tabs")
        result: TabsResult = decode_raw(reply.result, TabsResult)
        for tab in result.tabs:
            tab.focused = tab.windowId == result.lastFocusedWindowId
        return result.tabs

    async def resolve(self, tab_id: int | None) -> DomService:
        """The DomService of ``tab_id``, or of the active tab of the focused window when None."""
        in_use = self.services.get(tab_id) if tab_id is not None else None
        if in_use is not None:
            # A tab in use needs no listing (a round trip through the extension): its service is
            # dropped when the browser says the tab is gone, and a command to a tab closed since
            # fails with tab_closed.
            in_use.last_used = time.monotonic()
            return in_use
        tabs = await self.list_tabs()
        if tab_id is None:
            tab = default_tab(tabs)
            if tab is None:
                raise TabNotFound("The browser has no open tab; open one or navigate first.")
            tab_id = tab.tabId
        elif not any(t.tabId == tab_id for t in tabs):
            known = ", ".join(str(t.tabId) for t in tabs[:20]) or "none"
            raise TabNotFound(
                f"No tab with id {tab_id}; open tabs: {known}. Run `browserx tabs` to list them.",
                tab_id=tab_id,
            )
        service = self.service(tab_id)
        service.last_used = time.monotonic()
        return service

    async def release_idle(self, idle_s: float) -> list[int]:
        """Release the attached tabs nobody has used for ``idle_s`` seconds (not one that is busy:
        its lock is held); the ids of those released."""
        now = time.monotonic()
        released: list[int] = []
        for tab_id, service in list(self.services.items()):
            if not service.attached or service.lock.locked() or now - service.last_used < idle_s:
                continue
            async with service.lock:
                if now - service.last_used < idle_s:
                    continue  # used while we waited for the lock
                await service.release()
            released.append(tab_id)
            log.info("tab_released", tab=tab_id, idle_s=round(now - service.last_used))
        return released

    async def release_idle_forever(self, idle_s: float) -> None:
        """The host's background sweep (host.py): a browser with many tabs browserx once used
        keeps neither debugger banners nor snapshots for the idle ones."""
        while True:
            await asyncio.sleep(max(0.5, min(30.0, idle_s / 2)))
            try:
                await self.release_idle(idle_s)
            except Exception as exc:  # never end the sweep; one line, not a traceback
                log.error("release_idle_failed", error=clip(repr(exc), 300))

    def service(self, tab_id: int) -> DomService:
        service = self.services.get(tab_id)
        if service is None:
            service = self.services[tab_id] = DomService(tab_id, self.conn)
        return service

    def drop(self, tab_id: int) -> None:
        """The tab closed: forget it, and fail what still waits for an answer from it."""
        if self.services.pop(tab_id, None) is not None:
            log.info("service_dropped", tab=tab_id)
        self.conn.fail_tab(
            tab_id, TabClosed(f"Tab {tab_id} was closed; list tabs again and pick another.", tab_id=tab_id)
        )

    def _on_notice(self, msg: Inbound) -> None:
        if msg.type == "event" and msg.tabId is not None:
            service = self.services.get(msg.tabId)
            if service is not None:
                service.handle_event(msg)
        elif msg.type == "detached" and msg.tabId is not None:
            service = self.services.get(msg.tabId)
            if service is not None:
                # Kept (dropped when the tab closes): its ID allocator keeps IDs unique in the tab
                # when the debugger comes back (the user cancelled the banner, DevTools opened).
                service.handle_detached(msg.reason)
        elif msg.type == "tab" and msg.event in ("removed", "replaced"):
            self.drop(msg.removedTabId if msg.event == "replaced" and msg.removedTabId else msg.tabId or -1)


def default_tab(tabs: list[TabInfo]) -> TabInfo | None:
    """The tab a person is looking at: active in the focused window, else any active, else first."""
    for candidates in (
        [t for t in tabs if t.active and t.focused],
        [t for t in tabs if t.active and _is_web(t.url)],
        [t for t in tabs if t.active],
        tabs,
    ):
        if candidates:
            return candidates[0]
    return None


def _is_web(url: str) -> bool:
    return url.startswith(("http:", "https:", "file:"))
