"""TabRegistry and default_tab (tabs/registry.py), driven through a real ExtensionConnection with a
fake pipe."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

import msgspec
import pytest

from browserx.errors import PageCrashed, TabClosed, TabNotFound
from browserx.relay.connection import ExtensionConnection
from browserx.relay.protocol import TabInfo, TargetInfo
from browserx.tabs.registry import TabRegistry, default_tab

T = TypeVar("T")


@pytest.fixture(autouse=True)
def _thawed() -> Iterator[None]:
    """A closed tab's collection freezes all that lives (heap.full_collect), the test run's own
    objects too (a plugin imported later then finds no referrers of its own): thawed after each."""
    yield
    gc.unfreeze()


def run(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    return asyncio.run(asyncio.wait_for(make(), 2))


class FakeExtension:
    """Answers "tabs" requests with ``tabs`` and "attach" with ok; records everything sent."""

    def __init__(self, tabs: list[dict[str, Any]] | None = None, focused_window: int | None = 1) -> None:
        self.tabs = tabs or []
        self.focused_window = focused_window
        self.sent: list[dict[str, Any]] = []
        self.silent = False  # answer nothing (a page that hangs, a renderer that died)
        self.conn = ExtensionConnection(self.send, default_timeout=1)

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)
        if self.silent and message["type"] not in ("attach", "detach", "tabs"):
            return
        if message["type"] == "tabs":
            result: dict[str, Any] = {"tabs": self.tabs, "lastFocusedWindowId": self.focused_window}
        else:
            result = {}
        reply = msgspec.json.encode({"id": message["id"], "result": result})
        asyncio.get_running_loop().call_soon(self.conn.feed, reply)

    def notice(self, **fields: Any) -> None:
        self.conn.feed(msgspec.json.encode(fields))


def tab(tab_id: int, **fields: Any) -> TabInfo:
    return TabInfo(tabId=tab_id, **fields)


# -- default_tab -------------------------------------------------------------------------------


def test_default_tab_of_nothing() -> None:
    assert default_tab([]) is None


def test_default_tab_prefers_active_in_the_focused_window() -> None:
    tabs = [
        tab(1, active=True, url="https://a/"),
        tab(2, active=False, focused=True, url="https://b/"),
        tab(3, active=True, focused=True, url="chrome://newtab/"),
    ]
    assert default_tab(tabs) is tabs[2]


def test_default_tab_then_active_web_page() -> None:
    tabs = [
        tab(1, active=True, url="chrome://extensions/"),
        tab(2, active=True, url="https://example.com/"),
        tab(3, active=True, url="file:///tmp/x.html"),
    ]
    assert default_tab(tabs) is tabs[1]
    assert default_tab([tabs[0], tabs[2]]) is tabs[2]
    assert default_tab([tab(4, active=True, url="http://x/"), tabs[0]]).tabId == 4  # type: ignore[union-attr]


def test_default_tab_then_any_active() -> None:
    tabs = [tab(1, url="https://a/"), tab(2, active=True, url="about:blank")]
    assert default_tab(tabs) is tabs[1]


def test_default_tab_then_the_first() -> None:
    tabs = [tab(5, url="https://a/"), tab(6, url="https://b/")]
    assert default_tab(tabs) is tabs[0]


def test_default_tab_ignores_focused_but_inactive() -> None:
    tabs = [tab(1, focused=True, url="https://a/"), tab(2, active=True, url="https://b/")]
    assert default_tab(tabs) is tabs[1]


# -- list_tabs / resolve -----------------------------------------------------------------------


TABS = [
    {"tabId": 10, "windowId": 1, "url": "https://one/", "active": False},
    {"tabId": 11, "windowId": 1, "url": "https://two/", "active": True},
    {"tabId": 20, "windowId": 2, "url": "https://three/", "active": True},
]


def test_list_tabs_marks_the_focused_window() -> None:
    async def main() -> None:
        fake = FakeExtension(TABS, focused_window=2)
        tabs = await TabRegistry(fake.conn).list_tabs()
        assert [(t.tabId, t.focused) for t in tabs] == [(10, False), (11, False), (20, True)]
        assert fake.sent == [{"id": 1, "type": "tabs"}]

    run(main)


def test_list_tabs_without_a_focused_window() -> None:
    async def main() -> None:
        fake = FakeExtension(TABS, focused_window=None)
        tabs = await TabRegistry(fake.conn).list_tabs()
        assert not any(t.focused for t in tabs)

    run(main)


def test_resolve_default_is_active_tab_of_focused_window() -> None:
    async def main() -> None:
        fake = FakeExtension(TABS, focused_window=2)
        registry = TabRegistry(fake.conn)
        service = await registry.resolve(None)
        assert service.tab_id == 20
        assert registry.tabs == {20: service}
        assert await registry.resolve(20) is service  # one service per tab
        assert (await registry.resolve(10)).tab_id == 10

    run(main)


def test_resolve_unknown_tab_lists_the_open_ones() -> None:
    async def main() -> None:
        registry = TabRegistry(FakeExtension(TABS).conn)
        with pytest.raises(TabNotFound) as info:
            await registry.resolve(99)
        assert "99" in str(info.value)
        assert "10, 11, 20" in str(info.value)
        assert info.value.details == {"tab": 99}
        assert registry.tabs == {}

    run(main)


def test_resolve_with_no_tabs() -> None:
    async def main() -> None:
        registry = TabRegistry(FakeExtension([]).conn)
        with pytest.raises(TabNotFound, match="no open tab"):
            await registry.resolve(None)

    run(main)


# -- notices drop services ---------------------------------------------------------------------


def test_tab_removed_drops_its_service() -> None:
    fake = FakeExtension()
    registry = TabRegistry(fake.conn)
    registry.tab(5)
    kept = registry.tab(6)
    fake.notice(type="tab", event="removed", tabId=5)
    assert registry.tabs == {6: kept}


def test_tab_replaced_drops_the_removed_tab() -> None:
    fake = FakeExtension()
    registry = TabRegistry(fake.conn)
    registry.tab(5)
    added = registry.tab(9)
    fake.notice(type="tab", event="replaced", tabId=9, removedTabId=5)
    assert registry.tabs == {9: added}


def test_detached_keeps_the_service_and_marks_it_detached() -> None:
    # The user pressed Cancel on the debugging banner: the next request attaches again, with the
    # same ID allocator (an ID never names two elements of one tab).
    fake = FakeExtension()
    registry = TabRegistry(fake.conn)
    service = registry.tab(5)
    service.session.attached = True
    service.session.sessions["S1"] = TargetInfo(targetId="T")
    fake.notice(type="detached", tabId=5, reason="canceled_by_user")
    assert registry.tabs == {5: service}
    assert service.session.attached is False
    assert service.session.sessions == {}


def test_a_closed_tab_fails_what_waits_on_it_at_once() -> None:
    async def go() -> None:
        fake = FakeExtension()
        fake.silent = True  # nothing is ever answered
        registry = TabRegistry(fake.conn)
        registry.tab(5)
        pending = asyncio.ensure_future(fake.conn.cdp(5, "Runtime.evaluate", {"expression": "1"}, timeout=30))
        await asyncio.sleep(0)
        fake.notice(type="tab", event="removed", tabId=5)
        with pytest.raises(TabClosed):
            await asyncio.wait_for(pending, 1)

    run(go)


def test_a_closed_tab_is_freed_at_once_not_at_the_next_full_collection() -> None:
    """Its objects sit in reference cycles the frozen collector skips (heap.py): a 100k-element
    page's 150 MB stayed dozens of snapshots long before."""

    async def go() -> None:
        fake = FakeExtension()
        registry = TabRegistry(fake.conn)
        closed = weakref.ref(registry.tab(5))
        held = registry.tab(6)
        service = closed()
        assert service is not None
        service.memory.by_id[1] = held.memory.by_id.get(1)  # type: ignore[assignment]
        service.self_cycle = service  # type: ignore[attr-defined]
        del service
        fake.notice(type="tab", event="removed", tabId=5)
        for _ in range(20):
            await asyncio.sleep(0)
        assert closed() is None and registry.tabs == {6: held}

    run(go)


