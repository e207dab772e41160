"""Role mapping for captured nodes, after HTML-AAM and what Chrome reports as ``role`` in
``Accessibility.getFullAXTree``: ARIA role names in lowercase, Chrome's internal roles in
CamelCase ("StaticText", "LabelText", "DisclosureTriangle", "ColorWell", "Date", ...).

``role_of`` returns ``"generic"`` for elements without a more specific role (div, span, an
``<a>`` without href, a scoped header, ...) and ``None`` for nodes that are not exposed at all
(presentational elements, ``input type=hidden``, non-rendered tags, SVG internals, shadow roots).

Pure functions of a ``Node`` and its ancestors: no I/O, no CDP.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from .model import Node

RoleRule = Callable[[Node], str | None]


def word_set(text: str) -> frozenset[str]:
    """A frozenset from a whitespace-separated word list (keeps the role tables compact)."""
    return frozenset(text.split())


# ARIA 1.2 concrete roles (+ ARIA 1.3 additions, graphics and DPUB roles Chrome knows).
ARIA_ROLES: frozenset[str] = word_set(
    """
    alert alertdialog application article banner blockquote button caption cell checkbox code
    columnheader combobox comment complementary contentinfo definition deletion dialog document
    emphasis feed figure form generic grid gridcell group heading img insertion link list
    listbox listitem log main mark marquee math menu menubar menuitem menuitemcheckbox
    menuitemradio meter navigation none note option paragraph presentation progressbar radio
    radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider
    spinbutton status strong subscript suggestion superscript switch tab table tablist tabpanel
    term textbox time timer toolbar tooltip tree treegrid treeitem graphics-document
    graphics-object graphics-symbol doc-abstract doc-acknowledgments doc-afterword doc-appendix
    doc-backlink doc-biblioentry doc-bibliography doc-biblioref doc-chapter doc-colophon
    doc-conclusion doc-cover doc-credit doc-credits doc-dedication doc-endnote doc-endnotes
    doc-epigraph doc-epilogue doc-errata doc-example doc-footnote doc-foreword doc-glossary
    doc-glossref doc-index doc-introduction doc-noteref doc-notice doc-pagebreak doc-pagefooter
    doc-pageheader doc-pagelist doc-part doc-preface doc-prologue doc-pullquote doc-qna
    doc-subtitle doc-tip doc-toc
    """
)

# Role tokens Chrome accepts under another name.
ROLE_SYNONYMS: dict[str, str] = {"image": "img", "directory": "list"}

PRESENTATIONAL_ROLES: frozenset[str] = frozenset({"presentation", "none"})

# Global ARIA attributes: their presence overrides role=presentation/none (ARIA conflict rules).
GLOBAL_ARIA_ATTRS: frozenset[str] = word_set(
    """
    aria-atomic aria-braillelabel aria-brailleroledescription aria-busy aria-controls
    aria-current aria-describedby aria-description aria-details aria-dropeffect aria-flowto
    aria-grabbed aria-keyshortcuts aria-label aria-labelledby aria-live aria-owns aria-relevant
    aria-roledescription
    """
)

# Roles an agent acts on directly.
INTERACTIVE_ROLES: frozenset[str] = word_set(
    """
    button link textbox searchbox combobox listbox option checkbox radio switch slider
    spinbutton scrollbar menuitem menuitemcheckbox menuitemradio tab treeitem DisclosureTriangle
    ColorWell Date DateTime InputTime
    """
)

INPUT_ROLE_BY_TYPE: dict[str, str | None] = {
    "text": "textbox",
    "email": "textbox",
    "tel": "textbox",
    "url": "textbox",
    "password": "textbox",
    "search": "searchbox",
    "number": "spinbutton",
    "range": "slider",
    "checkbox": "checkbox",
    "radio": "radio",
    "button": "button",
    "submit": "button",
    "reset": "button",
    "image": "button",
    "file": "button",
    "color": "ColorWell",
    "date": "Date",
    "datetime-local": "DateTime",
    "month": "DateTime",
    "week": "DateTime",
    "time": "InputTime",
    "hidden": None,
}

# Input types whose `list` attribute turns them into a combobox (a text field with suggestions).
COMBOBOX_INPUT_TYPES: frozenset[str] = frozenset({"text", "search", "email", "tel", "url"})

FORM_CONTROL_TAGS: frozenset[str] = frozenset(
    {"button", "input", "select", "textarea", "optgroup", "option", "fieldset"}
)

# Tags that are never rendered / exposed.
UNEXPOSED_TAGS: frozenset[str] = frozenset(
    {"head", "script", "style", "template", "meta", "link", "base", "title", "noscript", "param"}
)

HEADING_TAGS: dict[str, int] = {f"h{level}": level for level in range(1, 7)}

# header/footer are banner/contentinfo only outside these (HTML-AAM; Chrome's ancestor check).
_SECTIONING_TAGS = frozenset({"article", "aside", "main", "nav", "section"})
_SECTIONING_ROLES = frozenset({"article", "complementary", "main", "navigation"})
# ...and aside is complementary only outside these unless it has an author name.
_ASIDE_SCOPING_TAGS = frozenset({"article", "aside", "nav", "section"})
_ASIDE_SCOPING_ROLES = frozenset({"article", "complementary", "navigation"})

_TABLE_PART_TAGS = frozenset({"tr", "td", "th", "thead", "tbody", "tfoot", "caption"})
_TABLE_PART_ROLES = {
    "tr": "row",
    "thead": "rowgroup",
    "tbody": "rowgroup",
    "tfoot": "rowgroup",
    "caption": "caption",
}
_LIST_TAGS = frozenset({"ul", "ol", "menu"})
_INTEGER = re.compile(r"\s*([+-]?\d+)")


# ---------------------------------------------------------------------------- small helpers


def _attr(node: Node, name: str) -> str:
    return (node.attrs.get(name) or "").strip()


def _element_parent(node: Node) -> Node | None:
    """The parent element, stepping from a shadow root to its host."""
    parent = node.parent
    while parent is not None and not parent.is_element:
        if parent.tag != "#shadow-root":
            return None  # a #document: the frame boundary
        parent = parent.parent
    return parent


def _ancestors(node: Node) -> list[Node]:
    out: list[Node] = []
    parent = _element_parent(node)
    while parent is not None:
        out.append(parent)
        parent = _element_parent(parent)
    return out


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


def explicit_role(node: Node) -> str | None:
    """First recognised token of the role attribute (synonyms resolved), or None."""
    value = node.attrs.get("role")
    if not value:
        return None
    for token in value.lower().split():
        token = ROLE_SYNONYMS.get(token, token)
        if token in ARIA_ROLES:
            return token
    return None


def has_author_name(node: Node) -> bool:
    """Chrome's IsNameFromAuthorAttribute: aria-labelledby, non-blank aria-label, or title."""
    return bool(_attr(node, "aria-labelledby") or _attr(node, "aria-label") or "title" in node.attrs)


