"""What the host does to a collector payload before building nodes from it."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import msgspec
import pytest

from browserx.page.capture import KEY_OF_THIS
from browserx.snapshot.frames import RawFrame

# A collector.js reply as sent, for: <div><label for=x>Name</label><input id=x></div><iframe>,
# where the label and input were keyed before the div (keys need not rise in document order).
COMMON = {
    "url": "http://a.test/", "title": "t", "viewport": [800, 600], "scroll": [0, 0], "dpr": 1,
    "docSize": [800, 600], "noAi": False, "box": [0] * 24, "flags": [0] * 6,
    "text": {"3": "Name"}, "attrs": {}, "state": {"2": {"control": 3}, "4": {"inputType": "text"}},
    "suspects": 0, "frameOwners": [5], "pruned": 0,
}  # fmt: skip
SENT = COMMON | {
    "keyBase": 5 << 24, "pageMs": 1.5,
    "keyDeltas": [1, 3, -2, 0, 1, 2], "parentDeltas": [1, 1, 1, 1, 3, 5],
    "tagIds": [0, 1, 2, 3, 4, 5], "tagNames": ["#document", "div", "label", "#text", "input", "iframe"],
}  # fmt: skip
EXPANDED = COMMON | {
    "key": [1, 4, 2, 0, 3, 5], "parent": [-1, 0, 1, 2, 1, 0],
    "tag": ["#document", "div", "label", "#text", "input", "iframe"],
}  # fmt: skip


def test_compact_columns_are_expanded_and_keys_made_whole_everywhere_a_key_is_held() -> None:
    raw = msgspec.json.decode(msgspec.json.encode(SENT), type=RawFrame).normalized()
    base = 5 << 24
    assert raw.tag == EXPANDED["tag"]
    assert raw.parent == EXPANDED["parent"]
    assert raw.key == [k + base if k else 0 for k in EXPANDED["key"]]  # text nodes keep 0 (no key)
    assert raw.frameOwners == [base + 5]
    assert raw.state[2]["control"] == base + 3
    assert raw.normalized().key[0] == base + 1  # applied once only


def test_recorded_payloads_with_expanded_columns_and_no_base_are_taken_as_they_are() -> None:
    raw = msgspec.json.decode(msgspec.json.encode(EXPANDED), type=RawFrame).normalized()
    assert raw.key == EXPANDED["key"]
    assert raw.parent == EXPANDED["parent"]
    assert raw.frameOwners == [5]


def test_boxes_sent_without_text_nodes_land_on_the_same_nodes() -> None:
    from pathlib import Path

    from browserx.page.recording import load_recording
    from browserx.snapshot.merge import build_nodes

    recorded = load_recording(Path(__file__).parent.parent / "snapshot" / "recordings" / "snap-layout.json")[
        0
    ].raw
    expected = [(n.tag, n.box) for n in build_nodes(recorded, "m")]
    compact = msgspec.structs.replace(
        recorded,
        textBoxes=False,
        box=[
            v for i, tag in enumerate(recorded.tag) if tag != "#text" for v in recorded.box[i * 4 : i * 4 + 4]
        ],
    )
    assert len(compact.box) < len(recorded.box)
    assert [(n.tag, n.box) for n in build_nodes(compact, "m")] == expected
    assert any(box is not None and box.y > 0 for _, box in expected)


# -- capture_tab against a fake page: which calls it makes ------------------------------------


class FakePage:
    """Answers the CDP calls capture_tab makes for a main frame that owns one out-of-process
    child frame (session "C"). Records the settle arguments each collector call got."""

    def __init__(self, main_waited: float = 0.0) -> None:
        self.main_waited = main_waited
        self.frame_owners = [5]  # the <iframe> (key 5 in the main document) holds the child
        self.calls: list[tuple[str, str | None]] = []
        self.collects: list[tuple[str | None, Any]] = []  # (session, quiet)
        self.main_world = 10
        self.main_collects: list[tuple[int, int]] = []  # (context, key base) of each main-frame collect
        # The registry of each document (session, world): its key base, taken from the host's
        # fresh base by the first collect in that document, as collector.js does.
        self.registries: dict[tuple[str | None, int], int] = {}

    async def request(self, type: str, timeout: float | None = None, **fields: Any) -> None:
        return None

    async def cdp(
        self, tab_id: int, method: str, params: dict[str, Any] | None = None, session_id: str | None = None,
        timeout: float | None = None, *, result_type: type[Any] = dict, keep: dict[str, Any] | None = None,
    ) -> Any:  # fmt: skip
        await asyncio.sleep(0)  # a message is sent: other tasks run before the answer
        params = params or {}
        self.calls.append((method, session_id))
        reply: dict[str, Any] = {}
        if method == "Page.createIsolatedWorld":
            reply = {"executionContextId": self.main_world if session_id is None else 20}
        elif method == "Page.getFrameTree":
            reply = {"frameTree": {"frame": {"id": f"frame-{session_id}"}}}
        elif method == "Runtime.evaluate":
            reply = {"result": {"objectId": "doc"}}
        elif method == "DOM.getFrameOwner":
            reply = {"backendNodeId": 7}
        elif method == "DOM.resolveNode":
            reply = {"object": {"objectId": "iframe"}}
        elif method == "Runtime.callFunctionOn" and params["functionDeclaration"] == KEY_OF_THIS.source:
            reply = {"result": {"value": self.base + 5}}
        elif method == "Runtime.callFunctionOn":
            context = params["executionContextId"]
            reply = {"result": {"value": self._collect(session_id, context, params["arguments"])}}
        return msgspec.convert(reply, result_type)

    def _collect(self, session_id: str | None, context: int, args: list[dict[str, Any]]) -> str:
        opts, quiet = args[0]["value"], args[1]["value"] if len(args) > 1 else None
        self.collects.append((session_id, quiet))
        base = self.registries.setdefault((session_id, context), opts["freshBase"])
        if session_id is None:
            self.base = base
            self.main_collects.append((context, base))
        frame = SENT | {
            "keyBase": base,
            "frameOwners": self.frame_owners if session_id is None else [],
        }
        out: dict[str, Any] = {"frame": frame}
        if quiet is not None:
            waited = self.main_waited if session_id is None else 0.0
            event = {
                "t": 1,
                "op": "added",
                "text": f"event {len(self.collects)}",
                "role": "status",
                "cls": "",
            }
            out["settled"] = {"waited": waited, "stable": True, "now": 2, "events": [event], "mutations": 0}
        return msgspec.json.encode(out).decode()

    async def cdp_batch(self, *args: Any, **kwargs: Any) -> list[Any]:
        raise AssertionError("no batch expected on this page")


def _service(page: FakePage) -> Any:
    """The capture state of a tab whose connection is ``page``, with one out-of-process child."""
    from browserx.page.capture_state import CaptureState
    from browserx.relay.protocol import TargetInfo
    from browserx.relay.session import TabSession

    session = TabSession(1, page)  # type: ignore[arg-type]
    session.sessions["C"] = TargetInfo("t-C", type="iframe")
    session.session_parents["C"] = None
    return CaptureState(session)


def test_the_owner_of_an_out_of_process_frame_is_asked_for_once_per_parent_document() -> None:
    from browserx.page.capture import capture_tab

    async def run() -> None:
        page = FakePage()
        service = _service(page)
        for _ in range(3):
            frames = await capture_tab(service)
            assert frames[1].owner_key == page.base + 5
        assert [m for m, _ in page.calls].count("DOM.getFrameOwner") == 1
        page.frame_owners = []  # the element no longer holds a cross-process frame: ask again
        frames = await capture_tab(service)
        assert [m for m, _ in page.calls].count("DOM.getFrameOwner") == 2

    asyncio.run(run())


def test_children_are_collected_again_when_the_main_frame_had_to_settle() -> None:
    from browserx.page.capture import capture_tab
    from browserx.snapshot.stability import SettleOptions, settled_from

    async def run() -> None:
        quiet = FakePage(main_waited=0.0)
        await capture_tab(_service(quiet), settle=SettleOptions(quiet_ms=300))
        assert sorted(quiet.collects, key=str) == [("C", 0), (None, 300)]  # only the main frame waits

        busy = FakePage(main_waited=420.0)
        frames = await capture_tab(_service(busy), settle=SettleOptions(quiet_ms=300))
        assert [s for s, _ in busy.collects].count("C") == 2
        settled = settled_from(frames[0].settled, [f.settled for f in frames[1:]], wait=True)
        assert settled.waited_ms == 420.0
        # The events the child's first call drained are not lost with it.
        texts = sorted(e["text"] for e, _ in settled.events)
        assert len(texts) == 3 and len(set(texts)) == 3

        actions = FakePage(main_waited=420.0)
        frames = await capture_tab(_service(actions))  # an action's own snapshot: no settle
        assert {q for _, q in actions.collects} == {None}
        assert all(f.settled is None for f in frames)

    asyncio.run(run())


def test_a_world_checked_a_moment_ago_is_not_asked_for_again_until_a_navigation() -> None:
    from browserx.page.worlds import isolated_world

    async def run() -> None:
        page = FakePage()
        service = _service(page)
        assert await isolated_world(service, None) == ("frame-None", 10)
        assert await isolated_world(service, None) == ("frame-None", 10)
        asked = [m for m, _ in page.calls].count("Page.createIsolatedWorld")
        assert asked == 1
        service.session.frames_changed_at = time.monotonic() + 1e-6  # a navigation event came in
        page.main_world = 11
        assert await isolated_world(service, None) == ("frame-None", 11)
        service.worlds_checked[None] -= 60  # long ago: asked again though nothing was heard
        await isolated_world(service, None)
        assert [m for m, _ in page.calls].count("Page.createIsolatedWorld") == asked + 2

    asyncio.run(run())


def test_a_collect_sent_into_a_world_the_frame_has_left_is_dropped_and_done_again() -> None:
    from browserx.page.capture import capture_tab

    async def run() -> None:
        page = FakePage()
        service = _service(page)
        first = await capture_tab(service)
        await capture_tab(service)  # same world: one collect, sent without waiting for the world
        assert [c for c, _ in page.main_collects] == [10, 10]
        page.main_world = 11  # the main frame navigated: a new document, a new world
        service.session.frames_changed_at = time.monotonic()  # what its Page.frameNavigated event does
        after = await capture_tab(service)
        assert [c for c, _ in page.main_collects] == [10, 10, 10, 11]
        old_base, new_base = page.main_collects[2][1], page.main_collects[3][1]
        assert new_base > old_base  # the new document's keys start at a new base
        assert after[0].context_id == 11
        assert min(k for k in after[0].raw.key if k) > max(first[0].raw.key)

    asyncio.run(run())


def test_a_new_document_is_known_by_its_registry_even_when_its_world_has_the_old_context_id() -> None:
    """A new renderer process counts execution contexts from 1 again (seen in Chromium 156 after
    about:blank and back): the same context id, a new document. Its keys must not repeat."""
    from browserx.page.capture import capture_tab

    async def run() -> None:
        page = FakePage()
        service = _service(page)
        first = await capture_tab(service)
        page.registries.clear()  # a new document in a new process, again in world 10
        again = await capture_tab(service)
        assert page.main_collects[0][0] == page.main_collects[1][0] == 10
        assert page.main_collects[1][1] > page.main_collects[0][1]
        assert min(k for k in again[0].raw.key if k) > max(first[0].raw.key)
        third = await capture_tab(service)  # the same document: the same keys
        assert third[0].raw.key == again[0].raw.key

    asyncio.run(run())


@pytest.mark.parametrize(
    "tree", [{}, {"frameTree": None}, {"frameTree": {"frame": []}}, {"frameTree": {"frame": {}}}]
)
def test_a_frame_tree_of_a_shape_chrome_never_sends_is_a_cdp_error(tree: dict[str, Any]) -> None:
    from tests.fakes import fake_tab

    from browserx.errors import CdpError
    from browserx.page.worlds import isolated_world

    def page(frame_tree: dict[str, Any]) -> Any:
        return lambda method, params, session_id: (
            frame_tree if method == "Page.getFrameTree" else {"executionContextId": 7}
        )

    tab, _ = fake_tab(page(tree))
    with pytest.raises(CdpError, match=r"Page.getFrameTree\): unexpected result shape"):
        asyncio.run(isolated_world(tab.capture, None))
    assert None not in tab.capture.frame_ids
    tab, _ = fake_tab(page({"frameTree": {"frame": {"id": "F1"}}}))
    assert asyncio.run(isolated_world(tab.capture, None)) == ("F1", 7)
