"""Where a control sits, as a person would say it: "the Confirm button in the form Newsletter,
under the heading Settings, after the text Alice, the second of its kind there".

Two elements with the same role and name are the same control only when this context is equal
too (the ID allocator's re-use of an old ID, actions/matching.py's heal): a lookalike in another
dialog, form, landmark or row is another control. Computed once per snapshot for the nodes that get
IDs, in one pass over the tree; the chains are interned (one tuple per container, shared by every
control in it), so tens of thousands of IDs cost little.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from browserx.snapshot.model import Node

# Ancestors that tell two same-named controls apart: dialogs, forms, landmarks and the groups a
# page repeats per item (rows, list items, articles, fieldsets, tab panels).
CONTEXT_ROLES = frozenset(
    {"dialog", "alertdialog", "form", "search", "navigation", "main", "banner", "contentinfo",
     "complementary", "region", "group", "tabpanel", "article", "listitem", "row", "table", "grid",
     "menu", "toolbar"}
)  # fmt: skip
# Repeated items, often unnamed: their leading text stands in for a name ("Alice … Delete").
ITEM_ROLES = frozenset({"listitem", "row", "article", "treeitem"})
NEAR_TEXT = 60  # characters of the preceding text kept (enough to tell rows apart)

Chain = tuple[tuple[str, str], ...]  # (role, name) of each context ancestor, outermost first


class ControlContext(NamedTuple):
    chain: Chain
    heading: str  # name of the nearest preceding heading inside the innermost container
    near: str  # the nearest preceding text inside the innermost container (a row's label)
    rank: int  # index among the same role + name controls of the same chain, in document order


def _container_of(node: Node, memo: dict[int, tuple[Node | None, Chain]]) -> tuple[Node | None, Chain]:
    """The innermost context ancestor of ``node`` and the chain down to it (memoised per ancestor:
    each container is walked once however many controls it holds)."""
    path: list[Node] = []
    p = node.parent
    found: tuple[Node | None, Chain] = (None, ())
    while p is not None:
        known = memo.get(id(p))
        if known is not None:
            found = known
            break
        path.append(p)
        p = p.parent
    # Down from the outermost unknown ancestor, extending the chain at each container.
    for q in reversed(path):
        role = q.role
        if role in CONTEXT_ROLES:
            name = " ".join(q.name.split())
            if not name and role in ITEM_ROLES:
                name = _leading_text(q)  # unnamed rows are told apart by what they say
            found = (q, (*found[1], (role or "", name)))
        memo[id(q)] = found
    return found


def _leading_text(node: Node, limit: int = NEAR_TEXT) -> str:
    """The first ``limit`` characters of the visible text in ``node``'s subtree (stops early)."""
    parts: list[str] = []
    size = 0
    stack = [node]
    while stack and size < limit:
        n = stack.pop()
        if n.tag == "#text":
            if n.text and n.visible:
                parts.append(n.text)
                size += len(n.text) + 1
        elif n.children:
            stack.extend(reversed(n.children))
    return " ".join(parts)[:limit]


def control_contexts(nodes: Sequence[Node], controls: Sequence[Node]) -> dict[int, ControlContext]:
    """``ControlContext`` of each of ``controls`` (nodes of ``nodes``, the whole tree in document
    order), by node index."""
    wanted = {n.index for n in controls}
    memo: dict[int, tuple[Node | None, Chain]] = {}
    interned: dict[ControlContext, ControlContext] = {}
    ranks: dict[tuple[str, str | None, str, Chain], int] = {}
    out: dict[int, ControlContext] = {}
    heading_at, heading = -1, ""
    text_at, text = -1, ""
    for node in nodes:
        index = node.index
        if index in wanted:
            container, chain = _container_of(node, memo)
            start = container.index if container is not None else -1
            key = (node.ref.frame, node.role, node.name, chain)
            rank = ranks.get(key, 0)
            ranks[key] = rank + 1
            ctx = ControlContext(
                chain, heading if heading_at > start else "", text if text_at > start else "", rank
            )
            out[index] = interned.setdefault(ctx, ctx)
        if node.tag == "#text":
            if node.text and node.visible:
                text_at, text = index, node.text[:NEAR_TEXT]
        elif node.role == "heading":
            heading_at, heading = index, " ".join(node.name.split())
    return out


def describe(ctx: ControlContext | None) -> str:
    """' in dialog "Delete account" › form "Danger"' (empty when the control is in no container)."""
    if ctx is None or not ctx.chain:
        where = ""
    else:
        where = " in " + " › ".join(f'{role} "{name}"' if name else role for role, name in ctx.chain)
    if ctx is not None and ctx.heading:
        where += f' under heading "{ctx.heading}"'
    if ctx is not None and ctx.near:
        where += f' after "{ctx.near}"'
    return where
