"""ExtensionConnection: request/reply by id over a fake pipe, error mapping, chunk reassembly,
timeouts, disconnects and notices."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import msgspec
import pytest

from browserx.errors import (
    CdpError,
    CdpTimeout,
    DebuggerDetached,
    ExtensionDisconnected,
    FramingError,
    MethodNotAllowed,
    TabClosed,
)
from browserx.relay.connection import ExtensionConnection, map_relay_error
from browserx.relay.protocol import ArgsFrom, Gate, Inbound

T = TypeVar("T")


class FakeExtension:
    """Records what the host sends; the test feeds the replies."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.backed_up = False  # the pipe is full: what is sent waits in the host's buffer

    async def send(self, message: dict[str, Any]) -> bool:
        # Round-trip through JSON like the real pipe, so nothing unencodable slips through.
        self.sent.append(msgspec.json.decode(msgspec.json.encode(message)))
        return not self.backed_up

    async def wait_sent(self, count: int = 1) -> list[dict[str, Any]]:
        for _ in range(1000):
            if len(self.sent) >= count:
                return self.sent
            await asyncio.sleep(0)
        raise AssertionError(f"expected {count} sent messages, got {self.sent}")


def run(make: Callable[[], Coroutine[Any, Any, T]], limit: float = 2.0) -> T:
    """Run a test coroutine with a hard time limit, so a hang fails fast."""
    return asyncio.run(asyncio.wait_for(make(), limit))


def enc(obj: Any) -> bytes:
    return msgspec.json.encode(obj)


async def start(conn: ExtensionConnection, fake: FakeExtension, call: Awaitable[T]) -> asyncio.Task[T]:
    """Start a request and wait until it has been sent; return its task."""
    before = len(fake.sent)
    task = asyncio.ensure_future(call)
    await fake.wait_sent(before + 1)
    return task


async def settled(task: asyncio.Task[T], within: float = 0.5) -> T:
    """The task's outcome, which must arrive promptly (long before any request timeout)."""
    return await asyncio.wait_for(task, within)


# -- request / reply -------------------------------------------------------------------------


def test_request_reply_matched_by_id() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        tabs = await start(conn, fake, conn.request("tabs"))
        evaluate = await start(
            conn, fake, conn.cdp(5, "Runtime.evaluate", {"expression": "1+1", "returnByValue": True})
        )
        tabs_msg, cdp_msg = fake.sent
        assert tabs_msg == {"id": tabs_msg["id"], "type": "tabs"}
        assert cdp_msg == {
            "id": cdp_msg["id"],
            "type": "cdp",
            "tabId": 5,
            "method": "Runtime.evaluate",
            "params": {"expression": "1+1", "returnByValue": True},
        }
        assert tabs_msg["id"] != cdp_msg["id"]
        # Answer the second first.
        conn.feed(enc({"id": cdp_msg["id"], "result": {"result": {"type": "number", "value": 2}}}))
        assert await settled(evaluate) == {"result": {"type": "number", "value": 2}}
        assert not tabs.done()
        conn.feed(enc({"id": tabs_msg["id"], "result": {"tabs": []}}))
        reply = await settled(tabs)
        assert isinstance(reply, Inbound)
        assert msgspec.json.decode(reply.result) == {"tabs": []}

    run(main)


def test_a_posted_request_returns_once_written_and_its_reply_comes_later() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        reply = await conn.post("watermark", tabId=3, high=40)  # written: no waiting for the answer
        (msg,) = fake.sent
        assert msg["type"] == "watermark" and not reply.done()
        conn.feed(enc({"id": msg["id"], "result": {"high": 40}}))
        assert msgspec.json.decode((await settled(reply)).result) == {"high": 40}
        # A frame that has not left the host (the pipe backed up) is proven only by its answer.
        fake.backed_up = True
        posting = await start(conn, fake, conn.post("watermark", tabId=3, high=41))
        await asyncio.sleep(0.01)
        assert not posting.done()
        conn.feed(enc({"id": fake.sent[-1]["id"], "result": {"high": 41}}))
        assert (await settled(posting)).done()
        # Gone before the answer: the task fails, as a request would.
        fake.backed_up = False
        lost = await conn.post("watermark", tabId=3, high=42)
        conn.close()
        with pytest.raises(ExtensionDisconnected):
            await settled(lost)

    run(main)


