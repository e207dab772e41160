"""The pure part of making a snapshot: what capture collected → merge → visibility → roles and
tiers → names (``prepare``), then, with what covers what, IDs and the frozen DomSnapshot
(``finish``). No I/O: the tab's pipeline (tabs/snapshots.py) does the page round trips around it."""

from __future__ import annotations

import time
from dataclasses import dataclass
from types import MappingProxyType

from browserx.snapshot.accname import accessible_name
from browserx.snapshot.classify import classify as classify_tree
from browserx.snapshot.classify import is_interactive
from browserx.snapshot.context import control_contexts
from browserx.snapshot.frames import KEY_BITS, FrameCapture
from browserx.snapshot.ids import IdAllocator, sibling_positions, signature_of
from browserx.snapshot.label_hunt import hunt_label
from browserx.snapshot.merge import Tree, merge
from browserx.snapshot.model import F_HIT_TESTED, Box, Node, NodeRef
from browserx.snapshot.name_context import NameContext
from browserx.snapshot.snapshot import Cover, DomSnapshot, SnapshotStats
from browserx.snapshot.stability import Settled
from browserx.snapshot.stand_ins import show_content_boxes
from browserx.snapshot.visibility import Placements, compute_visibility, is_scroll_container

# Roles whose names the views show even though they are not acted on.
NAMED_GROUP_ROLES = frozenset(
    {"heading", "img", "form", "dialog", "alertdialog", "navigation", "main", "banner", "contentinfo",
     "complementary", "region", "search", "group", "table", "figure", "tabpanel", "article", "alert", "status"}
)  # fmt: skip
MAX_NAME = 120


def _text_content(node: Node, limit: int = MAX_NAME) -> str:
    parts: list[str] = []
    size = 0
    for n in node.walk():
        if n.is_text and n.rendered and n.text.strip():
            parts.append(n.text)
            size += len(n.text) + 1
            if size > limit:
                break
    return " ".join(parts)


def _shown_value(field: Node, name: str) -> str:
    """The text a select's field shows (its chosen value): its visible text, its labels' and
    its name's left out."""
    parts: list[str] = []
    stack = list(reversed(field.children))
    while stack:
        n = stack.pop()
        if n.is_text:
            if n.visible and n.text.strip():
                parts.append(n.text)
        elif n.tag != "label":
            stack.extend(reversed(n.children))
    shown = " ".join(parts).strip()
    if name and shown.startswith(name):
        shown = shown[len(name) :].strip()
    return shown[:MAX_NAME]


def _name_nodes(tree: Tree, names_for: list[Node]) -> set[int]:
    ctx = NameContext(tree.root, tree.ids, tree.by_ref, labels_complete=True)
    hunted: set[int] = set()
    for node in names_for:
        proxy = node.state.get("proxyOf")
        if proxy is not None and node.state.get("proxyField"):
            # A field standing in for its select's transparent focus input (stand_ins.py): named
            # as the input is (its label), the text the field shows is its value.
            name = accessible_name(proxy, ctx)
            if not name:
                name = hunt_label(proxy, ctx)
                if name:
                    hunted.add(node.index)
            if node.role == "combobox":  # a button laid over its field (Ionic) has no value
                node.state = {**node.state, "value": _shown_value(node, name)}
        elif proxy is not None:
            # A label standing in for a hidden toggle: what the label itself says or shows
            # first (MkDocs' palette label says "Switch to dark mode" while its radio's own
            # aria-label describes the other state), else the toggle's name.
            name = _text_content(node) or node.attrs.get("title") or accessible_name(proxy, ctx)
        else:
            name = accessible_name(node, ctx)
        if not name and node.role in ("textbox", "searchbox", "combobox", "spinbutton", "checkbox", "radio",
                                      "switch", "slider", "listbox"):  # fmt: skip
            name = hunt_label(node, ctx)
            if name:
                hunted.add(node.index)
        if not name and node.tier == 2:
            name = node.attrs.get("title") or _text_content(node)
        node.name = name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"
    return hunted


@dataclass
class Prepared:
    """A snapshot before its occlusion check and IDs (the pure part of the pipeline)."""

    frames: list[FrameCapture]
    tree: Tree
    placements: Placements
    actionable: list[Node]
    hunted: set[int]

    def hit_test_targets(self) -> list[Node]:
        """Interactive elements in the viewport: the only ones worth hit-testing."""
        return [n for n in self.actionable if n.index not in self.placements and is_interactive(n)]

    def covers_from_page(self, targets: list[Node]) -> tuple[dict[int, Cover], list[Node]]:
        """What covers the targets the collector hit-tested, and the targets it did not test (the
        host tests those itself: listeners new since the last capture, delegated items deeper in)."""
        hits: dict[str, dict[int, tuple[int, str]]] = {}
        for frame in self.frames:
            found = hits[frame.label] = dict(frame.raw.hits)
            for _, closed in frame.closed_roots:
                found.update(closed.hits)
        covered: dict[int, Cover] = {}
        untested: list[Node] = []
        by_ref = self.tree.by_ref
        for node in targets:
            if not node.flags & F_HIT_TESTED:
                untested.append(node)
                continue
            hit = hits[node.ref.frame].get(node.ref.key)
            if hit is not None:
                cover_key, description = hit
                by = by_ref.get(NodeRef(node.ref.frame, int(cover_key))) if cover_key else None
                covered[node.index] = Cover(by, str(description))
        return covered, untested


