"""Taking a snapshot of a tab: capture the page (page/capture.py) while the tab's previous
snapshots are torn down, build it (snapshot/pipeline.py) with the tab's ID allocator, and
hit-test in the page what the collector did not (page/occlusion.py)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import structlog

from browserx.errors import BrowserxError, clip
from browserx.heap import paused_gc
from browserx.page.capture import CaptureTab, capture_tab
from browserx.page.occlusion import hit_test
from browserx.page.unnamed_hints import read_hints
from browserx.relay.protocol import Inbound
from browserx.snapshot.classify import is_interactive
from browserx.snapshot.frames import KEY_BITS
from browserx.snapshot.pipeline import LeftDocuments, finish, prepare
from browserx.snapshot.snapshot import DomSnapshot
from browserx.snapshot.stability import SettleOptions, settled_from
from browserx.tabs.tab import Tab

log = structlog.get_logger("browserx.snapshots")

# What captures the page: capture_tab, or, in a host started to record captures, capture_tab
# saving each one (host.py sets it once at start: page/recording.py).
capture_page: CaptureTab = capture_tab


async def save_watermark(tab: Tab) -> None:
    """Hand the tab's highest element ID to the extension (it keeps it in chrome.storage.session
    for the browser's life) before any view shows it: a host started after this one dies then
    numbers above it, so no ID an agent saw can name another element. Only after a snapshot that
    gave out new IDs (on a live page, most). The frame is written before the view goes out, so
    the extension gets it even if this host dies next; its answer (the extension's storage takes
    a millisecond or two) is not waited for. An extension that cannot keep it is logged, not
    fatal, and the next snapshot hands it over again."""
    high = tab.ids.high
    if high <= tab.saved_watermark:
        return
    try:
        answer = await tab.session.conn.post("watermark", timeout=5.0, tabId=tab.tab_id, high=high)
    except BrowserxError as exc:
        _not_saved(tab, high, exc)
        return
    before, tab.saved_watermark = tab.saved_watermark, high
    tab.session.fire_and_forget(_kept(tab, answer, before, high))


async def _kept(tab: Tab, answer: asyncio.Task[Inbound], before: int, high: int) -> None:
    """The extension's answer to a watermark: one it could not keep is lowered again, so the
    next snapshot hands it over."""
    try:
        await answer
    except (BrowserxError, asyncio.CancelledError) as exc:
        tab.saved_watermark = min(tab.saved_watermark, before)
        _not_saved(tab, high, exc)
        raise


def _not_saved(tab: Tab, high: int, exc: BaseException) -> None:
    message = exc.message if isinstance(exc, BrowserxError) else repr(exc)
    log.warning("watermark_not_saved", tab=tab.tab_id, high=high, error=clip(message, 300))


def _forget_left_documents(tab: Tab) -> None:
    """Forget the IDs of documents no session of the tab shows any more (navigated away from,
    or in a frame that went away): their keys are of a key epoch no session uses now. An old ID
    then gets a clear error instead of the tab's memory growing with every page visited."""
    state = tab.capture
    live = frozenset(base >> KEY_BITS for base in state.key_bases.values())
    if live != state.live_key_epochs:
        state.live_key_epochs = live
        tab.ids.forget(LeftDocuments(live))


# Roles an empty name is no gap for: a slider shows its value and the label near it.
NAMED_OTHERWISE = frozenset({"slider", "scrollbar", "spinbutton", "progressbar", "meter"})


async def take_snapshot(
    tab: Tab, include_values: bool = False, settle: SettleOptions | None = None
) -> DomSnapshot:
    """Capture and build a new snapshot of the tab, and make it the tab's (placed, what its IDs
    name remembered for the actions). Call under the tab's lock. With ``settle``,
    the page is first let settle and its page events are drained (``DomSnapshot.settled``).

    Host work overlaps the page's where it can: the old snapshot is torn down while the page
    runs the collector, and IDs are assigned while it hit-tests."""
    t0 = time.perf_counter()
    # (Not asyncio.gather with tuple unpacking: compiled, gather's list fails the tuple check.)
    capturing = asyncio.ensure_future(capture_page(tab.capture, include_values, settle))
    try:
        await tab.discard_snapshots()
    except BaseException:
        capturing.cancel()
        raise
    frames = await capturing
    _forget_left_documents(tab)
    t1 = time.perf_counter()
    settled = None
    if settle is not None:
        settled = settled_from(frames[0].settled, (f.settled for f in frames[1:]), settle.wait)
    with paused_gc():
        prepared = prepare(frames)
    covered, targets = prepared.covers_from_page(prepared.hit_test_targets())
    testing = (
        asyncio.ensure_future(hit_test(tab.capture, frames, prepared.tree, targets)) if targets else None
    )
    # The controls without a name: what their markup says they are, asked beside the hit test.
    unnamed = [
        n for n in prepared.actionable if not n.name and n.role not in NAMED_OTHERWISE and is_interactive(n)
    ]
    hinting = asyncio.ensure_future(read_hints(tab.capture, frames, unnamed)) if unnamed else None
    if testing is not None:
        for _ in range(3):  # until its requests are written (it gathers one task per frame)
            await asyncio.sleep(0)
    try:
        with paused_gc():
            snap = finish(
                prepared, tab.ids, covered, tab_id=tab.tab_id, include_values=include_values,
                capture_ms=(t1 - t0) * 1000 - (settled.waited_ms if settled else 0.0), started=t1,
                settled=settled,
            )  # fmt: skip
    except BaseException:
        for task in (testing, hinting):
            if task is not None:
                task.cancel()
        raise
    if hinting is not None:
        for index, hint in (await hinting).items():
            snap.nodes[index].hint = hint
            snap.caches.facts.pop(index, None)  # (facts read before it came)
    if testing is not None:
        covered.update(await testing)  # snap.covered is a live view of this dict
        build_ms = (time.perf_counter() - t1) * 1000
        snap = replace(snap, stats=replace(snap.stats, build_ms=build_ms, hit_tested_by_host=len(targets)))
    await save_watermark(tab)
    tab.place_snapshot(snap)
    tab.remember(snap)  # while the worlds it used are the tab's: what each ID named
    return snap
