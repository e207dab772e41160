"""The action tools (click, type, key, ...), each bound to its action in host/browserx/actions.

An action is called with its params' fields by name (a field ``id`` is the action's
``element_id``: ``id`` is Python's), under the tab's lock; it returns an ActionResult, and a failed
action raises its BrowserxError (the server renders it). An action's parameters are its params
model's fields, exactly: a field the action does not take, or a parameter no field fills, stops
the import (``Action.check``).
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from browserx import actions
from browserx.actions.result import ActionResult
from browserx.control.bindings import Bindings, Context
from browserx.control.person.sensitive import confirm_if_sensitive
from browserx.control.person.uploads import permit_upload
from browserx.control.policy import allowed_url, refuse_opted_out
from browserx.control.popups import tab_changes
from browserx.control.schemas import (
    ActionParams,
    CheckParams,
    ClickParams,
    HoverParams,
    KeyParams,
    NavigateParams,
    SelectParams,
    TypeParams,
)
from browserx.control.tool_declaration import Tool
from browserx.errors import PageOffLimits
from browserx.tabs.registry import TabRegistry
from browserx.tabs.tab import Tab

# The actions' name for a params field, where it is not the field's own.
ARGUMENT_NAMES = {"id": "element_id"}


def arguments(p: ActionParams) -> dict[str, Any]:
    """The action's arguments from its params: every field but ``tab`` (which names the tab)."""
    return {
        ARGUMENT_NAMES.get(name, name): getattr(p, name) for name in type(p).model_fields if name != "tab"
    }


@dataclass(frozen=True)
class Action:
    """The implementation of an action tool: ``run`` (the action), on the params' tab."""

    run: Callable[..., Awaitable[ActionResult]]
    # An opted-out page refuses before any of its IDs is looked up; leaving a page (navigate,
    # back, ...) reads nothing of it, so is allowed on opted-out pages too.
    reads_page: bool = True
    # Asks the person's "Allow" first when it is sensitive and they turned "Confirm before
    # sensitive actions" on (control/person/sensitive.py).
    confirms: bool = False
    # Checks (and may change) the params before the tab's lock is taken: what needs the person's
    # word that is not about the page (the files of an upload, control/person/uploads.py).
    prepare: Callable[[Context, Tab, Any], Awaitable[Any]] | None = None

    def check(self, tool: Tool) -> None:
        """Raise unless ``run`` takes the tool's params fields, and nothing else, after the tab."""
        wanted = {ARGUMENT_NAMES.get(name, name) for name in tool.params.model_fields if name != "tab"}
        taken = set(list(inspect.signature(self.run).parameters)[1:])
        if not tool.acts or not issubclass(tool.params, ActionParams) or wanted != taken:
            raise RuntimeError(
                f"{tool.name!r} is not the action {self.run.__qualname__}: the action's parameters "
                f"{sorted(taken)}, the tool's params fields {sorted(wanted)} (acts={tool.acts})"
            )

    async def __call__(self, ctx: Context, p: ActionParams) -> dict[str, Any]:
        if isinstance(p, NavigateParams):  # before the tab is touched; Chrome gets the checked URL
            p = p.model_copy(update={"url": allowed_url(p.url, ctx.settings.allow_file_urls)})
        tab = await ctx.registry.resolve(p.tab)
        if self.confirms and ctx.person.effective.confirm_sensitive:
            await confirm_if_sensitive(tab, p)
        if self.prepare is not None:
            p = await self.prepare(ctx, tab, p)
        if isinstance(p, NavigateParams):
            await leave_off_limits_page(ctx.registry, tab, p.url, p.timeout)
        async with tab.lock:
            if self.reads_page and not refused_by_lookup(tab, p):
                await refuse_opted_out(tab)
            downloads_before = tab.downloads.last_seq
            result = await self.run(tab, **arguments(p))
        result.raise_for_error()
        out = result.model_dump(mode="json")
        out["tab"] = tab.tab_id
        out.update(await tab_changes(ctx, tab.tab_id))  # the tabs its page opened or closed
        downloads = await downloads_started(tab, downloads_before)
        if downloads:  # what the action made the page download, finished or not
            out["downloads"] = downloads
        answered = tab.session.auto_answers.take()
        if answered:  # dialogs the person has answered at once, opened since the last result
            out["dialogs_answered"] = answered
        return out


