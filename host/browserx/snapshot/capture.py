"""Capture: run the collector in browserx's isolated world of every frame of a tab, in parallel,
and gather what page JavaScript cannot see through CDP: closed shadow roots, JS click listeners,
and which ``<iframe>`` element owns each out-of-process frame.

Round trips per frame: one burst, answered together (the framework probe, the isolated world,
the call that settles (snapshot/stability.py), collects and hit-tests, and the click-listener
listing through a document handle kept from the last capture), plus one lookup per new listening
node, and a few calls only for suspected closed shadow hosts and for OOPIF owners not seen before.
The first capture of a document asks for the handle with the probe, and sends the collector's
source, which later calls find installed in the world.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import structlog

from browserx.errors import BrowserxError, CdpError, FrameGone, PageOptedOut
from browserx.relay.connection import DEFAULT_TIMEOUT
from browserx.snapshot.capture_state import CaptureState
from browserx.snapshot.framework import install_probe
from browserx.snapshot.page_watch import EARLY_WATCH_JS, SETTLE_JS
from browserx.snapshot.stability import SettleOptions, waited_ms

log = structlog.get_logger("browserx.capture")
T = TypeVar("T")

COLLECTOR_JS = resources.files("browserx.snapshot").joinpath("collector.js").read_text(encoding="utf-8")
WORLD_NAME = "browserx"
CLICK_EVENTS = ("click", "dblclick", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart",
                "touchend", "contextmenu")  # fmt: skip
CLICK_EVENT_SET = frozenset(CLICK_EVENTS)
# Click listeners come from DOMDebugger.getEventListeners over the document, whose cost grows with
# the number of listeners (a few ms on most pages). A document found to be full of them (JupyterLab:
# 10,000 listeners on 818 elements, 0.8 s) is asked through DOMSnapshot's isClickable instead, one
# capture of the document, while it has at most SMALL_DOCUMENT elements (its cost grows with nodes).
SMALL_DOCUMENT = 5000
LISTENER_HEAVY = 500  # click-like listeners in one listing that make a session "heavy"
MAX_CLOSED_ROOT_DEPTH = 3
EXTRAS_TIMEOUT = 10.0
CHILD_FRAME_TIMEOUT = 10.0
WORLD_TRUSTED_S = 1.0  # how long a checked isolated world is taken as current without asking again
KEY_BITS = 24  # keys per document before they would run into the next document's range
LATE_FRAME_WINDOW = 3.0  # seconds after attaching during which frames may still be announcing
LATE_FRAME_WAIT = 1.0
MAX_FRAME_DEPTH = 4
RECAPTURE_AFTER_MS = 50.0  # the main frame waited this long to settle: its children are taken again
KEY_OF_THIS = "function(){return globalThis.__browserx.keyOf(this)}"
KEYS_OF_ARGS = "function(...els){const B=globalThis.__browserx;return els.map(e=>B.keyFor(e))}"
# One call per frame. With `quiet` given, the page watcher's report comes first: the main frame
# waits there for its DOM to settle, every frame drains its page events; then the collector runs.
# Without it (a snapshot an action takes for itself), only the collector runs: the events stay
# buffered for the next observation.
SETTLE_AND_COLLECT_JS = """function(opts, quiet, timeout, network) {
  const collect = __COLLECT__, settle = __SETTLE__;
  if (quiet == null) return '{"frame":' + collect(document, opts) + '}';
  return settle(quiet, timeout, network).then(
    s => '{"settled":' + JSON.stringify(s) + ',"frame":' + collect(document, opts) + '}');
}""".replace("__SETTLE__", SETTLE_JS).replace("__COLLECT__", COLLECTOR_JS)
# The collector is 30 kB of source, and the renderer compiles what it is sent on every call
# (3 ms): it is sent once per isolated world, which keeps it; later calls send a stub that runs
# it (null when the world lacks it: a world the host took for one it had seen). Its name carries
# the source's hash: a host of another version never runs this one's collector.
_COLLECTOR_NAME = "__browserxCollect_" + hashlib.sha256(SETTLE_AND_COLLECT_JS.encode()).hexdigest()[:12]
INSTALL_AND_COLLECT_JS = (
    f"function(opts, quiet, timeout, network) {{\n  const run = globalThis.{_COLLECTOR_NAME} = "
    + SETTLE_AND_COLLECT_JS
    + ";\n  return run(opts, quiet, timeout, network);\n}"
)
COLLECT_STUB_JS = (
    f"function(opts, quiet, timeout, network) {{ const run = globalThis.{_COLLECTOR_NAME}; "
    "return run ? run(opts, quiet, timeout, network) : null; }"
)


class RawFrame(msgspec.Struct, kw_only=True):
    """What collector.js returns for one document (or one closed shadow root). The collector
    sends the key, parent and tag columns compactly; ``normalized`` expands them (recorded
    payloads hold them expanded already)."""

    url: str
    title: str
    viewport: list[float]
    scroll: list[float]
    dpr: float
    docSize: list[float]
    noAi: bool
    key: list[int] = []
    parent: list[int] = []
    tag: list[str] = []
    box: list[float]  # x, y, w, h per node; text nodes have none unless textBoxes
    textBoxes: bool = True  # recorded payloads hold four zeros per text node too
    flags: list[int]
    text: dict[int, str]  # sparse: node index → text
    attrs: dict[int, dict[str, str]]
    state: dict[int, dict[str, Any]]
    suspects: int
    frameOwners: list[int]
    pruned: int
    pageMs: float = 0.0  # the walk's time in the page (the rest of "collect" is transfer)
    # What covers the elements the collector hit-tested (flag F_HIT_TESTED), by whole key:
    # [the cover's key or 0, its tag#id.class]; the uncovered ones are not listed.
    hits: dict[int, tuple[int, str]] = {}
    hitTested: int = 0  # how many
    hitMs: float = 0.0  # of pageMs
    mutations: int = -1  # DOM changes the page watcher has counted in this document (-1: no watcher)
    # compact columns, as sent
    keyBase: int = 0  # keys count from it: the page keeps small numbers
    keyDeltas: list[int] = []  # step from the previous key; 0 = no key (text)
    parentDeltas: list[int] = []  # distance back to the parent (the root's points at -1)
    tagIds: list[int] = []
    tagNames: list[str] = []

    def normalized(self) -> RawFrame:
        """Expanded columns and whole keys everywhere a key is held (key column, frame owners,
        label targets)."""
        base = self.keyBase
        if self.tagNames:
            names = self.tagNames
            self.tag = [names[i] for i in self.tagIds]
            self.parent = [i - d for i, d in enumerate(self.parentDeltas)]
            keys: list[int] = []
            append = keys.append
            key = base
            for d in self.keyDeltas:
                if d:
                    key += d
                    append(key)
                else:
                    append(0)
            self.key = keys
            self.tagIds, self.tagNames, self.parentDeltas, self.keyDeltas = [], [], [], []
        elif base:
            self.key = [k + base if k else 0 for k in self.key]
        if base:
            self.frameOwners = [k + base for k in self.frameOwners]
            for state in self.state.values():
                control = state.get("control")
                if control:
                    state["control"] = control + base
            self.keyBase = 0
        return self


@dataclass
class FrameCapture:
    label: str  # short frame label used in NodeRef ("m" = main frame)
    session_id: str | None
    frame_id: str
    context_id: int
    raw: RawFrame
    closed_roots: list[tuple[int, RawFrame]] = field(default_factory=list)  # (host key, subtree)
    listeners: dict[int, frozenset[str]] = field(default_factory=dict)  # node key → event types
    parent_label: str | None = None
    owner_key: int | None = None  # key of the owning <iframe> in the parent frame
    timings: dict[str, float] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # extras that could not be captured
    settled: dict[str, Any] | None = None  # the page watcher's report, when asked for one

    def drop_columns(self) -> None:
        """Free the per-node columns once the nodes are built (the nodes keep the attribute and
        state dicts): on a huge page they are tens of MB the rest of the build does not need."""
        for raw in (self.raw, *(r for _, r in self.closed_roots)):
            raw.key, raw.parent, raw.tag, raw.box, raw.flags = [], [], [], [], []
            raw.text, raw.attrs, raw.state = {}, {}, {}


class _EvalResult(msgspec.Struct):
    result: dict[str, Any]
    exceptionDetails: dict[str, Any] | None = None


class _Collected(msgspec.Struct):
    frame: RawFrame
    settled: dict[str, Any] | None = None


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
        tree = await state.session.cdp("Page.getFrameTree", session_id=session_id)
        frame_id = state.frame_ids[session_id] = _top_frame_id(tree)
    try:
        world = await state.session.cdp(
            "Page.createIsolatedWorld", {"frameId": frame_id, "worldName": WORLD_NAME}, session_id=session_id
        )
    except CdpError:
        if fresh:
            raise
        return await isolated_world(state, session_id, fresh=True)  # the frame id changed
    context = (frame_id, int(world["executionContextId"]))
    state.worlds_checked[session_id] = time.monotonic()
    # Not a document identity: a new renderer process counts context ids from 1 again. The
    # collector's registry says when the document is new (``CaptureState.document_seen``).
    state.worlds[session_id] = context
    return context


def _top_frame_id(tree: dict[str, Any]) -> str:
    """The top frame's id from Page.getFrameTree (a shape Chrome never sends is a CdpError)."""
    root = tree.get("frameTree")
    frame = root.get("frame") if isinstance(root, dict) else None
    frame_id = frame.get("id") if isinstance(frame, dict) else None
    if not isinstance(frame_id, str):
        raise CdpError("CDP error (Page.getFrameTree): unexpected result shape: no top frame id")
    return frame_id


