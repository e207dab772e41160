"""What ``browserx mcp`` does with a line on stdin that is not a valid JSON-RPC message.

The SDK's stdio transport hands such a line to the session as an exception, and the session drops
it without a word: the client waits for an answer that never comes. This filter sits between the
transport and the session and answers as JSON-RPC 2.0 says:

- a line that is not JSON (nesting deeper than the parser's limit included): ``-32700`` Parse error,
  ``id: null``;
- JSON that is not a request, a notification or a response (an array: MCP dropped batching in
  2025-06-18; a string; an object without ``method``): ``-32600`` Invalid Request, ``id: null``;
- a message without an id is a notification: never answered, but one that names a request method
  (``tools/call`` without an id) is logged on stderr, so the person debugging a client sees why
  nothing came back.

The server keeps serving after each of them.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
import mcp_types as types
import pydantic
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared._stream_protocols import ReadStream, WriteStream
from mcp.shared.message import SessionMessage

Item = SessionMessage | Exception

log = logging.getLogger("browserx.mcp")

PARSE_ERROR_MESSAGE = "Parse error: the line is not valid JSON (or nests deeper than 200 levels)"
INVALID_REQUEST_MESSAGE = (
    "Invalid Request: send one JSON-RPC 2.0 object per line with jsonrpc, method and (for a request) id; "
    "batches (JSON arrays) are not supported since MCP 2025-06-18"
)


def error_reply(exc: Exception) -> types.JSONRPCError:
    """The JSON-RPC error for a line the transport could not read as a message."""
    parse = isinstance(exc, pydantic.ValidationError) and any(
        e["type"] == "json_invalid" for e in exc.errors(include_url=False, include_context=False)
    )
    error = (
        types.ErrorData(code=types.PARSE_ERROR, message=PARSE_ERROR_MESSAGE)
        if parse or not isinstance(exc, pydantic.ValidationError)
        else types.ErrorData(code=types.INVALID_REQUEST, message=INVALID_REQUEST_MESSAGE)
    )
    # The id of a message that could not be read is not known: JSON-RPC says null.
    return types.JSONRPCError(jsonrpc="2.0", id=None, error=error)


async def _filter(
    source: ReadStream[Item], sink: MemoryObjectSendStream[Item], replies: WriteStream[SessionMessage]
) -> None:
    async with sink:
        async for item in source:
            if isinstance(item, Exception):
                reply = error_reply(item)
                log.warning("malformed input line: answered %d %s", reply.error.code, reply.error.message)
                try:
                    await replies.send(SessionMessage(reply))
                except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                    return  # the session is over
                continue
            message = item.message
            if isinstance(message, types.JSONRPCNotification) and not message.method.startswith(
                "notifications/"
            ):
                log.warning(
                    "%.100s without an id is a notification: no reply (give the request an id to get one)",
                    message.method,
                )
            try:
                await sink.send(item)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                return


@asynccontextmanager
async def guarded_input(
    read_stream: ReadStream[Item], write_stream: WriteStream[SessionMessage]
) -> AsyncIterator[MemoryObjectReceiveStream[Item]]:
    """The transport's read stream, with malformed lines answered on ``write_stream`` (the
    transport's write stream) instead of reaching the session."""
    sink, filtered = anyio.create_memory_object_stream[Item](0)
    async with anyio.create_task_group() as tg:
        tg.start_soon(_filter, read_stream, sink, write_stream)
        yield filtered
        tg.cancel_scope.cancel()


__all__ = ["error_reply", "guarded_input"]
