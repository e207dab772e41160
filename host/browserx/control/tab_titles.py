"""Tab titles where a page opted out of AI agents (data-no-ai): the ``tabs`` tool shows a page's
title only when browserx may read the page. Checked for the tabs the host is attached to (one
quick evaluation each, all at once); a tab it is not attached to shows Chrome's title (attaching
just to read a title would put the debugging banner on every tab)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from browserx.control.policy import refuse_opted_out
from browserx.errors import BrowserxError, PageOptedOut
from browserx.tabs.registry import TabRegistry

OPTED_OUT_TITLE = "(a page that opted out of AI agents)"
CHECK_S = 1.0  # a page that does not answer within this keeps Chrome's title


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


__all__ = ["OPTED_OUT_TITLE", "opted_out_tabs"]
