"""The control socket: a Unix domain socket (0600) serving newline-delimited JSON requests from
any number of local clients. Every request is validated; a bad one gets a structured error and
the connection stays usable."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import pydantic
import structlog

from browserx.control.schemas import MAX_REQUEST_BYTES, ControlRequest, Params
from browserx.errors import BadRequest, BrowserxError, UnknownMethod

log = structlog.get_logger("browserx.control")

Handler = Callable[[Any], Awaitable[Any]]


def _enc_hook(obj: Any) -> Any:
    if isinstance(obj, pydantic.BaseModel):
        return obj.model_dump(mode="json", exclude_none=True)
    raise NotImplementedError(f"cannot encode {type(obj).__name__}")


_encoder = msgspec.json.Encoder(enc_hook=_enc_hook)


class Method:
    """One control method: its params model and handler."""

    def __init__(self, params: type[Params], handler: Handler, doc: str = "") -> None:
        self.params = params
        self.handler = handler
        self.doc = doc


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
        write_lock = asyncio.Lock()
        inflight: set[asyncio.Task[None]] = set()

        async def respond(response: dict[str, Any]) -> None:
            data = _encoder.encode(response) + b"\n"
            async with write_lock:
                writer.write(data)
                await writer.drain()

        try:
            while True:
                try:
                    line = await reader.readuntil(b"\n")
                except asyncio.IncompleteReadError as exc:
                    if exc.partial.strip():
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
                job = asyncio.create_task(self._handle_line(line, respond))
                inflight.add(job)
                job.add_done_callback(inflight.discard)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            for job in inflight:
                job.cancel()
            self._clients.discard(task)
            writer.close()

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

    async def _handle_line(self, line: bytes, respond: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        request_id: Any = None
        try:
            try:
                raw = msgspec.json.decode(line)
            except (msgspec.DecodeError, UnicodeDecodeError) as exc:
                raise BadRequest(f"request is not valid JSON: {exc}") from exc
            if isinstance(raw, dict):
                request_id = raw.get("id")
            try:
                request = ControlRequest.model_validate(raw)
            except pydantic.ValidationError as exc:
                raise BadRequest(f"malformed request: {_brief(exc)}") from exc
            request_id = request.id
            method = self.methods.get(request.method)
            if method is None:
                raise UnknownMethod(
                    f"unknown method {request.method!r}; known: {', '.join(sorted(self.methods))}"
                )
            try:
                params = method.params.model_validate(request.params)
            except pydantic.ValidationError as exc:
                valid = ", ".join(method.params.model_fields) or "none"
                raise BadRequest(
                    f"bad params for {request.method}: {_brief(exc)} (valid params: {valid})"
                ) from exc
            result = await method.handler(params)
            response = {"id": request_id, "ok": True, "result": result}
        except BrowserxError as exc:
            response = self._error(request_id, exc)
        except Exception as exc:
            log.exception("handler_crashed")
            response = self._error(request_id, BrowserxError(f"internal error: {exc!r}"))
        try:
            await respond(response)
        except ConnectionError:
            pass
        except Exception as exc:
            log.exception("response_unencodable")
            await respond(
                self._error(request_id, BrowserxError(f"internal error: result not encodable: {exc!r}"))
            )

    @staticmethod
    def _error(request_id: Any, exc: BrowserxError) -> dict[str, Any]:
        return {"id": request_id, "ok": False, "error": exc.to_dict()}


def _brief(exc: pydantic.ValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err["loc"]) or "request"
        parts.append(f"{loc}: {err['msg']}")
    return "; ".join(parts)