def _unwrap(reply: _EvalResult, what: str) -> str:
    if reply.exceptionDetails:
        detail = reply.exceptionDetails.get("exception", {}).get("description") or reply.exceptionDetails.get(
            "text"
        )
        raise CdpError(f"the snapshot collector failed in the page ({what}): {detail}")
    value = reply.result.get("value")
    if not isinstance(value, str):
        raise CdpError(f"the snapshot collector returned no data ({what})")
    return value


async def _watch_new_documents(state: CaptureState, session_id: str | None) -> None:
    """From now on, run the page watcher in browserx's world of every new document of this
    session as it starts: the first snapshot after a navigation then knows when the DOM last
    changed, instead of watching for ``quiet_ms`` first, and page events from the document's
    first moment are kept. The current document gets the watcher at its first settle."""
    if session_id in state.watched_sessions:
        return
    state.watched_sessions.add(session_id)  # tried once per attachment, whatever the outcome
    try:
        await state.session.cdp(
            "Page.addScriptToEvaluateOnNewDocument",
            {"source": EARLY_WATCH_JS, "worldName": WORLD_NAME},
            session_id=session_id,
        )
    except BrowserxError as exc:  # e.g. an older extension that does not allow it: watch as before
        log.warning("watch_new_documents_failed", session=session_id, error=str(exc))


