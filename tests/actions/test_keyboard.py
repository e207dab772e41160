"""Typing and keys (actions/keyboard.py) on a recorded page (tests/actions/acting.py): the text goes
in as one insertText (or key by key), the field is read back and what the result says of it
(changed, its length, its value only when asked and never a password's), fields that take no
text, pickers, clearing, Enter, shortcuts, and a page that leaves while it is typed into."""

from __future__ import annotations

from typing import Any

from browserx.actions import keyboard
from browserx.actions.focus_guard import FOCUS_GUARD_JS
from browserx.actions.links import AT_POINT_JS, FOCUSED_JS
from browserx.actions.result import ActionResult
from browserx.errors import SiteBlocked
from tests.actions.acting import Acting, ActingPage, act, clicks_land, mouse_presses
from tests.fakes import emit

URL = "http://127.0.0.1:34659/snap-controls.html"


def field(value: str = "", **facts: Any) -> dict[str, Any]:
    """What keyboard_probe.js answers of a text input."""
    return {"kind": "input", "tag": "input", "type": "text", "attrs": {}, "wasPassword": False,
            "disabled": False, "readonly": False, "value": value, "focused": True, **facts}  # fmt: skip


class Field:
    """A text field of the page: its value follows what is typed into it."""

    def __init__(self, value: str = "", **facts: Any) -> None:
        self.value = value
        self.facts = facts

    def probe(self, args: list[Any] | None = None) -> dict[str, Any]:
        return field(self.value, **self.facts)

    def probe_focus(self, args: list[Any] | None = None) -> dict[str, Any]:
        """keyboard_probe_focus.js: go when a field that takes text has the focus."""
        facts = self.probe()
        takes_text = facts["kind"] and not facts["disabled"] and not facts["readonly"]
        return {"go": bool(takes_text and facts["focused"]), **facts}

    def typed(self, text: str) -> None:
        self.value += text


def page(box: Field) -> ActingPage:
    p = ActingPage("snap-controls")
    p.on(keyboard.PROBE_JS, box.probe)
    for probe in (keyboard.PROBE_FOCUS_JS, keyboard.PROBE_FOCUS_BY_KEY_JS):
        p.on(probe, box.probe_focus)
    after = lambda args: {"probe": box.probe(), "settled": 5, "counted": [1, URL]}  # noqa: E731
    p.on(keyboard.TYPED_JS, after)
    p.on(keyboard.TYPED_BY_KEY_JS, after)
    p.on(keyboard.AFTER_JS, after)
    p.on(keyboard.FOCUS_JS, True)
    p.on(keyboard.SELECT_ALL_JS, None)
    p.on(keyboard.BLUR_JS, None)
    p.on(FOCUS_GUARD_JS, {})
    p.on(FOCUSED_JS, None)
    p.on(AT_POINT_JS, None)

    def typed(method: str, params: dict[str, Any]) -> None:
        if method == "Input.insertText" or (params.get("type") == "keyDown" and params.get("text")):
            box.typed(params["text"])  # the text, or a key that types
        elif params.get("commands") == ["selectAll"]:
            box.value = ""  # select all, then the Backspace that follows empties it

    p.on_input = typed
    return p


def keys(p: ActingPage) -> list[tuple[str, str]]:
    """(type, key) of the key events sent; ("insertText", text) for text."""
    return [
        ("insertText", e["text"]) if m == "Input.insertText" else (e["type"], e["key"])
        for m, e in p.inputs
        if m in ("Input.insertText", "Input.dispatchKeyEvent")
    ]


def typing(p: ActingPage, text: str, name: str = "Full name", **options: Any) -> ActionResult:
    async def body(acting: Acting) -> ActionResult:
        return await keyboard.type_text(acting.tab, acting.id_named(name), text, **options)

    return act(p, body)


