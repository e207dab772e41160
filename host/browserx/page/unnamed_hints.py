"""Hints for the controls a snapshot found without an accessible name: what each one's markup
says it is (page/unnamed_hints.js reads it, snapshot/unnamed.py turns it into words), asked in one
call per frame that has any, beside the occlusion check. Read afresh at every snapshot, as names
are: a page may change an icon between two. Best effort: a control whose markup could not be read
has no hint, and the snapshot is whole without it."""

from __future__ import annotations

import asyncio

import msgspec
import structlog

from browserx import page_js
from browserx.errors import PAGE_CALL_ERRORS, PageScriptError
from browserx.page.capture_state import CaptureState
from browserx.page.page_call import page_call
from browserx.snapshot.frames import FrameCapture
from browserx.snapshot.model import Node
from browserx.snapshot.unnamed import hint_of

log = structlog.get_logger("browserx.unnamed_hints")

HINTS_JS = page_js.load("browserx.page", "unnamed_hints.js")
UNREAD: tuple[type[Exception], ...] = (*PAGE_CALL_ERRORS, PageScriptError, msgspec.DecodeError)


async def read_hints(state: CaptureState, frames: list[FrameCapture], nodes: list[Node]) -> dict[int, str]:
    """The hint of each node that has one, by node index."""
    by_frame: dict[str, list[Node]] = {}
    for node in nodes:
        by_frame.setdefault(node.ref.frame, []).append(node)
    frame_by_label = {f.label: f for f in frames}
    hints: dict[int, str] = {}
    for part in await asyncio.gather(
        *(_read(state, frame_by_label[label], group) for label, group in by_frame.items())
    ):
        hints.update(part)
    return hints


async def _read(state: CaptureState, frame: FrameCapture, nodes: list[Node]) -> dict[int, str]:
    try:
        value = await page_call(
            state.session,
            HINTS_JS,
            [n.ref.key for n in nodes],
            world=frame.context_id,
            session_id=frame.session_id,
        )
        says = msgspec.json.decode(value or "[]")
    except UNREAD as exc:  # (a page error is logged by page_call too)
        log.info("unnamed_hints_unread", frame=frame.label, error=str(exc))
        return {}
    out: dict[int, str] = {}
    for node, said in zip(nodes, says if isinstance(says, list) else [], strict=False):
        hint = hint_of(said) if isinstance(said, list) else ""
        if hint:
            out[node.index] = hint
    return out


__all__ = ["HINTS_JS", "read_hints"]
