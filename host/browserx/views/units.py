"""The outline cut into units: the smallest pieces a view keeps or drops whole (a line of text, a
heading, a control, a table row or list item that fits on one line, a container's own line).
Budgets, viewport_only, max_elements, max_depth, filters, deltas and queries all choose units;
``prune`` then rebuilds the outline from the chosen ones, so structure is never cut mid-way."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from operator import itemgetter

from browserx.snapshot.snapshot import DomSnapshot
from browserx.views.outline import Item
from browserx.views.text import INDENT, item_lines
from browserx.views.viewport import ViewportIndex, Where

ROLE_LABELS = {
    "link": "link", "button": "button", "textbox": "text field", "searchbox": "text field",
    "combobox": "combobox", "checkbox": "checkbox", "radio": "radio button", "switch": "switch",
    "slider": "slider", "spinbutton": "number field", "tab": "tab", "menuitem": "menu item",
    "option": "option", "listbox": "listbox", "treeitem": "tree item",
}  # fmt: skip
KIND_LABELS = {
    "text": "text line",
    "heading": "heading",
    "image": "image",
    "row": "table row",
    "item": "list item",
}


class Unit:
    """One unit of the outline. Its line(s) are rendered on first use: a budgeted view of a huge
    page only ever looks at the units it keeps (and counts the rest by label)."""

    __slots__ = ("_snap", "_text", "container", "ids", "item", "label", "order", "parents", "where")

    def __init__(
        self,
        item: Item,
        parents: tuple[Item, ...],  # containers around it, outermost first
        order: int,  # document order
        where: Where,
        ids: tuple[int, ...],  # element IDs shown on its line
        label: str,  # what it is, for summaries ("link", "table row", …)
        container: bool,  # it has children of its own (its line is their header)
        snap: DomSnapshot,
    ) -> None:
        self.item, self.parents, self.order, self.where = item, parents, order, where
        self.ids, self.label, self.container = ids, label, container
        self._snap = snap
        self._text: str | None = None

    @property
    def text(self) -> str:
        """Its own line(s) in the text view."""
        if self._text is None:
            self._text = "\n".join(item_lines(self.item, self._snap))
        return self._text

    @property
    def chars(self) -> int:
        """Size of its own line(s), indentation included."""
        return len(self.text) + 1 + len(INDENT) * len(self.parents)

    @property
    def depth(self) -> int:
        return len(self.parents)


def is_atomic(item: Item, snap: DomSnapshot) -> bool:
    """Rendered as one line with no children of its own."""
    if item.kind in ("text", "image"):
        return True
    if item.kind == "heading":
        return not item.children or _inlinable(item)
    if item.kind == "control":
        return not item.children
    if item.kind in ("row", "item"):
        return _inlinable(item)
    return False


def _inlinable(item: Item) -> bool:
    """Whether ``text.inline_line`` renders the row or list item on one line: decided by the kinds
    of its children alone, so nothing is rendered to find out."""
    for child in item.children:
        kind = child.kind
        if kind == "text" or kind == "image":
            continue
        if kind == "control" and not child.children and child.node is not None:
            continue
        if kind == "item" and item.kind == "row" and _inlinable(child):
            continue
        return False
    return True


def label_of(item: Item) -> str:
    if item.kind == "item" and len(item.children) == 1:
        only = item.children[0]
        if only.kind == "control" and only.node is not None and only.node.role in ROLE_LABELS:
            item = only  # a list item holding one link is, to the reader, a link
    if item.kind == "control" and item.node is not None:
        return ROLE_LABELS.get(item.node.role or "", "element")
    return KIND_LABELS.get(item.kind, "element")


def units_of(items: list[Item], snap: DomSnapshot) -> list[Unit]:
    """The units in document order (a container's own unit before its content's)."""
    index = ViewportIndex(snap)
    out: list[Unit] = []
    stack: list[tuple[Iterator[Item], tuple[Item, ...]]] = [(iter(items), ())]
    while stack:
        level, parents = stack[-1]
        item = next(level, None)
        if item is None:
            stack.pop()
            continue
        atomic = is_atomic(item, snap)
        if atomic or item.kind == "control":
            out.append(Unit(item, parents, len(out), index.where(item.node), _ids_of(item, snap), label_of(item),
                            not atomic, snap))  # fmt: skip
        if not atomic:
            stack.append((iter(item.children), (*parents, item)))
    return out


def _ids_of(item: Item, snap: DomSnapshot) -> tuple[int, ...]:
    if item.kind == "control" and item.node is not None:
        return (snap.id_of[item.node.ref],)
    if item.kind in ("row", "item", "heading"):
        return tuple(
            snap.id_of[c.node.ref] for c in _flat(item.children) if c.kind == "control" and c.node is not None
        )
    return ()


def _flat(items: list[Item]) -> list[Item]:
    out: list[Item] = []
    for item in items:
        out.append(item)
        out.extend(_flat(item.children))
    return out


def prune(items: list[Item], keep: set[int], by_item: dict[int, Unit], notes: bool = True) -> list[Item]:
    """The outline with only the kept units (by ``id(item)``) and the containers around them.
    A kept container that lost some of its content says so in a note line."""
    return _rebuild(items, keep, by_item, notes)[0]


def _rebuild(
    level: list[Item], keep: set[int], by_item: dict[int, Unit], notes: bool
) -> tuple[list[Item], dict[str, int]]:
    out: list[Item] = []
    dropped: dict[str, int] = {}  # label → count (a Counter per container was a tenth of a 50k view)
    for item in level:
        unit = by_item.get(id(item))
        if unit is not None and not unit.container:
            if id(item) in keep:
                out.append(item)
            else:
                dropped[unit.label] = dropped.get(unit.label, 0) + 1
            continue
        children, inner = _rebuild(item.children, keep, by_item, notes)
        if children or id(item) in keep:
            if inner and notes:
                children.append(Item("text", text=f"… not shown here: {describe(inner)}"))
            out.append(Item(item.kind, item.node, item.text, children))
        else:
            for label, n in inner.items():
                dropped[label] = dropped.get(label, 0) + n
            if unit is not None:
                dropped[unit.label] = dropped.get(unit.label, 0) + 1
    return out, dropped


def describe(counts: Mapping[str, int], limit: int = 4) -> str:
    """'140 links, 30 buttons and 12 table rows' (most first; ties in first-seen order)."""
    top = sorted(counts.items(), key=itemgetter(1), reverse=True)[:limit]
    parts = [f"{n} {label}{'' if n == 1 else 's'}" for label, n in top]
    rest = sum(counts.values()) - sum(n for _, n in top)
    if rest:
        parts.append(f"{rest} other")
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1] if parts else "nothing"
