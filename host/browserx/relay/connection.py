"""The host's end of the relay: send a request to the service worker, await its reply by id,
and hand notices (CDP events, detaches, tab lifecycle) to whoever subscribed."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

import msgspec
import structlog

from browserx.errors import (
    BrowserxError,
    CdpError,
    CdpTimeout,
    DebuggerDetached,
    ExtensionDisconnected,
    FrameGone,
    FramingError,
    MethodNotAllowed,
    SiteBlocked,
    StoppedByUser,
    TabClosed,
    TabNotShared,
    clip,
    raised_at,
)
from browserx.framing import decode_body
from browserx.relay.protocol import (
    MAX_ARGS_FROM,
    ArgsFrom,
    Gate,
    Inbound,
    allowed,
)

log = structlog.get_logger("browserx.relay")

T = TypeVar("T")
# Writes one message; True when it has left this process (none of it waits in a buffer here).
Send = Callable[[dict[str, Any]], Awaitable[bool | None]]
NoticeHandler = Callable[[Inbound], None]

DEFAULT_TIMEOUT = 30.0
# A chunked reply beyond these bounds means the worker is misbehaving: it is abandoned.
MAX_CHUNKS = 100_000
MAX_REASSEMBLED_CHARS = 512 * 1024 * 1024
# Chrome's error texts are one line; a longer one is cut before it reaches an agent or a log.
MAX_ERROR_TEXT = 2000


def map_relay_error(text: str, method: str, tab_id: int | None) -> BrowserxError:
    """Turn the worker's error text (Chrome's wording) into our error tree."""
    text = clip(text, MAX_ERROR_TEXT)
    lower = text.lower()
    where = f" (tab {tab_id})" if tab_id is not None else ""
    # The service worker's own refusals under the person's controls (extension/controls.js).
    for code, cls in (("stopped_by_user", StoppedByUser), ("site_blocked", SiteBlocked),
                      ("tab_not_shared", TabNotShared)):  # fmt: skip
        if lower.startswith(code + ":"):
            return cls(text[len(code) + 1 :].strip(), tab=tab_id)
    if "method not allowed" in lower:
        return MethodNotAllowed(f"CDP method {method} is not allowed by the extension", method=method)
    if "no tab with" in lower or "no target with given id" in lower or "target closed" in lower:
        return TabClosed(f"The tab{where} is closed; list tabs again and pick another.", tab=tab_id)
    if "debugger is not attached" in lower or "detached while handling command" in lower:
        return DebuggerDetached(
            f"The debugger is not attached to the tab{where} (detached or the user cancelled the "
            "debugging banner); the next request re-attaches.",
            tab=tab_id,
        )
    if "session with given id not found" in lower:
        return FrameGone(
            f"The frame is gone (its CDP session ended) while running {method}; take a new snapshot.",
            method=method,
            tab=tab_id,
        )
    return CdpError(f"CDP error ({method}): {_cdp_message(text)}", method=method, tab=tab_id)


def decode_result(raw: msgspec.Raw | bytes, method: str, result_type: type[T]) -> T:
    """A CDP command's result decoded straight into ``result_type`` (relay/cdp_types.py); a result
    of another shape (which Chrome never sends) is a CdpError."""
    try:
        return msgspec.json.decode(raw, type=result_type)
    except msgspec.DecodeError as exc:  # ValidationError included
        raise CdpError(f"CDP error ({method}): unexpected result shape: {exc}") from None
    except RecursionError:
        raise CdpError(f"CDP error ({method}): result nests JSON too deeply") from None


def _cdp_message(text: str) -> str:
    """Chrome reports CDP errors as JSON text ({code, message, data}); keep the readable parts."""
    try:
        data = msgspec.json.decode(text)
    except (msgspec.DecodeError, UnicodeError, RecursionError):
        return text
    if not isinstance(data, dict) or "message" not in data:
        return text
    return clip(
        f"{data['message']}: {data['data']}" if data.get("data") else str(data["message"]), MAX_ERROR_TEXT
    )


def _loggable_id(msg_id: Any) -> Any:
    """An id for a log line: a message id the host never made can be thousands of digits long."""
    return msg_id if isinstance(msg_id, int) and abs(msg_id) < 2**63 else "<out of range>"


class ExtensionConnection:
    """Request/reply bookkeeping over the native-messaging pipe. Transport-agnostic: it is given
    a ``send`` coroutine and fed inbound frame bodies with :meth:`feed`."""

    def __init__(self, send: Send, default_timeout: float = DEFAULT_TIMEOUT) -> None:
        self._send = send
        self._ids = itertools.count(1)
        self._pending: dict[int, tuple[asyncio.Future[Inbound], str, int | None]] = {}
        # Reassembly of chunked replies: the pieces so far, how many were announced, their size.
        self._chunks: dict[int, list[str]] = {}
        self._chunk_plan: dict[int, tuple[int, int]] = {}
        self._handlers: list[NoticeHandler] = []
        self.default_timeout = default_timeout
        self.hello: Inbound | None = None
        self.greeted = asyncio.Event()  # set by the extension's hello (host.py waits for it)
        self.closed = False

    def on_notice(self, handler: NoticeHandler) -> None:
        self._handlers.append(handler)

    # -- outbound -------------------------------------------------------------------------

    async def request(self, type: str, timeout: float | None = None, **fields: Any) -> Inbound:
        """Send one request and wait for its reply; raises our errors on failure."""
        msg_id, future, what, _ = await self._written(type, fields)
        return await self._reply(msg_id, future, what, fields.get("tabId"), timeout)

    async def post(self, type: str, timeout: float | None = None, **fields: Any) -> asyncio.Task[Inbound]:
        """Send one request without waiting for its reply: once this returns, the frame has left
        this process (it reaches the extension even if this host dies next; when the pipe is
        backed up, that takes its reply). The task is ``request``'s wait for the reply; whoever
        does not await it must retrieve its outcome."""
        msg_id, future, what, written = await self._written(type, fields)
        reply = asyncio.ensure_future(self._reply(msg_id, future, what, fields.get("tabId"), timeout))
        if written is False:
            await asyncio.wait({reply})  # still in the host's buffer: only the answer proves it arrived
        return reply

    async def _written(
        self, type: str, fields: dict[str, Any]
    ) -> tuple[int, asyncio.Future[Inbound], str, bool | None]:
        if self.closed:
            raise ExtensionDisconnected("The browser extension is gone; restart the browser.")
        msg_id = next(self._ids)
        what = str(fields.get("method") or type)
        future: asyncio.Future[Inbound] = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = (future, what, fields.get("tabId"))
        try:
            written = await self._send({"id": msg_id, "type": type, **fields})
        except BaseException:
            self._forget(msg_id)
            raise
        return msg_id, future, what, written

    async def _reply(
        self, msg_id: int, future: asyncio.Future[Inbound], what: str, tab_id: Any, timeout: float | None
    ) -> Inbound:
        try:
            reply = await asyncio.wait_for(future, timeout or self.default_timeout)
        except TimeoutError:
            raise CdpTimeout(
                f"{what} got no answer within {timeout or self.default_timeout:g} s; the page may "
                "be busy. Retry, or reload the tab.",
                method=what,
            ) from None
        finally:
            self._forget(msg_id)
        if reply.error is not None:
            raise map_relay_error(reply.error, what, tab_id)
        return reply

    def _forget(self, msg_id: int) -> None:
        self._pending.pop(msg_id, None)
        self._chunks.pop(msg_id, None)
        self._chunk_plan.pop(msg_id, None)

    async def cdp(
        self,
        tab_id: int,
        method: str,
        params: dict[str, Any] | None = None,
        session_id: str | None = None,
        timeout: float | None = None,
        *,
        result_type: type[Any] = dict,
        keep: dict[str, Any] | None = None,
    ) -> Any:
        """Run one CDP command in a tab (or one of its child sessions) and decode the result.
        ``keep`` asks the extension to send only part of a large result (extension/cdp.js:
        project): ``{"list": key, "fields": [...], "where": {"field": f, "values": [...]}}``."""
        if not allowed(method):
            raise MethodNotAllowed(f"CDP method {method} is not on browserx's allowlist", method=method)
        fields: dict[str, Any] = {"tabId": tab_id, "method": method, "params": params or {}}
        if session_id:
            fields["sessionId"] = session_id
        if keep is not None:
            fields["keep"] = keep
        reply = await self.request("cdp", timeout=timeout, **fields)
        return decode_result(reply.result or msgspec.Raw(b"{}"), method, result_type)

    async def cdp_batch(
        self,
        tab_id: int,
        commands: list[tuple[str, dict[str, Any]]],
        session_id: str | None = None,
        timeout: float | None = None,
        *,
        result_type: type[Any] = dict,
        gates: Mapping[int, Gate] | None = None,
        args: Mapping[int, ArgsFrom] | None = None,
    ) -> list[Any]:
        """Run many commands in one round trip (the worker issues them in order, without waiting
        between them: input events are handled in that order), those in ``gates`` (by index) only
        once the command they wait for said go, those in ``args`` once the commands they take
        arguments from answered.
        Each entry of the answer is that command's result (as ``result_type``), or its error."""
        for method, _ in commands:
            if not allowed(method):
                raise MethodNotAllowed(f"CDP method {method} is not on browserx's allowlist", method=method)
        sent: list[dict[str, Any]] = [{"method": m, "params": p} for m, p in commands]
        for index, gate in (gates or {}).items():
            if not 0 <= gate.after < index < len(sent):
                raise ValueError(f"batch command {index} cannot wait for command {gate.after}")
            sent[index]["after"] = gate.after
            sent[index]["when"] = list(gate.when)
        for index, taken in (args or {}).items():
            if (
                not all(0 <= j < index < len(sent) for j in taken.of)
                or len(taken.of) > MAX_ARGS_FROM
                or "after" in sent[index]
            ):
                raise ValueError(f"batch command {index} cannot take arguments from {taken.of}")
            sent[index]["args"] = {"from": list(taken.of), "path": list(taken.path)}
        fields: dict[str, Any] = {"tabId": tab_id, "commands": sent}
        if session_id:
            fields["sessionId"] = session_id
        reply = await self.request("batch", timeout=timeout, **fields)
        try:
            answers = msgspec.json.decode(reply.result or b"{}", type=_BatchResult).results
        except msgspec.DecodeError as exc:  # ValidationError included
            raise CdpError(f"CDP error (batch): unexpected result shape: {exc}") from None
        except RecursionError:
            raise CdpError("CDP error (batch): result nests JSON too deeply") from None
        out: list[Any] = []
        for (method, _), answer in zip(commands, answers, strict=False):
            if "error" in answer:
                out.append(map_relay_error(str(answer["error"]), method, tab_id))
                continue
            result = answer.get("result") or {}
            if not isinstance(result, dict):
                out.append(CdpError(f"CDP error ({method}): unexpected result shape: not an object"))
            elif result_type is dict:
                out.append(result)
            else:
                try:
                    out.append(msgspec.convert(result, result_type))
                except msgspec.ValidationError as exc:
                    out.append(CdpError(f"CDP error ({method}): unexpected result shape: {exc}"))
        while len(out) < len(commands):
            out.append(CdpError("the extension answered fewer commands than were sent"))
        return out

    # -- inbound --------------------------------------------------------------------------

    def feed(self, body: bytes | str) -> None:
        """Handle one inbound frame body. Bad input is logged and dropped, never raised."""
        try:
            msg = decode_body(body, Inbound)
        except FramingError as exc:
            log.error("bad_frame", error=str(exc))
            self._fail_from_unreadable(body, exc)
            return
        if msg.chunk is not None:
            self._feed_chunk(msg)
        elif msg.is_reply:
            self._resolve(msg)
        elif msg.type == "hello":
            self.hello = msg
            self.greeted.set()
            log.info(
                "extension_hello",
                version=clip(str(msg.version), 100),
                user_agent=clip(str(msg.userAgent), 300),
            )
        else:
            for handler in list(self._handlers):
                try:
                    handler(msg)
                except BrowserxError as exc:  # a notice of a shape Chrome never sends
                    log.warning(
                        "bad_notice", type=clip(str(msg.type), 100), method=clip(str(msg.method), 100),
                        error=clip(exc.message, 300),
                    )  # fmt: skip
                except Exception as exc:
                    # One short line, not a traceback: a flood of odd notices must not flood the log.
                    log.error(
                        "notice_handler_failed", type=clip(str(msg.type), 100),
                        method=clip(str(msg.method), 100), error=clip(repr(exc), 300), where=raised_at(exc),
                    )  # fmt: skip

    def _resolve(self, msg: Inbound) -> None:
        entry = self._pending.get(msg.id) if msg.id is not None else None
        if entry is None:
            log.warning("reply_for_unknown_id", id=_loggable_id(msg.id))
            return
        if not entry[0].done():
            entry[0].set_result(msg)

    def _feed_chunk(self, msg: Inbound) -> None:
        if msg.id is None or msg.id not in self._pending or msg.chunks is None or msg.data is None:
            log.warning("stray_chunk", id=_loggable_id(msg.id))
            return
        msg_id = msg.id
        parts = self._chunks.setdefault(msg_id, [])
        announced, size = self._chunk_plan.get(msg_id, (msg.chunks, 0))
        if msg.chunk != len(parts) or msg.chunks != announced or not 0 < msg.chunks <= MAX_CHUNKS:
            log.error(
                "chunk_out_of_order", id=msg_id, chunk=_loggable_id(msg.chunk), have=len(parts),
                chunks=_loggable_id(msg.chunks),
            )  # fmt: skip
            self._abandon_chunks(msg_id, CdpError("the extension sent a reply in broken pieces; retry"))
            return
        parts.append(msg.data)
        size += len(msg.data)  # kept as a running total: summing every piece again is quadratic
        self._chunk_plan[msg_id] = (announced, size)
        if size > MAX_REASSEMBLED_CHARS:
            self._abandon_chunks(
                msg_id, CdpError("the extension's reply is larger than browserx accepts (512 Mi characters)")
            )
            return
        if len(parts) == announced:
            self._chunks.pop(msg_id, None)
            self._chunk_plan.pop(msg_id, None)
            whole = "".join(parts)
            del parts
            try:
                reply = decode_body(whole, Inbound)
            except FramingError as exc:
                self._fail(msg_id, CdpError(f"the extension's reassembled reply is invalid: {exc}"))
                return
            if reply.id != msg_id or not reply.is_reply or reply.chunk is not None:
                self._fail(
                    msg_id, CdpError("the extension's reassembled reply is not a reply to this request")
                )
                return
            self._resolve(reply)

    def _abandon_chunks(self, msg_id: int, exc: BrowserxError) -> None:
        """Fail a request whose reply came in bad pieces, and drop the pieces at once (a worker
        that keeps sending must not make the host hold them until the request's finally)."""
        self._chunks.pop(msg_id, None)
        self._chunk_plan[msg_id] = (-1, 0)  # any later piece is out of order too
        self._fail(msg_id, exc)

    def _fail_from_unreadable(self, body: bytes | str, exc: FramingError) -> None:
        """A reply we cannot read must not leave its caller waiting for a timeout."""
        try:
            text = body.decode("utf-8", errors="replace") if isinstance(body, bytes) else body
            loose = msgspec.json.decode(text)
        except (msgspec.DecodeError, UnicodeError, RecursionError):
            return
        if not isinstance(loose, dict):
            return
        msg_id = loose.get("id")
        if isinstance(msg_id, int) and not isinstance(msg_id, bool):  # true == 1 is no id
            self._fail(msg_id, CdpError(f"the extension sent an unreadable reply: {clip(str(exc), 500)}"))

    def _fail(self, msg_id: int, exc: BrowserxError) -> None:
        entry = self._pending.get(msg_id)
        if entry is not None and not entry[0].done():
            entry[0].set_exception(exc)

    def fail_tab(self, tab_id: int, exc: BrowserxError, spare: frozenset[str] = frozenset()) -> None:
        """Fail every pending request of one tab (its renderer died, a dialog holds it: none will be
        answered soon), but for the CDP methods in ``spare``."""
        for msg_id, (_, what, pending_tab) in list(self._pending.items()):
            if pending_tab == tab_id and what not in spare:
                self._fail(msg_id, exc)

    def close(self) -> None:
        """The pipe is gone: fail every pending request with the same error."""
        self.closed = True
        for msg_id in list(self._pending):
            self._fail(msg_id, ExtensionDisconnected("The browser extension disconnected."))


def detached_before(answers: Sequence[Any]) -> bool:
    """Whether a batch found the debugger gone before its first command: that one failed so, and
    none ran after it (the extension issues them in order)."""
    return (
        bool(answers)
        and isinstance(answers[0], DebuggerDetached)
        and all(isinstance(a, BrowserxError) for a in answers)
    )


class _BatchResult(msgspec.Struct):
    results: list[dict[str, Any]] = []
