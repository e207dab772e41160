"""The three tiers (docs/DESIGN.md): 1 semantic (a meaningful role), 2 non-semantic but interactive (JS
click listeners, onclick and framework attributes, tabindex, contenteditable, cursor:pointer,
delegated clicks), 3 structural. ``is_interactive`` is what an agent can act on.

Controls the page hides from the eye that a person still uses (a label standing in for its hidden
checkbox, a transparent input over what its library draws) are found by stand_ins.py, called
from ``classify`` before its wrapper rules.
"""

from __future__ import annotations

from browserx.snapshot.elements import tabindex
from browserx.snapshot.merge import Tree
from browserx.snapshot.model import (
    F_CURSOR_NOT_ALLOWED,
    F_CURSOR_POINTER,
    F_FRAMEWORK_CLICK,
    F_INLINE,
    F_NO_POINTER_EVENTS,
    Node,
)
from browserx.snapshot.role_tables import INTERACTIVE_ROLES
from browserx.snapshot.roles import role_of
from browserx.snapshot.stand_ins import (
    keyboard_reached_radios,
    stand_in_for_hidden_toggles,
    stand_in_for_unrendered,
    transparent_controls,
)

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
# Roles that say nothing about being a control (a node with one is a wrapper like any div).
WRAPPER_ROLES = frozenset({"generic", "none", "presentation", "group"})
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
    wraps: dict[int, int] = {}  # node index → the controls inside it
    for node in reversed(nodes):  # children before parents
        parent = node.parent
        if parent is None:
            continue
        inside = wraps.get(node.index, 0) + (node.index in candidates or node.role in INTERACTIVE_ROLES)
        if inside:
            wraps[parent.index] = wraps.get(parent.index, 0) + inside
    for index in list(candidates):
        hints = candidates[index]
        # A custom element that Chrome leaves out (ElementInternals role none: Material Web's
        # list and menu items around their own <li>/<button>) wraps its control even when focusable.
        if index in wraps and (
            not EXPLICIT_HINTS.intersection(hints)
            or nodes[index].state.get("axRole") == "none"
            or _focusable_wrapper(nodes[index], hints, wraps[index])
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


def _focusable_wrapper(node: Node, hints: tuple[str, ...], inside: int) -> bool:
    """Whether a focusable node around several controls is only their container: focusable and
    listening, but with no role, no pointer cursor of its own and no other sign that it is a
    control (a drop zone around a chat composer: react-dropzone's root, tabindex 0, its click the
    file dialog's). Its handler delegates to what it holds; what it holds are the targets."""
    return (
        inside >= 2
        and EXPLICIT_HINTS.intersection(hints) == {"tabindex"}
        and not HANDLER_HINTS.isdisjoint(hints)  # a handler; a focusable composite alone stays
        and "pointer" not in hints
        and (node.role is None or node.role in WRAPPER_ROLES)
    )


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
