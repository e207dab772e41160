"""The three tiers (docs/DESIGN.md): 1 semantic (a meaningful role), 2 non-semantic but interactive (JS
click listeners, onclick and framework attributes, tabindex, contenteditable, cursor:pointer,
delegated clicks), 3 structural. ``is_interactive`` is what an agent can act on.
"""

from __future__ import annotations

from browserx.snapshot.elements import is_disabled, tabindex
from browserx.snapshot.merge import Tree
from browserx.snapshot.model import (
    F_CLIPPED_AWAY,
    F_CURSOR_NOT_ALLOWED,
    F_CURSOR_POINTER,
    F_FRAMEWORK_CLICK,
    F_INLINE,
    F_NO_POINTER_EVENTS,
    F_TRANSPARENT,
    Box,
    Node,
    NodeRef,
)
from browserx.snapshot.role_tables import INTERACTIVE_ROLES
from browserx.snapshot.roles import role_of
from browserx.snapshot.stand_ins import stand_in_for_unrendered

STRUCTURAL_ROLES = frozenset({"generic", "StaticText", "RootWebArea", "LabelText", "none", "presentation"})
CLICK_ATTRS = (
    "onclick",
    "onmousedown",
    "onpointerdown",
    "ng-click",
    "x-on:click",
    "@click",
    "v-on:click",
    "jsaction",
)
CLICK_ATTR_SET = frozenset(CLICK_ATTRS)
# A click listener on one of these makes its item children the targets (event delegation).
LIST_CONTAINERS = frozenset({"ul", "ol", "menu", "table", "tbody", "thead", "tfoot", "dl"})
LIST_ROLES = frozenset(
    {"list", "listbox", "menu", "menubar", "tablist", "grid", "tree", "treegrid", "table", "rowgroup"}
)
# Listeners here are page-wide handlers (close menus, analytics), not targets.
GLOBAL_TAGS = frozenset({"html", "body", "#document"})
LIST_SEARCH_DEPTH = 3
MAX_LABEL_CHARS = 40
# Hints strong enough to keep a node that wraps other controls (a focusable composite widget).
EXPLICIT_HINTS = frozenset({"tabindex", "editable", "grid", "draggable"})
# Parts of a grid or treegrid a person acts on when they are focusable or carry a state: cells
# with a roving tabindex (-1 included), sortable headers, expandable or selectable rows.
GRID_PARTS = frozenset({"gridcell", "columnheader", "rowheader", "row"})
GRID_ATTRS = ("tabindex", "aria-selected", "aria-expanded", "aria-sort")
# Handlers of its own: a node that has one and wraps other controls is still a click target when
# it holds text of its own outside them (Swagger's tag header, a card with a link inside) and the
# handler is meant for it: a framework's onClick, an onclick attribute, a clickable heading. (A
# plain listener on a container is as often a widget's delegation: Shoelace's tab group, a
# radio group.)
HANDLER_HINTS = frozenset({"listener", "onclick", "framework"})
OWN_HANDLER_HINTS = frozenset({"onclick", "framework"})
# Handlers nothing on the page shows a person (no cursor, focus, role or attribute says click).
WEAK_HANDLER_HINTS = frozenset({"listener", "framework"})
PROSE_TAGS = frozenset({"p", "pre", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6"})
MAX_OWN_TEXT = 120  # more text of its own than a header row has: a panel, not a target
# DOMSnapshot's isClickable (capture.py, small documents) marks listeners of any click-like kind
# and also what the browser itself makes clickable: that part says nothing new.
SNAPSHOT_CLICKABLE = frozenset({"clickable"})
NATIVELY_CLICKABLE = frozenset(
    {"a", "area", "label", "button", "input", "select", "textarea", "summary", "option", "details"}
)
# A node listening for this many click-like event types is a framework's delegation root (React
# listens for every one of them at its root container): the targets are inside it.
DELEGATING_ROOT_TYPES = 6
MAX_WRAPPER_NODES = 80  # a bigger clickable wrapper is a page-level handler, not a target
# Native toggles that custom controls hide, to draw a box of their own in their place.
TOGGLE_ROLES = frozenset({"checkbox", "radio", "switch"})


def is_interactive(node: Node) -> bool:
    return node.tier == 2 or (node.role in INTERACTIVE_ROLES and node.tag != "#document")


def _hints(node: Node) -> tuple[str, ...]:
    if not (
        node.listeners or node.attrs or node.state or node.flags & (F_CURSOR_POINTER | F_FRAMEWORK_CLICK)
    ):
        return ()  # the bulk of a page: nothing that could make it interactive
    hints: list[str] = []
    listeners = node.listeners
    if (
        listeners
        and node.tag not in GLOBAL_TAGS
        and len(listeners) < DELEGATING_ROOT_TYPES
        and not (listeners == SNAPSHOT_CLICKABLE and node.tag in NATIVELY_CLICKABLE)
    ):
        hints.append("listener")
    if node.flags & F_FRAMEWORK_CLICK and node.tag not in GLOBAL_TAGS:
        hints.append("framework")
    attrs = node.attrs
    if attrs and (not CLICK_ATTR_SET.isdisjoint(attrs) or any(a.startswith("hx-") for a in attrs)):
        hints.append("onclick")
    index = tabindex(node)
    if index is not None and index >= 0:
        hints.append("tabindex")
    if node.role in GRID_PARTS and attrs and any(a in attrs for a in GRID_ATTRS):
        hints.append("grid")
    if node.state.get("editable"):
        hints.append("editable")
    if attrs and attrs.get("draggable") == "true":
        hints.append("draggable")  # something to drag (drag): a list item, a card, a file row
    if node.flags & F_CURSOR_POINTER and not node.flags & F_NO_POINTER_EVENTS:
        parent = node.parent
        while parent is not None and not parent.is_element:
            parent = parent.parent
        if parent is None or not parent.flags & F_CURSOR_POINTER:
            hints.append("pointer")
    return tuple(hints)


def _is_list_like(node: Node) -> bool:
    if node.tag == "tr" or node.role == "row":
        return False  # its cells are parts of one item: a click on any of them is the row's
    if node.tag in LIST_CONTAINERS or node.role in LIST_ROLES:
        return True
    items = [c for c in node.children if c.is_element]
    return len(items) >= 3 and len({c.tag for c in items}) == 1


def _lists_inside(node: Node) -> list[Node]:
    """The lists (ul, ol, table, ARIA list roles) a few levels inside a listening widget, not
    inside another list or control."""
    found: list[Node] = []
    level = [c for c in node.children if c.is_element or c.tag == "#shadow-root"]
    for _ in range(LIST_SEARCH_DEPTH):
        deeper: list[Node] = []
        for child in level:
            if child.role in INTERACTIVE_ROLES:
                continue
            if child.is_element and (
                child.tag in LIST_CONTAINERS or child.role in LIST_ROLES or _is_label_row(child)
            ):
                found.append(child)
            else:
                deeper.extend(c for c in child.children if c.is_element or c.tag == "#shadow-root")
        level = deeper
    return found


def _is_label_row(node: Node) -> bool:
    """A row of short labels of one kind (a file list's column headers: Name, Last Modified): in
    a listening widget, each is something to click."""
    labels = 0
    tags: set[str] = set()
    for item in node.children:
        if not item.is_element or not item.visible:
            continue
        if any(n.role in INTERACTIVE_ROLES for n in item.walk() if n.is_element):
            return False
        text = "".join(n.text for n in item.walk() if n.is_text and n.visible).strip()
        if not text:
            continue  # a resize handle, a divider
        if len(text) > MAX_LABEL_CHARS:
            return False
        labels += 1
        tags.add(item.tag)
    return labels >= 2 and len(tags) == 1


def _shows_text(node: Node) -> bool:
    """Whether an item shows any text (a separator in a menu does not: no target)."""
    for seen, n in enumerate(node.walk()):
        if seen > MAX_WRAPPER_NODES:
            return True
        if n.is_text and n.visible and n.text.strip():
            return True
        if n.role == "img" and n.is_element:
            return True
    return False


def _delegation_targets(node: Node) -> list[Node]:
    items: list[Node] = []
    for child in node.children:
        if not child.is_element:
            continue
        if child.tag in ("tbody", "thead", "tfoot"):
            items.extend(c for c in child.children if c.is_element)
        else:
            items.append(child)
    return items


def classify(tree: Tree) -> list[Node]:
    """Set role, tier and hints on every node; return the transparent controls it made visible
    (the pipeline places them where what they sit in is)."""
    nodes = tree.nodes
    candidates: dict[int, tuple[str, ...]] = {}
    for node in nodes:
        if node.tag[0] == "#":
            node.role = role_of(node) if node.tag == "#document" else None
            node.tier = 3
            continue
        node.role = role_of(node)
        hints = _hints(node)
        if node.role in INTERACTIVE_ROLES:
            node.tier = 1
            node.hints = hints
        elif hints:
            candidates[node.index] = hints
            node.tier = 1 if node.role and node.role not in STRUCTURAL_ROLES else 3
        else:
            node.tier = 1 if node.role and node.role not in STRUCTURAL_ROLES else 3

    # What the page does not render or clips away, used through what a person sees: the label
    # of a display:none checkbox, a slider's thumb around its clipped input (stand_ins.py).
    stand_in_for_unrendered(nodes, candidates)

    # Before the wrapper rules below: a shadow host forwarding clicks to the hidden toggle its
    # label stands in for is a wrapper of that control, not a second one.
    stand_in_for_hidden_toggles(tree)
    # Transparent is not always hidden: a native toggle drawn over by the library (the input
    # transparent on top of its box) is the control; a select's transparent focus input makes
    # the field around it the combobox.
    revealed = transparent_controls(tree, candidates)
    revealed += keyboard_reached_radios(tree)

    # A handler on a block of content (a Markdown pane, a title block, a row of stat boxes) that
    # nothing about it offers to a person (no pointer cursor, focus, role or click attribute) is
    # the page's plumbing (a framework's forwarded events, a copy-button delegation): its text
    # is text, not a control, and not a list of targets either.
    for index in list(candidates):
        if WEAK_HANDLER_HINTS.issuperset(candidates[index]) and _is_content_block(nodes[index]):
            del candidates[index]

    # Delegation: a listening list/table hands the click to its items; a listening widget that
    # holds a list (a file browser, a menu) hands it to that list's items.
    for index, hints in list(candidates.items()):
        node = nodes[index]
        if "listener" not in hints:
            continue
        lists = [node] if _is_list_like(node) else _lists_inside(node)
        if not lists:
            continue
        for container in lists:
            for item in _delegation_targets(container):
                if item.role not in INTERACTIVE_ROLES and item.index not in candidates and _shows_text(item):
                    candidates[item.index] = ("delegated",)
        rest = tuple(h for h in hints if h != "listener")
        if rest:
            candidates[index] = rest
        else:
            del candidates[index]

    # A candidate that wraps other controls is a container, not a target (unless focusable).
    wraps: set[int] = set()
    for node in reversed(nodes):  # children before parents
        parent = node.parent
        if parent is not None and (
            node.index in wraps or node.index in candidates or node.role in INTERACTIVE_ROLES
        ):
            wraps.add(parent.index)
    for index in list(candidates):
        hints = candidates[index]
        # A custom element that Chrome leaves out (ElementInternals role none: Material Web's
        # list and menu items around their own <li>/<button>) wraps its control even when focusable.
        if index in wraps and (
            not EXPLICIT_HINTS.intersection(hints) or nodes[index].state.get("axRole") == "none"
        ):
            node = nodes[index]
            # A table row's handler (row-click plumbing every row of a grid library carries)
            # around the row's own controls is the table's, not a target of its own.
            strong = (OWN_HANDLER_HINTS.intersection(hints) and node.role != "row") or (
                node.role == "heading" and not {"pointer", "listener"}.isdisjoint(hints)
            )
            if not (strong and _text_of_its_own(node, candidates)):
                del candidates[index]

    # What the page marks as not clickable (cursor: not-allowed: flatpickr's disabled days in a
    # listening calendar) is no target of a handler around it or on it.
    for index in list(candidates):
        if nodes[index].flags & F_CURSOR_NOT_ALLOWED and not EXPLICIT_HINTS.intersection(candidates[index]):
            del candidates[index]

    # Inside an interactive ancestor, a weak candidate is part of it (a span in a button).
    _drop_nested(candidates, nodes)
    for index, hints in candidates.items():
        node = nodes[index]
        node.tier = 2 if node.tier == 3 else node.tier
        if node.tier == 1 and node.role not in INTERACTIVE_ROLES:
            node.tier = 2  # e.g. a clickable listitem or heading: semantic role, acted on as a control
        node.hints = hints
    return revealed


def _is_content_block(node: Node) -> bool:
    """Whether a plain container lays out content rather than items: prose (a heading,
    paragraph, code block or quote of its own), or two or more blocks that show text with no
    list among them (stat boxes). A widget holding a list (a file browser) is not one."""
    if not (node.role is None or node.role in STRUCTURAL_ROLES) or node.tag in LIST_CONTAINERS:
        return False
    blocks = 0
    for child in node.children:
        if not child.is_element or not child.visible:
            continue
        if child.role == "heading" or child.tag in PROSE_TAGS:
            return True
        if not child.flags & F_INLINE and _shows_text(child):
            blocks += 1
    return blocks >= 2 and not _lists_inside(node)


def _text_of_its_own(node: Node, candidates: dict[int, tuple[str, ...]]) -> bool:
    """Whether a small wrapper shows a little text outside the controls it wraps."""
    stack = list(node.children)
    seen = chars = 0
    while stack:
        n = stack.pop()
        seen += 1
        if seen > MAX_WRAPPER_NODES:
            return False
        if n.is_text:
            if n.visible:
                chars += len(n.text.strip())
            continue
        if n.index in candidates or (n.role in INTERACTIVE_ROLES and n.is_element):
            continue
        stack.extend(n.children)
    return 0 < chars <= MAX_OWN_TEXT


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


def _stood_in_for(node: Node, tree: Tree) -> bool:
    """Whether a visible label already stands in for the toggle (stand_in_for_hidden_toggles)."""
    return any(label.state.get("proxyOf") is node for label in _labels_of(node, tree))


def _labels_of(node: Node, tree: Tree) -> list[Node]:
    keys = node.state.get("labels") or ()
    return [n for k in keys if (n := tree.by_ref.get(NodeRef(node.ref.frame, int(k)))) is not None]


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
    parent = node.parent
    for _ in range(FIELD_SEARCH_DEPTH):
        if parent is None or not parent.is_element or parent.role in INTERACTIVE_ROLES:
            return None
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
        parent = parent.parent
    return None


def _drop_nested(candidates: dict[int, tuple[str, ...]], nodes: list[Node]) -> None:
    """Drop weak candidates that sit inside another candidate or an interactive element. An
    ancestor walk per candidate: candidates are few, the tree is big."""
    marked = set(candidates)
    for index in list(candidates):
        hints = candidates[index]
        if EXPLICIT_HINTS.intersection(hints):
            continue
        # A handler of its own makes it a target even inside another clickable (a row's button
        # in a clickable card); only a real control swallows it.
        own_handler = not HANDLER_HINTS.isdisjoint(hints)
        parent = nodes[index].parent
        while parent is not None:
            if (parent.index in marked and not own_handler) or (
                parent.role in INTERACTIVE_ROLES and parent.tag[0] != "#"
            ):
                del candidates[index]
                break
            parent = parent.parent
