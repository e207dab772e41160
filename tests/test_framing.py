"""Native-messaging framing: 4-byte little-endian length + UTF-8 JSON."""

from __future__ import annotations

import asyncio
import json
import struct
import tracemalloc
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from browserx.errors import FramingError
from browserx.framing import MAX_INBOUND, MAX_OUTBOUND, FrameWriter, decode_body, encode_frame, read_frames
from browserx.relay.protocol import Inbound

MiB = 1024 * 1024


def frame(body: bytes) -> bytes:
    return struct.pack("<I", len(body)) + body


def read_all(
    chunks: Sequence[bytes], max_size: int = MAX_INBOUND, trickle: bool = False
) -> list[bytes | FramingError]:
    """Feed ``chunks`` into a StreamReader (all up front, or one at a time while the reader
    waits when ``trickle``), then EOF; return everything read_frames yields."""

    async def main() -> list[bytes | FramingError]:
        reader = asyncio.StreamReader()

        async def feeder() -> None:
            for chunk in chunks:
                reader.feed_data(chunk)
                if trickle:
                    await asyncio.sleep(0)
            reader.feed_eof()

        feed_task = asyncio.create_task(feeder())
        if not trickle:
            await feed_task
        out = [item async for item in read_frames(reader, max_size=max_size)]
        await feed_task
        return out

    return asyncio.run(asyncio.wait_for(main(), 5))


def bodies(items: list[bytes | FramingError]) -> list[bytes]:
    return [i for i in items if isinstance(i, bytes)]


def errors_in(items: list[bytes | FramingError]) -> list[str]:
    return [str(i) for i in items if isinstance(i, FramingError)]


# -- encode_frame ---------------------------------------------------------------------------


def test_encode_frame_layout() -> None:
    data = encode_frame({"id": 1, "type": "ping"})
    (length,) = struct.unpack("<I", data[:4])
    assert length == len(data) - 4
    assert json.loads(data[4:]) == {"id": 1, "type": "ping"}


def test_encode_frame_length_is_little_endian_bytes_not_chars() -> None:
    data = encode_frame({"t": "é€😀"})
    body = data[4:]
    assert data[:4] == len(body).to_bytes(4, "little")
    assert json.loads(body.decode("utf-8")) == {"t": "é€😀"}


def test_encode_frame_just_under_the_limit_is_fine() -> None:
    message = {"data": "x" * (MAX_OUTBOUND - 4 - 1 - 11)}
    data = encode_frame(message)
    assert len(data) == MAX_OUTBOUND - 1


# Sizes of the JSON body; a body of MAX_OUTBOUND - 4 makes a frame of exactly 1 MiB.
@pytest.mark.parametrize("size", [MAX_OUTBOUND - 4, MAX_OUTBOUND, 2 * MAX_OUTBOUND])
def test_encode_frame_refuses_a_message_of_1_mib_or_more(size: int) -> None:
    # {"data":"..."} adds 11 bytes around the string.
    message = {"data": "x" * (size - 11)}
    assert len(msgspec.json.encode(message)) == size
    with pytest.raises(FramingError) as info:
        encode_frame(message)
    assert "1 MiB" in str(info.value)
    assert info.value.code == "bad_frame"


def test_max_outbound_is_one_mib() -> None:
    assert MiB == MAX_OUTBOUND
    assert 64 * MiB == MAX_INBOUND


# -- read_frames -----------------------------------------------------------------------------


def test_reads_good_frames() -> None:
    items = read_all([frame(b'{"a":1}'), frame(b'{"b":2}')])
    assert items == [b'{"a":1}', b'{"b":2}']


def test_several_frames_in_one_chunk() -> None:
    blob = b"".join(frame(b'{"n":%d}' % i) for i in range(5))
    items = read_all([blob])
    assert items == [b'{"n":%d}' % i for i in range(5)]


def test_one_frame_split_across_many_chunks() -> None:
    body = json.dumps({"text": "é€😀" * 50}, ensure_ascii=False).encode()
    data = frame(body) + frame(b"{}")
    chunks = [data[i : i + 1] for i in range(len(data))]  # one byte at a time, header included
    items = read_all(chunks, trickle=True)
    assert items == [body, b"{}"]


