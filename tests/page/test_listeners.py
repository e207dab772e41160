"""Click listeners by collector key (page/listeners.py): the listening nodes new since the last
capture looked up — resolved and their keys read in one batch where the extension passes the
resolved objects on (``batch-args``), in two round trips with an older one — a node gone meanwhile
left out, and nodes already mapped never asked again. Over tests/fakes.py, no browser."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tests.fakes import FakeConnection

from browserx.errors import CdpError
from browserx.page.capture_state import CaptureState
from browserx.page.listeners import listener_keys
from browserx.relay.session import TabSession

GONE = 303  # a listening node removed between the listing and its lookup
WORLD = 5


class ListeningPage:
    """Resolves backendNodeId ``b`` to object ``o<b>`` (``GONE`` fails), and answers the keys call
    with ``b * 10`` for each object it is passed (0 for a null one), as keys_of_args.js does."""

    def __init__(self) -> None:
        self.resolved: list[int] = []
        self.keys_calls: list[list[dict[str, Any]]] = []

    def __call__(self, method: str, params: dict[str, Any], session_id: str | None) -> Any:
        if method == "DOM.resolveNode":
            backend = params["backendNodeId"]
            self.resolved.append(backend)
            assert params["executionContextId"] == WORLD  # browserx's world: where the keys are
            if backend == GONE:
                return CdpError("CDP error (DOM.resolveNode): No node with given id found")
            return {"object": {"objectId": f"o{backend}"}}
        if method == "Runtime.callFunctionOn":
            args = params.get("arguments", [])
            self.keys_calls.append(args)
            keys = [int(a["objectId"][1:]) * 10 if "objectId" in a else 0 for a in args]
            return {"result": {"type": "object", "value": keys}}
        return {}


def _lookup(conn: FakeConnection, types: dict[int, set[str]], state: CaptureState | None = None) -> Any:
    state = state or CaptureState(TabSession(1, conn))  # type: ignore[arg-type]

    async def run() -> Any:
        return await listener_keys(state, None, WORLD, types), state

    return asyncio.run(run())


@pytest.mark.parametrize("passes_args", [True, False], ids=["one-trip", "two-trips"])
def test_new_listening_nodes_are_mapped_to_their_keys_and_a_gone_one_is_left_out(
    passes_args: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = ListeningPage()
    conn = FakeConnection(page)
    if not passes_args:  # more new nodes than one batch command takes arguments from
        monkeypatch.setattr("browserx.page.listeners.MAX_ARGS_FROM", 2)
    types = {101: {"click"}, GONE: {"mousedown"}, 102: {"click", "mouseup"}}
    keys, _ = _lookup(conn, types)
    assert keys == {1010: frozenset({"click"}), 1020: frozenset({"click", "mouseup"})}
    assert page.resolved == [101, GONE, 102]
    assert len(page.keys_calls) == 1
    passed = page.keys_calls[0]
    if passes_args:  # each resolved object in its node's place, null for the gone one
        assert passed == [{"objectId": "o101"}, {"value": None}, {"objectId": "o102"}]
    else:
        assert passed == [{"objectId": "o101"}, {"objectId": "o102"}]
    # In one trip the keys call went in the batch with the lookups; else as a call of its own.
    assert ("Runtime.callFunctionOn" in [m for m, _ in conn.calls]) is not passes_args


def test_nodes_already_mapped_are_not_asked_again_and_those_gone_are_forgotten() -> None:
    page = ListeningPage()
    conn = FakeConnection(page)
    _, state = _lookup(conn, {101: {"click"}, 102: {"click"}})
    page.resolved.clear()
    keys, _ = _lookup(conn, {102: {"click"}, 104: {"pointerdown"}}, state)
    assert page.resolved == [104]  # 102's key is known
    assert keys == {1020: frozenset({"click"}), 1040: frozenset({"pointerdown"})}
    assert state.listener_keys[(None, WORLD)] == {102: 1020, 104: 1040}  # 101 stopped listening


def test_a_keys_call_that_throws_in_the_page_is_a_page_script_error() -> None:
    from browserx.errors import PageScriptError

    def answer(method: str, params: dict[str, Any], session_id: str | None) -> Any:
        if method == "DOM.resolveNode":
            return {"object": {"objectId": "o1"}}
        return {"result": {"type": "undefined"}, "exceptionDetails": {"text": "Uncaught", "exceptionId": 1,
                                                                      "lineNumber": 0, "columnNumber": 0}}  # fmt: skip

    with pytest.raises(PageScriptError):
        _lookup(FakeConnection(answer), {1: {"click"}})


# -- a big listing brought up to date: only the elements a walk met fresh ----------------------


class FreshPage:
    """Key ``k`` names element ``e<k>`` in browserx's world (``GONE`` none: removed since the
    walk), whose backendNodeId is ``k + 1000`` and main-world object ``m<k>``; its own listeners
    are ``listening[k]``."""

    def __init__(self, listening: dict[int, list[str]]) -> None:
        self.listening = listening
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, method: str, params: dict[str, Any], session_id: str | None) -> Any:
        self.sent.append((method, params))
        if method == "Runtime.callFunctionOn":  # node_of_key.js
            key = params["arguments"][0]["value"]
            if key == GONE:
                return {"result": {"type": "object", "subtype": "null", "value": None}}
            return {"result": {"type": "object", "subtype": "node", "objectId": f"e{key}"}}
        if method == "DOM.describeNode":
            return {"node": {"backendNodeId": int(params["objectId"][1:]) + 1000}}
        if method == "DOM.resolveNode":
            assert "executionContextId" not in params  # the page's own world: its listeners show
            return {"object": {"objectId": f"m{params['backendNodeId'] - 1000}"}}
        if method == "DOMDebugger.getEventListeners":
            assert (params["depth"], params["pierce"]) == (0, True)  # its own, every world's
            key = int(params["objectId"][1:])
            return {
                "listeners": [{"type": t, "backendNodeId": key + 1000} for t in self.listening.get(key, [])]
            }
        return {}


def test_fresh_elements_are_listed_one_by_one_in_one_round_trip() -> None:
    from browserx.page.listeners import fresh_listeners

    page = FreshPage({7: ["click", "keydown"], 8: ["mouseenter"]})
    conn = FakeConnection(page)
    state = CaptureState(TabSession(1, conn))  # type: ignore[arg-type]

    async def run() -> dict[int, frozenset[str]]:
        return await fresh_listeners(state, None, WORLD, [7, GONE, 8])

    found = asyncio.run(run())
    assert found == {7: frozenset({"click"})}  # 8 listens for nothing click-like; GONE is gone
    assert state.listener_keys[(None, WORLD)] == {1007: 7}  # a later whole listing needs no lookup
    methods = [m for m, _ in page.sent]
    # GONE's chain stopped at its first link: nothing described, resolved or listed for it.
    assert methods.count("DOM.describeNode") == methods.count("DOMDebugger.getEventListeners") == 2
    # All in the one batch: no command of the chain went on its own.
    assert not any(m.startswith(("DOM", "Runtime.callFunctionOn")) for m, _ in conn.calls)


@pytest.mark.parametrize("fresh", [[7], None], ids=["fresh-ones", "too-many-fresh"])
def test_a_big_listing_is_brought_up_to_date_or_listed_whole_again(fresh: list[int] | None) -> None:
    from browserx.page.capture_state import BigListing
    from browserx.page.listeners import listed_fresh

    page = FreshPage({7: ["click"]})

    def answer(method: str, params: dict[str, Any], session_id: str | None) -> Any:
        if method == "Runtime.evaluate":  # a main-world handle on the document
            return {"result": {"type": "object", "objectId": "doc"}}
        if method == "DOMDebugger.getEventListeners" and params.get("objectId") == "doc":
            return {"listeners": [["click", 1009], ["mousedown", 1009]]}  # as the extension keeps them
        if method == "DOM.resolveNode" and "executionContextId" in params:  # into browserx's world
            return {"object": {"objectId": "o1009"}}
        if method == "Runtime.callFunctionOn" and "...els" in params["functionDeclaration"]:
            return {"result": {"type": "object", "value": [9]}}  # keys_of_args.js
        return page(method, params, session_id)

    state = CaptureState(TabSession(1, FakeConnection(answer)))  # type: ignore[arg-type]
    world = ("frame", WORLD)
    big = BigListing(
        world, taken=10.0, listed_gen=3, by_key={5: frozenset({"click"}), 7: frozenset({"mouseup"})}
    )
    state.big_listings[None] = big

    async def run() -> tuple[dict[int, frozenset[str]], bool]:
        return await listed_fresh(state, None, big, world, fresh, stamp=4, started=20.0, asked=True)

    keys, sufficed = asyncio.run(run())
    kept = state.big_listings[None]
    assert kept.listed_gen == 4  # the listeners now cover the walk stamped 4
    if fresh is not None:
        assert sufficed and kept is big and kept.taken == 10.0  # no whole listing: its time stands
        assert keys == {5: frozenset({"click"}), 7: frozenset({"click"})}  # 7's own, listed again
    else:
        assert not sufficed and kept.taken == 20.0
        assert keys == kept.by_key == {9: frozenset({"click", "mousedown"})}
        assert kept.overflowed == 20.0  # listed beside the walk again for a while


def test_how_a_document_is_listed_follows_how_soon_snapshots_come_and_whether_an_action_runs() -> None:
    from browserx.page.capture_state import BigListing
    from browserx.page.listeners import FULL_LISTING_EVERY_S, Listing, listing_for

    every = FULL_LISTING_EVERY_S
    soon = 100.0 + every / 2

    def mode(listing: BigListing | None, now: float = soon, acting: bool = False) -> Listing:
        return listing_for(listing, now, acting)

    assert mode(None) is Listing.BESIDE  # not a big listing
    # A whole listing beside the walk covers no walk: soon after, the next lists after its walk.
    beside = BigListing(("frame", WORLD), taken=100.0, listed_gen=-1, seen=100.0)
    assert mode(beside) is Listing.AFTER
    assert mode(beside, now=100.0 + 2 * every) is Listing.BESIDE  # snapshots far apart: as any page
    listed = BigListing(("frame", WORLD), taken=100.0, listed_gen=4, seen=100.0)
    assert mode(listed) is Listing.FRESH
    assert (
        mode(BigListing(("frame", WORLD), taken=100.0, listed_gen=4, seen=soon), now=100.0 + every)
        is Listing.AFTER
    )
    assert mode(listed, acting=True) is Listing.BESIDE  # an action's own snapshots
    listed.overflowed = 100.2  # a walk met too many fresh elements
    assert mode(listed, now=100.3) is Listing.BESIDE
    state = CaptureState(TabSession(1, FakeConnection()))  # type: ignore[arg-type]
    state.big_listings[None] = after_action = BigListing(
        ("frame", WORLD), taken=100.0, listed_gen=4, seen=100.0
    )
    state.acted_on()
    assert mode(after_action) is Listing.AFTER  # listed whole, after the walk


def test_a_link_of_a_fresh_elements_chain_failing_fails_the_fresh_listing() -> None:
    """Only a node gone since the walk is left out; any other failure is the whole listing's to
    cover (listed_fresh falls back to it), never "no listeners"."""
    from browserx.page.listeners import fresh_listeners

    page = FreshPage({7: ["click"]})

    def answer(method: str, params: dict[str, Any], session_id: str | None) -> Any:
        if method == "DOM.resolveNode":
            return CdpError("CDP error (DOM.resolveNode): No node with given id found")
        return page(method, params, session_id)

    state = CaptureState(TabSession(1, FakeConnection(answer)))  # type: ignore[arg-type]
    with pytest.raises(CdpError):
        asyncio.run(fresh_listeners(state, None, WORLD, [7]))
