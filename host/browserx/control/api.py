"""The control methods the host serves: each tool of control/tools.py, bound to its implementation.

The actions are control/action_methods.py's; the other tools are here, each an ``(ctx, params)``
function registered by ``@implements`` (control/bindings.py). Importing this module fails when a
declared tool has no implementation, so a host never starts without one.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from functools import partial
from typing import Any

from browserx import _native, actions
from browserx._version import __version__
from browserx.control.action_methods import ACTIONS, bind_actions
from browserx.control.bindings import BINDINGS, Context, Implementation, implements
from browserx.control.console import console_messages
from browserx.control.fill import fill as fill  # (binds the fill tool)
from browserx.control.person.ask import ask_user, asks_for
from browserx.control.person.controls import PersonControls
from browserx.control.person.sensitive import confirm_dialog_if_sensitive
from browserx.control.policy import allowed_url, refuse_opted_out, refuse_opted_out_frames
from browserx.control.schemas import (
    ActivateTabParams,
    AskUserParams,
    CdpParams,
    CloseTabParams,
    ConsoleParams,
    DialogParams,
    DownloadsParams,
    HtmlParams,
    NewTabParams,
    Params,
    ReleaseTabParams,
    ScreenshotParams,
    SnapshotParams,
    StatusParams,
    TabsParams,
    TargetsParams,
)
from browserx.control.server import Handler, Method
from browserx.control.snapshot_tool import observe
from browserx.control.tab_titles import agent_tab_entries
from browserx.control.tools import TOOLS
from browserx.errors import BadRequest, MethodNotAllowed, TabClosed, VersionMismatch
from browserx.heap import paused_gc
from browserx.pixels.screenshot import screenshot
from browserx.relay.cdp_types import GetNavigationHistoryResult
from browserx.relay.protocol import NewTabResult, decode_raw
from browserx.settings import HostSettings, load_settings, settings_path
from browserx.snapshot.redaction import redact_url
from browserx.tabs.registry import TabRegistry
from browserx.tabs.snapshots import take_snapshot
from browserx.views.html import render_html

# Host machinery a client never drives through the raw door, even when it is open: scripts in
# every new document, auto-attaching, isolated worlds and paused targets are the host's own.
INTERNAL_CDP = frozenset(
    {"Page.addScriptToEvaluateOnNewDocument", "Page.createIsolatedWorld", "Target.setAutoAttach",
     "Runtime.runIfWaitingForDebugger"}
)  # fmt: skip


# The parameters that name an execution context (refused: see cdp).
CONTEXT_PARAMS = frozenset({"contextId", "uniqueContextId", "executionContextId"})


def build_methods(
    registry: TabRegistry,
    socket_path: str,
    settings: HostSettings | None = None,
    person: PersonControls | None = None,
) -> dict[str, Method]:
    """Every declared tool, served on ``registry`` under the person's controls."""
    settings = settings if settings is not None else load_settings()
    if person is None:
        person = PersonControls(registry.conn, settings.controls(), settings.allow_file_urls)
    if isinstance(registry, TabRegistry):  # (unit tests pass stand-ins)
        registry.gate = person.gate
        registry.destinations = person.check_url
        registry.dialog_answer = person.dialog_answer
        person.list_tabs = registry.list_tabs
    person.site_asker = lambda host, tab_id: asks_for(registry.conn).allow_site(host, tab_id)
    ctx = Context(registry, settings, person, socket_path)
    # A read-only tool's work is dropped when its client hangs up (Ctrl-C on a snapshot); one that
    # changes the page or the tabs runs to its end (control/server.py says why).
    return {
        t.name: Method(
            t.params, guarded(ctx, t.name, IMPLEMENTATIONS[t.name]), t.description, abandon=t.hints.read_only
        )
        for t in TOOLS
    }


def guarded(ctx: Context, name: str, implementation: Implementation) -> Handler:
    """The server's handler of the tool ``name``: its implementation under the person's controls."""

    async def run(p: Params) -> Any:
        if name != "status":  # (status shows both versions: how to find out)
            hello = ctx.conn.hello if ctx.conn is not None else None
            if hello is not None:  # (none yet: nothing to compare; one without a version is older)
                check_versions(hello.version or "unknown")
        return await ctx.person.guard(
            name, p, partial(implementation, ctx), partial(element_names, ctx.registry)
        )

    return run