def test_empty_body_frame_is_delivered() -> None:
    assert read_all([frame(b""), frame(b"{}")]) == [b"", b"{}"]


def test_clean_eof_ends_without_error() -> None:
    assert read_all([frame(b"{}")]) == [b"{}"]
    assert read_all([]) == []


def test_oversized_frame_is_reported_skipped_and_the_next_frame_delivered() -> None:
    big = b"x" * 1000
    items = read_all([frame(b'{"before":1}') + frame(big) + frame(b'{"after":1}')], max_size=100)
    assert items[0] == b'{"before":1}'
    assert isinstance(items[1], FramingError)
    assert "1000 bytes exceeds the 100-byte limit" in str(items[1])
    assert items[2:] == [b'{"after":1}']


def test_oversized_frame_arriving_in_pieces_is_skipped() -> None:
    data = frame(b"y" * 5000) + frame(b'{"ok":true}')
    chunks = [data[i : i + 333] for i in range(0, len(data), 333)]
    items = read_all(chunks, max_size=64, trickle=True)
    assert len(errors_in(items)) == 1
    assert bodies(items) == [b'{"ok":true}']


def test_frame_exactly_at_the_limit_is_accepted() -> None:
    body = b"z" * 100
    assert read_all([frame(body)], max_size=100) == [body]


def test_huge_claimed_length_over_the_limit_is_not_allocated() -> None:
    header = struct.pack("<I", 0xFFFFFFFF)
    tracemalloc.start()
    try:
        items = read_all([header + b"abc"], max_size=1024)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * MiB
    errs = errors_in(items)
    assert bodies(items) == []
    assert len(errs) == 2
    assert "exceeds" in errs[0]
    assert "stream ended inside an oversized frame" in errs[1]


def test_huge_claimed_length_within_the_limit_is_not_allocated() -> None:
    header = struct.pack("<I", MAX_INBOUND)  # 64 MiB claimed, 10 bytes sent
    tracemalloc.start()
    try:
        items = read_all([header + b"0123456789"])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * MiB
    assert len(items) == 1
    assert isinstance(items[0], FramingError)
    assert f"10 of {MAX_INBOUND} bytes" in str(items[0])


def test_truncated_header_is_an_error_then_end() -> None:
    items = read_all([frame(b"{}") + b"\x05\x00"])
    assert items[0] == b"{}"
    assert len(items) == 2
    assert isinstance(items[1], FramingError)
    assert "header (2 of 4 bytes)" in str(items[1])


def test_truncated_body_is_an_error_then_end() -> None:
    items = read_all([struct.pack("<I", 10) + b"abc"])
    assert len(items) == 1
    assert isinstance(items[0], FramingError)
    assert "3 of 10 bytes" in str(items[0])


# -- decode_body -----------------------------------------------------------------------------


def test_decode_body_ok_bytes_and_str() -> None:
    assert decode_body(b'{"id": 4, "result": {"x": 1}}', Inbound).id == 4
    assert decode_body('{"type": "hello", "version": "1"}', Inbound).version == "1"


@pytest.mark.parametrize(
    "body",
    [
        b'{"error": "bad \xff byte"}',  # a byte no UTF-8 sequence starts with
        b'{"error": "cut \xe2\x82"}',  # a sequence cut short
        b'{"error": "\xed\xa0\x80"}',  # an encoded surrogate
        b'{"error": "overlong \xc0\xaf"}',
        '{"error": "lone \ud800 surrogate"}',  # a str with no UTF-8 form
    ],
)
def test_decode_body_invalid_utf8(body: bytes | str) -> None:
    with pytest.raises(FramingError, match="not valid UTF-8"):
        decode_body(body, Inbound)


# How each supported msgspec range reports bytes that are not UTF-8 (the lock holds one of them;
# `make test-latest` runs the newest): the frame is named by its bytes, whichever error is raised.
_MSGSPEC_UTF8_ERRORS = {
    "msgspec<0.23": UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"),
    "msgspec>=0.23": msgspec.DecodeError("Invalid UTF-8 encoded string"),
}


