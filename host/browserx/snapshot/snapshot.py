"""DomSnapshot: one immutable observation of a tab, and ``take_snapshot`` which makes it:
(settle →) capture → merge → visibility → roles/tiers → names → occlusion → IDs."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import msgspec

from browserx.heap import paused_gc
from browserx.service import DomService
from browserx.snapshot.accname import NameContext, accessible_name, hunt_label
from browserx.snapshot.capture import KEY_BITS, FrameCapture, capture_tab
from browserx.snapshot.classify import classify as classify_tree
from browserx.snapshot.classify import is_interactive
from browserx.snapshot.ids import IdAllocator, sibling_positions, signature_of
from browserx.snapshot.merge import Tree, merge
from browserx.snapshot.model import F_HIT_TESTED, NO_CHILDREN, NO_FACTS, Box, Node, NodeRef, with_ids_below
from browserx.snapshot.stability import Settled, SettleOptions, settled_from
from browserx.snapshot.visibility import Placements, compute_visibility, is_scroll_container

# Roles whose names the views show even though they are not acted on.
NAMED_GROUP_ROLES = frozenset(
    {"heading", "img", "form", "dialog", "alertdialog", "navigation", "main", "banner", "contentinfo",
     "complementary", "region", "search", "group", "table", "figure", "tabpanel", "article", "alert", "status"}
)  # fmt: skip
MAX_NAME = 120

HIT_TEST_JS = """function(keys){
  const B = globalThis.__browserx;
  return JSON.stringify(keys.map((key) => {
    const el = B.nodeOf(key);
    return el && el.isConnected ? B.cover(el) : null;
  }));
}"""


@dataclass(frozen=True, slots=True)
class Cover:
    """What covers an element at every point tested."""

    by: Node | None  # the covering node when it is part of the snapshot
    description: str  # tag#id.class of the covering element


@dataclass(frozen=True)
class SnapshotStats:
    total_nodes: int
    elements: int
    visible_elements: int
    interactive: int
    tier_counts: Mapping[int, int]
    frames: int
    shadow_roots: int
    pruned_hidden: int
    capture_ms: float
    build_ms: float
    hidden_interactive: int
    hit_tested_by_host: int = 0  # targets the collector did not hit-test (one more call)

    def to_dict(self) -> dict[str, Any]:
        return {
            "total_nodes": self.total_nodes,
            "elements": self.elements,
            "visible_elements": self.visible_elements,
            "interactive": self.interactive,
            "tiers": {"semantic": self.tier_counts.get(1, 0), "interactive": self.tier_counts.get(2, 0),
                      "structural": self.tier_counts.get(3, 0)},
            "frames": self.frames,
            "shadow_roots": self.shadow_roots,
            "pruned_hidden": self.pruned_hidden,
            "capture_ms": round(self.capture_ms, 1),
            "build_ms": round(self.build_ms, 1),
            "hit_tested_by_host": self.hit_tested_by_host,
        }  # fmt: skip


@dataclass
class SnapshotCaches:
    """Derived data the views compute at most once per snapshot (and drop with it)."""

    facts: dict[int, dict[str, Any]] = field(default_factory=dict)  # node index → control facts
    with_ids_below: bytearray | None = None  # per node index: has an ID'd descendant


_SEQUENCE = itertools.count(1)


@dataclass(frozen=True)
class DomSnapshot:
    tab_id: int
    url: str
    title: str
    viewport: tuple[float, float]
    scroll: tuple[float, float]
    document_size: tuple[float, float]
    root: Node
    nodes: tuple[Node, ...]
    by_id: Mapping[int, Node]
    id_of: Mapping[NodeRef, int]
    placements: Placements  # node.index → where it is, when not in view
    covered: Mapping[int, Cover]  # node.index → what covers it
    hunted_names: frozenset[int]  # node indexes whose name came from a label hunt
    include_values: bool
    stats: SnapshotStats
    frames: tuple[dict[str, Any], ...]
    created_at: float = field(default_factory=time.time)
    # Which snapshot this is (never reused, unlike id(): a later snapshot may get a freed address).
    seq: int = field(default_factory=_SEQUENCE.__next__)
    settled: Settled | None = None  # the stability wait and page events, when it was asked for
    caches: SnapshotCaches = field(default_factory=SnapshotCaches, compare=False, repr=False)

    def has_id_below(self, node: Node) -> bool:
        """Whether a visible descendant of ``node`` carries an ID (one pass, then cached)."""
        below = self.caches.with_ids_below
        if below is None:
            below = self.caches.with_ids_below = with_ids_below(self.nodes, self.id_of)
        return bool(below[node.index])

    def release(self) -> None:
        """Break the node tree's reference cycles so it is freed at once (see heap.py). Only for
        a snapshot nobody reads any more."""
        for _ in self.release_steps():
            pass

    def release_steps(self, step: int = 4096) -> Iterator[None]:
        """``release`` in slices (pausing after each): a huge tree takes a good part of a second
        to tear down and free, and this lets it happen while the next capture waits on the page.
        Each node's own dicts go with its slice; the nodes themselves go with the last reference."""
        nodes = self.nodes
        for start in range(0, len(nodes), step):
            for i in range(start, min(start + step, len(nodes))):
                node = nodes[i]
                node.parent = None
                node.scope = None
                node.children = NO_CHILDREN
                node.attrs = NO_FACTS
                node.state = NO_FACTS
            yield
        self.caches.facts.clear()
        self.caches.with_ids_below = None

    def id_for(self, node: Node) -> int | None:
        return self.id_of.get(node.ref)

    def node(self, element_id: int) -> Node | None:
        return self.by_id.get(element_id)

    def context(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "title": self.title,
            "viewport": {"width": self.viewport[0], "height": self.viewport[1]},
            "scroll": {"x": self.scroll[0], "y": self.scroll[1]},
            "document": {"width": self.document_size[0], "height": self.document_size[1]},
        }


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


