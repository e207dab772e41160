"""DomSnapshot: one immutable observation of a tab — the node tree of all its frames, the IDs
of the elements an agent can act on, what is out of view or covered, and stats. Pure data: made
by the pipeline (snapshot/pipeline.py) from what capture collected, read by views and actions."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from browserx.snapshot.context import ControlContext
from browserx.snapshot.model import NO_CHILDREN, NO_FACTS, Node, NodeRef, with_ids_below
from browserx.snapshot.stability import Settled
from browserx.snapshot.visibility import Placements


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
    cut_frames: int = 0  # documents read only up to the collector's node budget (RawFrame.cut)

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
            "cut_frames": self.cut_frames,
        }  # fmt: skip


@dataclass
class SnapshotCaches:
    """Derived data the views compute at most once per snapshot (and drop with it)."""

    facts: dict[int, dict[str, Any]] = field(default_factory=dict)  # node index → control facts
    with_ids_below: bytearray | None = None  # per node index: has an ID'd descendant
    contexts: dict[int, ControlContext] | None = None  # node index → where a control sits (context.py)
    # Boxes (x, y, w, h; top-level viewport at capture) of what was left out for data-no-ai:
    # screenshots fill them (pixels/screenshot.py).
    opted_out_boxes: list[tuple[float, float, float, float]] = field(default_factory=list)


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