def test_a_closed_tabs_disposal_waits_for_a_request_on_it_then_gives_up() -> None:
    async def go() -> None:
        fake = FakeExtension()
        service = TabRegistry(fake.conn).tab(5)
        service.memory.by_id[1] = None  # type: ignore[assignment]
        await service.lock.acquire()  # a request still on the tab
        await service.dispose(wait_s=0.05)
        assert service.memory.by_id  # left as it was: the request may still read it
        service.lock.release()
        await service.dispose(wait_s=0.05)
        assert not service.memory.by_id and not service.lock.locked()

    run(go)


def test_a_crashed_renderer_fails_what_waits_on_it_and_refuses_until_a_reload() -> None:
    async def go() -> None:
        fake = FakeExtension()
        fake.silent = True
        registry = TabRegistry(fake.conn)
        service = registry.tab(5)
        service.session.attached = True
        pending = asyncio.ensure_future(
            service.session.cdp("Runtime.evaluate", {"expression": "1"}, timeout=30)
        )
        await asyncio.sleep(0)
        fake.notice(type="event", tabId=5, method="Inspector.targetCrashed", params={})
        with pytest.raises(PageCrashed):
            await asyncio.wait_for(pending, 1)
        with pytest.raises(PageCrashed, match="Reload"):
            await service.session.cdp("Runtime.evaluate", {"expression": "1"})
        assert service.session.attached  # the debugger stays; its domains come back with the next renderer
        fake.notice(type="event", tabId=5, method="Inspector.targetReloadedAfterCrash", params={})
        assert service.session.crashed is False

    run(go)


