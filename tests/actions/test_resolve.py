"""Element ID → live element (actions/resolve.py): an ID never shown, one of a page the tab left,
one the newest view gave to another node, one found, one whose document changed, and self-healing
after a re-render. A real Tab over a page that answers capture and the lookups from a recorded
document (tests/fakes.py: RecordedPage), no browser."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

from browserx import page_js
from browserx.actions.resolve import OBJECT_GROUP, RESOLVE_JS, Target, resolve
from browserx.errors import DuplicateId, PageOptedOut, StaleElement, UnknownElement
from browserx.page.capture import capture_tab
from browserx.relay.protocol import TargetInfo
from tests.builders import recorded, snapshot_of
from tests.fakes import Observed, RecordedPage, emit, fake_tab


@pytest.fixture(autouse=True)
def _unfreeze() -> Iterator[None]:
    # Placing a snapshot freezes what is alive (heap.py): let go of it after each test.
    yield
    gc.unfreeze()


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), 5))


# -- IDs that cannot be resolved at all --------------------------------------------------------


def test_an_id_never_shown_is_unknown_and_nothing_is_asked_of_the_page() -> None:
    async def body() -> None:
        seen = Observed(RecordedPage("hello"))
        await seen.observe()
        sent = len(seen.conn.calls)
        for element_id in (2, 999, 0, -1):
            with pytest.raises(UnknownElement, match="was ever shown") as info:
                await resolve(seen.tab, element_id)
            assert info.value.code == "unknown_id" and info.value.details == {"id": element_id}
        assert len(seen.conn.calls) == sent

    run(body)


def test_an_id_of_a_page_the_tab_has_left_is_stale() -> None:
    async def body() -> None:
        seen = Observed(RecordedPage("hello"))
        await seen.observe()
        press = seen.id_named("Press")
        seen.page.navigate()  # the same page again: a new document, keys from a new base
        emit(seen.tab, "Page.frameNavigated", {"frame": {"id": "F", "url": "http://x/"}})
        await seen.observe()  # the old document's IDs are forgotten
        assert seen.id_named("Press") != press
        with pytest.raises(StaleElement, match="since left") as info:
            await resolve(seen.tab, press)
        assert info.value.code == "stale_id"
        assert seen.page.lookups == []  # never looked up in the new document

    run(body)


def test_an_id_the_newest_view_shows_on_another_node_is_refused() -> None:
    async def body() -> None:
        seen = Observed(RecordedPage("snap-rerender"))
        shown = await seen.observe()
        item = seen.id_named("Item 3")
        old_ref = shown.by_id[item].ref
        seen.page.rerender(old_ref.key)
        # A snapshot built with the tab's allocator but not placed: the re-created button takes
        # the ID over, while the placed snapshot still shows the old node under it.
        snapshot_of(await capture_tab(seen.tab.capture), ids=seen.tab.ids)
        assert seen.tab.ids.ref_of[item] != old_ref
        assert seen.tab.snapshot is shown
        with pytest.raises(DuplicateId):
            await resolve(seen.tab, item)
        assert seen.page.lookups == []

    run(body)


# -- found, or gone ----------------------------------------------------------------------------


def test_a_shown_element_resolves_to_a_handle_in_its_frames_isolated_world() -> None:
    async def body() -> None:
        seen = Observed(RecordedPage("hello", world=5))
        shown = await seen.observe()
        press = seen.id_named("Press")
        target = await resolve(seen.tab, press)
        key = seen.key_of(press)
        assert isinstance(target, Target)
        assert (target.element_id, target.ref, target.session_id, target.context_id) == (
            press, shown.by_id[press].ref, None, 5,
        )  # fmt: skip
        assert target.object_id == f"node-{key}" and target.recovered_from is None
        assert target.fingerprint is not None and target.fingerprint.name == "Press"
        assert target.describe() == f"element {press} (button 'Press')"
        assert seen.page.lookups == [key]
        # By name: the world keeps the page library since the snapshot's collector installed it.
        (params,) = [p for m, p in seen.conn.sent if p.get("functionDeclaration") == RESOLVE_JS.source]
        assert params["executionContextId"] == 5 and params["arguments"] == [{"value": key}]
        assert params["objectGroup"] == OBJECT_GROUP and params["returnByValue"] is False
        assert seen.tab.snapshot is shown  # found: no new snapshot

    run(body)


def test_an_id_whose_document_changed_is_not_looked_up_in_the_new_one() -> None:
    async def body() -> None:
        seen = Observed(RecordedPage("hello", world=5))
        await seen.observe()
        press = seen.id_named("Press")
        # A new document whose node numbering happens to give the same key to a button:
        # only the world's context id tells the documents apart.
        seen.page.navigate(same_keys=True)
        emit(seen.tab, "Page.frameNavigated", {"frame": {"id": "F", "url": "http://x/"}})
        with pytest.raises(StaleElement, match="no longer on the page"):
            await resolve(seen.tab, press, heal=False)
        assert seen.page.lookups == []

    run(body)


def test_a_lookup_in_a_document_that_went_away_meanwhile_is_stale() -> None:
    async def body() -> None:
        seen = Observed(RecordedPage("hello", world=5))
        await seen.observe()
        press = seen.id_named("Press")
        # Navigated with no event yet: the world checked a moment ago is still trusted, and the
        # renderer answers that its context is gone.
        seen.page.world = 6
        with pytest.raises(StaleElement):
            await resolve(seen.tab, press, heal=False)

    run(body)


def test_a_key_that_now_names_an_element_of_another_tag_is_not_taken() -> None:
    async def body() -> None:
        seen = Observed(RecordedPage("hello"))
        await seen.observe()
        press = seen.id_named("Press")
        index = seen.page.index_of(seen.key_of(press))
        assert index is not None
        seen.page.frame["tag"][index] = "div"
        with pytest.raises(StaleElement):
            await resolve(seen.tab, press, heal=False)
        assert seen.page.lookups == [seen.key_of(press)]

    run(body)


def test_an_element_in_a_document_that_opted_out_is_refused() -> None:
    async def body() -> None:
        seen = Observed(RecordedPage("hello"))
        await seen.observe()
        seen.page.opt_out()
        press = seen.id_named("Press")
        with pytest.raises(PageOptedOut, match="data-no-ai") as info:
            await resolve(seen.tab, press)
        assert info.value.details == {"id": press}

    run(body)


def test_an_element_of_a_child_frame_is_looked_up_in_its_session_while_that_lives() -> None:
    frames = recorded("oopif")
    child = frames[1]
    assert child.session_id is not None

    def answer(method: str, params: dict[str, Any], session_id: str | None) -> Any:
        if method == "Page.getFrameTree":
            return {"frameTree": {"frame": {"id": f"frame-{session_id}"}}}
        if method == "Page.createIsolatedWorld":
            return {"executionContextId": 12 if session_id == child.session_id else 4}
        return {"result": {"type": "object", "subtype": "node", "description": "button", "objectId": "obj"}}

    async def body() -> None:
        tab, conn = fake_tab(answer)
        emit(
            tab, "Target.attachedToTarget", {"sessionId": child.session_id, "targetInfo": {"targetId": "T1"}}
        )
        assert tab.session.frame_label(child.session_id or "") == "f1"
        tab.capture.worlds[child.session_id] = ("frame-x", 12)
        snap = snapshot_of(frames, ids=tab.ids)
        tab.place_snapshot(snap)
        (button,) = [i for i, n in snap.by_id.items() if n.ref.frame == "f1"]
        target = await resolve(tab, button, heal=False)
        assert (target.session_id, target.context_id) == (child.session_id, 12)
        assert conn.calls[-1] == ("Runtime.callFunctionOn", child.session_id)
        # The frame's session went away (the iframe was removed or navigated cross-site).
        tab.session.forget_session(child.session_id or "")
        tab.place_snapshot(snap)
        sent = len(conn.calls)
        with pytest.raises(StaleElement):
            await resolve(tab, button, heal=False)
        assert len(conn.calls) == sent  # nothing asked of a frame that is gone

    run(body)


def test_a_session_that_is_known_but_not_attached_counts_as_gone() -> None:
    async def body() -> None:
        tab, conn = fake_tab()
        frames = recorded("oopif")
        tab.session.frame_label(frames[1].session_id or "")  # labelled once, never attached now
        snap = snapshot_of(frames, ids=tab.ids)
        tab.place_snapshot(snap)
        (button,) = [i for i, n in snap.by_id.items() if n.ref.frame == "f1"]
        with pytest.raises(StaleElement):
            await resolve(tab, button, heal=False)
        assert conn.calls == []
        tab.session.sessions["X"] = TargetInfo(targetId="T")  # another session does not help
        with pytest.raises(StaleElement):
            await resolve(tab, button, heal=False)

    run(body)


# -- self-healing ------------------------------------------------------------------------------


def test_a_re_rendered_element_is_healed_to_the_one_with_its_role_and_name() -> None:
    async def body() -> None:
        seen = Observed(RecordedPage("snap-rerender"))
        first = await seen.observe()
        item = seen.id_named("Item 3")
        old_key = seen.key_of(item)
        new_key = seen.page.rerender(old_key)
        target = await resolve(seen.tab, item)
        assert target.recovered_from == item
        assert target.ref.key == new_key and target.object_id == f"node-{new_key}"
        assert target.fingerprint is not None and target.fingerprint.name == "Item 3"
        assert seen.page.lookups == [old_key, new_key]
        # The fresh snapshot is the tab's now, and its IDs are remembered.
        assert seen.tab.snapshot is not None and seen.tab.snapshot is not first
        assert seen.tab.snapshot.by_id[target.element_id].ref.key == new_key
        assert seen.tab.recall(target.element_id) == target.fingerprint

    run(body)


def test_without_heal_a_re_rendered_element_is_stale() -> None:
    async def body() -> None:
        seen = Observed(RecordedPage("snap-rerender"))
        first = await seen.observe()
        item = seen.id_named("Item 3")
        seen.page.rerender(seen.key_of(item))
        with pytest.raises(StaleElement):
            await resolve(seen.tab, item, heal=False)
        assert seen.tab.snapshot is first  # no new snapshot was taken

    run(body)


def test_healing_refuses_a_look_alike_name() -> None:
    async def body() -> None:
        seen = Observed(RecordedPage("snap-rerender"))
        await seen.observe()
        item = seen.id_named("Item 3")
        old_key = seen.key_of(item)
        new_key = seen.page.rerender(old_key)
        seen.page.rename(new_key, "Item 3 (sold out)")
        with pytest.raises(StaleElement, match="no element that is provably the same control"):
            await resolve(seen.tab, item)
        assert seen.page.lookups == [old_key]

    run(body)


def test_healing_refuses_when_two_elements_elsewhere_have_the_name() -> None:
    async def body() -> None:
        seen = Observed(RecordedPage("snap-rerender"))
        await seen.observe()
        item, fifth, seventh = (seen.id_named(f"Item {n}") for n in (3, 5, 7))
        old_key = seen.key_of(item)
        gone = seen.page.rerender(old_key)
        seen.page.rename(gone, "Sold out")
        seen.page.rename(seen.key_of(fifth), "Item 3")
        seen.page.rename(seen.key_of(seventh), "Item 3")
        with pytest.raises(StaleElement, match="will not guess") as err:
            await resolve(seen.tab, item)
        assert seen.page.lookups == [old_key]  # neither twin was touched
        # Both are listed with their IDs and rows, for the agent to choose.
        assert [c["id"] for c in err.value.details["candidates"]] == [fifth, seventh]
        assert f'[{fifth}] button "Item 3" in listitem "Item 3"' in err.value.message

    run(body)


def test_healing_follows_a_row_that_moved_with_what_it_says() -> None:
    # Row 3 re-created two rows down (a re-ordered list): its row still reads "Item 3", so it is
    # the same control in the same context (snapshot/context.py), and the only one.
    async def body() -> None:
        seen = Observed(RecordedPage("snap-rerender"))
        await seen.observe()
        item, fifth = seen.id_named("Item 3"), seen.id_named("Item 5")
        gone = seen.page.rerender(seen.key_of(item))
        seen.page.rename(gone, "Sold out")
        seen.page.rename(seen.key_of(fifth), "Item 3")  # the only "Item 3" now, two rows down
        target = await resolve(seen.tab, item)
        assert target.element_id == fifth and target.recovered_from == item
        assert target.ref.key == seen.key_of(fifth)

    run(body)


def test_an_id_without_a_fingerprint_is_not_healed() -> None:
    async def body() -> None:
        seen = Observed(RecordedPage("snap-rerender"))
        await seen.observe()
        item = seen.id_named("Item 3")
        seen.tab.memory.by_id.clear()
        seen.tab.invalidate("test")  # nothing to remember it from again
        seen.page.rerender(seen.key_of(item))
        with pytest.raises(StaleElement, match=f"Element {item} is no longer"):
            await resolve(seen.tab, item)
        assert seen.tab.snapshot is None  # no snapshot was taken to heal from
        assert seen.tab.recall(item) is None

    run(body)


def test_an_id_from_before_a_host_restart_is_stale_and_never_another_element() -> None:
    async def body() -> None:
        seen = Observed(RecordedPage("hello"))
        seen.tab.ids.raise_floor(50)  # the extension's hello: IDs up to 50 were given out before
        await seen.observe()
        assert min(seen.tab.snapshot.by_id) == 51  # type: ignore[union-attr]
        sent = len(seen.conn.calls)
        for element_id in (1, 50):
            with pytest.raises(StaleElement, match="before the browserx host restarted") as info:
                await resolve(seen.tab, element_id)
            assert info.value.code == "stale_id"
        assert len(seen.conn.calls) == sent  # nothing asked of the page
        with pytest.raises(UnknownElement):
            await resolve(seen.tab, 999)  # never given out at all: still unknown

    run(body)


def test_a_burst_in_a_world_without_the_library_fails_whole_and_goes_again_with_the_lookup_whole() -> None:
    """Every stub of a burst throws in a world that lacks the page library, before anything of it
    acts (an early function may act: select's sets the value); it is sent again, the lookup whole
    (installing the library) and the function beside it by name, run after it; then by name."""
    probe = page_js.load("browserx.actions", "keyboard_probe_focus.js")

    async def body() -> None:
        seen = Observed(RecordedPage("hello", world=5))
        await seen.observe()
        press = seen.id_named("Press")
        seen.page.kept.clear()  # the world lost the library
        page, declared = seen.conn.answer, []
        seen.conn.answer = lambda m, p, sid: (declared.append(p.get("functionDeclaration")), page(m, p, sid))[
            1
        ]
        bursts = []
        for _ in range(2):
            declared.clear()
            await resolve(seen.tab, press, early=(probe, ()))
            bursts.append([d for d in declared if d])
        missed, named = bursts
        assert missed == [RESOLVE_JS.source, probe.source, RESOLVE_JS.whole, probe.source]
        assert named == [RESOLVE_JS.source, probe.source]

    run(body)