def _ignore_outcome(task: asyncio.Future[Any]) -> None:
    """A collect whose answer was dropped: its error (if any) is of no interest either."""
    if not task.cancelled():
        task.exception()


async def _collect_document(
    state: CaptureState, session_id: str | None, opts: dict[str, Any], settle: SettleOptions | None
) -> tuple[str, int, _Collected]:
    settle_args: list[int | bool] = []  # none: CDP passes a null argument as undefined
    timeout = None
    if settle is not None:
        await _watch_new_documents(state, session_id)
        settle_args = settle.arguments(main=session_id is None)
        if session_id is None and settle.wait:
            timeout = settle.longest_wait + DEFAULT_TIMEOUT

    async def collect(ctx: int, installed: bool) -> _EvalResult:
        # The click listeners of the last capture of this document: the collector hit-tests
        # them with the other elements a person might act on.
        listening = list(state.listener_keys.get((session_id, ctx), {}).values())
        with_base = {**opts, "freshBase": state.fresh_base(session_id, KEY_BITS), "hitTest": True,
                     "listening": listening}  # fmt: skip
        for source in (COLLECT_STUB_JS, INSTALL_AND_COLLECT_JS) if installed else (INSTALL_AND_COLLECT_JS,):
            reply: _EvalResult = await state.session.cdp(
                "Runtime.callFunctionOn",
                {
                    "functionDeclaration": source,
                    "executionContextId": ctx,
                    "arguments": [{"value": with_base}, *({"value": a} for a in settle_args)],
                    "awaitPromise": True,
                    "returnByValue": True,
                },
                session_id=session_id,
                timeout=timeout,
                result_type=_EvalResult,
            )
            if reply.exceptionDetails or reply.result.get("value") is not None:
                break
        return reply

    return await _collect_in_world(state, session_id, collect)


