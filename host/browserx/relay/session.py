"""TabSession: the debugger session of one tab — attaching, its child sessions (out-of-process
iframes), their frame labels, CDP calls (re-attaching once when the debugger was detached), the
tab's events, a crashed renderer, and the tasks it runs without waiting for them.

What the layers above keep about the page (isolated worlds, node keys, snapshots) is theirs; they
hear about a child session going away, the page going away (detach, crash) and a fresh attachment
through the hooks registered here, and clear their own state.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, TypeVar, overload

import structlog

from browserx.errors import BrowserxError, CdpError, DebuggerDetached, DialogOpen, PageCrashed, PageOffLimits
from browserx.relay.cdp_types import JavaScriptDialogOpening
from browserx.relay.connection import ExtensionConnection, detached_before
from browserx.relay.dialogs import (
    DIALOG_CLOSED,
    DIALOG_ENABLE_TIMEOUT_S,
    DIALOG_ENABLE_WAIT_S,
    DIALOG_METHODS,
    DIALOG_OPENING,
    UNKNOWN_DIALOG,
    AutoAnswers,
    answer_quietly,
    dialog_error,
    opened_dialog,
)
from browserx.relay.protocol import (
    ArgsFrom,
    AttachedToTarget,
    DetachedFromTarget,
    Gate,
    Inbound,
    TargetInfo,
    decode_raw,
)

log = structlog.get_logger("browserx.session")

T = TypeVar("T")
EventListener = Callable[[Inbound], None]
# Events after which what was read of the page may be stale (a new document, frames coming or going).
PAGE_CHANGING_EVENTS = frozenset(
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


# Set in the tasks of work nobody waits for (fire_and_forget, the visual effects): their commands
# are no round trip of the request that sent them.
_BACKGROUND: contextvars.ContextVar[bool] = contextvars.ContextVar("browserx_background", default=False)


# Set while a control request is answered (control/server.py): the housekeeping it leaves behind
# (fire_and_forget: releasing handles, a key-up, disabling a domain) starts once its answer is
# written, so those frames are not written to the extension ahead of the answer to the agent, or
# as the next request takes the tab (tabs/tab.py's lock), whichever comes first.
ANSWERED: contextvars.ContextVar[asyncio.Event | None] = contextvars.ContextVar(
    "browserx_answered", default=None
)


def once_answered(work: Coroutine[Any, Any, T]) -> Coroutine[Any, Any, T]:
    """``work``, held until the running control request's answer is written (``ANSWERED``); as
    it is when no request runs or its answer is out."""
    answered = ANSWERED.get()
    if answered is None or answered.is_set():
        return work
    return _once_answered(answered, work)


async def _once_answered(answered: asyncio.Event, work: Coroutine[Any, Any, T]) -> T:
    await answered.wait()
    return await work


def in_background(work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
    """``work`` as a task whose CDP commands count as nobody's round trips."""
    context = contextvars.copy_context()
    context.run(_BACKGROUND.set, True)
    return asyncio.get_running_loop().create_task(work, context=context)