def test_idle_tabs_are_released_and_busy_or_recent_ones_kept() -> None:
    async def go() -> None:
        fake = FakeExtension()
        registry = TabRegistry(fake.conn)
        idle, recent, busy = registry.tab(5), registry.tab(6), registry.tab(7)
        for service in (idle, recent, busy):
            service.session.attached = True
        idle.last_used -= 100
        busy.last_used -= 100
        async with busy.lock:
            assert await registry.release_idle(50) == [5]
        assert not idle.session.attached and recent.session.attached and busy.session.attached
        assert registry.tabs == {5: idle, 6: recent, 7: busy}  # released, not forgotten
        assert {"type": "detach", "tabId": 5} in [{k: m[k] for k in ("type", "tabId")} for m in fake.sent]

    run(go)


@pytest.mark.parametrize(
    "notice",
    [
        {"type": "tab", "event": "created", "tabId": 5, "url": ""},
        {"type": "tab", "event": "updated", "tabId": 5, "status": "loading"},
        {"type": "tab", "event": "activated", "tabId": 5, "windowId": 1},
        {"type": "tab", "event": "removed", "tabId": 6},
        {"type": "tab", "event": "replaced", "tabId": 5, "removedTabId": 6},
        {"type": "detached", "tabId": 6, "reason": "target_closed"},
        {"type": "event", "tabId": 5, "method": "Page.loadEventFired", "params": {}},
    ],
)
def test_other_notices_keep_the_service(notice: dict[str, Any]) -> None:
    fake = FakeExtension()
    registry = TabRegistry(fake.conn)
    service = registry.tab(5)
    fake.notice(**notice)
    assert registry.tabs == {5: service}


def test_drop_of_an_unknown_tab_is_harmless() -> None:
    fake = FakeExtension()
    registry = TabRegistry(fake.conn)
    fake.notice(type="tab", event="removed", tabId=123)
    fake.notice(type="detached", tabId=123)
    registry.drop(123)
    assert registry.tabs == {}


def test_events_reach_the_service_and_track_child_sessions() -> None:
    fake = FakeExtension()
    registry = TabRegistry(fake.conn)
    service = registry.tab(5)
    other = registry.tab(6)
    heard: list[str | None] = []
    service.session.add_listener(lambda msg: heard.append(msg.method))
    fake.notice(
        type="event",
        tabId=5,
        method="Target.attachedToTarget",
        params={"sessionId": "S1", "targetInfo": {"targetId": "T1", "type": "iframe", "url": "https://f/"}},
    )
    assert list(service.session.sessions) == ["S1"]
    assert service.session.sessions["S1"].url == "https://f/"
    assert other.session.sessions == {}
    fake.notice(type="event", tabId=5, method="Target.detachedFromTarget", params={"sessionId": "S1"})
    assert service.session.sessions == {}
    assert heard == ["Target.attachedToTarget", "Target.detachedFromTarget"]


def test_a_new_service_after_removal_starts_fresh() -> None:
    async def main() -> None:
        fake = FakeExtension([{"tabId": 5, "windowId": 1, "active": True}])
        registry = TabRegistry(fake.conn)
        first = await registry.resolve(5)
        await first.session.ensure_attached()
        assert first.session.attached
        fake.notice(type="tab", event="removed", tabId=5)
        second = await registry.resolve(5)
        assert second is not first
        assert second.session.attached is False
        # attach, then Page.enable (cache invalidation events), then the next tabs call
        assert [m["type"] for m in fake.sent] == ["tabs", "attach", "cdp", "tabs"]

    run(main)


# -- ID watermarks across host restarts --------------------------------------------------------


def test_the_extensions_watermarks_set_each_tabs_floor_and_odd_entries_are_skipped() -> None:
    async def body() -> None:
        ext = FakeExtension()
        registry = TabRegistry(ext.conn)
        existing = registry.tab(5)
        ext.notice(
            type="hello", userAgent="x", watermarks={"5": 12, "7": 30, "x": 3, "8": -1, "9": "4", "10": 2**60}
        )
        assert ext.conn.greeted.is_set() and ext.conn.hello is not None
        registry.restore_watermarks(ext.conn.hello.watermarks)
        assert registry.floors == {5: 12, 7: 30}
        assert existing.ids.floor == 12 and registry.tab(7).ids.floor == 30 and registry.tab(8).ids.floor == 0
        ext.notice(type="tab", event="removed", tabId=7)  # a closed tab's watermark goes with it
        assert 7 not in registry.floors

    run(body)
