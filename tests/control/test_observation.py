"""What the views served for a tab (control/observation.py): the last view lets go of a snapshot
the tab tears down (keeping what a delta compares), keeps one the tab does not, and the hybrid
picture's hash is forgotten when the tab is released. A real Tab over a fake connection."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest
from tests.builders import recorded, snapshot_of
from tests.fakes import fake_tab

from browserx.control.observation import observation
from browserx.views.delta import state_of


@pytest.fixture(autouse=True)
def _unfreeze() -> Iterator[None]:
    # Placing a snapshot freezes what is alive (heap.py): let go of it after each test.
    yield
    gc.unfreeze()


def test_the_last_view_state_lets_go_of_its_snapshot_when_that_is_torn_down() -> None:
    tab, _ = fake_tab()
    first = snapshot_of(recorded("snap-layout"))
    expected = state_of(first).elements  # computed on the intact tree
    tab.place_snapshot(first)
    seen = observation(tab)
    seen.last_view = state_of(first)
    asyncio.run(tab.discard_snapshots())
    assert not seen.last_view.holds(first)
    assert seen.last_view.elements == expected  # a later delta compares against these


def test_a_last_view_of_another_snapshot_keeps_it() -> None:
    tab, _ = fake_tab()
    shown, other = snapshot_of(recorded("hello")), snapshot_of(recorded("hello"))
    seen = observation(tab)
    seen.last_view = state_of(shown)
    tab.place_snapshot(other)
    asyncio.run(tab.discard_snapshots())
    assert seen.last_view.holds(shown)  # not the one torn down: nothing to detach


def test_one_record_per_tab_and_release_forgets_the_picture_sent() -> None:
    tab, _ = fake_tab()
    other, _ = fake_tab()
    seen = observation(tab)
    assert observation(tab) is seen and observation(other) is not seen
    assert len(tab.on_retire) == 1 and len(tab.on_release) == 1  # hooked once
    seen.screenshot_hash = "abcd"
    tab.session.attached = True
    asyncio.run(tab.release())
    assert seen.screenshot_hash is None
