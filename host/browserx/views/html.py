"""The ``html`` view: the page as HTML, rendered from a snapshot (no I/O), in two modes.

``skeleton`` — only the elements an agent can act on (those with an ID), each with
``data-id="ID"`` (the IDs of the text view, what actions take) and the attributes seed 004 keeps:
the page's own ``id`` (for CSS selectors; whole or not at all: one longer than ``MAX_ATTR``
characters is left out), ``name``, ``type``, ``href``, ``value`` (see below), ``placeholder``,
``role``, ``aria-label``, ``data-testid``; plus the states the text view shows for it (see
``_state_attrs``): ``disabled``, ``checked``, ``selected``, ``required``, ``readonly`` where the
element has them natively, else ``aria-disabled``, ``aria-checked`` …; ``aria-expanded``,
``aria-pressed``, ``aria-invalid``, ``aria-sort``. Inside each: its visible text (else its
accessible name; an element that cannot hold text, an ``<input>``, gets its name as
``aria-label``), a ``<select>``'s options. Context is kept only where it holds controls: landmarks, forms, dialogs, menus, tab lists,
toolbars, named fieldsets and tables as bare wrappers (tag, role, name); a frame's controls in an
``<iframe data-frame="label" title="…">``; and the heading of each section that holds controls.
Everything else is hoisted away; what a person cannot see is left out.

``full`` — the whole page: every visible element with its tag and a filtered attribute set (``id``,
``name``, ``type``, ``href``, ``src``, ``alt``, ``title``, ``placeholder``, ``role``, ``for``,
``aria-*`` but the ID references, ``data-testid``, form attributes and states — the live states
as in the skeleton; an ``id`` longer than ``MAX_ATTR`` is left out, not cut; never ``class``,
``style``, event handlers or other ``data-*``), and the text. Annotations: ``data-id`` on elements
with an ID; ``data-interactive="why"`` on those whose tag and role do not say they are controls (a
``<div>`` with a click listener); ``data-scrollable`` on scroll containers; ``data-frame="label"`` on
the ``<body>`` of each frame's document (rendered inside its ``<iframe>``). Left out: scripts,
styles, ``<noscript>``, ``<template>`` and ``<head>`` (the snapshot never holds them), SVG
internals (the ``<svg>`` stays, with its ID and name), ``data:`` URLs, and hidden elements with
everything in them — except an element that is hidden itself but holds visible content (a
zero-size wrapper): it stays, with only that content. Attribute values are cut at
``MAX_ATTR`` characters. Shadow roots are rendered inline under their host as plain content (no
``<template shadowrootmode>``). Repeated structures are templatized: a run of more than
``MIN_RUN - 1`` consecutive sibling elements of the same shape (tag, attribute names and the tags
of their first levels of content) keeps its first ``KEEP`` and says the rest in a comment:
``<!-- 37 more <li> like the above -->`` (with how many elements with IDs they hold: the skeleton
lists those).

Both modes stop at ``max_chars``: the HTML then ends cleanly (every open tag closed) and the view
says it was cut.

Privacy: password values never appear (neither the live value nor a ``value`` attribute written in
the page). Other form values only when the snapshot was taken with ``include_values``, masked as
the other views mask them (``outline.redact``): the live value as ``value`` (a ``<textarea>``'s as
its content, a ``<select>``'s as ``selected``). A ``value`` attribute is otherwise kept only where
it is a button's label (``<input type=submit|button|reset>``). Content of a frame or element that
says ``data-no-ai`` is left out (a comment says so in full mode); a page that says it is refused
before any snapshot (control/api.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html import escape

from browserx.snapshot.classify import is_interactive
from browserx.snapshot.model import F_INLINE, F_SPACE_AFTER, F_SPACE_BEFORE, Node, NodeRef
from browserx.snapshot.roles import heading_level, is_disabled
from browserx.snapshot.snapshot import DomSnapshot
from browserx.snapshot.visibility import is_scroll_container
from browserx.views.outline import PASSWORD_MASK, control_facts, redact

DEFAULT_MAX_CHARS = 50_000
MAX_MAX_CHARS = 200_000
MAX_ATTR = 100  # characters of an attribute value
MAX_TEXT = 100  # characters of a control's text in the skeleton
MAX_OPTIONS = 12  # a <select>'s options listed (as the text view lists them)
MAX_DEPTH = 400  # nesting beyond this is not rendered (a comment says so)
KEEP = 3  # of a run of alike siblings, the ones rendered
MIN_RUN = 6  # the shortest run that is templatized
SHAPE_DEPTH = 2  # levels of content a sibling's shape looks at
SHAPE_CHILDREN = 12  # children per level a shape looks at

VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track",
     "wbr"}
)  # fmt: skip
DROPPED_TAGS = frozenset({"script", "style", "noscript", "template", "head", "meta", "link", "title", "base"})
BUTTON_INPUTS = frozenset({"submit", "button", "reset"})
# Elements that show something even when empty.
CONTENT_TAGS = frozenset(
    {"img", "svg", "input", "select", "textarea", "video", "audio", "canvas", "iframe", "hr", "br", "picture",
     "object", "embed", "math"}
)  # fmt: skip
# Elements whose content is not their name: their name, when shown, is an aria-label.
NAMED_BY_LABEL = frozenset({"select", "textarea", "svg", "iframe", "canvas"})
SKELETON_ATTRS = ("id", "name", "type", "href", "placeholder", "role", "aria-label", "data-testid")
FULL_ATTRS = frozenset(
    {"id", "name", "type", "href", "src", "alt", "title", "placeholder", "role", "for", "tabindex",
     "contenteditable", "disabled", "readonly", "required", "multiple", "open", "action", "method", "list",
     "size", "scope", "autocomplete", "label", "data-testid"}
)  # fmt: skip
# Where a state is the element's own HTML attribute (else it is said with aria-*).
NATIVE_DISABLED = frozenset({"button", "input", "select", "textarea", "fieldset", "optgroup", "option"})
NATIVE_FIELDS = frozenset({"input", "select", "textarea"})  # required, readonly
# aria-* attributes that only point at other elements by their HTML id: noise here.
ARIA_REFERENCES = frozenset(
    {"aria-labelledby", "aria-describedby", "aria-controls", "aria-owns", "aria-activedescendant",
     "aria-details", "aria-errormessage", "aria-flowto", "aria-hidden"}
)  # fmt: skip
# Roles whose element is kept in the skeleton as a wrapper when it holds controls.
SKELETON_WRAPPERS = frozenset(
    {"form", "dialog", "alertdialog", "navigation", "main", "banner", "contentinfo", "complementary", "search",
     "region", "menu", "menubar", "tablist", "toolbar", "radiogroup", "table", "group", "listbox", "tree", "grid"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class HtmlView:
    html: str
    elements: int  # elements rendered with a data-id
    truncated: bool
    note: str | None


def render_html(snap: DomSnapshot, mode: str = "skeleton", max_chars: int = DEFAULT_MAX_CHARS) -> HtmlView:
    """The snapshot as HTML: ``mode`` skeleton or full, at most ``max_chars`` characters."""
    out = _Writer(max(1, min(max_chars, MAX_MAX_CHARS)))
    if mode == "full":
        _Full(snap, out).children(snap.root, 0)
    elif mode == "skeleton":
        _Skeleton(snap, out).children(snap.root, 0)
    else:
        raise ValueError(f"unknown html mode {mode!r}")
    html = out.finish()
    note = None
    if out.full:
        total = len(snap.by_id)
        note = (
            f"Cut at {len(html)} characters (max_chars {out.limit}): {out.ids} of the page's {total} elements "
            "with IDs are in it. "
            + ("Ask for a larger max_chars (up to 200000), " if out.limit < MAX_MAX_CHARS else "")
            + ("or mode skeleton, " if mode == "full" else "")
            + "or take a snapshot with a query to see the rest."
        )
    return HtmlView(html, out.ids, out.full, note)


# -- output with a hard size limit ------------------------------------------------------------------


class _Writer:
    """Collects the HTML; keeps room for the end tags of every open element, so that when a piece
    no longer fits (``full`` then), closing them all still stays within ``limit``."""

    __slots__ = ("closers", "closing", "full", "ids", "limit", "parts", "size")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.parts: list[str] = []
        self.size = 0
        self.closers: list[str] = []
        self.closing = 0  # characters of the end tags owed
        self.full = False
        self.ids = 0

    def fits(self, n: int) -> bool:
        if self.full:
            return False
        if self.size + n + self.closing > self.limit:
            self.full = True
            return False
        return True

    def put(self, piece: str) -> bool:
        if not self.fits(len(piece)):
            return False
        self.parts.append(piece)
        self.size += len(piece)
        return True

    def soft(self, piece: str) -> None:
        """Layout (a line break): left out when it does not fit, without ending the output."""
        if self.size and not self.full and self.size + len(piece) + self.closing <= self.limit:
            self.parts.append(piece)
            self.size += len(piece)

    def text(self, text: str) -> None:
        """Text, cut to what still fits when it is long (then the output is full)."""
        if self.full:
            return
        room = self.limit - self.size - self.closing
        if len(text) <= room:
            self.parts.append(text)
            self.size += len(text)
            return
        if room > 20:
            cut = text[: room - 1]
            amp = cut.rfind("&")  # not inside an entity
            if amp >= 0 and ";" not in cut[amp:]:
                cut = cut[:amp]
            self.parts.append(cut + "…")
            self.size += len(cut) + 1
        self.full = True

    def open(self, start: str, tag: str) -> bool:
        """A start tag whose end tag is owed (``close``)."""
        end = "</" + tag + ">"
        if not self.fits(len(start) + len(end)):
            return False
        self.parts.append(start)
        self.size += len(start)
        self.closers.append(end)
        self.closing += len(end)
        return True

    def close(self) -> None:
        end = self.closers.pop()
        self.closing -= len(end)
        self.parts.append(end)
        self.size += len(end)

    def finish(self) -> str:
        while self.closers:
            self.close()
        return "".join(self.parts).rstrip("\n")


# -- shared pieces -----------------------------------------------------------------------------------


def _attr(name: str, value: str) -> str:
    value = " ".join(value.split())
    if len(value) > MAX_ATTR:
        value = value[: MAX_ATTR - 1] + "…"
    return f' {name}="{escape(value)}"'


def _url_ok(value: str) -> bool:
    """Not a data: URL (base64 images and the like: long and meaningless here)."""
    return value.lstrip()[:5].lower() != "data:"


def _opted_out(node: Node) -> bool:
    return "data-no-ai" in node.attrs


def _unsaid(node: Node, alt_shown: bool = True) -> bool:
    """Whether the element's accessible name is not already in one of the attributes shown
    (``alt_shown``: the mode writes ``alt``; the skeleton does not)."""
    attrs = node.attrs
    name = node.name
    return "aria-label" not in attrs and name not in (
        attrs.get("placeholder"),
        attrs.get("alt") if alt_shown else None,
        attrs.get("value"),
    )


def _input_type(node: Node) -> str:
    kind = node.state.get("inputType")
    return str(kind) if kind is not None else node.attrs.get("type", "text").lower()


def _value_attrs(node: Node, snap: DomSnapshot) -> str:
    """``value`` as the privacy rules allow it (see the module docstring)."""
    tag = node.tag
    if tag == "input":
        kind = _input_type(node)
        if kind == "password":
            # Only that it holds something, as the other views say it (never the value).
            has_value = snap.include_values and node.state.get("hasValue")
            return _attr("value", PASSWORD_MASK) if has_value else ""
        if kind in BUTTON_INPUTS:
            label = node.attrs.get("value")
            return _attr("value", label) if label else ""
        if snap.include_values and kind not in ("checkbox", "radio") and "value" in node.state:
            return _attr("value", redact(str(node.state["value"])))
    elif tag in ("progress", "meter"):
        value = node.attrs.get("value")
        return _attr("value", value) if value else ""
    return ""


def _id_attr(value: str) -> str:
    """The page's own ``id``, for selectors (``#save``): whole or not at all, never cut."""
    if not value or len(value) > MAX_ATTR or any(c.isspace() for c in value):
        return ""
    return f' id="{escape(value)}"'