def test_ids_are_unique_across_many_concurrent_requests() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        tasks = [asyncio.ensure_future(conn.request("ping", n=n)) for n in range(30)]
        await fake.wait_sent(30)
        ids = [m["id"] for m in fake.sent]
        assert len(set(ids)) == 30
        for message in reversed(fake.sent):
            conn.feed(enc({"id": message["id"], "result": {"n": message["n"]}}))
        replies = await asyncio.wait_for(asyncio.gather(*tasks), 0.5)
        assert [msgspec.json.decode(r.result)["n"] for r in replies] == list(range(30))

    run(main)


def test_cdp_with_session_and_typed_result() -> None:
    class Evaluated(msgspec.Struct):
        value: int

    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        task = await start(
            conn, fake, conn.cdp(3, "Runtime.evaluate", session_id="S1", result_type=Evaluated)
        )
        sent = fake.sent[-1]
        assert sent["sessionId"] == "S1"
        assert sent["params"] == {}
        conn.feed(enc({"id": sent["id"], "result": {"value": 9}}))
        assert await settled(task) == Evaluated(value=9)

        task = await start(conn, fake, conn.cdp(3, "Runtime.evaluate", result_type=Evaluated))
        assert "sessionId" not in fake.sent[-1]
        conn.feed(enc({"id": fake.sent[-1]["id"], "result": {"value": "nine"}}))
        with pytest.raises(CdpError, match="unexpected result shape"):
            await settled(task)

    run(main)


def test_cdp_with_absent_result_is_an_empty_dict() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        task = await start(conn, fake, conn.cdp(3, "Page.enable"))
        conn.feed(enc({"id": fake.sent[-1]["id"]}))
        assert await settled(task) == {}

    run(main)


# -- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cls"),
    [
        ("No tab with given id 5", TabClosed),
        ("No target with given id found", TabClosed),
        ("Debugger is not attached to the tab with id: 5.", DebuggerDetached),
        ("Detached while handling command.", DebuggerDetached),
        ("method not allowed: Browser.close", MethodNotAllowed),
        ('{"code":-32000,"message":"Cannot find context with specified id"}', CdpError),
        ("something else entirely", CdpError),
    ],
)
def test_error_text_mapping(text: str, cls: type[Exception]) -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        task = await start(conn, fake, conn.cdp(5, "Runtime.evaluate", {"expression": "x"}))
        conn.feed(enc({"id": fake.sent[-1]["id"], "error": text}))
        with pytest.raises(cls) as info:
            await settled(task)
        assert type(info.value) is cls
        if cls in (TabClosed, DebuggerDetached):
            assert "tab 5" in str(info.value)
            assert info.value.details["tab"] == 5  # type: ignore[attr-defined]

    run(main)


def test_cdp_json_error_text_becomes_a_readable_cdp_error() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        task = await start(conn, fake, conn.cdp(5, "Runtime.callFunctionOn", {}))
        conn.feed(
            enc({"id": fake.sent[-1]["id"], "error": '{"code":-32000,"message":"Cannot find context"}'})
        )
        with pytest.raises(CdpError) as info:
            await settled(task)
        message = str(info.value)
        assert "Cannot find context" in message
        assert "Runtime.callFunctionOn" in message
        assert "-32000" not in message
        assert info.value.details == {"method": "Runtime.callFunctionOn", "tab": 5}

    run(main)


def test_map_relay_error_keeps_cdp_error_data() -> None:
    err = map_relay_error(
        '{"code":-32602,"message":"Invalid parameters","data":"Failed to deserialize params.x"}',
        "DOM.resolveNode",
        None,
    )
    assert type(err) is CdpError
    assert "Invalid parameters: Failed to deserialize params.x" in err.message
    assert "DOM.resolveNode" in err.message


