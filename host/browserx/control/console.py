"""The ``console`` tool: the tab's console messages and uncaught errors since its page loaded.

browserx does not keep the Runtime domain on: a page can tell it is (console arguments are
previewed, so getters run), and it floods the pipe with every execution context. Chrome keeps a
page's console messages and uncaught exceptions itself and replays them to a client that enables
Runtime, before its answer; so the tool enables it, takes the replay, and disables it again, in
the top frame. A message is the page's text: clipped, card-like numbers masked, addresses inside
it masked as every address is."""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

from browserx.control.bindings import Context
from browserx.control.policy import refuse_opted_out
from browserx.control.schemas import ConsoleParams
from browserx.errors import BrowserxError, CdpError, clip
from browserx.relay.protocol import Inbound, decode_raw
from browserx.snapshot.redaction import mask_numbers, redact_url

CONSOLE_CALLED = "Runtime.consoleAPICalled"
EXCEPTION_THROWN = "Runtime.exceptionThrown"
TEXT_CHARS = 500
REPLAY_GRACE_S = 0.02  # margin: Chrome sends the replay before the answer, and the worker keeps the order
LEVELS = {"warning": "warning", "warn": "warning", "error": "error", "assert": "error", "debug": "debug"}
URL_IN_TEXT = re.compile(r"\b(?:https?|wss?)://[^\s\"'<>)]+")


async def console_messages(ctx: Context, p: ConsoleParams) -> dict[str, Any]:
    tab = await ctx.registry.resolve(p.tab)
    async with tab.lock:
        await refuse_opted_out(tab)
        seen: list[Inbound] = []

        def on_event(msg: Inbound) -> None:
            if msg.method in (CONSOLE_CALLED, EXCEPTION_THROWN) and not msg.sessionId:
                seen.append(msg)

        stop_listening = tab.session.add_listener(on_event)
        try:
            await tab.session.cdp("Runtime.enable")
            await asyncio.sleep(REPLAY_GRACE_S)
        finally:
            stop_listening()
            with contextlib.suppress(BrowserxError):  # (a page gone meanwhile took it along)
                await tab.session.cdp("Runtime.disable")
    messages = [m for m in (message_of(msg) for msg in seen) if m is not None]
    if p.level != "all":
        wanted = {"error"} if p.level == "error" else {"error", "warning"}
        messages = [m for m in messages if m["level"] in wanted]
    errors = sum(1 for m in messages if m["level"] == "error")
    return {"tab": tab.tab_id, "messages": messages[-p.limit :], "errors": errors, "total": len(messages)}


def message_of(msg: Inbound) -> dict[str, Any] | None:
    """One message as the tool gives it: level, text, where from; None for a shape Chrome never sends."""
    try:
        params: dict[str, Any] = decode_raw(msg.params)
    except CdpError:  # a shape Chrome never sends
        return None
    if msg.method == EXCEPTION_THROWN:
        details = params.get("exceptionDetails")
        if not isinstance(details, dict):
            return None
        thrown = details.get("exception")
        said = thrown.get("description") if isinstance(thrown, dict) else None
        text = str(said or details.get("text") or "Uncaught error").split("\n    at ")[0]
        return _fact("error", "exception", text, details.get("url"), details.get("lineNumber"))
    args = params.get("args")
    text = " ".join(_arg_text(a) for a in args if isinstance(a, dict)) if isinstance(args, list) else ""
    frames = (
        (params.get("stackTrace") or {}).get("callFrames")
        if isinstance(params.get("stackTrace"), dict)
        else None
    )
    first = frames[0] if isinstance(frames, list) and frames and isinstance(frames[0], dict) else {}
    level = LEVELS.get(str(params.get("type")), "info" if params.get("type") == "info" else "log")
    return _fact(level, "console", text, first.get("url"), first.get("lineNumber"))


def _arg_text(arg: dict[str, Any]) -> str:
    value = arg.get("value")
    if isinstance(value, str):
        return value
    if value is not None or arg.get("type") in ("boolean", "number"):
        return str(value).lower() if isinstance(value, bool) else str(value)
    return str(arg.get("description") or arg.get("unserializableValue") or arg.get("type") or "")


def _fact(level: str, kind: str, text: str, url: Any, line: Any) -> dict[str, Any]:
    shown = URL_IN_TEXT.sub(lambda m: redact_url(m.group(0)), mask_numbers(clip(text, TEXT_CHARS)))
    out: dict[str, Any] = {"level": level, "kind": kind, "text": shown}
    if isinstance(url, str) and url:
        out["source"] = redact_url(url) + (f":{int(line) + 1}" if isinstance(line, int | float) else "")
    return out


__all__ = ["console_messages", "message_of"]
