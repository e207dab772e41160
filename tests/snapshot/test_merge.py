"""Merge (snapshot/merge.py): collector columns → parent-linked nodes, frames stitched under the
<iframe> that owns them with boxes in top-level coordinates, closed shadow roots under their
hosts, listeners on their nodes, node counts per frame, and the finished tree's order, scopes,
id index and label links. Hand-built payloads for the exact cases, recorded ones for the real
shapes (no browser)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from tests.builders import recorded

from browserx.snapshot.frames import FrameCapture, RawFrame
from browserx.snapshot.merge import FLAT_AT, KEEP_HEIGHT, MAX_TREE_DEPTH, Tree, build_nodes, merge
from browserx.snapshot.model import NO_CHILDREN, NO_FACTS, Box, Node, NodeRef

# -- payloads by hand --------------------------------------------------------------------------


@dataclass
class N:
    """A node of a hand-built collector payload (key 0 = the next free one)."""

    tag: str
    children: tuple[N, ...] = ()
    key: int = 0
    box: tuple[float, float, float, float] = (0.0, 0.0, 10.0, 10.0)
    attrs: dict[str, str] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)
    text: str = ""


def n(tag: str, *children: N, key: int = 0, box: tuple[float, float, float, float] = (0, 0, 10, 10),
      attrs: dict[str, str] | None = None, state: dict[str, Any] | None = None) -> N:  # fmt: skip
    return N(tag, children, key, box, dict(attrs or {}), dict(state or {}))


def t(value: str) -> N:
    return N("#text", text=value)


def raw(root: N, first_key: int = 1, url: str = "http://a.test/", owners: tuple[int, ...] = ()) -> RawFrame:
    """The expanded columns the collector's payload comes to (keys whole, text boxes included)."""
    keys = itertools.count(first_key)
    columns: dict[str, Any] = {"key": [], "parent": [], "tag": [], "box": [], "flags": [], "text": {},
                               "attrs": {}, "state": {}}  # fmt: skip

    def add(node: N, parent: int) -> None:
        index = len(columns["tag"])
        columns["tag"].append(node.tag)
        columns["parent"].append(parent)
        columns["key"].append(0 if node.tag == "#text" else node.key or next(keys))
        columns["box"].extend(node.box if node.tag[0] != "#" else (0, 0, 0, 0))
        columns["flags"].append(0)
        if node.text:
            columns["text"][index] = node.text
        if node.attrs:
            columns["attrs"][index] = node.attrs
        if node.state:
            columns["state"][index] = node.state
        for child in node.children:
            add(child, index)

    add(root, -1)
    return RawFrame(url=url, title=f"title of {url}", viewport=[800, 600], scroll=[0, 0], dpr=1,
                    docSize=[800, 600], noAi=False, suspects=0, frameOwners=list(owners), pruned=0,
                    **columns)  # fmt: skip


def capture(label: str, payload: RawFrame, parent: str | None = None, owner: int | None = None,
            closed: list[tuple[int, RawFrame]] | None = None,
            listeners: dict[int, frozenset[str]] | None = None) -> FrameCapture:  # fmt: skip
    return FrameCapture(label, None if label == "m" else f"S-{label}", f"F-{label}", 1, payload,
                        closed or [], listeners or {}, parent_label=parent, owner_key=owner)  # fmt: skip


def by_key(tree: Tree, label: str, key: int) -> Node:
    return tree.by_ref[NodeRef(label, key)]


def path_to_root(node: Node) -> list[str]:
    out = []
    parent = node.parent
    while parent is not None:
        out.append(f"{parent.tag}:{parent.ref.frame}")
        parent = parent.parent
    return out


# -- build_nodes -------------------------------------------------------------------------------


def test_nodes_are_built_parent_linked_with_shared_empties_and_shifted_boxes() -> None:
    payload = raw(n("#document", n("body", n("p", t("Hello"), key=7, box=(5, 6, 7, 8)),
                                   n("a", t("Go"), attrs={"href": "/x"}))))  # fmt: skip
    nodes = build_nodes(payload, "f3", dx=100, dy=1000)
    assert [x.tag for x in nodes] == ["#document", "body", "p", "#text", "a", "#text"]
    assert nodes[0].parent is None and nodes[1].parent is nodes[0]
    assert nodes[1].children == [nodes[2], nodes[4]] and nodes[2].children == [nodes[3]]
    p, hello = nodes[2], nodes[3]
    assert p.ref == NodeRef("f3", 7) and p.box == Box(105, 1006, 7, 8)
    assert nodes[0].box is None  # a document has no box of its own
    assert hello.text == "Hello" and hello.ref == NodeRef("f3", 0) and hello.box is None
    assert hello.ref is nodes[5].ref  # text nodes share one ref and one empty child list
    assert hello.children is NO_CHILDREN and p.state is NO_FACTS and p.attrs is NO_FACTS
    assert nodes[4].attrs == {"href": "/x"}
    assert build_nodes(payload, "m")[2].box == Box(5, 6, 7, 8)  # main frame: not shifted