def check_versions(extension: str) -> None:
    """Refuse to work with an extension of another version: the two speak one protocol, and a
    half-upgraded pair fails in ways no error would name."""
    if extension != __version__:
        raise VersionMismatch(
            f"The browserx extension in the browser is version {extension}, this host is {__version__}: "
            "they must be the same. Run `browserx extension` for the folder of this version's extension, "
            "then press its reload button in chrome://extensions (or load that folder unpacked).",
            extension=extension,
            host=__version__,
        )


def element_names(registry: TabRegistry, tab_id: int) -> Callable[[int], tuple[str | None, str] | None]:
    """What an ID of the tab named in its last snapshot (role, name), for the Activity list."""

    def lookup(element_id: int) -> tuple[str | None, str] | None:
        tab = registry.tabs.get(tab_id)
        found = tab.recall(element_id) if tab is not None else None
        return (found.role, found.name) if found is not None else None

    return lookup


# -- the tools that are not actions -------------------------------------------------------------


@implements("status")
async def status(ctx: Context, _: StatusParams) -> dict[str, Any]:
    hello = ctx.conn.hello
    return {
        "version": __version__,
        "pid": os.getpid(),
        "socket": ctx.socket_path,
        "extension_connected": not ctx.conn.closed,
        "extension": None
        if hello is None
        else {"version": hello.version, "user_agent": hello.userAgent, "id": hello.extensionId},
        "attached_tabs": sorted(t for t, s in ctx.registry.tabs.items() if s.session.attached),
        "compiled": _native.ACTIVE,  # the mypyc build of the snapshot and view passes is in use
        "settings": {**ctx.settings.model_dump(), "path": str(settings_path())},
        "person": ctx.person.status(),
    }


@implements("tabs")
async def tabs(ctx: Context, _: TabsParams) -> dict[str, Any]:
    return {"tabs": await agent_tab_entries(ctx.registry, ctx.person, await ctx.registry.list_tabs())}


@implements("cdp")
async def cdp(ctx: Context, p: CdpParams) -> Any:
    if not ctx.settings.allow_raw_cdp:
        raise MethodNotAllowed(
            "The raw `cdp` method is off: it can read anything on any page. The user can turn it on "
            f'for this host with "allow_raw_cdp": true in {settings_path()} (then restart the browser).'
        )
    if p.method in INTERNAL_CDP:
        raise MethodNotAllowed(f"{p.method} is the host's own; it is not served through `cdp`.")
    if p.method.startswith("Runtime.") and CONTEXT_PARAMS & set(p.params):
        # A context is named by a small number a client can guess, browserx's isolated world (and
        # its secret token) among them: raw calls run in the page's own world, or on its objects.
        raise MethodNotAllowed(
            f"{p.method} with {', '.join(sorted(CONTEXT_PARAMS & set(p.params)))} is not served through "
            "`cdp`: it runs in the page's main world (a frame of another site: its session_id)."
        )
    if p.method == "Page.navigate":  # Chrome gets the URL the policy checked, as it read it
        url = p.params.get("url")
        if not isinstance(url, str):
            raise BadRequest("Page.navigate needs a url (a string).")
        p = p.model_copy(
            update={"params": {**p.params, "url": allowed_url(url, ctx.settings.allow_file_urls)}}
        )
    tab = await ctx.registry.resolve(p.tab)
    async with tab.lock:
        await refuse_opted_out(tab)
        if p.method == "Page.navigateToHistoryEntry":  # (a page from the cache makes no request)
            history = await tab.session.cdp(
                "Page.getNavigationHistory", result_type=GetNavigationHistoryResult
            )
            entry = next((e for e in history.entries if e.id == p.params.get("entryId")), None)
            await ctx.person.check_url(entry.url if entry is not None else "", tab.tab_id)
        return await tab.session.cdp(p.method, p.params, p.session_id, p.timeout)


@implements("targets")
async def targets(ctx: Context, p: TargetsParams) -> dict[str, Any]:
    tab = await ctx.registry.resolve(p.tab)
    async with tab.lock:
        await tab.session.ensure_attached()
        return {
            "tab": tab.tab_id,
            "sessions": [
                {"session_id": sid, "target_id": t.targetId, "type": t.type, "url": redact_url(t.url)}
                for sid, t in tab.session.sessions.items()
            ],
        }


@implements("downloads")
async def downloads(ctx: Context, p: DownloadsParams) -> dict[str, Any]:
    tab = await ctx.registry.resolve(p.tab)
    async with tab.lock:
        await refuse_opted_out(tab)  # (the names and addresses are the pages' words)
        return {"tab": tab.tab_id, "downloads": tab.downloads.recent()}