def _has_global_aria(node: Node) -> bool:
    return any(name in GLOBAL_ARIA_ATTRS for name in node.attrs)


def _is_presentational(node: Node) -> bool:
    """An element whose explicit none/presentation role is honoured."""
    return explicit_role(node) in PRESENTATIONAL_ROLES and not _presentation_conflict(node)


def _presentation_conflict(node: Node) -> bool:
    """ARIA conflict resolution: focusable elements or ones with global ARIA attributes keep
    their implicit role despite role=none/presentation."""
    return is_focusable(node) or _has_global_aria(node)


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
    parent = _element_parent(node)
    return parent is None or not _editable(parent)


def is_disabled(node: Node) -> bool:
    """Natively disabled (``:disabled``, including fieldset inheritance when capture says so)."""
    disabled = node.state.get("disabled")
    if disabled is not None:
        return bool(disabled)
    return node.tag in FORM_CONTROL_TAGS and "disabled" in node.attrs


def _inert(node: Node) -> bool:
    return "inert" in node.attrs or any("inert" in a.attrs for a in _iter_ancestors(node))


# ---------------------------------------------------------------------------- focus


def tabindex(node: Node) -> int | None:
    return parse_int(node.attrs.get("tabindex"))


def _natively_focusable(node: Node) -> bool:
    tag = node.tag
    if tag in ("a", "area"):
        return "href" in node.attrs
    if tag == "input":
        return input_type(node) != "hidden"
    if tag in ("button", "select", "textarea", "iframe", "frame"):
        return True
    if tag == "summary":
        parent = _element_parent(node)
        return parent is not None and parent.tag == "details"
    if tag in ("audio", "video"):
        return "controls" in node.attrs
    return is_editing_host(node)


