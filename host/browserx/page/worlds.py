"""browserx's isolated world in each session's top document: which execution context it is now
(``isolated_world``), asked for cheaply and trusted for a moment after each answer, and a call
sent into it without waiting for that answer (``call_in_world``). Every page-side call of capture
and of the actions runs in it, out of the page's reach.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from browserx.errors import CdpError
from browserx.page.capture_state import CaptureState
from browserx.relay.cdp_types import CreateIsolatedWorldResult, GetFrameTreeResult

WORLD_NAME = "browserx"
WORLD_TRUSTED_S = 1.0  # how long a checked isolated world is taken as current without asking again
T = TypeVar("T")


async def isolated_world(state: CaptureState, session_id: str | None, fresh: bool = False) -> tuple[str, int]:
    """(frame id, execution context id) of browserx's isolated world in the session's current
    top document. Asked for every time: a cached context id may belong to a document that was
    navigated away from but is still alive (back/forward cache), and acting there would be
    acting on a page the person no longer sees. The browser returns the same context while the
    document lives, so this is one cheap round trip."""
    checked = state.worlds_checked.get(session_id)
    known = state.worlds.get(session_id)
    if (
        not fresh
        and known is not None
        and checked is not None
        and checked > state.session.frames_changed_at
        and time.monotonic() - checked < WORLD_TRUSTED_S
    ):
        # Checked a moment ago, and no navigation since: the steps of one action (or a snapshot
        # right after one) need not ask again.
        return known
    frame_id = state.frame_ids.get(session_id)
    if frame_id is None or fresh:
        tree = await state.session.cdp(
            "Page.getFrameTree", session_id=session_id, result_type=GetFrameTreeResult
        )
        frame_id = state.frame_ids[session_id] = tree.frameTree.frame.id
    try:
        world = await state.session.cdp(
            "Page.createIsolatedWorld",
            {"frameId": frame_id, "worldName": WORLD_NAME},
            session_id=session_id,
            result_type=CreateIsolatedWorldResult,
        )
    except CdpError:
        if fresh:
            raise
        return await isolated_world(state, session_id, fresh=True)  # the frame id changed
    context = (frame_id, world.executionContextId)
    state.worlds_checked[session_id] = time.monotonic()
    # Not a document identity: a new renderer process counts context ids from 1 again. The
    # collector's registry says when the document is new (``CaptureState.document_seen``).
    state.worlds[session_id] = context
    return context


def _ignore_outcome(task: asyncio.Future[Any]) -> None:
    """A call whose answer was dropped: its error (if any) is of no interest either."""
    if not task.cancelled():
        task.exception()


async def call_in_world(
    state: CaptureState, session_id: str | None, call: Callable[[int], Awaitable[T]]
) -> tuple[str, int, T]:
    """(frame id, context id, answer) of ``call(context id)`` in browserx's current world of the
    session's document."""
    for attempt in (0, 1):
        # The call goes out right behind the question which world is current, into the world
        # the frame had: the renderer answers in order, so it waits for no round trip. Should the
        # world be new (the frame navigated), that answer is from a document the frame has left:
        # dropped, and called again in the new one.
        known = state.worlds.get(session_id) if attempt == 0 else None
        asking = asyncio.ensure_future(isolated_world(state, session_id, fresh=attempt == 1))
        early = asyncio.ensure_future(call(known[1])) if known is not None else None
        if early is not None:
            early.add_done_callback(_ignore_outcome)
        try:
            frame_id, ctx = await asking
        except BaseException:
            if early is not None:
                early.cancel()
            raise
        if early is not None and known != (frame_id, ctx):
            early.cancel()
            early = None
        try:
            reply = await (early if early is not None else call(ctx))
        except CdpError as exc:
            # The page navigated since the world was made: its context is gone. Make a new one.
            if attempt == 0 and "context" in exc.message.lower():
                continue
            raise
        return frame_id, ctx, reply
    raise AssertionError("unreachable")