def test_map_relay_error_non_dict_json_is_kept_verbatim() -> None:
    assert "[1, 2]" in map_relay_error("[1, 2]", "Page.reload", 1).message
    assert "boom" in map_relay_error('{"code": 1, "no_message": "boom"}', "Page.reload", 1).message


def test_tab_closed_without_a_tab_id() -> None:
    err = map_relay_error("No tab with given id 5", "attach", None)
    assert type(err) is TabClosed
    assert "(tab" not in err.message


def test_allowlist_refusal_sends_nothing() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        for method in ("Browser.close", "Target.createTarget", "runtime.evaluate", ""):
            with pytest.raises(MethodNotAllowed) as info:
                await conn.cdp(1, method)
            assert info.value.details == {"method": method}
        assert fake.sent == []

    run(main)


def test_send_failure_propagates_and_a_late_reply_is_harmless() -> None:
    async def failing_send(message: dict[str, Any]) -> None:
        raise FramingError("too big")

    async def main() -> None:
        conn = ExtensionConnection(failing_send)
        with pytest.raises(FramingError):
            await conn.request("ping")
        conn.feed(enc({"id": 1, "result": {}}))

    run(main)


# -- chunked replies ---------------------------------------------------------------------------

# The reply's JSON text holds raw multi-byte characters and \u escapes (one a surrogate pair).
REPLY_TEMPLATE = '{"id": %d, "result": {"raw": "é€😀✓", "escaped": "\\u00e9\\u20ac\\ud83d\\ude00"}}'
EXPECTED = {"raw": "é€😀✓", "escaped": "é€😀"}


def chunk_frames(msg_id: int, pieces: list[str], ascii_frames: bool = False) -> list[bytes]:
    frames = []
    for index, data in enumerate(pieces):
        msg = {"id": msg_id, "chunk": index, "chunks": len(pieces), "data": data}
        frames.append(json.dumps(msg, ensure_ascii=True).encode() if ascii_frames else enc(msg))
    return frames


@pytest.mark.parametrize("ascii_frames", [False, True])
def test_chunked_reply_one_character_per_chunk(ascii_frames: bool) -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        task = await start(conn, fake, conn.cdp(1, "DOMSnapshot.captureSnapshot", {}))
        msg_id = fake.sent[-1]["id"]
        text = REPLY_TEMPLATE % msg_id
        for frame in chunk_frames(msg_id, list(text), ascii_frames):
            assert not task.done()
            conn.feed(frame)
        assert await settled(task) == EXPECTED

    run(main)


def test_chunked_reply_split_at_every_position() -> None:
    """Two chunks, split at every index: inside multi-byte characters' neighbourhoods, inside
    \\u escapes, and between the two halves of an escaped surrogate pair."""

    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        text = REPLY_TEMPLATE % 0
        for cut in range(1, len(text)):
            task = await start(conn, fake, conn.cdp(1, "DOMSnapshot.captureSnapshot", {}))
            msg_id = fake.sent[-1]["id"]
            whole = REPLY_TEMPLATE % msg_id
            offset = len(whole) - len(text)  # the id may have more digits
            pieces = [whole[: cut + offset], whole[cut + offset :]]
            for frame in chunk_frames(msg_id, pieces):
                conn.feed(frame)
            assert await settled(task) == EXPECTED, cut

    run(main, limit=5)


def test_chunked_error_reply_is_mapped() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        task = await start(conn, fake, conn.cdp(4, "DOM.describeNode", {}))
        msg_id = fake.sent[-1]["id"]
        text = json.dumps({"id": msg_id, "error": "No tab with given id 4"})
        for frame in chunk_frames(msg_id, [text[:10], text[10:20], text[20:]]):
            conn.feed(frame)
        with pytest.raises(TabClosed):
            await settled(task)

    run(main)


def test_out_of_order_chunk_fails_the_request() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        task = await start(conn, fake, conn.cdp(1, "DOM.describeNode", {}))
        msg_id = fake.sent[-1]["id"]
        text = REPLY_TEMPLATE % msg_id
        frames = chunk_frames(msg_id, [text[:5], text[5:10], text[10:]])
        conn.feed(frames[0])
        conn.feed(frames[2])  # skipped chunk 1
        with pytest.raises(CdpError, match="broken pieces"):
            await settled(task)
        conn.feed(frames[1])  # late pieces are harmless

    run(main)


