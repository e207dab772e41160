"""What an action changed (actions/page_changes.py), over a tab of tests/fakes.py: the navigation
watch reads the tab's Page events (the top document's only), and the mutation counter starts,
settles and reads a counter per document — a document gone is "not known", never a failed action,
while a page error in the counter's own code is one."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from browserx.actions.page_changes import (
    PEEK_JS,
    READ_JS,
    SETTLE_JS,
    START_JS,
    MutationCounter,
    NavigationWatch,
)
from browserx.errors import BrowserxError
from browserx.tabs.tab import Tab
from tests.actions.acting import ActingPage, PageError, fails
from tests.fakes import emit, fake_tab

T = TypeVar("T")
URL = "http://127.0.0.1:34659/snap-controls.html"


def run(page: ActingPage, body: Callable[[Tab], Awaitable[T]]) -> T:
    tab, _ = fake_tab(page)
    return asyncio.run(asyncio.wait_for(body(tab), 5))


# -- navigation -----------------------------------------------------------------------------------------


def test_a_new_document_in_the_top_frame_is_a_navigation_and_a_frames_is_not() -> None:
    async def body(tab: Tab) -> NavigationWatch:
        watch = NavigationWatch(tab)
        emit(tab, "Page.frameNavigated", {"frame": {"id": "child", "parentId": "F", "url": "http://ads/"}})
        emit(tab, "Page.frameNavigated", {"frame": {"id": "F", "url": "http://x/"}}, session_id="oopif")
        assert not watch.started
        emit(tab, "Page.frameNavigated", {"frame": {"id": "F", "url": "http://next/"}})
        assert await watch.wait("committed", 1)
        assert not await watch.wait("loaded", 0.05)  # not loaded yet: waited, then no
        emit(tab, "Page.loadEventFired", {"timestamp": 1})
        assert await watch.wait("loaded", 1)
        watch.close()
        emit(tab, "Page.frameNavigated", {"frame": {"id": "F", "url": "http://after-close/"}})
        return watch

    watch = run(ActingPage("snap-controls"), body)
    assert watch.started and watch.committed and watch.new_document and watch.loaded
    assert watch.url == "http://next/"


def test_a_same_document_change_of_the_top_frame_commits_without_a_new_document() -> None:
    async def body(tab: Tab) -> NavigationWatch:
        await MutationCounter(tab).start()  # the top frame known: its id tells its events from a frame's
        watch = NavigationWatch(tab)
        emit(tab, "Page.navigatedWithinDocument", {"frameId": "other", "url": "http://x/#frame"})
        assert not watch.committed
        emit(tab, "Page.frameStartedLoading", {"frameId": "other"})
        assert not watch.started
        emit(tab, "Page.navigatedWithinDocument", {"frameId": "F", "url": "http://x/#part"})
        emit(tab, "Page.frameRequestedNavigation", b"not json")  # of no frame it can tell: ignored
        assert not watch.started
        emit(tab, "Page.frameRequestedNavigation", {"frameId": "F", "url": "http://y/"})
        return watch

    watch = run(ActingPage("snap-controls"), body)
    assert watch.committed and not watch.new_document and watch.url == "http://x/#part"
    assert watch.started  # the top frame asked to go elsewhere


# -- counting -------------------------------------------------------------------------------------------


def counting(page: ActingPage, body: Callable[[MutationCounter], Awaitable[T]]) -> T:
    async def run_counter(tab: Tab) -> T:
        return await body(MutationCounter(tab))

    return run(page, run_counter)


def test_changes_are_counted_from_start_to_read_in_the_top_document() -> None:
    page = ActingPage("snap-controls")
    page.mutations = 7

    async def body(counter: MutationCounter) -> tuple[Any, ...]:
        await counter.start()
        await counter.start()  # once per document
        peeked = await counter.peek()
        await counter.settle()
        return counter.url_before, peeked, await counter.read()

    before, peeked, read = counting(page, body)
    assert before == URL and peeked == (7, URL) and read == (7, URL)
    assert len(page.calls_to(START_JS)) == 1
    assert len(page.calls_to(SETTLE_JS)) == 1 and len(page.calls_to(READ_JS)) == 1


def test_a_replaced_document_is_not_counted_and_a_gone_one_never_fails() -> None:
    page = ActingPage("snap-controls")
    page.on(READ_JS, [-1, URL])  # the counter's document was replaced (a navigation)
    page.on(PEEK_JS, fails())  # and now it is gone
    page.on(SETTLE_JS, fails())

    async def body(counter: MutationCounter) -> tuple[Any, ...]:
        await counter.start()
        await counter.settle()  # a document gone is settled enough
        return await counter.peek(), await counter.read()

    peeked, read = counting(page, body)
    assert peeked == (None, None) and read == (None, None)


def test_a_counter_that_cannot_start_is_left_out_and_a_page_error_is_not() -> None:
    gone = ActingPage("snap-controls")
    gone.on(START_JS, fails())

    async def nothing_counted(counter: MutationCounter) -> tuple[Any, ...]:
        await counter.start()
        return counter.sessions, counter.url_before, await counter.read(), counter.all_settled

    sessions, before, read, settled = counting(gone, nothing_counted)
    assert sessions == {} and before is None and read == (0, None) and settled is False
    broken = ActingPage("snap-controls")
    broken.on(START_JS, PageError("TypeError: MutationObserver is not a constructor"))

    async def starts(counter: MutationCounter) -> None:
        await counter.start()

    with pytest.raises(BrowserxError) as info:
        counting(broken, starts)
    assert info.value.code == "page_script_error"
    breaks_settling = ActingPage("snap-controls")
    breaks_settling.on(SETTLE_JS, PageError("TypeError: requestAnimationFrame is not a function"))

    async def settles(counter: MutationCounter) -> None:
        await counter.start()
        await counter.settle()

    with pytest.raises(BrowserxError, match="requestAnimationFrame"):
        counting(breaks_settling, settles)


def test_what_the_actions_own_call_counted_is_read_without_asking_again() -> None:
    page = ActingPage("snap-controls")

    async def body(counter: MutationCounter) -> tuple[Any, ...]:
        await counter.start()
        counter.settled_in(None, {"seen": True})  # said nothing of what it counted: ignored
        counter.settled_in(None, {"counted": ["3", URL]})  # not a count
        not_yet = counter.all_settled
        counter.settled_in("frame-session", {"counted": [1, "http://frame/"]})  # not a watched document
        counter.settled_in(None, {"counted": [4, URL + "#done"]})
        return not_yet, counter.all_settled, counter.read_settled()

    not_yet, settled, read = counting(page, body)
    assert not_yet is False and settled is True
    assert read == (4, URL + "#done")