def is_focusable(node: Node) -> bool:
    """Focusable by script or click (tabindex="-1" counts; tabbable is a narrower question).
    Rendering is not considered: callers pair this with ``node.visible``."""
    if not node.is_element or is_disabled(node) or _inert(node):
        return False
    return tabindex(node) is not None or _natively_focusable(node)


# ---------------------------------------------------------------------------- implicit roles


class _Const:
    """A rule whose role does not depend on the node (most tags): the hot path reads ``role``."""

    __slots__ = ("role",)

    def __init__(self, role: str) -> None:
        self.role = role

    def __call__(self, node: Node) -> str | None:
        return self.role


def _const(role: str) -> RoleRule:
    return _Const(role)


def _anchor(node: Node) -> str | None:
    # Chrome: a link when it has an href or a click-like listener.
    return "link" if "href" in node.attrs or node.listeners else "generic"


def _area(node: Node) -> str | None:
    return "link" if "href" in node.attrs else "generic"


def _input(node: Node) -> str | None:
    kind = input_type(node)
    if kind in COMBOBOX_INPUT_TYPES and "list" in node.attrs:
        return "combobox"
    return INPUT_ROLE_BY_TYPE[kind]


def _select(node: Node) -> str | None:
    size = parse_int(node.attrs.get("size"))
    if "multiple" in node.attrs or (size is not None and size > 1):
        return "listbox"
    return "combobox"


def _img(node: Node) -> str | None:
    alt = node.attrs.get("alt")
    if alt is not None and not alt.strip() and not _presentation_conflict(node):
        return None  # alt="": decorative
    return "img"


def _svg(node: Node) -> str | None:
    if has_author_name(node) or any(c.tag == "title" for c in node.children):
        return "img"
    return None


def _iter_ancestors(node: Node) -> Iterator[Node]:
    parent = _element_parent(node)
    while parent is not None:
        yield parent
        parent = _element_parent(parent)


def _inside(node: Node, tags: frozenset[str], roles: frozenset[str]) -> bool:
    return any(a.tag in tags or explicit_role(a) in roles for a in _iter_ancestors(node))


def _header(node: Node) -> str | None:
    return "generic" if _inside(node, _SECTIONING_TAGS, _SECTIONING_ROLES) else "banner"


def _footer(node: Node) -> str | None:
    return "generic" if _inside(node, _SECTIONING_TAGS, _SECTIONING_ROLES) else "contentinfo"


def _aside(node: Node) -> str | None:
    if _inside(node, _ASIDE_SCOPING_TAGS, _ASIDE_SCOPING_ROLES) and not has_author_name(node):
        return "generic"
    return "complementary"


def _section(node: Node) -> str | None:
    return "region" if has_author_name(node) else "generic"


def _summary(node: Node) -> str | None:
    parent = _element_parent(node)
    return "DisclosureTriangle" if parent is not None and parent.tag == "details" else "generic"


def _nearest(node: Node, tag: str) -> Node | None:
    return next((a for a in _iter_ancestors(node) if a.tag == tag), None)


def _table_of(node: Node) -> Node | None:
    # Hot (every table part of every page): a plain loop over element ancestors.
    parent = node.parent
    while parent is not None:
        tag = parent.tag
        if tag == "table":
            return parent
        if tag[0] == "#" and tag != "#shadow-root":
            return None  # a #document: the frame boundary
        parent = parent.parent
    return None


def _table_part(role: str) -> RoleRule:
    def rule(node: Node) -> str | None:
        return role if _table_of(node) is not None else "generic"

    return rule


def _td(node: Node) -> str | None:
    table = _table_of(node)
    if table is None:
        return "generic"
    return "gridcell" if explicit_role(table) in ("grid", "treegrid") else "cell"


def _element_siblings(node: Node) -> tuple[Node | None, Node | None]:
    parent = node.parent
    if parent is None:
        return None, None
    cells = [c for c in parent.children if c.is_element]
    at = cells.index(node)
    before = cells[at - 1] if at > 0 else None
    after = cells[at + 1] if at + 1 < len(cells) else None
    return before, after


def _is_data_cell(node: Node | None) -> bool:
    return node is not None and node.tag == "td" and bool(node.children)