class TabSession:
    def __init__(self, tab_id: int, conn: ExtensionConnection) -> None:
        self.tab_id = tab_id
        self.conn = conn
        self.attached = False
        self.attached_at = 0.0  # monotonic time of the last attach
        self.crashed = False  # the renderer died; set until a reload or navigation replaces it
        self.dialog: JavaScriptDialogOpening | None = None
        self.dialog_inherited = False  # open since before this attachment (see _enable_page)
        self.auto_answers = AutoAnswers()  # the kinds of dialog the person has answered at once
        self.page_readable: bool | None = None  # the page's last opt-out verdict (page/opt_out.py)
        self.frames_changed_at = 0.0  # last navigation or child frame attach/detach
        # Child CDP sessions (out-of-process iframes, workers) by sessionId.
        self.sessions: dict[str, TargetInfo] = {}
        # Which session a child session was attached through (None = the tab itself).
        self.session_parents: dict[str, str | None] = {}
        self._frame_labels: dict[str, str] = {}
        self._listeners: list[EventListener] = []
        self._background: set[asyncio.Future[Any]] = set()  # fire_and_forget's tasks, until done
        # What the tab's requests cost, read by the actions (their result's round trips): CDP
        # commands sent, and round trips, a command sent while none was waiting for its answer.
        self.commands = 0
        self.round_trips = 0
        self._waiting = 0
        # What the layers above clear when the debugger (re-)attaches, when a child session goes,
        # and when the whole page goes (detached, crashed: the argument says which).
        self.on_attached: list[Callable[[], None]] = []
        self.on_session_gone: list[Callable[[str], None]] = []
        self.on_page_gone: list[Callable[[str], None]] = []

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
                        tab=self.tab_id,
                    ) from None
                raise
            self.attached = True
            self.attached_at = time.monotonic()
            for hook in self.on_attached:
                hook()
            # Page events tell us when a cached snapshot went stale. (Not DOM.enable: the DOM
            # agent's node bookkeeping is not needed for anything browserx does.)
            await self._enable_page()
            log.info("attached", tab=self.tab_id)

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
        await self.ensure_attached()  # (attaching again is what finds out a dialog closed meanwhile)
        if self.dialog is not None and method not in DIALOG_METHODS:
            raise self.dialog_error()
        waits = self._sent(1)
        try:
            return await self.conn.cdp(
                self.tab_id, method, params, session_id, timeout, result_type=result_type, keep=keep
            )
        except DebuggerDetached:
            if session_id:
                raise
            self.attached = False
            await self.ensure_attached()
            if self.dialog is not None and method not in DIALOG_METHODS:
                raise self.dialog_error() from None
            return await self.conn.cdp(
                self.tab_id, method, params, session_id, timeout, result_type=result_type, keep=keep
            )
        finally:
            self._waiting -= waits

    def _sent(self, commands: int) -> bool:
        """Count commands about to be sent; whether someone waits for their answer."""
        self.commands += commands
        if _BACKGROUND.get():
            return False
        if self._waiting == 0:
            self.round_trips += 1
        self._waiting += 1
        return True

    @overload
    async def cdp_batch(
        self,
        commands: list[tuple[str, dict[str, Any]]],
        session_id: str | None = None,
        *,
        gates: Mapping[int, Gate] | None = None,
        args: Mapping[int, ArgsFrom] | None = None,
    ) -> list[dict[str, Any] | BrowserxError]: ...

    @overload
    async def cdp_batch(
        self,
        commands: list[tuple[str, dict[str, Any]]],
        session_id: str | None = None,
        *,
        result_type: type[T],
        gates: Mapping[int, Gate] | None = None,
        args: Mapping[int, ArgsFrom] | None = None,
    ) -> list[T | BrowserxError]: ...

    async def cdp_batch(
        self,
        commands: list[tuple[str, dict[str, Any]]],
        session_id: str | None = None,
        *,
        result_type: type[Any] = dict,
        gates: Mapping[int, Gate] | None = None,
        args: Mapping[int, ArgsFrom] | None = None,
    ) -> list[Any]:
        """Many commands in one round trip; per-command results (as ``result_type``) or errors.
        The extension issues them in order without waiting between them (input events are handled
        in that order: actions/keyboard.py's dispatch_in_order relies on it), except those in
        ``gates``, each held until the command it names said go, and those in ``args``, held until
        the commands they take objects from answered."""
        if self.crashed:
            raise self.crashed_error()
        await self.ensure_attached()
        if self.dialog is not None:
            raise self.dialog_error()
        waits = self._sent(len(commands))

        async def send() -> list[Any]:
            return await self.conn.cdp_batch(
                self.tab_id, commands, session_id, result_type=result_type, gates=gates, args=args
            )

        try:
            try:
                answers = await send()
            except DebuggerDetached:
                if session_id:
                    raise
            else:
                if session_id or not detached_before(answers):
                    return answers
            # The debugger was let go before the batch (the person closed Chrome's debugging bar,
            # or another tool took the tab): nothing of it ran, so, as cdp does, attach again once.
            self.attached = False
            await self.ensure_attached()
            if self.dialog is not None:
                raise self.dialog_error()
            return await send()
        finally:
            self._waiting -= waits

    def fire_and_forget(self, work: Coroutine[Any, Any, Any]) -> asyncio.Future[Any]:
        """Run ``work`` without waiting for it (releasing handles, disabling a domain): the session
        holds the task until it is done (``close`` cancels what is left), and its outcome is
        ignored (a frame gone meanwhile took its objects with it). Left behind by a control
        request, it starts once the request's answer is written (``ANSWERED``)."""
        task = in_background(once_answered(work))
        task.add_done_callback(lambda _: work.close())  # cancelled before it began: never started
        self._background.add(task)
        task.add_done_callback(self._background_done)
        return task

    def _background_done(self, task: asyncio.Future[Any]) -> None:
        self._background.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved, so asyncio does not log "never retrieved"

    def close(self) -> None:
        """The tab is gone: cancel what still runs for it."""
        for task in list(self._background):
            task.cancel()

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
        elif msg.method == DIALOG_OPENING:
            self.handle_dialog(msg)
        elif msg.method == DIALOG_CLOSED:
            self.dialog = None
        elif self.crashed and not msg.sessionId and msg.method in RECOVERY_EVENTS:
            self.crashed = False  # a new renderer took over
            log.info("recovered_from_crash", tab=self.tab_id)
        if msg.method in PAGE_CHANGING_EVENTS:
            self.frames_changed_at = time.monotonic()
            if msg.method in ("Page.frameNavigated", "DOM.documentUpdated") and not msg.sessionId:
                self.page_readable = None  # another document may have opted out
        for listener in list(self._listeners):
            listener(msg)

    def forget_session(self, session_id: str) -> None:
        """Drop a child session that no longer answers (its detach notice can be lost)."""
        self.sessions.pop(session_id, None)
        self.session_parents.pop(session_id, None)
        for hook in self.on_session_gone:
            hook(session_id)

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

    async def detach(self) -> None:
        """Let go of the tab (Chrome's debugging banner goes); the next command attaches again."""
        if self.attached:
            try:
                await self.conn.request("detach", tabId=self.tab_id)
            except BrowserxError as exc:  # the tab or the extension went away meanwhile
                log.debug("release_detach_failed", tab=self.tab_id, error=exc.message)
        self.handle_detached("idle")

    def handle_crashed(self) -> None:
        """The renderer died. What was set up in it (worlds, watchers, handles) died with it; the
        debugger stays attached with its domains enabled, and they come back with the next
        renderer. Until the tab is reloaded or navigated, only that is served: anything else
        would wait for a page that cannot answer."""
        self.crashed = True
        self.dialog = None  # gone with its renderer
        self.sessions.clear()
        self.session_parents.clear()
        for hook in self.on_page_gone:
            hook("renderer crashed")
        self.conn.fail_tab(self.tab_id, self.crashed_error())
        log.warning("renderer_crashed", tab=self.tab_id)

    def handle_dialog(self, msg: Inbound) -> None:
        """A dialog holds the page: what waits fails now, and all but its answer until it closes;
        unless the person chose to answer its kind automatically: then it is answered at once,
        what waits goes on, and the next action's result says so (``take_answered``)."""
        dialog = opened_dialog(msg.params)
        answer = self.auto_answers.answer_for(dialog, self.page_readable)
        if answer is not None:  # not even a moment of "dialog open": it is answered now
            task = asyncio.ensure_future(answer_quietly(self.conn, self.tab_id, answer))
            self._background.add(task)
            task.add_done_callback(self._background_done)
            return
        self.dialog, self.dialog_inherited = dialog, False
        self.conn.fail_tab(self.tab_id, self.dialog_error(), spare=DIALOG_METHODS)
        log.info("dialog_opened", tab=self.tab_id, type=dialog.type)

    async def _enable_page(self) -> None:
        """Page.enable waits as long as a JavaScript dialog is open, also one opened while browserx
        was not attached: waited for a moment, else left running (its answer says no dialog holds
        the page) and the tab held as by a dialog only the person can answer."""

        async def enable() -> None:
            await self.conn.cdp(self.tab_id, "Page.enable", timeout=DIALOG_ENABLE_TIMEOUT_S)
            if self.dialog_inherited:
                self.dialog, self.dialog_inherited = None, False

        if self.dialog is None:  # (a dialog never seen still costs Page.enable's timeout)
            await self.conn.cdp(self.tab_id, "Page.enable")
            return
        self._background.add(task := asyncio.ensure_future(enable()))
        task.add_done_callback(self._background_done)
        if not (await asyncio.wait({task}, timeout=DIALOG_ENABLE_WAIT_S))[0]:
            self.dialog, self.dialog_inherited = self.dialog or UNKNOWN_DIALOG, True
        elif task.exception() is not None:
            task.result()  # (raises it: the attach failed)

    def dialog_error(self) -> DialogOpen:
        dialog, inherited = self.dialog or UNKNOWN_DIALOG, self.dialog_inherited
        return dialog_error(self.tab_id, dialog, by_person=inherited, readable=self.page_readable)

    def stopped_error(self) -> BrowserxError:  # why nothing in the page answers
        return self.dialog_error() if self.dialog is not None else self.crashed_error()

    def crashed_error(self) -> PageCrashed:
        return PageCrashed(
            f"The page in tab {self.tab_id} crashed (its renderer died). Reload the tab (`reload`) or "
            "navigate it, then take a new snapshot.",
            tab=self.tab_id,
        )

    def handle_detached(self, reason: str | None) -> None:
        # (A dialog stays open when the debugger goes: ``dialog`` is kept, ensure_attached checks.)
        self.attached = False
        self.crashed = False  # a new attachment finds out afresh
        self.sessions.clear()
        self.session_parents.clear()
        for hook in self.on_page_gone:
            hook("debugger detached")
        log.info("detached", tab=self.tab_id, reason=reason)
