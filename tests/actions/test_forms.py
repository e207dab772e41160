"""Choosing an option and setting a toggle (actions/forms.py) on a recorded page
(tests/actions/acting.py): a native select is set in one call and the result says the label (the
value on request, a secret list only its kind); a missing or disabled option fails with the
options; a toggle is clicked only when its state differs, checked again after, a radio is never
unchecked and a keyboard-only toggle gets Space."""

from __future__ import annotations

from typing import Any

from browserx.actions import forms, keyboard, pointer
from browserx.actions.result import ActionResult
from tests.actions.acting import Acting, ActingPage, act, clicks_land, mouse_presses

URL = "http://127.0.0.1:34659/snap-controls.html"
# Every snippet the module may choose an option with (by the element, by its key beside the lookup,
# counting the page's changes or not): all answered alike.
SELECTS = [getattr(forms, name) for name in dir(forms) if name.startswith("SELECT") and name.endswith("_JS")]


def on_select(p: ActingPage, answer: object) -> None:
    for snippet in SELECTS:
        p.on(snippet, answer)


def chosen(p: ActingPage) -> list[object]:
    """The value each select call was asked to choose (its last argument)."""
    return [args[-1] for snippet in SELECTS for args in p.calls_to(snippet)]


def selecting(p: ActingPage, value: str, name: str = "Country", **options: Any) -> ActionResult:
    async def body(acting: Acting) -> ActionResult:
        return await forms.select(acting.tab, acting.id_named(name), value, **options)

    return act(p, body)


def native(value: str, **answer: Any) -> ActingPage:
    """The Country select, answering as forms_select.js does for ``value``."""
    p = ActingPage("snap-controls")
    on_select(p, {"native": True, "label": value, "value": value[:2].lower(), "changed": True, "attrs": {},
                  "counted": [1, URL], **answer})  # fmt: skip
    return p


def test_a_native_select_is_set_in_one_call_and_the_result_says_its_label() -> None:
    p = native("Italy")
    result = selecting(p, "Italy")
    assert result.success and result.action == "select"
    assert chosen(p) == ["Italy"]  # one call chose it
    assert result.changes.selected == "Italy" and result.changes.value_changed is True
    assert result.changes.new_value is None
    assert mouse_presses(p) == []  # set as the select sets itself, no clicks
    assert selecting(native("Italy"), "Italy", include_values=True).changes.new_value == "it"
    unchanged = selecting(native("Germany", changed=False), "Germany")
    assert unchanged.success and unchanged.changes.value_changed is False


def test_a_secret_list_shows_only_its_kind() -> None:
    p = native("12", attrs={"autocomplete": "cc-exp-month", "name": "exp-month"})
    result = selecting(p, "12", include_values=True)
    assert result.success and result.changes.selected == "[card expiry]"
    assert result.changes.new_value == "[card expiry]"


def test_a_missing_option_fails_with_the_options_there_are() -> None:
    p = native("Spain", error="missing", options=["France", "Germany", "Italy"])
    result = selecting(p, "Spain")
    assert not result.success and result.error is not None and result.error.code == "option_not_found"
    assert result.error.details is not None and result.error.details["options"] == [
        "France",
        "Germany",
        "Italy",
    ]
    assert "'Italy'" in result.error.message
    disabled = selecting(native("France", error="disabled"), "France")
    assert disabled.error is not None and disabled.error.code == "not_interactable"
    assert "it is disabled" in disabled.error.message
    option = selecting(native("France", error="option-disabled"), "France")
    assert option.error is not None and "that option is disabled" in option.error.message


def test_a_select_the_page_cannot_read_is_not_interactable() -> None:
    p = ActingPage("snap-controls")
    on_select(p, None)
    result = selecting(p, "Italy")
    assert result.error is not None and result.error.code == "not_interactable"


def test_a_custom_list_without_the_option_names_what_it_shows() -> None:
    """Not a native select: it is opened with a click, then read from a fresh snapshot (the
    recorded page has no options at all)."""
    p = ActingPage("snap-controls")
    clicks_land(p)
    on_select(p, {"native": False})
    result = selecting(p, "Blue", name="Like this post")
    assert len(mouse_presses(p)) == 1  # opened
    # The click that opens it is not settled (a list animating open would hold a quiet wait): the
    # snapshots that look for the option are what waits.
    assert p.calls_to(pointer.AFTER_JS) == [[False]]
    assert not result.success and result.error is not None and result.error.code == "option_not_found"
    assert "no option is named 'Blue'" in result.error.message


# -- toggles ---------------------------------------------------------------------------------------------


class Toggle:
    """A checkbox of the page: a click flips it."""

    def __init__(self, checked: bool, **facts: Any) -> None:
        self.checked = checked
        self.facts = facts
        self.flips = True  # whether a click changes it

    def state(self, args: list[Any]) -> dict[str, Any]:
        return {"checked": self.checked, **self.facts}


def toggle_page(box: Toggle) -> ActingPage:
    p = ActingPage("snap-controls")
    clicks_land(p)
    p.on(forms.STATE_JS, box.state)
    p.on(keyboard.FOCUS_JS, True)

    def flip(method: str, params: dict[str, Any]) -> None:
        pressed = params.get("type") == "mousePressed" or params.get("key") == " "
        if pressed and params.get("type") in ("mousePressed", "keyDown") and box.flips:
            box.checked = not box.checked

    p.on_input = flip
    return p


def checking(p: ActingPage, checked: bool = True, name: str = "Subscribe to newsletter") -> ActionResult:
    async def body(acting: Acting) -> ActionResult:
        return await forms.check(acting.tab, acting.id_named(name), checked)

    return act(p, body)


def test_a_toggle_is_clicked_only_when_its_state_differs() -> None:
    box = Toggle(False)
    p = toggle_page(box)
    result = checking(p)
    assert result.success and result.action == "check" and box.checked
    assert len(mouse_presses(p)) == 1
    assert result.changes.checked is True and result.changes.value_changed is True
    again = toggle_page(box)
    result = checking(again)
    assert result.success and result.changes.checked is True and mouse_presses(again) == []
    assert not result.changes.value_changed
    result = checking(toggle_page(box), checked=False)
    assert result.success and not box.checked and result.changes.checked is False


def test_a_toggle_that_does_not_change_is_reported() -> None:
    box = Toggle(False)
    box.flips = False
    result = checking(toggle_page(box))
    assert not result.success and result.error is not None and result.error.code == "not_interactable"
    assert "did not make it checked" in result.error.message


def test_a_radio_is_not_unchecked_and_a_disabled_toggle_is_left_alone() -> None:
    radio = Toggle(True, radio=True)
    p = toggle_page(radio)
    result = checking(p, checked=False, name="Standard shipping")
    assert result.error is not None and "checking another option of its group" in result.error.message
    assert mouse_presses(p) == [] and radio.checked
    disabled = toggle_page(Toggle(False, disabled=True))
    result = checking(disabled)
    assert (
        result.error is not None and "is disabled" in result.error.message and mouse_presses(disabled) == []
    )


def test_a_keyboard_toggle_gets_space() -> None:
    box = Toggle(False, keyboard=True)
    p = toggle_page(box)
    result = checking(p)
    assert result.success and box.checked and mouse_presses(p) == []
    assert [e["key"] for m, e in p.inputs if e.get("type") == "keyDown"] == [" "]


def test_an_element_with_no_checked_state_is_refused() -> None:
    p = ActingPage("snap-controls")
    p.on(forms.STATE_JS, None)  # not a toggle, and Chrome's tree says nothing of one
    result = checking(p, name="Save draft")
    assert result.error is not None and "has no checked state" in result.error.message
