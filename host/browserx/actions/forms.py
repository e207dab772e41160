"""Form controls beyond typing: choose an option (native <select> or an ARIA combobox/listbox)
and set a checkbox/radio/switch to a state — clicking only when the state differs."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from browserx import page_js
from browserx.actions.effects import on_target
from browserx.actions.keyboard import focus, press
from browserx.actions.keys import key_press
from browserx.actions.matching import normalise
from browserx.actions.pointer import click_target
from browserx.actions.resolve import Target, by_key, call_on, resolve
from browserx.actions.result import ActionResult
from browserx.actions.runner import ActionContext, perform
from browserx.errors import CdpError, NotInteractable, OptionNotFound
from browserx.expectations import Expect
from browserx.page.internals import facts_of
from browserx.relay.cdp_types import PartialAXTreeResult
from browserx.snapshot.redaction import field_of, field_secret, shown_value
from browserx.tabs.snapshots import take_snapshot
from browserx.tabs.tab import Tab

SELECT_JS = page_js.load("browserx.actions", "forms_select.js")
STATE_JS = page_js.load("browserx.actions", "forms_state.js")
STATE_BY_KEY_JS = by_key(STATE_JS)
SELECT_COUNTED_JS = page_js.load("browserx.actions", "forms_select_counted.js")
SELECT_COUNTED_BY_KEY_JS = by_key(SELECT_COUNTED_JS)
OPTION_ROLES = frozenset({"option", "menuitem", "menuitemradio", "menuitemcheckbox", "treeitem", "gridcell"})
OPEN_WAIT_S = 1.0  # a custom list still opening (an animation, a fetch) is read again this long
# Read again after these waits (then the last, over and over): a list fading in from opacity 0 is
# seen a frame or two after the click, one fetched later only after a while.
OPEN_POLLS_S = (0.02, 0.04, 0.1)
STATE_POLL_S = 0.5
# Roles whose checked state Chrome's accessibility tree tells, when the page cannot.
AX_TOGGLE_ROLES = frozenset({"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"})


async def select(
    tab: Tab,
    element_id: int,
    value: str,
    include_values: bool = False,
    *,
    expect: Expect | None = None,
) -> ActionResult:
    async def body(ctx: ActionContext) -> None:
        # In the top document the choice is made in the lookup's own round trip (after the
        # observation's start: the renderer runs them in order) and the page's changes counted in
        # the same call; the long way when the element had to be found again.
        top = tab.ids.in_top_document(element_id)
        target = await resolve(tab, element_id, early=(SELECT_COUNTED_BY_KEY_JS, (value,)) if top else None)
        await ctx.adopt(target)
        out = target.early
        if not isinstance(out, dict):
            out = await call_on(
                tab, target, SELECT_COUNTED_JS if target.session_id is None else SELECT_JS, value
            )
        ctx.counter.settled_in(None, out)
        if not isinstance(out, dict):
            raise NotInteractable(f"{target.sentence()} could not be read.", id=element_id)
        if out.get("native"):
            on_target(tab, target.object_id, target.session_id, target.context_id)
            err = out.get("error")
            if err == "missing":
                raise OptionNotFound(
                    f"{target.sentence()} has no option {value!r}. Options: "
                    + ", ".join(repr(o) for o in out.get("options", [])),
                    id=element_id, options=out.get("options", []),
                )  # fmt: skip
            if err:
                raise NotInteractable(
                    f"{target.sentence()} cannot be changed: "
                    f"{'it is disabled' if err == 'disabled' else 'that option is disabled'}.",
                    id=element_id,
                )
            # The label is what the view shows; the value only on request. A secret list (a
            # card's expiry) shows neither: only its kind.
            field = field_of(out.get("attrs") or {}, out)
            secret = field_secret(field)
            ctx.result.changes.selected = secret or str(out["label"])
            ctx.include_values = include_values and secret is None
            if include_values:
                ctx.result.changes.new_value = shown_value(str(out["value"]), field)
            ctx.result.changes.value_changed = bool(out.get("changed"))
            return
        await _select_aria(ctx, target, value)

    return await perform(tab, "select", element_id, body, expect, resolves_first=True)


async def _select_aria(ctx: ActionContext, target: Target, value: str) -> None:
    """A custom list: open it (unless it is the listbox itself), then click the option by name
    found in a fresh snapshot."""
    tab = ctx.tab
    role = target.fingerprint.role if target.fingerprint else None
    if role != "listbox":
        # Not settled: the option showing is what is waited for, not a quiet page (a list that
        # animates open would hold a quiet wait for its whole animation).
        await click_target(ctx, target, settle=False)
    want = normalise(value)
    # Read as soon as the list shows the option (most draw it in the click's own handlers), again
    # while it is still opening, up to OPEN_WAIT_S.
    deadline = time.monotonic() + OPEN_WAIT_S
    polls = 0
    while True:
        snap = await take_snapshot(tab)
        options = [(i, n) for i, n in snap.by_id.items() if n.role in OPTION_ROLES and n.visible]
        found = [(i, n) for i, n in options if normalise(n.name) == want] or [
            (i, n) for i, n in options if normalise(n.name).casefold() == want.casefold()
        ]
        if len(found) == 1 or time.monotonic() > deadline:
            break
        await asyncio.sleep(OPEN_POLLS_S[min(polls, len(OPEN_POLLS_S) - 1)])
        polls += 1
    if len(found) != 1:
        names = sorted({n.name for _, n in options})[:30]
        why = "several options are" if found else "no option is"
        raise OptionNotFound(
            f"After opening {target.describe()}, {why} named {value!r}. Visible options: "
            + (", ".join(repr(n) for n in names) or "none (it may not be a list; take a new snapshot)"),
            id=target.element_id, options=names,
        )  # fmt: skip
    option = await resolve(tab, found[0][0], heal=False)
    await click_target(ctx, option)
    ctx.result.changes.selected = found[0][1].name
    ctx.result.changes.value_changed = True


async def check(
    tab: Tab, element_id: int, checked: bool = True, *, expect: Expect | None = None
) -> ActionResult:
    async def body(ctx: ActionContext) -> None:
        # Its state read in the lookup's own round trip (the long way when it had to be found again).
        target = await resolve(tab, element_id, early=(STATE_BY_KEY_JS, ()))
        await ctx.adopt(target)
        state = target.early if isinstance(target.early, dict) else await _toggle_state(tab, target)
        if not isinstance(state, dict):
            raise NotInteractable(
                f"{target.sentence()} has no checked state (not a checkbox, radio, switch or "
                "toggle button). Use click instead.",
                id=element_id,
            )
        if state.get("disabled"):
            raise NotInteractable(f"{target.sentence()} is disabled.", id=element_id)
        if bool(state["checked"]) != checked:
            if state.get("radio") and not checked:
                raise NotInteractable(
                    f"{target.sentence()} is a radio button: it is unchecked by checking another "
                    "option of its group.",
                    id=element_id,
                )
            if state.get("keyboard"):
                # Nothing of it to click: focused, then Space, as a keyboard user checks it.
                await focus(ctx, target)
                await press(tab, key_press("space"))
            else:
                # Not settled first: its effect is the state read next (polled while a framework
                # catches up), and what the page does beside it is the next snapshot's to wait for.
                await click_target(ctx, target, settle=False)
            deadline = time.monotonic() + STATE_POLL_S  # frameworks may update the state a tick later
            while True:
                state = await _toggle_state(tab, target)
                if (
                    not isinstance(state, dict)
                    or bool(state["checked"]) == checked
                    or time.monotonic() > deadline
                ):
                    break
                await asyncio.sleep(0.05)
            final = bool(state["checked"]) if isinstance(state, dict) else None
            ctx.result.changes.value_changed = True
            if final != checked:
                raise NotInteractable(
                    f"Clicking {target.describe()} did not make it {'checked' if checked else 'unchecked'}. "
                    "Take a new snapshot to see what happened.",
                    id=element_id,
                )
        else:  # already so: nothing clicked, still the person sees what was checked
            on_target(tab, target.object_id, target.session_id, target.context_id)
        ctx.result.changes.checked = checked

    return await perform(tab, "check", element_id, body, expect, resolves_first=True)


async def _toggle_state(tab: Tab, target: Target) -> dict[str, Any] | None:
    """The checked state of a native or ARIA toggle, read in the page; of one whose role and state
    come from ElementInternals (Material Web's md-radio), which the page cannot read, from Chrome's
    accessibility tree. None when it has none."""
    state = await call_on(tab, target, STATE_JS)
    if isinstance(state, dict):
        return state
    try:
        reply = await tab.session.cdp(
            "Accessibility.getPartialAXTree",
            {"objectId": target.object_id, "fetchRelatives": False},
            session_id=target.session_id,
            result_type=PartialAXTreeResult,
        )
    except CdpError:
        return None
    facts = facts_of(reply.nodes[0]) if reply.nodes else {}
    if facts.get("axRole") not in AX_TOGGLE_ROLES:
        return None
    return {"checked": facts.get("checked") is True, "radio": facts["axRole"] in ("radio", "menuitemradio"),
            "disabled": facts.get("disabled") is True}  # fmt: skip
