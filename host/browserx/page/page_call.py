"""The one way the host runs JavaScript in a page: a ``Snippet`` (browserx/page_js.py) called with
its arguments as CDP arguments, its module named in what is sent (``//# sourceURL=browserx/<file>``),
and a page error raised as ``PageScriptError`` (naming the snippet and carrying the page's message,
logged in the host log) — never read as "no value". A member of the page library is called by name
in browserx's world, and sent whole (installing the library) where that world lacks it.

    value = await page_call(session, HIT_JS, x, y, this=object_id, session_id=sid)
    value = await page_eval(session, PAGE_METRICS_JS)  # a page-world function, in the page's world

Where several commands go in one batch (one round trip), ``call_request`` / ``eval_request`` build
a command and ``answer`` reads its reply, with the same checks (``missing`` tells a stub's throw:
the caller sends the batch again with ``whole``). A caller to whom a page error means something else
(nothing to report, a frame to skip) catches ``PageScriptError`` and says so where it does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import msgspec
import structlog

from browserx.errors import BrowserxError, CdpError, PageScriptError, clip
from browserx.page_js import MISSING, Snippet
from browserx.relay.cdp_types import EvaluateResult, ExceptionDetails, RemoteObject
from browserx.relay.session import TabSession

log = structlog.get_logger("browserx.page_call")

Request = tuple[str, dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Handle:
    """An argument that is an object of the page (its objectId), not a JSON value."""

    object_id: str


def _argument(value: Any) -> dict[str, Any]:
    return {"objectId": value.object_id} if isinstance(value, Handle) else {"value": value}


def call_request(
    snippet: Snippet,
    *args: Any,
    this: str | None = None,
    world: int | None = None,
    by_value: bool = True,
    await_promise: bool = False,
    group: str | None = None,
    whole: bool = False,
) -> Request:
    """``Runtime.callFunctionOn`` of a function snippet on an object (``this``: its objectId) or in
    an execution context (``world``), with ``args`` as its arguments (JSON values, or ``Handle``s);
    ``by_value`` False: the answer as a handle (kept in ``group``); ``whole``: a member sent with
    the library (where the world may lack it)."""
    if (this is None) == (world is None):
        raise ValueError(f"{snippet.name}: call it on an object (this) or in a world, one of the two")
    declaration = snippet.whole if whole else snippet.source
    params: dict[str, Any] = {"functionDeclaration": declaration, "returnByValue": by_value}
    if this is not None:
        params["objectId"] = this
    else:
        params["executionContextId"] = world
    if args:
        params["arguments"] = [_argument(a) for a in args]
    if await_promise:
        params["awaitPromise"] = True
    if group is not None:
        params["objectGroup"] = group
    return "Runtime.callFunctionOn", params


def eval_request(
    snippet: Snippet,
    *args: Any,
    world: int | None = None,
    by_value: bool = True,
    await_promise: bool = False,
    group: str | None = None,
) -> Request:
    """``Runtime.evaluate`` of a page-world function (``page_js.page_world``) in ``world`` (None: the
    page's own world of the top document), called with ``args`` written as JSON (an evaluation has
    no arguments of its own). Not a library member: the page's world keeps none."""
    if snippet.code is None:
        raise ValueError(f"{snippet.name}: a library member is called in browserx's world (call_request)")
    code = f"({snippet.code})({', '.join(json.dumps(a) for a in args)})"
    params: dict[str, Any] = {"expression": Snippet(snippet.name, code).source, "returnByValue": by_value}
    if world is not None:
        params["contextId"] = world
    if await_promise:
        params["awaitPromise"] = True
    if group is not None:
        params["objectGroup"] = group
    return "Runtime.evaluate", params


def missing(reply: EvaluateResult | dict[str, Any] | BaseException) -> bool:
    """Whether a call's reply is a stub's throw: the world lacks the library (nothing ran)."""
    if isinstance(reply, EvaluateResult):
        details = reply.exceptionDetails
        return (
            details is not None
            and MISSING in f"{details.exception and details.exception.description} {details.text}"
        )
    details = reply.get("exceptionDetails") if isinstance(reply, dict) else None
    if not isinstance(details, dict):
        return False
    thrown = details.get("exception")
    description = thrown.get("description", "") if isinstance(thrown, dict) else ""
    return MISSING in str(description) or MISSING in str(details.get("text", ""))