def test_text_goes_in_at_once_and_the_result_says_what_the_field_holds() -> None:
    box = Field()
    p = page(box)
    result = typing(p, "Ada Lovelace")
    assert result.success and result.action == "type"
    assert ("insertText", "Ada Lovelace") in keys(p)
    assert ("keyUp", "e") in keys(p)  # the text ends with a key-up, as a person's typing does
    assert box.value == "Ada Lovelace"
    changes = result.changes
    assert changes.value_changed is True and changes.value_length == len("Ada Lovelace")
    assert changes.new_value is None  # values only on request
    assert changes.focused is True
    assert result.round_trips is not None and result.round_trips >= 1


def test_text_rides_in_the_lookup_burst_once_the_focus_call_says_go() -> None:
    """Held by the extension until the focus call said the field took the focus (tests/fakes.py
    holds gated commands as the worker does): one insertText, read back by key, no second trip."""
    box = Field()
    p = page(box)
    result = typing(p, "Ada")
    assert result.success and box.value == "Ada"
    assert keys(p).count(("insertText", "Ada")) == 1
    assert p.calls_to(keyboard.TYPED_BY_KEY_JS) and not p.calls_to(keyboard.TYPED_JS)
    assert result.changes.value_changed is True and result.changes.value_length == 3


def test_text_held_behind_a_focus_call_that_did_not_say_go_goes_in_once_the_long_way() -> None:
    box = Field(focused=False, go=False)
    p = page(box)
    result = typing(p, "Ada")
    assert result.success and box.value == "Ada"
    assert keys(p).count(("insertText", "Ada")) == 1  # the held one was never sent
    assert not p.calls_to(keyboard.TYPED_BY_KEY_JS) and p.calls_to(keyboard.TYPED_JS)


def test_blur_leaves_the_field_and_the_result_says_whether_the_focus_went() -> None:
    box = Field()
    p = page(box)
    p.on(keyboard.BLUR_JS, False)  # the focus left it
    result = typing(p, "Ada", blur=True)
    assert result.success and box.value == "Ada" and len(p.calls_to(keyboard.BLUR_JS)) == 1
    assert result.changes.focused is False


def test_a_world_that_lost_the_page_library_gets_the_text_once_in_the_burst_sent_again() -> None:
    """The lookup burst's stubs throw where the world lacks the page library (page_js.py): the
    focus call said no go, so the held text was never sent, and the burst goes again, the lookup
    whole (installing the library)."""
    box = Field()
    p = page(box)

    async def body(acting: Acting) -> tuple[ActionResult, ActionResult]:
        first = await keyboard.type_text(acting.tab, acting.id_named("Full name"), "Ada")
        p.kept.clear()
        second = await keyboard.type_text(acting.tab, acting.id_named("Full name"), " L")
        return first, second

    first, second = act(p, body)
    assert first.success and second.success and box.value == "Ada L"
    assert [k for k in keys(p) if k[0] == "insertText"] == [("insertText", "Ada"), ("insertText", " L")]
    assert len(p.calls_to(keyboard.TYPED_BY_KEY_JS)) == 2  # read back in the burst both times


def test_enter_after_the_text_is_refused_before_typing_when_its_form_goes_to_a_blocked_site() -> None:
    """type with submit: the form Enter would send (links_focused.js answers its address) is checked
    by the URL allowlist and the person's site rules (Tab.check_destination) before anything is
    typed."""
    box = Field()
    p = page(box)
    p.on(FOCUSED_JS, {"href": "https://bank.example/pay", "download": False, "page": URL, "form": True})

    async def body(acting: Acting) -> ActionResult:
        async def check(url: str) -> None:
            raise SiteBlocked(f"browserx may not go to {url}", site="bank.example")

        acting.tab.check_destination = check
        return await keyboard.type_text(acting.tab, acting.id_named("Full name"), "Ada", submit=True)

    result = act(p, body)
    assert not result.success and result.error is not None and result.error.code == "site_blocked"
    assert box.value == "" and keys(p) == []


