"""The control socket: a Unix domain socket (0600) serving newline-delimited JSON requests from
any number of local clients. Every request is validated; a bad one gets a structured error and
the connection stays usable.

Work per connection is bounded: a request line is at most MAX_REQUEST_BYTES, and at most
MAX_INFLIGHT requests of one connection run at once; while they do, the server reads no further
line from that connection (the client's writes block), so a client flooding requests holds at
most that many in memory. Every request line gets exactly one response line.

Output per connection is bounded too: an answer is written in WRITE_CHUNK pieces, each of which
must drain to the client within WRITE_STALL_S. A client that does not read is dropped then: its
unsent bytes are thrown away, its requests still running are cancelled (releasing any tab lock
they wait for), and the freed memory goes back to the OS. A slow reader never holds a tab's lock
(an answer is written after its handler returned) nor the event loop (writes only await).

A client that hangs up (a full close: Ctrl-C on the CLI) is owed nothing more: its requests that
only read (methods marked ``abandon``: a snapshot, a screenshot, a wait) are cancelled at once,
freeing the tab for the next client. Its actions run to their end: an action cut half-way (a
mouse button pressed and not released, half a text typed) leaves the page worse than one that
finished unobserved. A client that only half-closed its end still gets every answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import os
import select
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import pydantic
import structlog

from browserx.control.schemas import MAX_REQUEST_BYTES, ControlRequest, Params
from browserx.errors import BadRequest, BrowserxError, UnknownMethod, clip, raised_at
from browserx.framing import not_utf8
from browserx.heap import return_freed_memory
from browserx.relay.session import ANSWERED

log = structlog.get_logger("browserx.control")

Handler = Callable[[Any], Awaitable[Any]]

# Requests of one connection that may run at once; the next line is read when one finishes.
MAX_INFLIGHT = 4
# Seconds a chunk of an answer may wait for its client to read it; then the client is dropped
# and its buffers and in-flight work freed (a reader slower than WRITE_CHUNK per this is dropped).
WRITE_STALL_S = 10.0
# An answer goes to the transport this much at a time: a stalled client's unsent bytes in the
# transport stay under this (plus the transport's high-water mark), not a second copy of the answer.
WRITE_CHUNK = 256 * 1024
# What of a client's input is quoted back in an error message (a method name, a field name).
MAX_QUOTE = 100
# The socket of the client whose request is being handled (its requests run in tasks that copy
# this): a handler that waits on a person (control/person/ask.py) ends when that client has hung up.
CLIENT_SOCKET: contextvars.ContextVar[Any] = contextvars.ContextVar("browserx_client_socket", default=None)


def _enc_hook(obj: Any) -> Any:
    if isinstance(obj, pydantic.BaseModel):
        return obj.model_dump(mode="json", exclude_none=True)
    raise NotImplementedError(f"cannot encode {type(obj).__name__}")


_encoder = msgspec.json.Encoder(enc_hook=_enc_hook)


class ClientStalled(ConnectionError):
    """A client left an answer unread for WRITE_STALL_S: its connection is dropped."""


async def write_bounded(writer: asyncio.StreamWriter, data: bytes) -> None:
    """Write ``data`` a chunk at a time; raise ClientStalled when a chunk does not drain within
    WRITE_STALL_S (the client is not reading)."""
    view = memoryview(data)
    try:
        for start in range(0, len(view), WRITE_CHUNK):
            writer.write(view[start : start + WRITE_CHUNK])
            try:
                await asyncio.wait_for(writer.drain(), WRITE_STALL_S)
            except TimeoutError:
                raise ClientStalled(f"answer not read for {WRITE_STALL_S:g} s") from None
    finally:
        view.release()


def client_hung_up(sock: Any) -> bool:
    """Whether the control client behind ``sock`` closed its end (a full close: POLLHUP; a client
    that only half-closed still waits for its answers)."""
    try:
        fd = sock.fileno()
    except (OSError, ValueError, AttributeError):
        return True
    if fd < 0:
        return True
    poller = select.poll()
    poller.register(fd, 0)
    return any(ev & (select.POLLHUP | select.POLLERR | select.POLLNVAL) for _, ev in poller.poll(0))


class Method:
    """One control method: its params model and handler. ``abandon``: it only reads, so when its
    client hangs up before the answer it is cancelled (else it runs to its end)."""

    def __init__(
        self, params: type[Params], handler: Handler, doc: str = "", *, abandon: bool = False
    ) -> None:
        self.params = params
        self.handler = handler
        self.doc = doc
        self.abandon = abandon


class ControlServer:
    def __init__(self, path: str, methods: dict[str, Method]) -> None:
        self.path = path
        self.methods = methods
        self._server: asyncio.Server | None = None
        self._clients: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        old_umask = os.umask(0o177)  # the socket is born 0600: no window where others could connect
        try:
            self._server = await asyncio.start_unix_server(
                self._serve_client, path=self.path, limit=MAX_REQUEST_BYTES
            )
        finally:
            os.umask(old_umask)
        os.chmod(self.path, 0o600)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._clients):
            task.cancel()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)

    async def _serve_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._clients.add(task)
        CLIENT_SOCKET.set(writer.get_extra_info("socket"))
        write_lock = asyncio.Lock()
        inflight: set[asyncio.Task[None]] = set()
        abandonable: set[asyncio.Task[Any]] = set()  # those of inflight that only read
        slots = asyncio.Semaphore(MAX_INFLIGHT)
        dropped = False

        def drop() -> None:
            """The client does not read: throw its unsent bytes away, end the connection and its
            work (the serving task's cleanup cancels its requests)."""
            nonlocal dropped
            if dropped:
                return
            dropped = True
            log.warning(
                "client_dropped",
                reason="not reading",
                unsent=writer.transport.get_write_buffer_size(),
                inflight=len(inflight),
            )
            writer.transport.abort()
            task.cancel()

        async def send(data: bytes) -> None:
            async with write_lock:
                try:
                    await write_bounded(writer, data)
                except ClientStalled:
                    drop()
                    raise

        async def respond(response: dict[str, Any]) -> None:
            await send(_encoder.encode(response) + b"\n")

        def finished(job: asyncio.Task[None]) -> None:
            inflight.discard(job)
            abandonable.discard(job)
            slots.release()

        try:
            while True:
                # Backpressure: with MAX_INFLIGHT requests running, read nothing more until one ends.
                await slots.acquire()
                started = False
                try:
                    try:
                        line = await reader.readuntil(b"\n")
                    except asyncio.IncompleteReadError as exc:
                        if client_hung_up(writer.get_extra_info("socket")):
                            # Nobody will read the answers: reads stop now, actions finish.
                            if abandonable:
                                log.info("client_gone", cancelled=len(abandonable),
                                         finishing=len(inflight) - len(abandonable))  # fmt: skip
                            for job in abandonable:
                                job.cancel()
                        elif exc.partial.strip():
                            await respond(self._error(None, BadRequest("request must end with a newline")))
                        # A client that half-closed still gets the answers it is owed.
                        await asyncio.gather(*inflight, return_exceptions=True)
                        break
                    except asyncio.LimitOverrunError:
                        await self._discard_line(reader)
                        await respond(
                            self._error(None, BadRequest(f"request longer than {MAX_REQUEST_BYTES} bytes"))
                        )
                        continue
                    if not line.strip():
                        continue
                    job = asyncio.create_task(self._handle_line(line, send, abandonable))
                    del line
                    started = True
                    inflight.add(job)
                    job.add_done_callback(finished)
                finally:
                    if not started:
                        slots.release()
        except (ConnectionError, asyncio.CancelledError):
            pass
        except Exception as exc:  # never expected; the connection goes, the server stays
            log.error("connection_failed", error=clip(repr(exc), 300), where=raised_at(exc))
        finally:
            for job in inflight:
                job.cancel()
            self._clients.discard(task)
            writer.close()
            if dropped:
                # Its requests let go of their results (and of any tab lock) once they end.
                if inflight:
                    await asyncio.wait(list(inflight), timeout=WRITE_STALL_S)
                return_freed_memory()

    @staticmethod
    async def _discard_line(reader: asyncio.StreamReader) -> None:
        while True:
            try:
                await reader.readuntil(b"\n")
                return
            except asyncio.LimitOverrunError as exc:
                await reader.readexactly(exc.consumed)
            except asyncio.IncompleteReadError:
                return

    async def _handle_line(
        self, line: bytes, send: Callable[[bytes], Awaitable[None]], abandonable: set[asyncio.Task[Any]]
    ) -> None:
        answered = asyncio.Event()  # what the request leaves behind starts once this is set
        ANSWERED.set(answered)  # (this task's own context: the request's)
        try:
            request_id, response = await self._dispatch(line, abandonable)
            del line
            try:
                data = _encoder.encode(response) + b"\n"
            except Exception as exc:
                log.error("response_unencodable", id=_loggable(request_id), error=clip(repr(exc), 300))
                data = _encoder.encode(
                    self._error(
                        request_id, BrowserxError(f"internal error: result not encodable: {clip(repr(exc), 300)}")
                    )
                ) + b"\n"  # fmt: skip
            del response  # while the answer is written, only its bytes stay
            with contextlib.suppress(ConnectionError):
                await send(data)
        finally:
            answered.set()

    async def _dispatch(
        self, line: bytes, abandonable: set[asyncio.Task[Any]] | None = None
    ) -> tuple[int | str | None, dict[str, Any]]:
        """The response to one request line (never raises). While a method marked ``abandon``
        runs, the task running it is in ``abandonable``."""
        request_id: int | str | None = None
        try:
            try:
                raw = msgspec.json.decode(line)
            except (msgspec.DecodeError, UnicodeError) as exc:
                # Named by the bytes, not by which msgspec version raised what (framing.not_utf8).
                reason = not_utf8(line)
                if reason is not None:
                    raise BadRequest(f"request is not valid JSON: not UTF-8 text ({reason})") from None
                raise BadRequest(f"request is not valid JSON: {exc}") from None
            except RecursionError:
                log.warning("request_too_deep", size=len(line))
                raise BadRequest(
                    "request is not valid JSON: nested too deeply (keep it under a few hundred levels)"
                ) from None
            if isinstance(raw, dict):
                request_id = _valid_id(raw.get("id"))
            try:
                request = ControlRequest.model_validate(raw)
            except pydantic.ValidationError as exc:
                raise BadRequest(f"malformed request: {_brief(exc)}") from None
            request_id = request.id
            method = self.methods.get(request.method)
            if method is None:
                raise UnknownMethod(
                    f"unknown method {clip(repr(request.method), MAX_QUOTE)}; "
                    f"known: {', '.join(sorted(self.methods))}"
                )
            try:
                params = method.params.model_validate(request.params)
            except pydantic.ValidationError as exc:
                valid = ", ".join(method.params.model_fields) or "none"
                raise BadRequest(
                    f"bad params for {request.method}: {_brief(exc)} (valid params: {valid})"
                ) from None
            task = asyncio.current_task()
            if method.abandon and abandonable is not None and task is not None:
                abandonable.add(task)
            try:
                result = await method.handler(params)
            finally:
                if abandonable is not None and task is not None:
                    abandonable.discard(task)  # answered: nothing left to cancel
            return request_id, {"id": request_id, "ok": True, "result": result}
        except BrowserxError as exc:
            return request_id, self._error(request_id, exc)
        except Exception as exc:
            # A bug in a handler: logged with a bounded traceback (its last frames), not a huge one.
            log.error(
                "handler_crashed",
                id=_loggable(request_id),
                error=clip(repr(exc), 500),
                traceback=clip("".join(traceback.format_exception(exc, limit=-8)), 4000),
            )
            return request_id, self._error(
                request_id, BrowserxError(f"internal error: {clip(repr(exc), 500)}")
            )

    @staticmethod
    def _error(request_id: Any, exc: BrowserxError) -> dict[str, Any]:
        return {"id": request_id, "ok": False, "error": exc.to_dict()}


def _brief(exc: pydantic.ValidationError) -> str:
    parts = []
    for err in exc.errors(include_url=False, include_context=False, include_input=False)[:5]:
        loc = ".".join(clip(str(p), MAX_QUOTE) for p in err["loc"]) or "request"
        parts.append(f"{loc}: {clip(err['msg'], 300)}")
    return "; ".join(parts)


def _valid_id(value: Any) -> int | str | None:
    """The id to echo in the error for a malformed request: only an id of a valid type."""
    return value if isinstance(value, int | str) and not isinstance(value, bool) else None


def _loggable(request_id: int | str | None) -> int | str | None:
    if isinstance(request_id, str):
        return clip(request_id, MAX_QUOTE)
    if isinstance(request_id, int) and abs(request_id) >= 2**63:
        return "<out of range>"
    return request_id
