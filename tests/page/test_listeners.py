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
