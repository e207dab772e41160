"""The ``text`` view: a compact indented outline, one line per kept node, ID first on lines an
agent can act on. Example::

    # Checkout — http://shop.example/checkout
    viewport 1280x900, scrolled 0,0 of 1280x2400; 14 interactive
    ## Shipping
    form "Address"
      [3] textbox "Full name" required
      [4] combobox "Country" options=[France, Germany, …]
      [5] checkbox "Gift wrap" checked
    - [6] link "Terms" → /terms
    row: Widget | 2 | [7] button "Remove"
    [9] button "Pay" covered by dialog "Cookies"
    [12] link "Help" (below)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from browserx.snapshot.model import Node
from browserx.snapshot.snapshot import DomSnapshot
from browserx.views.outline import Item, control_facts, outline

INDENT = "  "
BOOLEAN_STATES = ("disabled", "checked", "selected", "pressed", "required", "readonly", "invalid", "focused")


@dataclass(frozen=True, slots=True)
class Style:
    """How to render: with boxes, and with a prefix before lines of some IDs (deltas)."""

    boxes: bool = False
    marks: Mapping[int, str] = field(default_factory=dict)  # element ID → "+ " / "~ "

    def box(self, node: Node) -> str:
        if not self.boxes or node.box is None:
            return ""
        b = node.box
        return f" @{b.x:.0f},{b.y:.0f},{b.w:.0f}x{b.h:.0f}"


PLAIN = Style()


def _quote(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


def control_line(element_id: int, facts: dict[str, Any]) -> str:
    parts = [f"[{element_id}]", facts["role"]]
    if facts["role"] in ("clickable", "scrollable"):
        parts.append(facts["tag"])
    if "name" in facts:
        parts.append(_quote(facts["name"]))
    if facts.get("name_from"):
        parts.append("(name from nearby text)")
    for key in BOOLEAN_STATES:
        value = facts.get(key)
        if value is True:
            parts.append(key)
        elif value == "mixed":
            parts.append(f"{key}=mixed")
    if "expanded" in facts:
        parts.append("expanded" if facts["expanded"] else "collapsed")
    if "level" in facts:
        parts.append(f"level={facts['level']}")
    if "type" in facts:
        parts.append(f"type={facts['type']}")
    if "value" in facts:
        parts.append(f"value={_quote(str(facts['value']))}")
    if "options" in facts:
        more = ", …" if "options_total" in facts else ""
        parts.append(f"options=[{', '.join(facts['options'])}{more}]")
    if "href" in facts:
        parts.append(f"→ {facts['href']}")
    if "scroll" in facts:
        scroll = facts["scroll"]
        bits = [f"{scroll['y_percent']}%"] if scroll.get("y_percent") is not None else []
        if scroll.get("more_below"):
            bits.append("more below")
        if scroll.get("more_above"):
            bits.append("more above")
        if bits:
            parts.append("(scroll " + ", ".join(bits) + ")")
    if "position" in facts:
        where = facts["position"]
        inside = f" in [{where['scroll_container']}]" if "scroll_container" in where else ""
        parts.append(f"({where['offscreen']}{inside})")
    if "covered" in facts:
        parts.append(f"covered by {facts['covered']['by']}")
    return " ".join(parts)


def _inline(item: Item, snap: DomSnapshot, style: Style = PLAIN) -> str | None:
    """A row or list item whose content fits on one line, else None."""
    parts: list[str] = []
    for child in item.children:
        if child.kind == "text":
            parts.append(child.text)
        elif child.kind == "control" and not child.children and child.node is not None:
            element_id = snap.id_of[child.node.ref]
            parts.append(control_line(element_id, control_facts(child.node, snap)) + style.box(child.node))
        elif child.kind == "image":
            parts.append(f"img {_quote(child.text)}")
        elif child.kind == "item" and item.kind == "row":
            # cells are list-less; a row's children are usually plain text and controls
            inner = _inline(child, snap, style)
            if inner is None:
                return None
            parts.append(inner)
        else:
            return None
    return (" | " if item.kind == "row" else " ").join(parts)


def _mark(item: Item, snap: DomSnapshot, style: Style) -> str:
    """The delta mark of an item's line: its own ID's, or for an inline row the first marked ID."""
    if not style.marks:
        return ""
    nodes = [item.node] if item.kind == "control" else [c.node for c in item.children if c.kind == "control"]
    for node in nodes:
        element_id = snap.id_of.get(node.ref) if node is not None else None
        if element_id is not None and element_id in style.marks:
            return style.marks[element_id]
    return ""


def item_lines(item: Item, snap: DomSnapshot, style: Style = PLAIN) -> list[str]:
    """The line(s) an item renders as on its own, without its children (cost estimates)."""
    out: list[str] = []
    _render([Item(item.kind, item.node, item.text, item.children if item.kind in ("row", "item") else [])],
            snap, 0, out, style)  # fmt: skip
    return out


def inline_line(item: Item, snap: DomSnapshot) -> str | None:
    return _inline(item, snap)


def _render(items: list[Item], snap: DomSnapshot, depth: int, out: list[str], style: Style = PLAIN) -> None:
    pad = INDENT * depth
    for item in items:
        node = item.node
        if item.kind == "text":
            out.append(pad + item.text)
        elif item.kind == "heading":
            level = (node.attrs.get("aria-level") if node else None) or (
                node.tag[1:] if node and node.tag[1:].isdigit() else "2"
            )
            out.append(f"{pad}{'#' * min(6, int(level) if str(level).isdigit() else 2)} {item.text}")
        elif item.kind == "image":
            out.append(f"{pad}img {_quote(item.text)}")
        elif item.kind == "control" and node is not None:
            own = control_line(snap.id_of[node.ref], control_facts(node, snap)) + style.box(node)
            out.append(_mark(item, snap, style) + pad + own)
            _render(item.children, snap, depth + 1, out, style)
        elif item.kind in ("row", "item"):
            line = _inline(item, snap, style)
            prefix = "row: " if item.kind == "row" else "- "
            if line is not None:
                if line:
                    out.append(_mark(item, snap, style) + pad + prefix + line)
            else:
                out.append(pad + prefix.strip())
                _render(item.children, snap, depth + 1, out, style)
        elif item.kind == "frame" and node is not None:
            out.append(f"{pad}iframe {_quote(node.attrs.get('title') or node.attrs.get('url') or '')}")
            _render(item.children, snap, depth + 1, out, style)
        elif node is not None:
            label = node.role or node.tag
            out.append(f"{pad}{label} {_quote(node.name)}" if node.name else pad + label)
            _render(item.children, snap, depth + 1, out, style)


def header_lines(snap: DomSnapshot) -> list[str]:
    below = sum(1 for i in snap.by_id.values() if i.index in snap.placements)
    return [
        f"# {snap.title} — {snap.url}",
        f"viewport {snap.viewport[0]:.0f}x{snap.viewport[1]:.0f}, scrolled {snap.scroll[0]:.0f},{snap.scroll[1]:.0f} "
        f"of {snap.document_size[0]:.0f}x{snap.document_size[1]:.0f}; {snap.stats.interactive} interactive"
        + (f", {below} outside the viewport" if below else ""),
    ]


def render_items(items: list[Item], snap: DomSnapshot, style: Style = PLAIN) -> list[str]:
    out: list[str] = []
    _render(items, snap, 0, out, style)
    return out


def render_text(snap: DomSnapshot, style: Style = PLAIN) -> str:
    """The whole page, unlimited (the served view adds budgets and options: views/serve.py)."""
    out = header_lines(snap)
    _render(outline(snap), snap, 0, out, style)
    return "\n".join(out) + "\n"
