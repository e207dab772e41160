"""Flattening for the LLM: the second pass over the tree, shared by the text and json views.

Kept: nodes an agent can act on (they carry an ID), headings, named images, semantic groups
(form, dialog, table and rows, fieldset, details, list items, iframes, named landmarks) and runs
of visible text. Hoisted: every other container. Collapsed: a control's inner nodes become its
name. Dropped: whatever a person cannot see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from browserx.snapshot.classify import is_interactive
from browserx.snapshot.model import F_INLINE, Node
from browserx.snapshot.redaction import redact_url, value_of
from browserx.snapshot.snapshot import DomSnapshot
from browserx.snapshot.states import heading_level, states_of
from browserx.snapshot.visibility import is_scroll_container, shows_on_hover
from browserx.views.scroll import sideways

Kind = Literal["control", "heading", "image", "group", "row", "item", "text", "frame"]

ALWAYS_GROUPS = frozenset(
    {
        "form",
        "dialog",
        "alertdialog",
        "table",
        "group",
        "tabpanel",
        "alert",
        "tablist",
        "menu",
        "listbox",
        "tree",
        "grid",
    }
)
LANDMARKS = frozenset({"navigation", "main", "banner", "contentinfo", "complementary", "region", "search"})
MAX_TEXT_LINE = 300


@dataclass(slots=True, init=False)
class Item:
    kind: Kind
    node: Node | None
    text: str
    children: list[Item]

    # Written out: compiled, the dataclass __init__ would be a Python call per outline item.
    def __init__(
        self, kind: Kind, node: Node | None = None, text: str = "", children: list[Item] | None = None
    ) -> None:
        self.kind = kind
        self.node = node
        self.text = text
        self.children = [] if children is None else children


def _group_kind(node: Node) -> Kind | None:
    role = node.role
    if role == "row":
        return "row"
    if role == "listitem":
        return "item"
    if role in ALWAYS_GROUPS or node.tag == "details":
        return "group"
    if role in LANDMARKS and node.name:
        return "group"
    return None


def outline(snapshot: DomSnapshot) -> list[Item]:
    """The kept items of the snapshot, nested."""
    top: list[Item] = []
    _Outliner(snapshot).walk_children(snapshot.root, top)
    return top


class _Outliner:
    """One recursive pass over every node of the page: lookups are hoisted (a method or property
    call per node shows). A class, not closures: a recursive closure is a reference cycle, and
    this one would hold the snapshot until the next full collection."""

    __slots__ = ("has_id_below", "id_of")

    def __init__(self, snapshot: DomSnapshot) -> None:
        self.id_of = snapshot.id_of.get
        self.has_id_below = snapshot.has_id_below

    def walk_children(self, node: Node, out: list[Item]) -> None:
        start = len(out)
        run: list[Node] = []
        visit = self.visit
        for child in node.children:
            visit(child, out, run)
        if run:
            _flush(run, out)
        _drop_echoes(node, out, start)

    def visit(self, node: Node, out: list[Item], run: list[Node]) -> None:
        tag = node.tag
        if tag == "#text":
            if node.visible and node.text and node.text != " ":
                run.append(node)
            return
        visible = node.visible
        if visible and self.id_of(node.ref) is not None:
            if run:
                _flush(run, out)
            item = Item("control", node)
            if is_scroll_container(node) or self.has_id_below(node):
                self.walk_children(node, item.children)
            out.append(item)
            return
        if tag == "#document" and node.parent is not None:
            if run:
                _flush(run, out)
            item = Item("frame", node)
            self.walk_children(node, item.children)
            if item.children:
                out.append(item)
            return
        visit = self.visit
        if not visible:
            # An invisible box can still hold visible descendants (zero-size wrappers, overrides).
            for child in node.children:
                visit(child, out, run)
            return
        role = node.role
        if role is not None:
            if role == "heading":
                if run:
                    _flush(run, out)
                item = Item("heading", node, text=node.name or _own_text(node))
                if self.has_id_below(node):
                    # Controls inside a heading keep their IDs: the accordion's <h3><button>,
                    # a card's heading link (rendered on the heading's line).
                    self.walk_children(node, item.children)
                out.append(item)
                return
            if role == "img" and node.name:
                if run:
                    _flush(run, out)
                out.append(Item("image", node, text=node.name))
                return
        kind = _group_kind(node)
        if kind is not None:
            if run:
                _flush(run, out)
            item = Item(kind, node)
            self.walk_children(node, item.children)
            if item.children or kind == "row":
                out.append(item)
            return
        if tag == "label" and self.has_id_below(node):
            self.visit_label(node, out, run)
            return
        block = not node.flags & F_INLINE
        if block and run:
            _flush(run, out)
        for child in node.children:
            visit(child, out, run)
        if block and run:
            _flush(run, out)

    def visit_label(self, node: Node, out: list[Item], run: list[Node]) -> None:
        """A <label> around a control: the text it gives the control as its name is printed on
        the control's line, not again as a line of its own (``[3] checkbox Remember me`` and no
        ``Remember me`` under it). Its text runs on its own (an inline label's text is not joined
        with the text around it), and text the control's name does not hold stays."""
        if run:
            _flush(run, out)
        inner: list[Item] = []
        inner_run: list[Node] = []
        for child in node.children:
            self.visit(child, inner, inner_run)
        if inner_run:
            _flush(inner_run, inner)
        names = [name for name in (_norm(c.node.name) for c in _controls(inner) if c.node) if name]
        for item in inner:
            text = _norm(item.text) if item.kind == "text" else ""
            if not text or not any(text in name for name in names):
                out.append(item)


