"""Tab: everything browserx holds for one browser tab, each kind of state with one owner — the
debugger session (relay/session.py), what capture keeps about the page (page/capture_state.py),
and here the snapshots (the current one and those waiting to be torn down), the ID allocator,
the action memory and the page events seen (page/events.py). What the views served (the last
view, the hybrid picture's hash) is control's (control/observation.py): it hears of a snapshot
torn down and of the tab's release through ``on_retire`` and ``on_release``. One per tab, created lazily by
the TabRegistry and attached on first use; requests on a tab run one at a time under its lock."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Literal

import structlog

from browserx.heap import return_freed_memory, snapshot_placed
from browserx.page.capture_state import CaptureState
from browserx.page.events import EventLog
from browserx.relay.connection import ExtensionConnection
from browserx.relay.protocol import Inbound
from browserx.relay.session import ANSWERED, PAGE_CHANGING_EVENTS, TabSession
from browserx.snapshot.ids import IdAllocator
from browserx.snapshot.snapshot import DomSnapshot
from browserx.tabs.downloads import DownloadLog
from browserx.tabs.memory import ActionMemory, Fingerprint

log = structlog.get_logger("browserx.tab")


DISPOSE_WAIT_S = 10.0


class TabLock(asyncio.Lock):
    """The tab's lock: requests on a tab run one at a time. What a holder left to run once its
    answer is written (relay/session.ANSWERED: releasing handles, a key-up, disabling a domain)
    stays held as it lets go, so the answer goes out first; should the next holder come before
    that answer is written, it starts that work before its own, so those frames go out ahead of
    its frames and never act on its handles or observation."""

    def __init__(self) -> None:
        super().__init__()
        self._left_behind: asyncio.Event | None = None

    async def acquire(self) -> Literal[True]:
        await super().acquire()
        left, self._left_behind = self._left_behind, None
        if left is not None:
            # Set now, or set a moment ago with its work woken but not yet run: either way that
            # work's first frames go out before this holder's, after one turn of the loop.
            left.set()
            try:
                await asyncio.sleep(0)
            except BaseException:
                self.release()
                raise
        return True

    def release(self) -> None:
        self._left_behind = ANSWERED.get()
        super().release()


class Tab:
    def __init__(self, tab_id: int, conn: ExtensionConnection) -> None:
        self.session = TabSession(tab_id, conn)
        self.capture = CaptureState(self.session)
        self.lock = TabLock()
        self.last_used = time.monotonic()  # the last request for this tab (idle release)
        self.ids = IdAllocator()
        self.saved_watermark = 0  # the highest ID the extension keeps for this tab (tabs/snapshots.py)
        self.memory = ActionMemory(self.ids)
        # The last snapshot, kept for resolving IDs until something invalidates it; replaced
        # ones wait in _retired until the next one is placed (under the tab's lock).
        self.snapshot: DomSnapshot | None = None
        self._retired: list[DomSnapshot] = []
        # The page events seen so far (fed by snapshots and verifications, read by views).
        self.page_events: EventLog | None = None
        # Told of each snapshot about to be torn down, and of the tab's release.
        self.on_retire: list[Callable[[DomSnapshot], None]] = []
        self.on_release: list[Callable[[], None]] = []
        # Refuses a page an action would open from this tab (a link a click or Enter would follow)
        # where the person's site rules keep browserx off it; True when it asked the person first
        # (what the page shows may have changed meanwhile). Set by the TabRegistry.
        self.check_destination: Callable[[str], Awaitable[bool]] | None = None
        self.downloads = DownloadLog()  # what its pages downloaded (tabs/downloads.py)
        self.session.add_listener(self._on_event)
        self.session.on_page_gone.append(self.invalidate)

    @property
    def tab_id(self) -> int:
        return self.session.tab_id

    def _on_event(self, msg: Inbound) -> None:
        if msg.method in PAGE_CHANGING_EVENTS:
            self.invalidate(msg.method or "")
        self.downloads.on_event(msg)

    def invalidate(self, reason: str) -> None:
        if self.snapshot is not None:
            log.debug("snapshot_invalidated", tab=self.tab_id, reason=reason)
            # Not released here: an operation holding the tab's lock may still be reading it.
            self._retired.append(self.snapshot)
        self.snapshot = None

    async def discard_snapshots(self) -> None:
        """Tear down the cached snapshot and any invalidated ones, before a new one is taken: on a
        huge page, two trees at once would double the host's memory. Call under the tab's lock
        (nothing else of this tab reads them meanwhile). IDs, fingerprints and the last view's
        state live elsewhere and stay.
        The teardown goes in slices, yielding to the event loop between them: it runs while the
        next capture waits on the page."""
        retired = self._retire_all()
        for old in retired:
            for _ in old.release_steps():
                await asyncio.sleep(0)
        if retired:
            return_freed_memory()

    def _retire_all(self) -> list[DomSnapshot]:
        if self.snapshot is not None:
            self._retired.append(self.snapshot)
            self.snapshot = None
        retired, self._retired = self._retired, []
        for old in retired:
            for hook in self.on_retire:
                hook(old)  # (a view that still holds it lets go: control/observation.py)
        return retired

    def place_snapshot(self, snap: DomSnapshot) -> None:
        """Make ``snap`` the tab's snapshot (under the tab's lock)."""
        if self.snapshot is not None and self.snapshot is not snap:
            self._retired.append(self.snapshot)
        self.snapshot = snap
        snapshot_placed()

    def remember(self, snap: DomSnapshot | None = None) -> None:
        """Record what the IDs of ``snap`` (default: the cached snapshot) name, for the actions."""
        snap = snap if snap is not None else self.snapshot
        if snap is not None:
            self.memory.remember(snap, self._context_of)

    def _context_of(self, label: str) -> int | None:
        world = self.capture.worlds.get(self.session.session_of(label))
        return world[1] if world else None

    def recall(self, element_id: int) -> Fingerprint | None:
        return self.memory.recall(element_id)

    async def dispose(self, wait_s: float = DISPOSE_WAIT_S) -> None:
        """The tab closed: free all it held now, not at the next full collection dozens of snapshots
        later: its snapshots now, the rest once nothing refers to the tab any more (the registry's
        ``collect_closed``). Waits up to ``wait_s`` for a request still on the tab (told by then
        that it closed) to let go of it."""
        try:
            await asyncio.wait_for(self.lock.acquire(), wait_s)
        except TimeoutError:
            log.warning("tab_dispose_without_lock", tab=self.tab_id)
            return
        try:
            await self.discard_snapshots()
            self.memory.by_id.clear()
        finally:
            self.lock.release()

    async def release(self) -> None:
        """Detach the debugger and free the snapshots (under the tab's lock): the tab has been idle.
        What keeps IDs unique in the tab (the ID allocator, the last view) stays."""
        await self.session.detach()
        for hook in self.on_release:
            hook()
        await self.discard_snapshots()
