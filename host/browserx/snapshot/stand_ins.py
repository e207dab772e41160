"""Controls the page hides from the eye that a person still uses: through the element a person
sees (a stand-in), or as themselves. In the order the snapshot pipeline runs them:

- ``show_content_boxes`` (pipeline.py, after visibility): a link whose own box is empty because
  its content is laid out outside it (an inline ``<a>`` around a positioned ``<img>``, Bootstrap's
  carousel example) is seen where its content is.
- ``stand_in_for_unrendered`` (classify.py, before its wrapper rules):
  - a ``<label>`` of a checkbox or radio that is not rendered at all (``display: none``: Swagger
    UI's OAuth scopes) is that checkbox: clicking it toggles the input (the collector reads the
    input's kind and state through ``label.control``: ``state["hiddenToggle"]``);
  - the thumb of a slider whose native ``<input type=range>`` is clipped away inside it (MUI) is
    the slider, named and valued by the input (``proxyOf`` + ``proxyField``).
- ``stand_in_for_hidden_toggles`` (classify.py, next): the visible label of a checkbox or radio
  hidden to draw a box of its own is that control (``proxyOf``).
- ``transparent_controls`` (classify.py): what opacity 0 hides from the eye but not from the hand
  is the control (a native toggle or input over what its library draws), or the field around a
  select's focus input is (``proxyOf`` + ``proxyField``).
- ``keyboard_reached_radios`` (classify.py): screen-reader-only radios of a group a person sees
  are listed: the arrow keys reach them.

Pure functions of the captured tree: no I/O, no CDP.
"""

from __future__ import annotations

from .elements import is_disabled, tabindex
from .merge import Tree
from .model import F_CLIPPED_AWAY, F_NO_POINTER_EVENTS, F_TRANSPARENT, F_VIS_HIDDEN, Box, Node, NodeRef
from .role_tables import INTERACTIVE_ROLES
from .visibility import Placements

THUMB_LEVELS = 2  # how far up from a clipped range input its visible thumb may be
MIN_THUMB = 6  # px: a thumb a person can grab
CONTENT_SCAN = 50  # nodes of a link's content looked at for a box
# Native toggles that custom controls hide, to draw a box of their own in their place.
TOGGLE_ROLES = frozenset({"checkbox", "radio", "switch"})


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
    for parent in _plain_ancestors(node, THUMB_LEVELS):
        box = parent.box
        if parent.visible and box is not None and box.w >= MIN_THUMB and box.h >= MIN_THUMB:
            others = any(
                n is not node and n.is_element and n.role in INTERACTIVE_ROLES for n in parent.walk()
            )
            return None if others else parent
    return None


def stand_in_for_hidden_toggles(tree: Tree) -> None:
    """A custom checkbox hides the native input (opacity 0, clipped, 1 px) and draws a box of its
    own; what a person clicks is the visible label. That label stands in for the input: it gets
    the input's role (its states and name follow it: ``state["proxyOf"]``) and the input, which
    nobody can see, gets no ID of its own. Shadow-DOM controls (Shoelace's ``sl-checkbox``) wrap
    the hidden input in a label inside their root the same way."""
    labels: dict[NodeRef, Node] = {}
    for node in tree.nodes:
        if node.tag == "label" and node.visible and "control" in node.state:
            labels.setdefault(NodeRef(node.ref.frame, int(node.state["control"])), node)
    for node in tree.nodes:
        if node.visible or node.tag != "input" or node.role not in TOGGLE_ROLES:
            continue
        if not node.rendered:
            continue  # visibility: hidden: out of the accessibility tree, no control for a person
        label = labels.get(node.ref) or _visible_label_around(node)
        if label is None or label.role in INTERACTIVE_ROLES:
            continue
        label.state = {**label.state, "proxyOf": node}
        label.role = node.role
        label.tier = 1


def _visible_label_around(node: Node) -> Node | None:
    parent = node.parent
    for _ in range(3):
        if parent is None or not parent.is_element:
            return None
        if parent.tag == "label" and parent.visible:
            # A label clicks its own control only (the first one inside it when it names none).
            control = parent.state.get("control")
            return parent if control is None or int(control) == node.ref.key else None
        parent = parent.parent
    return None


