"""The virtual tree every later stage reads: one ``Node`` per captured DOM node, across all
frames of a tab, in document order (shadow content under its host, frame documents under their
``<iframe>``). Boxes are CSS pixels in the top-level viewport.

Capture fills the facts (tag, attrs, text, box, flags, state, listeners); the passes in this
package fill the derived fields (role, name, visibility, tier).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

# Style facts packed into Node.flags by the collector (keep in step with collector.js).
F_VIS_HIDDEN = 1  # visibility: hidden | collapse
F_CURSOR_POINTER = 2
F_NO_POINTER_EVENTS = 4
F_SCROLL_X = 8  # overflow-x: auto | scroll
F_SCROLL_Y = 16  # overflow-y: auto | scroll
F_CLIPS = 32  # overflow: hidden | clip (either axis)
F_FIXED = 64  # position: fixed | sticky
F_DISPLAY_CONTENTS = 128  # display: contents (no box of its own)
F_INLINE = 256  # display: inline*
F_POSITIONED = 512  # position other than static: containing block of absolute descendants
F_ABSOLUTE = 1024  # position: absolute
F_FIXED_POS = 2048  # position: fixed
F_HOLDS_FIXED = 4096  # transform, filter, contain…: containing block of fixed descendants too
F_TRANSPARENT = 8192  # opacity: 0 (its whole subtree is unseen, yet rendered)
F_CLIPPED_AWAY = 16384  # clip / clip-path leaves nothing of it
F_SKIPS_CONTENT = 32768  # content-visibility: hidden (its content was not walked)
F_FRAMEWORK_CLICK = 65536  # a framework's click handler in its props (page/framework.py)
F_HIT_TESTED = 131072  # the collector hit-tested it (what covers it: RawFrame.hits)
F_ATOMIC_INLINE = 262144  # inline-block, inline-flex, inline-grid…: a box of its own (with F_INLINE)
F_CURSOR_NOT_ALLOWED = 524288  # cursor: not-allowed (the page says it cannot be clicked)
F_HOVER_REVEALS = 1048576  # transparent, but a :hover rule of the page makes it opaque (collector.js)
# Text nodes only: white space at the edges of the text (the text itself is trimmed).
F_SPACE_BEFORE = 1
F_SPACE_AFTER = 2


class NodeRef(NamedTuple):
    """A node reference usable to reach it again: the frame (CDP session + frame) and the
    node's key, which the collector keeps stable for the node's lifetime in that frame."""

    frame: str
    key: int


class Box(NamedTuple):
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def intersect(self, other: Box) -> Box | None:
        x, y = max(self.x, other.x), max(self.y, other.y)
        r, b = min(self.right, other.right), min(self.bottom, other.bottom)
        if r <= x or b <= y:
            return None
        return Box(x, y, r - x, b - y)

    @property
    def area(self) -> float:
        return self.w * self.h


@dataclass(slots=True, eq=False, init=False)
class Node:
    ref: NodeRef
    tag: str  # lowercase element tag, or "#text", "#shadow-root", "#document"
    parent: Node | None
    children: list[Node]
    attrs: dict[str, str]
    text: str  # for #text nodes: whitespace-collapsed text
    box: Box | None
    flags: int
    state: dict[str, Any]  # live properties (value, checked, scroll, ...)
    listeners: frozenset[str]  # click-like JS listener types on this node
    scope: Node | None  # the #document or #shadow-root this node lives in (id lookups)
    index: int  # pre-order position in the whole tab tree

    # derived by the passes
    role: str | None
    name: str
    visible: bool  # a person can see it
    rendered: bool  # in the accessibility tree (names read it), seen or not: sr-only text is
    tier: int  # 1 semantic, 2 non-semantic interactive, 3 structural
    hints: tuple[str, ...]  # why a tier-2 node is interactive (listener, cursor, tabindex, ...)
    hint: str  # an unnamed control: what its markup says it is (snapshot/unnamed.py), not a name

    # A written-out __init__ rather than the dataclass one: compiled (scripts/build_native.py),
    # it is a direct native call, and one Node is made per node of the page.
    def __init__(
        self,
        ref: NodeRef,
        tag: str,
        parent: Node | None = None,
        children: list[Node] | None = None,
        attrs: dict[str, str] | None = None,
        text: str = "",
        box: Box | None = None,
        flags: int = 0,
        state: dict[str, Any] | None = None,
        listeners: frozenset[str] = frozenset(),
        scope: Node | None = None,
        index: int = 0,
        role: str | None = None,
        name: str = "",
        visible: bool = True,
        rendered: bool = True,
        tier: int = 3,
        hints: tuple[str, ...] = (),
        hint: str = "",
    ) -> None:
        self.ref = ref
        self.tag = tag
        self.parent = parent
        self.children = [] if children is None else children
        self.attrs = {} if attrs is None else attrs
        self.text = text
        self.box = box
        self.flags = flags
        self.state = {} if state is None else state
        self.listeners = listeners
        self.scope = scope
        self.index = index
        self.role = role
        self.name = name
        self.visible = visible
        self.rendered = rendered
        self.tier = tier
        self.hints = hints
        self.hint = hint

    @property
    def is_element(self) -> bool:
        return self.tag[0] != "#"

    @property
    def is_text(self) -> bool:
        return self.tag == "#text"

    def attr(self, name: str) -> str | None:
        return self.attrs.get(name)

    def walk(self) -> Iterator[Node]:
        """Pre-order walk of this subtree (iterative: pages nest deeply)."""
        stack = [self]
        pop, extend = stack.pop, stack.extend
        while stack:
            node = pop()
            yield node
            if node.children:
                extend(reversed(node.children))

    def __repr__(self) -> str:
        return f"Node({self.tag} {self.ref.frame}:{self.ref.key} role={self.role} name={self.name!r})"


def with_ids_below(nodes: Sequence[Node], id_of: Mapping[NodeRef, int]) -> bytearray:
    """Per node index, 1 if a visible descendant carries an ID (``nodes`` in document order). One
    pass over the page, so it lives here, in a compiled module; a byte per node, not a set of
    ints (2 MB at 50k elements)."""
    below = bytearray(len(nodes))
    for n in reversed(nodes):  # children before parents
        parent = n.parent
        if parent is not None and (below[n.index] or (n.visible and n.ref in id_of)):
            below[parent.index] = 1
    return below


# Shared empties, never mutated: the children of every text node, the attributes and state of
# every node without any, and what a released node holds instead.
NO_CHILDREN: list[Node] = []
NO_FACTS: dict[str, Any] = {}


@dataclass(slots=True)
class ScopeIndex:
    """``id`` → element per tree scope (document or shadow root), for aria-labelledby and label[for]."""

    by_scope: dict[int, dict[str, Node]] = field(default_factory=dict)

    def add(self, node: Node) -> None:
        element_id = node.attrs.get("id")
        if element_id and node.scope is not None:
            self.by_scope.setdefault(id(node.scope), {}).setdefault(element_id, node)

    def get(self, scope: Node | None, element_id: str) -> Node | None:
        if scope is None:
            return None
        return self.by_scope.get(id(scope), {}).get(element_id)
