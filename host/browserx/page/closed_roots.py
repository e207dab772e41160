"""Closed shadow roots, which page JavaScript cannot see: the collector leaves the elements that
might host one in ``globalThis.__browserx.suspects``; CDP (which sees through them) says which do,
and the collector walks those roots, handed in by object handle (closed_roots.js). Found roots
are remembered in the page, so later collector runs walk them inline.
"""

from __future__ import annotations

from typing import Any

import msgspec

from browserx import page_js
from browserx.page.capture_state import CaptureState
from browserx.page.page_call import Handle, call_request, mixed_answer, page_call, page_object
from browserx.relay.cdp_types import (
    DescribeNodeResult,
    GetPropertiesResult,
    ResolveNodeResult,
)
from browserx.relay.protocol import MAX_ARGS_FROM, ArgsFrom
from browserx.snapshot.frames import RawFrame, collector_output

MAX_CLOSED_ROOT_DEPTH = 3
# Marks the suspected hosts that have no closed shadow root (by position in the array), so the
# collector does not suspect them again.
MARK_PLAIN_JS = page_js.load("browserx.page", "mark_plain.js")
CLOSED_ROOTS_JS = page_js.load("browserx.page", "closed_roots.js")
# A list the collector keeps for the host (its suspected hosts, the elements with internals).
REGISTRY_PART_JS = page_js.load("browserx.page", "registry_part.js")


async def object_ids(
    state: CaptureState, session_id: str | None, ctx: int, part: str, group: str = "browserx"
) -> tuple[str | None, list[str]]:
    """The objectId of a list the collector's registry keeps in the isolated world (``part``:
    "suspects", "internals"), and those of its elements."""
    arr = await page_object(
        state.session, REGISTRY_PART_JS, part, world=ctx, session_id=session_id, group=group
    )
    object_id = arr.objectId
    if not object_id:
        return None, []
    props = await state.session.cdp(
        "Runtime.getProperties",
        {"objectId": object_id, "ownProperties": True},
        session_id=session_id,
        result_type=GetPropertiesResult,
    )
    return object_id, [
        p.value.objectId
        for p in props.result
        if p.name.isdigit() and p.value is not None and p.value.objectId is not None
    ]


async def collect_closed_roots(
    state: CaptureState, session_id: str | None, ctx: int, opts: dict[str, Any]
) -> list[tuple[int, RawFrame]]:
    """Collect inside the closed shadow roots of the suspected hosts the collector left behind
    (and of hosts found inside those, a few levels deep). Batched: a handful of round trips."""
    found: list[tuple[int, RawFrame]] = []
    for _depth in range(MAX_CLOSED_ROOT_DEPTH):
        array, hosts = await object_ids(state, session_id, ctx, "suspects")
        if not hosts:
            break
        described = await state.session.cdp_batch(
            [("DOM.describeNode", {"objectId": o, "depth": 1, "pierce": True}) for o in hosts],
            session_id,
            result_type=DescribeNodeResult,
        )
        closed: list[tuple[str, int]] = []
        answered: list[int] = []  # positions of hosts CDP described (with or without a closed root)
        for i, (host, desc) in enumerate(zip(hosts, described, strict=True)):
            if not isinstance(desc, DescribeNodeResult):
                continue  # its error: gone, or not an element
            roots = [s for s in desc.node.shadowRoots if s.shadowRootType == "closed"]
            closed.extend((host, s.backendNodeId) for s in roots)
            if not roots:
                answered.append(i)
        if array is not None and answered:
            # Not asked again: sent now, run by the renderer before the next collector.
            await page_call(
                state.session, MARK_PLAIN_JS, [i for i in range(len(hosts)) if i not in set(answered)],
                this=array, session_id=session_id,
            )  # fmt: skip
        if not closed:
            break
        resolving = [
            ("DOM.resolveNode", {"backendNodeId": b, "executionContextId": ctx, "objectGroup": "browserx"})
            for _, b in closed
        ]
        hosts_of = [Handle(host) for host, _ in closed]
        # A page error fails the closed roots (capture.py's extras: the snapshot says so).
        if len(resolving) <= MAX_ARGS_FROM:  # one round trip: a root gone is null
            n = len(resolving)
            replies = await state.session.cdp_batch(
                [*resolving, call_request(CLOSED_ROOTS_JS, opts, *hosts_of, this=closed[0][0])],
                session_id,
                args={n: ArgsFrom(tuple(range(n)), ("object", "objectId"))},
            )
            value = mixed_answer(CLOSED_ROOTS_JS, replies[-1]).value
        else:
            resolved = await state.session.cdp_batch(resolving, session_id, result_type=ResolveNodeResult)
            found_roots = [
                Handle(r.object.objectId) if isinstance(r, ResolveNodeResult) else None for r in resolved
            ]
            value = await page_call(
                state.session,
                CLOSED_ROOTS_JS,
                opts,
                *hosts_of,
                *found_roots,
                this=closed[0][0],
                session_id=session_id,
            )
        batch = [
            (host, raw.normalized())
            for host, raw in msgspec.json.decode(
                collector_output(value, "closed shadow roots"), type=list[tuple[int, RawFrame]]
            )
        ]
        found.extend(batch)
        if not any(raw.suspects for _, raw in batch):
            break
    await state.session.cdp("Runtime.releaseObjectGroup", {"objectGroup": "browserx"}, session_id=session_id)
    return found
