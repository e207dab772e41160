"""Occlusion: which of a snapshot's interactive elements something else covers, tested in the
page (``__browserx.cover``, collector.js) for the targets the collector's own pass did not test."""

from __future__ import annotations

import asyncio

import msgspec

from browserx import page_js
from browserx.relay.cdp_types import CallFunctionOnResult
from browserx.snapshot.capture_state import CaptureState
from browserx.snapshot.frames import FrameCapture
from browserx.snapshot.merge import Tree
from browserx.snapshot.model import Node, NodeRef
from browserx.snapshot.snapshot import Cover

HIT_TEST_JS = page_js.load("browserx.snapshot", "occlusion_hit_test.js")


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
    reply = await state.session.cdp(
        "Runtime.callFunctionOn",
        {"functionDeclaration": HIT_TEST_JS, "executionContextId": frame.context_id, "returnByValue": True,
         "arguments": [{"value": [n.ref.key for n in nodes]}]},
        session_id=frame.session_id,
        result_type=CallFunctionOnResult,
    )  # fmt: skip
    results = msgspec.json.decode(reply.result.value or "[]")
    out: dict[int, Cover] = {}
    for node, hit in zip(nodes, results, strict=False):
        if hit:
            by = tree.by_ref.get(NodeRef(frame.label, int(hit[0]))) if hit[0] else None
            out[node.index] = Cover(by, str(hit[1]))
    return out
