"""The ID allocator lets go of the IDs of documents a tab has left."""

from __future__ import annotations

from tests.snapshot.test_pipeline import recorded, snapshot_of

from browserx.snapshot.ids import IdAllocator


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
