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
    F_SCROLL_X,
    F_SCROLL_Y,
    F_TRANSPARENT,
    F_VIS_HIDDEN,
    Box,
    Node,
    NodeRef,
)
from browserx.snapshot.visibility import Placement, compute_visibility

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


# -- scroll containers are viewports of their own (issue 21, item 2) ---------------------------


def scroller(box: Box, scroll: tuple[float, float, float, float], flags: int, *children: Node) -> Node:
    """A scroll container: ``scroll`` is (left, top, scrollWidth, scrollHeight); client = box."""
    n = node("div", box, flags, children)
    left, top, width, height = scroll
    n.state = {"scroll": [left, top, width, height, box.w, box.h]}
    return n


def shell(*content: Node, main_scroll: tuple[float, float] = (0, 0)) -> tuple[Node, list[Node]]:
    """html, body { height: 100%; overflow: hidden } and a shell (overflow: hidden, 720 px) whose
    main (600 px tall from y 60) scrolls through 3000 px."""
    main = scroller(Box(200, 60, 1000, 600), (main_scroll[0], main_scroll[1], 1000, 3000), F_SCROLL_Y | F_SCROLL_X,
                    *content)  # fmt: skip
    app = node("div", Box(0, 0, 1280, 720), F_CLIPS | F_ABSOLUTE | F_POSITIONED, (main,))
    return main, page(node("body", Box(0, 0, 1280, 720), F_CLIPS, (app,)), html_flags=F_CLIPS)


def test_what_a_scroll_container_scrolls_to_is_listed_whatever_the_shell_around_it_clips() -> None:
    below = node("button", Box(220, 1500, 80, 20))
    in_view = node("button", Box(220, 100, 80, 20))
    main, nodes = shell(in_view, below)
    placements = compute_visibility(nodes, VIEWPORT, (0, 0))
    assert in_view.visible and below.visible
    assert in_view.index not in placements
    where = placements.get(below.index)
    assert where is not None and where.offscreen == "below" and where.scroller is main


def test_a_chat_scrolled_to_its_end_lists_what_is_above() -> None:
    older = node("button", Box(220, -1800, 80, 20))  # scrolled 2400 px: content starts at y -2340
    main, nodes = shell(older, main_scroll=(0, 2400))
    placements = compute_visibility(nodes, VIEWPORT, (0, 0))
    where = placements.get(older.index)
    assert older.visible and where is not None and where.offscreen == "above" and where.scroller is main


def test_boxes_that_do_not_scroll_still_clip_inside_and_around_a_scroll_container() -> None:
    clipped = node("button", Box(220, 1560, 80, 20))
    hidden_box = node("div", Box(220, 1500, 300, 40), F_CLIPS, (clipped,))  # overflow: hidden, no scrolling
    beyond = node("button", Box(220, 7000, 80, 20))  # past the end of main's scroll range
    sideways = node("button", Box(1300, 100, 80, 20))  # main scrolls no further right than its box
    main, nodes = shell(hidden_box, beyond, sideways)
    main.flags = F_SCROLL_Y | F_CLIPS  # overflow-y: auto; overflow-x: hidden
    compute_visibility(nodes, VIEWPORT, (0, 0))
    assert hidden_box.visible and not clipped.visible and not beyond.visible and not sideways.visible


def test_a_scroll_container_the_shell_clips_away_hides_its_content() -> None:
    inside = node("button", Box(10, 900, 80, 20))
    gone = scroller(Box(0, 800, 300, 200), (0, 0, 300, 900), F_SCROLL_Y | F_SCROLL_X, inside)
    app = node("div", Box(0, 0, 1280, 720), F_CLIPS | F_ABSOLUTE | F_POSITIONED, (gone,))
    page(node("body", Box(0, 0, 1280, 720), F_CLIPS, (app,)), html_flags=F_CLIPS)
    assert not gone.visible and not inside.visible


def test_a_list_inside_a_scrolling_main_takes_mains_place_until_it_is_scrolled_itself() -> None:
    first = node("button", Box(220, 1510, 80, 20))  # in the list's box: where the list is
    last = node("button", Box(220, 1900, 80, 20))  # below the list's own fold
    files = scroller(Box(220, 1500, 300, 120), (0, 0, 300, 600), F_SCROLL_Y | F_SCROLL_X, first, last)
    slide = node("button", Box(900, 1700, 80, 20))  # right of a carousel below main's fold
    carousel = scroller(Box(220, 1680, 520, 80), (0, 0, 1200, 80), F_SCROLL_X | F_SCROLL_Y, slide)
    main, nodes = shell(files, carousel)
    placements = compute_visibility(nodes, VIEWPORT, (0, 0))
    assert all(n.visible for n in (files, first, last, carousel, slide))
    assert placements.get(files.index) == placements.get(first.index) == Placement("below", main)
    assert placements.get(last.index) == Placement("below", files)
    assert placements.get(slide.index) == Placement("right", carousel)