def test_a_malformed_payload_with_a_child_under_text_never_writes_the_shared_empty_list() -> None:
    payload = raw(n("#document", n("body", t("oops"))))
    payload.tag.append("span")  # a span under the text node
    payload.parent.append(2)
    payload.key.append(99)
    payload.box.extend([0, 0, 1, 1])
    payload.flags.append(0)
    nodes = build_nodes(payload, "m")
    assert nodes[2].children == [nodes[3]]
    assert NO_CHILDREN == [] and nodes[0].children is not NO_CHILDREN


# -- frames ------------------------------------------------------------------------------------


def framed_page(order: tuple[str, ...] = ("m", "f1", "f2")) -> list[FrameCapture]:
    """A page with an out-of-process frame (f1, its <iframe> at content origin 100,200) that
    holds another (f2, at 10,20 inside f1)."""
    main = raw(n("#document", n("body", n("h1", t("Main")), n("iframe", key=50, box=(90, 190, 300, 200),
                                                                state={"frameOrigin": [100, 200]}))),
               owners=(50,))  # fmt: skip
    child = raw(n("#document", n("body", n("button", t("Child"), key=11, box=(1, 2, 30, 10)),
                                 n("iframe", key=12, state={"frameOrigin": [10, 20]}))),
                first_key=5000, url="http://b.test/", owners=(12,))  # fmt: skip
    grandchild = raw(n("#document", n("body", n("button", t("Nested"), key=21, box=(3, 4, 30, 10)))),
                     first_key=9000, url="http://c.test/")  # fmt: skip
    frames = {
        "m": capture("m", main),
        "f1": capture("f1", child, parent="m", owner=50),
        "f2": capture("f2", grandchild, parent="f1", owner=12),
    }
    return [frames[label] for label in order]


def test_a_frames_document_goes_under_its_iframe_with_boxes_in_top_level_coordinates() -> None:
    tree = merge(framed_page())
    iframe, child_button = by_key(tree, "m", 50), by_key(tree, "f1", 11)
    (document,) = iframe.children
    assert document.tag == "#document" and document.parent is iframe
    assert document.attrs == {"url": "http://b.test/", "title": "title of http://b.test/", "frame": "f1"}
    assert child_button.box == Box(101, 202, 30, 10)  # the frame's own coordinates + its origin
    nested = by_key(tree, "f2", 21)
    assert nested.box == Box(113, 224, 30, 10)  # both frames' origins
    assert path_to_root(nested) == ["body:f2", "#document:f2", "iframe:f1", "body:f1", "#document:f1",
                                    "iframe:m", "body:m", "#document:m"]  # fmt: skip
    assert [x.index for x in tree.nodes] == list(range(len(tree.nodes)))
    assert tree.nodes == list(tree.root.walk())  # document order, frames inline


def test_frames_listed_before_their_parent_are_still_stitched() -> None:
    tree = merge(framed_page(order=("m", "f2", "f1")))
    assert by_key(tree, "f2", 21).box == Box(113, 224, 30, 10)
    assert path_to_root(by_key(tree, "f2", 21))[2] == "iframe:f1"


def test_a_frame_whose_owner_is_unknown_is_left_out_and_the_rest_kept() -> None:
    frames = framed_page()
    frames[1].owner_key = 777  # the <iframe> the frame was in is not in the main document
    tree = merge(frames)
    assert not any(ref.frame in ("f1", "f2") for ref in tree.by_ref)  # f2 hangs off f1: out too
    assert by_key(tree, "m", 50).children == []
    frames = framed_page()
    frames[2].owner_key = None  # its owner could not be asked for
    tree = merge(frames)
    assert any(ref.frame == "f1" for ref in tree.by_ref) and not any(ref.frame == "f2" for ref in tree.by_ref)


def test_a_frame_without_a_known_parent_is_left_out() -> None:
    frames = framed_page()
    frames[2].parent_label = "f9"
    tree = merge(frames)
    assert not any(ref.frame == "f2" for ref in tree.by_ref)
    assert by_key(tree, "f1", 12).children == []


