"""The states of a node with a role, as the views show them: disabled, checked, expanded,
selected, pressed, required, readonly, invalid, level, haspopup, current, focused, sort. From
native HTML state (what capture read: ``checked``, ``selected``, ``disabled``...) and ARIA
attributes, after the node's role (roles.py).

Pure functions of a ``Node`` and its ancestors: no I/O, no CDP.
"""

from __future__ import annotations

from .elements import element_parent, input_type, is_disabled, parse_int, trimmed_attr
from .model import Node
from .role_tables import HEADING_TAGS
from .roles import role_of


def heading_level(node: Node) -> int | None:
    """1-6 for headings (aria-level wins, then hN, else ARIA's default 2); None otherwise."""
    if role_of(node) != "heading":
        return None
    level = parse_int(node.attrs.get("aria-level"))
    if level is not None and level >= 1:
        return level
    return HEADING_TAGS.get(node.tag, 2)


_CHECKABLE_ROLES = frozenset({"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"})
_CHECKED_IF_SAID_ROLES = frozenset({"option", "treeitem"})
_MIXED_ROLES = frozenset({"checkbox", "menuitemcheckbox", "option", "treeitem"})
_HASPOPUP_VALUES = frozenset({"menu", "listbox", "tree", "grid", "dialog"})
_CURRENT_VALUES = frozenset({"page", "step", "location", "date", "time", "true"})


def _true(node: Node, attr: str) -> bool:
    return trimmed_attr(node, attr).lower() == "true"


def _checked(node: Node, role: str | None) -> bool | str:
    """True, "mixed" or False."""
    value: object = node.state.get("checked")
    if value is None:
        if node.tag == "input" and input_type(node) in ("checkbox", "radio"):
            value = "checked" in node.attrs
        elif role in _CHECKABLE_ROLES or (role in _CHECKED_IF_SAID_ROLES and "aria-checked" in node.attrs):
            # Chrome reads aria-checked on these roles only (a grid cell's is ignored: Tabulator)
            token = trimmed_attr(node, "aria-checked").lower()
            value = "mixed" if token == "mixed" else token not in ("", "false")
    if value == "mixed":
        return "mixed" if role in _MIXED_ROLES else False
    return value is True


def _expanded(node: Node, role: str | None) -> bool | None:
    token = trimmed_attr(node, "aria-expanded").lower()
    if token in ("true", "false"):
        return token == "true"
    internal = node.state.get("expanded")  # from ElementInternals (page/internals.py)
    if isinstance(internal, bool):
        return internal
    if role == "DisclosureTriangle":
        parent = element_parent(node)
        return parent is not None and "open" in parent.attrs
    return None


def _aria_disabled(node: Node) -> bool:
    """aria-disabled as Chrome applies it: the nearest element, itself or an ancestor, that says
    ``aria-disabled`` decides (a tab link in a disabled ``<li>``: jQuery UI's tabs and menus)."""
    n: Node | None = node
    while n is not None:
        value = n.attrs.get("aria-disabled")  # (most elements have none: one lookup each)
        if value is not None:
            token = value.strip().lower()
            if token in ("true", "false"):
                return token == "true"
        n = element_parent(n)
    return False


def _sort(node: Node) -> str | None:
    """aria-sort of a column or row header: ascending, descending or other (none is the default)."""
    value = trimmed_attr(node, "aria-sort").lower()
    return value if value in ("ascending", "descending", "other") else None


def _pressed(node: Node) -> bool | str | None:
    token = trimmed_attr(node, "aria-pressed").lower()
    if token == "mixed":
        return "mixed"
    if token in ("true", "false"):
        return token == "true"
    internal = node.state.get("pressed")  # from ElementInternals (page/internals.py)
    return internal if isinstance(internal, bool) or internal == "mixed" else None


def _invalid(node: Node) -> bool | str | None:
    token = trimmed_attr(node, "aria-invalid").lower()
    if token in ("", "false"):
        return None
    return token if token in ("grammar", "spelling") else True


def _haspopup(node: Node) -> str | None:
    token = trimmed_attr(node, "aria-haspopup").lower()
    if token == "true":
        return "menu"
    return token if token in _HASPOPUP_VALUES else None


def _current(node: Node) -> str | None:
    token = trimmed_attr(node, "aria-current").lower()
    if token in ("", "false"):
        return None
    return token if token in _CURRENT_VALUES else "true"


def _level(node: Node, role: str | None) -> int | None:
    if role == "heading":
        return heading_level(node)
    level = parse_int(node.attrs.get("aria-level"))
    return level if level is not None and level >= 1 else None


def states_of(node: Node) -> dict[str, object]:
    """Non-default states: disabled, checked (True/"mixed"), expanded (True/False), selected,
    pressed (True/False/"mixed"), required, readonly, invalid, level, haspopup, current,
    focused. Absent keys mean the default (not disabled, not checked, ...)."""
    if not node.is_element:
        return {}
    proxy = node.state.get("proxyOf")
    if proxy is not None:  # a label standing in for a hidden native toggle (stand_ins.py)
        states = states_of(proxy)
        if node.state.get("proxyField"):
            # A select's field: its focus input is read-only to typing, not to choosing.
            states.pop("readonly", None)
        return states
    role = role_of(node)
    native_field = node.tag in ("input", "textarea", "select")
    candidates: dict[str, object] = {
        "disabled": is_disabled(node) or _aria_disabled(node),
        "checked": _checked(node, role),
        "expanded": _expanded(node, role),
        "selected": node.state.get("selected") is True or _true(node, "aria-selected"),
        "pressed": _pressed(node),
        "required": (native_field and "required" in node.attrs) or _true(node, "aria-required"),
        "readonly": (native_field and "readonly" in node.attrs) or _true(node, "aria-readonly"),
        "invalid": _invalid(node),
        "level": _level(node, role),
        "haspopup": _haspopup(node),
        "current": _current(node),
        "focused": node.state.get("focused") is True,
        "sort": _sort(node),
    }
    # False is meaningful for expanded/pressed (a collapsible / toggle control); elsewhere it
    # is the default and dropped.
    keep_false = ("expanded", "pressed")
    return {
        key: value
        for key, value in candidates.items()
        if value is not None and (value is not False or key in keep_false)
    }
