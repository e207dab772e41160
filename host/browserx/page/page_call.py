"""The one way the host runs JavaScript in a page: a ``Snippet`` (browserx/page_js.py) called with
its arguments as CDP arguments, its file named in what is sent (``//# sourceURL=browserx/<file>``),
and a page error raised as ``PageScriptError`` (naming the snippet and carrying the page's message,
logged in the host log) — never read as "no value".

    value = await page_call(session, HIT_JS, x, y, this=object_id, session_id=sid)
    value = await page_eval(session, PAGE_POS_JS, world=ctx)

Where several commands go in one batch (one round trip), ``call_request`` / ``eval_request`` build
a command and ``answer`` reads its reply, with the same checks. A caller to whom a page error
means something else (nothing to report, a frame to skip) catches ``PageScriptError`` and says so
where it does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import msgspec
import structlog

from browserx.errors import BrowserxError, CdpError, PageScriptError, clip
from browserx.page_js import Snippet
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
) -> Request:
    """``Runtime.callFunctionOn`` of a function snippet on an object (``this``: its objectId) or in
    an execution context (``world``), with ``args`` as its arguments (JSON values, or ``Handle``s);
    ``by_value`` False: the answer as a handle (kept in ``group``)."""
    if (this is None) == (world is None):
        raise ValueError(f"{snippet.name}: call it on an object (this) or in a world, one of the two")
    params: dict[str, Any] = {"functionDeclaration": snippet.source, "returnByValue": by_value}
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
    """``Runtime.evaluate`` of an expression snippet in ``world`` (None: the page's own world of the
    top document). With ``args`` the snippet is a function, called with them written as JSON (an
    evaluation has no arguments of its own)."""
    code = snippet.code
    if args:
        code = f"({code})({', '.join(json.dumps(a) for a in args)})"
    params: dict[str, Any] = {"expression": Snippet(snippet.name, code).source, "returnByValue": by_value}
    if world is not None:
        params["contextId"] = world
    if await_promise:
        params["awaitPromise"] = True
    if group is not None:
        params["objectGroup"] = group
    return "Runtime.evaluate", params


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
    method, params = call_request(snippet, *args, this=this, world=world, await_promise=await_promise)
    reply = await session.cdp(method, params, session_id, timeout, result_type=EvaluateResult)
    return answer(snippet, reply).value


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
    method, params = call_request(snippet, *args, this=this, world=world, by_value=False, group=group)
    reply = await session.cdp(method, params, session_id, result_type=EvaluateResult)
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
    """The value an expression snippet evaluates to in ``world`` (None: the page's own world)."""
    method, params = eval_request(snippet, *args, world=world, await_promise=await_promise)
    reply = await session.cdp(method, params, session_id, timeout, result_type=EvaluateResult)
    return answer(snippet, reply).value


__all__ = [
    "Handle",
    "Request",
    "answer",
    "call_request",
    "eval_request",
    "mixed_answer",
    "page_call",
    "page_eval",
    "page_object",
    "script_error",
]
