"""The ``tabs`` tool's entries (``agent_tab_entries``, each written by ``tab_listing``), and tab
titles where a page opted out of AI agents (data-no-ai): the ``tabs`` tool shows a page's title
only when browserx may read the page. Checked for the tabs the host is attached to (one quick
evaluation each, all at once); a tab it is not attached to shows Chrome's title (attaching just
to read a title would put the debugging banner on every tab)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec import structs

from browserx.control.person.controls import PersonControls
from browserx.control.policy import refuse_opted_out
from browserx.errors import BrowserxError, PageOptedOut, clip
from browserx.relay.protocol import TabInfo
from browserx.site_rules import host_of
from browserx.snapshot.redaction import redact_url
from browserx.tabs.registry import TabRegistry

OPTED_OUT_TITLE = "(a page that opted out of AI agents)"
CHECK_S = 1.0  # a page that does not answer within this keeps Chrome's title
MAX_TITLE = 400  # a tab's title as listed (a page may set a title of a megabyte); as the collector's


async def agent_tab_entries(
    registry: TabRegistry, person: PersonControls, listed: Sequence[TabInfo]
) -> list[dict[str, Any]]:
    """The tabs as the agent may see them (the ``tabs`` tool's entries): a tab it may not use
    says why and shows nothing of its page; the others their URL with secrets masked and their
    title, unless the page opted out."""
    refused = {t.tabId: why for t in listed if (why := person.refused(t)) is not None}
    hidden = await opted_out_tabs(registry, [t.tabId for t in listed if t.tabId not in refused])
    return [
        tab_listing(t, refused[t.tabId])
        if t.tabId in refused
        else tab_listing(
            structs.replace(
                t,
                url=redact_url(t.url),
                title=OPTED_OUT_TITLE if t.tabId in hidden else clip(t.title, MAX_TITLE),
            ),
            None,
        )
        for t in listed
    ]


def tab_listing(info: TabInfo, why: str | None) -> dict[str, Any]:
    """A ``tabs`` entry as the agent sees it: the tab's id as ``tab`` (the name every other tool
    and result uses; the extension says ``tabId``), and a tab it may not use says why, and a
    blocked site's title and path are not shown, nor anything of the page of a tab not shared."""
    if why is None:
        listed: dict[str, Any] = msgspec.to_builtins(info)  # (without the fields at their defaults)
        # A tab's address and title are always there, empty or not (a new tab has no title yet).
        return {"tab": listed.pop("tabId"), "url": info.url, "title": info.title, **listed}
    host = host_of(info.url)
    # A blocked site shows only its origin; a tab the person has not shared, nothing of its page.
    url = redact_url(f"{info.url.split(':', 1)[0]}://{host}/") if why == "blocked" and host else ""
    out: dict[str, Any] = {
        "tab": info.tabId,
        "windowId": info.windowId,
        "url": url,
        "title": "(a site the person blocked)" if why == "blocked" else "(a tab the person has not shared)",
        "active": info.active,
        "attached": info.attached,
        "focused": info.focused,
        "usable": False,
        "why": "site_blocked" if why == "blocked" else "tab_not_shared",
    }
    return out


async def opted_out_tabs(registry: TabRegistry, tab_ids: Sequence[int]) -> set[int]:
    """The ids among ``tab_ids`` of attached tabs whose page says data-no-ai."""
    attached = [registry.tabs[t] for t in tab_ids if t in registry.tabs]

    async def says(tab_id: int) -> bool:
        tab = registry.tabs.get(tab_id)
        if tab is None or tab.session.crashed:
            return False
        try:
            await asyncio.wait_for(refuse_opted_out(tab), CHECK_S)
        except PageOptedOut:
            return True
        except (BrowserxError, TimeoutError):
            return False
        return False

    answers = await asyncio.gather(*(says(t.tab_id) for t in attached))
    return {t.tab_id for t, yes in zip(attached, answers, strict=True) if yes}


__all__ = ["MAX_TITLE", "OPTED_OUT_TITLE", "agent_tab_entries", "opted_out_tabs", "tab_listing"]
