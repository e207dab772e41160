"""Taking a tab's snapshot (tabs/snapshots.py): the previous one torn down meanwhile, IDs kept for
the same document and forgotten for one the tab left, what the host hit-tests itself, and a page
that opted out. A real Tab over a page answering from a recorded document (tests/fakes.py)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Awaitable, Callable, Iterator

import pytest

from browserx.errors import CdpError, PageOptedOut
from browserx.snapshot.classify import is_interactive
from browserx.snapshot.frames import KEY_BITS
from browserx.snapshot.snapshot import Cover
from browserx.tabs.snapshots import take_snapshot
from tests.fakes import RecordedPage, emit, fake_tab


@pytest.fixture(autouse=True)
def _unfreeze() -> Iterator[None]:
    # Builds run with the collector paused and freeze what they leave (heap.py).
    yield
    gc.unfreeze()


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), 5))


def test_a_snapshot_of_the_same_document_keeps_its_ids_and_the_last_one_is_torn_down() -> None:
    async def body() -> None:
        page = RecordedPage("snap-rerender")
        tab, _ = fake_tab(page)
        first = await take_snapshot(tab)
        tab.place_snapshot(first)
        ids = dict(first.id_of)
        assert len(ids) == 20 and sorted(ids.values()) == list(range(1, 21))
        second = await take_snapshot(tab)
        assert dict(second.id_of) == ids
        assert second.seq > first.seq
        assert all(n.parent is None and not n.children for n in first.nodes)  # torn down meanwhile
        assert tab.snapshot is second  # placed, and what its IDs name remembered
        assert all(tab.recall(i) is not None for i in second.by_id)

    run(body)


def test_the_ids_of_a_document_the_tab_left_are_forgotten() -> None:
    async def body() -> None:
        page = RecordedPage("snap-rerender")
        tab, _ = fake_tab(page)
        first = await take_snapshot(tab)
        first_base = page.base
        old = dict(first.id_of)
        page.navigate()
        emit(tab, "Page.frameNavigated", {"frame": {"id": "F", "url": "http://x/"}})
        second = await take_snapshot(tab)
        assert page.base is not None and first_base is not None and page.base != first_base
        assert tab.capture.live_key_epochs == {page.base >> KEY_BITS}
        assert not set(old.values()) & set(tab.ids.ref_of)  # forgotten...
        assert all(tab.ids.issued(i) for i in old.values())  # ...and never given out again
        assert sorted(second.id_of.values()) == list(range(21, 41))
        assert tab.ids.forgotten == 20

    run(body)


def test_the_host_hit_tests_the_targets_the_collector_did_not_and_keeps_what_covers_them() -> None:
    async def body() -> None:
        page = RecordedPage("snap-rerender")
        tab, _ = fake_tab(page)
        await take_snapshot(tab)  # the first capture gives the document its keys
        heading = page.key_of(page.frame["tag"].index("h1"))
        first_item = page.key_of(page.frame["tag"].index("button"))
        page.covers[first_item] = (heading, "h1")
        page.covers[first_item + 2] = (0, "div#toast")  # not a node of the page (another frame, say)
        page.hit_tested.clear()
        snap = await take_snapshot(tab)
        targets = [n for n in snap.nodes if n.is_element and n.visible and is_interactive(n)]
        assert sorted(page.hit_tested) == sorted(n.ref.key for n in targets)
        assert snap.stats.hit_tested_by_host == len(targets) == 20
        by_key = {n.ref.key: n for n in snap.nodes if n.is_element}
        item1, item2 = by_key[first_item], by_key[first_item + 2]
        assert (item1.name, item2.name) == ("Item 1", "Item 2")
        assert snap.covered[item1.index] == Cover(by_key[heading], "h1")
        assert snap.covered[item2.index] == Cover(None, "div#toast")
        assert len(snap.covered) == 2

    run(body)


def test_a_page_that_opted_out_is_not_read() -> None:
    async def body() -> None:
        page = RecordedPage("hello")
        page.frame["noAi"] = True
        tab, _ = fake_tab(page)
        with pytest.raises(PageOptedOut, match="data-no-ai"):
            await take_snapshot(tab)

    run(body)


def test_a_snapshot_that_gave_out_new_ids_hands_the_watermark_to_the_extension_first() -> None:
    async def body() -> None:
        page = RecordedPage("snap-rerender")
        tab, conn = fake_tab(page)
        first = await take_snapshot(tab)
        assert ("watermark", None) in conn.calls and tab.saved_watermark == max(first.by_id) == tab.ids.high
        sent = len(conn.calls)
        await take_snapshot(tab)  # the same IDs: nothing new to keep, no round trip
        assert ("watermark", None) not in conn.calls[sent:]

    run(body)


def test_a_watermark_the_extension_could_not_keep_is_handed_over_again() -> None:
    async def body() -> None:
        page = RecordedPage("snap-rerender")
        tab, conn = fake_tab(page)
        conn.failing_answers["watermark"] = CdpError("storage full")
        await take_snapshot(tab)  # the view goes out without waiting for the extension's answer
        assert conn.calls.count(("watermark", None)) == 1
        for _ in range(3):
            await asyncio.sleep(0)  # its answer comes: a failure
        assert tab.saved_watermark == 0
        del conn.failing_answers["watermark"]
        await take_snapshot(tab)
        assert conn.calls.count(("watermark", None)) == 2
        await asyncio.sleep(0)
        assert tab.saved_watermark == tab.ids.high

    run(body)
