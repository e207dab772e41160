"""TabSession (relay/session.py) on its own: attaching, re-attaching once after the debugger was
detached, a crashed renderer, child sessions and their frame labels, the hooks the layers above
clear their state on, and the tasks it runs without waiting. Over a fake connection
(tests/fakes.py); tests/tabs/test_registry.py drives it through the registry."""

from __future__ import annotations

import asyncio
import gc
import warnings
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any, TypeVar

import pytest
from tests.fakes import Answer, FakeConnection

from browserx.errors import CdpError, DebuggerDetached, DialogOpen, PageCrashed, PageOffLimits, TabClosed
from browserx.relay.dialogs import DIALOG_METHODS
from browserx.relay.protocol import Inbound
from browserx.relay.session import ANSWERED, RECOVERY_EVENTS, RECOVERY_METHODS, TabSession

T = TypeVar("T")


def run(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    return asyncio.run(asyncio.wait_for(make(), 2))


def session_over(answer: Answer | None = None) -> tuple[TabSession, FakeConnection]:
    conn = FakeConnection(answer)
    return TabSession(7, conn), conn  # type: ignore[arg-type]


def event(session: TabSession, method: str, params: bytes = b"{}", session_id: str | None = None) -> None:
    session.handle_event(Inbound(type="event", tabId=7, sessionId=session_id, method=method,
                                 params=params))  # type: ignore[arg-type]  # fmt: skip


def attached_to(session_id: str, target: str = "T", kind: str = "iframe") -> bytes:
    return (
        f'{{"sessionId": "{session_id}", "targetInfo": {{"targetId": "{target}", "type": "{kind}", '
        f'"url": "https://{target}.test/"}}}}'
    ).encode()


def detached_from(session_id: str) -> bytes:
    return f'{{"sessionId": "{session_id}"}}'.encode()


# -- attaching ---------------------------------------------------------------------------------


def test_the_first_command_attaches_then_enables_page_events_then_runs() -> None:
    session, conn = session_over(lambda method, params, sid: {"result": {"value": method}})
    attachments: list[bool] = []
    session.on_attached.append(lambda: attachments.append(session.attached))

    async def go() -> None:
        assert await session.cdp("Runtime.evaluate", {"expression": "1"}) == {
            "result": {"value": "Runtime.evaluate"}
        }
        await session.cdp("Runtime.evaluate", {"expression": "2"})
        await session.cdp_batch([("DOM.describeNode", {})])

    run(go)
    assert conn.calls == [("attach", None), ("Page.enable", None), ("Runtime.evaluate", None),
                          ("Runtime.evaluate", None)]  # fmt: skip
    assert session.attached and session.attached_at > 0
    assert attachments == [True]  # once, after the attach and before anything else is sent


def test_a_browser_page_refuses_the_debugger_with_a_clear_error() -> None:
    session, conn = session_over()
    conn.refused["attach"] = CdpError("Cannot access a chrome:// URL")
    with pytest.raises(PageOffLimits, match="chrome://") as info:
        run(lambda: session.cdp("Runtime.evaluate"))
    assert info.value.details == {"tab": 7}
    assert not session.attached
    assert conn.calls == [("attach", None)]  # nothing sent to a tab that is not attached


def test_other_attach_failures_come_through_as_they_are() -> None:
    session, conn = session_over()
    conn.refused["attach"] = TabClosed("the tab is gone")
    with pytest.raises(TabClosed):
        run(lambda: session.cdp("Runtime.evaluate"))
    conn.refused["attach"] = CdpError("Another debugger is already attached")
    with pytest.raises(CdpError, match="Another debugger"):
        run(lambda: session.cdp("Runtime.evaluate"))
    assert not session.attached


def detached_once(method: str) -> Answer:
    """A page whose debugger was detached (the user pressed Cancel) before ``method`` first ran."""
    seen: list[str] = []

    def answer(m: str, params: dict[str, Any], sid: str | None) -> Any:
        if m == method and method not in seen:
            seen.append(m)
            raise DebuggerDetached("Debugger is not attached to the tab")
        return {"ok": m}

    return answer


def test_a_detached_debugger_is_attached_again_once_and_the_command_retried() -> None:
    session, conn = session_over(detached_once("Runtime.evaluate"))
    attaches: list[float] = []
    session.on_attached.append(lambda: attaches.append(session.attached_at))
    assert run(lambda: session.cdp("Runtime.evaluate")) == {"ok": "Runtime.evaluate"}
    assert conn.calls == [("attach", None), ("Page.enable", None), ("Runtime.evaluate", None),
                          ("attach", None), ("Page.enable", None), ("Runtime.evaluate", None)]  # fmt: skip
    assert len(attaches) == 2 and session.attached


def test_a_debugger_detached_twice_in_a_row_is_an_error() -> None:
    def answer(method: str, params: dict[str, Any], sid: str | None) -> Any:
        if method == "Runtime.evaluate":
            raise DebuggerDetached("Debugger is not attached to the tab")
        return {}

    session, conn = session_over(answer)
    with pytest.raises(DebuggerDetached):
        run(lambda: session.cdp("Runtime.evaluate"))
    assert [m for m, _ in conn.calls].count("attach") == 2  # one retry, not a loop


def test_a_child_sessions_detach_is_not_retried_on_the_tab() -> None:
    session, conn = session_over(detached_once("Runtime.evaluate"))
    with pytest.raises(DebuggerDetached):
        run(lambda: session.cdp("Runtime.evaluate", session_id="S1"))
    assert conn.calls == [("attach", None), ("Page.enable", None), ("Runtime.evaluate", "S1")]


def test_detach_lets_go_and_tells_the_layers_above() -> None:
    session, conn = session_over()
    gone: list[str] = []
    session.on_page_gone.append(gone.append)
    run(session.ensure_attached)
    event(session, "Target.attachedToTarget", attached_to("S1"))
    run(session.detach)
    assert conn.calls[-1] == ("detach", None)
    assert not session.attached and session.sessions == {} and session.session_parents == {}
    assert gone == ["debugger detached"]
    run(session.detach)  # not attached: nothing is sent
    assert [m for m, _ in conn.calls].count("detach") == 1


def test_detach_of_a_tab_that_went_away_meanwhile_still_marks_it_detached() -> None:
    session, conn = session_over()
    run(session.ensure_attached)
    conn.refused["detach"] = TabClosed("No tab with given id")
    run(session.detach)
    assert not session.attached


# -- a crashed renderer ------------------------------------------------------------------------


def crashed_session() -> tuple[TabSession, FakeConnection, list[str]]:
    session, conn = session_over()
    gone: list[str] = []
    session.on_page_gone.append(gone.append)
    run(session.ensure_attached)
    event(session, "Target.attachedToTarget", attached_to("S1"))
    event(session, "Inspector.targetCrashed")
    return session, conn, gone


def test_a_crash_fails_what_waits_and_tells_the_layers_above() -> None:
    session, conn, gone = crashed_session()
    assert session.crashed
    assert gone == ["renderer crashed"]
    assert session.sessions == {} and session.session_parents == {}
    assert [type(e) for e in conn.failed] == [PageCrashed]
    assert session.attached  # the debugger stays: its domains come back with the next renderer


def test_a_crashed_tab_refuses_everything_but_what_brings_a_new_renderer() -> None:
    session, conn, _ = crashed_session()
    sent = len(conn.calls)
    for method in (
        "Runtime.evaluate",
        "DOM.getDocument",
        "Page.captureScreenshot",
        "Input.dispatchMouseEvent",
    ):
        with pytest.raises(PageCrashed, match="Reload"):
            run(partial(session.cdp, method))
    with pytest.raises(PageCrashed):
        run(lambda: session.cdp_batch([("DOM.describeNode", {})]))
    assert len(conn.calls) == sent  # nothing went to the dead renderer
    for method in sorted(RECOVERY_METHODS):
        run(partial(session.cdp, method))
    assert [m for m, _ in conn.calls[sent:]] == sorted(RECOVERY_METHODS)
    assert session.crashed  # until the new renderer says it is there


@pytest.mark.parametrize("method", sorted(RECOVERY_EVENTS))
def test_a_new_renderer_ends_the_crash(method: str) -> None:
    session, conn, _ = crashed_session()
    event(session, method, b'{"frame": {"id": "F", "url": "http://x/"}}')
    assert not session.crashed
    run(lambda: session.cdp("Runtime.evaluate"))
    assert conn.calls[-1] == ("Runtime.evaluate", None)


@pytest.mark.parametrize("method", sorted(RECOVERY_EVENTS))
def test_a_child_frames_events_neither_crash_nor_recover_the_tab(method: str) -> None:
    session, _ = session_over()
    event(session, "Inspector.targetCrashed", session_id="S1")  # an out-of-process frame's renderer
    assert not session.crashed
    session, _, _ = crashed_session()
    event(session, method, b'{"frame": {"id": "F1", "url": "http://x/"}}', session_id="S1")
    assert session.crashed


def test_a_detach_after_a_crash_starts_afresh() -> None:
    session, _, _ = crashed_session()
    session.handle_detached("target_closed")
    assert not session.crashed and not session.attached


# -- child sessions and frame labels -----------------------------------------------------------


def test_child_sessions_are_tracked_with_the_session_they_were_attached_through() -> None:
    session, _ = session_over()
    gone: list[str] = []
    session.on_session_gone.append(gone.append)
    event(session, "Target.attachedToTarget", attached_to("S1", "T1"))
    event(session, "Target.attachedToTarget", attached_to("S2", "T2"), session_id="S1")  # nested
    event(session, "Target.attachedToTarget", attached_to("W1", "W", kind="worker"))
    assert list(session.sessions) == ["S1", "S2", "W1"]
    assert session.sessions["S2"].targetId == "T2" and session.sessions["S2"].url == "https://T2.test/"
    assert session.sessions["W1"].type == "worker"
    assert session.session_parents == {"S1": None, "S2": "S1", "W1": None}
    event(session, "Target.detachedFromTarget", detached_from("S1"))
    assert list(session.sessions) == ["S2", "W1"] and "S1" not in session.session_parents
    assert gone == ["S1"]
    session.forget_session("S2")  # a session that stopped answering (its detach notice was lost)
    assert list(session.sessions) == ["W1"] and gone == ["S1", "S2"]


def test_page_changing_events_mark_when_frames_last_changed() -> None:
    session, _ = session_over()
    assert session.frames_changed_at == 0.0
    event(session, "Page.loadEventFired")
    assert session.frames_changed_at == 0.0
    event(session, "Target.attachedToTarget", attached_to("S1"))
    first = session.frames_changed_at
    assert first > 0
    event(session, "Page.frameNavigated", b'{"frame": {"id": "F"}}')
    assert session.frames_changed_at >= first


def test_listeners_hear_events_after_the_session_took_note_and_can_be_removed() -> None:
    session, _ = session_over()
    heard: list[tuple[str | None, list[str]]] = []
    remove = session.add_listener(lambda msg: heard.append((msg.method, list(session.sessions))))
    event(session, "Target.attachedToTarget", attached_to("S1"))
    event(session, "Target.detachedFromTarget", detached_from("S1"))
    assert heard == [("Target.attachedToTarget", ["S1"]), ("Target.detachedFromTarget", [])]
    remove()
    remove()  # twice is harmless
    event(session, "Page.loadEventFired")
    assert len(heard) == 2


def test_a_malformed_target_event_is_a_cdp_error_not_a_crash() -> None:
    session, _ = session_over()
    with pytest.raises(CdpError):
        event(session, "Target.attachedToTarget", b'{"sessionId": 5}')
    assert session.sessions == {}


def test_frame_labels_are_short_stable_and_never_reused() -> None:
    session, _ = session_over()
    assert session.frame_label("S1") == "f1"
    assert session.frame_label("S2") == "f2"
    assert session.frame_label("S1") == "f1"  # stable while the tab lives
    event(session, "Target.attachedToTarget", attached_to("S1"))
    event(session, "Target.detachedFromTarget", detached_from("S1"))
    session.handle_detached("canceled_by_user")
    assert session.frame_label("S3") == "f3"  # f1 is never given to another session
    assert session.frame_label("S1") == "f1"
    assert [session.session_of(label) for label in ("m", "f1", "f2", "f3", "f9")] == [
        None,
        "S1",
        "S2",
        "S3",
        None,
    ]


# -- tasks run without waiting -----------------------------------------------------------------


def test_housekeeping_left_by_a_request_starts_once_its_answer_is_written() -> None:
    """Under a control request (control/server.py sets ANSWERED), a fire-and-forget task waits for
    the answer; one cancelled before that never starts (and leaves no "never awaited" warning)."""

    async def go() -> None:
        session, _ = session_over()
        answered = asyncio.Event()
        ANSWERED.set(answered)
        started: list[str] = []

        async def work(name: str) -> None:
            started.append(name)

        session.fire_and_forget(work("key-up"))
        for _ in range(3):
            await asyncio.sleep(0)
        assert started == []  # the answer is not written yet
        answered.set()
        for _ in range(3):
            await asyncio.sleep(0)
        assert started == ["key-up"]
        held = asyncio.Event()
        ANSWERED.set(held)
        cancelled = session.fire_and_forget(work("never"))
        session.close()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
        assert started == ["key-up"]

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a coroutine never awaited would warn
        run(go)


def test_fire_and_forget_holds_its_tasks_until_done_and_close_cancels_the_rest() -> None:
    async def go() -> None:
        session, _ = session_over()
        problems: list[dict[str, Any]] = []
        asyncio.get_running_loop().set_exception_handler(lambda loop, context: problems.append(context))
        never = asyncio.Event()

        async def hangs() -> None:
            await never.wait()

        async def fails() -> None:
            raise CdpError("No frame with given id found")

        async def works() -> int:
            return 1

        waiting = session.fire_and_forget(hangs())
        failing = session.fire_and_forget(fails())
        done = session.fire_and_forget(works())
        assert session._background == {waiting, failing, done}  # held: not collected mid-flight
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert session._background == {waiting}
        assert done.result() == 1
        del failing
        gc.collect()  # a failed task nobody awaited is not reported as "never retrieved"
        assert problems == []
        session.close()
        for _ in range(2):  # the cancellation lands, then its done-callback runs
            await asyncio.sleep(0)
        assert waiting.cancelled() and session._background == set()

    run(go)


def test_a_batch_that_found_the_debugger_gone_attaches_again_once_and_runs() -> None:
    """As ``cdp`` does: the first command failed because the debugger was let go (the person closed
    Chrome's debugging bar), so none ran; the batch goes again on a new attachment."""
    gone = [False]

    def answer(method: str, params: dict[str, Any], sid: str | None) -> Any:
        if method.startswith("Input.") and gone[0]:
            return DebuggerDetached("Debugger is not attached to the tab")
        return {"ok": method}

    session, conn = session_over(answer)
    session.on_attached.append(lambda: gone.__setitem__(0, False))
    run(lambda: session.cdp("Runtime.evaluate"))  # attached
    gone[0] = True  # the person closed the debugging bar
    events = [("Input.dispatchKeyEvent", {"type": "keyDown"}), ("Input.dispatchKeyEvent", {"type": "keyUp"})]
    answers = run(lambda: session.cdp_batch(events))
    assert answers == [{"ok": "Input.dispatchKeyEvent"}] * 2
    assert [m for m, _ in conn.calls].count("attach") == 2


def test_a_batch_the_debugger_left_midway_is_not_sent_again() -> None:
    """A command ran before the debugger went: sending the batch again would do it twice."""

    sent: list[str] = []

    def answer(method: str, params: dict[str, Any], sid: str | None) -> Any:
        sent.append(params.get("type", method))
        if params.get("type") == "keyUp":
            return DebuggerDetached("Debugger is not attached to the tab")
        return {"ok": method}

    session, conn = session_over(answer)
    events = [("Input.dispatchKeyEvent", {"type": "keyDown"}), ("Input.dispatchKeyEvent", {"type": "keyUp"})]
    answers = run(lambda: session.cdp_batch(events))
    assert answers[0] == {"ok": "Input.dispatchKeyEvent"} and isinstance(answers[1], DebuggerDetached)
    assert [m for m, _ in conn.calls].count("attach") == 1
    assert sent.count("keyDown") == 1


# -- JavaScript dialogs ------------------------------------------------------------------------

DIALOG = b'{"type": "confirm", "message": "Delete\\n[3] button OK?", "defaultPrompt": "", "url": "https://a.test/"}'


def test_a_dialog_fails_what_waits_and_refuses_all_but_its_answer_until_it_closes() -> None:
    session, conn = session_over()
    run(session.ensure_attached)
    session.page_readable = True  # (what page/opt_out.py says of a page that did not opt out)
    event(session, "Page.javascriptDialogOpening", DIALOG)
    assert [type(e) for e in conn.failed] == [DialogOpen]
    error = conn.failed[0]
    assert error.details["dialog"] == {"type": "confirm", "message": "Delete\n[3] button OK?"}
    assert '"Delete\\n[3] button OK?"' in error.message and "\n" not in error.message  # quoted page text
    sent = len(conn.calls)
    for method in ("Runtime.evaluate", "Page.captureScreenshot", "Input.dispatchKeyEvent", "Page.navigate"):
        with pytest.raises(DialogOpen):
            run(partial(session.cdp, method))
    with pytest.raises(DialogOpen):
        run(lambda: session.cdp_batch([("DOM.describeNode", {})]))
    assert len(conn.calls) == sent  # nothing waits on the page the dialog holds
    for method in sorted(DIALOG_METHODS):
        run(partial(session.cdp, method))
    event(session, "Page.javascriptDialogClosed", b'{"result": true, "userInput": ""}')
    run(partial(session.cdp, "Runtime.evaluate"))
    assert [m for m, _ in conn.calls[sent:]] == [*sorted(DIALOG_METHODS), "Runtime.evaluate"]


def test_a_dialog_of_an_unexpected_shape_still_holds_the_tab() -> None:
    session, _ = session_over()
    run(session.ensure_attached)
    event(session, "Page.javascriptDialogOpening", b'{"message": 5}')
    with pytest.raises(DialogOpen, match="JavaScript dialog"):
        run(partial(session.cdp, "Runtime.evaluate"))


def test_a_dialog_open_when_the_tab_was_let_go_is_still_known_after_attaching_again() -> None:
    """Page.enable waits while a dialog is open: attaching waits a moment for it, then goes on
    refusing with the dialog's words; its late answer says the dialog is gone."""
    enabled = asyncio.Event()

    async def slow_enable(method: str, params: Any, sid: str | None) -> Any:
        if method == "Page.enable" and session.dialog is not None:
            await enabled.wait()
        return {}

    session, _ = session_over(slow_enable)

    async def go() -> None:
        await session.ensure_attached()
        event(session, "Page.javascriptDialogOpening", DIALOG)
        session.handle_detached("idle")
        started = asyncio.get_running_loop().time()
        with pytest.raises(DialogOpen):
            await session.cdp("Runtime.evaluate")
        assert asyncio.get_running_loop().time() - started < 3.5  # not Page.enable's 30 s
        enabled.set()  # the person answered it meanwhile
        await asyncio.sleep(0.05)
        assert session.dialog is None
        await session.cdp("Runtime.evaluate")

    asyncio.run(asyncio.wait_for(go(), 6))


def test_a_crash_takes_the_dialog_with_it() -> None:
    session, _ = session_over()
    run(session.ensure_attached)
    event(session, "Page.javascriptDialogOpening", DIALOG)
    event(session, "Inspector.targetCrashed")
    with pytest.raises(PageCrashed):
        run(partial(session.cdp, "Runtime.evaluate"))


@pytest.mark.parametrize("readable", [False, None])
def test_the_message_of_a_dialog_on_a_page_not_known_readable_is_not_shown(readable: bool | None) -> None:
    """An opted-out page's words stay out of every answer, its dialog's too."""
    session, conn = session_over()
    run(session.ensure_attached)
    session.page_readable = readable
    event(session, "Page.javascriptDialogOpening", DIALOG)
    error = conn.failed[0]
    assert "Delete" not in error.message and "Delete" not in str(error.details)
    assert error.details["dialog"] == {"type": "confirm"}
