"""The three tiers (seed 001): 1 semantic (a meaningful role), 2 non-semantic but interactive (JS
click listeners, onclick and framework attributes, tabindex, contenteditable, cursor:pointer,
delegated clicks), 3 structural. ``is_interactive`` is what an agent can act on.
"""

from __future__ import annotations

from browserx.snapshot.merge import Tree
from browserx.snapshot.model import F_CURSOR_POINTER, F_NO_POINTER_EVENTS, Node
from browserx.snapshot.roles import INTERACTIVE_ROLES, role_of, tabindex

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
# Hints strong enough to keep a node that wraps other controls (a focusable composite widget).
EXPLICIT_HINTS = frozenset({"tabindex", "editable"})


def is_interactive(node: Node) -> bool:
    return node.tier == 2 or (node.role in INTERACTIVE_ROLES and node.tag != "#document")


def _hints(node: Node) -> tuple[str, ...]:
    if not (node.listeners or node.attrs or node.state or node.flags & F_CURSOR_POINTER):
        return ()  # the bulk of a page: nothing that could make it interactive
    hints: list[str] = []
    if node.listeners and node.tag not in GLOBAL_TAGS:
        hints.append("listener")
    attrs = node.attrs
    if attrs and (not CLICK_ATTR_SET.isdisjoint(attrs) or any(a.startswith("hx-") for a in attrs)):
        hints.append("onclick")
    index = tabindex(node)
    if index is not None and index >= 0:
        hints.append("tabindex")
    if node.state.get("editable"):
        hints.append("editable")
    if node.flags & F_CURSOR_POINTER and not node.flags & F_NO_POINTER_EVENTS:
        parent = node.parent
        while parent is not None and not parent.is_element:
            parent = parent.parent
        if parent is None or not parent.flags & F_CURSOR_POINTER:
            hints.append("pointer")
    return tuple(hints)


def _is_list_like(node: Node) -> bool:
    if node.tag in LIST_CONTAINERS or node.role in LIST_ROLES:
        return True
    items = [c for c in node.children if c.is_element]
    return len(items) >= 3 and len({c.tag for c in items}) == 1


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


def classify(tree: Tree) -> None:
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

    # Delegation: a listening list/table hands the click to its items.
    for index, hints in list(candidates.items()):
        node = nodes[index]
        if "listener" in hints and _is_list_like(node):
            for item in _delegation_targets(node):
                if item.role not in INTERACTIVE_ROLES and item.index not in candidates:
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
        if index in wraps and not EXPLICIT_HINTS.intersection(candidates[index]):
            del candidates[index]

    # Inside an interactive ancestor, a weak candidate is part of it (a span in a button).
    _drop_nested(candidates, nodes)
    for index, hints in candidates.items():
        node = nodes[index]
        node.tier = 2 if node.tier == 3 else node.tier
        if node.tier == 1 and node.role not in INTERACTIVE_ROLES:
            node.tier = 2  # e.g. a clickable listitem or heading: semantic role, acted on as a control
        node.hints = hints


def _drop_nested(candidates: dict[int, tuple[str, ...]], nodes: list[Node]) -> None:
    """Drop weak candidates that sit inside another candidate or an interactive element. An
    ancestor walk per candidate: candidates are few, the tree is big."""
    marked = set(candidates)
    for index in list(candidates):
        if EXPLICIT_HINTS.intersection(candidates[index]):
            continue
        parent = nodes[index].parent
        while parent is not None:
            if parent.index in marked or (parent.role in INTERACTIVE_ROLES and parent.tag[0] != "#"):
                del candidates[index]
                break
            parent = parent.parent
