"""DomService: everything browserx knows and does for one tab. One per tab, created lazily by
the TabRegistry, attached on first use; requests on a tab run one at a time under its lock."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar, overload

import structlog

from browserx.errors import BrowserxError, CdpError, DebuggerDetached, PageCrashed, PageOffLimits
from browserx.heap import return_freed_memory, snapshot_placed
from browserx.relay.connection import ExtensionConnection
from browserx.relay.protocol import AttachedToTarget, DetachedFromTarget, Inbound, TargetInfo, decode_raw
from browserx.snapshot.ids import IdAllocator

if TYPE_CHECKING:
    from browserx.snapshot.snapshot import DomSnapshot
    from browserx.views.delta import ViewState
    from browserx.views.events import EventLog

log = structlog.get_logger("browserx.service")

T = TypeVar("T")
EventListener = Callable[[Inbound], None]
INVALIDATING_EVENTS = frozenset(
    {"DOM.documentUpdated", "Page.frameNavigated", "Page.navigatedWithinDocument",
     "Target.attachedToTarget", "Target.detachedFromTarget", "Inspector.targetCrashed"}
)  # fmt: skip
# What a tab whose renderer crashed still serves (a reload or navigation brings a new renderer),
# and the events that say the new one is there.
RECOVERY_METHODS = frozenset(
    {
        "Page.navigate",
        "Page.reload",
        "Page.getNavigationHistory",
        "Page.navigateToHistoryEntry",
        "Page.enable",
    }
)
RECOVERY_EVENTS = frozenset({"Inspector.targetReloadedAfterCrash", "Page.frameNavigated"})


class DomService:
    def __init__(self, tab_id: int, conn: ExtensionConnection) -> None:
        self.tab_id = tab_id
        self.conn = conn
        self.lock = asyncio.Lock()
        self.attached = False
        self.attached_at = 0.0  # monotonic time of the last attach
        self.crashed = False  # the renderer died; set until a reload or navigation replaces it
        self.last_used = time.monotonic()  # the last request for this tab (idle release)
        self.frames_changed_at = 0.0  # last navigation or child frame attach/detach
        # Child CDP sessions (out-of-process iframes, workers) by sessionId.
        self.sessions: dict[str, TargetInfo] = {}
        # Which session a child session was attached through (None = the tab itself).
        self.session_parents: dict[str, str | None] = {}
        self._frame_labels: dict[str, str] = {}
        # browserx's isolated world per session: (frame id, execution context id).
        self.worlds: dict[str | None, tuple[str, int]] = {}
        self.frame_ids: dict[str | None, str] = {}  # top frame id per session
        self.worlds_checked: dict[str | None, float] = {}  # monotonic time each world was last confirmed
        # Node keys of each document start at a base no other document of the tab had (see
        # snapshot/capture.py): the collector takes the session's reserved base when it meets a
        # new document and reports the base it used, so the host learns of a new document from
        # the page itself (execution context ids are reused by a new renderer process).
        # Random start: a restarted host must not hand out a base the previous host already used.
        self.key_epoch = secrets.randbelow(1 << 27)
        self.key_bases: dict[str | None, int] = {}  # base of each session's current document
        self._fresh_bases: dict[str | None, int] = {}  # reserved for its next new document
        self.live_key_epochs: frozenset[int] = frozenset()  # as of the last ID clean-up
        # Per (session, isolated world): listening node's backendNodeId → collector key.
        self.listener_keys: dict[tuple[str | None, int], dict[int, int]] = {}
        # Per (parent session, its isolated world, child frame id): the key of the <iframe>
        # element that holds the out-of-process child frame.
        self.owner_keys: dict[tuple[str | None, int, str], int] = {}
        self._listeners: list[EventListener] = []
        self._background: set[asyncio.Future[Any]] = set()  # fire_and_forget's tasks, until done
        self.ids = IdAllocator()
        # The last snapshot, kept for resolving IDs until something invalidates it; replaced
        # ones wait in _retired until the next one is placed (under the tab's lock).
        self.snapshot: DomSnapshot | None = None
        self._retired: list[DomSnapshot] = []
        # What the last view served showed (for since_last deltas) and the page events seen so far.
        self.last_view: ViewState | None = None
        self.page_events: EventLog | None = None
        # The perceptual hash of the last hybrid view's screenshot sent for this tab (an unchanged
        # picture is not sent again; control/observe.py). Forgotten when the tab is released.
        self.last_screenshot_hash: str | None = None
        # Sessions whose new documents get the page watcher from their first moment (capture.py).
        self.watched_sessions: set[str | None] = set()
        # Sessions whose documents hold so many click listeners that listing them is slow (capture.py).
        self.listener_heavy: set[str | None] = set()
        # Per session: a main-world handle on its document, with the isolated world it was taken
        # beside (capture.py lists click listeners through it), and the document's element count.
        self.doc_handles: dict[str | None, tuple[tuple[str, int], str]] = {}
        self.element_counts: dict[str | None, int] = {}
        # Per session: the last listing of a listener-heavy document, with its world and the page
        # watcher's mutation count when it was taken (capture.py reuses it while that stands).
        self.heavy_listings: dict[str | None, tuple[tuple[str, int], int, dict[int, set[str]]]] = {}

    async def ensure_attached(self) -> None:
        if not self.attached:
            try:
                await self.conn.request("attach", tabId=self.tab_id)
            except CdpError as exc:
                if "Cannot access" in exc.message or "Cannot attach" in exc.message:
                    raise PageOffLimits(
                        f"Tab {self.tab_id} shows a browser page (chrome://, an extension's or the Web "
                        "Store's) that browserx may not read or act on. Navigate it to a web page (navigate "
                        "works from here) or pick another tab.",
                        tab_id=self.tab_id,
                    ) from None
                raise
            self.attached = True
            self.attached_at = time.monotonic()
            self.watched_sessions.clear()  # scripts registered on a former attachment are gone
            # Page events tell us when a cached snapshot went stale. (Not DOM.enable: the DOM
            # agent's node bookkeeping is not needed for anything browserx does.)
            await self.conn.cdp(self.tab_id, "Page.enable")
            log.info("attached", tab=self.tab_id)

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
            if self.last_view is not None and self.last_view.holds(old):
                self.last_view.detach()  # a later delta still compares against that view
        return retired

    def place_snapshot(self, snap: DomSnapshot) -> None:
        """Make ``snap`` the tab's snapshot (under the tab's lock)."""
        if self.snapshot is not None and self.snapshot is not snap:
            self._retired.append(self.snapshot)
        self.snapshot = snap
        snapshot_placed()

    @overload
    async def cdp(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        session_id: str | None = None,
        timeout: float | None = None,
        *,
        keep: dict[str, Any] | None = None,
    ) -> dict[str, Any]: ...

    @overload
    async def cdp(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        session_id: str | None = None,
        timeout: float | None = None,
        *,
        result_type: type[T],
        keep: dict[str, Any] | None = None,
    ) -> T: ...

    async def cdp(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        session_id: str | None = None,
        timeout: float | None = None,
        *,
        result_type: type[Any] = dict,
        keep: dict[str, Any] | None = None,
    ) -> Any:
        """Run a CDP command in this tab; re-attach once if the debugger was detached."""
        if self.crashed and method not in RECOVERY_METHODS:
            raise self.crashed_error()
        await self.ensure_attached()
        try:
            return await self.conn.cdp(
                self.tab_id, method, params, session_id, timeout, result_type=result_type, keep=keep
            )
        except DebuggerDetached:
            if session_id:
                raise
            self.attached = False
            await self.ensure_attached()
            return await self.conn.cdp(
                self.tab_id, method, params, session_id, timeout, result_type=result_type, keep=keep
            )

    async def cdp_batch(
        self, commands: list[tuple[str, dict[str, Any]]], session_id: str | None = None
    ) -> list[dict[str, Any] | BrowserxError]:
        """Many independent commands in one round trip; per-command results or errors."""
        if self.crashed:
            raise self.crashed_error()
        await self.ensure_attached()
        return await self.conn.cdp_batch(self.tab_id, commands, session_id)

    def fire_and_forget(self, work: Awaitable[Any]) -> asyncio.Future[Any]:
        """Run ``work`` without waiting for it (releasing handles, disabling a domain): the tab
        holds the task until it is done, and its outcome is ignored (a frame gone meanwhile took
        its objects with it)."""
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background_done)
        return task

    def _background_done(self, task: asyncio.Future[Any]) -> None:
        self._background.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved, so asyncio does not log "never retrieved"

    def add_listener(self, listener: EventListener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def handle_event(self, msg: Inbound) -> None:
        if msg.method == "Target.attachedToTarget":
            attached: AttachedToTarget = decode_raw(msg.params, AttachedToTarget)
            self.sessions[attached.sessionId] = attached.targetInfo
            self.session_parents[attached.sessionId] = msg.sessionId
        elif msg.method == "Target.detachedFromTarget":
            detached: DetachedFromTarget = decode_raw(msg.params, DetachedFromTarget)
            self.forget_session(detached.sessionId)
        elif msg.method == "Inspector.targetCrashed" and not msg.sessionId:
            self.handle_crashed()
        elif self.crashed and not msg.sessionId and msg.method in RECOVERY_EVENTS:
            self.crashed = False  # a new renderer took over
            log.info("recovered_from_crash", tab=self.tab_id)
        if msg.method in INVALIDATING_EVENTS:
            self.invalidate(msg.method or "")
            self.frames_changed_at = time.monotonic()
        for listener in list(self._listeners):
            listener(msg)

    def fresh_base(self, session_id: str | None, key_bits: int) -> int:
        """The key base the session's next new document will take (reserved until one does)."""
        base = self._fresh_bases.get(session_id)
        if base is None:
            self.key_epoch += 1
            base = self._fresh_bases[session_id] = self.key_epoch << key_bits
        return base

    def document_seen(self, session_id: str | None, base: int) -> bool:
        """Record the key base the collector found in the session's document; True when that is
        a document not seen before (what was cached for the old one is dropped)."""
        if self._fresh_bases.get(session_id) == base:
            del self._fresh_bases[session_id]  # taken: the next new document gets another
        if self.key_bases.get(session_id) == base:
            return False
        self.key_bases[session_id] = base
        self.forget_document_keys(session_id)
        self.listener_heavy.discard(session_id)
        return True

    def forget_session(self, session_id: str) -> None:
        """Drop a child session that no longer answers (its detach notice can be lost)."""
        self.sessions.pop(session_id, None)
        self.session_parents.pop(session_id, None)
        self.worlds.pop(session_id, None)
        self.frame_ids.pop(session_id, None)
        self.key_bases.pop(session_id, None)
        self._fresh_bases.pop(session_id, None)
        self.forget_document_keys(session_id)

    def forget_document_keys(self, session_id: str | None) -> None:
        """Drop what the session's keys were cached for (listening nodes, frame owners): its
        document changed or it went away."""
        for stale in [k for k in self.listener_keys if k[0] == session_id]:
            del self.listener_keys[stale]
        for owner in [k for k in self.owner_keys if k[0] == session_id]:
            del self.owner_keys[owner]
        self.doc_handles.pop(session_id, None)
        self.heavy_listings.pop(session_id, None)

    def frame_label(self, session_id: str) -> str:
        """A short, never-reused label for a child session (node refs and IDs carry it)."""
        label = self._frame_labels.get(session_id)
        if label is None:
            label = self._frame_labels[session_id] = f"f{len(self._frame_labels) + 1}"
        return label

    def session_of(self, label: str) -> str | None:
        if label == "m":
            return None
        for sid, known in self._frame_labels.items():
            if known == label:
                return sid
        return None

    async def release(self) -> None:
        """Detach the debugger and free the snapshots (under the tab's lock): the tab has been idle.
        What keeps IDs unique in the tab (the ID allocator, the last view) stays."""
        if self.attached:
            try:
                await self.conn.request("detach", tabId=self.tab_id)
            except BrowserxError as exc:  # the tab or the extension went away meanwhile
                log.debug("release_detach_failed", tab=self.tab_id, error=exc.message)
        self.handle_detached("idle")
        self.last_screenshot_hash = None
        await self.discard_snapshots()

    def handle_crashed(self) -> None:
        """The renderer died. What the host set up in it (worlds, watchers, handles) died with it;
        the debugger stays attached with its domains enabled, and they come back with the next
        renderer. Until the tab is reloaded or navigated, only that is served: anything else
        would wait for a page that cannot answer."""
        self.crashed = True
        self.sessions.clear()
        self.session_parents.clear()
        self._forget_page_state()
        self.watched_sessions.clear()
        self.invalidate("renderer crashed")
        self.conn.fail_tab(self.tab_id, self.crashed_error())
        log.warning("renderer_crashed", tab=self.tab_id)

    def crashed_error(self) -> PageCrashed:
        return PageCrashed(
            f"The page in tab {self.tab_id} crashed (its renderer died). Reload the tab (`reload`) or "
            "navigate it, then take a new snapshot.",
            tab_id=self.tab_id,
        )

    def handle_detached(self, reason: str | None) -> None:
        self.attached = False
        self.crashed = False  # a new attachment finds out afresh
        self.sessions.clear()
        self.session_parents.clear()
        self._forget_page_state()
        self.invalidate("debugger detached")
        log.info("detached", tab=self.tab_id, reason=reason)

    def _forget_page_state(self) -> None:
        """Drop what the host cached about the page's worlds, documents and nodes."""
        self.worlds.clear()
        self.worlds_checked.clear()
        self.frame_ids.clear()
        self.listener_keys.clear()
        self.owner_keys.clear()
        self.doc_handles.clear()
        self.heavy_listings.clear()
