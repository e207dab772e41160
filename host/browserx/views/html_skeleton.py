"""The ``skeleton`` mode of the ``html`` view (views/html.py): only the elements an agent can act
on, each with its ``data-id``, the attributes that name or place it (``SKELETON_ATTRS``), its value and
states (views/html_common.py) and its text or name; around them only the context that holds
controls (landmarks, forms, dialogs and the like as bare wrappers, frames as ``<iframe
data-frame>``, the heading of each section with controls); everything else hoisted away."""

from __future__ import annotations

from html import escape

from browserx.snapshot.model import Node
from browserx.snapshot.snapshot import DomSnapshot
from browserx.snapshot.states import heading_level
from browserx.views.html_common import (
    DROPPED_TAGS,
    MAX_DEPTH,
    NAMED_BY_LABEL,
    VOID,
    FrameLabels,
    attr,
    id_attr,
    name_unsaid,
    opted_out,
    select_options,
    state_attrs,
    textarea_value,
    url_ok,
    value_attrs,
    visible_text,
)
from browserx.views.html_writer import HtmlWriter

MAX_TEXT = 100  # characters of a control's text
SKELETON_ATTRS = ("id", "name", "type", "href", "placeholder", "role", "aria-label", "data-testid")
# Roles whose element is kept as a wrapper when it holds controls.
SKELETON_WRAPPERS = frozenset(
    {"form", "dialog", "alertdialog", "navigation", "main", "banner", "contentinfo", "complementary", "search",
     "region", "menu", "menubar", "tablist", "toolbar", "radiogroup", "table", "group", "listbox", "tree", "grid"}
)  # fmt: skip


def write_skeleton(snap: DomSnapshot, out: HtmlWriter) -> None:
    """The skeleton of ``snap`` into ``out``, until it is full."""
    _Skeleton(snap, out).children(snap.root, 0)


class _Skeleton:
    __slots__ = ("frames", "out", "pending", "snap")

    def __init__(self, snap: DomSnapshot, out: HtmlWriter) -> None:
        self.snap = snap
        self.out = out
        self.frames = FrameLabels()
        self.pending: str | None = None  # the last heading seen, shown before the next control

    def children(self, node: Node, depth: int) -> None:
        if depth > MAX_DEPTH:
            return
        for child in node.children:
            if self.out.full:
                return
            self.visit(child, depth + 1)

    def flush_heading(self) -> None:
        if self.pending is not None:
            self.out.put(self.pending)
            self.out.soft("\n")
            self.pending = None

    def visit(self, node: Node, depth: int) -> None:
        tag = node.tag
        if tag == "#text" or tag in DROPPED_TAGS or opted_out(node):
            return
        snap = self.snap
        element_id = snap.id_of.get(node.ref) if node.visible else None
        if element_id is not None:
            self.flush_heading()
            self.control(node, element_id, depth)
            return
        if not snap.has_id_below(node):
            if node.visible and node.role == "heading":
                text = node.name or visible_text(node, MAX_TEXT)
                if text:
                    level = heading_level(node) or 2
                    self.pending = f"<h{level}>{escape(text, quote=False)}</h{level}>"
            return
        if tag == "#document":
            if node.parent is None:
                self.children(node, depth)
                return
            # A frame's content, in an <iframe> that says which frame it is.
            self.flush_heading()
            start = "<iframe" + attr("data-frame", self.frames.label(node))
            owner = node.parent
            if owner.name or "title" in owner.attrs:
                start += attr("title", owner.name or owner.attrs["title"])
            if self.out.open(start + ">", "iframe"):
                self.out.soft("\n")
                self.children(node, depth)
                self.pending = None
                self.out.close()
                self.out.soft("\n")
            return
        role = node.role
        wrapper = node.visible and role in SKELETON_WRAPPERS and (role != "group" or bool(node.name))
        if node.visible and role == "heading":
            wrapper = True  # a heading holding controls (an accordion's <h3><button>)
        if not wrapper:
            self.children(node, depth)
            return
        self.flush_heading()
        start = "<" + tag
        if "role" in node.attrs:
            start += attr("role", node.attrs["role"])
        label = node.attrs.get("aria-label") or (node.name if role != "heading" else "")
        if label:
            start += attr("aria-label", label)
        if self.out.open(start + ">", tag):
            self.out.soft("\n")
            self.children(node, depth)
            self.pending = None
            self.out.close()
            self.out.soft("\n")

    def control(self, node: Node, element_id: int, depth: int) -> None:
        snap, out = self.snap, self.out
        tag = node.tag if node.tag[0] != "#" else "div"
        start = f'<{tag} data-id="{element_id}"'
        attrs = node.attrs
        for name in SKELETON_ATTRS:
            value = attrs.get(name)
            if value is None:
                continue
            if name == "id":
                start += id_attr(value)
            elif name != "href" or url_ok(value):
                start += attr(name, value)
        start += value_attrs(node, snap) + state_attrs(node, snap, False)
        nested = snap.has_id_below(node)
        text = ""
        if tag == "select":
            text = select_options(node, snap)
        elif tag == "textarea":
            text = textarea_value(node, snap)
        elif tag not in VOID and not nested:
            text = escape(visible_text(node, MAX_TEXT), quote=False)
        if node.name and name_unsaid(node, alt_shown=False):
            if nested or tag in VOID or tag in NAMED_BY_LABEL:
                start += attr("aria-label", node.name)  # its content, if any, is not its name
            elif not text:
                text = escape(node.name, quote=False)
        if tag in VOID:
            if out.put(start + ">"):
                out.soft("\n")
                out.ids += 1
            return
        if not out.open(start + ">", tag):
            return
        out.ids += 1
        if nested:
            out.soft("\n")
            self.children(node, depth)
            self.pending = None
        elif tag == "select":
            out.put(text)  # markup: whole or not at all
        else:
            out.text(text)
        out.close()
        out.soft("\n")


__all__ = ["SKELETON_ATTRS", "write_skeleton"]
