"""Capture: every frame of a tab collected in parallel, each in browserx's isolated world
(page/collector.py), with what page JavaScript cannot see gathered through CDP beside it:
click listeners (page/listeners.py), closed shadow roots (page/closed_roots.py), and
which ``<iframe>`` element owns each out-of-process frame. Child sessions are captured with the
main frame, again when the main frame had to settle first, and as late frames announce
themselves.

Round trips per frame: one burst, answered together (the framework probe, the isolated world,
the call that settles (snapshot/stability.py), collects and hit-tests, and the click-listener
listing through a document handle kept from the last capture), plus one round trip to look up the
listening nodes not seen before, and a few calls only for suspected closed shadow hosts and for
OOPIF owners not seen before.
The first capture of a document asks for the handle with the probe, and sends the collector's
source, which later calls find installed in the world.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Coroutine
from typing import Any, Protocol, TypeVar

import structlog

from browserx import page_js
from browserx.errors import PAGE_CALL_ERRORS, BrowserxError, CdpError, FrameGone, PageOptedOut
from browserx.page.capture_state import CaptureState
from browserx.page.closed_roots import collect_closed_roots
from browserx.page.collector import collect_document
from browserx.page.framework import install_probe
from browserx.page.internals import apply_internal_roles, internal_roles
from browserx.page.listeners import (
    SMALL_DOCUMENT,
    heavy_listing,
    listener_keys,
    listening_nodes,
    listing_afresh,
    none_listening,
)
from browserx.page.page_call import page_call
from browserx.relay.cdp_types import GetFrameOwnerResult, ResolveNodeResult
from browserx.snapshot.frames import MAX_PAGE_NODES, FrameCapture, RawFrame
from browserx.snapshot.stability import SettleOptions, waited_ms

log = structlog.get_logger("browserx.capture")
T = TypeVar("T")

EXTRAS_TIMEOUT = 10.0
CHILD_FRAME_TIMEOUT = 10.0
LATE_FRAME_WINDOW = 3.0  # seconds after attaching during which frames may still be announcing
LATE_FRAME_WAIT = 1.0
MAX_FRAME_DEPTH = 4
RECAPTURE_AFTER_MS = 50.0  # the main frame waited this long to settle: its children are taken again
KEY_OF_THIS = page_js.load("browserx.page", "key_of_this.js")


async def _capture_frame(
    state: CaptureState,
    label: str,
    session_id: str | None,
    opts: dict[str, Any],
    settle: SettleOptions | None,
) -> FrameCapture:
    """One frame's capture. Everything goes out at once where it can: the framework probe first
    (the renderer runs commands in order, so it is in place when the collector asks it:
    page/framework.py), then the click-listener listing through the document handle kept from an
    earlier capture of the same document, then the collector (the listing is the larger answer:
    its way through the relay overlaps the collect). Without a handle, the probe answers with one
    and the listing follows it (one round trip, overlapping the collect)."""
    t0 = time.perf_counter()
    problems: list[str] = []
    world = state.worlds.get(session_id)
    cached = state.doc_handles.get(session_id)
    handle = cached[1] if cached is not None and world is not None and cached[0] == world else None
    count = state.element_counts.get(session_id)
    heavy = session_id in state.listener_heavy and count is not None and count <= SMALL_DOCUMENT
    probing = asyncio.ensure_future(install_probe(state, session_id, handle=handle is None and not heavy))
    listing: asyncio.Future[dict[int, set[str]]] | None = None
    early: asyncio.Future[dict[int, frozenset[str]]] | None = None
    if heavy:
        listing = asyncio.ensure_future(none_listening())  # asked once the collector has answered
    elif handle is not None and world is not None:
        listing = asyncio.ensure_future(listening_nodes(state, session_id, handle))
        # The document is the one the kept handle and world were made in: its listening nodes'
        # keys are asked for as soon as the listing answers, queued behind the collector in the
        # renderer, not two round trips after it (a grid that re-creates its cells has many new).
        early = asyncio.ensure_future(_keys_when_listed(state, session_id, world[1], listing))
    collecting = asyncio.ensure_future(collect_document(state, session_id, opts, settle))
    try:
        probe = await probing
        if listing is None:
            handle = probe.document
            listing = asyncio.ensure_future(
                listening_nodes(state, session_id, handle) if handle else none_listening()
            )
        frame_id, ctx, collected = await collecting
        raw = collected.frame
    except BaseException:
        collecting.cancel()
        for pending in (listing, early):
            if pending is not None:
                pending.cancel()
        raise
    if probe.count is not None:
        state.element_counts[session_id] = probe.count
    if heavy:
        listing = asyncio.ensure_future(heavy_listing(state, session_id, (frame_id, ctx), raw.mutations))
    if handle is not None and not heavy:
        if (frame_id, ctx) != world and cached is not None and handle == cached[1]:
            # The listing went through the handle of a document the frame has since left: ask again.
            listing.cancel()
            listing = asyncio.ensure_future(listing_afresh(state, session_id))
            if early is not None:
                early.cancel()
                early = None
        else:
            state.doc_handles[session_id] = ((frame_id, ctx), handle)
    t1 = time.perf_counter()
    waited = waited_ms(collected.settled) / 1000
    timings = {"collect": t1 - t0 - waited}
    if collected.settled is not None:
        timings["settle"] = waited

    async def listeners_by_key() -> dict[int, frozenset[str]]:
        if early is not None:
            try:
                return await early
            except CdpError:
                pass  # the kept handle went stale: listed afresh below
        try:
            types = await listing
        except CdpError:
            if heavy:
                raise
            types = await listing_afresh(state, session_id)  # the handle went stale
        return await listener_keys(state, session_id, ctx, types) if types else {}

    # Read before the closed roots' collector runs (the renderer runs commands in order): it
    # leaves its own list in the same place.
    internals_task = internal_roles(state, session_id, ctx, raw) if raw.internals else _no_internals()
    closed_task = collect_closed_roots(state, session_id, ctx, opts) if raw.suspects else _none()
    listeners, closed, internals = await asyncio.gather(
        _optional(_timed(listeners_by_key(), timings, "listeners"), {}, "click listeners", problems),
        _optional(_timed(closed_task, timings, "closed_roots"), [], "closed shadow roots", problems),
        _optional(_timed(internals_task, timings, "internals"), {}, "element internals", problems),
    )
    apply_internal_roles(raw, internals)

    capture = FrameCapture(
        label, session_id, frame_id, ctx, raw, closed, listeners, problems=problems, settled=collected.settled,
        listing="dom-snapshot" if heavy else "whole",
    )  # fmt: skip
    capture.timings = {**timings, "extras": time.perf_counter() - t1}
    return capture


async def _keys_when_listed(
    state: CaptureState,
    session_id: str | None,
    ctx: int,
    listing: asyncio.Future[dict[int, set[str]]],
) -> dict[int, frozenset[str]]:
    types = await listing
    return await listener_keys(state, session_id, ctx, types) if types else {}


async def _timed(coro: Awaitable[T], timings: dict[str, float], what: str) -> T:
    start = time.perf_counter()
    try:
        return await coro
    finally:
        timings[what] = time.perf_counter() - start


async def _bounded(coro: Awaitable[int | None]) -> int | None:
    try:
        return await asyncio.wait_for(coro, EXTRAS_TIMEOUT)
    except TimeoutError:
        return None


async def _no_internals() -> dict[int, dict[str, Any]]:
    return {}


async def _none() -> list[tuple[int, RawFrame]]:
    return []


async def _optional(coro: Awaitable[T], fallback: T, what: str, problems: list[str]) -> T:
    """Extras enrich a snapshot; when one fails (page busy, frame gone) the snapshot still comes,
    and says what it is missing."""
    try:
        return await asyncio.wait_for(coro, EXTRAS_TIMEOUT)
    except (BrowserxError, TimeoutError) as exc:
        log.warning("capture_extra_failed", what=what, error=str(exc))
        problems.append(f"{what} unavailable: {exc}")
        return fallback


async def _owner_key(state: CaptureState, parent: FrameCapture, frame_id: str) -> int | None:
    """Key (in the parent frame) of the <iframe> element that hosts an out-of-process frame.
    Remembered per parent document while that element still holds a cross-process frame."""
    cache_key = (parent.session_id, parent.context_id, frame_id)
    known = state.owner_keys.get(cache_key)
    if known is not None and known in parent.raw.frameOwners:
        return known
    try:
        owner = await state.session.cdp(
            "DOM.getFrameOwner",
            {"frameId": frame_id},
            session_id=parent.session_id,
            result_type=GetFrameOwnerResult,
        )
        resolved = await state.session.cdp(
            "DOM.resolveNode",
            {"backendNodeId": owner.backendNodeId, "executionContextId": parent.context_id},
            session_id=parent.session_id,
            result_type=ResolveNodeResult,
        )
        # A page error is PageScriptError: it fails the snapshot, not "a frame without an owner".
        value = await page_call(
            state.session, KEY_OF_THIS, this=resolved.object.objectId, session_id=parent.session_id
        )
    except PAGE_CALL_ERRORS as exc:
        log.warning("frame_owner_unknown", frame=frame_id, error=exc.message)
        return None
    if not value:
        return None
    state.owner_keys[cache_key] = int(value)
    return int(value)


async def _capture_sessions(
    state: CaptureState,
    sessions: list[tuple[str, str | None]],
    opts: dict[str, Any],
    settle: SettleOptions | None,
) -> list[FrameCapture]:
    results = await asyncio.gather(
        *(
            _capture_frame(state, label, sid, opts, settle)
            if sid is None
            else asyncio.wait_for(_capture_frame(state, label, sid, opts, settle), CHILD_FRAME_TIMEOUT)
            for label, sid in sessions
        ),
        return_exceptions=True,
    )
    frames: list[FrameCapture] = []
    for (label, sid), result in zip(sessions, results, strict=True):
        if isinstance(result, BaseException):
            if sid is None or not isinstance(result, BrowserxError | TimeoutError):
                raise result
            # A child frame that went away mid-capture is simply not part of this snapshot.
            log.warning("frame_capture_failed", frame=label, error=str(result))
            if isinstance(result, FrameGone | TimeoutError):
                state.session.forget_session(sid)
            continue
        frames.append(result)
    return frames


def _child_sessions(state: CaptureState, exclude: set[str | None]) -> list[tuple[str, str | None]]:
    return [
        (state.session.frame_label(sid), sid)
        for sid, info in state.session.sessions.items()
        if info.type == "iframe" and sid not in exclude
    ]


async def _await_late_frames(state: CaptureState, frames: list[FrameCapture]) -> None:
    """Out-of-process frames announce themselves a little after they start loading (and right
    after attaching, a little after the first commands run). When the captured documents own more
    cross-process iframes than there are sessions, and frames changed recently, wait briefly for
    the missing ones."""
    if time.monotonic() - max(state.session.attached_at, state.session.frames_changed_at) > LATE_FRAME_WINDOW:
        return
    expected = sum(len(f.raw.frameOwners) for f in frames)
    deadline = time.monotonic() + LATE_FRAME_WAIT
    while time.monotonic() < deadline:
        known = sum(1 for info in state.session.sessions.values() if info.type == "iframe")
        if known >= expected:
            return
        await asyncio.sleep(0.05)


async def _recapture_children(
    state: CaptureState, frames: list[FrameCapture], opts: dict[str, Any], settle: SettleOptions
) -> list[FrameCapture]:
    """The child frames again, after the main frame settled. The events their first call drained
    are kept; a child that does not answer now keeps its first capture."""
    again = {
        f.session_id: f
        for f in await _capture_sessions(state, [(f.label, f.session_id) for f in frames[1:]], opts, settle)
    }
    out = [frames[0]]
    for first in frames[1:]:
        new = again.get(first.session_id)
        if new is None:
            out.append(first)
            continue
        if first.settled and new.settled:
            new.settled["events"] = [*(first.settled.get("events") or []), *(new.settled.get("events") or [])]
        out.append(new)
    return out


class CaptureTab(Protocol):
    """What ``capture_tab`` is, for what stands in for it (page/recording.py wraps it)."""

    def __call__(
        self, state: CaptureState, include_values: bool = False, settle: SettleOptions | None = None
    ) -> Coroutine[Any, Any, list[FrameCapture]]: ...


async def capture_tab(
    state: CaptureState, include_values: bool = False, settle: SettleOptions | None = None
) -> list[FrameCapture]:
    """Capture every frame of the tab (main frame first), after the stability wait and with the
    page events when ``settle`` says so. Raises PageOptedOut for data-no-ai pages."""
    opts = {"values": include_values, "maxNodes": MAX_PAGE_NODES}
    frames = await _capture_sessions(state, [("m", None), *_child_sessions(state, set())], opts, settle)
    if settle is not None and len(frames) > 1 and waited_ms(frames[0].settled) >= RECAPTURE_AFTER_MS:
        # The children were collected while the main frame was still changing.
        frames = await _recapture_children(state, frames, opts, settle)
    for _ in range(MAX_FRAME_DEPTH):
        await _await_late_frames(state, frames)
        late = _child_sessions(state, {f.session_id for f in frames})
        if not late:
            break
        frames += await _capture_sessions(state, late, opts, settle)
    main = frames[0]
    if main.raw.noAi:
        raise PageOptedOut(
            "This page opted out of AI agents (data-no-ai); browserx will not read it. "
            "Ask the user to do this step themselves."
        )
    frames = [f for f in frames if not f.raw.noAi]
    by_session = {f.session_id: f for f in frames}
    owners = []
    for frame in frames[1:]:
        parent_session = state.session.session_parents.get(frame.session_id or "")
        parent = by_session.get(parent_session)
        if parent is not None:
            frame.parent_label = parent.label
            owners.append((frame, _owner_key(state, parent, frame.frame_id)))
    keys = await asyncio.gather(*(_bounded(coro) for _, coro in owners))
    for (frame, _), key in zip(owners, keys, strict=True):
        frame.owner_key = key
    return _reached_frames(frames)


def _reached_frames(frames: list[FrameCapture]) -> list[FrameCapture]:
    """The frames whose <iframe> their parent's walk reached (and the main frame): a frame inside
    an opted-out subtree (data-no-ai on an element around its <iframe>, or on a frame around it)
    is left out with everything it holds — its nodes, its page events."""
    kept = {frames[0].label: frames[0]}
    pending = frames[1:]
    while True:
        more = []
        for frame in pending:
            parent = kept.get(frame.parent_label or "")
            if parent is None:
                continue
            owners = set(parent.raw.frameOwners)
            for _, raw in parent.closed_roots:
                owners.update(raw.frameOwners)
            if frame.owner_key is not None and frame.owner_key in owners:
                kept[frame.label] = frame
                more.append(frame)
        if not more:
            break
        pending = [f for f in pending if f.label not in kept]
    return [f for f in frames if f.label in kept]
