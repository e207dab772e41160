"""The garbage-collector policy around snapshots: paused builds, released old snapshots."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import pytest

from browserx.heap import paused_gc
from browserx.tabs.tab import Tab
from tests.builders import recorded, snapshot_of


def test_paused_gc_nests_and_restores_the_collector() -> None:
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_what_a_paused_build_leaves_alive_is_frozen_before_the_collector_resumes() -> None:
    # Otherwise the first collection after it resumes rescans everything the build made.
    before = gc.get_freeze_count()
    try:
        with paused_gc():
            built = [[i] for i in range(5000)]
        assert gc.get_freeze_count() >= before + len(built)
        young = {id(o) for o in gc.get_objects(0)}
        assert not any(id(x) in young for x in built)
    finally:
        gc.unfreeze()


def _service() -> Tab:
    conn: Any = object()  # placing snapshots never talks to the browser
    return Tab(1, conn)


def test_old_snapshots_are_torn_down_before_the_next_one_is_taken() -> None:
    service = _service()
    first, second, third = (snapshot_of(recorded("snap-controls")) for _ in range(3))
    try:
        service.place_snapshot(first)
        assert first.nodes[1].parent is not None
        asyncio.run(service.discard_snapshots())
        assert service.snapshot is None
        assert all(n.parent is None and not n.children for n in first.nodes)  # torn down
        service.place_snapshot(second)
        assert second.nodes[1].parent is not None  # the placed one is intact
        service.invalidate("navigated")
        assert service.snapshot is None
        assert second.nodes[1].parent is not None  # still readable until the next snapshot
        asyncio.run(service.discard_snapshots())
        service.place_snapshot(third)
        assert all(n.parent is None for n in second.nodes)
        assert third.nodes[1].parent is not None
    finally:
        gc.unfreeze()


@pytest.mark.parametrize("fmt", ["text", "json", "semantic"])
def test_a_released_snapshot_and_its_views_leave_no_reference_cycles(fmt: str) -> None:
    # Builds run with the collector paused and their survivors frozen, so any cycle they leave
    # (a recursive closure over the snapshot, say) would keep a whole page's tree alive.
    from browserx.views.build import build_view
    from browserx.views.events import EventSummary
    from browserx.views.options import ViewOptions

    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        for page, opts in (
            ("snap-layout", ViewOptions(format=fmt)),
            ("snap-layout", ViewOptions(format=fmt, max_tokens=40)),
            ("snap-controls", ViewOptions(format=fmt, query="delete account", max_tokens=200)),
        ):
            snap = snapshot_of(recorded(page))
            view = build_view(snap, opts, events=EventSummary((), False, False, 0.0))
            if opts.query:
                assert "filtered out" in str(view.payload)  # the query matched: its own summary
            snap.release()
            del snap, view
            assert gc.collect() == 0, (page, opts)
    finally:
        if was:
            gc.enable()


def test_the_last_view_state_lets_go_of_its_snapshot_when_that_is_torn_down() -> None:
    from browserx.views.delta import state_of

    service = _service()
    first = snapshot_of(recorded("snap-layout"))
    expected = state_of(first).elements  # computed on the intact tree
    try:
        service.place_snapshot(first)
        service.last_view = state_of(first)
        asyncio.run(service.discard_snapshots())
        assert not service.last_view.holds(first)
        assert service.last_view.elements == expected  # a later delta compares against these
    finally:
        gc.unfreeze()