def test_repeated_chunk_fails_the_request() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        task = await start(conn, fake, conn.request("tabs"))
        msg_id = fake.sent[-1]["id"]
        frames = chunk_frames(msg_id, ['{"id": ', f"{msg_id}}}"])
        conn.feed(frames[0])
        conn.feed(frames[0])
        with pytest.raises(CdpError, match="broken pieces"):
            await settled(task)

    run(main)


def test_reassembled_garbage_fails_the_request() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        task = await start(conn, fake, conn.request("tabs"))
        msg_id = fake.sent[-1]["id"]
        for frame in chunk_frames(msg_id, ["not ", "json"]):
            conn.feed(frame)
        with pytest.raises(CdpError, match="reassembled reply is invalid"):
            await settled(task)

    run(main)


# -- unreadable replies, timeouts, disconnects -------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        {"error": 5},
        {"result": {}, "tabId": "seven"},
        {"chunk": "zero", "chunks": 2, "data": "x"},
        {"chunk": 0, "chunks": 2, "data": 3},
    ],
)
def test_unreadable_reply_with_an_id_fails_that_request_promptly(reply: dict[str, Any]) -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send, default_timeout=30)
        other = await start(conn, fake, conn.request("ping"))
        task = await start(conn, fake, conn.request("tabs"))
        conn.feed(enc({"id": fake.sent[-1]["id"], **reply}))
        with pytest.raises(CdpError, match="unreadable reply"):
            await settled(task)
        assert not other.done()
        conn.feed(enc({"id": fake.sent[0]["id"], "result": {"pong": True}}))
        assert (await settled(other)).id == fake.sent[0]["id"]

    run(main)


def test_reply_with_invalid_utf8_fails_that_request_promptly() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send, default_timeout=30)
        task = await start(conn, fake, conn.request("tabs"))
        body = b'{"id": %d, "error": "bad \xff byte"}' % fake.sent[-1]["id"]
        conn.feed(body)
        with pytest.raises(CdpError, match="unreadable reply"):
            await settled(task)

    run(main)


def test_timeout_raises_cdp_timeout() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send, default_timeout=0.05)
        started = time.monotonic()
        with pytest.raises(CdpTimeout) as info:
            await conn.cdp(2, "Page.reload", {})
        assert time.monotonic() - started < 1
        assert info.value.code == "timeout"
        assert "Page.reload" in str(info.value)
        assert info.value.details == {"method": "Page.reload"}
        # A reply that arrives too late is dropped quietly.
        conn.feed(enc({"id": fake.sent[-1]["id"], "result": {}}))

    run(main)


def test_per_call_timeout_overrides_the_default() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send, default_timeout=30)
        started = time.monotonic()
        with pytest.raises(CdpTimeout, match="tabs"):
            await conn.request("tabs", timeout=0.05)
        assert time.monotonic() - started < 1

    run(main)


def test_close_fails_every_pending_request() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        first = await start(conn, fake, conn.request("tabs"))
        second = await start(conn, fake, conn.cdp(1, "Page.enable"))
        conn.close()
        assert conn.closed
        for task in (first, second):
            with pytest.raises(ExtensionDisconnected):
                await settled(task)
        sent_before = len(fake.sent)
        with pytest.raises(ExtensionDisconnected):
            await conn.request("ping")
        with pytest.raises(ExtensionDisconnected):
            await conn.cdp(1, "Page.enable")
        assert len(fake.sent) == sent_before

    run(main)


def test_close_with_a_half_reassembled_reply() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        task = await start(conn, fake, conn.request("tabs"))
        conn.feed(chunk_frames(fake.sent[-1]["id"], ["{", "}"])[0])
        conn.close()
        with pytest.raises(ExtensionDisconnected):
            await settled(task)

    run(main)


# -- notices -----------------------------------------------------------------------------------


