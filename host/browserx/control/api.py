"""The control methods the host serves: the tools of control/tools.py, bound to its TabRegistry."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from typing import Any

from msgspec import structs

from browserx import _native, actions
from browserx._version import __version__
from browserx.control.action_methods import Handler, action_handlers
from browserx.control.ask import ask_user, asks_for
from browserx.control.person import PersonControls, tab_listing
from browserx.control.policy import allowed_url, refuse_opted_out, refuse_opted_out_frames
from browserx.control.schemas import (
    ActivateTabParams,
    CdpParams,
    CloseTabParams,
    HtmlParams,
    NewTabParams,
    ReleaseTabParams,
    ScreenshotParams,
    SnapshotParams,
    StatusParams,
    TabsParams,
    TargetsParams,
)
from browserx.control.sensitive import confirm_if_sensitive
from browserx.control.server import Method
from browserx.control.snapshot_tool import observe
from browserx.control.tab_titles import OPTED_OUT_TITLE, opted_out_tabs
from browserx.control.tools import TOOLS
from browserx.errors import BadRequest, MethodNotAllowed, TabClosed
from browserx.heap import paused_gc
from browserx.pixels.screenshot import screenshot
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


def build_methods(
    registry: TabRegistry,
    socket_path: str,
    settings: HostSettings | None = None,
    person: PersonControls | None = None,
) -> dict[str, Method]:
    conn = registry.conn
    settings = settings if settings is not None else load_settings()
    # The person's controls (Stop, site rules, tab sharing): every method runs under them.
    if person is None:
        person = PersonControls(conn, settings.controls(), settings.allow_file_urls)
    if isinstance(registry, TabRegistry):  # (unit tests pass stand-ins)
        registry.gate = person.gate
        person.list_tabs = registry.list_tabs

    async def status(_: StatusParams) -> dict[str, Any]:
        hello = conn.hello
        return {
            "version": __version__,
            "pid": os.getpid(),
            "socket": socket_path,
            "extension_connected": not conn.closed,
            "extension": None
            if hello is None
            else {"version": hello.version, "user_agent": hello.userAgent, "id": hello.extensionId},
            "attached_tabs": sorted(t for t, s in registry.tabs.items() if s.session.attached),
            "compiled": _native.ACTIVE,  # the mypyc build of the snapshot and view passes is in use
            "settings": {**settings.model_dump(), "path": str(settings_path())},
            "person": person.status(),
        }

    async def tabs(_: TabsParams) -> dict[str, Any]:
        listed = await registry.list_tabs()
        refused = {t.tabId: why for t in listed if (why := person.refused(t)) is not None}
        hidden = await opted_out_tabs(registry, [t.tabId for t in listed if t.tabId not in refused])
        return {
            "tabs": [
                tab_listing(t, refused[t.tabId])
                if t.tabId in refused
                else tab_listing(
                    structs.replace(
                        t, url=redact_url(t.url), title=OPTED_OUT_TITLE if t.tabId in hidden else t.title
                    ),
                    None,
                )
                for t in listed
            ]
        }

    async def cdp(p: CdpParams) -> Any:
        if not settings.allow_raw_cdp:
            raise MethodNotAllowed(
                "The raw `cdp` method is off: it can read anything on any page. The user can turn it on "
                f'for this host with "allow_raw_cdp": true in {settings_path()} (then restart the browser).'
            )
        if p.method in INTERNAL_CDP:
            raise MethodNotAllowed(f"{p.method} is the host's own; it is not served through `cdp`.")
        if p.method == "Page.navigate":  # Chrome gets the URL the policy checked, as it read it
            url = p.params.get("url")
            if not isinstance(url, str):
                raise BadRequest("Page.navigate needs a url (a string).")
            p = p.model_copy(
                update={"params": {**p.params, "url": allowed_url(url, settings.allow_file_urls)}}
            )
        tab = await registry.resolve(p.tab)
        async with tab.lock:
            await refuse_opted_out(tab)
            return await tab.session.cdp(p.method, p.params, p.session_id, p.timeout)

    async def targets(p: TargetsParams) -> dict[str, Any]:
        tab = await registry.resolve(p.tab)
        async with tab.lock:
            await tab.session.ensure_attached()
            return {
                "tab": tab.tab_id,
                "sessions": [
                    {"session_id": sid, "target_id": t.targetId, "type": t.type, "url": redact_url(t.url)}
                    for sid, t in tab.session.sessions.items()
                ],
            }

    async def snapshot(p: SnapshotParams) -> dict[str, Any]:
        tab = await registry.resolve(p.tab)
        async with tab.lock:
            return await observe(tab, p)

    async def new_tab(p: NewTabParams) -> dict[str, Any]:
        if p.url is not None:  # before a tab is even opened; Chrome gets the checked URL
            p = p.model_copy(update={"url": allowed_url(p.url, settings.allow_file_urls)})
        reply = await conn.request("newTab")
        created = decode_raw(reply.result, NewTabResult)
        tab = registry.tab(created.tabId)
        out: dict[str, Any] = {"tab": created.tabId}
        if p.url is not None:
            async with tab.lock:
                result = await actions.navigate(tab, p.url, p.timeout)
            result.raise_for_error()
            out.update(result.model_dump(mode="json"), tab=created.tabId)
        return out

    async def close_tab(p: CloseTabParams) -> dict[str, Any]:
        await registry.resolve(p.tab)  # unknown_tab, listing the open ones
        # The browser's "removed" notice may come first and fail what waits on the tab: this too.
        with contextlib.suppress(TabClosed):
            await conn.request("closeTab", tabId=p.tab)
        registry.drop(p.tab)
        return {"tab": p.tab, "closed": True}

    async def activate_tab(p: ActivateTabParams) -> dict[str, Any]:
        await registry.resolve(p.tab)
        await conn.request("activateTab", tabId=p.tab)
        return {"tab": p.tab, "active": True}

    async def release_tab(p: ReleaseTabParams) -> dict[str, Any]:
        tab = await registry.resolve(p.tab)
        async with tab.lock:
            was_attached = tab.session.attached
            await tab.release()
        return {"tab": p.tab, "released": was_attached}

    async def take_screenshot(p: ScreenshotParams) -> dict[str, Any]:
        tab = await registry.resolve(p.tab)
        async with tab.lock:
            await refuse_opted_out(tab)
            await refuse_opted_out_frames(tab)
            shot = await screenshot(
                tab, p.mode, p.id, p.format, p.quality, p.max_width, p.marks, show_effects=p.show_effects
            )
        return {"tab": tab.tab_id, **shot.to_dict()}

    async def page_html(p: HtmlParams) -> dict[str, Any]:
        tab = await registry.resolve(p.tab)
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

    handlers: dict[str, Handler] = {
        "status": status,
        "tabs": tabs,
        "cdp": cdp,
        "targets": targets,
        "snapshot": snapshot,
        "new_tab": new_tab,
        "close_tab": close_tab,
        "activate_tab": activate_tab,
        "release_tab": release_tab,
        "screenshot": take_screenshot,
        "html": page_html,
        **action_handlers(registry, settings),
    }
    handlers["ask_user"] = lambda p: ask_user(conn, p)
    for name in ("click", "type", "key"):  # the person's "Allow" first, when they asked for that
        handlers[name] = confirming(registry, person, handlers[name])
    person.site_asker = lambda host, tab_id: asks_for(conn).allow_site(host, tab_id)
    # The dispatch is the declared tools (control/tools.py): a tool without an implementation, or
    # an implementation of no tool, stops the host at start, not an agent at its first call.
    missing = {t.name for t in TOOLS} ^ handlers.keys()
    if missing:
        raise RuntimeError(f"tools declared and implemented differ: {sorted(missing)}")

    def named(tab_id: int) -> Callable[[int], tuple[str | None, str] | None]:
        """What an ID of the tab named in its last snapshot (role, name), for the Activity list."""

        def lookup(element_id: int) -> tuple[str | None, str] | None:
            tab = registry.tabs.get(tab_id)
            found = tab.recall(element_id) if tab is not None else None
            return (found.role, found.name) if found is not None else None

        return lookup

    def guarded(name: str, handler: Handler) -> Handler:
        assert person is not None

        async def run(p: Any) -> Any:
            return await person.guard(name, p, handler, named)

        return run

    # A read-only tool's work is dropped when its client hangs up (Ctrl-C on a snapshot); one that
    # changes the page or the tabs runs to its end (control/server.py says why).
    return {
        t.name: Method(t.params, guarded(t.name, handlers[t.name]), t.description, abandon=t.hints.read_only)
        for t in TOOLS
    }


def confirming(registry: TabRegistry, person: PersonControls, act: Handler) -> Handler:
    """``act`` (click, type, key), after the person's "Allow" in the popup when it is sensitive
    and they turned "Confirm before sensitive actions" on (control/sensitive.py)."""

    async def run(p: Any) -> Any:
        if person.effective.confirm_sensitive:
            await confirm_if_sensitive(await registry.resolve(p.tab), p)
        return await act(p)

    return run