def test_node_counts_per_frame_and_columns_freed() -> None:
    frames = framed_page()
    sizes = [len(f.raw.key) for f in frames]
    tree = merge(frames)
    assert tree.node_counts == {"m": sizes[0], "f1": sizes[1], "f2": sizes[2]}
    assert all(f.raw.key == [] and f.raw.tag == [] and f.raw.box == [] for f in frames)


def test_the_same_key_in_two_frames_names_two_nodes_and_listeners_land_in_their_frame() -> None:
    main = raw(n("#document", n("body", n("div", key=5), n("iframe", key=6, state={"frameOrigin": [0, 0]}))),
               owners=(6,))  # fmt: skip
    child = raw(n("#document", n("body", n("div", key=5))), first_key=100)
    tree = merge([capture("m", main, listeners={5: frozenset({"click"})}),
                  capture("f1", child, parent="m", owner=6, listeners={5: frozenset({"mousedown"})})])  # fmt: skip
    assert by_key(tree, "m", 5) is not by_key(tree, "f1", 5)
    assert by_key(tree, "m", 5).listeners == {"click"}
    assert by_key(tree, "f1", 5).listeners == {"mousedown"}
    assert by_key(tree, "m", 6).listeners == frozenset()


def test_the_recorded_out_of_process_frames_are_stitched_with_their_counts() -> None:
    frames = recorded("oopif")
    expected = {f.label: len(f.raw.key) for f in frames}
    tree = merge(frames)
    assert tree.node_counts == expected == {"m": 5, "f1": 7, "f2": 4}
    labels = [x.ref.frame for x in tree.nodes if x.tag == "#document"]
    assert labels == ["m", "f1", "f2"]
    assert len(tree.nodes) == sum(expected.values())  # every node once
    button = next(x for x in tree.nodes if x.tag == "button" and x.ref.frame == "f2")
    assert button.box is not None and button.box.x == 8 + 10 + 101.140625  # own + both origins


# -- closed shadow roots -----------------------------------------------------------------------


def test_a_closed_root_replaces_its_hosts_light_children_and_nests() -> None:
    main = raw(n("#document", n("body", n("x-card", t("light"), n("span", key=41), key=40),
                                n("x-lone", key=45))))  # fmt: skip
    outer = raw(n("#shadow-root", n("div", n("x-inner", key=62), key=61), key=60, attrs={"mode": "closed"}))
    inner = raw(n("#shadow-root", n("button", t("Deep"), key=71), key=70, attrs={"mode": "closed"}))
    lost = raw(n("#shadow-root", n("button", key=81), key=80, attrs={"mode": "closed"}))
    sizes = sum(len(r.key) for r in (main, outer, inner, lost))
    tree = merge([capture("m", main, closed=[(40, outer), (62, inner), (999, lost)])])
    host = by_key(tree, "m", 40)
    assert [c.tag for c in host.children] == ["#shadow-root"] and host.children[0].parent is host
    deep = by_key(tree, "m", 71)
    assert path_to_root(deep)[:4] == ["#shadow-root:m", "x-inner:m", "div:m", "#shadow-root:m"]
    assert NodeRef("m", 41) not in tree.by_ref  # the light child: what renders is the root
    assert NodeRef("m", 81) not in tree.by_ref  # a root whose host is not on the page
    assert tree.shadow_roots == 2
    assert tree.node_counts["m"] == sizes  # as captured, the root that found no host included


def test_closed_roots_count_toward_their_frame_and_move_with_it() -> None:
    main = raw(n("#document", n("body", n("iframe", key=6, state={"frameOrigin": [50, 60]}))), owners=(6,))
    child = raw(n("#document", n("body", n("x-host", key=101))), first_key=100)
    root = raw(n("#shadow-root", n("button", key=201, box=(1, 1, 5, 5)), key=200, attrs={"mode": "closed"}))
    sizes = (len(main.key), len(child.key), len(root.key))
    tree = merge([capture("m", main), capture("f1", child, parent="m", owner=6, closed=[(101, root)])])
    assert by_key(tree, "f1", 201).box == Box(51, 61, 5, 5)
    assert tree.node_counts == {"m": sizes[0], "f1": sizes[1] + sizes[2]}


def test_the_recorded_closed_roots_are_under_their_hosts() -> None:
    frames = recorded("snap-shadow")
    hosts = {key for key, _ in frames[0].closed_roots}
    tree = merge(frames)
    closed = [x for x in tree.nodes if x.tag == "#shadow-root" and x.attrs.get("mode") == "closed"]
    assert len(closed) == 3
    assert {x.parent.ref.key for x in closed if x.parent is not None} == hosts
    assert all(len(x.parent.children) == 1 for x in closed if x.parent is not None)