def _th(node: Node) -> str | None:
    if _table_of(node) is None:
        return "generic"
    scope = _attr(node, "scope").lower()
    if scope in ("row", "rowgroup"):
        return "rowheader"
    if scope in ("col", "colgroup"):
        return "columnheader"
    # Chrome's DecideRoleFromSiblings.
    before, after = _element_siblings(node)
    if before is None and after is None:
        return "columnheader"
    if before is not None and after is not None and before.tag == after.tag == "th":
        return "columnheader"
    if _is_data_cell(before) or _is_data_cell(after):
        return "rowheader"
    row = node.parent
    cells = [c for c in row.children if c.is_element] if row is not None and row.tag == "tr" else []
    if len(cells) >= 2 and any(_is_data_cell(c) for c in (cells[0], cells[-1], cells[1], cells[-2])):
        return "rowheader"
    return "columnheader"


def _li(node: Node) -> str | None:
    parent = _element_parent(node)
    if parent is not None and parent.tag in _LIST_TAGS and _is_presentational(parent):
        return None
    return "listitem"


IMPLICIT_ROLE_BY_TAG: dict[str, RoleRule] = {
    "a": _anchor,
    "abbr": _const("Abbr"),
    "address": _const("group"),
    "area": _area,
    "article": _const("article"),
    "aside": _aside,
    "audio": _const("Audio"),
    "blockquote": _const("blockquote"),
    "br": _const("LineBreak"),
    "button": _const("button"),
    "canvas": _const("Canvas"),
    "caption": _table_part("caption"),
    "code": _const("code"),
    "datalist": _const("listbox"),
    "dd": _const("definition"),
    "del": _const("deletion"),
    "details": _const("group"),
    "dfn": _const("term"),
    "dialog": _const("dialog"),
    "dl": _const("DescriptionList"),
    "dt": _const("term"),
    "em": _const("emphasis"),
    "fieldset": _const("group"),
    "figcaption": _const("Figcaption"),
    "figure": _const("figure"),
    "footer": _footer,
    "form": _const("form"),
    **{tag: _const("heading") for tag in HEADING_TAGS},
    "header": _header,
    "hgroup": _const("group"),
    "hr": _const("separator"),
    "iframe": _const("Iframe"),
    "frame": _const("Iframe"),
    "fencedframe": _const("Iframe"),
    "img": _img,
    "input": _input,
    "ins": _const("insertion"),
    "label": _const("LabelText"),
    "legend": _const("legend"),
    "li": _li,
    "main": _const("main"),
    "mark": _const("mark"),
    "math": _const("math"),
    "menu": _const("list"),
    "meter": _const("meter"),
    "nav": _const("navigation"),
    "ol": _const("list"),
    "optgroup": _const("group"),
    "option": _const("option"),
    "output": _const("status"),
    "p": _const("paragraph"),
    "progress": _const("progressbar"),
    "s": _const("deletion"),
    "search": _const("search"),
    "section": _section,
    "select": _select,
    "strong": _const("strong"),
    "sub": _const("subscript"),
    "summary": _summary,
    "sup": _const("superscript"),
    "svg": _svg,
    "table": _const("table"),
    "tbody": _table_part("rowgroup"),
    "td": _td,
    "textarea": _const("textbox"),
    "tfoot": _table_part("rowgroup"),
    "th": _th,
    "thead": _table_part("rowgroup"),
    "time": _const("time"),
    "tr": _table_part("row"),
    "ul": _const("list"),
    "video": _const("Video"),
}


GENERIC_HTML_TAGS: frozenset[str] = frozenset(
    [
        "div",
        "span",
        "b",
        "i",
        "u",
        "s",
        "em",
        "strong",
        "small",
        "mark",
        "abbr",
        "cite",
        "q",
        "sub",
        "sup",
        "code",
        "kbd",
        "samp",
        "var",
        "pre",
        "bdi",
        "bdo",
        "font",
        "center",
        "label",
        "legend",
        "caption",
        "figcaption",
        "dd",
        "dt",
        "dl",
        "address",
        "time",
        "data",
        "ruby",
        "rt",
        "rp",
        "wbr",
        "br",
    ]
)


