"""What browserx refuses to do, whoever asks: URLs it will not open and pages it will not read.
Checked before the tab is touched."""

from __future__ import annotations

import asyncio
import time

import msgspec

from browserx import page_js
from browserx.errors import PAGE_CALL_ERRORS, PageOptedOut
from browserx.page.capture import LATE_FRAME_WINDOW
from browserx.page.worlds import WORLD_NAME
from browserx.relay.cdp_types import (
    CreateIsolatedWorldResult,
    EvaluateResult,
    FrameTree,
    GetFrameTreeResult,
    RemoteObject,
    decode_or_none,
)
from browserx.relay.page_call import Request, answer, eval_request
from browserx.tabs.tab import Tab
from browserx.url_policy import allowed_url

__all__ = ["allowed_url", "check_url", "refuse_opted_out", "refuse_opted_out_frames"]

LATE_FRAME_SETTLE_S = 0.3

OPTED_OUT_JS = page_js.load("browserx.control", "policy_opted_out.js")


def check_url(url: str, allow_file_urls: bool) -> None:
    """Refuse a URL a tab must not be sent to (``allowed_url``), with an error that says why."""
    allowed_url(url, allow_file_urls)


async def refuse_opted_out(tab: Tab) -> None:
    """Raise PageOptedOut when the tab's page says ``data-no-ai`` (read in the main world's
    document, nothing else of it). Before any ID of the page is looked up."""
    # Read leniently: an answer of a shape Chrome never sends is no opt-out (and no error). A page
    # error is PageScriptError: nothing is read of a page whose opt-out could not be read.
    method, params = eval_request(OPTED_OUT_JS)
    reply = decode_or_none(await tab.session.cdp(method, params, result_type=msgspec.Raw), EvaluateResult)
    if _says_opted_out(answer(OPTED_OUT_JS, reply) if reply is not None else None):
        raise PageOptedOut(
            "This page opted out of AI agents (data-no-ai); browserx will not read or act on it. "
            "Ask the user to do this step themselves."
        )


def _says_opted_out(answered: RemoteObject | None) -> bool:
    """Whether an OPTED_OUT_JS evaluation answered yes (no answer, or any other value: no)."""
    return answered is not None and answered.value is True


async def refuse_opted_out_frames(tab: Tab) -> None:
    """For what shows every frame (a screenshot): refuse when any frame's document says
    ``data-no-ai`` — frames of the page's own process (through an isolated world of each) and
    out-of-process ones (their sessions), nested ones included. The main document is
    ``refuse_opted_out``'s."""
    await tab.session.ensure_attached()
    if time.monotonic() - tab.session.attached_at < LATE_FRAME_WINDOW:
        # Out-of-process frames announce themselves just after attaching.
        await asyncio.sleep(LATE_FRAME_SETTLE_S)
    sessions: list[str | None] = [
        None,
        *(sid for sid, t in tab.session.sessions.items() if t.type == "iframe"),
    ]
    for session_id in sessions:
        checks: list[Request] = []
        if session_id is not None:
            checks.append(eval_request(OPTED_OUT_JS))
        try:
            raw_tree = await tab.session.cdp(
                "Page.getFrameTree", session_id=session_id, result_type=msgspec.Raw
            )
        except PAGE_CALL_ERRORS:
            continue  # the frame went away
        # A tree of a shape Chrome never sends has no child frames to check; the session's own
        # document is checked all the same.
        tree = decode_or_none(raw_tree, GetFrameTreeResult)
        for frame_id in _child_frame_ids(tree.frameTree) if tree is not None else []:
            try:
                world = await tab.session.cdp(
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
                reply = await tab.session.cdp(
                    method, params, session_id=session_id, result_type=EvaluateResult
                )
            except PAGE_CALL_ERRORS:  # an answer of a shape Chrome never sends included: no opt-out
                continue
            # A page error is PageScriptError: no picture of a frame whose opt-out could not be read.
            if _says_opted_out(answer(OPTED_OUT_JS, reply)):
                raise PageOptedOut(
                    "A frame of this page opted out of AI agents (data-no-ai): a screenshot would show it, so "
                    "browserx takes none. Take a snapshot (it leaves that frame out), or ask the user."
                )


def _child_frame_ids(node: FrameTree) -> list[str]:
    """The ids of every frame below the root of a Page.getFrameTree node."""
    out: list[str] = []
    stack = list(node.childFrames)
    while stack:
        child = stack.pop()
        out.append(child.frame.id)
        stack.extend(child.childFrames)
    return out