async def _collect_in_world(
    state: CaptureState, session_id: str | None, collect: Callable[[int, bool], Awaitable[_EvalResult]]
) -> tuple[str, int, _Collected]:
    for attempt in (0, 1):
        # The collector goes out right behind the question which world is current, into the
        # world the frame had: the renderer answers in order, so it waits for no round trip.
        # Should the world be new (the frame navigated), that answer is from a document the
        # frame has left: dropped, and collected again in the new one.
        known = state.worlds.get(session_id) if attempt == 0 else None
        asking = asyncio.ensure_future(isolated_world(state, session_id, fresh=attempt == 1))
        # A world the host collected in before holds the collector already.
        early = asyncio.ensure_future(collect(known[1], True)) if known is not None else None
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
            reply = await (early if early is not None else collect(ctx, False))
        except CdpError as exc:
            # The page navigated since the world was made: its context is gone. Make a new one.
            if attempt == 0 and "context" in exc.message.lower():
                continue
            raise
        collected = msgspec.json.decode(_unwrap(reply, "document"), type=_Collected)
        state.document_seen(session_id, collected.frame.keyBase)
        collected.frame.normalized()
        return frame_id, ctx, collected
    raise AssertionError("unreachable")


async def _object_ids(
    state: CaptureState, session_id: str | None, ctx: int, expression: str
) -> tuple[str | None, list[str]]:
    """The objectId of an array held in the isolated world, and those of its elements."""
    arr = await state.session.cdp(
        "Runtime.evaluate",
        {"expression": expression, "contextId": ctx, "objectGroup": "browserx"},
        session_id=session_id,
    )
    object_id = arr["result"].get("objectId")
    if not object_id:
        return None, []
    props = await state.session.cdp(
        "Runtime.getProperties", {"objectId": object_id, "ownProperties": True}, session_id=session_id
    )
    return object_id, [
        p["value"]["objectId"]
        for p in props["result"]
        if p["name"].isdigit() and "objectId" in p.get("value", {})
    ]


# Marks the suspected hosts that have no closed shadow root (by position in the array), so the
# collector does not suspect them again.
MARK_PLAIN_JS = """function(closed) {
  const B = globalThis.__browserx, keep = new Set(closed);
  if (B && B.plain) this.forEach((el, i) => { if (!keep.has(i)) B.plain.add(el); });
}"""


CLOSED_ROOTS_JS = """function(opts, ...objs) {
  const collect = %s;
  const B = globalThis.__browserx, n = objs.length / 2, parts = [], suspects = [];
  // Where the host's document sits in this frame: the content-box origins of the same-origin
  // iframes around it (as the document walk adds them).
  const originOf = (el) => {
    let x = 0, y = 0, w = el.ownerDocument.defaultView;
    try {
      for (; w && w.frameElement; w = w.parent) {
        const fe = w.frameElement, r = fe.getBoundingClientRect(), cs = fe.ownerDocument.defaultView.getComputedStyle(fe);
        x += r.left + fe.clientLeft + parseFloat(cs.paddingLeft || "0");
        y += r.top + fe.clientTop + parseFloat(cs.paddingTop || "0");
      }
    } catch (e) {}
    return [x, y];
  };
  for (let i = 0; i < n; i++) {
    // The root must belong to the host we asked about, on this page: nodes of another document
    // of the same frame (seen after repeated navigations) must never get keys here.
    if (objs[n + i].host !== objs[i] || !B.ours(objs[i])) continue;
    B.closed.set(objs[i], objs[n + i]);  // the next collector run walks it inline
    const data = collect(objs[n + i], Object.assign({}, opts, {origin: originOf(objs[i])}));
    for (const s of B.suspects) suspects.push(s);
    parts.push("[" + B.keyOf(objs[i]) + "," + data + "]");
  }
  B.suspects = suspects;
  return "[" + parts.join(",") + "]";
}"""


