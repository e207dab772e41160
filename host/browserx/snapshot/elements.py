"""What HTML itself says about an element, before ARIA: its parsed attribute values (integers,
the input type), its element parent across shadow roots, and whether it is disabled, inert, an
editing host or focusable. Roles (roles.py), states (states.py) and names (accname.py) build on
these.

Pure functions of a ``Node`` and its ancestors: no I/O, no CDP.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .model import Node
from .role_tables import INPUT_ROLE_BY_TYPE

FORM_CONTROL_TAGS: frozenset[str] = frozenset(
    {"button", "input", "select", "textarea", "optgroup", "option", "fieldset"}
)

_INTEGER = re.compile(r"\s*([+-]?\d+)")


# ---------------------------------------------------------------------------- attributes


def trimmed_attr(node: Node, name: str) -> str:
    """The attribute's value without surrounding white space; "" when absent."""
    return (node.attrs.get(name) or "").strip()


def parse_int(value: str | None) -> int | None:
    """HTML's rules for parsing integers (leading whitespace, sign, digits; rest ignored)."""
    if value is None:
        return None
    match = _INTEGER.match(value)
    return int(match.group(1)) if match else None


def input_type(node: Node) -> str:
    """Normalised input type ("text" for missing or unknown types)."""
    raw = node.state.get("inputType") or node.attrs.get("type") or "text"
    kind = str(raw).strip().lower()
    return kind if kind in INPUT_ROLE_BY_TYPE else "text"


def tabindex(node: Node) -> int | None:
    return parse_int(node.attrs.get("tabindex"))


# ---------------------------------------------------------------------------- ancestors


def element_parent(node: Node) -> Node | None:
    """The parent element, stepping from a shadow root to its host."""
    parent = node.parent
    while parent is not None and not parent.is_element:
        if parent.tag != "#shadow-root":
            return None  # a #document: the frame boundary
        parent = parent.parent
    return parent


def iter_ancestors(node: Node) -> Iterator[Node]:
    """The element ancestors, nearest first, up to the frame's document (across shadow roots)."""
    parent = element_parent(node)
    while parent is not None:
        yield parent
        parent = element_parent(parent)


# ---------------------------------------------------------------------------- editing, disabled


def _editable(node: Node) -> bool:
    editable = node.state.get("editable")
    if editable is not None:
        return bool(editable)
    value = node.attrs.get("contenteditable")
    return value is not None and value.strip().lower() in ("", "true", "plaintext-only")


def is_editing_host(node: Node) -> bool:
    """The root of a contenteditable region (editable, parent not editable)."""
    if not node.is_element or not _editable(node):
        return False
    parent = element_parent(node)
    return parent is None or not _editable(parent)


def is_disabled(node: Node) -> bool:
    """Natively disabled (``:disabled``, including fieldset inheritance when capture says so)."""
    disabled = node.state.get("disabled")
    if disabled is not None:
        return bool(disabled)
    return node.tag in FORM_CONTROL_TAGS and "disabled" in node.attrs


def _inert(node: Node) -> bool:
    return "inert" in node.attrs or any("inert" in a.attrs for a in iter_ancestors(node))


# ---------------------------------------------------------------------------- focus


def _natively_focusable(node: Node) -> bool:
    tag = node.tag
    if tag in ("a", "area"):
        return "href" in node.attrs
    if tag == "input":
        return input_type(node) != "hidden"
    if tag in ("button", "select", "textarea", "iframe", "frame"):
        return True
    if tag == "summary":
        parent = element_parent(node)
        return parent is not None and parent.tag == "details"
    if tag in ("audio", "video"):
        return "controls" in node.attrs
    return is_editing_host(node)


def is_focusable(node: Node) -> bool:
    """Focusable by script or click (tabindex="-1" counts; tabbable is a narrower question).
    Rendering is not considered: callers pair this with ``node.visible``."""
    if not node.is_element or is_disabled(node):
        return False
    # Inertness last: it walks every ancestor, and most elements are not focusable anyway.
    return (tabindex(node) is not None or _natively_focusable(node)) and not _inert(node)
