"""Click listeners added from JavaScript, which the page's DOM does not show: listed through CDP
by backendNodeId (DOMDebugger over a main-world handle on the document, kept while the document
lives; DOMSnapshot's isClickable for documents full of listeners), then mapped to collector keys,
one lookup per node not seen listening before. A document with a big listing is listed whole only
now and then: between, the elements each walk meets fresh are listed one by one (fresh_listeners).
"""

from __future__ import annotations

import enum
import math
from typing import Any

import structlog

from browserx import page_js
from browserx.errors import BrowserxError, CdpError, PageScriptError
from browserx.page.capture_state import BigListing, CaptureState
from browserx.page_js import Snippet
from browserx.relay.cdp_types import (
    CaptureSnapshotResult,
    EvaluateResult,
    EventListenerRows,
    ResolveNodeResult,
)
from browserx.relay.page_call import (
    Handle,
    Request,
    answer,
    call_request,
    eval_request,
    mixed_answer,
    page_call,
)
from browserx.relay.protocol import MAX_ARGS_FROM, ArgsFrom, ParamFrom

log = structlog.get_logger("browserx.listeners")

CLICK_EVENTS = ("click", "dblclick", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart",
                "touchend", "contextmenu")  # fmt: skip
CLICK_EVENT_SET = frozenset(CLICK_EVENTS)
# Click listeners come from DOMDebugger.getEventListeners over the document, whose cost grows with
# the number of listeners (a few ms on most pages). A document found to be full of them (JupyterLab:
# 10,000 listeners on 818 elements, 0.8 s) is asked through DOMSnapshot's isClickable instead, one
# capture of the document, while it has at most SMALL_DOCUMENT elements (its cost grows with nodes).
SMALL_DOCUMENT = 5000
LISTENER_HEAVY = 500  # click-like listeners in one listing that make a session "heavy"
# Below that, a listing is still big: its whole answer (every listener of every type: AG Grid's
# 1,090 for 370 click-like ones, 173 kB) takes the browser and the extension ~12 ms to hand over,
# though the renderer makes it in 3. A document whose listing has BIG_LISTING click-like rows gets
# its walks stamped (collector.js: walked), and a snapshot within FULL_LISTING_EVERY_S of its last
# full listing, with no action since, lists only the elements the walk met fresh (at most
# MAX_FRESH: collector.js), one small chain each (fresh_listeners). What that misses — a listener
# added to an element that was there, with no action — the next full listing finds, at most
# FULL_LISTING_EVERY_S later.
BIG_LISTING = 200
FULL_LISTING_EVERY_S = 1.0
KEYS_OF_ARGS = page_js.load("browserx.page", "keys_of_args.js")
NODE_OF_KEY = page_js.load("browserx.page", "node_of_key.js")
DOCUMENT_JS = Snippet("page/listeners.py", "document")


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
    """The nodes resolved, then their keys read (an extension without ``batch-args``)."""
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


async def fresh_listeners(
    state: CaptureState, session_id: str | None, ctx: int, keys: list[int]
) -> dict[int, frozenset[str]]:
    """The click-like listener types of the elements a walk met fresh, by key (those with none left
    out): each found by its key in browserx's world, described for its backendNodeId, resolved in
    the page's own world (where getEventListeners may list them) and its own listeners listed
    (depth 0; pierce: every world's, as the full listing) — a chain per node that the extension
    runs in one round trip."""
    n = len(keys)
    if n == 0:
        return {}
    group = "browserx-l"
    commands: list[Request] = [
        call_request(NODE_OF_KEY, key, world=ctx, by_value=False, group=group) for key in keys
    ]
    commands += [("DOM.describeNode", {}) for _ in keys]
    commands += [("DOM.resolveNode", {"objectGroup": group}) for _ in keys]
    commands += [("DOMDebugger.getEventListeners", {"depth": 0, "pierce": True}) for _ in keys]
    sets: dict[int, ParamFrom] = {}
    for i in range(n):
        sets[n + i] = ParamFrom("objectId", i, ("result", "objectId"))
        sets[2 * n + i] = ParamFrom("backendNodeId", n + i, ("node", "backendNodeId"))
        sets[3 * n + i] = ParamFrom("objectId", 2 * n + i, ("object", "objectId"))
    replies = await state.session.cdp_batch(commands, session_id, sets=sets)
    state.session.fire_and_forget(
        state.session.cdp("Runtime.releaseObjectGroup", {"objectGroup": group}, session_id=session_id)
    )
    known = state.listener_keys.setdefault((session_id, ctx), {})
    found: dict[int, frozenset[str]] = {}
    for i, key in enumerate(keys):
        # A page error is PageScriptError (capture.py's extras); null: gone since the walk.
        if mixed_answer(NODE_OF_KEY, replies[i]).objectId is None:
            continue
        described, resolved, listing = replies[n + i], replies[2 * n + i], replies[3 * n + i]
        for reply in (described, resolved, listing):
            if isinstance(reply, BrowserxError):
                raise reply  # a link failed for a node that is there: the whole listing instead
        if not isinstance(described, dict) or not isinstance(listing, dict):
            continue  # (every answer is a result or an error)
        node = described.get("node")
        backend = node.get("backendNodeId") if isinstance(node, dict) else None
        rows = listing.get("listeners")
        types = CLICK_EVENT_SET.intersection(
            row.get("type") for row in (rows if isinstance(rows, list) else []) if isinstance(row, dict)
        )
        if types:
            found[key] = types
            if isinstance(backend, int):
                known[backend] = key  # the next full listing needs no lookup for it
    return found