DOWNLOAD_WAIT_S = 2.0  # for a download an action started to finish, before its result is given


async def downloads_started(tab: Tab, before: int) -> list[dict[str, Any]]:
    """The downloads the tab began after ``before``; waits a moment for those still running (a
    small file is done by then; a big one is reported with what has arrived)."""
    started = tab.downloads.since(before)
    deadline = time.monotonic() + DOWNLOAD_WAIT_S
    while any(d["state"] == "in_progress" for d in started) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
        started = tab.downloads.since(before)
    return started


# The actions that look their element up before anything else of theirs reaches the page (their
# observation starts beside the lookup: actions.runner.perform's ``resolves_first``); and ``key``
# given an element.
LOOKUP_FIRST = (ClickParams, HoverParams, TypeParams, SelectParams, CheckParams, KeyParams)


def refused_by_lookup(tab: Tab, p: ActionParams) -> bool:
    """Whether the action's own first step refuses an opted-out page, so the separate check (a
    round trip of its own, 1.5-2.5 ms) is not needed: an element of the top document, which
    resolve.js looks up after checking it, everything around it and its document for data-no-ai;
    refused, no input, focus or read of the element follows, and the action answers only the
    error. No expectation either (it reads the page before the lookup). (An element not found is
    healed from a new snapshot, which refuses an opted-out page itself.)"""
    element_id = p.id if isinstance(p, LOOKUP_FIRST) else None
    return element_id is not None and p.expect is None and tab.ids.in_top_document(element_id)


# Every tool declared with ``acts`` (control/tools.py), by name.
ACTIONS: dict[str, Action] = {
    "click": Action(actions.click, confirms=True),
    "type": Action(actions.type_text, confirms=True),
    "key": Action(actions.key, confirms=True),
    "scroll": Action(actions.scroll),
    "select": Action(actions.select),
    "check": Action(actions.check, confirms=True),
    "hover": Action(actions.hover),
    "drag": Action(actions.drag),
    "click_at": Action(actions.click_at, confirms=True),
    "hover_at": Action(actions.hover_at),
    "navigate": Action(actions.navigate, reads_page=False),
    "back": Action(actions.back, reads_page=False),
    "forward": Action(actions.forward, reads_page=False),
    "reload": Action(actions.reload, reads_page=False),
    "wait": Action(actions.wait_for),
    "upload": Action(
        actions.upload, prepare=lambda ctx, tab, p: permit_upload(tab, p, ctx.person.upload_folders)
    ),
}


def bind_actions(bindings: Bindings, table: dict[str, Action]) -> None:
    """Bind each action of ``table`` to its tool, checked (``Action.check``)."""
    for name, action in table.items():
        action.check(bindings.tool(name))
        bindings.bind(name, action)


async def leave_off_limits_page(registry: TabRegistry, tab: Tab, url: str, timeout: float) -> None:
    """A tab on a page chrome.debugger may not attach to (a new tab's chrome://newtab, settings)
    is navigated through the tabs API instead, and waited for until it can be attached to; the
    navigation that follows then finds the page already there."""
    try:
        await tab.session.ensure_attached()
        return
    except PageOffLimits:
        if not url.lower().startswith(("http:", "https:")):
            raise
    await registry.conn.request("navigateTab", tabId=tab.tab_id, url=url)
    deadline = time.monotonic() + timeout
    while True:
        await asyncio.sleep(0.1)
        try:
            await tab.session.ensure_attached()
            return
        except PageOffLimits:
            if time.monotonic() > deadline:
                raise