def prepare(frames: list[FrameCapture]) -> Prepared:
    """merge → visibility → roles and tiers → names."""
    main = frames[0].raw
    tree = merge(frames)
    viewport = Box(0, 0, main.viewport[0], main.viewport[1])
    placements = compute_visibility(tree.nodes, viewport, (main.scroll[0], main.scroll[1]))
    show_content_boxes(tree.nodes, placements)
    for node in classify_tree(tree):
        # A transparent control classify revealed is placed where what it sits in is.
        shown = node.parent
        while shown is not None and not shown.visible:
            shown = shown.parent
        where = placements.get(shown.index) if shown is not None else None
        if where is not None:
            placements.put(node.index, where)
    actionable: list[Node] = []
    named: list[Node] = []
    for node in tree.nodes:
        if not node.is_element or not node.visible:
            continue
        if is_interactive(node) or is_scroll_container(node):
            actionable.append(node)
            named.append(node)
        elif node.role in NAMED_GROUP_ROLES:
            named.append(node)
    hunted = _name_nodes(tree, named)
    return Prepared(frames, tree, placements, actionable, hunted)


def finish(
    prepared: Prepared,
    ids: IdAllocator,
    covered: dict[int, Cover],
    *,
    tab_id: int,
    include_values: bool,
    capture_ms: float = 0.0,
    started: float | None = None,
    settled: Settled | None = None,
) -> DomSnapshot:
    """Assign IDs and freeze the snapshot."""
    frames, tree, actionable = prepared.frames, prepared.tree, prepared.actionable
    main = frames[0].raw
    # Part of a node's identity is the ID of its nearest surviving ID'd ancestor.
    known = ids.by_ref
    positions = sibling_positions(actionable)
    # Where each control sits (dialog/form/landmark/row chain, heading, rank): an ID moves to a
    # re-created node only in the same context; actions/matching.py heals by it too.
    contexts = control_contexts(tree.nodes, actionable)
    items = []
    for node in actionable:
        parent_id = None
        p = node.parent
        while p is not None and parent_id is None:
            parent_id = known.get(p.ref)
            p = p.parent
        sig = signature_of(node, node.name, parent_id, positions.get(id(node), 0), contexts.get(node.index))
        items.append((node, sig))
    id_of = ids.assign(items)
    by_id = {id_of[node.ref]: node for node in actionable}

    tiers: dict[int, int] = {}
    elements = visible = 0
    for node in tree.nodes:
        if node.is_element:
            elements += 1
            visible += node.visible
            tiers[node.tier] = tiers.get(node.tier, 0) + 1
    stats = SnapshotStats(
        total_nodes=len(tree.nodes),
        elements=elements,
        visible_elements=visible,
        interactive=sum(1 for n in actionable if is_interactive(n)),
        tier_counts=MappingProxyType(tiers),
        frames=len(frames),
        shadow_roots=tree.shadow_roots,
        pruned_hidden=sum(f.raw.pruned for f in frames),
        capture_ms=capture_ms,
        build_ms=(time.perf_counter() - started) * 1000 if started is not None else 0.0,
        hidden_interactive=0,
        cut_frames=sum(1 for f in frames if f.raw.cut or any(r.cut for _, r in f.closed_roots)),
    )
    snap = DomSnapshot(
        tab_id=tab_id,
        url=main.url,
        title=main.title,
        viewport=(main.viewport[0], main.viewport[1]),
        scroll=(main.scroll[0], main.scroll[1]),
        document_size=(main.docSize[0], main.docSize[1]),
        root=tree.root,
        nodes=tuple(tree.nodes),
        by_id=MappingProxyType(by_id),
        id_of=MappingProxyType(dict(id_of)),
        placements=prepared.placements,
        covered=MappingProxyType(covered),
        hunted_names=frozenset(prepared.hunted),
        include_values=include_values,
        stats=stats,
        settled=settled,
        frames=tuple(
            {
                "frame": f.label,
                "url": f.raw.url,
                "nodes": prepared.tree.node_counts.get(f.label, 0),
                "closed_shadow_roots": len(f.closed_roots),
                "timings_ms": {k: round(v * 1000, 1) for k, v in f.timings.items()}
                | {"collect_in_page": round(f.raw.pageMs, 1), "hit_test_in_page": round(f.raw.hitMs, 1)},
                "hit_tested_in_page": f.raw.hitTested,
                "hit_reused_in_page": f.raw.hitReused,
                "listing": f.listing,
                **({"problems": f.problems} if f.problems else {}),
            }
            for f in frames
        ),
    )
    snap.caches.contexts = contexts  # read by tabs/memory.py's fingerprints
    snap.caches.opted_out_boxes = tree.opted_out_boxes
    return snap


class LeftDocuments:
    """Whether a node reference is of a key epoch no longer in use (a class, not a closure: see
    scripts/build_native.py)."""

    def __init__(self, live: frozenset[int]) -> None:
        self.live = live

    def __call__(self, ref: NodeRef) -> bool:
        return (ref.key >> KEY_BITS) not in self.live
