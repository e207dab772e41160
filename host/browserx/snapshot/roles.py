"""Role mapping for captured nodes, after HTML-AAM and what Chrome reports as ``role`` in
``Accessibility.getFullAXTree``: ARIA role names in lowercase, Chrome's internal roles in
CamelCase ("StaticText", "LabelText", "DisclosureTriangle", "ColorWell", "Date", ...).

``role_of`` returns ``"generic"`` for elements without a more specific role (div, span, an
``<a>`` without href, a scoped header, ...) and ``None`` for nodes that are not exposed at all
(presentational elements, ``input type=hidden``, non-rendered tags, SVG internals, shadow roots).
The tables it reads are in role_tables.py, the HTML facts (input type, focusability, editing
hosts) in elements.py; the states of a node with a role are in states.py.

Pure functions of a ``Node`` and its ancestors: no I/O, no CDP.
"""

from __future__ import annotations

from collections.abc import Callable

from .elements import (
    element_parent,
    input_type,
    is_editing_host,
    is_focusable,
    iter_ancestors,
    parse_int,
    trimmed_attr,
)
from .model import Node
from .role_tables import (
    ARIA_ROLES,
    ASIDE_SCOPING_ROLES,
    ASIDE_SCOPING_TAGS,
    COMBOBOX_INPUT_TYPES,
    GENERIC_HTML_TAGS,
    GLOBAL_ARIA_ATTRS,
    HEADING_TAGS,
    INPUT_ROLE_BY_TYPE,
    LIST_TAGS,
    PRESENTATIONAL_ROLES,
    ROLE_SYNONYMS,
    SECTIONING_ROLES,
    SECTIONING_TAGS,
    TABLE_PART_ROLES,
    TABLE_PART_TAGS,
    UNEXPOSED_TAGS,
)

RoleRule = Callable[[Node], str | None]


# ---------------------------------------------------------------------------- explicit roles


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
    return bool(
        trimmed_attr(node, "aria-labelledby") or trimmed_attr(node, "aria-label") or "title" in node.attrs
    )


def _has_global_aria(node: Node) -> bool:
    return any(name in GLOBAL_ARIA_ATTRS for name in node.attrs)


def _is_presentational(node: Node) -> bool:
    """An element whose explicit none/presentation role is honoured."""
    return explicit_role(node) in PRESENTATIONAL_ROLES and not _presentation_conflict(node)


def _presentation_conflict(node: Node) -> bool:
    """ARIA conflict resolution: focusable elements or ones with global ARIA attributes keep
    their implicit role despite role=none/presentation."""
    return is_focusable(node) or _has_global_aria(node)


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
    if kind in COMBOBOX_INPUT_TYPES and "list" in node.attrs and not node.state.get("noDatalist"):
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


def _inside(node: Node, tags: frozenset[str], roles: frozenset[str]) -> bool:
    return any(a.tag in tags or explicit_role(a) in roles for a in iter_ancestors(node))


def _header(node: Node) -> str | None:
    return "generic" if _inside(node, SECTIONING_TAGS, SECTIONING_ROLES) else "banner"


def _footer(node: Node) -> str | None:
    return "generic" if _inside(node, SECTIONING_TAGS, SECTIONING_ROLES) else "contentinfo"


def _aside(node: Node) -> str | None:
    if _inside(node, ASIDE_SCOPING_TAGS, ASIDE_SCOPING_ROLES) and not has_author_name(node):
        return "generic"
    return "complementary"


def _section(node: Node) -> str | None:
    return "region" if has_author_name(node) else "generic"


def _summary(node: Node) -> str | None:
    parent = element_parent(node)
    return "DisclosureTriangle" if parent is not None and parent.tag == "details" else "generic"


def _nearest(node: Node, tag: str) -> Node | None:
    return next((a for a in iter_ancestors(node) if a.tag == tag), None)


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


class _TablePart:
    """A table part's rule: its role inside a table, generic outside one."""

    __slots__ = ("role",)

    def __init__(self, role: str) -> None:
        self.role = role

    def __call__(self, node: Node) -> str | None:
        return self.role if _table_of(node) is not None else "generic"


def _table_part(role: str) -> RoleRule:
    return _TablePart(role)


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
    scope = trimmed_attr(node, "scope").lower()
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
    parent = element_parent(node)
    if parent is not None and parent.tag in LIST_TAGS and _is_presentational(parent):
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


def implicit_role(node: Node) -> str | None:
    """The role from the element's tag and attributes alone (role attribute ignored)."""
    tag = node.tag
    if tag in UNEXPOSED_TAGS:
        return None
    role: str | None
    if tag in TABLE_PART_TAGS:
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
            return TABLE_PART_ROLES[tag]
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
        internal = node.state.get("axRole") if node.state else None
        if internal is not None:  # a custom element's ElementInternals role (page/internals.py)
            return None if internal == "none" else str(internal)
        return implicit_role(node)
    role = explicit_role(node)
    if role is not None and role not in PRESENTATIONAL_ROLES:
        return role
    if role is not None and not _presentation_conflict(node):
        return None
    return implicit_role(node)
