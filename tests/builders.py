"""Snapshots for unit tests, shared by the test modules: from a recorded payload
(tests/snapshot/recordings, through the real pipeline) or built by hand from a small node tree
(``el``/``text``/``page``: the derived fields are given, not computed). Also shared: what the
html view's tests check its output with (``parsed_html``, ``HTML_STATE_ATTRS``) and the semantic
view the agent loop's tests observe (``AGENT_PAGE``, ``AGENT_OBS``)."""

from __future__ import annotations

import itertools
from html.parser import HTMLParser
from pathlib import Path
from types import MappingProxyType
from typing import Any

from browserx.interfaces.agent.request import Observation
from browserx.page.recording import load_recording
from browserx.snapshot.frames import FrameCapture, RawFrame
from browserx.snapshot.ids import IdAllocator
from browserx.snapshot.model import F_INLINE, Box, Node, NodeRef
from browserx.snapshot.pipeline import finish, prepare
from browserx.snapshot.snapshot import DomSnapshot, SnapshotStats
from browserx.snapshot.visibility import Placements
from browserx.views.html_common import VOID

RECORDINGS = Path(__file__).parent / "snapshot" / "recordings"


def recorded(name: str) -> list[FrameCapture]:
    """The capture payload recorded from a fixture page (``snap-controls``, ``oopif`` …)."""
    return load_recording(RECORDINGS / f"{name}.json")


def snapshot_of(
    frames: list[FrameCapture], ids: IdAllocator | None = None, include_values: bool = False
) -> DomSnapshot:
    """The snapshot the real pipeline builds from ``frames`` (``ids``: an allocator to share
    between snapshots, so that IDs carry over; a new one by default)."""
    return finish(prepare(frames), ids or IdAllocator(), {}, tab_id=1, include_values=include_values)


def recorded_snapshot(name: str, include_values: bool = False) -> DomSnapshot:
    """The snapshot of a recorded page (``snap-values`` …), IDs from 1 in document order."""
    return snapshot_of(recorded(name), include_values=include_values)


_KEYS = itertools.count(1)
_ID_KEY = "__test_id"


def el(
    tag: str,
    *children: Node,
    attrs: dict[str, str] | None = None,
    state: dict[str, Any] | None = None,
    role: str | None = None,
    name: str = "",
    visible: bool = True,
    tier: int = 3,
    inline: bool = False,
    bx_id: int | None = None,
    frame: str = "m",
) -> Node:
    """An element (``bx_id``: the ID the snapshot gives it)."""
    node = Node(
        NodeRef(frame, next(_KEYS)),
        tag,
        children=list(children),
        attrs=dict(attrs or {}),
        box=Box(0, 0, 100, 20),
        flags=F_INLINE if inline else 0,
        state=dict(state or {}),
        role=role,
        name=name,
        visible=visible,
        tier=tier,
    )
    for child in children:
        child.parent = node
    if bx_id is not None:
        node.state[_ID_KEY] = bx_id  # taken out again by page()
    return node


def text(value: str, visible: bool = True) -> Node:
    return Node(NodeRef("m", 0), "#text", text=value, visible=visible)


def doc(*children: Node, attrs: dict[str, str] | None = None, frame: str = "m") -> Node:
    """A #document (the page's, or a frame's under an <iframe> element)."""
    node = el("#document", *children, attrs=attrs, frame=frame)
    node.box = None
    return node


def page(*body: Node, include_values: bool = False, url: str = "http://test.example/") -> DomSnapshot:
    """A snapshot of a page whose <body> holds ``body``; IDs as the nodes' ``bx_id`` say."""
    root = doc(el("body", *body))
    nodes: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        node.index = len(nodes)
        nodes.append(node)
        stack.extend(reversed(node.children))
    id_of: dict[NodeRef, int] = {}
    by_id: dict[int, Node] = {}
    for node in nodes:
        element_id = node.state.pop(_ID_KEY, None) if node.tag != "#text" else None
        if element_id is not None:
            id_of[node.ref] = element_id
            by_id[element_id] = node
    stats = SnapshotStats(
        total_nodes=len(nodes),
        elements=sum(1 for n in nodes if n.is_element),
        visible_elements=sum(1 for n in nodes if n.is_element and n.visible),
        interactive=len(by_id),
        tier_counts=MappingProxyType({}),
        frames=1,
        shadow_roots=0,
        pruned_hidden=0,
        capture_ms=0.0,
        build_ms=0.0,
        hidden_interactive=0,
    )
    return DomSnapshot(
        tab_id=1,
        url=url,
        title="Test page",
        viewport=(1280.0, 800.0),
        scroll=(0.0, 0.0),
        document_size=(1280.0, 800.0),
        root=root,
        nodes=tuple(nodes),
        by_id=MappingProxyType(by_id),
        id_of=MappingProxyType(id_of),
        placements=Placements(len(nodes)),
        covered=MappingProxyType({}),
        hunted_names=frozenset(),
        include_values=include_values,
        stats=stats,
        frames=(),
    )