def answer(snippet: Snippet, reply: EvaluateResult | BrowserxError) -> RemoteObject:
    """What the snippet answered; its page error as ``PageScriptError``, a failed command (a batch's
    item) as its own error."""
    if isinstance(reply, BrowserxError):
        raise reply
    if reply.exceptionDetails is not None:
        raise script_error(snippet, reply.exceptionDetails)
    return reply.result


def mixed_answer(snippet: Snippet, reply: dict[str, Any] | BrowserxError) -> RemoteObject:
    """``answer`` for the snippet's item of a batch of several kinds of command (read as dicts)."""
    if isinstance(reply, BrowserxError):
        raise reply
    try:
        evaluated = msgspec.convert(reply, EvaluateResult)
    except msgspec.ValidationError as exc:
        raise CdpError(f"CDP error (Runtime.callFunctionOn): unexpected result shape: {exc}") from None
    return answer(snippet, evaluated)


def script_error(snippet: Snippet, details: ExceptionDetails) -> PageScriptError:
    """The error for a snippet that threw, logged in the host log."""
    thrown = details.exception.description if details.exception is not None else None
    message = clip(thrown or details.text or "an exception without a message", 500)
    log.warning("page_script_error", snippet=snippet.name, page_message=message)
    return PageScriptError(
        f"browserx's page script {snippet.name} failed in the page: {message}. The page changed something "
        "browserx relies on (a DOM method, a prototype or a getter); take a new snapshot and try again, or "
        "reach the goal another way.",
        snippet=snippet.name,
        page_message=message,
    )


async def page_call(
    session: TabSession,
    snippet: Snippet,
    *args: Any,
    this: str | None = None,
    world: int | None = None,
    session_id: str | None = None,
    await_promise: bool = False,
    timeout: float | None = None,
) -> Any:
    """The value a function snippet answers (a promise's once it settles, with ``await_promise``),
    called on ``this`` or in ``world`` of the frame session ``session_id``."""
    reply = await _called(
        session, snippet, args, session_id, timeout, this=this, world=world, await_promise=await_promise
    )
    return answer(snippet, reply).value


async def _called(
    session: TabSession,
    snippet: Snippet,
    args: tuple[Any, ...],
    session_id: str | None,
    timeout: float | None,
    **how: Any,
) -> EvaluateResult:
    """The reply to a call of ``snippet``: by name, then whole where the world lacks the library."""
    for whole in (False, True) if snippet.code is None else (True,):
        method, params = call_request(snippet, *args, whole=whole, **how)
        reply = await session.cdp(method, params, session_id, timeout, result_type=EvaluateResult)
        if whole or not missing(reply):
            return reply
    raise AssertionError("unreachable")


async def page_object(
    session: TabSession,
    snippet: Snippet,
    *args: Any,
    this: str | None = None,
    world: int | None = None,
    session_id: str | None = None,
    group: str | None = None,
) -> RemoteObject:
    """What a function snippet answers as a handle (an objectId, kept in ``group``) or a value."""
    reply = await _called(
        session, snippet, args, session_id, None, this=this, world=world, by_value=False, group=group
    )
    return answer(snippet, reply)


async def page_eval(
    session: TabSession,
    snippet: Snippet,
    *args: Any,
    world: int | None = None,
    session_id: str | None = None,
    await_promise: bool = False,
    timeout: float | None = None,
) -> Any:
    """The value a page-world function answers in ``world`` (None: the page's own world)."""
    method, params = eval_request(snippet, *args, world=world, await_promise=await_promise)
    reply = await session.cdp(method, params, session_id, timeout, result_type=EvaluateResult)
    return answer(snippet, reply).value


__all__ = [
    "Handle",
    "Request",
    "answer",
    "call_request",
    "eval_request",
    "missing",
    "mixed_answer",
    "page_call",
    "page_eval",
    "page_object",
    "script_error",
]
