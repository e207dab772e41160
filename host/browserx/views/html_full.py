"""The ``full`` mode of the ``html`` view (views/html.py): every visible element with its tag and a
filtered attribute set (``FULL_ATTRS``, ``aria-*`` but the ID references), the text, and the
annotations ``data-id``, ``data-interactive``, ``data-scrollable``, ``data-frame``. Hidden elements
go with everything in them unless some of it is seen; shadow roots are inline under their host.
Repeated structures are templatized: a run of at least ``MIN_RUN`` alike siblings (``_shape``:
tag, attribute names and the same of their first ``SHAPE_DEPTH`` levels of content) keeps its
first ``KEEP`` and says the rest in a comment."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from browserx.snapshot.classify import is_interactive
from browserx.snapshot.model import F_INLINE, F_SPACE_AFTER, F_SPACE_BEFORE, Node, NodeRef
from browserx.snapshot.snapshot import DomSnapshot
from browserx.snapshot.visibility import is_scroll_container
from browserx.views.html_common import (
    DROPPED_TAGS,
    FULL_ATTRS,
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

KEEP = 3  # of a run of alike siblings, the ones rendered
MIN_RUN = 6  # the shortest run that is templatized
SHAPE_DEPTH = 2  # levels of content a sibling's shape looks at
SHAPE_CHILDREN = 12  # children per level a shape looks at

# Elements that show something even when empty.
CONTENT_TAGS = frozenset(
    {"img", "svg", "input", "select", "textarea", "video", "audio", "canvas", "iframe", "hr", "br", "picture",
     "object", "embed", "math"}
)  # fmt: skip
# aria-* attributes that only point at other elements by their HTML id: noise here.
ARIA_REFERENCES = frozenset(
    {"aria-labelledby", "aria-describedby", "aria-controls", "aria-owns", "aria-activedescendant",
     "aria-details", "aria-errormessage", "aria-flowto", "aria-hidden"}
)  # fmt: skip


def write_full(snap: DomSnapshot, out: HtmlWriter) -> None:
    """The whole of ``snap`` into ``out``, until it is full."""
    _Full(snap, out).children(snap.root, 0)


def _says_something(node: Node, id_of: Mapping[NodeRef, int]) -> bool:
    """Whether a visible node shows anything of its own: text, an attribute, an ID, or a tag that
    is content (an image, a field). An empty <span> of an icon does not."""
    if node.tag == "#text":
        return bool(node.text) and node.text != " "
    return bool(node.attrs) or node.tag in CONTENT_TAGS or node.ref in id_of


def _content_below(nodes: tuple[Node, ...], id_of: Mapping[NodeRef, int]) -> bytearray:
    """Per node index, 1 if a visible node that says something lies below it (one pass, children
    before parents)."""
    below = bytearray(len(nodes))
    for n in reversed(nodes):
        parent = n.parent
        if parent is not None and (below[n.index] or (n.visible and _says_something(n, id_of))):
            below[parent.index] = 1
    return below


class _Full:
    __slots__ = ("below", "frames", "id_of", "out", "snap")

    def __init__(self, snap: DomSnapshot, out: HtmlWriter) -> None:
        self.snap = snap
        self.out = out
        self.frames = FrameLabels()
        self.below = _content_below(snap.nodes, snap.id_of)
        self.id_of = snap.id_of

    def shown(self, node: Node) -> bool:
        """Whether ``node`` is rendered at all."""
        tag = node.tag
        if tag == "#text":
            return node.visible and bool(node.text)
        if tag in DROPPED_TAGS:
            return False
        # Hidden elements go with their content, unless some of it is seen; empty ones go too.
        return bool(self.below[node.index]) or (node.visible and _says_something(node, self.id_of))

    def children(self, node: Node, depth: int, frame: str | None = None) -> None:
        out = self.out
        if depth > MAX_DEPTH:
            out.put("<!-- nested deeper than this: not rendered -->")
            return
        kids = [c for c in node.children if self.shown(c)]
        if len(kids) < MIN_RUN:
            for child in kids:
                if out.full:
                    return
                self.visit(child, depth + 1, frame)
            return
        shapes = [_shape(c, SHAPE_DEPTH) if c.tag[0] != "#" else "" for c in kids]
        i = 0
        count = len(kids)
        while i < count and not out.full:
            child = kids[i]
            shape = shapes[i]
            if not shape or child.tag == "#document" or child.tag == "#shadow-root":
                self.visit(child, depth + 1, frame)
                i += 1
                continue
            # The run of alike elements starting here (white space between them does not break it).
            j, alike, last = i + 1, 1, i
            while j < count:
                other = kids[j]
                if other.tag == "#text" and other.text == " ":
                    j += 1
                    continue
                if shapes[j] != shape:
                    break
                alike += 1
                last = j
                j += 1
            if alike < MIN_RUN:
                self.visit(child, depth + 1, frame)
                i += 1
                continue
            seen = 0
            k = i
            while k <= last and seen < KEEP and not out.full:
                if kids[k].tag != "#text":
                    seen += 1
                self.visit(kids[k], depth + 1, frame)
                k += 1
            rest = [kids[m] for m in range(k, last + 1) if kids[m].tag != "#text"]
            ids = sum(self.ids_in(r) for r in rest)
            with_ids = f" (holding {ids} elements with IDs: mode skeleton lists them)" if ids else ""
            out.soft("\n")
            out.put(f"<!-- {len(rest)} more <{child.tag}> like the above{with_ids} -->")
            out.soft("\n")
            i = last + 1

    def ids_in(self, node: Node) -> int:
        id_of = self.id_of
        return sum(1 for n in node.walk() if n.visible and n.tag[0] != "#" and n.ref in id_of)

    def visit(self, node: Node, depth: int, frame: str | None = None) -> None:
        out = self.out
        tag = node.tag
        if tag == "#text":
            text = escape(node.text, quote=False)
            if node.flags & F_SPACE_BEFORE and text != " ":
                text = " " + text
            if node.flags & F_SPACE_AFTER and text != " ":
                text += " "
            out.text(text)
            return
        if tag == "#shadow-root":
            self.children(node, depth, frame)  # inline under the host
            return
        if tag == "#document":
            label = self.frames.label(node) if node.parent is not None else None
            self.children(node, depth, label)
            return
        if opted_out(node):
            out.put("<!-- content left out: it opted out of AI agents (data-no-ai) -->")
            return
        self.element(node, depth, frame)

    def element(self, node: Node, depth: int, frame: str | None) -> None:
        out, snap = self.out, self.snap
        tag = node.tag
        start = "<" + tag
        if node.visible:
            element_id = self.id_of.get(node.ref)
            if element_id is not None:
                start += f' data-id="{element_id}"'
                if node.tier == 2:
                    start += attr("data-interactive", ",".join(node.hints) or "yes")
                elif not is_interactive(node) and is_scroll_container(node):
                    start += " data-scrollable"
        if frame is not None:
            start += attr("data-frame", frame)
        attrs = node.attrs
        for name in attrs:
            if name in FULL_ATTRS or (name.startswith("aria-") and name not in ARIA_REFERENCES):
                value = attrs[name]
                if (name == "href" or name == "src") and not url_ok(value):
                    continue
                if name == "id":
                    start += id_attr(value)
                else:
                    start += attr(name, value) if value else " " + name
        start += value_attrs(node, snap) + state_attrs(node, snap, True)
        # Its name where the page does not show it: a field's, an icon button's.
        labelled = tag in VOID or tag in NAMED_BY_LABEL
        if (
            node.name
            and node.visible
            and node.ref in self.id_of
            and name_unsaid(node)
            and (labelled or not visible_text(node, 1))
        ):
            start += attr("aria-label", node.name)
        start += ">"
        if not (node.flags & F_INLINE):
            out.soft("\n")
        if tag in VOID:
            if out.put(start) and node.visible and node.ref in self.id_of:
                out.ids += 1
            return
        if not out.open(start, tag):
            return
        if node.visible and node.ref in self.id_of:
            out.ids += 1
        if tag == "select" and not node.state.get("listbox"):
            out.put(select_options(node, snap))
        elif tag == "textarea":
            out.text(textarea_value(node, snap))
        elif tag != "svg":
            self.children(node, depth)
        out.close()


def _shape(node: Node, depth: int) -> str:
    """What makes siblings alike: tag, attribute names, and the same of their first levels."""
    if node.tag == "#text":
        return "#"
    shape = node.tag
    if node.attrs:
        shape += "[" + ",".join(sorted(a for a in node.attrs if a != "id")) + "]"
    if depth > 0 and node.children:
        inner: list[str] = []
        for child in node.children[:SHAPE_CHILDREN]:
            if child.tag == "#text":
                if not inner or inner[-1] != "#":
                    inner.append("#")
            elif child.visible:
                inner.append(_shape(child, depth - 1))
        shape += "(" + " ".join(inner) + ")"
    return shape


__all__ = ["KEEP", "MIN_RUN", "write_full"]
