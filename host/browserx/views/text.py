"""The ``text`` view: a compact indented outline, one line per kept node, ID first on lines an
agent can act on. Example::

    # Checkout — http://shop.example/checkout
    viewport 1280x900, scrolled 0,0 of 1280x2400 (0% down, more below); 14 interactive, 3 outside the viewport
    ## Shipping
    form Address
     [3] textbox Full name (required)
     [4] combobox Country (options=[France, Germany, …])
     [5] checkbox Gift wrap (checked)
    [6] Terms → /terms
    Widget | 2 | [7] button Remove
    [9] button Pay (covered by dialog "Cookies")
    -- below the viewport --
    [12] Help → /help

Grammar of a control line: ``[ID] role name (facts) → URL``. The name is unquoted unless it
holds one of the delimiters (`` (``, ``→``, ``|``, ``[``, ``"``) or text follows it on the line;
facts are comma-separated in one pair of parentheses; a link with its URL drops the role word
(the arrow says it is a link). Where the page is: a ``-- … --`` marker line says that the lines
after it are outside the viewport (or back in it), until the next marker. ``LEGEND`` says all
this for a system prompt.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from browserx import quoting
from browserx.snapshot.model import Node
from browserx.snapshot.snapshot import DomSnapshot
from browserx.views import grammar
from browserx.views.outline import Item, control_facts, outline
from browserx.views.scroll import page_scroll, scroll_lines

INDENT = " "  # one space: cl100k merges " [" into one token, so the first level costs nothing
BOOLEAN_STATES = ("disabled", "checked", "selected", "pressed", "required", "readonly", "invalid", "focused")
# An input type the role already says (type=number on a spinbutton); other types are shown.
IMPLIED_TYPES = frozenset(
    {
        ("search", "searchbox"),
        ("number", "spinbutton"),
        ("range", "slider"),
        ("color", "ColorWell"),
        ("date", "Date"),
        ("time", "InputTime"),
    }
)
# Chromium's own names for roles ARIA has no word for, as a reader knows them.
TEXT_ROLES = {
    "DisclosureTriangle": "summary", "Date": "date", "DateTime": "datetime", "InputTime": "time",
    "ColorWell": "color", "LabelText": "label", "Iframe": "iframe", "RootWebArea": "document",
}  # fmt: skip
# Facts shown in parentheses (a line without any of them takes the short way).
_SHOWN_FACTS = frozenset(
    {*BOOLEAN_STATES, "expanded", "level", "type", "value", "placeholder", "options", "chosen", "sort", "scroll",
     "name_from", "hint",
     "covered", "on_hover"}
)  # fmt: skip

LEGEND = (
    """LEGEND for the browserx text view:
- Header: "# title — URL" (the title "quoted" if it holds " — "); viewport size, scroll offset of
  page size (how far down, more below?), interactive count, how many are outside the viewport;
  "scroll containers: 7 (30% down, more below)".
- One line per node, nested by one-space indentation: "## heading", plain text, a form, dialog,
  group, table, named region or iframe with its content indented under it.
- [N] role name (facts): an element to act on by its ID N (click, type, select, scroll), e.g.
  [5] button Save, [6] textbox Email (required, type=email), [7] checkbox Gift wrap (checked).
  The name ends at " (", " →", " |", the next [N] or the line's end; it is "quoted" when it
  contains one of those or text follows it. [N] name → /path is a link (same-site links as a path).
- clickable: no role but reacts to clicks; scrollable: a scroll container (scroll 0%, more below;
  one that scrolls only sideways: scroll 0% across, more right);
  summary: the toggle of a <details> section (expanded / collapsed).
