"""Tab (tabs/tab.py): the snapshots it holds (placed, invalidated, retired, torn down), what a
page-changing event or a detach or crash clears, release, and the action memory it keeps by
snapshot sequence number. A real Tab over a fake connection (tests/fakes.py), no browser."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from browserx.errors import PageCrashed
from browserx.relay.protocol import TargetInfo
from browserx.relay.session import ANSWERED
from browserx.snapshot.snapshot import DomSnapshot
from browserx.tabs.tab import Tab
from tests.builders import recorded, snapshot_of
from tests.fakes import emit, fake_tab


@pytest.fixture(autouse=True)
def _unfreeze() -> Iterator[None]:
    # Placing a snapshot freezes what is alive (heap.py): let go of it after each test.
    yield
    gc.unfreeze()


def intact(snap: DomSnapshot) -> bool:
    return snap.nodes[1].parent is not None and bool(snap.root.children)


def torn_down(snap: DomSnapshot) -> bool:
    return all(n.parent is None and not n.children for n in snap.nodes)


# -- placing, invalidating, discarding ---------------------------------------------------------


def test_old_snapshots_are_torn_down_before_the_next_one_is_taken() -> None:
    tab, _ = fake_tab()
    first, second, third = (snapshot_of(recorded("snap-controls")) for _ in range(3))
    tab.place_snapshot(first)
    assert intact(first)
    asyncio.run(tab.discard_snapshots())
    assert tab.snapshot is None
    assert torn_down(first)
    tab.place_snapshot(second)
    assert intact(second)  # the placed one is intact
    tab.invalidate("navigated")
    assert tab.snapshot is None
    assert intact(second)  # still readable until the next snapshot
    asyncio.run(tab.discard_snapshots())
    tab.place_snapshot(third)
    assert torn_down(second)
    assert intact(third)


def test_a_replaced_snapshot_waits_for_the_next_discard_and_the_placed_one_is_not_retired_twice() -> None:
    tab, _ = fake_tab()
    first, second = snapshot_of(recorded("hello")), snapshot_of(recorded("hello"))
    tab.place_snapshot(first)
    tab.place_snapshot(first)  # placing the same one again retires nothing
    assert tab._retired == []
    tab.place_snapshot(second)
    assert tab.snapshot is second and tab._retired == [first]
    assert intact(first)  # an operation under the lock may still read it
    asyncio.run(tab.discard_snapshots())
    assert torn_down(first) and torn_down(second)
    assert tab.snapshot is None and tab._retired == []


def test_invalidating_nothing_is_harmless() -> None:
    tab, _ = fake_tab()
    tab.invalidate("navigated")
    assert tab.snapshot is None and tab._retired == []
    asyncio.run(tab.discard_snapshots())


def test_what_listens_for_a_teardown_hears_of_each_snapshot_before_it_goes() -> None:
    tab, _ = fake_tab()
    first, second = snapshot_of(recorded("hello")), snapshot_of(recorded("hello"))
    heard: list[tuple[DomSnapshot, bool]] = []
    tab.on_retire.append(lambda old: heard.append((old, intact(old))))
    tab.place_snapshot(first)
    tab.place_snapshot(second)
    asyncio.run(tab.discard_snapshots())
    assert heard == [(first, True), (second, True)]  # told while the tree is still whole
    assert torn_down(first) and torn_down(second)


# -- events and hooks --------------------------------------------------------------------------

CHILD = {"sessionId": "S1", "targetInfo": {"targetId": "T1", "type": "iframe", "url": "https://f/"}}


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("Page.frameNavigated", {"frame": {"id": "F", "url": "http://y/"}}),
        ("Page.navigatedWithinDocument", {"frameId": "F", "url": "http://x/#b"}),
        ("DOM.documentUpdated", {}),
        ("Target.attachedToTarget", CHILD),
        ("Target.detachedFromTarget", {"sessionId": "S1"}),
    ],
)
def test_a_page_changing_event_invalidates_the_cached_snapshot(method: str, params: dict[str, Any]) -> None:
    tab, _ = fake_tab()
    snap = snapshot_of(recorded("hello"))
    tab.place_snapshot(snap)
    emit(tab, method, params)
    assert tab.snapshot is None
    assert tab._retired == [snap] and intact(snap)  # retired, torn down only before the next capture


@pytest.mark.parametrize(
    "method",
    ["Page.loadEventFired", "Page.domContentEventFired", "Network.requestWillBeSent", "Page.lifecycleEvent"],
)
def test_other_events_keep_the_snapshot(method: str) -> None:
    tab, _ = fake_tab()
    snap = snapshot_of(recorded("hello"))
    tab.place_snapshot(snap)
    emit(tab, method, {})
    assert tab.snapshot is snap


def fill_capture_state(tab: Tab) -> None:
    """What capture keeps after a snapshot of a page with one out-of-process child frame."""
    state = tab.capture
    state.worlds.update({None: ("F", 5), "S1": ("F1", 6)})
    state.worlds_checked.update({None: 1.0, "S1": 1.0})
    state.frame_ids.update({None: "F", "S1": "F1"})
    state.key_bases.update({None: 7 << 24, "S1": 8 << 24})
    state.listener_keys[(None, 5)] = {101: 3}
    state.owner_keys[(None, 5, "F1")] = 9
    state.doc_handles[None] = (("F", 5), "doc-handle")
    state.heavy_listings[None] = (("F", 5), 0, {})
    state.watched_sessions.update({None, "S1"})


def test_a_detached_debugger_clears_the_capture_state_and_invalidates() -> None:
    tab, _ = fake_tab()
    tab.session.attached = True
    tab.session.sessions["S1"] = TargetInfo(targetId="T1", type="iframe")
    fill_capture_state(tab)
    tab.place_snapshot(snapshot_of(recorded("hello")))
    tab.session.handle_detached("canceled_by_user")
    state = tab.capture
    assert tab.snapshot is None
    assert state.worlds == {} and state.worlds_checked == {} and state.frame_ids == {}
    assert state.listener_keys == {} and state.owner_keys == {}
    assert state.doc_handles == {} and state.heavy_listings == {}
    # A document that comes back keeps its keys; the child sessions' are gone with them.
    assert state.key_bases == {None: 7 << 24}
    # The scripts registered for new documents live as long as the attachment: the next one
    # registers them again.
    assert state.watched_sessions == {None, "S1"}
    asyncio.run(tab.session.ensure_attached())
    assert state.watched_sessions == set()


def test_a_crashed_renderer_clears_the_capture_state_fails_what_waits_and_invalidates() -> None:
    tab, conn = fake_tab()
    tab.session.attached = True
    fill_capture_state(tab)
    tab.place_snapshot(snapshot_of(recorded("hello")))
    emit(tab, "Inspector.targetCrashed", {})
    state = tab.capture
    assert tab.snapshot is None
    assert state.worlds == {} and state.owner_keys == {} and state.listener_keys == {}
    assert state.watched_sessions == set()  # the renderer's documents took the scripts with them
    assert [type(e) for e in conn.failed] == [PageCrashed]
    assert tab.session.crashed


def test_a_child_session_gone_takes_only_its_own_capture_state() -> None:
    tab, _ = fake_tab()
    emit(tab, "Target.attachedToTarget", CHILD)
    fill_capture_state(tab)
    emit(tab, "Target.detachedFromTarget", {"sessionId": "S1"})
    state = tab.capture
    assert state.worlds == {None: ("F", 5)}
    assert state.frame_ids == {None: "F"} and state.key_bases == {None: 7 << 24}
    assert state.owner_keys == {(None, 5, "F1"): 9}  # the main document's key of that <iframe>


# -- release -----------------------------------------------------------------------------------


def test_release_detaches_and_frees_the_snapshots_but_keeps_the_ids() -> None:
    tab, conn = fake_tab()
    ids, memory = tab.ids, tab.memory
    snap = snapshot_of(recorded("snap-controls"), ids=tab.ids)
    tab.place_snapshot(snap)
    tab.remember()
    tab.session.attached = True
    released: list[bool] = []
    tab.on_release.append(lambda: released.append(True))
    asyncio.run(tab.release())
    assert ("detach", None) in conn.calls
    assert not tab.session.attached
    assert tab.snapshot is None and torn_down(snap)
    assert released == [True]
    # An ID never names two elements of one tab: the allocator and what its IDs named stay.
    assert tab.ids is ids and tab.memory is memory
    assert ids.issued(27) and ids.ref_of[27] == snap.by_id[27].ref
    delete = tab.recall(22)
    assert delete is not None and delete.name == "Delete account"
    # The next snapshot of the same page keeps the IDs.
    again = snapshot_of(recorded("snap-controls"), ids=tab.ids)
    assert dict(again.id_of) == dict(snap.id_of)


def test_release_of_a_tab_that_is_not_attached_sends_nothing() -> None:
    tab, conn = fake_tab()
    asyncio.run(tab.release())
    assert conn.calls == []


# -- action memory -----------------------------------------------------------------------------


def test_remember_records_what_the_cached_snapshots_ids_name_with_the_world_it_used() -> None:
    tab, _ = fake_tab()
    tab.remember()  # no snapshot: nothing to remember
    assert tab.memory.by_id == {}
    tab.capture.worlds[None] = ("F", 41)  # the world the capture used
    snap = snapshot_of(recorded("hello"), ids=tab.ids)
    tab.place_snapshot(snap)
    tab.remember()
    fp = tab.recall(1)
    assert fp is not None
    assert (fp.element_id, fp.frame, fp.context_id, fp.tag, fp.role, fp.name) == (
        1, "m", 41, "button", "button", "Press",
    )  # fmt: skip
    assert tab.recall(2) is None


def test_a_snapshot_is_remembered_once_by_its_sequence_number_and_a_later_one_again() -> None:
    tab, _ = fake_tab()
    first = snapshot_of(recorded("snap-controls"), ids=tab.ids)
    tab.remember(first)
    assert len(tab.memory.by_id) == 27
    del tab.memory.by_id[22]
    tab.remember(first)  # the same snapshot: not read again
    tab.remember(replace(first))  # a copy is the same observation (same seq)
    assert tab.recall(22) is None
    # A later snapshot (another seq) is remembered, whatever its address or content.
    later = snapshot_of(recorded("snap-controls"), ids=tab.ids)
    assert later.seq > first.seq
    tab.remember(later)
    assert tab.recall(22) is not None and tab.memory.seen_seq == later.seq


def test_the_context_of_a_child_frame_is_its_sessions_world() -> None:
    frames = recorded("oopif")
    tab, _ = fake_tab()
    for frame in frames[1:]:  # the labels the capture gave its sessions, in that order
        assert tab.session.frame_label(frame.session_id or "") == frame.label
    tab.capture.worlds.update({None: ("F", 4), frames[1].session_id: ("F1", 12)})  # f2's world unknown
    snap = snapshot_of(frames, ids=tab.ids)
    tab.remember(snap)
    contexts = {(fp.frame, fp.context_id) for fp in tab.memory.by_id.values()}
    assert contexts == {("f1", 12), ("f2", None)}  # (the main frame holds only the <iframe>)


def test_work_a_request_left_behind_starts_ahead_of_the_next_request_waiting_for_the_tab() -> None:
    """Held until the answer is written (relay/session.ANSWERED), unless the next request takes the
    tab first: then it starts ahead of that holder (it releases the handle group and stops the
    change counter that would otherwise be the next request's)."""

    async def go() -> list[str]:
        tab, _ = fake_tab()
        order: list[str] = []

        async def work(name: str) -> None:
            order.append(name)

        async def next_request() -> None:
            async with tab.lock:
                order.append("next request")

        ANSWERED.set(asyncio.Event())  # this request's answer is not written yet
        async with tab.lock:
            waiting = asyncio.ensure_future(next_request())
            await asyncio.sleep(0)  # it waits for the lock
            tab.session.fire_and_forget(work("release handles"))
            await asyncio.sleep(0)
            assert order == []  # held
        await waiting
        return order

    assert asyncio.run(go()) == ["release handles", "next request"]


def test_work_a_request_left_behind_waits_for_its_answer_when_nobody_else_wants_the_tab() -> None:
    """Letting go of the tab does not start it: its frames would be written ahead of the answer
    (on two cores a pipe write can cost 2 ms before the agent hears back). A request that comes
    for the tab after that still finds it started first."""

    async def go() -> list[str]:
        tab, _ = fake_tab()
        order: list[str] = []

        async def work(name: str) -> None:
            order.append(name)

        answered = asyncio.Event()

        async def request() -> None:
            ANSWERED.set(answered)
            async with tab.lock:
                tab.session.fire_and_forget(work("release handles"))

        await asyncio.ensure_future(request())
        for _ in range(3):
            await asyncio.sleep(0)
        order.append("answer written")
        async with tab.lock:  # another request before the answer is set: the work starts first
            order.append("next request")
        answered.set()
        await asyncio.sleep(0)
        return order

    assert asyncio.run(go()) == ["answer written", "release handles", "next request"]


def test_work_left_behind_goes_first_even_when_the_answer_went_out_as_the_next_request_woke() -> None:
    """The answer is written in the same turn as the tab is let go (no yield in between): the
    held work is woken after the next holder, yet still sends its frames before it."""

    async def go() -> list[str]:
        tab, _ = fake_tab()
        order: list[str] = []
        answered = asyncio.Event()

        async def work() -> None:
            order.append("release handles")

        async def next_request() -> None:
            async with tab.lock:
                order.append("next request")

        ANSWERED.set(answered)
        await tab.lock.acquire()
        waiting = asyncio.ensure_future(next_request())
        await asyncio.sleep(0)  # it waits for the lock
        tab.session.fire_and_forget(work())
        await asyncio.sleep(0)  # the held work waits for the answer
        tab.lock.release()  # the next request is woken first...
        answered.set()  # ...then the held work, as the answer goes out in the same turn
        await waiting
        return order

    assert asyncio.run(go()) == ["release handles", "next request"]