async def _closed_roots(
    state: CaptureState, session_id: str | None, ctx: int, opts: dict[str, Any]
) -> list[tuple[int, RawFrame]]:
    """Collect inside the closed shadow roots of the suspected hosts the collector left behind
    (and of hosts found inside those, a few levels deep). Batched: a handful of round trips."""
    found: list[tuple[int, RawFrame]] = []
    for _depth in range(MAX_CLOSED_ROOT_DEPTH):
        array, hosts = await _object_ids(state, session_id, ctx, "globalThis.__browserx.suspects")
        if not hosts:
            break
        described = await state.session.cdp_batch(
            [("DOM.describeNode", {"objectId": o, "depth": 1, "pierce": True}) for o in hosts], session_id
        )
        closed: list[tuple[str, int]] = []
        answered: list[int] = []  # positions of hosts CDP described (with or without a closed root)
        for i, (host, desc) in enumerate(zip(hosts, described, strict=True)):
            if not isinstance(desc, dict):
                continue
            roots = [
                s for s in desc.get("node", {}).get("shadowRoots", []) if s.get("shadowRootType") == "closed"
            ]
            closed.extend((host, s["backendNodeId"]) for s in roots)
            if not roots:
                answered.append(i)
        if array is not None and answered:
            # Not asked again: sent now, run by the renderer before the next collector.
            await state.session.cdp(
                "Runtime.callFunctionOn",
                {"functionDeclaration": MARK_PLAIN_JS, "objectId": array,
                 "arguments": [{"value": [i for i in range(len(hosts)) if i not in set(answered)]}]},
                session_id=session_id,
            )  # fmt: skip
        if not closed:
            break
        resolved = await state.session.cdp_batch(
            [
                (
                    "DOM.resolveNode",
                    {"backendNodeId": b, "executionContextId": ctx, "objectGroup": "browserx"},
                )
                for _, b in closed
            ],
            session_id,
        )
        pairs = [
            (host, r["object"]["objectId"])
            for (host, _), r in zip(closed, resolved, strict=True)
            if isinstance(r, dict) and "object" in r
        ]
        if not pairs:
            break
        objects = [host for host, _ in pairs] + [root for _, root in pairs]
        reply = await state.session.cdp(
            "Runtime.callFunctionOn",
            {
                "functionDeclaration": CLOSED_ROOTS_JS % COLLECTOR_JS,
                "objectId": objects[0],
                "arguments": [{"value": opts}, *({"objectId": o} for o in objects)],
                "returnByValue": True,
            },
            session_id=session_id,
            result_type=_EvalResult,
        )
        batch = [
            (host, raw.normalized())
            for host, raw in msgspec.json.decode(
                _unwrap(reply, "closed shadow roots"), type=list[tuple[int, RawFrame]]
            )
        ]
        found.extend(batch)
        if not any(raw.suspects for _, raw in batch):
            break
    await state.session.cdp("Runtime.releaseObjectGroup", {"objectGroup": "browserx"}, session_id=session_id)
    return found


async def _clickable_nodes(state: CaptureState, session_id: str | None) -> dict[int, set[str]]:
    """The nodes DOMSnapshot marks clickable (click, mousedown or mouseup listeners, links,
    onclick), by backendNodeId, shadow roots and same-origin frames included; only those two
    columns cross the pipe. The listener's type is not told ("clickable" stands for them all), and
    natively clickable elements (links, labels, form controls) are marked too: classify.py knows."""
    snap = await state.session.cdp(
        "DOMSnapshot.captureSnapshot",
        {"computedStyles": [], "includeDOMRects": False, "includePaintOrder": False},
        session_id=session_id,
        keep={"paths": ["documents.*.nodes.backendNodeId", "documents.*.nodes.isClickable.index"]},
    )
    types: dict[int, set[str]] = {}
    for document in snap.get("documents") or []:
        nodes = (document or {}).get("nodes") or {}
        backend = nodes.get("backendNodeId") or []
        for index in (nodes.get("isClickable") or {}).get("index") or []:
            if isinstance(index, int) and 0 <= index < len(backend):
                types[int(backend[index])] = {"clickable"}
    return types


async def _listening_nodes(state: CaptureState, session_id: str | None, document: str) -> dict[int, set[str]]:
    """Click-like JS listener types of every node of the document (shadow roots included), by
    backendNodeId, through a main-world handle on the document: getEventListeners(pierce) on a
    handle from browserx's isolated world crashes the renderer (Chromium 156, after the
    collector ran). Needs no collector run, so it is asked for while the collector runs."""
    # Only the click-like entries, as [type, backendNodeId], cross the pipe (a component-heavy
    # page lists every keydown and slotchange listener of every node: megabytes).
    listing = await state.session.cdp(
        "DOMDebugger.getEventListeners",
        {"objectId": document, "depth": -1, "pierce": True},
        session_id=session_id,
        keep={"list": "listeners", "fields": ["type", "backendNodeId"],
              "where": {"field": "type", "values": list(CLICK_EVENTS)}},
    )  # fmt: skip
    entries = listing.get("listeners", [])
    if len(entries) > LISTENER_HEAVY:
        state.listener_heavy.add(session_id)  # the next snapshot asks DOMSnapshot instead
    types: dict[int, set[str]] = {}
    for entry in entries:
        if isinstance(entry, list) and len(entry) == 2 and entry[0] in CLICK_EVENT_SET and entry[1]:
            types.setdefault(int(entry[1]), set()).add(entry[0])
    return types


