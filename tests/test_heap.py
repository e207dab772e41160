"""The garbage-collector policy around snapshots: paused builds, released old snapshots."""

from __future__ import annotations

import gc
from typing import Any

from browserx.heap import paused_gc
from browserx.service import DomService
from tests.snapshot.test_pipeline import recorded, snapshot_of


def test_paused_gc_nests_and_restores_the_collector() -> None:
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def _service() -> DomService:
    conn: Any = object()  # placing snapshots never talks to the browser
    return DomService(1, conn)


def test_old_snapshots_are_torn_down_before_the_next_one_is_taken() -> None:
    service = _service()
    first, second, third = (snapshot_of(recorded("snap-controls")) for _ in range(3))
    try:
        service.place_snapshot(first)
        assert first.nodes[1].parent is not None
        service.discard_snapshots()
        assert service.snapshot is None
        assert all(n.parent is None and not n.children for n in first.nodes)  # torn down
        service.place_snapshot(second)
        assert second.nodes[1].parent is not None  # the placed one is intact
        service.invalidate("navigated")
        assert service.snapshot is None
        assert second.nodes[1].parent is not None  # still readable until the next snapshot
        service.discard_snapshots()
        service.place_snapshot(third)
        assert all(n.parent is None for n in second.nodes)
        assert third.nodes[1].parent is not None
    finally:
        gc.unfreeze()
