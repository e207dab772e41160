"""browser-use over CDP: its ``DomService.get_serialized_dom_tree()`` + ``llm_representation()``
(DOM extraction and serialization only: no LLM, no screenshot), timed around both, with its
profile's defaults; interactive = the entries of its selector map."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

from harness import VIEWPORT

from adapters import CONTROL_TAGS, PW_INTERACTIVE_ROLES, Sample

BROWSER_USE_THRESHOLD_PX = 1000  # DomService's default viewport_threshold: what it lists below the fold
LOGGERS = ("", "browser_use", "cdp_use", "bubus")  # where its warnings go (harness.LogTally)


def quiet_environment(workdir: Path) -> None:
    """No telemetry, no cloud sync, no version check; its config in the temp dir (set before it is
    imported)."""
    os.environ.update(
        {
            "ANONYMIZED_TELEMETRY": "false",
            "BROWSER_USE_CLOUD_SYNC": "false",
            "BROWSER_USE_VERSION_CHECK": "false",
            "BROWSER_USE_CLOUD_HINTS": "false",
            "BROWSER_USE_LOGGING_LEVEL": "warning",
            "BROWSER_USE_CONFIG_DIR": str(workdir / "browseruse"),
        }
    )


def browser_use_name(node: Any) -> str:
    """An element's accessible name as browser-use holds it (its AX name; its own text rules when it
    has no AX node)."""
    ax = getattr(node, "ax_node", None)
    if ax is not None:
        return str(ax.name or "")
    # No AX node (browser-use's AX request timed out): the attributes that name an element, else text.
    attrs = node.attributes or {}
    for key in ("aria-label", "title", "placeholder", "alt"):
        if attrs.get(key):
            return str(attrs[key])
    tag = node.tag_name.lower()
    if tag == "input" and attrs.get("type") in ("submit", "button", "reset"):
        return str(attrs.get("value") or "")
    if tag in ("input", "select", "textarea"):
        return ""  # named by a <label>, which only the AX tree resolves
    return str(node.get_all_children_text())


def browser_use_is_control(node: Any) -> bool:
    """A control (by AX role or tag), not one of the rows, cells, labels or listener-bearing
    containers browser-use also indexes."""
    ax = getattr(node, "ax_node", None)
    role = (ax.role or "") if ax is not None else ""
    return role in PW_INTERACTIVE_ROLES.split("|") or node.tag_name.lower() in CONTROL_TAGS


class BrowserUseTool:
    name = "browser-use"

    def __init__(self, session: Any, service: Any) -> None:
        self.session = session
        self.service = service

    @classmethod
    async def connect(cls, cdp_endpoint: str, page_url: str) -> BrowserUseTool:
        from browser_use.browser import BrowserProfile, BrowserSession
        from browser_use.browser.profile import ViewportSize
        from browser_use.dom.service import DomService

        # An explicit viewport: left unset, browser-use emulates a 1920x1080 screen on the shared tab.
        profile = BrowserProfile(
            cdp_url=cdp_endpoint,
            is_local=False,
            keep_alive=True,
            headless=True,
            viewport=ViewportSize(width=VIEWPORT[0], height=VIEWPORT[1]),
        )
        session = BrowserSession(browser_profile=profile)
        await session.start()
        tool = cls(session, None)
        await tool.prepare(page_url)
        tool.service = DomService(
            session,
            cross_origin_iframes=profile.cross_origin_iframes,
            paint_order_filtering=profile.paint_order_filtering,
            max_iframes=profile.max_iframes,
            max_iframe_depth=profile.max_iframe_depth,
        )
        return tool

    async def prepare(self, url: str) -> None:
        """Point browser-use's agent focus at the tab showing ``url`` (the one the others observe)."""
        targets = self.session.session_manager.get_all_page_targets()
        for target in targets:
            if target.url == url:
                if self.session.agent_focus_target_id != target.target_id:
                    await self.session.get_or_create_cdp_session(target_id=target.target_id, focus=True)
                return
        raise RuntimeError(f"browser-use sees no tab at {url}: {[t.url for t in targets]}")

    async def snapshot(self) -> Sample:
        t0 = time.perf_counter()
        state, _tree, _timing = await self.service.get_serialized_dom_tree()
        text = state.llm_representation()
        ms = (time.perf_counter() - t0) * 1000
        nodes = list(state.selector_map.values())
        controls = [browser_use_name(node) for node in nodes if browser_use_is_control(node)]
        others = [node.get_meaningful_text_for_llm() for node in nodes if not browser_use_is_control(node)]
        return Sample(ms, text, [browser_use_name(n) for n in nodes], controls=controls, others=others)

    async def close(self) -> None:
        # Drop the CDP connection and event bus only; keep_alive leaves the browser to us.
        await asyncio.wait_for(self.session.stop(), timeout=20)