async def _document_handle(state: CaptureState, session_id: str | None) -> str:
    """A fresh main-world handle on the session's document."""
    # In no object group (see install_probe).
    reply = await state.session.cdp("Runtime.evaluate", {"expression": "document"}, session_id=session_id)
    object_id = reply.get("result", {}).get("objectId")
    if not isinstance(object_id, str):
        raise CdpError("the page gave no handle on its document")
    return object_id


async def _listener_keys(
    state: CaptureState, session_id: str | None, ctx: int, types: dict[int, set[str]]
) -> dict[int, frozenset[str]]:
    """The listening nodes by collector key. A node's backendNodeId and its key both last as long
    as the node, so the mapping is kept per document and only new listening nodes are looked up
    (one DOM.resolveNode each: there is no bulk way from backendNodeId to a JS object)."""
    known = state.listener_keys.setdefault((session_id, ctx), {})
    new = [b for b in types if b not in known]
    if new:
        resolved = await state.session.cdp_batch(
            [
                (
                    "DOM.resolveNode",
                    {"backendNodeId": b, "executionContextId": ctx, "objectGroup": "browserx-l"},
                )
                for b in new
            ],
            session_id,
        )
        pairs = [
            (b, r["object"]["objectId"])
            for b, r in zip(new, resolved, strict=True)
            if isinstance(r, dict) and "object" in r
        ]
        if pairs:
            keys = await state.session.cdp(
                "Runtime.callFunctionOn",
                {
                    "functionDeclaration": KEYS_OF_ARGS,
                    "objectId": pairs[0][1],
                    "arguments": [{"objectId": o} for _, o in pairs],
                    "returnByValue": True,
                },
                session_id=session_id,
            )
            for (backend_id, _), key in zip(pairs, keys["result"]["value"], strict=True):
                if key:
                    known[backend_id] = int(key)
        await state.session.cdp(
            "Runtime.releaseObjectGroup", {"objectGroup": "browserx-l"}, session_id=session_id
        )
    for backend_id in [b for b in known if b not in types]:
        del known[backend_id]  # stopped listening, or gone
    return {known[b]: frozenset(t) for b, t in types.items() if b in known}


async def _capture_frame(
    state: CaptureState,
    label: str,
    session_id: str | None,
    opts: dict[str, Any],
    settle: SettleOptions | None,
) -> FrameCapture:
    """One frame's capture. Everything goes out at once where it can: the framework probe first
    (the renderer runs commands in order, so it is in place when the collector asks it:
    snapshot/framework.py), then the collector, and the click-listener listing through the
    document handle kept from an earlier capture of the same document. Without one, the probe
    answers with a handle and the listing follows it (one round trip, overlapping the collect)."""
    t0 = time.perf_counter()
    problems: list[str] = []
    world = state.worlds.get(session_id)
    cached = state.doc_handles.get(session_id)
    handle = cached[1] if cached is not None and world is not None and cached[0] == world else None
    count = state.element_counts.get(session_id)
    heavy = session_id in state.listener_heavy and count is not None and count <= SMALL_DOCUMENT
    probing = asyncio.ensure_future(install_probe(state, session_id, handle=handle is None and not heavy))
    collecting = asyncio.ensure_future(_collect_document(state, session_id, opts, settle))
    listing: asyncio.Future[dict[int, set[str]]] | None = None
    if heavy:
        listing = asyncio.ensure_future(_none_listening())  # asked once the collector has answered
    elif handle is not None:
        listing = asyncio.ensure_future(_listening_nodes(state, session_id, handle))
    try:
        probe = await probing
        if listing is None:
            handle = probe.document
            listing = asyncio.ensure_future(
                _listening_nodes(state, session_id, handle) if handle else _none_listening()
            )
        frame_id, ctx, collected = await collecting
        raw = collected.frame
    except BaseException:
        collecting.cancel()
        if listing is not None:
            listing.cancel()
        raise
    if probe.count is not None:
        state.element_counts[session_id] = probe.count
    if heavy:
        listing = asyncio.ensure_future(_heavy_listing(state, session_id, (frame_id, ctx), raw.mutations))
    if handle is not None and not heavy:
        if (frame_id, ctx) != world and cached is not None and handle == cached[1]:
            # The listing went through the handle of a document the frame has since left: ask again.
            listing.cancel()
            listing = asyncio.ensure_future(_listing_afresh(state, session_id))
        else:
            state.doc_handles[session_id] = ((frame_id, ctx), handle)
    t1 = time.perf_counter()
    closed_task = _closed_roots(state, session_id, ctx, opts) if raw.suspects else _none()
    waited = waited_ms(collected.settled) / 1000
    timings = {"collect": t1 - t0 - waited}
    if collected.settled is not None:
        timings["settle"] = waited

    async def listeners_by_key() -> dict[int, frozenset[str]]:
        try:
            types = await listing
        except CdpError:
            if heavy:
                raise
            types = await _listing_afresh(state, session_id)  # the handle went stale
        return await _listener_keys(state, session_id, ctx, types) if types else {}

    listeners, closed = await asyncio.gather(
        _optional(_timed(listeners_by_key(), timings, "listeners"), {}, "click listeners", problems),
        _optional(_timed(closed_task, timings, "closed_roots"), [], "closed shadow roots", problems),
    )

    capture = FrameCapture(
        label, session_id, frame_id, ctx, raw, closed, listeners, problems=problems, settled=collected.settled
    )
    capture.timings = {**timings, "extras": time.perf_counter() - t1}
    return capture