@implements("console")
async def console(ctx: Context, p: ConsoleParams) -> dict[str, Any]:
    return await console_messages(ctx, p)


@implements("snapshot")
async def snapshot(ctx: Context, p: SnapshotParams) -> dict[str, Any]:
    tab = await ctx.registry.resolve(p.tab)
    async with tab.lock:
        return await observe(tab, p)


@implements("new_tab")
async def new_tab(ctx: Context, p: NewTabParams) -> dict[str, Any]:
    if p.url is not None:  # before a tab is even opened; Chrome gets the checked URL
        p = p.model_copy(update={"url": allowed_url(p.url, ctx.settings.allow_file_urls)})
    reply = await ctx.conn.request("newTab")
    created = decode_raw(reply.result, NewTabResult)
    tab = ctx.registry.tab(created.tabId)
    out: dict[str, Any] = {"tab": created.tabId}
    if p.url is not None:
        await ctx.person.guard_tab(created.tabId)
        async with tab.lock:
            result = await actions.navigate(tab, p.url, p.timeout)
        result.raise_for_error()
        out.update(result.model_dump(mode="json"), tab=created.tabId)
    return out


@implements("close_tab")
async def close_tab(ctx: Context, p: CloseTabParams) -> dict[str, Any]:
    await ctx.registry.resolve(p.tab)  # unknown_tab, listing the open ones
    ctx.registry.openers.forget(p.tab)  # the agent closed it: no news for its opener's next call
    # The browser's "removed" notice may come first and fail what waits on the tab: this too.
    with contextlib.suppress(TabClosed):
        await ctx.conn.request("closeTab", tabId=p.tab)
    ctx.registry.drop(p.tab)
    return {"tab": p.tab, "closed": True}


@implements("activate_tab")
async def activate_tab(ctx: Context, p: ActivateTabParams) -> dict[str, Any]:
    await ctx.registry.resolve(p.tab)
    await ctx.conn.request("activateTab", tabId=p.tab)
    return {"tab": p.tab, "active": True}


@implements("release_tab")
async def release_tab(ctx: Context, p: ReleaseTabParams) -> dict[str, Any]:
    tab = await ctx.registry.resolve(p.tab)
    async with tab.lock:
        was_attached = tab.session.attached
        await tab.release()
    return {"tab": p.tab, "released": was_attached}


@implements("screenshot")
async def take_screenshot(ctx: Context, p: ScreenshotParams) -> dict[str, Any]:
    tab = await ctx.registry.resolve(p.tab)
    async with tab.lock:
        await refuse_opted_out(tab)
        await refuse_opted_out_frames(tab)
        shot = await screenshot(
            tab, p.mode, p.id, p.format, p.quality, p.max_width, p.marks, show_effects=p.show_effects
        )
    return {"tab": tab.tab_id, **shot.to_dict()}


@implements("html")
async def page_html(ctx: Context, p: HtmlParams) -> dict[str, Any]:
    tab = await ctx.registry.resolve(p.tab)
    async with tab.lock:
        await refuse_opted_out(tab)
        snap = await take_snapshot(tab, include_values=p.include_values)
        with paused_gc():
            view = render_html(snap, p.mode, p.max_chars)
    out: dict[str, Any] = {"tab": tab.tab_id, "mode": p.mode, "url": snap.url, "title": snap.title,
                           "html": view.html, "chars": len(view.html), "elements": view.elements,
                           "truncated": view.truncated}  # fmt: skip
    if view.note:
        out["note"] = view.note
    return out


@implements("dialog")
async def dialog(ctx: Context, p: DialogParams) -> dict[str, Any]:
    tab = await ctx.registry.resolve(p.tab)
    accept, expected = p.action == "accept", actions.ANY_DIALOG
    if accept and ctx.person.effective.confirm_sensitive:
        expected = tab.session.dialog  # the one the person is asked about, and no other, is accepted
        await confirm_dialog_if_sensitive(tab)
    async with tab.lock:
        return await actions.answer_dialog(tab, accept, p.text, expected)


@implements("ask_user")
async def ask(ctx: Context, p: AskUserParams) -> dict[str, Any]:
    return await ask_user(ctx.conn, p)


# Every declared tool's implementation: an error here, at import, when one has none.
bind_actions(BINDINGS, ACTIONS)
IMPLEMENTATIONS = BINDINGS.complete()
