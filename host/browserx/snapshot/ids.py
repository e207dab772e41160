"""Element IDs: short integers, unique across all frames of a tab and never reused in the tab's
lifetime, so a stale ID can never silently hit a different element.

A node that survives between snapshots (same frame + collector key, i.e. the same DOM object)
keeps its ID. A node a framework re-created gets its old ID back when it is unmistakably the same
thing (docs/DESIGN.md, "IDs"): same html id or test id; else same role and name under the same parent
or at the same position among its siblings; else same role and name, unique among the vanished.
Never by position alone: a different item in the same slot gets a new ID. Every level also asks
for the same context (snapshot/context.py): the chain of dialog/form/landmark/row ancestors for the
html/test id and DOM-position levels, and the whole context (that chain, the preceding heading and
text, the rank among equals) for the name levels — a "Confirm" re-created in a "Delete account"
dialog is not the "Confirm" of the Newsletter form, and never takes its ID.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from browserx.errors import DuplicateId
from browserx.snapshot.context import Chain, ControlContext
from browserx.snapshot.model import Node, NodeRef

TEST_ID_ATTRS = ("data-testid", "data-test", "data-test-id", "data-cy", "data-qa")


@dataclass(frozen=True, slots=True)
class Signature:
    """What identifies an element across a re-render."""

    frame: str
    tag: str
    role: str | None
    name: str
    html_id: str | None
    test_id: str | None
    parent_id: int | None  # ID of the nearest ancestor that has one
    position: tuple[str, int]  # (parent ref frame:key, index among same-tag siblings)
    # Where it sits (snapshot/context.py): an ID never moves to a lookalike in another dialog, form,
    # landmark or row, nor to another of a row of twins.
    context: ControlContext | None = None


def sibling_positions(nodes: list[Node]) -> dict[int, int]:
    """Index of each node among its same-tag siblings (by ``id(node)``), one pass per parent
    (a scan per node would be quadratic in a long list)."""
    positions: dict[int, int] = {}
    done: set[int] = set()
    for node in nodes:
        parent = node.parent
        if parent is None or id(parent) in done:
            continue
        done.add(id(parent))
        seen: dict[str, int] = {}
        for sibling in parent.children:
            index = seen.get(sibling.tag, 0)
            seen[sibling.tag] = index + 1
            positions[id(sibling)] = index
    return positions


def signature_of(
    node: Node,
    name: str,
    parent_id: int | None,
    sibling_index: int = 0,
    context: ControlContext | None = None,
) -> Signature:
    parent = node.parent
    attrs = node.attrs
    test_id = next((attrs[a] for a in TEST_ID_ATTRS if a in attrs), None) if attrs else None
    parent_ref = f"{parent.ref.frame}:{parent.ref.key}" if parent is not None else ""
    return Signature(
        node.ref.frame, node.tag, node.role, name, attrs.get("id") or None, test_id, parent_id,
        (parent_ref, sibling_index), context,
    )  # fmt: skip


class IdAllocator:
    """Per-tab ID state. ``assign`` is called once per snapshot with the nodes that get IDs.

    ``by_ref`` and ``ref_of`` are kept exact inverses of each other: when a re-created node takes
    over an ID, the node that held it loses it (should that node come back, it gets a new ID), so
    no two nodes can ever answer to one ID."""

    def __init__(self, floor: int = 0) -> None:
        # IDs at or below the floor were given out by an earlier host of this browser (before a
        # restart: the extension keeps each tab's watermark): never given again, never resolved.
        self.floor = floor
        self._next = floor + 1
        self.by_ref: dict[NodeRef, int] = {}
        self.ref_of: dict[int, NodeRef] = {}  # every ID ever given → the node it names
        self._last: dict[int, Signature] = {}  # IDs of the previous snapshot
        self.recovered = 0
        self.forgotten = 0  # how many IDs ``forget`` dropped so far (memory.py follows it)

    @property
    def high(self) -> int:
        """The highest ID given out in this tab so far (by this host or, below the floor, before)."""
        return self._next - 1

    def raise_floor(self, floor: int) -> None:
        """IDs up to ``floor`` were given out before this host started: start above them."""
        if floor > self.floor:
            self.floor = floor
            self._next = max(self._next, floor + 1)

    def from_before(self, element_id: int) -> bool:
        """Whether ``element_id`` was given out by an earlier host of this browser, not this one."""
        return 0 < element_id <= self.floor and element_id not in self.ref_of

    def issued(self, element_id: int) -> bool:
        """Whether this allocator ever gave out ``element_id`` (it may be forgotten since)."""
        return 0 < element_id < self._next

    def in_top_document(self, element_id: int) -> bool:
        """Whether ``element_id`` names a node of the tab's top document (frame "m")."""
        ref = self.ref_of.get(element_id)
        return ref is not None and ref.frame == "m"

    def forget(self, stale: Callable[[NodeRef], bool]) -> list[int]:
        """Drop the IDs of nodes ``stale`` says are of documents gone for good (a tab's IDs would
        otherwise grow with every page it visits); returns them."""
        gone = [i for i, ref in self.ref_of.items() if stale(ref)]
        for element_id in gone:
            del self.by_ref[self.ref_of.pop(element_id)]
            self._last.pop(element_id, None)
        self.forgotten += len(gone)
        return gone

    def _new(self) -> int:
        value = self._next
        self._next += 1
        return value

    def assign(self, items: list[tuple[Node, Signature]]) -> dict[NodeRef, int]:
        current_refs = {node.ref for node, _ in items}
        vanished = {i: sig for i, sig in self._last.items() if self.ref_of[i] not in current_refs}
        out: dict[NodeRef, int] = {}
        unmatched: list[tuple[Node, Signature]] = []
        for node, sig in items:
            known = self.by_ref.get(node.ref)
            if known is not None:
                out[node.ref] = known
            else:
                unmatched.append((node, sig))
        if unmatched and vanished:
            self._match(unmatched, vanished, out)
        signatures: dict[int, Signature] = {}
        by_ref, ref_of = self.by_ref, self.ref_of
        for node, sig in items:
            ref = node.ref
            element_id = out.get(ref)
            if element_id is None:
                element_id = out[ref] = self._new()
            previous = ref_of.get(element_id)
            if previous is not None and previous != ref:
                del by_ref[previous]  # taken over by a re-created node
            by_ref[ref] = element_id
            ref_of[element_id] = ref
            if element_id in signatures:
                raise DuplicateId(f"ID {element_id} given to two nodes of one snapshot ({ref})")
            signatures[element_id] = sig
        self._last = signatures
        return out

    def _match(
        self, unmatched: list[tuple[Node, Signature]], vanished: dict[int, Signature], out: dict[NodeRef, int]
    ) -> None:
        by_html_id: dict[tuple[str, str, str, Chain | None], int] = {}
        by_test_id: dict[tuple[str, str, str, Chain | None], int] = {}
        by_parent: dict[tuple[str, str | None, str, int | None, ControlContext | None], list[int]] = {}
        by_position: dict[tuple[str, str | None, str, tuple[str, int], Chain | None], int] = {}
        by_name: dict[tuple[str, str | None, str, ControlContext | None], list[int]] = {}
        for element_id, sig in vanished.items():
            ctx = sig.context
            chain = ctx.chain if ctx is not None else None
            if sig.html_id:
                by_html_id[(sig.frame, sig.tag, sig.html_id, chain)] = element_id
            if sig.test_id:
                by_test_id[(sig.frame, sig.tag, sig.test_id, chain)] = element_id
            by_parent.setdefault((sig.frame, sig.role, sig.name, sig.parent_id, ctx), []).append(element_id)
            by_position[(sig.frame, sig.role, sig.name, sig.position, chain)] = element_id
            by_name.setdefault((sig.frame, sig.role, sig.name, ctx), []).append(element_id)
        taken: set[int] = set()

        def take(element_id: int | None, node: Node) -> bool:
            if element_id is None or element_id in taken:
                return False
            taken.add(element_id)
            out[node.ref] = element_id
            self.recovered += 1
            return True

        for node, sig in unmatched:
            ctx = sig.context
            chain = ctx.chain if ctx is not None else None
            if sig.html_id and take(by_html_id.get((sig.frame, sig.tag, sig.html_id, chain)), node):
                continue
            if sig.test_id and take(by_test_id.get((sig.frame, sig.tag, sig.test_id, chain)), node):
                continue
            if not sig.name:
                continue  # without a name, nothing but html/test ids is trustworthy
            if take(by_position.get((sig.frame, sig.role, sig.name, sig.position, chain)), node):
                continue
            parent_key = (sig.frame, sig.role, sig.name, sig.parent_id, ctx)
            same_parent = [i for i in by_parent.get(parent_key, []) if i not in taken]
            if sig.parent_id is not None and len(same_parent) == 1 and take(same_parent[0], node):
                continue
            same_name = [i for i in by_name.get((sig.frame, sig.role, sig.name, ctx), []) if i not in taken]
            if len(same_name) == 1:
                take(same_name[0], node)
