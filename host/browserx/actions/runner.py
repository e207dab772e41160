"""The frame every action runs in: observe (mutations, navigation, requests) around the action,
check its expected outcome when one was given, time it, turn a BrowserxError into a structured
failed result, and invalidate the cached snapshot after every action — success or failure —
since the page may have changed either way."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from browserx.actions.network import NetworkWatch
from browserx.actions.page_changes import NAV_COMMIT_S, NAV_LOAD_S, MutationCounter, NavigationWatch
from browserx.actions.resolve import OBJECT_GROUP, Target
from browserx.actions.result import ActionErrorInfo, ActionResult
from browserx.actions.verify import Verifier
from browserx.errors import BrowserxError, PageOptedOut
from browserx.expectations import Expect
from browserx.relay.dialogs import DIALOG_OPENING
from browserx.relay.protocol import Inbound
from browserx.snapshot.redaction import hide_typed, redact_url
from browserx.tabs.tab import Tab


@dataclass
class ActionContext:
    tab: Tab
    result: ActionResult
    counter: MutationCounter
    watch: NavigationWatch
    network: NetworkWatch
    sessions: set[str | None] = field(default_factory=lambda: {None})
    after_settle: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    settle: bool = True  # wait a moment for the page's reaction before reading changes
    # Values were asked for (and the field is no secret): network facts keep query values.
    include_values: bool = False
    # Texts typed that must not show (values not asked for, or a secret field): masked in every
    # address the result gives, wherever the page put them.
    typed: tuple[str, ...] = ()
    # The top document's observation, started while the target is resolved (perform's
    # ``resolves_first``): adopt waits for it, before any input.
    observing: asyncio.Future[Any] | None = None

    async def adopt(self, target: Target) -> None:
        """The action acts on ``target``: report its (possibly healed) ID, watch its frame."""
        self.result.id = target.element_id
        self.result.recovered_from = target.recovered_from
        if self.observing is not None:
            await self.observing
        await self.watch_session(target.session_id)

    async def watch_session(self, session_id: str | None) -> None:
        """Count the DOM changes and requests of this frame's session too."""
        self.sessions.add(session_id)
        await asyncio.gather(self.counter.start(session_id), self.network.start(session_id))


Body = Callable[[ActionContext], Awaitable[None]]


async def perform(
    tab: Tab,
    action: str,
    element_id: int | None,
    body: Body,
    expect: Expect | None = None,
    *,
    resolves_first: bool = False,
) -> ActionResult:
    """Run ``body`` observed. ``resolves_first``: the body resolves its target and calls
    ``ctx.adopt`` before any input, so the observation starts alongside that lookup (one round
    trip less) instead of before it."""
    t0 = time.perf_counter()
    trips = tab.session.round_trips
    result = ActionResult(success=False, action=action, id=element_id)
    watch = NavigationWatch(tab)
    network = NetworkWatch(tab)
    ctx = ActionContext(tab, result, MutationCounter(tab), watch, network)
    verifier = Verifier(tab, expect, element_id) if expect is not None else None
    # The renderer dying, or a JavaScript dialog taking the page, while the action runs ends it at
    # once, as a failure: no wait in it (input, settling, navigation, network, verification)
    # outlives the page it waits for.
    crashed = asyncio.Event()
    stopped: list[BrowserxError] = []  # why, as said when it happened (a dialog may close meanwhile)

    def on_event(msg: Inbound) -> None:
        # (A dialog the person has answered at once holds nothing: the session kept no dialog.)
        if _stops_page(msg) and not crashed.is_set() and (msg.method != DIALOG_OPENING or tab.session.dialog):
            stopped.append(tab.session.stopped_error())
            crashed.set()

    stop_listening = tab.session.add_listener(on_event)
    try:
        try:
            await tab.session.ensure_attached()
            # A crashed renderer has nothing to observe (only reload and navigate are served:
            # they bring a new one, and the result says what they did).
            if not tab.session.crashed:
                observing = asyncio.gather(ctx.counter.start(None), network.start(None))
                if resolves_first and verifier is None:
                    ctx.observing = observing
                else:
                    await observing
                if verifier is not None:
                    await verifier.before_action()
            try:
                await _unless_crashed(stopped, crashed, body(ctx))
            finally:
                if ctx.observing is not None and not ctx.observing.done():
                    with contextlib.suppress(BrowserxError):
                        await ctx.observing  # the body failed before it adopted its target
            result.success = True
        except BrowserxError as exc:
            _fail(result, exc)
        try:
            # Refused as opted out: nothing of the page is read, not even what the action changed.
            if (
                not crashed.is_set()
                and tab.session.dialog is None
                and not isinstance(result._exc, PageOptedOut)
            ):
                await _unless_crashed(stopped, crashed, _observe_after(ctx, verifier))
        except PageOptedOut:
            raise  # the page opted out meanwhile: nothing of it may be reported
        except BrowserxError:
            pass  # the action itself happened (or failed) as reported; only observing it went wrong
        if crashed.is_set() and result.error is None:  # died, or a dialog came, after the input
            _fail(result, stopped[0])
    finally:
        stop_listening()
        watch.close()
        network.stop()
        tab.invalidate("action")
    result.duration_ms = round((time.perf_counter() - t0) * 1000, 1)
    result.round_trips = tab.session.round_trips - trips
    result.timestamp = time.time()
    return result


