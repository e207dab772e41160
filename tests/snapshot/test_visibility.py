"""Visibility by the rules CSS draws by (pure: hand-built trees, boxes in CSS pixels).

The cases are the ones real apps taught: a Lumino/JupyterLab shell positioned absolutely under a
0-px body with ``overflow: hidden``; absolute and fixed elements escaping static overflow boxes;
transformed ancestors holding fixed ones; screen-reader-only text that is unseen but names.
"""

from __future__ import annotations

import itertools

from browserx.snapshot.model import (
    F_ABSOLUTE,
    F_CLIPPED_AWAY,
    F_CLIPS,
    F_FIXED_POS,
    F_HOLDS_FIXED,
    F_POSITIONED,
    F_TRANSPARENT,
    F_VIS_HIDDEN,
    Box,
    Node,
    NodeRef,
)
from browserx.snapshot.visibility import compute_visibility

VIEWPORT = Box(0, 0, 1280, 720)
_keys = itertools.count(1)


def node(tag: str, box: Box | None, flags: int = 0, children: tuple[Node, ...] = ()) -> Node:
    n = Node(NodeRef("m", next(_keys)), tag, box=box, flags=flags)
    for child in children:
        child.parent = n
        n.children.append(child)
    return n


def text(value: str) -> Node:
    return Node(NodeRef("m", next(_keys)), "#text", text=value)


def page(body: Node, html_flags: int = 0) -> list[Node]:
    doc = node("#document", None, 0, (node("html", Box(0, 0, 1280, 0), html_flags, (body,)),))
    nodes = list(doc.walk())
    for i, n in enumerate(nodes):
        n.index = i
    compute_visibility(nodes, VIEWPORT, (0, 0))
    return nodes


def test_an_app_shell_under_a_zero_height_body_with_overflow_hidden_is_visible() -> None:
    # html, body { height: 0; overflow: hidden } — the body's overflow is the viewport's.
    menu = node("div", Box(0, 0, 60, 24))
    shell = node("div", Box(0, 0, 1280, 720), F_ABSOLUTE | F_POSITIONED, (menu,))
    page(node("body", Box(0, 0, 1280, 0), F_CLIPS, (shell,)))
    assert shell.visible and menu.visible


def test_the_body_clips_when_the_root_has_overflow_of_its_own() -> None:
    inner = node("div", Box(0, 10, 50, 20))
    page(node("body", Box(0, 0, 1280, 0), F_CLIPS, (inner,)), html_flags=F_CLIPS)
    assert not inner.visible


def test_absolute_escapes_a_static_overflow_box_but_not_a_positioned_one() -> None:
    escaped = node("div", Box(0, 100, 50, 20), F_ABSOLUTE | F_POSITIONED)
    static_box = node("div", Box(0, 0, 100, 10), F_CLIPS, (escaped,))
    held = node("div", Box(0, 300, 50, 20), F_ABSOLUTE | F_POSITIONED)
    positioned_box = node("div", Box(0, 200, 100, 10), F_CLIPS | F_POSITIONED, (held,))
    in_flow = node("span", Box(0, 100, 50, 20))
    clipping = node("div", Box(0, 0, 100, 10), F_CLIPS, (in_flow,))
    page(node("body", Box(0, 0, 1280, 720), 0, (static_box, positioned_box, clipping)))
    assert escaped.visible and not held.visible and not in_flow.visible


def test_fixed_escapes_every_overflow_box_unless_a_transformed_ancestor_holds_it() -> None:
    free = node("div", Box(0, 600, 50, 20), F_FIXED_POS | F_POSITIONED)
    held = node("div", Box(0, 600, 50, 20), F_FIXED_POS | F_POSITIONED)
    clipper = node("div", Box(0, 0, 100, 10), F_CLIPS | F_POSITIONED, (free,))
    transformed = node("div", Box(0, 0, 100, 10), F_CLIPS | F_HOLDS_FIXED, (held,))
    page(node("body", Box(0, 0, 1280, 720), 0, (clipper, transformed)))
    assert free.visible and not held.visible


def test_screen_reader_only_text_is_unseen_but_rendered_and_hidden_text_is_neither() -> None:
    sr_text, hidden_text, clear_text = text("Toggle theme"), text("Secret"), text("Opacity")
    sr_only = node("span", Box(0, 0, 1, 1), F_CLIPS | F_ABSOLUTE | F_POSITIONED | F_CLIPPED_AWAY, (sr_text,))
    hidden = node("span", Box(0, 30, 40, 20), F_VIS_HIDDEN, (hidden_text,))
    clear = node("span", Box(0, 60, 40, 20), F_TRANSPARENT, (clear_text,))
    page(node("body", Box(0, 0, 1280, 720), 0, (sr_only, hidden, clear)))
    assert not sr_only.visible and sr_only.rendered
    assert not sr_text.visible and sr_text.rendered
    assert not hidden_text.visible and not hidden_text.rendered
    assert not clear.visible and not clear_text.visible and clear_text.rendered


def test_a_frames_content_scrolled_out_of_its_box_is_listed_in_the_frame() -> None:
    below = node("button", Box(10, 500, 80, 20))
    frame_doc = node(
        "#document",
        None,
        0,
        (node("html", Box(0, 100, 300, 800), 0, (node("body", Box(0, 100, 300, 800), 0, (below,)),)),),
    )
    iframe = node("iframe", Box(0, 100, 300, 150), F_CLIPS, (frame_doc,))
    nodes = page(node("body", Box(0, 0, 1280, 720), 0, (iframe,)))
    placements = compute_visibility(nodes, VIEWPORT, (0, 0))
    assert below.visible
    where = placements.get(below.index)
    assert where is not None and where.offscreen == "below" and where.scroller is iframe
