"""Fuzzing the native-messaging framing (host/browserx/framing.py): whatever bytes arrive on
stdin, and however the pipe splits them, read_frames yields exactly the frames a reference reader
finds, or the framing error, and ends; decode_body returns a message or raises FramingError."""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from browserx.errors import FramingError
from browserx.framing import MAX_OUTBOUND, decode_body, encode_frame, read_frames
from browserx.relay.protocol import Inbound
from tests.fuzz import strategies as fs
from tests.fuzz.harness import LOGS as logs
from tests.fuzz.harness import assert_logs_small_since, case, examples, new_loop, run

HEADER = struct.Struct("<I")


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = new_loop()
    yield loop
    loop.close()


def reference(data: bytes, max_size: int) -> list[bytes | str]:
    """What read_frames must yield for the whole stream ``data``: bodies, and error kinds."""
    out: list[bytes | str] = []
    pos = 0
    while pos < len(data):
        if len(data) - pos < HEADER.size:
            out.append("header")
            break
        (length,) = HEADER.unpack_from(data, pos)
        pos += HEADER.size
        if length > max_size:
            out.append("exceeds")
            if len(data) - pos < length:
                out.append("oversized")
                break
            pos += length
            continue
        if len(data) - pos < length:
            out.append("inside")
            break
        out.append(data[pos : pos + length])
        pos += length
    return out


def kind_of(error: FramingError) -> str:
    text = str(error)
    for needle, kind in [
        ("inside a frame header", "header"),
        ("exceeds the", "exceeds"),
        ("inside an oversized frame", "oversized"),
        ("inside a frame (", "inside"),
    ]:
        if needle in text:
            return kind
    raise AssertionError(f"unexpected framing error text: {text}")


async def read_stream(pieces: list[bytes], max_size: int, trickle: bool) -> list[bytes | str]:
    reader = asyncio.StreamReader()

    async def feed() -> None:
        for piece in pieces:
            reader.feed_data(piece)
            if trickle:
                await asyncio.sleep(0)
        reader.feed_eof()

    feeder = asyncio.ensure_future(feed())
    out: list[bytes | str] = []
    async for item in read_frames(reader, max_size=max_size):
        if isinstance(item, FramingError):
            assert item.code == "bad_frame"
            out.append(kind_of(item))
        else:
            assert isinstance(item, bytes)
            out.append(item)
    await feeder
    return out


# -- what arrives on stdin --------------------------------------------------------------------


@st.composite
def frame_streams(draw: st.DrawFn) -> tuple[bytes, int]:
    """A stream of frames: good ones, garbage bodies, garbage or oversized length prefixes, and
    maybe a cut-off end; with the reader's size limit."""
    max_size = draw(st.sampled_from([0, 1, 16, 100, 4096, 65536]))
    parts: list[bytes] = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["good", "garbage", "oversized", "prefix", "empty"]))
        if kind == "good":
            body = fs.dumps(draw(fs.json_values)).encode()
            parts.append(HEADER.pack(len(body)) + body)
        elif kind == "garbage":
            body = draw(fs.garbage_bytes())
            parts.append(HEADER.pack(len(body)) + body)
        elif kind == "oversized":
            length = max_size + draw(st.integers(1, 3000))
            parts.append(HEADER.pack(length) + b"z" * length)
        elif kind == "prefix":  # a length prefix that lies: claims more or less than follows
            body = draw(st.binary(max_size=64))
            length = draw(st.one_of(st.integers(0, 2**32 - 1), st.sampled_from([2**32 - 1, 2**31, 0])))
            parts.append(HEADER.pack(length) + body)
        else:
            parts.append(HEADER.pack(0))
    data = b"".join(parts)
    if draw(st.booleans()):
        data = data[: draw(st.integers(0, len(data)))]  # the browser died mid-write
    if draw(st.booleans()):
        data += draw(st.binary(max_size=40))  # trailing noise
    return data, max_size


@given(stream=frame_streams(), split=st.data(), trickle=st.booleans())
@examples(ci=300, full=25_000)
def test_read_frames_yields_the_frames_or_the_framing_error_and_ends(
    loop: asyncio.AbstractEventLoop, stream: tuple[bytes, int], split: st.DataObject, trickle: bool
) -> None:
    data, max_size = stream
    pieces = split.draw(fs.chunkings(data))
    with case("framing.read_frames"):
        got = run(loop, read_stream(pieces, max_size, trickle), limit=10)
        assert got == reference(data, max_size)


@given(
    body=st.one_of(
        fs.garbage_bytes(), fs.deep_json.map(lambda s: fs.Blob(s.encode())), st.binary(max_size=300)
    )
)
@examples(ci=300, full=50_000)
def test_decode_body_returns_a_message_or_raises_the_framing_error(body: bytes) -> None:
    mark = logs.mark()
    with case("framing.decode_body"):
        for candidate in (body, body.decode("utf-8", "surrogateescape")):
            try:
                msg = decode_body(candidate, Inbound)
            except FramingError as exc:
                assert exc.code == "bad_frame"
                assert len(exc.message) < 2000
            else:
                assert isinstance(msg, Inbound)
        assert_logs_small_since(mark)


@given(
    message=st.one_of(
        st.dictionaries(st.text(max_size=10), fs.json_values, max_size=6),
        st.builds(lambda s: {"data": s}, fs.huge_strings),
    ),
    split=st.data(),
)
@examples(ci=150, full=8_000)
def test_encoded_frames_read_back_equal_or_are_refused(
    loop: asyncio.AbstractEventLoop, message: dict[str, Any], split: st.DataObject
) -> None:
    """Host → browser: a frame is either under 1 MiB and reads back as the same message, or
    refused with the framing error before anything is written."""
    message = fs.plain(message)
    with case("framing.encode_frame"):
        try:
            frame = encode_frame(message)
        except FramingError as exc:
            assert "1 MiB" in exc.message
            assert len(msgspec.json.encode(message)) + 4 >= MAX_OUTBOUND
            return
        assert len(frame) < MAX_OUTBOUND
        pieces = split.draw(fs.chunkings(frame))
        got = run(loop, read_stream(pieces, MAX_OUTBOUND, False), limit=10)
        assert len(got) == 1 and isinstance(got[0], bytes)
        assert msgspec.json.decode(got[0]) == msgspec.json.decode(msgspec.json.encode(message))
