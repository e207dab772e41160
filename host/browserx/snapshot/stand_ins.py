"""Controls a person uses through another element: what the page does not render, clips away or
draws with no box of its own is used through the element a person sees.

- ``stand_in_for_unrendered`` (classify.py, before its wrapper rules):
  - a ``<label>`` of a checkbox or radio that is not rendered at all (``display: none``: Swagger
    UI's OAuth scopes) is that checkbox: clicking it toggles the input (the collector reads the
    input's kind and state through ``label.control``: ``state["hiddenToggle"]``);
  - the thumb of a slider whose native ``<input type=range>`` is clipped away inside it (MUI) is
    the slider, named and valued by the input (``proxyOf`` + ``proxyField``).
- ``show_content_boxes`` (pipeline.py, after visibility): a link whose own box is empty because
  its content is laid out outside it (an inline ``<a>`` around a positioned ``<img>``, Bootstrap's
  carousel example) is seen where its content is.

Pure functions of the captured tree: no I/O, no CDP.
"""

from __future__ import annotations

from .model import F_CLIPPED_AWAY, F_TRANSPARENT, F_VIS_HIDDEN, Box, Node, NodeRef
from .role_tables import INTERACTIVE_ROLES
from .visibility import Placements

THUMB_LEVELS = 2  # how far up from a clipped range input its visible thumb may be
MIN_THUMB = 6  # px: a thumb a person can grab
CONTENT_SCAN = 50  # nodes of a link's content looked at for a box


def stand_in_for_unrendered(nodes: list[Node], candidates: dict[int, tuple[str, ...]]) -> None:
    for node in nodes:
        if not node.visible or node.tag[0] == "#" or node.role in INTERACTIVE_ROLES:
            continue
        if node.tag == "label":
            hidden = node.state.get("hiddenToggle")
            if isinstance(hidden, list) and len(hidden) == 3 and "control" in node.state:
                _label_is_toggle(node, hidden, candidates)
    for node in nodes:
        if node.tag == "input" and not node.visible and node.role == "slider" and node.rendered:
            thumb = _thumb_around(node)
            if thumb is not None:
                thumb.state = {**thumb.state, "proxyOf": node, "proxyField": True}
                thumb.role = "slider"
                thumb.tier = 1
                candidates.pop(thumb.index, None)


def _label_is_toggle(label: Node, hidden: list[object], candidates: dict[int, tuple[str, ...]]) -> None:
    kind, checked, disabled = hidden
    kind = "radio" if kind == "radio" else "checkbox"
    attrs = {"type": kind}
    if disabled is True:
        attrs["disabled"] = ""
    # The input as the page holds it, outside the tree (it has no box, no ID): its role and
    # states follow the label (states.py reads proxyOf).
    control = Node(
        NodeRef(label.ref.frame, int(str(label.state["control"]))),
        "input",
        attrs=attrs,
        state={"inputType": kind, "checked": checked if checked in (True, "mixed") else False},
        visible=False,
        rendered=False,
        role=kind,
        tier=1,
        index=label.index,
    )
    label.state = {**label.state, "proxyOf": control}
    label.role = kind
    label.tier = 1
    candidates.pop(label.index, None)


def _thumb_around(node: Node) -> Node | None:
    """The visible element a clipped-away range input sits in (its thumb): a few levels up, big
    enough to grab, holding no other control."""
    if not node.flags & F_CLIPPED_AWAY:
        return None
    parent = node.parent
    for _ in range(THUMB_LEVELS):
        if parent is None or not parent.is_element or parent.role in INTERACTIVE_ROLES:
            return None
        box = parent.box
        if parent.visible and box is not None and box.w >= MIN_THUMB and box.h >= MIN_THUMB:
            others = any(
                n is not node and n.is_element and n.role in INTERACTIVE_ROLES for n in parent.walk()
            )
            return None if others else parent
        parent = parent.parent
    return None


def show_content_boxes(nodes: list[Node], placements: Placements) -> None:
    """A link with an empty box of its own but content a person sees (an inline ``<a>`` around a
    positioned or floated image) is seen, where that content is (and placed as it is)."""
    for node in nodes:
        if node.visible or node.tag != "a" or "href" not in node.attrs:
            continue
        box = node.box
        if box is None or node.flags & (F_VIS_HIDDEN | F_TRANSPARENT | F_CLIPPED_AWAY):
            continue
        if box.w > 1 and box.h > 1:
            continue  # hidden for another reason (clipped, off the page)
        first, inner = _content_box(node)
        if first is not None and inner is not None:
            node.box = inner
            node.visible = True
            where = placements.get(first.index)
            if where is not None:
                placements.put(node.index, where)


def _content_box(node: Node) -> tuple[Node | None, Box | None]:
    """The first visible element of the content, and the union of the visible elements' boxes."""
    first: Node | None = None
    union: Box | None = None
    for seen, n in enumerate(node.walk()):
        if seen > CONTENT_SCAN:
            break
        if n is node or not n.is_element or not n.visible or n.box is None:
            continue
        b = n.box
        if union is None:
            first, union = n, b
        else:
            x, y = min(union.x, b.x), min(union.y, b.y)
            union = Box(x, y, max(union.right, b.right) - x, max(union.bottom, b.bottom) - y)
    return first, union