# The smallest box a drawn checkbox or radio has: a transparent input this size or bigger, over
# its library's box, takes the clicks.
MIN_DRAWN_TOGGLE = 8
# A field a select's focus input promotes: at least this big, a few levels up at most.
MIN_FIELD_W, MIN_FIELD_H = 20.0, 16.0
FIELD_SEARCH_DEPTH = 5
FIELD_INPUT_ROLES = frozenset({"combobox", "button"})
PROXY_TAGS = frozenset({"input", "button"})
# A clipped-away button stands for the field around it only when laid over most of it.
MIN_FIELD_COVER = 0.5
FIELD_HINTS = frozenset({"listener", "onclick", "framework", "pointer"})


def transparent_controls(tree: Tree, candidates: dict[int, tuple[str, ...]]) -> list[Node]:
    """Controls that opacity 0 hides from the eye but not from the hand (DESIGN.md, "Transparent
    is not always hidden"):

    - a native checkbox or radio, transparent on top of the box its library draws (Material,
      AG Grid's cell and header checkboxes), that no visible label stands in for: the input is
      the control, listed as itself (its clicks land on it);
    - a select's focus input (``<input role=combobox readonly>``, transparent or a pixel wide:
      Element Plus, Vuetify) inside a larger field that takes the click: the field is the
      combobox (``state["proxyOf"]``: the input's name and states; ``proxyField``); so is the
      field around a clipped-away button laid over all of it (Ionic's select);
    - any other native input transparent on top of what its library draws (a range input over
      the drawn track, a file input over its button, a text input whose wrapper fades in on
      focus) that takes the clicks there, or sits in the control that takes them (a focus
      input inside an ARIA combobox field): the input is the control, listed as itself.

    Returns the inputs it made visible.
    """
    revealed: list[Node] = []
    for node in tree.nodes:
        if node.visible or node.role is None or node.tag not in PROXY_TAGS:
            continue
        box = node.box
        if node.tag == "input" and node.role in TOGGLE_ROLES:
            if box is None or box.w < MIN_DRAWN_TOGGLE or box.h < MIN_DRAWN_TOGGLE:
                continue
            shown = _only_transparent(node)
            if shown is None or _stood_in_for(node, tree) or shown.box is None:
                continue
            if shown.box.intersect(box) is None:
                continue
            node.visible = True
            revealed.append(node)
            continue
        if not node.rendered:
            continue
        if node.role in FIELD_INPUT_ROLES:
            field = _field_around(node, candidates)
            if field is not None:
                field.state = {**field.state, "proxyOf": node, "proxyField": True}
                field.role = node.role
                field.tier = 1
                candidates.pop(field.index, None)
                continue
        if node.tag == "input" and _on_top_of_its_drawing(node):
            node.visible = True
            revealed.append(node)
    return revealed


def _only_transparent(node: Node) -> Node | None:
    """The nearest visible ancestor when opacity 0 alone keeps ``node`` unseen (no visibility:
    hidden, no clipping away on the way up): it is in the accessibility tree and takes clicks
    (the hit test sees it) though nobody sees it. None otherwise."""
    transparent = False
    n: Node | None = node
    while n is not None and n.is_element and not n.visible:
        if not n.rendered or n.flags & F_CLIPPED_AWAY:
            return None
        transparent = transparent or bool(n.flags & F_TRANSPARENT)
        n = n.parent
    if n is None or not n.is_element or not transparent:
        return None
    return n


def _on_top_of_its_drawing(node: Node) -> bool:
    """Whether an input that only opacity hides is big enough to click, over the visible box
    around it, and takes the clicks there (or sits inside the control that takes them)."""
    box = node.box
    if box is None or box.w < MIN_DRAWN_TOGGLE or box.h < MIN_DRAWN_TOGGLE:
        return False
    shown = _only_transparent(node)
    if shown is None or shown.box is None or shown.box.intersect(box) is None:
        return False
    if not node.flags & F_NO_POINTER_EVENTS:
        return True
    parent = node.parent
    for _ in range(FIELD_SEARCH_DEPTH):
        if parent is None or not parent.is_element:
            return False
        if parent.role in INTERACTIVE_ROLES:
            return True
        parent = parent.parent
    return False


