"""The page's opt-out (``data-no-ai`` on ``<html>`` or ``<body>``), read in the page: of the
top document (its main world, nothing else of it) or of every frame (an isolated world of each
frame of the page's process, the sessions of out-of-process ones). What is refused because of it
is control/policy.py's."""

from __future__ import annotations

import asyncio
import time

import msgspec

from browserx import page_js
from browserx.errors import PAGE_CALL_ERRORS
from browserx.page.capture import LATE_FRAME_WINDOW
from browserx.page.page_call import Request, answer, eval_request
from browserx.page.worlds import WORLD_NAME
from browserx.relay.cdp_types import (
    CreateIsolatedWorldResult,
    EvaluateResult,
    FrameTree,
    GetFrameTreeResult,
    RemoteObject,
    decode_or_none,
)
from browserx.relay.session import TabSession

LATE_FRAME_SETTLE_S = 0.3

OPTED_OUT_JS = page_js.page_world("browserx.page", "opt_out.js")


async def page_opted_out(session: TabSession) -> bool:
    """Whether the tab's page says ``data-no-ai`` (read in the main world's document)."""
    # Read leniently: an answer of a shape Chrome never sends is no opt-out (and no error). A page
    # error is PageScriptError: nothing is read of a page whose opt-out could not be read.
    method, params = eval_request(OPTED_OUT_JS)
    reply = decode_or_none(await session.cdp(method, params, result_type=msgspec.Raw), EvaluateResult)
    opted_out = _says_opted_out(answer(OPTED_OUT_JS, reply) if reply is not None else None)
    session.page_readable = not opted_out  # (what a dialog's answers may quote: relay/dialogs.py)
    return opted_out


def _says_opted_out(answered: RemoteObject | None) -> bool:
    """Whether an OPTED_OUT_JS evaluation answered yes (no answer, or any other value: no)."""
    return answered is not None and answered.value is True


async def a_frame_opted_out(session: TabSession) -> bool:
    """Whether any frame's document says ``data-no-ai`` — frames of the page's own process
    (through an isolated world of each) and out-of-process ones (their sessions), nested ones
    included. The main document is ``page_opted_out``'s."""
    await session.ensure_attached()
    if time.monotonic() - session.attached_at < LATE_FRAME_WINDOW:
        # Out-of-process frames announce themselves just after attaching.
        await asyncio.sleep(LATE_FRAME_SETTLE_S)
    sessions: list[str | None] = [
        None,
        *(sid for sid, t in session.sessions.items() if t.type == "iframe"),
    ]
    for session_id in sessions:
        checks: list[Request] = []
        if session_id is not None:
            checks.append(eval_request(OPTED_OUT_JS))
        try:
            raw_tree = await session.cdp("Page.getFrameTree", session_id=session_id, result_type=msgspec.Raw)
        except PAGE_CALL_ERRORS:
            continue  # the frame went away
        # A tree of a shape Chrome never sends has no child frames to check; the session's own
        # document is checked all the same.
        tree = decode_or_none(raw_tree, GetFrameTreeResult)
        for frame_id in _child_frame_ids(tree.frameTree) if tree is not None else []:
            try:
                world = await session.cdp(
                    "Page.createIsolatedWorld",
                    {"frameId": frame_id, "worldName": WORLD_NAME},
                    session_id=session_id,
                    result_type=CreateIsolatedWorldResult,
                )
            except PAGE_CALL_ERRORS:
                continue  # out of this process: its own session is checked
            context = world.executionContextId
            checks.append(eval_request(OPTED_OUT_JS, world=context))
        for method, params in checks:
            try:
                reply = await session.cdp(method, params, session_id=session_id, result_type=EvaluateResult)
            except PAGE_CALL_ERRORS:  # an answer of a shape Chrome never sends included: no opt-out
                continue
            # A page error is PageScriptError: no picture of a frame whose opt-out could not be read.
            if _says_opted_out(answer(OPTED_OUT_JS, reply)):
                return True
    return False


def _child_frame_ids(node: FrameTree) -> list[str]:
    """The ids of every frame below the root of a Page.getFrameTree node."""
    out: list[str] = []
    stack = list(node.childFrames)
    while stack:
        child = stack.pop()
        out.append(child.frame.id)
        stack.extend(child.childFrames)
    return out