@pytest.mark.parametrize("version", sorted(_MSGSPEC_UTF8_ERRORS))
def test_invalid_utf8_is_named_so_whichever_error_msgspec_raises(
    version: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def decode(body: bytes | str, type: object = None) -> object:
        raise _MSGSPEC_UTF8_ERRORS[version]

    monkeypatch.setattr(msgspec.json, "decode", decode)
    with pytest.raises(FramingError, match="not valid UTF-8"):
        decode_body(b'{"error": "bad \xff byte"}', Inbound)
    # The same error over bytes that are UTF-8 is about the JSON, not the encoding.
    with pytest.raises(FramingError, match="not valid JSON"):
        decode_body(b'{"error": "fine"}', Inbound)


@pytest.mark.parametrize("body", [b"{", b"{'a': 1}", b"not json", b'{"a": 1} trailing', b""])
def test_decode_body_invalid_json(body: bytes) -> None:
    with pytest.raises(FramingError, match="not valid JSON"):
        decode_body(body, Inbound)


@pytest.mark.parametrize("body", [b"[1, 2]", b"42", b'"text"', b"null", b"true"])
def test_decode_body_non_object(body: bytes) -> None:
    with pytest.raises(FramingError, match="must hold a message object") as info:
        decode_body(body, Inbound)
    assert info.value.code == "bad_frame"


def test_decode_body_wrong_field_type_is_a_framing_error() -> None:
    with pytest.raises(FramingError, match="must hold a message object"):
        decode_body(b'{"id": "one"}', Inbound)


# -- FrameWriter -----------------------------------------------------------------------------


class _Transport:
    def __init__(self) -> None:
        self.buffered = 0

    def get_write_buffer_size(self) -> int:
        return self.buffered


class _RecordingWriter:
    def __init__(self) -> None:
        self.data = bytearray()
        self.drains = 0
        self.closed = False
        self.transport = _Transport()

    def write(self, data: bytes) -> None:
        self.data += data

    async def drain(self) -> None:
        self.drains += 1
        await asyncio.sleep(0)

    def close(self) -> None:
        self.closed = True


def test_frame_writer_serialises_whole_frames() -> None:
    async def main() -> _RecordingWriter:
        raw = _RecordingWriter()
        writer = FrameWriter(raw)  # type: ignore[arg-type]
        await asyncio.gather(*(writer.send({"id": i, "pad": "p" * i}) for i in range(20)))
        with pytest.raises(FramingError):
            await writer.send({"data": "x" * MAX_OUTBOUND})
        writer.close()
        return raw

    raw = asyncio.run(main())
    assert raw.closed
    assert raw.drains == 20
    items = read_all([bytes(raw.data)])
    assert sorted(json.loads(b)["id"] for b in bodies(items)) == list(range(20))
    assert errors_in(items) == []


def test_frame_writer_says_whether_the_frame_left_the_process() -> None:
    async def main() -> tuple[bool, bool]:
        raw = _RecordingWriter()
        writer = FrameWriter(raw)  # type: ignore[arg-type]
        left = await writer.send({"id": 1})
        raw.transport.buffered = 7  # the pipe is full: the rest waits in the transport
        return left, await writer.send({"id": 2})

    assert asyncio.run(main()) == (True, False)


# -- found by fuzzing (tests/fuzz) -----------------------------------------------------------


@pytest.mark.parametrize(
    "body", [b'{"a":' * 5000 + b"1" + b"}" * 5000, b'{"id": 1, "result": ' + b"[" * 5000 + b"]" * 5000 + b"}"]
)
def test_decode_body_of_deeply_nested_json_is_a_framing_error(body: bytes) -> None:
    """msgspec raises RecursionError past ~1000 levels; it escaped feed() and ended the host."""
    with pytest.raises(FramingError, match="nests JSON too deeply"):
        decode_body(body, Inbound)


def test_encode_frame_of_a_too_deeply_nested_message_is_a_framing_error() -> None:
    message: Any = []
    for _ in range(5000):
        message = [message]
    with pytest.raises(FramingError, match="nests JSON too deeply"):
        encode_frame({"params": message})