- facts: states (disabled, checked, checked=mixed, selected, pressed, required, readonly, invalid,
  focused, expanded / collapsed), level=N, type=…, value="…" (if values were asked for; never
  passwords), placeholder="…" (the hint a field shows, e.g. a format, when it is not its name),
  options=[…, …] ("…" = more), name from nearby text (a label-less field), hint="…" (a control
  without a name: words of its own markup, e.g. its icon's name or test id; not a name),
  covered by X (X sits on top of it: dismiss X first).
- Table rows are one line, cells separated by " | ". "- " starts a list item with more than one
  part (a list item holding just one control is that control's line).
- "-- below the viewport --" (above / left / right, or "below in scroll container 7"): the lines
  after it are off-screen until the next such marker ("-- in view --"): scroll there first.
- "-- not shown (…) --" ends a view cut to its token budget: what was left out, where, and how to
  reach it (scroll, query=…, filter=… or a larger max_tokens).
- "events since last view:", then one line per page event: [3s ago] error appeared: "text".
- Deltas (since_last): "+ " new, "~ " changed (old → new), "- removed: [N], …".
"""
    + grammar.LEGEND_RULES
)


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


def _name(name: str, quote: bool) -> str:
    # quoted when it could be read as part of the line's syntax (views/grammar.py), or text follows
    return grammar.name(name, quote)


def control_line(element_id: int, facts: dict[str, Any], quote: bool = False) -> str:
    """``[ID] role name (facts) → URL``; ``quote``: text follows on the line (a bare name at the
    end of what the control shows is quoted then)."""
    role = facts["role"]
    href = facts.get("href") if role == "link" else None
    bits = [] if _SHOWN_FACTS.isdisjoint(facts) else _facts(facts, role)
    parts = [f"[{element_id}]"] if href else [f"[{element_id}]", TEXT_ROLES.get(role, role)]
    name = facts.get("name")
    if name:
        parts.append(_name(name, quote and not bits and not href))
    elif quote and not bits and not href:
        parts.append('""')  # unnamed, and text follows: that text is not its name
    if bits:
        parts.append(f"({', '.join(bits)})")
    if href:
        parts.append(f"→ {grammar.url(href)}")
    return " ".join(parts)


def _facts(facts: dict[str, Any], role: str) -> list[str]:
    bits: list[str] = []
    for key in BOOLEAN_STATES:
        value = facts.get(key)
        if value is True:
            bits.append(key)
        elif value == "mixed":
            bits.append(f"{key}=mixed")
    if "expanded" in facts:
        bits.append("expanded" if facts["expanded"] else "collapsed")
    if "level" in facts:
        bits.append(f"level={facts['level']}")
    if "type" in facts and (facts["type"], role) not in IMPLIED_TYPES:
        bits.append(f"type={facts['type']}")
    if "value" in facts:
        bits.append(f"value={quoting.quote(str(facts['value']))}")
    if "placeholder" in facts:
        bits.append(f"placeholder={quoting.quote(str(facts['placeholder']))}")
    if "hint" in facts:
        bits.append(f"hint={quoting.quote(str(facts['hint']))}")
    if "sort" in facts:
        bits.append(f"sorted {facts['sort']}")
    if "options" in facts:
        more = ", …" if "options_total" in facts else ""
        bits.append(f"options=[{', '.join(grammar.entry(o) for o in facts['options'])}{more}]")
    if "chosen" in facts:
        bits.append(f"selected=[{', '.join(grammar.entry(o) for o in facts['chosen'])}]")
    if "scroll" in facts:
        scroll = facts["scroll"]
        if scroll.get("y_percent") is not None:
            bits.append(f"scroll {scroll['y_percent']}%")
        elif scroll.get("x_percent") is not None:
            bits.append(f"scroll {scroll['x_percent']}% across")
        if scroll.get("more_below"):
            bits.append("more below")
        if scroll.get("more_above"):
            bits.append("more above")
        if scroll.get("more_right"):
            bits.append("more right")
        if scroll.get("more_left"):
            bits.append("more left")
    if facts.get("name_from"):
        bits.append("name from nearby text")
    if facts.get("on_hover"):
        bits.append("shows on hover")
    if "covered" in facts:
        bits.append(f"covered by {_cover(facts['covered']['by'])}")
    return bits


# What covers a control, as views/outline.py names it: 'dialog "Name" [7]' (the name is the page's,
# written raw there: re-quoted here), a role, or the covering element's tag#id.class.
_NAMED_COVER = re.compile(r'([^" ]+) "(.*)"((?: \[\d+\])?)', re.S)


def _cover(by: str) -> str:
    named = _NAMED_COVER.fullmatch(by)
    if named is not None:
        return f"{named.group(1)} {quoting.quote(named.group(2))}{named.group(3)}"
    return grammar.entry(by)


def _inline(item: Item, snap: DomSnapshot, style: Style = PLAIN) -> str | None:
    """A row, list item or heading whose content fits on one line, else None. (units.is_atomic decides
    the same from the kinds of the children alone: keep the two in step.)"""
    parts: list[str] = []
    row = item.kind == "row"
    children = item.children
    for i, child in enumerate(children):
        kind = child.kind
        if kind == "text":
            # page text: quoted where it would read as a line's or a control's syntax
            parts.append(
                grammar.text_line(child.text) if row and not i else grammar.text_part(child.text, row)
            )
        elif kind == "control" and not child.children and child.node is not None:
            node = child.node
            # cells are separated by " | "; in a list item, a name that text follows needs quotes
            quote = not row and i + 1 < len(children) and children[i + 1].kind != "control"
            line = control_line(snap.id_of[node.ref], control_facts(node, snap), quote)
            parts.append(line + style.box(node) if style.boxes else line)
        elif kind == "image":
            quote = not row and i + 1 < len(children) and children[i + 1].kind != "control"
            parts.append(f"img {_name(child.text, quote)}")
        elif kind == "item" and row:
            # cells are list-less; a row's children are usually plain text and controls
            inner = _inline(child, snap, style)
            if inner is None:
                return None
            parts.append(inner)
        else:
            return None
    return (" | " if row else " ").join(parts)


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


class _Zones:
    """Where the lines are, said once where it changes: a ``-- below the viewport --`` line before
    the first line outside the viewport, ``-- in view --`` before the next one back in it. A line's
    place is its node's (``snap.placements``: computed for every element at capture, so this costs
    one lookup per line); a line without a box of its own (frames, notes, text in a box larger than
    the viewport) is taken to be where the line before it is."""

    __slots__ = ("direction", "height", "placements", "scroller", "shown", "snap", "width")

    def __init__(self, snap: DomSnapshot) -> None:
        self.snap = snap
        self.placements = snap.placements
        self.direction: str | None = None  # where the current lines are: None = in view
        self.scroller: Node | None = None  # ... and in which scroll container
        self.shown = marker(None)
        self.width, self.height = snap.viewport

    def enter(self, node: Node, control: bool, pad: str, out: list[str]) -> None:
        box = node.box
        if box is None or not node.visible:
            return
        placement = self.placements.get(node.index)
        if placement is None:
            if self.direction is None or (not control and (box.h > self.height or box.w > self.width)):
                return  # in view already, or a big container that says nothing about its text
            direction, scroller = None, None
        else:
            direction, scroller = placement.offscreen or "below", placement.scroller
            if direction == self.direction and scroller is self.scroller:
                return
        self.direction, self.scroller = direction, scroller
        scroller_id = self.snap.id_of.get(scroller.ref) if scroller is not None else None
        line = marker(None if direction is None else (direction, scroller_id))
        if line != self.shown:  # (two scroll containers without IDs read the same)
            self.shown = line
            out.append(pad + line)


def marker(zone: tuple[str, int | None] | None) -> str:
    if zone is None:
        return "-- in view --"
    direction, scroller = zone
    if scroller is not None:
        return f"-- {direction} in scroll container {scroller} --"
    return (
        f"-- {direction} the viewport --"
        if direction in ("above", "below")
        else f"-- {direction} of the viewport --"
    )


def item_lines(item: Item, snap: DomSnapshot, style: Style = PLAIN) -> list[str]:
    """The line(s) an item renders as on its own, without its children (cost estimates)."""
    out: list[str] = []
    _render([Item(item.kind, item.node, item.text, item.children if item.kind in ("row", "item", "heading") else [])],
            snap, 0, out, style, None)  # fmt: skip
    return out


def inline_line(item: Item, snap: DomSnapshot) -> str | None:
    return _inline(item, snap)


def _render(
    items: list[Item], snap: DomSnapshot, depth: int, out: list[str], style: Style, zones: _Zones | None
) -> None:
    pad = INDENT * depth
    for item in items:
        node = item.node
        kind = item.kind
        if zones is not None and node is not None:
            zones.enter(node.parent or node if kind == "frame" else node, kind == "control", pad, out)
        if kind == "text":
            # page text, quoted where it would read as browserx's (a note of browserx's has no node)
            out.append(pad + (item.text if node is None else grammar.text_line(item.text)))
        elif kind == "heading":
            level = (node.attrs.get("aria-level") if node else None) or (
                node.tag[1:] if node and node.tag[1:].isdigit() else "2"
            )
            hashes = "#" * min(6, int(level) if str(level).isdigit() else 2)
            line = _inline(item, snap, style) if item.children else None
            if line is not None:
                out.append(_mark(item, snap, style) + f"{pad}{hashes} {line}")
            else:
                out.append(f"{pad}{hashes} {grammar.text_part(item.text)}")
                _render(item.children, snap, depth + 1, out, style, zones)
        elif kind == "image":
            out.append(f"{pad}img {_name(item.text, False)}")
        elif kind == "control" and node is not None:
            own = control_line(snap.id_of[node.ref], control_facts(node, snap)) + style.box(node)
            out.append(_mark(item, snap, style) + pad + own)
            _render(item.children, snap, depth + 1, out, style, zones)
        elif kind in ("row", "item"):
            line = _inline(item, snap, style)
            if line is not None:
                if line:
                    # a row's cells are told by " | "; a list item holding one control is that control
                    one = len(item.children) == 1 and item.children[0].kind == "control"
                    bullet = "" if kind == "row" or one else "- "
                    out.append(_mark(item, snap, style) + pad + bullet + line)
            else:
                out.append(pad + ("row:" if kind == "row" else "-"))
                _render(item.children, snap, depth + 1, out, style, zones)
        elif kind == "frame" and node is not None:
            title = node.attrs.get("title") or node.attrs.get("url")
            out.append(f"{pad}iframe {_name(title, False)}" if title else f"{pad}iframe")
            _render(item.children, snap, depth + 1, out, style, zones)
        elif node is not None:
            label = node.role or node.tag
            out.append(f"{pad}{label} {_name(node.name, False)}" if node.name else pad + label)
            _render(item.children, snap, depth + 1, out, style, zones)


def header_lines(snap: DomSnapshot) -> list[str]:
    """The page: title and URL; viewport, scroll position and page size (with how far down and
    whether more lies below, from views/scroll.py); interactive elements and how many are outside
    the viewport."""
    (vw, vh), (sx, sy), (dw, dh) = snap.viewport, snap.scroll, snap.document_size
    if dw <= vw + 1 and dh <= vh + 1 and not sx and not sy:
        where = f"viewport {vw:.0f}x{vh:.0f}, page fits in it"
    else:
        state = page_scroll(snap)
        depth = f" ({state.words()})" if state.percent is not None else ""
        where = f"viewport {vw:.0f}x{vh:.0f}, scrolled {sx:.0f},{sy:.0f} of {dw:.0f}x{dh:.0f}{depth}"
    outside = sum(1 for i in snap.by_id.values() if i.index in snap.placements)
    return [
        f"# {grammar.title(snap.title)} — {grammar.url(snap.url)}",
        f"{where}; {snap.stats.interactive} interactive"
        + (f", {outside} outside the viewport" if outside else ""),
    ]


def render_items(items: list[Item], snap: DomSnapshot, style: Style = PLAIN) -> list[str]:
    out: list[str] = []
    _render(items, snap, 0, out, style, _Zones(snap))
    return out


def render_text(snap: DomSnapshot, style: Style = PLAIN) -> str:
    """The whole page, unlimited (the served view adds budgets and options: views/build.py)."""
    return (
        "\n".join(header_lines(snap) + scroll_lines(snap) + render_items(outline(snap), snap, style)) + "\n"
    )


# -- reading it back (tests, the benchmark, clients) ------------------------------------------


def parse_controls(text: str) -> dict[int, tuple[str, str]]:
    """ID → (role, name) of every control in a text view (the grammar of views/grammar.py: what
    page text could never forge)."""
    return grammar.controls(text)