def _norm(text: str) -> str:
    return text.strip().rstrip(":*").strip().casefold()


def _names(item: Item | None, text: str) -> bool:
    return (
        item is not None
        and item.kind == "control"
        and item.node is not None
        and text == _norm(item.node.name)
    )


def _drop_echoes(container: Node, items: list[Item], start: int) -> None:
    """Text that only repeats a name shown anyway costs tokens and says nothing: a legend echoing
    its group's name, a label's text right before the control it names."""
    if not any(items[i].kind == "text" for i in range(start, len(items))):
        return
    keep: list[Item] = []
    group_name = _norm(container.name) if container.name else None
    for i in range(start, len(items)):
        item = items[i]
        if item.kind == "text":
            text = _norm(item.text)
            following = items[i + 1] if i + 1 < len(items) else None
            if text and text == group_name and i == start:
                continue
            if text and (_names(following, text) or _names(keep[-1] if keep else None, text)):
                continue
        keep.append(item)
    items[start:] = keep


def _controls(items: list[Item]) -> list[Item]:
    """The control items among ``items`` and nested in them."""
    found: list[Item] = []
    for item in items:
        if item.kind == "control":
            found.append(item)
        found.extend(_controls(item.children))
    return found


def _flush(run: list[Node], out: list[Item]) -> None:
    text = " ".join(n.text for n in run)
    if len(text) > MAX_TEXT_LINE:
        text = text[: MAX_TEXT_LINE - 1] + "…"
    # A text item's node is the element holding its first text (where it is on screen).
    out.append(Item("text", node=run[0].parent, text=text))
    run.clear()


def _own_text(node: Node) -> str:
    return " ".join(n.text for n in node.walk() if n.is_text and n.visible)[:MAX_TEXT_LINE]


# -- facts shown for a control ------------------------------------------------------------

RANGE_ROLES = frozenset({"slider", "scrollbar"})
MAX_PLACEHOLDER = 80


def _placeholder(node: Node) -> str:
    """The hint a text field shows while empty (of the input a field stands in for)."""
    source = node.state.get("proxyOf") or node
    text = source.attrs.get("placeholder") or source.attrs.get("aria-placeholder") or ""
    return " ".join(text.split())[:MAX_PLACEHOLDER]


def _range_value(node: Node) -> str:
    """A slider's value as Chrome gives it: aria-valuetext, else aria-valuenow, else the native
    range input's value (of the input a thumb stands in for)."""
    source = node.state.get("proxyOf") or node
    attrs = source.attrs
    for key in ("aria-valuetext", "aria-valuenow"):
        text = " ".join((attrs.get(key) or "").split())
        if text:
            return text
    return str(source.state.get("valueNow") or "")


def control_facts(node: Node, snap: DomSnapshot) -> dict[str, Any]:
    """Role, name and the non-default states of a node with an ID, for every view. Computed once
    per node and snapshot (a view build asks several times); callers must not modify the dict."""
    cache = snap.caches.facts
    facts = cache.get(node.index)
    if facts is None:
        facts = cache[node.index] = _control_facts(node, snap)
    return facts


