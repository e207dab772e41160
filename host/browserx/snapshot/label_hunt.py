"""The label hunt: for a form field that markup leaves unnamed (accname.py found no name), the
visible text a person would read as its label — the nearest sibling text, the previous cell of
the row, or the parent's own short text. Not part of accname; the snapshot shows what it finds
as the field's name all the same.

Pure functions of the captured tree: no I/O, no CDP.
"""

from __future__ import annotations

from .accname import collapse, content_text, is_hidden
from .elements import input_type
from .model import F_ABSOLUTE, F_FIXED_POS, Node
from .name_context import NameContext
from .role_tables import INTERACTIVE_ROLES

HUNT_MAX_CHARS = 80
HUNT_CLIMB_LEVELS = 3
HUNT_SCAN_LIMIT = 400  # nodes inspected when checking a container for other controls
# Fields drawn with positioned tick labels along a track (a slider's marks: "0°C" … "100°C"):
# those labels are the scale, not the field's label.
SCALE_ROLES: frozenset[str] = frozenset({"slider", "scrollbar"})
HUNT_BOUNDARY_TAGS: frozenset[str] = frozenset(
    {"form", "table", "thead", "tbody", "tfoot", "tr", "ul", "ol", "body", "html", "dialog"}
)


def hunt_label(node: Node, ctx: NameContext) -> str:
    """The visible text a person would read as this field's label when markup gives none:
    the nearest sibling text (following first for checkboxes and radios), the previous cell of
    the row (climbing a few wrappers), or the parent's own short text. "" when nothing short
    (<= 80 chars) is found."""
    if node.tag == "input" and input_type(node) in ("checkbox", "radio"):
        text = _scan_siblings(node, ctx, forward=True)
        if text is not None:
            return text
    scale = ctx.role(node) in SCALE_ROLES
    current = node
    for _ in range(HUNT_CLIMB_LEVELS + 1):
        text = _scan_siblings(current, ctx, forward=False, scale=scale)
        if text is not None:
            return text
        parent = current.parent
        if parent is None or not parent.is_element or parent.tag in HUNT_BOUNDARY_TAGS:
            break
        if _has_other_control(parent, node, ctx):
            break
        current = parent
    return _parent_text(node, ctx)


# ---------------------------------------------------------------------------- scanning


def _is_control(node: Node, ctx: NameContext) -> bool:
    return node.is_element and ctx.role(node) in INTERACTIVE_ROLES and not is_hidden(node)


def _has_other_control(container: Node, field_node: Node, ctx: NameContext) -> bool:
    """Whether ``container`` holds a control besides ``field_node`` (big containers count as yes)."""
    for seen, node in enumerate(container.walk()):
        if seen > HUNT_SCAN_LIMIT:
            return True
        if node is not field_node and _is_control(node, ctx) and node.state.get("proxyOf") is not field_node:
            return True  # (the field's stand-in, a slider's thumb around its input, is the field)
    return False


def _visible_text(node: Node, ctx: NameContext) -> str:
    if node.is_text:
        return collapse(node.text) if node.visible else ""
    return collapse(content_text(node, ctx, node)) if not is_hidden(node) else ""


def _label_like(text: str) -> bool:
    return any(ch.isalnum() for ch in text)


def _scan_siblings(node: Node, ctx: NameContext, *, forward: bool, scale: bool = False) -> str | None:
    """The nearest label-like sibling text: the text, "" when the nearest text is too long or a
    control is in the way, None when the siblings hold no text at all. ``scale``: positioned
    siblings (a slider's tick labels) are passed over."""
    parent = node.parent
    if parent is None:
        return None
    siblings = parent.children
    at = next(i for i, c in enumerate(siblings) if c is node)
    ordered = siblings[at + 1 :] if forward else reversed(siblings[:at])
    for sibling in ordered:
        if not (sibling.is_text or sibling.is_element) or is_hidden(sibling):
            continue
        if scale and sibling.flags & (F_ABSOLUTE | F_FIXED_POS) and sibling.is_element:
            continue
        if sibling.is_element and _has_other_control(sibling, node, ctx):
            return ""
        text = _visible_text(sibling, ctx)
        if _label_like(text):
            return text if len(text) <= HUNT_MAX_CHARS else ""
    return None


def _parent_text(node: Node, ctx: NameContext) -> str:
    parent = node.parent
    if parent is None or not parent.is_element or _has_other_control(parent, node, ctx):
        return ""
    text = collapse(content_text(parent, ctx, node))
    return text if _label_like(text) and len(text) <= HUNT_MAX_CHARS else ""
