"""Where a control sits, as a person would say it: "the Confirm button in the form Newsletter,
under the heading Settings, after the text Alice, the second of its kind there".

Two elements with the same role and name are the same control only when this context is equal
too (the ID allocator's re-use of an old ID, actions/matching.py's heal): a lookalike in another
dialog, form, landmark or row is another control. Computed once per snapshot for the nodes that get
IDs, visiting the controls only (and the headings once); the chains are interned (one tuple per
container, shared by every control in it), so tens of thousands of IDs cost little.
"""

from __future__ import annotations

from bisect import bisect_left
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
NEAR_TEXT = 60
NEAR_NODES = 24  # how far back the preceding text is looked for (nodes)  # characters of the preceding text kept (enough to tell rows apart)

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


def _leading_text(node: Node, limit: int = NEAR_TEXT, budget: int = NEAR_NODES) -> str:
    """The first visible text in ``node``'s subtree (a row's label), looking at ``budget`` nodes."""
    stack = [node]
    while stack and budget > 0:
        budget -= 1
        n = stack.pop()
        if n.tag == "#text":
            if n.text and n.visible:
                return n.text[:limit]
        elif n.children:
            stack.extend(reversed(n.children))
    return ""


def control_contexts(nodes: Sequence[Node], controls: Sequence[Node]) -> dict[int, ControlContext]:
    """``ControlContext`` of each of ``controls`` (in document order), by node index. ``nodes``:
    the whole tree in document order (``nodes[n.index] is n``). Only the controls are visited,
    with one tight pass for the headings: a tree has several nodes per control."""
    memo: dict[int, tuple[Node | None, Chain]] = {}
    interned: dict[ControlContext, ControlContext] = {}
    ranks: dict[tuple[str, str | None, str, Chain], int] = {}
    out: dict[int, ControlContext] = {}
    headings = [n.index for n in nodes if n.role == "heading"]
    for node in controls:
        index = node.index
        parent = node.parent
        known = memo.get(id(parent)) if parent is not None else None
        container, chain = known if known is not None else _container_of(node, memo)
        start = container.index if container is not None else -1
        key = (node.ref.frame, node.role, node.name, chain)
        rank = ranks.get(key, 0)
        ranks[key] = rank + 1
        heading = ""
        k = bisect_left(headings, index) - 1
        if k >= 0 and headings[k] > start:
            heading = " ".join(nodes[headings[k]].name.split())
        near = ""
        i, stop = index - 1, max(start, index - NEAR_NODES)
        while i > stop:  # the nearest visible text before it, inside its container
            n = nodes[i]
            if n.tag == "#text" and n.text and n.visible:
                near = n.text[:NEAR_TEXT]
                break
            i -= 1
        ctx = ControlContext(chain, heading, near, rank)
        out[index] = interned.setdefault(ctx, ctx)
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
