"""The control methods the host serves, bound to its TabRegistry."""

from __future__ import annotations

import os
from typing import Any

from browserx import _native
from browserx._version import __version__
from browserx.control.action_methods import build_action_methods
from browserx.control.observe import observe
from browserx.control.schemas import CdpParams, SnapshotParams, StatusParams, TabsParams, TargetsParams
from browserx.control.server import Method
from browserx.errors import MethodNotAllowed
from browserx.policy import check_url, refuse_opted_out
from browserx.registry import TabRegistry
from browserx.settings import HostSettings, load_settings, settings_path

# Host machinery a client never drives through the raw door, even when it is open: scripts in
# every new document, auto-attaching, isolated worlds and paused targets are the host's own.
INTERNAL_CDP = frozenset(
    {"Page.addScriptToEvaluateOnNewDocument", "Page.createIsolatedWorld", "Target.setAutoAttach",
     "Runtime.runIfWaitingForDebugger"}
)  # fmt: skip


def build_methods(
    registry: TabRegistry, socket_path: str, settings: HostSettings | None = None
) -> dict[str, Method]:
    conn = registry.conn
    settings = settings if settings is not None else load_settings()

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
            "attached_tabs": sorted(t for t, s in registry.services.items() if s.attached),
            "compiled": _native.ACTIVE,  # the mypyc build of the snapshot and view passes is in use
            "settings": {**settings.model_dump(), "path": str(settings_path())},
        }

    async def tabs(_: TabsParams) -> dict[str, Any]:
        return {"tabs": await registry.list_tabs()}

    async def cdp(p: CdpParams) -> Any:
        if not settings.allow_raw_cdp:
            raise MethodNotAllowed(
                "The raw `cdp` method is off: it can read anything on any page. The user can turn it on "
                f'for this host with "allow_raw_cdp": true in {settings_path()} (then restart the browser).'
            )
        if p.method in INTERNAL_CDP:
            raise MethodNotAllowed(f"{p.method} is the host's own; it is not served through `cdp`.")
        if p.method == "Page.navigate":
            check_url(str(p.params.get("url", "")), settings.allow_file_urls)
        service = await registry.resolve(p.tab)
        async with service.lock:
            await refuse_opted_out(service)
            return await service.cdp(p.method, p.params, p.session_id, p.timeout)

    async def targets(p: TargetsParams) -> dict[str, Any]:
        service = await registry.resolve(p.tab)
        async with service.lock:
            await service.ensure_attached()
            return {
                "tab": service.tab_id,
                "sessions": [
                    {"session_id": sid, "target_id": t.targetId, "type": t.type, "url": t.url}
                    for sid, t in service.sessions.items()
                ],
            }

    async def snapshot(p: SnapshotParams) -> dict[str, Any]:
        service = await registry.resolve(p.tab)
        async with service.lock:
            return await observe(service, p)

    return {
        "snapshot": Method(
            SnapshotParams, snapshot, "Observe a tab: the text, json or semantic view with element IDs."
        ),
        "status": Method(StatusParams, status, "Health of the host and its extension connection."),
        "tabs": Method(TabsParams, tabs, "List the browser's tabs."),
        "cdp": Method(CdpParams, cdp, "Run one allowlisted CDP command in a tab or child session."),
        "targets": Method(TargetsParams, targets, "Child CDP sessions (out-of-process iframes) of a tab."),
        **build_action_methods(registry, settings),
    }