class Listing(enum.Enum):
    """How a snapshot lists a document's click listeners."""

    BESIDE = "whole"  # the whole document, beside the walk (sent before it: its transfer overlaps)
    AFTER = "whole, after the walk"  # what the next snapshots build on
    FRESH = "fresh"  # only the elements the walk meets fresh since the last listed walk


def listing_for(listing: BigListing | None, now: float, acting: bool) -> Listing:
    """How a snapshot beginning at ``now`` lists a document's listeners. Only a listing taken after
    a stamped walk covers it (one sent beside it, before, would miss what the page added between,
    the settling wait included), so that costs one trip more and is done only when snapshots
    follow one another (within FULL_LISTING_EVERY_S), for the fresh-only ones that follow it:
    within FULL_LISTING_EVERY_S of that listing, with no action since (acted_on) nor running (its
    own snapshots), and not soon after a walk met too many fresh elements."""
    if listing is None or acting or now - listing.overflowed < FULL_LISTING_EVERY_S:
        return Listing.BESIDE
    if listing.listed_gen >= 0 and now - listing.taken < FULL_LISTING_EVERY_S:
        return Listing.FRESH
    return Listing.AFTER if now - listing.seen < FULL_LISTING_EVERY_S else Listing.BESIDE


def remember_whole_listing(
    state: CaptureState,
    session_id: str | None,
    world: tuple[str, int],
    keys: dict[int, frozenset[str]],
    started: float,
    heavy: bool,
) -> None:
    """After a whole listing beside the walk: a big one is kept (covering no walk: the next
    snapshot soon after lists after its walk), else forgotten."""
    if heavy or sum(len(types) for types in keys.values()) < BIG_LISTING:
        state.big_listings.pop(session_id, None)
        return
    overflowed = _overflowed(state.big_listings.get(session_id), world)
    state.big_listings[session_id] = BigListing(world, started, -1, dict(keys), overflowed, seen=started)


def _overflowed(before: BigListing | None, world: tuple[str, int]) -> float:
    """When the document's walks last met too many fresh elements, as the listing kept says."""
    return before.overflowed if before is not None and before.world == world else -math.inf


async def listed_fresh(
    state: CaptureState,
    session_id: str | None,
    big: BigListing,
    world: tuple[str, int],
    fresh: list[int] | None,
    stamp: int,
    started: float,
    asked: bool,
) -> tuple[dict[int, frozenset[str]], bool]:
    """A big-listing document's listeners as of the walk stamped ``stamp``: the last ones brought
    up to date by the fresh elements' own (``asked``: Listing.FRESH), or (Listing.AFTER; too many
    fresh, another document, or their chain failed) the whole document listed after the walk; and
    whether the fresh ones sufficed."""
    ctx = world[1]
    if asked and fresh is not None and world == big.world:
        try:
            found = await fresh_listeners(state, session_id, ctx, fresh)
        except (CdpError, PageScriptError) as exc:
            log.info("fresh_listing_failed", session=session_id, error=str(exc))
        else:
            for key in fresh:
                big.by_key.pop(key, None)
            big.by_key.update(found)
            big.listed_gen = stamp
            return dict(big.by_key), True
    types = await listing_afresh(state, session_id)
    keys = await listener_keys(state, session_id, ctx, types) if types else {}
    # Asked, and too many fresh (the walk said so): not worth asking again for a while.
    overflowed = started if asked and fresh is None and world == big.world else _overflowed(big, world)
    state.big_listings[session_id] = BigListing(world, started, stamp, dict(keys), overflowed, seen=started)
    return keys, False
