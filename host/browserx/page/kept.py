"""Functions kept in browserx's isolated world: a snippet an action calls again and again (the
click's aim and verdict, the cursor, typing's probe and read-back) is sent whole once per world,
which keeps it under a name, and is called by that name afterwards with a stub of a hundred
characters. The renderer compiles every function it is sent, on every call, before it runs it:
about 1.3 ms for the cursor's 8.6 kB here (a 8.6 kB comment costs nothing), on the action's own
path. (The collector does the same for itself: page/collector.py.)

Only in browserx's own world, never the page's: a stub there would run whatever the page put
under that name. So a kept call names the world it runs in (``world``: an execution context id of
browserx's world; ``this``: an object of that world). The host records which worlds hold which
functions, per frame session and context id, and takes a record as void once a frame has
navigated since (a new renderer process counts context ids from 1 again); should a stub find its
name unset all the same, it throws ``MISSING`` and the call is made again whole.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from functools import cache
from typing import Any

from browserx.errors import PageScriptError
from browserx.page.page_call import page_call
from browserx.page_js import Snippet
from browserx.relay.session import TabSession

# A stub's throw; the token (this host's own) keeps a page from forging it through a handler of its
# that a snippet runs (a focus listener's throw reaches the snippet).
MISSING = "browserx: kept function missing " + secrets.token_hex(8)
# The world a kept call runs in: (frame session, execution context id of browserx's world).
World = tuple[str | None, int]


@dataclass(frozen=True, slots=True)
class Kept:
    """A function snippet in its two forms: ``whole`` keeps it (under ``name``) and runs it;
    ``stub`` runs what was kept (else throws ``MISSING``). Both carry the snippet's file name."""

    name: str
    whole: Snippet
    stub: Snippet


@cache
def kept(snippet: Snippet) -> Kept:
    """The kept forms of a function snippet, named after its code: another host version's
    function of the same file is never taken for this one."""
    name = "__bxKept_" + hashlib.sha256(snippet.code.encode()).hexdigest()[:16]
    whole = Snippet(
        snippet.name,
        # The code on lines of its own: a last line that is a comment must not swallow the ")".
        f"function(...args) {{\n  const f = globalThis.{name} = (\n{snippet.code}\n);\n  return f.apply(this, args);\n}}",
    )
    stub = Snippet(
        snippet.name,
        # Its own property only: a page element with that id is a named property every world sees.
        f"function(...args) {{ const f = Object.getOwnPropertyDescriptor(globalThis, {json.dumps(name)})?.value; "
        f"if (typeof f !== 'function') throw new Error({json.dumps(MISSING)}); return f.apply(this, args); }}",
    )
    return Kept(name, whole, stub)


def holds(session: TabSession, world: World, snippet: Snippet) -> bool:
    """Whether ``world`` is recorded as holding the snippet (and no frame navigated since)."""
    record = session.kept_functions.get(world)
    return record is not None and record[0] == session.frames_changed_at and kept(snippet).name in record[1]


def note(session: TabSession, world: World, snippet: Snippet) -> None:
    """``snippet`` was sent whole to ``world`` and ran there (its answer came, a throw included)."""
    record = session.kept_functions.get(world)
    if record is None or record[0] != session.frames_changed_at:
        record = session.kept_functions[world] = (session.frames_changed_at, set())
    record[1].add(kept(snippet).name)


def forget(session: TabSession, world: World) -> None:
    """``world`` holds none of what was recorded (a stub found its name unset)."""
    session.kept_functions.pop(world, None)


def is_missing(exc: BaseException) -> bool:
    """Whether ``exc`` is a stub's throw: its function is not kept in that world."""
    return isinstance(exc, PageScriptError) and MISSING in str(exc.details.get("page_message", ""))


def stub_missed(reply: Any) -> bool:
    """Whether a batch's answer (a ``Runtime.callFunctionOn`` result as a dict) is a stub's throw."""
    details = reply.get("exceptionDetails") if isinstance(reply, dict) else None
    if not isinstance(details, dict):
        return False
    thrown = details.get("exception")
    description = thrown.get("description", "") if isinstance(thrown, dict) else ""
    return MISSING in str(description) or MISSING in str(details.get("text", ""))


async def kept_call(
    session: TabSession,
    snippet: Snippet,
    *args: Any,
    world: World,
    this: str | None = None,
    await_promise: bool = False,
    timeout: float | None = None,
) -> Any:
    """``page_call`` of a function snippet in browserx's ``world`` (on ``this``, an object of that
    world, when given), sent whole the first time and by name after."""
    session_id, context_id = world
    where: dict[str, Any] = {"this": this} if this is not None else {"world": context_id}

    async def send(sent: Snippet) -> Any:
        return await page_call(
            session, sent, *args, session_id=session_id, await_promise=await_promise, timeout=timeout, **where
        )

    if holds(session, world, snippet):
        try:
            return await send(kept(snippet).stub)
        except PageScriptError as exc:
            if not is_missing(exc):
                raise
            forget(session, world)
    try:
        value = await send(kept(snippet).whole)
    except PageScriptError:
        note(session, world, snippet)  # it ran (and threw): it is kept all the same
        raise
    note(session, world, snippet)
    return value


__all__ = [
    "MISSING",
    "Kept",
    "World",
    "forget",
    "holds",
    "is_missing",
    "kept",
    "kept_call",
    "note",
    "stub_missed",
]