def test_notices_go_to_every_handler_even_if_one_raises() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        seen: list[Inbound] = []

        def broken(msg: Inbound) -> None:
            raise RuntimeError("handler bug")

        conn.on_notice(broken)
        conn.on_notice(seen.append)
        conn.feed(enc({"type": "event", "tabId": 1, "method": "Page.loadEventFired", "params": {"t": 1}}))
        conn.feed(enc({"type": "detached", "tabId": 1, "reason": "target_closed"}))
        conn.feed(enc({"type": "tab", "event": "removed", "tabId": 1}))
        assert [(m.type, m.method, m.reason, m.event) for m in seen] == [
            ("event", "Page.loadEventFired", None, None),
            ("detached", None, "target_closed", None),
            ("tab", None, None, "removed"),
        ]
        assert msgspec.json.decode(seen[0].params) == {"t": 1}
        # Requests still work after a handler blew up.
        task = await start(conn, fake, conn.request("ping"))
        conn.feed(enc({"id": fake.sent[-1]["id"], "result": {"pong": True}}))
        assert (await settled(task)).error is None

    run(main)


def test_hello_is_remembered() -> None:
    conn = ExtensionConnection(FakeExtension().send)
    assert conn.hello is None
    conn.feed(enc({"type": "hello", "version": "0.1.0", "userAgent": "UA/1", "extensionId": "abc"}))
    assert conn.hello is not None
    assert (conn.hello.version, conn.hello.userAgent, conn.hello.extensionId) == ("0.1.0", "UA/1", "abc")


GARBAGE: list[bytes | str] = [
    b"",
    b"\x00\x01\x02",
    b"\xff\xfe\xfd",
    b"not json",
    b"{",
    b"null",
    b"[]",
    b"[1, 2, 3]",
    b"42",
    b'"string"',
    b'{"id": "x"}',
    b'{"id": 1.5}',
    b'{"id": 999, "result": {}}',
    b'{"id": 999, "chunk": 0, "chunks": 2, "data": "{"}',
    b'{"chunk": 0, "chunks": 1, "data": "{}"}',
    b'{"id": 999, "chunk": 0}',
    b'{"type": 5}',
    b'{"type": "event", "params": "not raw json?"}',
    b'{"type": "unknown-kind", "tabId": 3}',
    b'{"error": "\xc3\x28"}',
    b'{"id": 999, "error": "\xc3\x28"}',
    "{}",
    '{"type": "tab", "event": "removed"}',
]


def test_garbage_bodies_never_raise_out_of_feed() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        seen: list[Inbound] = []
        conn.on_notice(seen.append)
        task = await start(conn, fake, conn.request("tabs"))
        for body in GARBAGE:
            conn.feed(body)
        # None of that garbage carried the pending id, so the request is still waiting...
        assert not task.done()
        conn.feed(enc({"id": fake.sent[-1]["id"], "result": {"tabs": []}}))
        # ...and then resolves normally.
        assert (await settled(task)).error is None

    run(main)


@pytest.mark.parametrize("body", ["\ud83d", '{"id": 1, "error": "\udc00"}'])
def test_str_body_with_lone_surrogate_does_not_raise_out_of_feed(body: str) -> None:
    """feed() accepts str bodies and promises never to raise on bad input."""
    conn = ExtensionConnection(FakeExtension().send)
    conn.feed(body)


# -- batches ---------------------------------------------------------------------------------


def test_batch_sends_one_message_and_maps_each_answer() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        commands = [("DOM.resolveNode", {"backendNodeId": 1}), ("DOM.resolveNode", {"backendNodeId": 2})]
        task = await start(conn, fake, conn.cdp_batch(7, commands, session_id="S"))
        sent = fake.sent[-1]
        assert sent["type"] == "batch" and sent["tabId"] == 7 and sent["sessionId"] == "S"
        assert [c["method"] for c in sent["commands"]] == ["DOM.resolveNode", "DOM.resolveNode"]
        answers = {
            "results": [{"result": {"object": {"objectId": "o1"}}}, {"error": "No node with given id found"}]
        }
        conn.feed(enc({"id": sent["id"], "result": answers}))
        first, second = await settled(task)
        assert first == {"object": {"objectId": "o1"}}
        assert isinstance(second, CdpError) and "No node with given id found" in second.message

    run(main)


