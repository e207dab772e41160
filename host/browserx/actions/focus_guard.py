"""Keys without an ID go to whatever has focus: before they are sent, the focused element is
looked up (through shadow roots and frames, out-of-process ones included) and a focus inside
something that opted out of AI agents (data-no-ai) is refused: no key reaches it."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from browserx import page_js
from browserx.actions.at_point import child_session
from browserx.errors import ActionError, PageOptedOut
from browserx.page.page_call import page_call
from browserx.page.worlds import isolated_world
from browserx.tabs.snapshots import take_snapshot
from browserx.tabs.tab import Tab

FOCUS_GUARD_JS = page_js.load("browserx.actions", "focus_guard.js")
MAX_FRAME_DEPTH = 8
FRAME_ATTACH_WAIT_S = 1.5
# After a key that moves focus, a page where no element holds it is asked again after these waits:
# focus on its way into an out-of-process frame shows in the page only once that frame took it.
FOCUS_ARRIVES_S = (0.02, 0.04, 0.08, 0.16)


async def refuse_focused_opted_out(tab: Tab, after: bool = False, moved: bool = False) -> None:
    """Raise PageOptedOut when the focused element is inside an opted-out subtree, frame or page.
    ``after`` a key was sent (Tab moves focus): focus found there is taken out of it first;
    ``moved``: the key moves focus, which may still be arriving."""
    session: str | None = None
    snapped = False
    for _ in range(MAX_FRAME_DEPTH):
        _, ctx = await isolated_world(tab.capture, session)
        found = await _focus_in(tab, session, ctx, after)
        if moved and session is None:
            for wait in FOCUS_ARRIVES_S:
                if not found.get("nowhere"):
                    break
                await asyncio.sleep(wait)
                found = await _focus_in(tab, session, ctx, after)
        if found.get("optedOut") and after:
            raise PageOptedOut(
                "The key moved focus into a part of the page that opted out of AI agents (data-no-ai); "
                "browserx took focus out of it again. Focus another element by ID, or ask the user."
            )
        if found.get("optedOut"):
            raise PageOptedOut(
                "The focused element is in a part of the page that opted out of AI agents (data-no-ai); "
                "browserx will not send keys to it. Give the key an element ID, or ask the user."
            )
        if (found.get("closedHost") or found.get("frameOwner") == 0) and not snapped:
            # A snapshot finds the closed shadow roots (and hands them to this world), and gives
            # a frame's <iframe> its key in a world that had no collector yet: ask again.
            snapped = True
            await take_snapshot(tab)
            continue
        if "frameOwner" not in found:
            return
        child = await _frame_session(tab, session, ctx, int(found["frameOwner"]))
        if child is None:
            # Its opt-out cannot be read, so no key goes there (fail closed).
            raise ActionError(
                "Focus is in a frame of another site that browserx cannot reach, so it cannot tell "
                "whether that frame allows AI agents; no key was sent. Take a snapshot and give the key "
                "an element ID."
            )
        session = child


async def _focus_in(tab: Tab, session: str | None, ctx: int, after: bool) -> dict[str, Any]:
    """Where focus is in the session's top document (focus_guard.js)."""
    # A page error is PageScriptError: no key is sent to a focus that could not be checked.
    return await page_call(tab.session, FOCUS_GUARD_JS, after, world=ctx, session_id=session) or {}


async def _frame_session(tab: Tab, parent: str | None, ctx: int, owner_key: int) -> str | None:
    """The session of the out-of-process frame focus is in; one that is just starting (its session
    not attached yet, as on a busy machine) gets FRAME_ATTACH_WAIT_S to announce itself."""
    deadline = time.monotonic() + FRAME_ATTACH_WAIT_S
    while True:
        child = await child_session(tab, parent, ctx, owner_key)
        if child is not None or time.monotonic() >= deadline:
            return child
        await asyncio.sleep(0.1)


__all__ = ["refuse_focused_opted_out"]