def _control_facts(node: Node, snap: DomSnapshot) -> dict[str, Any]:
    facts: dict[str, Any] = {}
    role = node.role or "generic"
    if not is_interactive(node) and is_scroll_container(node):
        role = "scrollable"
    elif node.tier == 2 and role in ("generic", "LabelText", None):
        role = "clickable"
    facts["role"] = role
    facts["tag"] = node.tag
    if node.name:
        facts["name"] = node.name
    if node.index in snap.hunted_names:
        facts["name_from"] = "nearby text"
    if not node.name and node.hint:
        facts["hint"] = node.hint  # what its markup says it is (snapshot/unnamed.py): not a name
    states = states_of(node)
    for key in (
        "disabled",
        "checked",
        "expanded",
        "selected",
        "pressed",
        "required",
        "readonly",
        "invalid",
        "haspopup",
        "current",
        "sort",
    ):
        if key in states:
            facts[key] = states[key]
    if node.state.get("focused"):
        facts["focused"] = True
    level = heading_level(node)
    if level:
        facts["level"] = level
    href = node.attrs.get("href")
    if href and role == "link":
        facts["href"] = short_href(href, snap.url)
    input_type = node.state.get("inputType")
    if input_type and input_type not in ("text", "submit", "button", "checkbox", "radio"):
        facts["type"] = input_type
    # A select's field shows its value as page text (stand_ins.py's proxyField): it is shown
    # whether values were asked for or not, as the text it was.
    if snap.include_values or node.state.get("proxyField"):
        value = value_of(node.attrs, node.state, node.name or "")
        if value is not None:
            facts["value"] = value
    placeholder = _placeholder(node)
    if placeholder and placeholder != facts.get("name"):
        facts["placeholder"] = placeholder  # a format hint (YYYY-MM-DD) the label does not say
    if role in RANGE_ROLES:
        # A slider's position is its state, as checked is a checkbox's: always shown.
        now = _range_value(node)
        if now:
            facts["value"] = now
        elif facts.get("value") == "":
            del facts["value"]
    options = node.state.get("options")
    if options and not node.state.get("listbox"):  # a list box's options are listed themselves
        facts["options"] = [label for label, _ in options[:12]]
        if "multiple" in node.attrs:
            chosen = [label for label, selected in options if selected]
            if chosen:
                facts["chosen"] = chosen[:12]
        if len(options) > 12 or node.state.get("optionCount"):
            facts["options_total"] = node.state.get("optionCount", len(options))
    if node.hints and node.tier == 2:
        facts["hints"] = list(node.hints)
    placement = snap.placements.get(node.index)
    if placement is not None:
        where: dict[str, Any] = {"offscreen": placement.offscreen}
        if placement.scroller is not None:
            scroller_id = snap.id_of.get(placement.scroller.ref)
            if scroller_id is not None:
                where["scroll_container"] = scroller_id
        facts["position"] = where
    if shows_on_hover(node):
        facts["on_hover"] = True  # transparent until hovered: a click hovers first (actions/pointer.py)
    cover = snap.covered.get(node.index)
    if cover is not None:
        covered: dict[str, Any] = {"by": cover.description}
        if cover.by is not None:
            cover_owner = _nearest_named(cover.by, snap)
            if cover_owner is not None:
                covered["by"] = cover_owner
        facts["covered"] = covered
    scroll = node.state.get("scroll")
    if scroll and is_scroll_container(node):
        _, top, _, height, _, client_h = scroll
        facts["scroll"] = {
            "y_percent": round(100 * top / max(1, height - client_h)) if height > client_h else None,
            "more_below": top + client_h < height - 1,
            "more_above": top > 0,
        }
        across = sideways(scroll)
        if across is not None:  # scrolls only sideways: a carousel, a wide table
            facts["scroll"].update(x_percent=across[0], more_right=across[1], more_left=across[2])
    return facts


def _nearest_named(node: Node, snap: DomSnapshot) -> str | None:
    n: Node | None = node
    while n is not None:
        element_id = snap.id_of.get(n.ref)
        if n.role in ("dialog", "alertdialog") or element_id is not None or (n.role and n.name):
            label = f'{n.role} "{n.name}"' if n.name else (n.role or n.tag)
            return f"{label} [{element_id}]" if element_id is not None else label
        n = n.parent
    return None


def short_href(href: str, page_url: str) -> str:
    """Links as a person reads them: same-origin as a path, long query strings trimmed."""
    from urllib.parse import urlsplit

    href = redact_url(href)  # (the snapshot's are already; a view never shows a secret URL)
    if href.startswith(("javascript:", "#")):
        return href[:40]
    page = urlsplit(page_url)
    link = urlsplit(href)
    text = href
    if link.scheme in ("http", "https") and link.netloc == page.netloc:
        text = link.path or "/"
        if link.query:
            text += "?" + link.query
        if link.fragment:
            text += "#" + link.fragment
    if len(text) > 80:
        text = text[:79] + "…"
    return text
