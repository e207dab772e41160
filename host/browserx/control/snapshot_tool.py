"""The ``snapshot`` method: settle the page (stability wait + page events), take the snapshot,
match a CSS filter in the page, then build the requested view and remember it for deltas; for the
hybrid view, a JPEG of the viewport next to the semantic view (docs/DESIGN.md, "Views")."""

from __future__ import annotations

import time
from typing import Any

from browserx.control.observation import observation
from browserx.control.policy import refuse_opted_out_frames
from browserx.control.schemas import SnapshotParams
from browserx.errors import CdpError, CdpTimeout, PageOptedOut
from browserx.heap import paused_gc
from browserx.page.css_filter import match_selector
from browserx.page.events import EventLog, from_raw
from browserx.pixels.screenshot import screenshot
from browserx.snapshot.stability import Settled, SettleOptions
from browserx.tabs.snapshots import take_snapshot
from browserx.tabs.tab import Tab
from browserx.views.build import build_view
from browserx.views.events import summarise
from browserx.views.options import DEFAULT_MAX_TOKENS, ViewOptions

# The hybrid view's picture: the viewport as JPEG, at most this wide, this quality.
HYBRID_MAX_WIDTH = 1024
HYBRID_QUALITY = 70


def view_options(p: SnapshotParams) -> ViewOptions:
    return ViewOptions(
        format="semantic" if p.format == "hybrid" else p.format,  # hybrid: semantic + a picture
        viewport_only=p.viewport_only,
        boxes=p.boxes,
        max_depth=p.max_depth,
        max_elements=p.max_elements,
        max_tokens=DEFAULT_MAX_TOKENS if p.max_tokens is None else p.max_tokens,
        since_last=p.since_last,
        query=p.query or None,
    )


async def observe(tab: Tab, p: SnapshotParams) -> dict[str, Any]:
    """Run under the tab's lock."""
    seen = observation(tab)
    if seen.last_view is not None:
        if p.since_last:
            seen.last_view.detach()  # what this delta compares against, before its tree goes
        else:
            seen.last_view = None  # replaced by this view's state: let its tree go now
    settle = SettleOptions(
        wait=p.wait_stable,
        quiet_ms=p.stability_ms,
        timeout_ms=p.stability_timeout_ms,
        network_idle=p.network_idle,
    )
    snap = await take_snapshot(tab, include_values=p.include_values, settle=settle)
    settled = snap.settled or Settled()
    taken_at = time.perf_counter()
    matched = await match_selector(tab.capture, snap, p.filter) if p.filter else None
    t0 = time.perf_counter()
    log = tab.page_events or EventLog()
    tab.page_events = log
    now = time.time()
    log.add(e for raw, page_now in settled.events if (e := from_raw(raw, page_now, now)) is not None)
    events = summarise(log.since_last_view(now), snap, now)
    opts = view_options(p)
    with paused_gc():
        view = build_view(
            snap, opts, events=events, previous=seen.last_view, matched=matched, filter_text=p.filter
        )
    seen.last_view = view.state
    out: dict[str, Any] = {"tab": tab.tab_id, "format": p.format, "url": snap.url, "title": snap.title}
    out["semantic" if p.format in ("semantic", "hybrid") else p.format] = view.payload
    shot_ms = None
    if p.format == "hybrid":
        t1 = time.perf_counter()
        out.update(await hybrid_picture(tab))
        shot_ms = round((time.perf_counter() - t1) * 1000, 1)
    if p.stats:
        stats = snap.stats.to_dict()
        stats.update(view.stats)
        stats["view_ms"] = round((time.perf_counter() - t0) * 1000, 1)
        stats["settle_ms"] = round(settled.waited_ms, 1)
        stats["after_snapshot_ms"] = round((t0 - taken_at) * 1000, 1)  # remembering IDs, filter
        stats["stability"] = {"waited_ms": round(settled.waited_ms, 1), "stable": settled.stable,
                              "ticking": settled.ticking, "enabled": p.wait_stable}  # fmt: skip
        stats["events"] = len(events.events)
        stats["frames_detail"] = list(snap.frames)
        if shot_ms is not None:
            stats["screenshot_ms"] = shot_ms
        out["stats"] = stats
    return out


async def hybrid_picture(tab: Tab) -> dict[str, Any]:
    """The hybrid view's screenshot fields. ``screenshot`` is the base64 JPEG, or None when its
    hash equals that of the last one sent for this tab (the caller has it already), when a frame
    of the page opted out of AI agents (a picture would show it), or when it could not be taken;
    the last two say why in ``screenshotNote`` (and have no hash)."""
    out: dict[str, Any] = {"screenshot": None, "screenshotHash": None, "screenshotFormat": "jpeg"}
    try:
        await refuse_opted_out_frames(tab)
        shot = await screenshot(
            tab, "viewport", fmt="jpeg", quality=HYBRID_QUALITY, max_width=HYBRID_MAX_WIDTH, snap=tab.snapshot
        )  # the view's own snapshot names the opted-out boxes to blank
    except PageOptedOut:
        out["screenshotNote"] = "a frame of this page opted out of AI agents (data-no-ai): no picture"
        return out
    except (CdpError, CdpTimeout) as exc:
        out["screenshotNote"] = f"no picture: {exc.message}"
        return out
    out.update(screenshotHash=shot.phash, screenshotSize=[shot.width, shot.height])
    seen = observation(tab)
    if shot.phash != seen.screenshot_hash:
        out["screenshot"] = shot.to_dict()["data"]
        seen.screenshot_hash = shot.phash
    return out