def test_a_field_that_never_keeps_the_focus_gets_no_text() -> None:
    """The page moves the focus away as the field gets it (even from a click): the text would go
    to whatever took it, so nothing is typed."""
    p = page(Field(focused=False, go=False))
    p.on(keyboard.FOCUS_JS, False)
    clicks_land(p)
    result = typing(p, "Ada")
    assert not result.success and result.error is not None and result.error.code == "not_interactable"
    assert "does not keep the focus" in result.error.message
    assert [k for k in keys(p) if k[0] == "insertText"] == []
    assert mouse_presses(p)  # it was clicked, as a person would, before giving up


def test_values_on_request_and_never_a_passwords() -> None:
    result = typing(page(Field()), "Ada", include_values=True)
    assert result.changes.new_value == "Ada"
    secret = Field(type="password", attrs={"type": "password"}, wasPassword=True)
    result = typing(page(secret), "hunter2", include_values=True)
    assert result.success and result.changes.value_length == 7
    assert result.changes.new_value is None
    assert "hunter2" not in result.model_dump_json()


def test_key_by_key_sends_each_character_as_a_key() -> None:
    box = Field()
    p = page(box)
    result = typing(p, "ab1", per_char=True)
    assert result.success
    downs = [k for t, k in keys(p) if t == "keyDown"]
    assert downs == ["a", "b", "1"] and ("insertText", "ab1") not in keys(p)
    assert box.value == "ab1"


def test_clear_selects_all_and_deletes_before_typing() -> None:
    box = Field("old text")
    p = page(box)
    result = typing(p, "new", clear=True)
    assert result.success and box.value == "new"
    sent = keys(p)
    select_all = sent.index(("rawKeyDown", "a"))
    backspace = sent.index(("rawKeyDown", "Backspace"))
    assert select_all < backspace < sent.index(("insertText", "new"))


def test_submit_presses_enter_after_the_text() -> None:
    p = page(Field())
    result = typing(p, "query", submit=True)
    assert result.success
    sent = keys(p)
    assert sent.index(("insertText", "query")) < sent.index(("keyDown", "Enter"))


def test_a_field_that_takes_no_text_is_refused_and_nothing_is_typed() -> None:
    button = Field(kind=None, tag="button", type="")
    p = page(button)
    result = typing(p, "hello")
    assert not result.success and result.error is not None and result.error.code == "not_interactable"
    assert "<button>" in result.error.message
    assert keys(p) == []
    disabled = page(Field(disabled=True))
    result = typing(disabled, "hello")
    assert result.error is not None and "disabled" in result.error.message and keys(disabled) == []


def test_a_date_is_set_as_its_picker_sets_it() -> None:
    date = Field(type="date", kind=None)
    p = page(date)
    p.on(keyboard.PICK_JS, lambda args: {"ok": True, "value": args[0]} if args else {"ok": True, "value": ""})
    result = typing(p, "2026-11-26", include_values=True)
    assert result.success
    assert p.calls_to(keyboard.PICK_JS) == [["2026-11-26"]]
    assert result.changes.value_changed is True and result.changes.new_value == "2026-11-26"
    assert keys(p) == []  # no typing into a picker
    bad = page(Field(type="date", kind=None))
    bad.on(keyboard.PICK_JS, {"ok": False})
    result = typing(bad, "next tuesday")
    assert not result.success and result.error is not None and result.error.code == "bad_request"
    assert "YYYY-MM-DD" in result.error.message


def test_a_page_that_leaves_while_keys_go_in_stops_the_typing() -> None:
    box = Field()
    p = page(box)
    tabs: list[Any] = []
    typed = p.on_input
    assert typed is not None

    def leave_after_the_first_key(method: str, params: dict[str, Any]) -> None:
        typed(method, params)
        if params.get("type") == "keyUp" and tabs:
            emit(tabs[0], "Page.frameStartedLoading", {"frameId": "F"})

    p.on_input = leave_after_the_first_key

    async def body(acting: Acting) -> ActionResult:
        tabs.append(acting.tab)
        return await keyboard.type_text(acting.tab, acting.id_named("Full name"), "abc", per_char=True)

    result = act(p, body)
    assert not result.success and result.error is not None and result.error.code == "page_navigated"
    assert result.error.details == {"typed": 1, "of": 3}
    assert "abc" not in result.error.message
    assert [k for t, k in keys(p) if t == "keyDown"] == ["a"]