def _field_around(node: Node, candidates: dict[int, tuple[str, ...]]) -> Node | None:
    """The visible field that takes the clicks for a select's unseen focus input: an ancestor a
    few levels up, bigger than a pixel, with a click handler of its own (a listener, a
    framework's, an onclick attribute, a pointer cursor) and no control between."""
    tiny = node.box is not None and (node.box.w <= 1 or node.box.h <= 1)
    clipped = bool(node.flags & F_CLIPPED_AWAY)
    if node.role == "button" or node.tag != "input":
        # A button takes its field's place only when laid over it (Ionic's select): a visually
        # hidden button in a clickable card is a button of the card, not the card.
        if not clipped and _only_transparent(node) is None:
            return None
    elif _only_transparent(node) is None and not tiny and not clipped:
        return None
    for parent in _plain_ancestors(node, FIELD_SEARCH_DEPTH):
        box = parent.box
        if (
            parent.visible
            and box is not None
            and box.w >= MIN_FIELD_W
            and box.h >= MIN_FIELD_H
            and not FIELD_HINTS.isdisjoint(candidates.get(parent.index, ()))
        ):
            if node.role == "button" and (
                node.box is None
                or (node.box.intersect(box) or Box(0, 0, 0, 0)).area < MIN_FIELD_COVER * box.area
            ):
                return None
            return parent
    return None


def keyboard_reached_radios(tree: Tree) -> list[Node]:
    """Screen-reader-only radios of a group a person sees (MUI Rating's "Empty": the input and its
    label both visually hidden beside the stars that stand in for the others): the arrow keys
    reach them from the group, so they are listed. Only with a label of their own in the
    accessibility tree. Returns the radios it made visible."""
    unseen: list[Node] = []
    shown_groups: set[tuple[str, str]] = set()
    for node in tree.nodes:
        if node.tag != "input" or node.role != "radio" or "name" not in node.attrs:
            continue
        group = (node.ref.frame, node.attrs["name"])
        if node.visible or _stood_in_for(node, tree):
            shown_groups.add(group)
        elif (
            node.rendered
            and not is_disabled(node)
            and (tabindex(node) or 0) >= 0
            and _label_rendered(node, tree)
        ):
            unseen.append(node)
    revealed = [n for n in unseen if (n.ref.frame, n.attrs["name"]) in shown_groups]
    for node in revealed:
        node.visible = True
    return revealed


def _label_rendered(node: Node, tree: Tree) -> bool:
    """Whether a control has a label in the accessibility tree (screen-reader-only: clipped, not
    removed). A radio whose label the page does not render at all (MkDocs' palette shows one
    state's label at a time; a display:none label is never walked) is a choice the page put
    away, not a screen-reader-only one."""
    return any(label.rendered for label in _labels_of(node, tree))


def _stood_in_for(node: Node, tree: Tree) -> bool:
    """Whether a visible label already stands in for the toggle (stand_in_for_hidden_toggles)."""
    return any(label.state.get("proxyOf") is node for label in _labels_of(node, tree))


def _labels_of(node: Node, tree: Tree) -> list[Node]:
    keys = node.state.get("labels") or ()
    return [n for k in keys if (n := tree.by_ref.get(NodeRef(node.ref.frame, int(k)))) is not None]


def _plain_ancestors(node: Node, levels: int) -> list[Node]:
    """Up to ``levels`` element ancestors of ``node``, nearest first, up to the first control
    (which ends the climb: what is around a control is not what stands in for this one)."""
    found: list[Node] = []
    parent = node.parent
    for _ in range(levels):
        if parent is None or not parent.is_element or parent.role in INTERACTIVE_ROLES:
            break
        found.append(parent)
        parent = parent.parent
    return found
