"""What browserx refuses to do, whoever asks: URLs it will not open and pages it will not read.
Checked before the tab is touched."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from browserx import page_js
from browserx.errors import PAGE_CALL_ERRORS, BadRequest, PageOptedOut
from browserx.snapshot.capture import LATE_FRAME_WINDOW
from browserx.snapshot.worlds import WORLD_NAME
from browserx.tabs.tab import Tab

LATE_FRAME_SETTLE_S = 0.3

# Browser-internal pages: nothing an agent should drive, and chrome.debugger cannot attach there.
INTERNAL_SCHEMES = (
    "chrome:", "chrome-untrusted:", "chrome-search:", "chrome-extension:", "edge:", "brave:", "opera:",
    "vivaldi:", "devtools:", "view-source:",
)  # fmt: skip

OPTED_OUT_JS = page_js.load("browserx.control", "policy_opted_out.js")


def check_url(url: str, allow_file_urls: bool) -> None:
    """Refuse a URL ``navigate`` must not open, with an error that says why."""
    lower = url.strip().lower()
    if lower.startswith("javascript:"):
        raise BadRequest("javascript: URLs are not navigations; use an action on the page instead.")
    if lower.startswith("data:"):
        raise BadRequest("data: URLs cannot be opened as a page (they can smuggle in any content).")
    if lower.startswith(INTERNAL_SCHEMES):
        raise BadRequest(
            f"{url.split(':', 1)[0]}: pages are the browser's own (settings, extensions, devtools); browserx "
            "does not open them. Ask the user to do this step themselves."
        )
    if lower.startswith("file:") and not allow_file_urls:
        raise BadRequest(
            "file:// URLs are off: they would expose the computer's files. The user can allow them with "
            '"allow_file_urls": true in the browserx config file (see `browserx status`).'
        )


async def refuse_opted_out(tab: Tab) -> None:
    """Raise PageOptedOut when the tab's page says ``data-no-ai`` (read in the main world's
    document, nothing else of it). Before any ID of the page is looked up."""
    reply = await tab.session.cdp("Runtime.evaluate", {"expression": OPTED_OUT_JS, "returnByValue": True})
    if _says_opted_out(reply):
        raise PageOptedOut(
            "This page opted out of AI agents (data-no-ai); browserx will not read or act on it. "
            "Ask the user to do this step themselves."
        )


def _says_opted_out(reply: dict[str, Any]) -> bool:
    """Whether an OPTED_OUT_JS evaluation answered yes (any other shape: no)."""
    result = reply.get("result")
    return isinstance(result, dict) and result.get("value") is True


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
        checks: list[dict[str, Any]] = []
        if session_id is not None:
            checks.append({"expression": OPTED_OUT_JS, "returnByValue": True})
        try:
            tree = await tab.session.cdp("Page.getFrameTree", session_id=session_id)
        except PAGE_CALL_ERRORS:
            continue  # the frame went away
        for frame_id in _child_frame_ids(tree.get("frameTree")):
            try:
                world = await tab.session.cdp(
                    "Page.createIsolatedWorld",
                    {"frameId": frame_id, "worldName": WORLD_NAME},
                    session_id=session_id,
                )
            except PAGE_CALL_ERRORS:
                continue  # out of this process: its own session is checked
            context = world["executionContextId"]
            checks.append({"expression": OPTED_OUT_JS, "returnByValue": True, "contextId": context})
        for params in checks:
            try:
                reply = await tab.session.cdp("Runtime.evaluate", params, session_id=session_id)
            except PAGE_CALL_ERRORS:
                continue
            if _says_opted_out(reply):
                raise PageOptedOut(
                    "A frame of this page opted out of AI agents (data-no-ai): a screenshot would show it, so "
                    "browserx takes none. Take a snapshot (it leaves that frame out), or ask the user."
                )


def _child_frame_ids(node: Any) -> list[str]:
    """The ids of every frame below the root of a Page.getFrameTree node."""
    out: list[str] = []
    stack = list(node.get("childFrames") or []) if isinstance(node, dict) else []
    while stack:
        child = stack.pop()
        if not isinstance(child, dict):
            continue
        frame = child.get("frame")
        frame_id = frame.get("id") if isinstance(frame, dict) else None
        if isinstance(frame_id, str):
            out.append(frame_id)
        stack.extend(child.get("childFrames") or [])
    return out