# -- the finished tree: scopes, ids, labels ----------------------------------------------------


def test_scopes_and_the_id_index_follow_documents_and_shadow_roots() -> None:
    main = raw(
        n("#document", n("body",
          n("input", key=2, attrs={"id": "q"}),
          n("x-box", n("#shadow-root", n("input", key=5, attrs={"id": "q"}), n("slot", n("b", key=8, attrs={"id": "s"}), key=7, state={"slotted": True}),
                       n("slot", n("i", key=10, attrs={"id": "fallback"}), key=9), key=4, attrs={"mode": "open"}), key=3))))  # fmt: skip
    tree = merge([capture("m", main)])
    document, (shadow,) = tree.root, by_key(tree, "m", 3).children
    assert NodeRef("m", 4) not in tree.by_ref  # only elements are indexed by ref
    light, inside = by_key(tree, "m", 2), by_key(tree, "m", 5)
    assert light.scope is document and inside.scope is shadow and shadow.scope is document
    assert tree.ids.get(document, "q") is light and tree.ids.get(shadow, "q") is inside
    # A light child assigned to a slot lives in the host's scope; fallback content in the root's.
    assert by_key(tree, "m", 8).scope is document and tree.ids.get(document, "s") is by_key(tree, "m", 8)
    assert by_key(tree, "m", 10).scope is shadow and tree.ids.get(document, "fallback") is None
    assert tree.shadow_roots == 1


def test_labels_are_linked_to_their_controls_without_touching_the_shared_empty_state() -> None:
    main = raw(n("#document", n("body",
        n("label", t("Name"), key=2, state={"control": 3}), n("input", key=3),
        n("label", t("Again"), key=4, state={"control": 3}),
        n("label", t("Nothing"), key=5, state={"control": 99}))))  # fmt: skip
    tree = merge([capture("m", main)])
    control = by_key(tree, "m", 3)
    assert control.state == {"labels": [2, 4]}
    assert NO_FACTS == {}


def path_to_root_nodes(node: Node) -> list[Node]:
    out = []
    while node.parent is not None:
        node = node.parent
        out.append(node)
    return out


def _depth_of(node: Node) -> int:
    return len(path_to_root(node))


def test_a_tree_deeper_than_the_cap_is_laid_flat_in_order_and_keeps_short_subtrees_whole() -> None:
    """A page's script nests 600 divs (an attack: Chromium's own parser stops at 512); the button at
    the bottom keeps its text, and a short subtree beside the spine stays whole."""
    bottom = n("button", t("Deep button"), attrs={"id": "deep"})
    chain = bottom
    for level in range(600):
        side = (n("ul", n("li", t(f"item {level}"))),) if level == 300 else ()
        chain = n("div", *side, chain)
    main = raw(n("#document", n("body", chain)))
    order = [x.tag for x in build_nodes(main, "m")]
    tree = merge([capture("m", main)])
    assert [x.tag for x in tree.nodes] == order  # document order, every node once
    assert max(_depth_of(x) for x in tree.nodes) < MAX_TREE_DEPTH
    button = tree.ids.get(tree.root, "deep")
    assert button is not None and [c.text for c in button.children] == ["Deep button"]
    (flat,) = [x for x in tree.nodes if x.tag == "div" and _depth_of(x) == FLAT_AT]
    ul = next(x for x in tree.nodes if x.tag == "ul")
    assert ul.parent is flat and [c.tag for c in ul.children] == ["li"]
    # The spine's divs below the flat one follow each other under it, but for the last ones above
    # the button: a short subtree, kept whole.
    under = [x for x in flat.children if x.tag == "div"]
    assert len(under) > 300 and all(not x.children for x in under[:-1])
    assert flat in path_to_root_nodes(button) and under[-1] in path_to_root_nodes(button)
    assert _depth_of(button) - _depth_of(under[-1]) == KEEP_HEIGHT - 1  # its text is the 17th level


def test_a_tree_within_the_cap_keeps_its_shape() -> None:
    chain = n("button", t("Deep"))
    for _ in range(FLAT_AT + KEEP_HEIGHT - 4):
        chain = n("div", chain)
    tree = merge([capture("m", raw(n("#document", chain)))])
    depths = [_depth_of(x) for x in tree.nodes]
    assert depths == list(range(len(depths)))  # still one chain
