"""Observe what an action changed instead of guessing: a MutationObserver counter in browserx's
isolated world (it sees the same DOM as the page), and the tab's Page events for navigation."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import msgspec

from browserx import page_js
from browserx.errors import PAGE_CALL_ERRORS, PageScriptError
from browserx.page.page_call import page_call
from browserx.page.worlds import isolated_world
from browserx.page_js import Snippet
from browserx.relay.protocol import Inbound
from browserx.tabs.tab import Tab

QUIET_MS = 50
SETTLE_CAP_MS = 600
START_JS = page_js.load("browserx.actions", "page_changes_start.js")
# The settling function (an arrow taking ``quick``), and the expression that runs it the usual way.
SETTLE_JS = page_js.load("browserx.actions", "page_changes_settle.js")
READ_JS = page_js.load("browserx.actions", "page_changes_read.js")
PEEK_JS = page_js.load("browserx.actions", "page_changes_peek.js")
NAV_COMMIT_S = 5.0
NAV_LOAD_S = 10.0


class NavigationWatch:
    """Collects top-level navigation events of the tab while an action runs."""

    def __init__(self, tab: Tab) -> None:
        self.tab = tab
        self.started = False  # a navigation was requested / started loading
        self.committed = False  # a new document (or same-document URL change) took over
        self.loaded = False
        self.new_document = False  # the committed navigation replaced the document
        self.url: str | None = None
        self.changed = asyncio.Event()
        self._remove = tab.session.add_listener(self._on_event)

    def _on_event(self, msg: Inbound) -> None:
        if msg.sessionId:
            return  # child sessions: iframe navigations are not page navigations
        method = msg.method or ""
        if method not in ("Page.frameNavigated", "Page.navigatedWithinDocument", "Page.frameStartedLoading",
                          "Page.frameRequestedNavigation", "Page.loadEventFired"):  # fmt: skip
            return
        try:
            params: dict[str, Any] = msgspec.json.decode(msg.params) if msg.params else {}
        except msgspec.DecodeError:
            params = {}
        main = self.tab.capture.worlds.get(None)
        main_id = main[0] if main else None
        if method == "Page.frameNavigated":
            frame = params.get("frame", {})
            if frame.get("parentId"):
                return
            self.started = self.committed = self.new_document = True
            self.loaded = False
            self.url = frame.get("url", self.url)
        elif method == "Page.navigatedWithinDocument":
            if main_id is not None and params.get("frameId") != main_id:
                return
            self.committed = True
            self.url = params.get("url", self.url)
        elif method == "Page.loadEventFired":
            self.loaded = True
        elif main_id is None or params.get("frameId") == main_id:
            self.started = True
        self.changed.set()

    async def wait(self, predicate: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not getattr(self, predicate):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return bool(getattr(self, predicate))
        return True

    def close(self) -> None:
        self._remove()


class MutationCounter:
    """Counts DOM mutations in the main frame (and the acted-on frame) during an action."""

    def __init__(self, tab: Tab) -> None:
        self.tab = tab
        self.sessions: dict[str | None, int] = {}  # session → context id holding a counter
        self.url_before: str | None = None
        # Counted in the call that settled a session (a click's last call: pointer_after.js).
        self.counted: dict[str | None, tuple[int, str]] = {}

    async def start(self, session_id: str | None = None) -> None:
        if session_id in self.sessions:
            return
        try:
            _, ctx = await isolated_world(self.tab.capture, session_id)
            url = await page_call(self.tab.session, START_JS, world=ctx, session_id=session_id)
        except PAGE_CALL_ERRORS:
            return  # observing is best effort: never fail an action because of a frame gone
        # (A page error is no such thing: the counter could not be set, and the action says so.)
        self.sessions[session_id] = ctx
        if session_id is None:
            self.url_before = url

    def settled_in(self, session_id: str | None, answer: Any) -> None:
        """The session settled and was counted by the action's own call: its answer carries
        ``counted`` ([changes, URL]) when it did (pointer_after.js, keyboard_after.js, ...)."""
        counted = answer.get("counted") if isinstance(answer, dict) else None
        if not (isinstance(counted, list) and len(counted) == 2 and isinstance(counted[0], int)):
            return  # it did not settle (a click stopped by the interceptor), or answered nothing
        if session_id in self.sessions:
            self.counted[session_id] = (counted[0], str(counted[1]))

    @property
    def all_settled(self) -> bool:
        return bool(self.sessions) and all(s in self.counted for s in self.sessions)

    async def settle(self) -> None:
        """Until the acted-on documents have reacted (``SETTLE_JS``), all of them at once."""

        async def one(session_id: str | None, ctx: int) -> None:
            await page_call(
                self.tab.session, SETTLE_JS, False, world=ctx, session_id=session_id, await_promise=True,
                timeout=SETTLE_CAP_MS / 1000 + 2,
            )  # fmt: skip

        # A document gone or slow is settled enough; a page error fails the action.
        outcomes = await asyncio.gather(
            *(one(s, c) for s, c in self.sessions.items()), return_exceptions=True
        )
        for outcome in outcomes:
            if isinstance(outcome, PageScriptError):
                raise outcome

    async def read(self) -> tuple[int | None, str | None]:
        """(mutations, main-frame URL); mutations None when a counted document was replaced. Stops
        counting."""
        return await self._count(READ_JS)

    def read_settled(self) -> tuple[int | None, str | None]:
        """``read``, from what the settling call counted (``all_settled``): the counters are
        stopped without waiting for it."""
        total: int | None = 0
        url: str | None = None
        for session_id, ctx in self.sessions.items():
            changes, href = self.counted[session_id]
            if session_id is None:
                url = href
            total = None if total is None or changes < 0 else total + changes
            # Its outcome is nobody's: a page error there is only logged (page/page_call.py).
            self.tab.session.fire_and_forget(
                page_call(self.tab.session, READ_JS, world=ctx, session_id=session_id)
            )
        return total, url

    async def peek(self) -> tuple[int | None, str | None]:
        """``read``, counting on."""
        return await self._count(PEEK_JS)

    async def _count(self, snippet: Snippet) -> tuple[int | None, str | None]:
        total: int | None = 0
        url: str | None = None
        for session_id, ctx in self.sessions.items():
            try:  # a page error is PageScriptError: not "a document was replaced"
                value = await page_call(self.tab.session, snippet, world=ctx, session_id=session_id)
            except PAGE_CALL_ERRORS:
                value = None
            if not isinstance(value, list) or value[0] < 0:
                total = None
                continue
            if total is not None:
                total += int(value[0])
            if session_id is None:
                url = str(value[1])
        return total, url
