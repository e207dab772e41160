"""Fuzzing the relay (host/browserx/relay/*): replies and notices of shapes Chrome never sends —
missing or foreign ids, wrong types, unknown kinds and methods, huge and deeply nested payloads,
chunked replies in broken pieces — fed to an ExtensionConnection with the real TabRegistry and a
DomService behind it. feed() never raises, every pending request ends with its value or one of
browserx's errors (promptly, or by its timeout), and nothing is left behind."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from browserx.errors import BrowserxError, CdpTimeout
from browserx.framing import encode_frame
from browserx.relay.connection import ExtensionConnection
from browserx.relay.protocol import Inbound, TabInfo
from browserx.tabs.registry import TabRegistry
from tests.fuzz import strategies as fs
from tests.fuzz.harness import LOGS, assert_logs_small_since, case, examples, new_loop, run
from tests.fuzz.strategies import PENDING, notices, replies


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = new_loop()
    yield loop
    loop.close()


class FakeExtension:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any]) -> None:
        encode_frame(message)  # whatever the host sends must be a frame the browser accepts
        self.sent.append(msgspec.json.decode(msgspec.json.encode(message)))


# -- what the extension might send ----------------------------------------------------------------


@st.composite
def chunked(draw: st.DrawFn) -> list[bytes]:
    """A chunked reply for a pending request: whole or broken (pieces skipped, repeated, out of
    order, the count changing, wrong types), of a reply that may itself be garbage."""
    msg_id = draw(st.sampled_from(PENDING))
    inner = draw(
        st.one_of(
            st.just(json.dumps({"id": msg_id, "result": {"ok": True}})),
            st.builds(lambda v: json.dumps({"id": msg_id, "result": v}), fs.json_values),
            st.builds(lambda v: json.dumps({"id": v, "result": {}}), fs.json_values),
            st.just(json.dumps({"type": "event", "method": "Page.loadEventFired"})),
            st.just(json.dumps({"id": msg_id, "chunk": 0, "chunks": 1, "data": "{}"})),
            fs.garbage_bytes().map(lambda b: b.decode("utf-8", "replace")),
            fs.deep_json,
        )
    )
    count = draw(st.integers(1, min(8, max(1, len(inner)))))
    step = -(-len(inner) // count) if inner else 1
    pieces = [inner[i : i + step] for i in range(0, len(inner), step)] or [""]
    frames: list[dict[str, Any]] = [
        {"id": msg_id, "chunk": i, "chunks": len(pieces), "data": p} for i, p in enumerate(pieces)
    ]
    mutation = draw(st.sampled_from(["none", "none", "skip", "repeat", "swap", "count", "types", "cut"]))
    if mutation == "skip" and len(frames) > 1:
        del frames[draw(st.integers(0, len(frames) - 1))]
    elif mutation == "repeat":
        frames.insert(draw(st.integers(0, len(frames))), frames[draw(st.integers(0, len(frames) - 1))])
    elif mutation == "swap" and len(frames) > 1:
        i = draw(st.integers(0, len(frames) - 2))
        frames[i], frames[i + 1] = frames[i + 1], frames[i]
    elif mutation == "count":
        frames[draw(st.integers(0, len(frames) - 1))]["chunks"] = draw(
            st.one_of(st.integers(-2, 10), st.just(10**6), st.just(2**40))
        )
    elif mutation == "types":
        frame = frames[draw(st.integers(0, len(frames) - 1))]
        frame[draw(st.sampled_from(["chunk", "chunks", "data", "id"]))] = draw(fs.json_values)
    elif mutation == "cut":
        frames = frames[: draw(st.integers(0, len(frames)))]
    return [msgspec.json.encode(f) for f in frames]


inbound = st.one_of(
    replies().map(lambda b: [b]),
    notices().map(lambda b: [b]),
    chunked(),
    fs.garbage_bytes().map(lambda b: [b]),
    st.binary(max_size=50).map(lambda b: [b]),
)


# -- the property ---------------------------------------------------------------------------------


def good_reply(msg_id: int) -> bytes:
    result: Any = {"value": 1}
    if msg_id == 3:
        result = {"results": [{"result": {"a": 1}}, {"error": "No node with given id found"}]}
    elif msg_id == 4:
        result = {"tabs": [{"tabId": 1, "active": True}], "lastFocusedWindowId": 1}
    return msgspec.json.encode({"id": msg_id, "result": result})


async def converse(bodies: list[bytes], answer: set[int], as_text: bool) -> list[Any]:
    fake = FakeExtension()
    conn = ExtensionConnection(fake.send, default_timeout=0.002)
    registry = TabRegistry(conn)
    service = registry.tab(1)
    service.session.sessions.clear()
    calls = [
        conn.request("tabs"),
        conn.cdp(1, "Runtime.evaluate", {"expression": "1"}),
        conn.cdp_batch(1, [("DOM.resolveNode", {}), ("DOM.resolveNode", {})]),
        registry.list_tabs(),
    ]
    tasks = [asyncio.ensure_future(c) for c in calls]
    while len(fake.sent) < len(tasks):
        await asyncio.sleep(0)
    assert [m["id"] for m in fake.sent] == list(PENDING)
    for body in bodies:
        conn.feed(body.decode("utf-8", "surrogateescape") if as_text else body)  # must not raise
    for msg_id in sorted(answer):
        conn.feed(good_reply(msg_id))
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    assert conn._pending == {} and conn._chunks == {} and conn._chunk_plan == {}
    return outcomes


def check(outcomes: list[Any], answered: set[int]) -> None:
    for msg_id, outcome in zip(PENDING, outcomes, strict=True):
        if isinstance(outcome, BaseException):
            assert isinstance(outcome, BrowserxError), f"request {msg_id} ended with {outcome!r}"
            assert len(outcome.message) < 5000
            continue
        if msg_id == 1:
            assert isinstance(outcome, Inbound)
        elif msg_id == 2:
            assert isinstance(outcome, dict)
        elif msg_id == 3:
            assert isinstance(outcome, list) and len(outcome) == 2
            assert all(isinstance(o, dict | BrowserxError) for o in outcome)
        else:
            assert isinstance(outcome, list) and all(isinstance(t, TabInfo) for t in outcome)


@given(
    sequence=st.lists(inbound, max_size=8).map(lambda groups: [b for g in groups for b in g]),
    answer=st.sets(st.sampled_from(PENDING)),
    as_text=st.booleans(),
)
@examples(ci=200, full=10_000)
def test_inbound_of_any_shape_never_crashes_and_every_request_ends(
    loop: asyncio.AbstractEventLoop, sequence: list[bytes], answer: set[int], as_text: bool
) -> None:
    mark = LOGS.mark()
    with case("relay.inbound"):
        outcomes = run(loop, converse(sequence, answer, as_text), limit=10)
        check(outcomes, answer)
        for msg_id, outcome in zip(PENDING, outcomes, strict=True):
            # The good reply is fed synchronously, before any timer can fire: a request it answers
            # ends with it, or with the error some earlier piece of garbage under its id caused.
            if msg_id in answer:
                assert not isinstance(outcome, CdpTimeout), f"request {msg_id} missed its reply"
        assert_logs_small_since(mark)
