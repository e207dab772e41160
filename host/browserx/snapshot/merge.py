"""Merge: turn the per-frame captures into one tab-wide tree of ``Node``s.

Closed shadow roots go under their host; out-of-process frame documents go under the
``<iframe>`` that owns them, with their boxes moved into top-level viewport coordinates.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import structlog

from browserx.snapshot.frames import FrameCapture, RawFrame
from browserx.snapshot.model import NO_CHILDREN, NO_FACTS, Box, Node, NodeRef, ScopeIndex
from browserx.snapshot.redaction import redact_url, redact_url_attrs

log = structlog.get_logger("browserx.merge")

# The deepest tree any later pass or view walks, so that they may walk it recursively (the deepest
# walk, the html view, takes three Python frames a level, under the interpreter's limit of 1,000).
# Real pages nest far less (HTML's own parser stops at 512); only a page's script builds deeper, as
# an attack. Past FLAT_AT levels the tall part of a tree is laid flat under its ancestor there, in
# document order, while every subtree at most KEEP_HEIGHT high stays whole: a button keeps its text.
MAX_TREE_DEPTH = 256
KEEP_HEIGHT = 16
FLAT_AT = MAX_TREE_DEPTH - KEEP_HEIGHT - 2


def build_nodes(raw: RawFrame, label: str, dx: float = 0.0, dy: float = 0.0) -> list[Node]:
    """Nodes of one collector result, parent-linked, boxes shifted by (dx, dy). Index 0 is the root.
    Hot path (one pass over every node of the page): plain loops, no helper calls, and nothing
    allocated per node that can be shared (text nodes share one ref and one empty child list,
    nodes without attributes or state one empty dict; main-frame boxes reuse the decoded
    numbers)."""
    nodes: list[Node] = []
    append = nodes.append
    # tuple.__new__ skips NamedTuple's Python-level constructor: measurably faster at 75k nodes.
    new_tuple = tuple.__new__
    text_ref = new_tuple(NodeRef, (label, 0))
    shift = bool(dx or dy)
    parents, tags, texts, attrs, flags, states = (
        raw.parent,
        raw.tag,
        raw.text,
        raw.attrs,
        raw.flags,
        raw.state,
    )
    # Read as objects: compiled (scripts/build_native.py), a list[float] item would be unboxed and
    # boxed again, a new float per number instead of the decoded one (~5 MB at 50k elements).
    keys: list[Any] = raw.key
    boxes: list[Any] = raw.box
    text_boxes = raw.textBoxes
    b = -4  # where this node's box starts in the box column
    for i, tag in enumerate(tags):
        parent_index = parents[i]
        parent = nodes[parent_index] if parent_index >= 0 else None
        if tag == "#text":
            if text_boxes:
                b += 4
            # (A text node's flags say where it had white space: F_SPACE_BEFORE / _AFTER.)
            node = Node(
                text_ref, tag, parent, NO_CHILDREN, NO_FACTS, texts.get(i, ""), None, flags[i], NO_FACTS
            )
        else:
            b += 4
            if tag[0] == "#":
                box = None
            elif shift:
                box = new_tuple(Box, (boxes[b] + dx, boxes[b + 1] + dy, boxes[b + 2], boxes[b + 3]))
            else:
                box = new_tuple(Box, (boxes[b], boxes[b + 1], boxes[b + 2], boxes[b + 3]))
            ref = new_tuple(NodeRef, (label, keys[i]))
            node = Node(
                ref, tag, parent, [], attrs.get(i) or NO_FACTS, "", box, flags[i], states.get(i) or NO_FACTS
            )
        if parent is not None:
            if parent.children is NO_CHILDREN:  # a malformed payload: text never has children
                parent.children = []
            parent.children.append(node)
        append(node)
    return nodes


class Tree:
    """The merged tree of a tab plus the lookups later passes need."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self.by_ref: dict[NodeRef, Node] = {}
        self.ids = ScopeIndex()
        self.nodes: list[Node] = []
        self.shadow_roots = 0
        self.node_counts: dict[str, int] = {}  # per frame label, as captured
        # Boxes (x, y, w, h, top-level viewport) of the subtrees left out for data-no-ai.
        self.opted_out_boxes: list[tuple[float, float, float, float]] = []

    def finish(self) -> None:
        """Number nodes in document order, set scopes, index ids; link labels to their controls."""
        nodes: list[Node] = []
        self.nodes = nodes
        append = nodes.append
        by_ref = self.by_ref
        scopes = self.ids.by_scope
        labels: list[Node] = []
        # One pre-order pass (an explicit stack: a generator's resume per node shows at 75k); a
        # LEVEL_UP marker below each node's children counts the depth.
        stack: list[Node | None] = [self.root]
        pop, push, mark = stack.pop, stack.extend, stack.append
        depth = 0
        while stack:
            node = pop()
            if node is None:
                depth -= 1
                continue
            if node.children:
                if depth == FLAT_AT:
                    _lay_flat(node)
                mark(None)
                push(reversed(node.children))
                depth += 1
            node.index = len(nodes)
            append(node)
            tag = node.tag
            parent = node.parent
            if parent is None:
                node.scope = node
            elif parent.tag == "#document" or parent.tag == "#shadow-root":
                node.scope = parent
            elif parent.tag == "slot" and parent.state.get("slotted"):
                # Assigned to a slot: it lives in the scope of the shadow root's host.
                root = parent.scope
                host = root.parent if root is not None and root.tag == "#shadow-root" else None
                node.scope = host.scope if host is not None else parent.scope
            else:
                node.scope = parent.scope
            if tag[0] == "#":
                if tag == "#shadow-root":
                    self.shadow_roots += 1
                continue
            by_ref[node.ref] = node
            element_id = node.attrs.get("id")
            if element_id:
                scopes.setdefault(id(node.scope), {}).setdefault(element_id, node)
            if tag == "label":
                labels.append(node)
        for label in labels:
            control_key = label.state.get("control")
            if control_key:
                control = by_ref.get(NodeRef(label.ref.frame, int(control_key)))
                if control is not None:
                    if control.state is NO_FACTS:  # shared: never written to
                        control.state = {}
                    control.state.setdefault("labels", []).append(label.ref.key)


