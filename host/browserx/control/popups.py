"""New tabs and popups in an action's result: the tabs the page opened since the last call on it
(a ``target=_blank`` link, ``window.open``, an OAuth popup) with their id, URL and title and
whether the agent may act in them (each as ``tabs`` lists it), and the ones that closed since (an OAuth popup that finished).
The agent can then snapshot and act in a new tab by its id without calling ``tabs`` first.

A tab the page of a tab the agent may use opens is the agent's too under tab sharing (as a tab
``new_tab`` opened is): it continues what the agent was doing there, and the site rules still
hold in it (the browser's network layer holds them for every tab the agent's calls open:
control/person/site_guard.py). One the site rules refuse says so (``usable`` false, ``why``), as
``tabs`` does.
"""

from __future__ import annotations

from typing import Any

from browserx.control.bindings import Context
from browserx.control.tab_titles import agent_tab_entries


async def tab_changes(ctx: Context, tab_id: int) -> dict[str, Any]:
    """``opened_tabs`` / ``closed_tabs`` for an action's result on ``tab_id`` (nothing when none)."""
    opened, closed = ctx.registry.openers.take(tab_id)
    out: dict[str, Any] = {}
    if opened:
        listed = [t for t in await ctx.registry.list_tabs() if t.tabId in opened]  # (closed ones: below)
        for info in listed:  # the page of a tab the agent uses opened it: the agent's, as new_tab's
            if ctx.person.refused(info) == "not_shared":
                ctx.person.opened_tabs.add(info.tabId)
        entries = await agent_tab_entries(ctx.registry, ctx.person, listed)
        if entries:
            out["opened_tabs"] = entries  # (one the agent may not use says why: "usable" false)
    if closed:
        out["closed_tabs"] = closed
    return out
