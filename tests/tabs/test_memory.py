"""What each issued ID named (tabs/memory.py): fingerprints of a snapshot, and the per-tab action
memory that follows the ID allocator. Recorded snapshots, no browser."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from browserx.snapshot.ids import IdAllocator
from browserx.snapshot.model import Box
from browserx.tabs.memory import ActionMemory, Fingerprint, fingerprints
from tests.builders import el, page, recorded, recorded_snapshot, snapshot_of


@pytest.fixture(autouse=True)
def _unfreeze() -> Iterator[None]:
    # Remembering runs with the collector paused and freezes what it leaves (heap.py).
    yield
    gc.unfreeze()


def test_one_fingerprint_per_id_with_what_the_node_was_and_where() -> None:
    snap = recorded_snapshot("snap-controls")
    prints = fingerprints(snap, lambda label: 31)
    assert set(prints) == set(snap.by_id) and len(prints) == 27
    for element_id, fp in prints.items():
        node = snap.by_id[element_id]
        assert isinstance(fp, Fingerprint)
        assert fp.element_id == element_id
        assert (fp.frame, fp.context_id, fp.tag, fp.role, fp.name) == (
            "m",
            31,
            node.tag,
            node.role,
            node.name,
        )
        assert node.box is not None and fp.center == node.box.center
        assert fp.scroll == snap.scroll
    assert prints[22][3:6] == ("button", "button", "Delete account")
    assert prints[1][3:6] == ("input", "textbox", "Full name")


def test_the_context_id_is_asked_once_per_frame_and_taken_from_each_nodes_frame() -> None:
    snap = snapshot_of(recorded("oopif"))
    asked: list[str] = []

    def context_of(label: str) -> int | None:
        asked.append(label)
        return {"m": 1, "f1": 2}.get(label)  # f2's world is not known

    prints = fingerprints(snap, context_of)
    assert sorted(asked) == ["f1", "f2", "m"]
    assert {fp.frame: fp.context_id for fp in prints.values()} == {"f1": 2, "f2": None}
    for element_id, fp in prints.items():
        assert fp.frame == snap.by_id[element_id].ref.frame
        # Boxes of out-of-process frames are in top-level viewport coordinates.
        assert fp.center is not None and fp.center[1] > 0


def test_a_node_without_a_box_has_no_center() -> None:
    shown = el("button", role="button", name="Go", bx_id=1)
    boxless = el("button", role="button", name="Hidden", bx_id=2)
    boxless.box = None
    shown.box = Box(10, 20, 30, 40)
    prints = fingerprints(page(shown, boxless), lambda label: None)
    assert prints[1].center == (25.0, 40.0)
    assert prints[2].center is None and prints[2].context_id is None


def test_the_memory_keeps_ids_of_earlier_snapshots_while_the_allocator_does() -> None:
    ids = IdAllocator()
    memory = ActionMemory(ids)
    first = snapshot_of(recorded("snap-controls"), ids)
    memory.remember(first, lambda label: 1)
    later = page(el("button", role="button", name="Elsewhere", bx_id=900))
    memory.remember(later, lambda label: 2)
    # The form's IDs are not in the later snapshot, but the allocator still holds them.
    recalled = memory.recall(22)
    assert recalled is not None and recalled.name == "Delete account" and recalled.context_id == 1
    recalled = memory.recall(900)
    assert recalled is not None and recalled.name == "Elsewhere"
    assert recalled.context_id is None  # a hand-made page names no frames: no world asked for
    assert memory.recall(901) is None


def test_ids_the_allocator_forgot_are_pruned_at_the_next_snapshot() -> None:
    ids = IdAllocator()
    memory = ActionMemory(ids)
    first = snapshot_of(recorded("snap-controls"), ids)
    memory.remember(first, lambda label: 1)
    gone_refs = {first.by_id[i].ref for i in (20, 21, 22)}
    assert sorted(ids.forget(lambda ref: ref in gone_refs)) == [20, 21, 22]
    assert memory.recall(22) is not None  # pruned when the next snapshot is remembered
    second = snapshot_of(recorded("snap-controls"), ids)
    memory.remember(second, lambda label: 1)
    assert memory.forgotten == ids.forgotten == 3
    for element_id in (20, 21, 22):
        assert memory.recall(element_id) is None
    # The same buttons, seen again, got new IDs; the others kept theirs.
    again = {second.by_id[i].name: i for i in second.by_id}
    assert all(again[name] > 27 for name in ("Save draft", "Close panel", "Delete account"))
    assert memory.recall(again["Delete account"]) is not None
    first_field = memory.recall(1)
    assert first_field is not None and first_field.name == "Full name"
    assert set(memory.by_id) == set(ids.ref_of)


def test_pruning_keeps_ids_still_issued_that_the_new_snapshot_does_not_show() -> None:
    ids = IdAllocator()
    memory = ActionMemory(ids)
    memory.remember(snapshot_of(recorded("snap-controls"), ids), lambda label: 1)
    ids.forget(lambda ref: False)  # nothing went, but the allocator ran a clean-up
    kept = page(el("button", role="button", name="Other", bx_id=500))
    memory.remember(kept, lambda label: 1)
    assert memory.recall(22) is not None and memory.recall(500) is not None
    ids.forget(lambda ref: ref.key % 2 == 0)
    memory.remember(page(el("a", role="link", name="Next", bx_id=501)), lambda label: 1)
    # (500 was never issued by this allocator: pruned with the forgotten ones.)
    assert set(memory.by_id) == set(ids.ref_of) | {501}


def test_the_same_snapshot_is_read_once() -> None:
    ids = IdAllocator()
    memory = ActionMemory(ids)
    snap = snapshot_of(recorded("hello"), ids)
    calls: list[str] = []

    def context_of(label: str) -> int:
        calls.append(label)
        return 1

    memory.remember(snap, context_of)
    memory.remember(snap, context_of)
    assert calls == ["m"] and memory.seen_seq == snap.seq