def test_a_typed_batch_decodes_each_answer_and_an_odd_one_is_that_commands_error() -> None:
    from browserx.relay.cdp_types import ResolveNodeResult

    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        commands = [("DOM.resolveNode", {"backendNodeId": b}) for b in (1, 2, 3)]
        task = await start(conn, fake, conn.cdp_batch(7, commands, result_type=ResolveNodeResult))
        answers = {
            "results": [
                {"result": {"object": {"type": "object", "subtype": "node", "objectId": "o1"}}},
                {"result": {"object": {"type": "object"}}},  # no handle: a shape Chrome never sends
                {"error": "No node with given id found"},
            ]
        }
        conn.feed(enc({"id": fake.sent[-1]["id"], "result": answers}))
        first, second, third = await settled(task)
        assert isinstance(first, ResolveNodeResult) and first.object.objectId == "o1"
        assert isinstance(second, CdpError) and "DOM.resolveNode): unexpected result shape" in second.message
        assert isinstance(third, CdpError) and "No node with given id found" in third.message

    run(main)


def test_batch_refuses_a_method_outside_the_allowlist_before_sending() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        with pytest.raises(MethodNotAllowed):
            await conn.cdp_batch(1, [("DOM.resolveNode", {}), ("Browser.close", {})])
        assert fake.sent == []

    run(main)


def test_a_gated_command_carries_its_condition_and_the_skip_is_that_commands_error() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        commands = [("Runtime.callFunctionOn", {}), ("Input.insertText", {"text": "hi"})]
        gates = {1: Gate(0, ("result", "value", "go"))}
        task = await start(conn, fake, conn.cdp_batch(7, commands, gates=gates))
        sent = fake.sent[-1]["commands"]
        assert "after" not in sent[0]
        assert (sent[1]["after"], sent[1]["when"]) == (0, ["result", "value", "go"])
        answers = {"results": [{"result": {}}, {"error": "skipped: command 0 did not say go"}]}
        conn.feed(enc({"id": fake.sent[-1]["id"], "result": answers}))
        _, skipped = await settled(task)
        assert isinstance(skipped, CdpError) and "skipped" in skipped.message

    run(main)


def test_a_gate_may_wait_only_for_an_earlier_command() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        commands = [("Runtime.callFunctionOn", {}), ("Input.insertText", {"text": "hi"})]
        with pytest.raises(ValueError, match="cannot wait"):
            await conn.cdp_batch(7, commands, gates={0: Gate(1, ("go",))})  # only on an earlier one
        assert fake.sent == []

    run(main)


def test_a_command_taking_earlier_answers_as_arguments_says_which_and_where() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        commands = [("DOM.resolveNode", {"backendNodeId": 1}), ("DOM.resolveNode", {"backendNodeId": 2}),
                    ("Runtime.callFunctionOn", {"executionContextId": 5})]  # fmt: skip
        taking = {2: ArgsFrom((0, 1), ("object", "objectId"))}
        with pytest.raises(ValueError, match="cannot take"):
            await conn.cdp_batch(7, commands, args={1: ArgsFrom((1,), ("object",))})  # only earlier ones
        assert fake.sent == []
        task = await start(conn, fake, conn.cdp_batch(7, commands, args=taking))
        sent = fake.sent[-1]["commands"]
        assert "args" not in sent[0] and "args" not in sent[1]
        assert sent[2]["args"] == {"from": [0, 1], "path": ["object", "objectId"]}
        answers = {"results": [{"result": {"object": {"objectId": "a"}}}, {"error": "No node"},
                               {"result": {"result": {"value": [3, 0]}}}]}  # fmt: skip
        conn.feed(enc({"id": fake.sent[-1]["id"], "result": answers}))
        first, gone, keys = await settled(task)
        assert first == {"object": {"objectId": "a"}} and isinstance(gone, CdpError)
        assert keys == {"result": {"value": [3, 0]}}

    run(main)


