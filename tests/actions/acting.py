"""A page the action tests act on, over tests/fakes.py: a recorded document that answers capture and
the element lookup (``RecordedPage``), plus what an action asks of the page — each page snippet
answered by the test's function, found by the snippet the module sends (its own constant, compared
with what was sent, so a change in how snippets are sent does not break the routing), input events
and DOM commands logged. And ``Acting``: a tab that observed the page, ready to act on its IDs."""

from __future__ import annotations

import asyncio
import gc
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from browserx.actions import page_changes
from browserx.errors import CdpError
from tests.fakes import FakeConnection, Observed, RecordedPage

T = TypeVar("T")
Handler = Callable[[list[Any]], Any]


def sends(text: str, snippet: Any) -> bool:
    """Whether ``text`` (a functionDeclaration or an expression as sent) runs ``snippet``: a library
    member called by name or sent whole (page_js.py), or a page-world function called."""
    if isinstance(snippet, str):
        return text == snippet
    if snippet.code is not None:
        return text == snippet.source or text.startswith(f"({snippet.code})(")
    return text in (snippet.source, snippet.whole)


@dataclass
class PageError:
    """An answer that is an exception thrown in the page."""

    message: str


@dataclass
class Sent:
    method: str
    params: dict[str, Any]
    args: list[Any] = field(default_factory=list)


class ActingPage(RecordedPage):
    """``RecordedPage`` that also answers the snippets an action runs (``on``), the DOM commands
    (content quads from the recorded boxes) and logs every input event (``inputs``) and every
    snippet call (``ran``)."""

    def __init__(self, name: str, world: int = 5, url: str | None = None) -> None:
        super().__init__(name, world)
        if url is not None:
            self.frame["url"] = url
        self.handlers: list[tuple[Any, Handler]] = []
        self.inputs: list[tuple[str, dict[str, Any]]] = []
        self.dom: list[tuple[str, dict[str, Any]]] = []
        self.ran: list[tuple[Any, list[Any]]] = []  # (snippet, args) of each answered call
        self.mutations = 0  # what the action's mutation counter counts
        self.on_input: Callable[[str, dict[str, Any]], None] | None = None  # what an input event does
        # Other CDP commands answered by the test (Page.navigate …), by method: params → answer.
        self.commands: dict[str, Callable[[dict[str, Any]], Any]] = {}
        url = self.frame["url"]
        self.on(page_changes.START_JS, url)
        self.on(page_changes.SETTLE_JS, None)
        self.on(page_changes.READ_JS, lambda args: [self.mutations, self.frame["url"]])
        self.on(page_changes.PEEK_JS, lambda args: [self.mutations, self.frame["url"]])

    def on(self, snippet: Any, handler: Handler | Any) -> None:
        """Answer ``snippet`` with ``handler(args)`` (or the value itself); a PageError answers with
        an exception in the page, a CdpError raised fails the command. The latest handler wins."""
        fn: Handler = handler if callable(handler) else (lambda args, value=handler: value)
        self.handlers.insert(0, (snippet, fn))

    def calls_to(self, snippet: Any) -> list[list[Any]]:
        return [args for s, args in self.ran if s is snippet]

    def object_index(self, object_id: str) -> int:
        index = self.index_of(int(object_id.removeprefix("node-")))
        assert index is not None
        return index

    def __call__(self, method: str, params: dict[str, Any], session_id: str | None) -> Any:
        if method in self.commands:
            return self.commands[method](params)
        if method.startswith("Input."):
            self.inputs.append((method, params))
            if self.on_input is not None:
                self.on_input(method, params)
            return {}
        if method == "DOM.getContentQuads":
            x, y, w, h = self.frame["box"][4 * self.object_index(params["objectId"]) :][:4]
            return {"quads": [[x, y, x + w, y, x + w, y + h, x, y + h]]}
        if method.startswith("DOM."):
            self.dom.append((method, params))
            return {}
        if method in ("Runtime.callFunctionOn", "Runtime.evaluate"):
            text = params.get("functionDeclaration") or params.get("expression") or ""
            missed = self.stub_missed(text)
            if missed is not None:
                return missed
            for snippet, handler in self.handlers:
                if sends(text, snippet):
                    args = [a.get("value", a.get("objectId")) for a in params.get("arguments", [])]
                    self.ran.append((snippet, args))
                    value = handler(args)
                    if isinstance(value, PageError):
                        return {"result": {"type": "object", "subtype": "error"},
                                "exceptionDetails": {"exceptionId": 1, "text": "Uncaught",
                                                     "lineNumber": 0, "columnNumber": 0,
                                                     "exception": {"type": "object", "subtype": "error",
                                                                   "description": value.message}}}  # fmt: skip
                    return {"result": _remote(value)}
        return super().__call__(method, params, session_id)


def clicks_land(page: ActingPage, point: tuple[float, float] = (46.5, 532.5)) -> None:
    """Every element is in view, uncovered, and a click at ``point`` reaches it (pointer.py's
    snippets answered so)."""
    from browserx.actions import pointer
    from browserx.actions.links import AT_POINT_JS

    x, y = point
    rect = [x - 10, y - 10, x + 10, y + 10]
    page.on(
        pointer.AIM_JS, {"area": {"rect": rect, "whole": True}, "point": [x, y], "link": None, "cover": None}
    )
    page.on(
        pointer.AFTER_JS,
        lambda args: {"seen": True, "bad": None, "counted": [page.mutations, page.frame["url"]]},
    )
    page.on(pointer.VISIBLE_AREA_JS, {"rect": rect, "whole": True})
    page.on(pointer.GUARD_JS, None)
    page.on(pointer.VERDICT_JS, {"seen": True, "bad": None})
    page.on(pointer.HIT_JS, None)
    page.on(pointer.FRAMES_JS, None)
    page.on(AT_POINT_JS, None)


def mouse_presses(page: ActingPage) -> list[tuple[float, float]]:
    return [(e["x"], e["y"]) for m, e in page.inputs if e.get("type") == "mousePressed"]


def _remote(value: Any) -> dict[str, Any]:
    if value is None:
        return {"type": "undefined"}
    kind = {bool: "boolean", int: "number", float: "number", str: "string"}.get(type(value), "object")
    return {"type": kind, "value": json.loads(json.dumps(value))}


def fails(message: str = "Cannot find context with specified id") -> Handler:
    """A handler whose command fails as Chrome's does when the document went away."""

    def handler(args: list[Any]) -> Any:
        raise CdpError(message)

    return handler


class Acting(Observed):
    """A tab that took and placed a snapshot of ``page``: its IDs resolve on the page."""

    page: ActingPage
    conn: FakeConnection

    def object_of(self, element_id: int) -> str:
        return f"node-{self.tab.ids.ref_of[element_id].key}"


def act(page: ActingPage, body: Callable[[Acting], Awaitable[T]]) -> T:
    """Observe ``page`` in a fresh tab, then run ``body`` with it (5 s at most)."""

    async def run() -> T:
        acting = Acting(page)
        await acting.observe()
        return await body(acting)

    try:
        return asyncio.run(asyncio.wait_for(run(), 5))
    finally:
        gc.unfreeze()  # placing a snapshot froze what was alive (heap.py)