async def _heavy_listing(
    state: CaptureState, session_id: str | None, world: tuple[str, int], mutations: int
) -> dict[int, set[str]]:
    """The clickable nodes of a listener-heavy document (a DOMSnapshot capture: tens of ms on
    JupyterLab), or those of its last capture while the page watcher has counted no DOM change
    since: the listeners of such apps come and go with their elements."""
    cached = state.heavy_listings.get(session_id)
    if mutations >= 0 and cached is not None and cached[0] == world and cached[1] == mutations:
        return cached[2]
    types = await _clickable_nodes(state, session_id)
    state.heavy_listings[session_id] = (world, mutations, types)
    return types


async def _listing_afresh(state: CaptureState, session_id: str | None) -> dict[int, set[str]]:
    """The listing through a new document handle, kept for the next capture."""
    state.doc_handles.pop(session_id, None)
    handle = await _document_handle(state, session_id)
    world = state.worlds.get(session_id)
    if world is not None:
        state.doc_handles[session_id] = (world, handle)
    return await _listening_nodes(state, session_id, handle)


async def _none_listening() -> dict[int, set[str]]:
    return {}


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
            "DOM.getFrameOwner", {"frameId": frame_id}, session_id=parent.session_id
        )
        resolved = await state.session.cdp(
            "DOM.resolveNode",
            {"backendNodeId": owner["backendNodeId"], "executionContextId": parent.context_id},
            session_id=parent.session_id,
        )
        key = await state.session.cdp(
            "Runtime.callFunctionOn",
            {
                "functionDeclaration": KEY_OF_THIS,
                "objectId": resolved["object"]["objectId"],
                "returnByValue": True,
            },
            session_id=parent.session_id,
        )
    except BrowserxError as exc:
        log.warning("frame_owner_unknown", frame=frame_id, error=exc.message)
        return None
    value = key["result"].get("value")
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


async def capture_tab(
    state: CaptureState, include_values: bool = False, settle: SettleOptions | None = None
) -> list[FrameCapture]:
    """Capture every frame of the tab (main frame first), after the stability wait and with the
    page events when ``settle`` says so. Raises PageOptedOut for data-no-ai pages."""
    opts = {"values": include_values}
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
            f"The page {main.raw.url} opted out of AI agents (data-no-ai); browserx will not read it. "
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
    record_dir = os.environ.get("BROWSERX_RECORD_DIR")
    if record_dir:
        _record(Path(record_dir), frames)
    return frames


def _record(directory: Path, frames: list[FrameCapture]) -> None:
    """Save what was captured, for unit tests on real payloads (scripts/record_payloads.py)."""
    directory.mkdir(parents=True, exist_ok=True)
    slug = re.sub(r"[^A-Za-z0-9]+", "-", frames[0].raw.url.split("://", 1)[-1].split("/", 1)[-1]).strip("-")
    (directory / f"{slug or 'page'}.json").write_bytes(msgspec.json.encode(frames))


def load_recording(path: Path) -> list[FrameCapture]:
    return msgspec.json.decode(path.read_bytes(), type=list[FrameCapture])
