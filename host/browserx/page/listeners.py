"""Click listeners added from JavaScript, which the page's DOM does not show: listed through CDP
by backendNodeId (DOMDebugger over a main-world handle on the document, kept while the document
lives; DOMSnapshot's isClickable for documents full of listeners), then mapped to collector keys,
one lookup per node not seen listening before. Every snapshot lists a document's listeners whole.
"""

from __future__ import annotations

from typing import Any

from browserx import page_js
from browserx.errors import CdpError
from browserx.page.capture_state import CaptureState
from browserx.page.page_call import (
    Handle,
    Request,
    answer,
    call_request,
    eval_request,
    mixed_answer,
    page_call,
)
from browserx.relay.cdp_types import (
    CaptureSnapshotResult,
    EvaluateResult,
    EventListenerRows,
    ResolveNodeResult,
)
from browserx.relay.protocol import MAX_ARGS_FROM, ArgsFrom

CLICK_EVENTS = ("click", "dblclick", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart",
                "touchend", "contextmenu")  # fmt: skip
CLICK_EVENT_SET = frozenset(CLICK_EVENTS)
# Click listeners come from DOMDebugger.getEventListeners over the document, whose cost grows with
# the number of listeners (a few ms on most pages). A document found to be full of them (JupyterLab:
# 10,000 listeners on 818 elements, 0.8 s) is asked through DOMSnapshot's isClickable instead, one
# capture of the document, while it has at most SMALL_DOCUMENT elements (its cost grows with nodes).
SMALL_DOCUMENT = 5000
LISTENER_HEAVY = 500  # click-like listeners in one listing that make a session "heavy"
KEYS_OF_ARGS = page_js.load("browserx.page", "keys_of_args.js")
DOCUMENT_JS = page_js.page_world("browserx.page", "main_document.js")


async def clickable_nodes(state: CaptureState, session_id: str | None) -> dict[int, set[str]]:
    """The nodes DOMSnapshot marks clickable (click, mousedown or mouseup listeners, links,
    onclick), by backendNodeId, shadow roots and same-origin frames included; only those two
    columns cross the pipe. The listener's type is not told ("clickable" stands for them all), and
    natively clickable elements (links, labels, form controls) are marked too: classify.py knows."""
    snap = await state.session.cdp(
        "DOMSnapshot.captureSnapshot",
        {"computedStyles": [], "includeDOMRects": False, "includePaintOrder": False},
        session_id=session_id,
        keep={"paths": ["documents.*.nodes.backendNodeId", "documents.*.nodes.isClickable.index"]},
        result_type=CaptureSnapshotResult,
    )
    types: dict[int, set[str]] = {}
    for document in snap.documents:
        if document is None or document.nodes.isClickable is None:
            continue
        backend = document.nodes.backendNodeId
        for index in document.nodes.isClickable.index:
            if 0 <= index < len(backend):
                types[backend[index]] = {"clickable"}
    return types


async def listening_nodes(state: CaptureState, session_id: str | None, document: str) -> dict[int, set[str]]:
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
        result_type=EventListenerRows,
    )  # fmt: skip
    if len(listing.listeners) > LISTENER_HEAVY:
        state.listener_heavy.add(session_id)  # the next snapshot asks DOMSnapshot instead
    types: dict[int, set[str]] = {}
    for kind, backend_id in listing.listeners:
        if kind is not None and kind in CLICK_EVENT_SET and backend_id:
            types.setdefault(backend_id, set()).add(kind)
    return types


async def none_listening() -> dict[int, set[str]]:
    return {}


async def heavy_listing(
    state: CaptureState, session_id: str | None, world: tuple[str, int], mutations: int
) -> dict[int, set[str]]:
    """The clickable nodes of a listener-heavy document (a DOMSnapshot capture: tens of ms on
    JupyterLab), or those of its last capture while the page watcher has counted no DOM change
    since: the listeners of such apps come and go with their elements."""
    cached = state.heavy_listings.get(session_id)
    if mutations >= 0 and cached is not None and cached[0] == world and cached[1] == mutations:
        return cached[2]
    types = await clickable_nodes(state, session_id)
    state.heavy_listings[session_id] = (world, mutations, types)
    return types


