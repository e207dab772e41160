"""Merge: turn the per-frame captures into one tab-wide tree of ``Node``s.

Closed shadow roots go under their host; out-of-process frame documents go under the
``<iframe>`` that owns them, with their boxes moved into top-level viewport coordinates.
"""

from __future__ import annotations

from collections.abc import Iterable

import structlog

from browserx.snapshot.capture import FrameCapture, RawFrame
from browserx.snapshot.model import Box, Node, NodeRef, ScopeIndex

log = structlog.get_logger("browserx.merge")


def _collapse(text: str) -> str:
    return " ".join(text.split())


def build_nodes(raw: RawFrame, label: str, dx: float = 0.0, dy: float = 0.0) -> list[Node]:
    """Nodes of one collector result, parent-linked, boxes shifted by (dx, dy). Index 0 is the root."""
    nodes: list[Node] = []
    keys, parents, tags, texts, attrs, boxes, flags, states = (
        raw.key, raw.parent, raw.tag, raw.text, raw.attrs, raw.box, raw.flags, raw.state,
    )  # fmt: skip
    for i, tag in enumerate(tags):
        node = Node(ref=NodeRef(label, keys[i]), tag=tag)
        if tag == "#text":
            node.text = _collapse(texts[i] or "")
        else:
            node.attrs = attrs[i] or {}
            node.flags = flags[i]
            node.state = states[i] or {}
            if not tag.startswith("#"):
                b = i * 4
                node.box = Box(boxes[b] + dx, boxes[b + 1] + dy, boxes[b + 2], boxes[b + 3])
        parent_index = parents[i]
        if parent_index >= 0:
            parent = nodes[parent_index]
            node.parent = parent
            parent.children.append(node)
        nodes.append(node)
    return nodes


class Tree:
    """The merged tree of a tab plus the lookups later passes need."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self.by_ref: dict[NodeRef, Node] = {}
        self.ids = ScopeIndex()
        self.nodes: list[Node] = []
        self.shadow_roots = 0

    def finish(self) -> None:
        """Number nodes in document order, set scopes, index ids; link labels to their controls."""
        self.nodes = list(self.root.walk())
        scope_stack: list[tuple[int, Node]] = []
        depth_of: dict[int, int] = {}
        for i, node in enumerate(self.nodes):
            node.index = i
            depth = 0 if node.parent is None else depth_of[id(node.parent)] + 1
            depth_of[id(node)] = depth
            while scope_stack and scope_stack[-1][0] >= depth:
                scope_stack.pop()
            node.scope = scope_stack[-1][1] if scope_stack else node
            if node.tag in ("#document", "#shadow-root"):
                scope_stack.append((depth, node))
                if node.tag == "#shadow-root":
                    self.shadow_roots += 1
            if node.ref.key:
                self.by_ref[node.ref] = node
            self.ids.add(node)
        for node in self.nodes:
            control_key = node.state.get("control") if node.tag == "label" else None
            if control_key:
                control = self.by_ref.get(NodeRef(node.ref.frame, int(control_key)))
                if control is not None:
                    control.state.setdefault("labels", []).append(node.ref.key)


def merge(frames: list[FrameCapture]) -> Tree:
    main = frames[0]
    main_nodes = build_nodes(main.raw, main.label)
    tree = Tree(main_nodes[0])
    offsets: dict[str, tuple[float, float]] = {main.label: (0.0, 0.0)}
    frame_nodes: dict[str, dict[int, Node]] = {main.label: _by_key(main_nodes)}
    _attach_closed_roots(main, frame_nodes[main.label], 0.0, 0.0)

    pending = list(frames[1:])
    while pending:
        progressed = False
        for frame in list(pending):
            parent_nodes = frame_nodes.get(frame.parent_label or "")
            if parent_nodes is None or frame.parent_label is None:
                continue
            pending.remove(frame)
            progressed = True
            owner = parent_nodes.get(frame.owner_key or -1)
            if owner is None:
                log.warning("frame_owner_missing", frame=frame.label, url=frame.raw.url)
                continue
            px, py = offsets[frame.parent_label]
            origin = owner.state.get("frameOrigin") or [0.0, 0.0]
            dx, dy = px + float(origin[0]), py + float(origin[1])
            nodes = build_nodes(frame.raw, frame.label, dx, dy)
            nodes[0].attrs = {"url": frame.raw.url, "title": frame.raw.title, "frame": frame.label}
            nodes[0].parent = owner
            owner.children.append(nodes[0])
            offsets[frame.label] = (dx, dy)
            frame_nodes[frame.label] = _by_key(nodes)
            _attach_closed_roots(frame, frame_nodes[frame.label], dx, dy)
        if not progressed:
            for frame in pending:
                log.warning("frame_unattached", frame=frame.label, url=frame.raw.url)
            break
    for frame in frames:
        by_key = frame_nodes.get(frame.label, {})
        for key, types in frame.listeners.items():
            node = by_key.get(key)
            if node is not None:
                node.listeners = types
    tree.finish()
    return tree


def _by_key(nodes: Iterable[Node]) -> dict[int, Node]:
    return {n.ref.key: n for n in nodes if n.ref.key}


def _attach_closed_roots(frame: FrameCapture, by_key: dict[int, Node], dx: float, dy: float) -> None:
    for host_key, raw in frame.closed_roots:
        host = by_key.get(host_key)
        if host is None:
            continue
        nodes = build_nodes(raw, frame.label, dx, dy)
        root = nodes[0]
        root.parent = host
        # What renders is the shadow tree (slotted light children reappear inside its slots),
        # so the light children walked before the root was known are replaced.
        host.children = [root]
        by_key.update(_by_key(nodes))
