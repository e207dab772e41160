"""Native-messaging frames: a 4-byte little-endian length, then that many bytes of UTF-8 JSON.

Browser → host frames may be up to 64 MiB; host → browser frames must stay under 1 MiB, or the
browser drops the connection. Nothing here allocates a claimed length up front: bytes are only
buffered as they really arrive, and an oversized frame is skipped in bounded chunks.
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import AsyncIterator
from typing import Any, TypeVar

import msgspec

from browserx.errors import FramingError

MAX_INBOUND = 64 * 1024 * 1024
MAX_OUTBOUND = 1024 * 1024
_HEADER = struct.Struct("<I")
_SKIP_CHUNK = 1024 * 1024

_encoder = msgspec.json.Encoder()
T = TypeVar("T")


def encode_frame(message: Any) -> bytes:
    """Encode one host → browser frame; refuses anything the browser would reject."""
    try:
        body = _encoder.encode(message)
    except RecursionError:
        raise FramingError("outbound message nests JSON too deeply to encode; send a flatter one") from None
    if _HEADER.size + len(body) >= MAX_OUTBOUND:
        raise FramingError(
            f"outbound message of {len(body)} bytes exceeds the browser's 1 MiB limit; send smaller commands"
        )
    return _HEADER.pack(len(body)) + body


def not_utf8(body: bytes | str) -> str | None:
    """Why ``body`` is not UTF-8 text (a str with lone surrogates has no UTF-8 form), or None."""
    try:
        if isinstance(body, str):
            body.encode("utf-8")
        else:
            body.decode("utf-8")
    except UnicodeError as exc:
        return str(exc)
    return None


def decode_body(body: bytes | str, type: type[T]) -> T:
    """Decode a frame body that must hold one JSON object of the given shape."""
    try:
        return msgspec.json.decode(body, type=type)
    except msgspec.ValidationError as exc:
        raise FramingError(f"frame must hold a message object: {exc}") from exc
    except (msgspec.DecodeError, UnicodeError) as exc:
        # msgspec < 0.23 raised UnicodeError for bytes that are not UTF-8, 0.23 a DecodeError: the
        # bytes decide what the frame is told, whichever version reads them (only on this error path).
        reason = not_utf8(body)
        if reason is not None:
            raise FramingError(f"frame is not valid UTF-8: {reason}") from exc
        raise FramingError(f"frame is not valid JSON: {exc}") from exc
    except RecursionError:
        # msgspec refuses JSON nested deeper than the interpreter's recursion limit (~1000).
        raise FramingError("frame nests JSON too deeply") from None


async def read_frames(
    reader: asyncio.StreamReader, max_size: int = MAX_INBOUND
) -> AsyncIterator[bytes | FramingError]:
    """Yield each inbound frame body, or a FramingError for a frame that was bad but skippable.

    Ends when the stream closes (the browser is gone). A frame cut short by the end of the
    stream is yielded as a FramingError before ending.
    """
    while True:
        try:
            header = await reader.readexactly(_HEADER.size)
        except asyncio.IncompleteReadError as exc:
            if exc.partial:
                yield FramingError(f"stream ended inside a frame header ({len(exc.partial)} of 4 bytes)")
            return
        (length,) = _HEADER.unpack(header)
        if length > max_size:
            yield FramingError(f"frame of {length} bytes exceeds the {max_size}-byte limit; skipped")
            if not await _skip(reader, length):
                yield FramingError("stream ended inside an oversized frame")
                return
            continue
        try:
            body = await reader.readexactly(length)
        except asyncio.IncompleteReadError as exc:
            yield FramingError(f"stream ended inside a frame ({len(exc.partial)} of {length} bytes)")
            return
        yield body


async def _skip(reader: asyncio.StreamReader, length: int) -> bool:
    remaining = length
    while remaining:
        chunk = await reader.read(min(remaining, _SKIP_CHUNK))
        if not chunk:
            return False
        remaining -= len(chunk)
    return True


class FrameWriter:
    """Serialises framed writes onto one byte stream (the host's stdout)."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer
        self._lock = asyncio.Lock()

    async def send(self, message: Any) -> bool:
        """Write one frame; whether it has left this process (none of it waits in the transport's
        buffer: a host that dies now loses none of it)."""
        frame = encode_frame(message)
        async with self._lock:
            self._writer.write(frame)
            await self._writer.drain()
            return self._writer.transport.get_write_buffer_size() == 0

    def close(self) -> None:
        self._writer.close()