def _states(node: Node, snap: DomSnapshot) -> Mapping[str, object]:
    """The element's non-default states: for an element with an ID, those the text view shows
    (``control_facts``: native, ARIA and inherited ones alike); for others, the live states the
    snapshot recorded."""
    if node.visible and node.ref in snap.id_of:
        return control_facts(node, snap)
    state = node.state
    found: dict[str, object] = {}
    if state.get("disabled"):
        found["disabled"] = True
    checked = state.get("checked")
    if checked is True or checked == "mixed":
        found["checked"] = checked
    if state.get("selected") is True:
        found["selected"] = True
    return found


def _token(value: object) -> str:
    return "true" if value is True else "false" if value is False else str(value)


def _state_attrs(node: Node, snap: DomSnapshot, written: bool) -> str:
    """The states as attributes: the element's native ones where HTML has them (``disabled``,
    ``checked``, ``selected``, ``required``, ``readonly``), ``aria-*`` otherwise (``aria-expanded``,
    ``aria-pressed``, ``aria-invalid``, ``aria-sort``, and ``aria-disabled``… on elements without
    the native one). ``written``: the page's own attributes of those names are already there (full
    mode), so one is not said twice."""
    facts = _states(node, snap)
    if not facts:
        return ""
    tag, attrs = node.tag, node.attrs
    pairs: list[tuple[str, str | None]] = []  # (name, value); None: a boolean attribute
    if facts.get("disabled") is True:
        native = tag in NATIVE_DISABLED and is_disabled(node)
        pairs.append(("disabled", None) if native else ("aria-disabled", "true"))
    checked = facts.get("checked")
    if checked is True and tag == "input":
        pairs.append(("checked", None))
    elif checked is True or checked == "mixed":
        pairs.append(("aria-checked", _token(checked)))
    if facts.get("selected") is True:
        pairs.append(("selected", None) if tag == "option" else ("aria-selected", "true"))
    for key in ("expanded", "pressed"):
        if key in facts:
            pairs.append(("aria-" + key, _token(facts[key])))
    for key in ("required", "readonly"):
        if facts.get(key) is True:
            native = tag in NATIVE_FIELDS and key in attrs
            pairs.append((key, None) if native else ("aria-" + key, "true"))
    for key in ("invalid", "sort"):
        if key in facts:
            pairs.append(("aria-" + key, _token(facts[key])))
    out = ""
    for name, value in pairs:
        if written and name in attrs and (name in FULL_ATTRS or name.startswith("aria-")):
            continue
        out += " " + name if value is None else _attr(name, value)
    return out


