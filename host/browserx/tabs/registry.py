"""TabRegistry: the host's map of tab ids to Tabs, kept in step with the browser's notices."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable

import structlog

from browserx.errors import TabClosed, TabNotFound, clip
from browserx.heap import full_collect, return_freed_memory
from browserx.relay.connection import ExtensionConnection
from browserx.relay.protocol import Inbound, TabInfo, TabsResult, decode_raw
from browserx.tabs.openers import Openers
from browserx.tabs.tab import Tab

log = structlog.get_logger("browserx.registry")


def _collect_now() -> None:
    full_collect()
    return_freed_memory()


class TabRegistry:
    def __init__(self, conn: ExtensionConnection) -> None:
        self.conn = conn
        self.tabs: dict[int, Tab] = {}
        # Each tab's highest element ID given out by an earlier host of this browser (the
        # extension's hello): a Tab's IDs start above it, so none repeats after a host restart.
        self.floors: dict[int, int] = {}
        # Checked before a request touches a tab (control/person/controls.py: the person's Stop, site rules
        # and tab sharing); raises to refuse it.
        self.gate: Callable[[int], Awaitable[None]] | None = None
        # Checked before an action opens a page from a tab (a link a click or Enter would follow:
        # control/person/controls.py, the person's site rules); raises to refuse it.
        self.destinations: Callable[[str, int], Awaitable[bool]] | None = None
        # How the person wants a JavaScript dialog of a kind answered (True accept, False dismiss,
        # None: left to the agent): PersonControls.dialog_answer.
        self.dialog_answer: Callable[[str], bool | None] | None = None
        self._disposals: set[asyncio.Task[None]] = set()  # closed tabs' memory being freed
        self.openers = Openers()  # the tabs pages opened, until a call on their opener reports them
        conn.on_notice(self._on_notice)

    def restore_watermarks(self, watermarks: dict[str, object] | None) -> None:
        """Take the extension's per-tab watermarks (``{"<tabId>": high}``; odd entries skipped)."""
        for key, high in (watermarks or {}).items():
            if not (isinstance(key, str) and key.isdigit() and type(high) is int and 0 < high < 2**53):
                continue
            tab_id = int(key)
            self.floors[tab_id] = max(self.floors.get(tab_id, 0), high)
            tab = self.tabs.get(tab_id)
            if tab is not None:
                tab.ids.raise_floor(self.floors[tab_id])
        if self.floors:
            log.info("watermarks_restored", tabs=len(self.floors))

    async def list_tabs(self) -> list[TabInfo]:
        reply = await self.conn.request("tabs")
        result: TabsResult = decode_raw(reply.result, TabsResult)
        for tab in result.tabs:
            tab.focused = tab.windowId == result.lastFocusedWindowId
        return result.tabs

    async def resolve(self, tab_id: int | None) -> Tab:
        """The Tab of ``tab_id``, or of the active tab of the focused window when None."""
        in_use = self.tabs.get(tab_id) if tab_id is not None else None
        if in_use is not None:
            # A tab in use needs no listing (a round trip through the extension): its Tab is
            # dropped when the browser says the tab is gone, and a command to a tab closed since
            # fails with tab_closed.
            if self.gate is not None:
                await self.gate(in_use.tab_id)
            in_use.last_used = time.monotonic()
            return in_use
        tabs = await self.list_tabs()
        if tab_id is None:
            shown = default_tab(tabs)
            if shown is None:
                raise TabNotFound("The browser has no open tab; open one or navigate first.")
            tab_id = shown.tabId
        elif not any(t.tabId == tab_id for t in tabs):
            known = ", ".join(str(t.tabId) for t in tabs[:20]) or "none"
            raise TabNotFound(
                f"No tab with id {tab_id}; open tabs: {known}. Run `browserx tabs` to list them.",
                tab=tab_id,
            )
        if self.gate is not None:
            await self.gate(tab_id)
        tab = self.tab(tab_id)
        tab.last_used = time.monotonic()
        return tab

    async def release_idle(self, idle_s: float) -> list[int]:
        """Release the attached tabs nobody has used for ``idle_s`` seconds (not one that is busy:
        its lock is held); the ids of those released."""
        now = time.monotonic()
        released: list[int] = []
        for tab_id, tab in list(self.tabs.items()):
            if not tab.session.attached or tab.lock.locked() or now - tab.last_used < idle_s:
                continue
            async with tab.lock:
                if now - tab.last_used < idle_s:
                    continue  # used while we waited for the lock
                await tab.release()
            released.append(tab_id)
            log.info("tab_released", tab=tab_id, idle_s=round(now - tab.last_used))
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

    def tab(self, tab_id: int) -> Tab:
        tab = self.tabs.get(tab_id)
        if tab is None:
            tab = self.tabs[tab_id] = Tab(tab_id, self.conn)
            tab.ids.raise_floor(self.floors.get(tab_id, 0))
            tab.check_destination = lambda url: self.check_destination(url, tab_id)
            tab.session.auto_answers.policy = lambda kind: (
                self.dialog_answer(kind) if self.dialog_answer else None
            )
        return tab

    async def check_destination(self, url: str, tab_id: int) -> bool:
        """Refuse a page an action in tab ``tab_id`` would open (``destinations``); whether the
        person was asked first."""
        return await self.destinations(url, tab_id) if self.destinations is not None else False

    def drop(self, tab_id: int) -> None:
        """The tab closed: forget it, and fail what still waits for an answer from it."""
        tab = self.tabs.pop(tab_id, None)
        self.floors.pop(tab_id, None)
        if tab is not None:
            tab.session.close()
            log.info("tab_dropped", tab=tab_id)
            with contextlib.suppress(RuntimeError):  # no loop runs: nothing is kept for long either
                disposal = asyncio.get_running_loop().create_task(tab.dispose())
                self._disposals.add(disposal)
                disposal.add_done_callback(self._collect_closed)
        self.conn.fail_tab(
            tab_id, TabClosed(f"Tab {tab_id} was closed; list tabs again and pick another.", tab=tab_id)
        )

    def _collect_closed(self, disposal: asyncio.Task[None]) -> None:
        """A closed tab's objects sit in reference cycles the frozen collector skips (heap.py): a
        100k-element page's 150 MB stayed until the next full collection, dozens of snapshots
        later. Collected once the tab's disposal is over and nothing refers to the tab."""
        self._disposals.discard(disposal)
        asyncio.get_running_loop().call_soon(_collect_now)

    def _on_notice(self, msg: Inbound) -> None:
        if msg.type == "event" and msg.tabId is not None:
            tab = self.tabs.get(msg.tabId)
            if tab is not None:
                tab.session.handle_event(msg)
        elif msg.type == "detached" and msg.tabId is not None:
            tab = self.tabs.get(msg.tabId)
            if tab is not None:
                # Kept (dropped when the tab closes): its ID allocator keeps IDs unique in the tab
                # when the debugger comes back (the user cancelled the banner, DevTools opened).
                tab.session.handle_detached(msg.reason)
        elif msg.type == "tab" and msg.event == "created" and msg.tabId is not None:
            self.openers.created(msg.tabId, msg.openerTabId)
        elif msg.type == "tab" and msg.event in ("removed", "replaced"):
            gone = msg.removedTabId if msg.event == "replaced" and msg.removedTabId else msg.tabId or -1
            self.openers.removed(gone)
            self.drop(gone)


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