def _name_nodes(tree: Tree, names_for: list[Node]) -> set[int]:
    ctx = NameContext(tree.root, tree.ids, tree.by_ref, labels_complete=True)
    hunted: set[int] = set()
    for node in names_for:
        proxy = node.state.get("proxyOf")
        if proxy is not None:
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


async def _hit_test(
    service: DomService, frames: list[FrameCapture], tree: Tree, targets: list[Node]
) -> dict[int, Cover]:
    by_frame: dict[str, list[Node]] = {}
    for node in targets:
        by_frame.setdefault(node.ref.frame, []).append(node)
    frame_by_label = {f.label: f for f in frames}
    covered: dict[int, Cover] = {}
    for part in await asyncio.gather(
        *(_hit_test_frame(service, frame_by_label[label], tree, nodes) for label, nodes in by_frame.items())
    ):
        covered.update(part)
    return covered


async def _hit_test_frame(
    service: DomService, frame: FrameCapture, tree: Tree, nodes: list[Node]
) -> dict[int, Cover]:
    reply = await service.cdp(
        "Runtime.callFunctionOn",
        {"functionDeclaration": HIT_TEST_JS, "executionContextId": frame.context_id, "returnByValue": True,
         "arguments": [{"value": [n.ref.key for n in nodes]}]},
        session_id=frame.session_id,
    )  # fmt: skip
    results = msgspec.json.decode(reply["result"].get("value") or "[]")
    out: dict[int, Cover] = {}
    for node, hit in zip(nodes, results, strict=False):
        if hit:
            by = tree.by_ref.get(NodeRef(frame.label, int(hit[0]))) if hit[0] else None
            out[node.index] = Cover(by, str(hit[1]))
    return out


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
    classify_tree(tree)
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
    items = []
    for node in actionable:
        parent_id = None
        p = node.parent
        while p is not None and parent_id is None:
            parent_id = known.get(p.ref)
            p = p.parent
        items.append((node, signature_of(node, node.name, parent_id, positions.get(id(node), 0))))
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
    )
    return DomSnapshot(
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
                **({"problems": f.problems} if f.problems else {}),
            }
            for f in frames
        ),
    )


class _LeftDocuments:
    """Whether a node reference is of a key epoch no longer in use (a class, not a closure: see
    scripts/build_native.py)."""

    def __init__(self, live: frozenset[int]) -> None:
        self.live = live

    def __call__(self, ref: NodeRef) -> bool:
        return (ref.key >> KEY_BITS) not in self.live


def _forget_left_documents(service: DomService) -> None:
    """Forget the IDs of documents no session of the tab shows any more (navigated away from,
    or in a frame that went away): their keys are of a key epoch no session uses now. An old ID
    then gets a clear error instead of the tab's memory growing with every page visited."""
    live = frozenset(base >> KEY_BITS for base in service.key_bases.values())
    if live != service.live_key_epochs:
        service.live_key_epochs = live
        service.ids.forget(_LeftDocuments(live))


async def take_snapshot(
    service: DomService, include_values: bool = False, settle: SettleOptions | None = None
) -> DomSnapshot:
    """Capture and build a new snapshot of the tab. Call under the tab's lock. With ``settle``,
    the page is first let settle and its page events are drained (``DomSnapshot.settled``).

    Host work overlaps the page's where it can: the old snapshot is torn down while the page
    runs the collector, and IDs are assigned while it hit-tests."""
    t0 = time.perf_counter()
    # (Not asyncio.gather with tuple unpacking: compiled, gather's list fails the tuple check.)
    capturing = asyncio.ensure_future(capture_tab(service, include_values, settle))
    try:
        await service.discard_snapshots()
    except BaseException:
        capturing.cancel()
        raise
    frames = await capturing
    _forget_left_documents(service)
    t1 = time.perf_counter()
    settled = None
    if settle is not None:
        settled = settled_from(frames[0].settled, (f.settled for f in frames[1:]), settle.wait)
    with paused_gc():
        prepared = prepare(frames)
    covered, targets = prepared.covers_from_page(prepared.hit_test_targets())
    hit_test = asyncio.ensure_future(_hit_test(service, frames, prepared.tree, targets)) if targets else None
    if hit_test is not None:
        for _ in range(3):  # until its requests are written (it gathers one task per frame)
            await asyncio.sleep(0)
    try:
        with paused_gc():
            snap = finish(
                prepared, service.ids, covered, tab_id=service.tab_id, include_values=include_values,
                capture_ms=(t1 - t0) * 1000 - (settled.waited_ms if settled else 0.0), started=t1,
                settled=settled,
            )  # fmt: skip
    except BaseException:
        if hit_test is not None:
            hit_test.cancel()
        raise
    if hit_test is not None:
        covered.update(await hit_test)  # snap.covered is a live view of this dict
        build_ms = (time.perf_counter() - t1) * 1000
        snap = replace(snap, stats=replace(snap.stats, build_ms=build_ms, hit_tested_by_host=len(targets)))
    return snap
