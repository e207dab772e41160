"""The ``json`` view: the flattened tree (docs/DESIGN.md, "Views") —
``{"page": {"context": {...}, "body": {...}}}`` with only non-default fields; iframe and shadow
content sit under their host element."""

from __future__ import annotations

from typing import Any

from browserx.snapshot.snapshot import DomSnapshot
from browserx.views.outline import Item, control_facts, outline


def _item(item: Item, snap: DomSnapshot, boxes: bool) -> dict[str, Any]:
    node = item.node
    out: dict[str, Any]
    if item.kind == "text":
        return {"text": item.text}
    if item.kind == "control" and node is not None:
        out = {"id": snap.id_of[node.ref], **control_facts(node, snap)}
        if boxes and node.box is not None:
            b = node.box
            out["box"] = [round(b.x), round(b.y), round(b.w), round(b.h)]
    elif item.kind == "frame" and node is not None:
        out = {"role": "iframe", "url": node.attrs.get("url", ""), "title": node.attrs.get("title", "")}
    elif node is not None:
        out = {"role": node.role or node.tag, "tag": node.tag}
        if node.name or item.text:
            out["name"] = item.text or node.name
    else:
        out = {}
    if item.children:
        out["children"] = [_item(c, snap, boxes) for c in item.children]
    return out


def render_json(
    snap: DomSnapshot,
    items: list[Item] | None = None,
    *,
    boxes: bool = False,
    context: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The page (all of it unless ``items`` is a pruned outline), with extra ``context`` fields."""
    body = outline(snap) if items is None else items
    return {
        "page": {
            "context": {**snap.context(), "stats": snap.stats.to_dict(), **(context or {})},
            "body": {"role": "document", "children": [_item(i, snap, boxes) for i in body]},
        }
    }
