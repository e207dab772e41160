"""Keyboard actions: type text into a field, press keys and shortcuts.

Text goes in with ``Input.insertText`` (one native ``beforeinput``/``input`` pair, which is what
React's onChange and other frameworks' value trackers listen to); per-character typing sends
real keyDown/keyUp events for pages that react to each key. Key events go to the tab's root
session: the browser delivers them to whichever frame has focus.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

from browserx import page_js
from browserx.actions.effects import on_target
from browserx.actions.focus_guard import refuse_focused_opted_out
from browserx.actions.keys import (
    KeyPress,
    char_press,
    key_press,
    modifier_presses,
    modifiers_mask,
    parse_combo,
)
from browserx.actions.links import refuse_link_focused
from browserx.actions.pointer import click_target
from browserx.actions.resolve import Target, by_key, call_on, resolve
from browserx.actions.result import ActionResult
from browserx.actions.runner import ActionContext, perform
from browserx.errors import PAGE_CALL_ERRORS, BadRequest, CdpError, NotInteractable, PageNavigated
from browserx.expectations import Expect
from browserx.snapshot.redaction import PASSWORD_MASK, field_of, field_secret, shown_value
from browserx.tabs.tab import Tab

CTRL_MASK = 2
TEXT_INPUT_TYPES = ("text", "search", "email", "url", "tel", "password", "number")

PROBE_JS = page_js.load("browserx.actions", "keyboard_probe.js")
SELECT_ALL_JS = page_js.load("browserx.actions", "keyboard_select_all.js")
# Inputs a person fills through a picker, not by typing: their value is set the way the picker
# sets it (the native value setter, then input and change events that bubble, which React's and
# other frameworks' change tracking picks up). The format each one accepts:
PICKER_FORMATS: dict[str, str] = {
    "date": "YYYY-MM-DD",
    "time": "HH:MM or HH:MM:SS",
    "datetime-local": "YYYY-MM-DDTHH:MM",
    "month": "YYYY-MM",
    "week": "YYYY-Www (e.g. 2026-W48)",
    "color": "#rrggbb",
    "range": "a number",
}
PICK_JS = page_js.load("browserx.actions", "keyboard_pick.js")
FOCUS_JS = page_js.load("browserx.actions", "keyboard_focus.js")
BLUR_JS = page_js.load("browserx.actions", "keyboard_blur.js")
PROBE_FOCUS_JS = page_js.load("browserx.actions", "keyboard_probe_focus.js")
PROBE_FOCUS_BY_KEY_JS = by_key(PROBE_FOCUS_JS)
AFTER_JS = page_js.load("browserx.actions", "keyboard_after.js")
TYPED_JS = page_js.load("browserx.actions", "keyboard_typed.js")
TYPED_BY_KEY_JS = by_key(TYPED_JS)


def key_events(p: KeyPress, up: bool = True) -> list[tuple[str, dict[str, Any]]]:
    """The Input.dispatchKeyEvent commands of one key press: keyDown (with text: it types) and
    keyUp."""
    params: dict[str, Any] = {
        "key": p.key,
        "code": p.code,
        "windowsVirtualKeyCode": p.vk,
        "modifiers": p.modifiers,
    }
    down = (
        {"type": "keyDown", "text": p.text, "unmodifiedText": p.text, **params}
        if p.text
        else {"type": "rawKeyDown", **params}
    )
    events = [("Input.dispatchKeyEvent", down)]
    if up:
        events.append(("Input.dispatchKeyEvent", {"type": "keyUp", **params}))
    return events


async def dispatch_in_order(tab: Tab, events: list[tuple[str, dict[str, Any]]]) -> None:
    """Input events sent at once, in order (one round trip): the extension issues a batch's
    commands in its order and the browser queues input in the order it comes, so each event is
    handled after the one before, as when each is waited for (a key-down waits for the renderer:
    a frame on a busy page)."""
    if len(events) == 1:
        await tab.session.cdp(*events[0])
        return
    for answer in await tab.session.cdp_batch(events):
        if isinstance(answer, BaseException):
            raise answer


async def press(tab: Tab, p: KeyPress, up: bool = True) -> None:
    """keyDown (with text: it types) and keyUp of one key."""
    await dispatch_in_order(tab, key_events(p, up))


async def press_combo(tab: Tab, p: KeyPress, repeat: int = 1) -> None:
    """Hold the modifiers (as real key presses, so pages see Control etc.), press, release."""
    mods = modifier_presses(p.modifiers)
    events = [event for m in mods for event in key_events(m, up=False)]
    for _ in range(repeat):
        events += key_events(p)
    held = p.modifiers
    for m in reversed(mods):
        events.append(
            ("Input.dispatchKeyEvent",
             {"type": "keyUp", "key": m.key, "code": m.code, "windowsVirtualKeyCode": m.vk, "modifiers": held})
        )  # fmt: skip
        held &= ~_bit_of(m)
    await dispatch_in_order(tab, events)


def _bit_of(m: KeyPress) -> int:
    return {"Control": 2, "Alt": 1, "Meta": 4, "Shift": 8}.get(m.key, 0)


async def focus(ctx: ActionContext, target: Target, confirm: bool = False) -> bool:
    """Focus without clicking (no side effects from click handlers); click if that fails. Either
    way the person sees the cursor go to it. Whether it has the focus now (after a click, asked
    only when ``confirm``: else True)."""
    try:
        await ctx.tab.session.cdp("DOM.focus", {"objectId": target.object_id}, session_id=target.session_id)
        if await call_on(ctx.tab, target, FOCUS_JS):
            on_target(ctx.tab, target.object_id, target.session_id, target.context_id)
            return True
    except CdpError:
        pass
    await click_target(ctx, target)
    return not confirm or bool(await call_on(ctx.tab, target, FOCUS_JS))


async def clear_field(ctx: ActionContext, target: Target) -> None:
    """Empty a focused field as a person would: select all with the keyboard (the browser's own
    selectAll command, whatever the platform's shortcut), then Backspace. Editors that keep their
    own document behind a hidden textarea (CodeMirror) follow the keys; plain fields whose
    value survives get the DOM selection and Backspace."""
    tab = ctx.tab
    select_all = {"key": "a", "code": "KeyA", "windowsVirtualKeyCode": 65, "modifiers": CTRL_MASK}
    await dispatch_in_order(
        tab,
        [
            ("Input.dispatchKeyEvent", {"type": "rawKeyDown", "commands": ["selectAll"], **select_all}),
            ("Input.dispatchKeyEvent", {"type": "keyUp", **select_all}),
            *key_events(key_press("Backspace")),
        ],
    )
    left = await call_on(tab, target, PROBE_JS, list(TEXT_INPUT_TYPES))
    if isinstance(left, dict) and left.get("value"):
        await call_on(tab, target, SELECT_ALL_JS)
        await press(tab, key_press("Backspace"))


# Characters that, typed one key at a time, are Enter (they may send a form) or move the focus.
ENTER_CHARS = frozenset("\r\n")
FOCUS_MOVERS = frozenset("\t")


async def type_text(
    tab: Tab,
    element_id: int,
    text: str,
    clear: bool = False,
    submit: bool = False,
    per_char: bool = False,
    include_values: bool = False,
    *,
    expect: Expect | None = None,
    delay_ms: int = 0,
    blur: bool = False,
) -> ActionResult:
    async def body(ctx: ActionContext) -> None:
        # Probed and, when it takes text, focused in the lookup's own round trip (a picker input is
        # not focused); the long way when the element had to be found again. Plain text into the
        # top document rides in that round trip too, with its read-back: the extension holds both
        # until the focus call says the field took the focus (else they are never sent).
        behind = (
            bool(text) and not (per_char or clear or submit or blur) and tab.ids.in_top_document(element_id)
        )
        target = await resolve(
            tab,
            element_id,
            early=(PROBE_FOCUS_BY_KEY_JS, (list(TEXT_INPUT_TYPES),)),
            then=[("Input.insertText", {"text": text}), (TYPED_BY_KEY_JS, (list(TEXT_INPUT_TYPES),))]
            if behind
            else (),
        )
        await ctx.adopt(target)
        probe = target.early
        if not isinstance(probe, dict):
            probe = await call_on(ctx.tab, target, PROBE_FOCUS_JS, list(TEXT_INPUT_TYPES))
        if isinstance(probe, dict) and probe.get("tag") == "input" and probe.get("type") in PICKER_FORMATS:
            await _pick(ctx, target, probe, text, include_values)
            return
        if not isinstance(probe, dict) or probe.get("kind") is None:
            tag = probe.get("tag") if isinstance(probe, dict) else "?"
            kind = (
                f'<{tag} type="{probe["type"]}">'
                if isinstance(probe, dict) and probe.get("type")
                else f"<{tag}>"
            )
            raise NotInteractable(
                f"{target.sentence()} is a {kind}, not a text field. Type into an input, "
                "textarea or contenteditable element's ID (for checkboxes use check, for lists select).",
                id=target.element_id,
            )
        if probe.get("disabled") or probe.get("readonly"):
            state = "disabled" if probe.get("disabled") else "read-only"
            raise NotInteractable(
                f"{target.sentence()} is {state}; it cannot be typed into. Something else on "
                "the page may need to be done first.",
                id=target.element_id,
            )
        before = probe.get("value")
        # What the page sends while typing carries the text: with values asked for, network facts
        # keep query values, never for a secret field.
        ctx.include_values = (
            include_values and field_secret(field_of(probe.get("attrs") or {}, probe)) is None
        )
        if not ctx.include_values:
            ctx.typed = (text,)
        # Into a field that has the focus already, the cursor goes once the text is in: on a page
        # that has drawn no effect yet, making the cursor takes the renderer several ms, which the
        # text could wait for even when sent after it (page calls and input reach the renderer by
        # different queues).
        show_after = bool(probe.get("focused")) and bool(text) and not per_char
        if not probe.get("focused"):
            # The page kept the focus from it: DOM.focus, else a click; text goes nowhere else.
            if not await focus(ctx, target, confirm=True):
                raise NotInteractable(
                    f"{target.sentence()} does not keep the focus (the page moves it elsewhere as it "
                    "gets it), so typed text would land in another element; nothing was typed. Take a "
                    "new snapshot: the field to type into may be another one now.",
                    id=target.element_id,
                )
        elif not show_after:
            on_target(ctx.tab, target.object_id, target.session_id, target.context_id)
        if submit:  # where the Enter after the text sends the form: refused before anything is typed
            await refuse_link_focused(tab, None)
        if clear:  # even when the field reads empty: an editor may keep its text elsewhere (CodeMirror)
            await clear_field(ctx, target)
        typed = 0  # characters sent while the page we type into was still there
        typed_back: Any = None  # the field read back with the text (keyboard_typed.js)
        try:
            if per_char:
                for ch in text:
                    if typed and delay_ms:  # paced as a person types (autocompletes, debounces)
                        await asyncio.sleep(delay_ms / 1000)
                    if ctx.watch.started:  # the page is leaving: the rest would land on the next one
                        raise _navigated(typed, text, submit)
                    p = char_press(ch)
                    if ch in ENTER_CHARS:  # an Enter: where it sends the form is checked first
                        await refuse_link_focused(tab, None)
                    if p.vk or p.text:
                        await press(tab, p)
                    else:
                        await tab.session.cdp("Input.insertText", {"text": ch})
                    typed += 1
                    if typed < len(text):  # the rest goes where focus is now ("\t", or the page moved it)
                        await refuse_focused_opted_out(tab, after=True, moved=ch in FOCUS_MOVERS)
            elif text:
                # insertText sends no key events; search boxes and editors that listen for keyup
                # (MkDocs Material's search) would not notice. A person's typing ends with one.
                # Both sent at once: the browser runs input in order. In the top document, the
                # field is read back in the same round trip (keyboard_typed.js waits for the text),
                # and the key-up goes behind the text unwaited: its answer tells nothing the
                # read-back does not, and the browser holds it until the renderer has handled the
                # key (a frame, on a page that has just given the field the focus).
                last = char_press(text[-1])
                key_up = {"type": "keyUp", "key": last.key, "code": last.code, "windowsVirtualKeyCode": last.vk,
                          "modifiers": last.modifiers}  # fmt: skip
                reading = target.session_id is None and not submit and not blur
                sent: list[Any]
                if target.then and probe.get("go") is True:  # it went in with the lookup
                    sent = [target.then[0], None, target.then[1]]
                    tab.session.fire_and_forget(tab.session.cdp("Input.dispatchKeyEvent", key_up))
                else:
                    sending = asyncio.gather(
                        tab.session.cdp("Input.insertText", {"text": text}),
                        _nothing() if reading else tab.session.cdp("Input.dispatchKeyEvent", key_up),
                        call_on(ctx.tab, target, TYPED_JS, list(TEXT_INPUT_TYPES), "" if clear else before)
                        if reading
                        else _nothing(),
                        return_exceptions=True,
                    )
                    if reading:
                        tab.session.fire_and_forget(tab.session.cdp("Input.dispatchKeyEvent", key_up))
                    sent = await sending
                if show_after:
                    on_target(ctx.tab, target.object_id, target.session_id, target.context_id, done=True)
                for failed in sent[:2]:
                    if isinstance(failed, BaseException):
                        raise failed
                typed = len(text)  # it went in, whatever happened to the page after
                typed_back = sent[2]
                if isinstance(typed_back, BaseException):
                    raise typed_back  # the page left as the text went in (a navigation, if it started)
            if isinstance(typed_back, dict) and not ctx.watch.started:
                after = typed_back.get("probe")
                ctx.counter.settled_in(None, typed_back)
            elif target.session_id is None and not submit and not blur and not ctx.watch.started:
                # Settled, read back and counted in one call (the observation's own end).
                settled = await call_on(ctx.tab, target, AFTER_JS, list(TEXT_INPUT_TYPES))
                after = settled.get("probe") if isinstance(settled, dict) else None
                ctx.counter.settled_in(None, settled)
            else:
                after = await call_on(ctx.tab, target, PROBE_JS, list(TEXT_INPUT_TYPES))
        except PAGE_CALL_ERRORS as exc:  # the field's document went away: a navigation, if it started
            if not ctx.watch.started:
                raise
            if typed < len(text) or submit:
                raise _navigated(typed, text, submit) from exc
            return  # all of it went in, then the page moved on (the result says where)
        value = after.get("value") if isinstance(after, dict) else None
        changes = ctx.result.changes
        changes.value_changed = value != before
        changes.focused = bool(after.get("focused")) if isinstance(after, dict) else None
        if isinstance(value, str) and isinstance(after, dict):
            changes.value_length = len(value)
            # Form values only on request, masked like the views; passwords never leave the host.
            field = field_of(after.get("attrs") or {}, after)
            if include_values and field_secret(field) != PASSWORD_MASK:
                changes.new_value = shown_value(value, field)
        if submit:
            await press(tab, key_press("Enter"))
        if blur and not ctx.watch.started:  # leave the field, as a person moving on does
            with contextlib.suppress(*PAGE_CALL_ERRORS):  # it (or its page) went away on Enter
                changes.focused = bool(await call_on(ctx.tab, target, BLUR_JS))

    return await perform(tab, "type", element_id, body, expect, resolves_first=True)


async def _pick(
    ctx: ActionContext, target: Target, probe: dict[str, Any], text: str, include_values: bool
) -> None:
    """Set a date, time, color or range input's value as its picker would."""
    kind = str(probe["type"])
    if probe.get("disabled") or probe.get("readonly"):
        raise NotInteractable(f"{target.sentence()} is disabled or read-only.", id=target.element_id)
    before = probe.get("value")
    await focus(ctx, target)
    done = await call_on(ctx.tab, target, PICK_JS, text)
    if not isinstance(done, dict) or not done.get("ok"):
        raise BadRequest(
            f"{target.sentence()} is an <input type={kind}>; it takes {PICKER_FORMATS[kind]}, "
            f"and {text!r} is not that. Its value is unchanged."
        )
    value = done.get("value")
    changes = ctx.result.changes
    changes.value_changed = value != before
    if isinstance(value, str):
        changes.value_length = len(value)
        changes.new_value = (
            shown_value(value, field_of(probe.get("attrs") or {}, probe)) if include_values else None
        )


def _navigated(typed: int, text: str, submit: bool) -> PageNavigated:
    """Typing stopped because the page navigated away: how far it got, never the text."""
    rest = "; Enter was not pressed" if submit else ""
    return PageNavigated(
        f"The page navigated away while typing: {typed} of {len(text)} characters went in{rest}. "
        "Nothing more was typed (it would have gone into the next page). Take a new snapshot.",
        typed=typed,
        of=len(text),
    )


async def key(
    tab: Tab,
    key: str,
    modifiers: Sequence[str] = (),
    element_id: int | None = None,
    repeat: int = 1,
    *,
    expect: Expect | None = None,
) -> ActionResult:
    async def body(ctx: ActionContext) -> None:
        base, combo_mods = parse_combo(key)
        p = key_press(base, modifiers_mask([*combo_mods, *modifiers]))  # validate before acting
        if not 1 <= repeat <= 100:
            raise BadRequest("repeat must be between 1 and 100")
        target = None
        if element_id is not None:
            target = await resolve(tab, element_id)
            await ctx.adopt(target)
            await focus(ctx, target)
        else:
            await refuse_focused_opted_out(tab)  # keys go to the focus: never into an opted-out part
        if p.key == "Enter":  # Enter follows a focused link: the URL allowlist first (any of its names)
            await refuse_link_focused(tab, target)
        await press_combo(tab, p, repeat)
        # A Tab may have moved focus into one (into an out-of-process frame: it may still be arriving).
        await refuse_focused_opted_out(tab, after=True, moved=base.lower() == "tab")

    # With an element, the observation starts beside its lookup, as a click's does.
    return await perform(tab, "key", element_id, body, expect, resolves_first=element_id is not None)


async def _nothing() -> None:
    return None
