"""``fill``: a whole form in one call, as the agent's type, select and check calls would fill it.

Each field goes through the action tool a person's hand would use on it, called as that tool is
(control/action_methods.py's ``ACTIONS``): so each is under the tab's lock, the opt-out refusal,
the person's confirmation of sensitive input and the input gate, exactly as the single calls are,
and nothing here can go around them. Which tool is read from what the ID named in the snapshot
(role and tag): a bool checks or unchecks, a ``<select>``, a listbox or a combobox that is not a
text field chooses an option, a file input takes the file at the path given (upload: the person's
word first, as for a single upload), everything else is typed into with its value replaced and left
(blur: its change event fires, as when a person moves on). The first field that fails stops the
fill with that field's error, whose details list what was done before it (``filled``). The expectation, if any, is the last field's.
"""

from __future__ import annotations

import time
from typing import Any

from browserx.control.action_methods import ACTIONS
from browserx.control.bindings import Context, implements
from browserx.control.schemas import (
    ActionParams,
    CheckParams,
    FillField,
    FillParams,
    SelectParams,
    TypeParams,
    UploadParams,
)
from browserx.errors import BadRequest, BrowserxError
from browserx.tabs.tab import Tab

TOGGLES = frozenset({"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"})
# (a button that opens a listbox is chosen from, as select does; typing into a button never works)
CHOOSERS = frozenset({"listbox", "button"})
# What a field's entry in the result keeps of its action's result (the page-wide parts are the
# last action's, at the top).
KEPT = ("action", "id", "success", "changes", "verification")
# What any field's action may report of the page at large, gathered over the whole fill: the tabs
# its page opened or closed (control/popups.py), downloads, dialogs the person had answered.
GATHERED = ("opened_tabs", "closed_tabs", "downloads", "dialogs_answered")


def field_action(tab: Tab, field: FillField, expect: Any, tab_id: int) -> ActionParams:
    """The action params that fill ``field`` (see the module docstring)."""
    seen = tab.recall(field.id)
    role, tag = (seen.role, seen.tag) if seen is not None else (None, "")
    common: dict[str, Any] = {"tab": tab_id, "id": field.id, "expect": expect}
    if isinstance(field.value, bool):
        return CheckParams(**common, checked=field.value)
    if role in TOGGLES:
        raise BadRequest(
            f"Field [{field.id}] is a {role}: give true or false for it, not text.",
            details={"id": field.id},
        )
    if tag == "input" and role == "button":  # a file input (the other input buttons take no value)
        return UploadParams(**common, paths=[field.value])
    if tag == "select" or role in CHOOSERS or (role == "combobox" and tag not in ("input", "textarea")):
        return SelectParams(**common, value=field.value)
    return TypeParams(**common, text=field.value, clear=True, blur=True)


def _entry(result: dict[str, Any]) -> dict[str, Any]:
    return {key: result[key] for key in KEPT if result.get(key) is not None}


@implements("fill")
async def fill(ctx: Context, p: FillParams) -> dict[str, Any]:
    started = time.perf_counter()
    tab = await ctx.registry.resolve(p.tab)
    done: list[dict[str, Any]] = []
    last: dict[str, Any] = {}
    tabs: dict[str, list[Any]] = {}  # GATHERED, over the fields so far
    for index, field in enumerate(p.fields):
        expect = p.expect if index == len(p.fields) - 1 else None
        try:
            params = field_action(tab, field, expect, tab.tab_id)
            name = type(params).__name__.removesuffix("Params").lower()
            last = await ACTIONS[name](ctx, params)
            for key in GATHERED:
                tabs.setdefault(key, []).extend(last.pop(key, []))
        except BrowserxError as exc:
            # The field's own error, with what was done before it: raised as the single call's
            # would be (its code kept), so clients see a failed call.
            left = len(p.fields) - index - 1
            exc.message = (
                f"Field {index + 1} of {len(p.fields)} ([{field.id}]) failed; the {index} before it were "
                f"filled, the {left} after it were not: {exc.message}"
            )
            exc.details = {
                **exc.details,
                "field": field.id,
                "filled": done,
                **{k: v for k, v in tabs.items() if v},
            }
            raise
        done.append(_entry(last))
    out = {key: value for key, value in last.items() if key not in KEPT}  # the page as the last left it
    out.update({key: value for key, value in tabs.items() if value})
    return {**out, "tab": tab.tab_id, "action": "fill", "success": True, "filled": len(done), "fields": done,
            "duration_ms": round((time.perf_counter() - started) * 1000, 1)}  # fmt: skip
