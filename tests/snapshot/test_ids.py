"""The ID allocator lets go of the IDs of documents a tab has left."""

from __future__ import annotations

import pytest
from tests.builders import recorded, snapshot_of

from browserx.errors import DuplicateId
from browserx.snapshot.ids import IdAllocator, sibling_positions, signature_of
from browserx.snapshot.model import Node, NodeRef


def test_forgotten_ids_are_never_reissued_and_their_nodes_get_new_ones() -> None:
    ids = IdAllocator()
    first = snapshot_of(recorded("snap-controls"), ids)
    old = set(first.by_id)
    gone = ids.forget(lambda ref: ref.frame == "m")
    assert set(gone) == {i for i, n in first.by_id.items() if n.ref.frame == "m"} and gone
    assert all(ids.issued(i) and i not in ids.ref_of for i in gone)
    assert not any(ref.frame == "m" for ref in ids.by_ref)
    assert ids.forgotten == len(gone)
    again = snapshot_of(recorded("snap-controls"), ids)  # the same nodes, as if on a new page
    renewed = {i for i, n in again.by_id.items() if n.ref.frame == "m"}
    assert renewed and not renewed & old
    assert not ids.issued(max(again.by_id) + 1)


def _button(key: int, name: str, parent: Node) -> Node:
    node = Node(NodeRef("m", key), "button", parent=parent, role="button", name=name)
    parent.children.append(node)
    return node


def _assign(ids: IdAllocator, nodes: list[Node]) -> dict[NodeRef, int]:
    positions = sibling_positions(nodes)
    return ids.assign([(n, signature_of(n, n.name, None, positions.get(id(n), 0))) for n in nodes])


def test_an_id_taken_over_by_a_re_created_node_is_never_shared_with_the_old_one() -> None:
    """The modal case from real apps: the page's "Close" hides while a dialog's "Close" takes its
    ID; when the page's comes back, the two must not answer to one ID in one view."""
    ids = IdAllocator()
    root = Node(NodeRef("m", 1), "body")
    page_close = _button(2, "Close", root)
    first = _assign(ids, [page_close])
    dialog_close = _button(3, "Close", root)
    second = _assign(ids, [dialog_close])  # the page's button is gone from view
    assert second[dialog_close.ref] == first[page_close.ref]  # recovered by role + name
    third = _assign(ids, [page_close, dialog_close])  # both in view again
    assert len(set(third.values())) == 2
    assert third[dialog_close.ref] == first[page_close.ref]
    assert ids.ref_of[third[page_close.ref]] == page_close.ref
    assert {ids.by_ref[r] for r in ids.ref_of.values()} == set(ids.ref_of)  # exact inverses


def test_one_id_for_two_nodes_fails_loudly() -> None:
    ids = IdAllocator()
    root = Node(NodeRef("m", 1), "body")
    a, b = _button(2, "A", root), _button(3, "B", root)
    _assign(ids, [a, b])
    ids.by_ref[b.ref] = ids.by_ref[a.ref]  # corrupt the map as the old bug did
    with pytest.raises(DuplicateId):
        _assign(ids, [a, b])


def test_ids_start_above_the_watermark_a_host_before_this_one_reached() -> None:
    ids = IdAllocator()
    ids.raise_floor(40)  # the extension's hello: IDs 1..40 were given out before a host restart
    snap = snapshot_of(recorded("snap-controls"), ids)
    assert snap.by_id and min(snap.by_id) == 41 and ids.high == max(snap.by_id)
    assert ids.from_before(40) and ids.from_before(1) and not ids.from_before(41) and not ids.from_before(0)
    ids.raise_floor(10)  # a lower watermark never lowers the floor nor rewinds the numbering
    assert ids.floor == 40 and snapshot_of(recorded("snap-controls"), ids).by_id.keys() == snap.by_id.keys()
    fresh = IdAllocator(floor=7)
    assert min(snapshot_of(recorded("snap-controls"), fresh).by_id) == 8
