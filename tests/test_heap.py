"""The garbage-collector policy around snapshots (heap.py): paused builds, released snapshots that
leave no cycles. (How a Tab retires and tears down its snapshots: tests/tabs/test_tab.py.)"""

from __future__ import annotations

import gc

import pytest

from browserx.heap import paused_gc
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


@pytest.mark.parametrize("fmt", ["text", "json", "semantic"])
def test_a_released_snapshot_and_its_views_leave_no_reference_cycles(fmt: str) -> None:
    # Builds run with the collector paused and their survivors frozen, so any cycle they leave
    # (a recursive closure over the snapshot, say) would keep a whole page's tree alive.
    from browserx.views.build import build_view
    from browserx.views.events import EventSummary
    from browserx.views.options import ViewOptions

    cases = (
        ("snap-layout", ViewOptions(format=fmt)),
        ("snap-layout", ViewOptions(format=fmt, max_tokens=40)),
        ("snap-controls", ViewOptions(format=fmt, query="delete account", max_tokens=200)),
    )
    # The first build of a kind leaves garbage of its own, once (msgspec's introspection of a
    # type it then keeps a decoder for): built once beforehand, so that the test does not depend
    # on which tests ran before it.
    for page, opts in cases:
        build_view(snapshot_of(recorded(page)), opts, events=EventSummary((), False, False, 0.0))
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        for page, opts in cases:
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