async def document_handle(state: CaptureState, session_id: str | None) -> str:
    """A fresh main-world handle on the session's document."""
    # In no object group (see install_probe).
    method, params = eval_request(DOCUMENT_JS, by_value=False)
    reply = answer(
        DOCUMENT_JS, await state.session.cdp(method, params, session_id, result_type=EvaluateResult)
    )
    object_id = reply.objectId
    if object_id is None:
        raise CdpError("the page gave no handle on its document")
    return object_id


async def listing_afresh(state: CaptureState, session_id: str | None) -> dict[int, set[str]]:
    """The listing through a new document handle, kept for the next capture."""
    state.doc_handles.pop(session_id, None)
    handle = await document_handle(state, session_id)
    world = state.worlds.get(session_id)
    if world is not None:
        state.doc_handles[session_id] = (world, handle)
    return await listening_nodes(state, session_id, handle)


async def listener_keys(
    state: CaptureState, session_id: str | None, ctx: int, types: dict[int, set[str]]
) -> dict[int, frozenset[str]]:
    """The listening nodes by collector key. A node's backendNodeId and its key both last as long
    as the node, so the mapping is kept per document and only new listening nodes are looked up
    (one DOM.resolveNode each: there is no bulk way from backendNodeId to a JS object; their
    objects handed to the keys call by the extension, in the same round trip, where it can)."""
    known = state.listener_keys.setdefault((session_id, ctx), {})
    new = [b for b in types if b not in known]
    if new:
        resolving = [
            ("DOM.resolveNode", {"backendNodeId": b, "executionContextId": ctx, "objectGroup": "browserx-l"})
            for b in new
        ]
        if len(resolving) <= MAX_ARGS_FROM:
            keys = await _keys_in_one_trip(state, session_id, ctx, resolving)
        else:
            keys = await _keys_in_two_trips(state, session_id, resolving)
        for backend_id, key in zip(new, keys, strict=True):
            if key:
                known[backend_id] = int(key)
        # Not waited for: the renderer runs it after the lookup, and nothing here needs its answer.
        state.session.fire_and_forget(
            state.session.cdp(
                "Runtime.releaseObjectGroup", {"objectGroup": "browserx-l"}, session_id=session_id
            )
        )
    for backend_id in [b for b in known if b not in types]:
        del known[backend_id]  # stopped listening, or gone
    return {known[b]: frozenset(t) for b, t in types.items() if b in known}


async def _keys_in_one_trip(
    state: CaptureState, session_id: str | None, ctx: int, resolving: list[Request]
) -> list[Any]:
    """The nodes resolved and their keys read in one batch: the extension passes each resolved
    object (null for a node gone meanwhile) to the keys call."""
    n = len(resolving)
    replies = await state.session.cdp_batch(
        [*resolving, call_request(KEYS_OF_ARGS, world=ctx)],
        session_id,
        args={n: ArgsFrom(tuple(range(n)), ("object", "objectId"))},
    )
    # A page error is PageScriptError (capture.py's extras: the snapshot says what it lacks).
    keys = mixed_answer(KEYS_OF_ARGS, replies[-1]).value
    return keys if isinstance(keys, list) and len(keys) == n else [None] * n


async def _keys_in_two_trips(
    state: CaptureState, session_id: str | None, resolving: list[Request]
) -> list[Any]:
    """The nodes resolved, then their keys read: more new nodes than one batch command takes
    arguments from (MAX_ARGS_FROM)."""
    resolved = await state.session.cdp_batch(resolving, session_id, result_type=ResolveNodeResult)
    handles = [r.object.objectId if isinstance(r, ResolveNodeResult) else None for r in resolved]
    present = [o for o in handles if o is not None]
    if not present:
        return [None] * len(handles)
    keys = await page_call(
        state.session, KEYS_OF_ARGS, *(Handle(o) for o in present), this=present[0], session_id=session_id
    )
    found = iter(keys)
    return [next(found, None) if o is not None else None for o in handles]