def _visible_text(node: Node, limit: int) -> str:
    """The visible text of a subtree, white space collapsed, at most ``limit`` characters."""
    parts: list[str] = []
    size = 0
    stack = [node]
    while stack and size <= limit:
        n = stack.pop()
        if n.tag == "#text":
            if n.visible and n.text and n.text != " ":
                parts.append(n.text)
                size += len(n.text) + 1
        elif not _opted_out(n) and n.children:
            stack.extend(reversed(n.children))
    text = " ".join(" ".join(parts).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _options(node: Node, snap: DomSnapshot) -> str:
    """A <select>'s options from the snapshot's summary (its <option> elements are not walked)."""
    options = node.state.get("options")
    if not options:
        return ""
    multiple = "multiple" in node.attrs
    out = ""
    for label, selected in options[:MAX_OPTIONS]:
        mark = " selected" if selected and (snap.include_values or multiple) else ""
        out += f"<option{mark}>{escape(str(label), quote=False)}</option>"
    total = node.state.get("optionCount", len(options))
    if isinstance(total, int) and total > MAX_OPTIONS:
        out += f"<!-- {total - MAX_OPTIONS} more options -->"
    return out


def _textarea_value(node: Node, snap: DomSnapshot) -> str:
    if node.tag == "textarea" and snap.include_values and "value" in node.state:
        return escape(redact(str(node.state["value"])), quote=False)
    return ""


class _Frames:
    """The label of each frame's document: the snapshot's frame label for an out-of-process frame
    (``f1``), the enclosing one's plus a number for a frame of the same process (``m.1``)."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def label(self, doc: Node) -> str:
        own = doc.attrs.get("frame")
        if own:
            return own
        parent = doc.ref.frame
        n = self.counts.get(parent, 0) + 1
        self.counts[parent] = n
        return f"{parent}.{n}"


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


# -- skeleton ----------------------------------------------------------------------------------------


class _Skeleton:
    __slots__ = ("frames", "out", "pending", "snap")

    def __init__(self, snap: DomSnapshot, out: _Writer) -> None:
        self.snap = snap
        self.out = out
        self.frames = _Frames()
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
        if tag == "#text" or tag in DROPPED_TAGS or _opted_out(node):
            return
        snap = self.snap
        element_id = snap.id_of.get(node.ref) if node.visible else None
        if element_id is not None:
            self.flush_heading()
            self.control(node, element_id, depth)
            return
        if not snap.has_id_below(node):
            if node.visible and node.role == "heading":
                text = node.name or _visible_text(node, MAX_TEXT)
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
            start = "<iframe" + _attr("data-frame", self.frames.label(node))
            owner = node.parent
            if owner.name or "title" in owner.attrs:
                start += _attr("title", owner.name or owner.attrs["title"])
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
            start += _attr("role", node.attrs["role"])
        label = node.attrs.get("aria-label") or (node.name if role != "heading" else "")
        if label:
            start += _attr("aria-label", label)
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
                start += _id_attr(value)
            elif name != "href" or _url_ok(value):
                start += _attr(name, value)
        start += _value_attrs(node, snap) + _state_attrs(node, snap, False)
        nested = snap.has_id_below(node)
        text = ""
        if tag == "select":
            text = _options(node, snap)
        elif tag == "textarea":
            text = _textarea_value(node, snap)
        elif tag not in VOID and not nested:
            text = escape(_visible_text(node, MAX_TEXT), quote=False)
        if node.name and _unsaid(node, alt_shown=False):
            if nested or tag in VOID or tag in NAMED_BY_LABEL:
                start += _attr("aria-label", node.name)  # its content, if any, is not its name
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


# -- full --------------------------------------------------------------------------------------------


class _Full:
    __slots__ = ("below", "frames", "id_of", "out", "snap")

    def __init__(self, snap: DomSnapshot, out: _Writer) -> None:
        self.snap = snap
        self.out = out
        self.frames = _Frames()
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
        if _opted_out(node):
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
                    start += _attr("data-interactive", ",".join(node.hints) or "yes")
                elif not is_interactive(node) and is_scroll_container(node):
                    start += " data-scrollable"
        if frame is not None:
            start += _attr("data-frame", frame)
        attrs = node.attrs
        for name in attrs:
            if name in FULL_ATTRS or (name.startswith("aria-") and name not in ARIA_REFERENCES):
                value = attrs[name]
                if (name == "href" or name == "src") and not _url_ok(value):
                    continue
                if name == "id":
                    start += _id_attr(value)
                else:
                    start += _attr(name, value) if value else " " + name
        start += _value_attrs(node, snap) + _state_attrs(node, snap, True)
        # Its name where the page does not show it: a field's, an icon button's.
        labelled = tag in VOID or tag in NAMED_BY_LABEL
        if (
            node.name
            and node.visible
            and node.ref in self.id_of
            and _unsaid(node)
            and (labelled or not _visible_text(node, 1))
        ):
            start += _attr("aria-label", node.name)
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
            out.put(_options(node, snap))
        elif tag == "textarea":
            out.text(_textarea_value(node, snap))
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


__all__ = ["DEFAULT_MAX_CHARS", "MAX_MAX_CHARS", "HtmlView", "render_html"]