# -- editing a recorded page -----------------------------------------------------------------------


def drop_node(raw: RawFrame, index: int) -> None:
    """The node at ``index`` of a recorded frame taken out of the page, with everything inside it."""
    gone = {index}
    for i in range(index + 1, len(raw.tag)):
        if raw.parent[i] in gone:
            gone.add(i)
    kept = [i for i in range(len(raw.tag)) if i not in gone]
    new_index = {old: new for new, old in enumerate(kept)}
    raw.parent = [new_index.get(raw.parent[i], -1) for i in kept]
    raw.key = [raw.key[i] for i in kept]
    raw.tag = [raw.tag[i] for i in kept]
    raw.flags = [raw.flags[i] for i in kept]
    raw.box = [v for i in kept for v in raw.box[4 * i : 4 * i + 4]]
    raw.text = {new_index[i]: t for i, t in raw.text.items() if i in new_index}
    raw.attrs = {new_index[i]: a for i, a in raw.attrs.items() if i in new_index}
    raw.state = {new_index[i]: s for i, s in raw.state.items() if i in new_index}
    raw.internals = [new_index[i] for i in raw.internals if i in new_index]


def append_button(raw: RawFrame, parent: int, label: str, box: tuple[float, float, float, float]) -> int:
    """A new <button>``label``</button> as the last node of a recorded frame, under ``parent`` (the
    last element of the document, or one of its ancestors); its index."""
    index = len(raw.tag)
    key = max(raw.key) + 1
    raw.key += [key, 0]
    raw.parent += [parent, index]
    raw.tag += ["button", "#text"]
    raw.flags += [F_INLINE, 0]
    raw.box += [*box, 0.0, 0.0, 0.0, 0.0]
    raw.text[index + 1] = label
    raw.attrs[index] = {"type": "button"}
    return index


# -- the html view's output ------------------------------------------------------------------------

# The recorded fixture pages the html view's tests render.
SNAP_RECORDINGS = [
    "snap-controls",
    "snap-values",
    "snap-frames",
    "snap-shadow",
    "snap-js",
    "snap-hidden",
    "snap-layout",
]

# The states the text view shows, as the html view writes them: native attribute, else aria-*.
HTML_STATE_ATTRS = {
    "disabled": ("disabled", "aria-disabled"),
    "checked": ("checked", "aria-checked"),
    "selected": ("selected", "aria-selected"),
    "expanded": ("aria-expanded",),
    "pressed": ("aria-pressed",),
    "required": ("required", "aria-required"),
    "readonly": ("readonly", "aria-readonly"),
    "invalid": ("aria-invalid",),
    "sort": ("aria-sort",),
}


class HtmlParts(HTMLParser):
    """Start and end tags of the HTML, checked to nest; the data-id values in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.ids: list[int] = []
        self.attrs: list[tuple[str, dict[str, str | None]]] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.attrs.append((tag, found))
        if found.get("data-id") is not None:
            self.ids.append(int(str(found["data-id"])))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack}"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text += data


def parsed_html(html: str) -> HtmlParts:
    """``html`` parsed, with every tag it opens closed in order (else the assertion fails)."""
    checker = HtmlParts()
    checker.feed(html)
    checker.close()
    assert checker.stack == [], f"left open: {checker.stack}"
    return checker


# -- what the agent loop observes -------------------------------------------------------------------

# The semantic view as the host returned it (snap-frames.html + act-scroll.html, recorded with
# boxes), plus a value, states and a covered element.
AGENT_PAGE: dict[str, Any] = {
    "mode": "semantic",
    "url": "http://127.0.0.1:36261/form.html",
    "title": "Snapshot frames",
    "viewport": {"width": 1280, "height": 757},
    "scroll_position": "14%",
    "interactive_tree": [
        {"i": 1, "r": "btn", "n": "Main frame button", "xy": [70, 90], "box": [8, 80, 123, 21]},
        {"i": 4, "r": "btn", "n": "Cross-site frame button", "xy": [96, 281], "box": [18, 271, 155, 21], "f": "f1"},
        {"i": 5, "r": "inp", "n": "Cross-site field", "v": "Ada", "s": "required,focused", "xy": [366, 281], "f": "f1"},
        {"i": 7, "r": "scr", "xy": [209, 181], "box": [8, 80, 402, 202], "scr": {"depth": "0%", "h": True}},
        {"i": 9, "r": "btn", "n": "Deep button", "xy": [54, 1026], "occ": True},
    ],
    "scrollable_containers": [{"id": 7, "depth": "0%", "hasMore": True, "above": True}],
    "recent_events": ['[1s ago] error appeared: "Invalid ZIP code"'],
    "has_errors": True,
    "has_success": False,
    "meta": {"totalElements": 5, "viewportElements": 2, "prunedElements": 0, "occludedElements": 1,
             "extractionTimeMs": 41, "estimatedTokens": 323},
}  # fmt: skip
AGENT_OBS = Observation(tab=373200592, page=AGENT_PAGE)