# -- keys ---------------------------------------------------------------------------------------------


def pressing(p: ActingPage, combo: str, name: str | None = None, **options: Any) -> ActionResult:
    async def body(acting: Acting) -> ActionResult:
        element = acting.id_named(name) if name else None
        return await keyboard.key(acting.tab, combo, element_id=element, **options)

    return act(p, body)


def test_a_shortcut_holds_its_modifiers_around_the_key() -> None:
    p = page(Field())
    result = pressing(p, "Ctrl+Shift+K")
    assert result.success and result.action == "key"
    assert keys(p) == [("rawKeyDown", "Control"), ("rawKeyDown", "Shift"), ("rawKeyDown", "K"), ("keyUp", "K"),
                       ("keyUp", "Shift"), ("keyUp", "Control")]  # fmt: skip
    held = [e["modifiers"] for m, e in p.inputs if e.get("key") == "K"]
    assert held == [2 | 8, 2 | 8]
    assert len(p.calls_to(FOCUS_GUARD_JS)) == 2  # before (keys go to the focus) and after (a Tab moves it)


def test_a_tab_whose_focus_is_still_arriving_in_an_opted_out_frame_is_refused() -> None:
    """Focus a Tab moves into an out-of-process frame shows in the page only once the frame took
    it: a page where no element holds it is asked again, and the focus arriving in an opted-out
    part is refused (and taken out) — other keys, which move no focus, are not kept waiting."""
    for combo, refused in (("Tab", True), ("Shift+Tab", True), ("K", False)):
        p = page(Field())
        answers = iter([{"optedOut": False}, {"optedOut": False, "nowhere": True}, {"optedOut": True}])
        p.on(FOCUS_GUARD_JS, lambda args, answers=answers: next(answers))
        result = pressing(p, combo)
        assert result.success is not refused, combo
        if refused:
            assert result.error is not None and result.error.code == "page_opted_out"
            assert len(p.calls_to(FOCUS_GUARD_JS)) == 3 and p.calls_to(FOCUS_GUARD_JS)[-1] == [True]
        else:
            assert len(p.calls_to(FOCUS_GUARD_JS)) == 2


def test_a_shortcut_goes_in_one_round_trip_as_a_single_key_does() -> None:
    # The events are one batch, in order (the browser queues input as it comes): the modifiers,
    # the key and their releases cost no round trip each.
    plain = pressing(page(Field()), "K")
    combo = pressing(page(Field()), "Ctrl+Shift+K", repeat=3)
    assert plain.success and combo.success
    assert combo.round_trips == plain.round_trips


def test_a_key_on_an_element_focuses_it_first_and_repeats() -> None:
    p = page(Field())
    result = pressing(p, "ArrowDown", name="Country", repeat=3)
    assert result.success
    assert [m for m, _ in p.dom if m == "DOM.focus"]
    assert [k for t, k in keys(p) if t == "rawKeyDown"] == ["ArrowDown"] * 3


def test_enter_checks_the_focused_link_first_and_a_bad_repeat_is_refused() -> None:
    p = page(Field())
    p.on(FOCUSED_JS, {"href": "chrome://settings", "page": URL})
    result = pressing(p, "Enter")
    assert not result.success and result.error is not None and result.error.code == "url_not_allowed"
    assert keys(p) == []
    result = pressing(page(Field()), "a", repeat=0)
    assert result.error is not None and result.error.code == "bad_request"
    result = pressing(page(Field()), "NoSuchKey")
    assert result.error is not None and result.error.code == "bad_request"
