"""Occlusion: which of a snapshot's interactive elements something else covers, tested in the
page (``__browserx.cover``, collector.js) for the targets the collector's own pass did not test."""

from __future__ import annotations

import asyncio

import msgspec

from browserx import page_js
from browserx.page.capture_state import CaptureState
from browserx.page.page_call import page_call
from browserx.snapshot.frames import FrameCapture
from browserx.snapshot.merge import Tree
from browserx.snapshot.model import Node, NodeRef
from browserx.snapshot.snapshot import Cover

HIT_TEST_JS = page_js.load("browserx.page", "occlusion_hit_test.js")


async def hit_test(
    state: CaptureState, frames: list[FrameCapture], tree: Tree, targets: list[Node]
) -> dict[int, Cover]:
    by_frame: dict[str, list[Node]] = {}
    for node in targets:
        by_frame.setdefault(node.ref.frame, []).append(node)
    frame_by_label = {f.label: f for f in frames}
    covered: dict[int, Cover] = {}
    for part in await asyncio.gather(
        *(_hit_test_frame(state, frame_by_label[label], tree, nodes) for label, nodes in by_frame.items())
    ):
        covered.update(part)
    return covered


async def _hit_test_frame(
    state: CaptureState, frame: FrameCapture, tree: Tree, nodes: list[Node]
) -> dict[int, Cover]:
    # A page error fails the snapshot (PageScriptError): covers it cannot test are no "uncovered".
    value = await page_call(
        state.session,
        HIT_TEST_JS,
        [n.ref.key for n in nodes],
        world=frame.context_id,
        session_id=frame.session_id,
    )
    results = msgspec.json.decode(value or "[]")
    out: dict[int, Cover] = {}
    for node, hit in zip(nodes, results, strict=False):
        if hit:
            by = tree.by_ref.get(NodeRef(frame.label, int(hit[0]))) if hit[0] else None
            out[node.index] = Cover(by, str(hit[1]))
    return out