def _stops_page(msg: Inbound) -> bool:
    """An event after which nothing in the page answers: its renderer died, or a dialog holds it."""
    return msg.method == DIALOG_OPENING or (msg.method == "Inspector.targetCrashed" and not msg.sessionId)


def _fail(result: ActionResult, exc: BrowserxError) -> None:
    result.success = False
    result.error = ActionErrorInfo(code=exc.code, message=exc.message, details=exc.details or None)
    result._exc = exc


async def _unless_crashed(
    stopped: list[BrowserxError], crashed: asyncio.Event, work: Awaitable[None]
) -> None:
    """``work``, ended (cancelled) the moment the tab's renderer crashes (PageCrashed then) or a
    JavaScript dialog holds the page (DialogOpen)."""
    task = asyncio.ensure_future(work)
    dead = asyncio.ensure_future(crashed.wait())
    try:
        await asyncio.wait({task, dead}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        dead.cancel()
        if not task.done():  # the crash came first, or this request itself was cancelled
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, BrowserxError):
                await task
    if task.cancelled():
        raise stopped[0]
    task.result()  # its own outcome, error included


async def _observe_after(ctx: ActionContext, verifier: Verifier | None) -> None:
    result, watch = ctx.result, ctx.watch
    if result.success and ctx.settle and not ctx.counter.all_settled:
        await ctx.counter.settle()
        if watch.started and not watch.committed:
            await watch.wait("committed", NAV_COMMIT_S)
        if watch.new_document and not watch.loaded:
            await watch.wait("loaded", NAV_LOAD_S)
    if result.success:
        for hook in ctx.after_settle:
            await hook()
    if result.success and verifier is not None:
        result.verification = await verifier.after_action(result, ctx.counter, watch)
    await ctx.network.finish_api_calls()
    result.network = ctx.network.facts(ctx.include_values, ctx.typed)
    if ctx.counter.all_settled and verifier is None and not ctx.after_settle:
        mutations, url = ctx.counter.read_settled()  # counted as it settled: nothing to wait for
    else:
        mutations, url = await ctx.counter.read()
    changes = result.changes
    changes.dom_mutations = mutations
    before = ctx.counter.url_before
    if watch.committed or (url is not None and before is not None and url != before):
        changes.navigated = True
        new_url = url or watch.url
        changes.new_url = hide_typed(redact_url(new_url), ctx.typed) if new_url else new_url
    for session_id in ctx.sessions:
        _release_later(ctx.tab, session_id)


def _release_later(tab: Tab, session_id: str | None) -> None:
    """Release the action's handles without waiting for the answer: nothing depends on it."""
    tab.session.fire_and_forget(
        tab.session.cdp("Runtime.releaseObjectGroup", {"objectGroup": OBJECT_GROUP}, session_id=session_id)
    )
