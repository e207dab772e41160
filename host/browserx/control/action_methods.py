"""Control methods for actions (click, type, key, ...): each runs under the tab's lock and
returns an ActionResult; a failed action raises its BrowserxError (the server renders it)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from browserx import actions
from browserx.actions.result import ActionResult
from browserx.control.schemas import (
    CheckParams,
    ClickParams,
    HistoryParams,
    HoverParams,
    KeyParams,
    NavigateParams,
    ReloadParams,
    ScrollParams,
    SelectParams,
    TabParams,
    TypeParams,
    WaitParams,
)
from browserx.control.server import Method
from browserx.policy import check_url, refuse_opted_out
from browserx.registry import TabRegistry
from browserx.service import DomService
from browserx.settings import HostSettings


def build_action_methods(registry: TabRegistry, settings: HostSettings) -> dict[str, Method]:
    def method(
        params: type[TabParams],
        run: Callable[[DomService, Any], Awaitable[ActionResult]],
        doc: str,
        reads_page: bool = True,
    ) -> Method:
        async def handler(p: TabParams) -> dict[str, Any]:
            if isinstance(p, NavigateParams):
                check_url(p.url, settings.allow_file_urls)  # before the tab is touched
            service = await registry.resolve(p.tab)
            async with service.lock:
                if reads_page:  # an opted-out page refuses before any of its IDs is looked up
                    await refuse_opted_out(service)
                result = await run(service, p)
            result.raise_for_error()
            out = result.model_dump(mode="json")
            out["tab"] = service.tab_id
            return out

        return Method(params, handler, doc)

    return {
        "click": method(
            ClickParams,
            lambda s, p: actions.click(s, p.id, p.button, p.count, p.modifiers, p.force),
            "Click an element by ID (button, double click, modifiers).",
        ),
        "type": method(
            TypeParams,
            lambda s, p: actions.type_text(s, p.id, p.text, p.clear, p.submit, p.per_char, p.include_values),
            "Type text into an input, textarea or contenteditable element.",
        ),
        "key": method(
            KeyParams,
            lambda s, p: actions.key(s, p.key, p.modifiers, p.id, p.repeat),
            "Press a key or shortcut (optionally focusing an element first).",
        ),
        "scroll": method(
            ScrollParams,
            lambda s, p: actions.scroll(s, p.id, p.direction, p.amount, p.to_id),
            "Scroll the page or a container, or an element into view.",
        ),
        "select": method(
            SelectParams,
            lambda s, p: actions.select(s, p.id, p.value, p.include_values),
            "Choose an option of a list by label.",
        ),
        "check": method(
            CheckParams, lambda s, p: actions.check(s, p.id, p.checked), "Set a checkbox/radio/switch state."
        ),
        "hover": method(
            HoverParams, lambda s, p: actions.hover(s, p.id, p.force), "Move the mouse over an element."
        ),
        # Leaving a page reads nothing of it: allowed on opted-out pages too.
        "navigate": method(
            NavigateParams,
            lambda s, p: actions.navigate(s, p.url, p.timeout),
            "Open a URL in the tab.",
            reads_page=False,
        ),
        "back": method(
            HistoryParams,
            lambda s, p: actions.back(s, p.timeout),
            "Go back in the tab's history.",
            reads_page=False,
        ),
        "forward": method(
            HistoryParams,
            lambda s, p: actions.forward(s, p.timeout),
            "Go forward in the tab's history.",
            reads_page=False,
        ),
        "reload": method(
            ReloadParams,
            lambda s, p: actions.reload(s, p.ignore_cache, p.timeout),
            "Reload the tab.",
            reads_page=False,
        ),
        "wait": method(
            WaitParams,
            lambda s, p: actions.wait_for(s, p.text, p.gone, p.timeout),
            "Wait until text appears and/or disappears.",
        ),
    }