# -- found by fuzzing (tests/fuzz) -------------------------------------------------------------


@pytest.mark.parametrize(
    "inner",
    [
        '{"type": "event", "method": "Page.loadEventFired"}',  # no id: it asserted inside feed()
        '{"id": null, "result": {}}',
        '{"id": 999, "result": {}}',  # another request's id
        '{"id": %d, "chunk": 0, "chunks": 1, "data": "{}"}',  # a chunk inside a chunk
    ],
)
def test_reassembled_reply_that_is_not_a_reply_to_the_request_fails_it(inner: str) -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        task = await start(conn, fake, conn.request("tabs"))
        msg_id = fake.sent[-1]["id"]
        text = inner % msg_id if "%d" in inner else inner
        for frame in chunk_frames(msg_id, [text[:7], text[7:]]):
            conn.feed(frame)
        with pytest.raises(CdpError, match="not a reply to this request"):
            await settled(task)

    run(main)


def test_chunk_count_that_changes_midway_fails_the_request_and_drops_the_pieces() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        task = await start(conn, fake, conn.request("tabs"))
        msg_id = fake.sent[-1]["id"]
        conn.feed(enc({"id": msg_id, "chunk": 0, "chunks": 3, "data": '{"id": '}))
        conn.feed(enc({"id": msg_id, "chunk": 1, "chunks": 2, "data": f"{msg_id}}}"}))
        with pytest.raises(CdpError, match="broken pieces"):
            await settled(task)
        assert conn._chunks == {}

    run(main)


def test_many_small_chunks_reassemble_in_linear_time() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        task = await start(conn, fake, conn.request("tabs"))
        msg_id = fake.sent[-1]["id"]
        text = json.dumps({"id": msg_id, "result": {"pad": "p" * 60_000}})
        started = time.monotonic()
        for frame in chunk_frames(msg_id, list(text)):  # ~60,000 one-character chunks
            conn.feed(frame)
        assert (await settled(task, within=5)).id == msg_id
        assert time.monotonic() - started < 5  # summing every piece again per chunk took minutes

    run(main, limit=10)


@pytest.mark.parametrize(
    "error",
    [
        "[" * 5000 + "]" * 5000,  # the error text is JSON nested too deeply to read
        '{"message": "' + "m" * 100_000 + '"}',
        "e" * 100_000,
    ],
)
def test_odd_error_texts_become_a_short_cdp_error(error: str) -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        task = await start(conn, fake, conn.cdp(1, "Page.enable"))
        conn.feed(enc({"id": fake.sent[-1]["id"], "error": error}))
        with pytest.raises(CdpError) as info:
            await settled(task)
        assert len(info.value.message) < 3000

    run(main)


def test_unreadable_deeply_nested_reply_does_not_raise_out_of_feed() -> None:
    conn = ExtensionConnection(FakeExtension().send)
    conn.feed(b'{"id": 1, "error": ' + b"[" * 5000 + b"]" * 5000 + b"}")


@pytest.mark.parametrize(
    "result", [[1, 2], {"results": 5}, {"results": [1, "x"]}, {"results": [{"result": 7}]}]
)
def test_batch_result_of_a_wrong_shape_is_a_cdp_error(result: Any) -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        task = await start(conn, fake, conn.cdp_batch(1, [("DOM.resolveNode", {})]))
        conn.feed(enc({"id": fake.sent[-1]["id"], "result": result}))
        try:
            answers = await settled(task)
        except CdpError as exc:
            assert "unexpected result shape" in exc.message
        else:
            assert len(answers) == 1 and isinstance(answers[0], CdpError)

    run(main)


def test_true_is_not_the_id_1() -> None:
    async def main() -> None:
        fake = FakeExtension()
        conn = ExtensionConnection(fake.send)
        task = await start(conn, fake, conn.request("tabs"))
        assert fake.sent[-1]["id"] == 1
        conn.feed(enc({"id": True, "error": 5}))
        assert not task.done()
        conn.feed(enc({"id": 1, "result": {}}))
        assert (await settled(task)).id == 1

    run(main)