def implicit_role(node: Node) -> str | None:
    """The role from the element's tag and attributes alone (role attribute ignored)."""
    tag = node.tag
    if tag in UNEXPOSED_TAGS:
        return None
    role: str | None
    if tag in _TABLE_PART_TAGS:
        # Table parts are the bulk of big pages: find the table once.
        table = _table_of(node)
        if table is None:
            role = "generic"  # a table part outside a table
        elif _is_presentational(table):
            return None  # required owned elements inherit presentation
        elif tag == "td":
            return "gridcell" if explicit_role(table) in ("grid", "treegrid") else "cell"
        elif tag == "th":
            return _th(node)
        else:
            return _TABLE_PART_ROLES[tag]
    else:
        rule = IMPLICIT_ROLE_BY_TAG.get(tag)
        if type(rule) is _Const:
            role = rule.role
        elif rule is None:
            # Plain HTML containers are the bulk of every page: skip the ancestor walk for them.
            if tag not in GENERIC_HTML_TAGS and "-" not in tag and _nearest(node, "svg") is not None:
                return None  # SVG internals (g, path, use, ...)
            role = "generic"
        else:
            role = rule(node)
    if role == "generic" and (node.state or "contenteditable" in node.attrs) and is_editing_host(node):
        return "textbox"
    return role


def role_of(node: Node) -> str | None:
    """The node's role as Chrome would report it; None when the node is not exposed."""
    tag = node.tag
    if tag[0] == "#":
        return "StaticText" if tag == "#text" else "RootWebArea" if tag == "#document" else None
    if "role" not in node.attrs:
        return implicit_role(node)
    role = explicit_role(node)
    if role is not None and role not in PRESENTATIONAL_ROLES:
        return role
    if role is not None and not _presentation_conflict(node):
        return None
    return implicit_role(node)


# ---------------------------------------------------------------------------- states


def heading_level(node: Node) -> int | None:
    """1-6 for headings (aria-level wins, then hN, else ARIA's default 2); None otherwise."""
    if role_of(node) != "heading":
        return None
    level = parse_int(node.attrs.get("aria-level"))
    if level is not None and level >= 1:
        return level
    return HEADING_TAGS.get(node.tag, 2)


_CHECKABLE_ROLES = frozenset({"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"})
_MIXED_ROLES = frozenset({"checkbox", "menuitemcheckbox", "option", "treeitem"})
_HASPOPUP_VALUES = frozenset({"menu", "listbox", "tree", "grid", "dialog"})
_CURRENT_VALUES = frozenset({"page", "step", "location", "date", "time", "true"})


def _true(node: Node, attr: str) -> bool:
    return _attr(node, attr).lower() == "true"


def _checked(node: Node, role: str | None) -> bool | str:
    """True, "mixed" or False."""
    value: object = node.state.get("checked")
    if value is None:
        if node.tag == "input" and input_type(node) in ("checkbox", "radio"):
            value = "checked" in node.attrs
        elif role in _CHECKABLE_ROLES or "aria-checked" in node.attrs:
            token = _attr(node, "aria-checked").lower()
            value = "mixed" if token == "mixed" else token not in ("", "false")
    if value == "mixed":
        return "mixed" if role in _MIXED_ROLES else False
    return value is True


def _expanded(node: Node, role: str | None) -> bool | None:
    token = _attr(node, "aria-expanded").lower()
    if token in ("true", "false"):
        return token == "true"
    if role == "DisclosureTriangle":
        parent = _element_parent(node)
        return parent is not None and "open" in parent.attrs
    return None


def _sort(node: Node) -> str | None:
    """aria-sort of a column or row header: ascending, descending or other (none is the default)."""
    value = _attr(node, "aria-sort").lower()
    return value if value in ("ascending", "descending", "other") else None


def _pressed(node: Node) -> bool | str | None:
    token = _attr(node, "aria-pressed").lower()
    if token == "mixed":
        return "mixed"
    if token in ("true", "false"):
        return token == "true"
    return None


def _invalid(node: Node) -> bool | str | None:
    token = _attr(node, "aria-invalid").lower()
    if token in ("", "false"):
        return None
    return token if token in ("grammar", "spelling") else True


def _haspopup(node: Node) -> str | None:
    token = _attr(node, "aria-haspopup").lower()
    if token == "true":
        return "menu"
    return token if token in _HASPOPUP_VALUES else None


def _current(node: Node) -> str | None:
    token = _attr(node, "aria-current").lower()
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
    if proxy is not None:  # a label standing in for a hidden native toggle (classify.py)
        return states_of(proxy)
    role = role_of(node)
    native_field = node.tag in ("input", "textarea", "select")
    candidates: dict[str, object] = {
        "disabled": is_disabled(node) or _true(node, "aria-disabled"),
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