def _lay_flat(node: Node) -> None:
    """The tall part of ``node``'s subtree laid flat under it, in document order: each descendant
    becomes its child, whole if its subtree is at most KEEP_HEIGHT high, else alone, its own
    descendants following it (see MAX_TREE_DEPTH)."""
    high = _tall_nodes(node)
    below: list[Node] = []
    stack = list(reversed(node.children))
    while stack:
        child = stack.pop()
        below.append(child)
        child.parent = node
        if id(child) in high:
            stack.extend(reversed(child.children))
            child.children = []
    log.info("tree_laid_flat", depth=FLAT_AT, nodes=len(below))
    node.children = below


def _tall_nodes(root: Node) -> set[int]:
    """ids of the nodes under ``root`` whose subtree is more than KEEP_HEIGHT high (post-order)."""
    height: dict[int, int] = {}
    tall: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if not done:
            stack.append((node, True))
            stack.extend((c, False) for c in node.children)
            continue
        h = 1 + max((height.pop(id(c)) for c in node.children), default=0)
        height[id(node)] = h
        if h > KEEP_HEIGHT + 1:
            tall.add(id(node))
    return tall


def merge(frames: list[FrameCapture]) -> Tree:
    for frame in frames:  # no secret URL enters the tree: the page's, its frames', its links'
        for raw in (frame.raw, *(r for _, r in frame.closed_roots)):
            raw.url = redact_url(raw.url)
            redact_url_attrs(raw.attrs.values())
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
        if frame.label in offsets:
            ox, oy = offsets[frame.label]
            for raw in (frame.raw, *(r for _, r in frame.closed_roots)):
                b = raw.noAiBoxes
                for i in range(0, len(b) - 3, 4):
                    tree.opted_out_boxes.append((b[i] + ox, b[i + 1] + oy, b[i + 2], b[i + 3]))
        by_key = frame_nodes.get(frame.label, {})
        for key, types in frame.listeners.items():
            node = by_key.get(key)
            if node is not None:
                node.listeners = types
        tree.node_counts[frame.label] = len(frame.raw.key) + sum(len(r.key) for _, r in frame.closed_roots)
        frame.drop_columns()
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
