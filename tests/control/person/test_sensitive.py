"""What needs the person's "Allow" before it runs (control/person/sensitive.py): names that pay, buy,
order, delete or move money; a submit of a form holding a password or payment field; and which
actions are looked at at all."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from browserx.control.person import sensitive
from browserx.control.person.sensitive import (
    FormFacts,
    _what,
    form_facts,
    question,
    sensitive_reason,
    sensitive_words,
)
from browserx.control.schemas import (
    CheckParams,
    ClickAtParams,
    ClickParams,
    HoverParams,
    KeyParams,
    TypeParams,
)
from browserx.errors import DeniedByUser
from browserx.relay.cdp_types import JavaScriptDialogOpening

NOTHING = FormFacts()


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("P\u200bay now", ["pay now"]),  # a zero-width space
        ("Pa\u00ady", ["pay"]),  # a soft hyphen
        ("\u202ePay", ["pay"]),  # a direction mark
        ("P\u0430y now", ["pay now"]),  # a Cyrillic a
        ("\uff30\uff41\uff59", ["pay"]),  # full-width letters
        ("Submit payment", ["submit payment"]),
        ("Pa\u034fy", ["pay"]),  # a combining grapheme joiner
        ("Pa\ufe0fy", ["pay"]),  # a variation selector
        ("Pa\u0335y", ["pay"]),  # an overlay
        ("P\u0251y", ["pay"]),  # a Latin alpha
        ("Métodos de pago", []),
        ("Jetzt kaufen", ["kaufen"]),
        ("Konto löschen", ["löschen"]),
        ("Supprimer mon compte", ["supprimer"]),
        ("Pagar ahora", ["pagar"]),
        ("Continue", []),
        ("Repay schedule", []),
        ("Shipping", []),
    ],
)
def test_names_are_read_as_a_person_reads_them_in_more_than_english(name: str, words: list[str]) -> None:
    assert sensitive_words(name) == words


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("Pay now", ["pay now"]),
        ("Pay $20.00", ["pay"]),
        ("Buy", ["buy"]),
        ("Place order", ["place order"]),
        ("Complete purchase", ["purchase"]),
        ("Proceed to checkout", ["checkout"]),
        ("Check  out", ["check out"]),
        ("Delete repository", ["delete"]),
        ("Remove account", ["remove account"]),
        ("TRANSFER FUNDS", ["transfer"]),
        ("Send money to Ada", ["send money"]),
        ("Confirm payment", ["confirm payment"]),
        # whole words only
        ("Payment methods", []),
        ("Buyer's guide", []),
        ("Ordered list", []),
        ("Deleted items", []),
        ("Save", []),
        ("Remove filter", []),
        ("", []),
    ],
)
def test_the_words_that_make_a_control_sensitive(name: str, words: list[str]) -> None:
    assert sensitive_words(name) == words


def test_a_click_on_a_sensitive_name_needs_allow_typing_into_a_field_so_named_does_not() -> None:
    assert sensitive_reason("button", "Pay now", NOTHING) == 'the control says "pay now"'
    assert sensitive_reason("link", "Delete account", NOTHING) == 'the control says "delete"'
    assert sensitive_reason(None, "Buy", NOTHING) == 'the control says "buy"'  # a clickable div
    assert sensitive_reason("textbox", "Order number", NOTHING) is None
    assert sensitive_reason("button", "Save", NOTHING) is None
    # Enter goes by the form only, not by the focused field's name
    assert sensitive_reason("textbox", "Pay", NOTHING, clicks=False) is None


def _field(**attrs: Any) -> dict[str, Any]:
    input_type = attrs.pop("inputType", attrs.get("type", "text"))
    return {
        "attrs": attrs,
        "inputType": input_type,
        "wasPassword": attrs.pop("wasPassword", False),
        "label": "",
    }


@pytest.mark.parametrize(
    ("fields", "secrets"),
    [
        ([_field(type="email", name="email"), _field(type="password", name="pw")], ("a password",)),
        ([_field(type="text", name="pw", wasPassword=True)], ("a password",)),  # "show password" on
        ([_field(autocomplete="cc-number", name="x")], ("a card number",)),
        ([_field(name="cvc"), _field(name="card-expiry")], ("a card code", "a card expiry")),
        ([_field(placeholder="Card number")], ("a card number",)),
        ([_field(name="q"), _field(type="email", name="email")], ()),
        ([_field(name="otp", autocomplete="one-time-code")], ()),  # a code is not a password here
    ],
)
def test_what_a_forms_fields_hold(fields: list[dict[str, Any]], secrets: tuple[str, ...]) -> None:
    facts = form_facts({"submits": True, "fields": fields, "host": "shop.example"})
    assert facts == FormFacts(True, secrets, "shop.example")


def test_a_submit_of_a_form_with_a_password_or_payment_field_needs_allow() -> None:
    login = FormFacts(True, ("a password",), "bank.example")
    assert sensitive_reason("button", "Sign in", login) == "it sends a form with a password"
    assert sensitive_reason("textbox", "Password", login, clicks=False) == "it sends a form with a password"
    card = FormFacts(True, ("a card number", "a card code"))
    assert (
        sensitive_reason("button", "Continue", card) == "it sends a form with a card number and a card code"
    )
    # not submitting it (a "show password" button of type=button), or a form without such fields
    assert sensitive_reason("button", "Show password", FormFacts(False, ("a password",))) is None
    assert sensitive_reason("button", "Search", FormFacts(True, ())) is None


def test_odd_answers_from_the_page_are_nothing_sensitive() -> None:
    assert form_facts(None) == NOTHING
    assert form_facts({"fields": "x", "submits": 1}) == FormFacts(True, (), "")
    assert form_facts({"fields": [1, None, {"attrs": 5}]}) == NOTHING


def test_the_question_says_what_where_and_why() -> None:
    text = question("click", "button", "Pay  now", 'the control says "pay now"', "shop.example")
    assert (
        text
        == 'The agent wants to click button "Pay now" on shop.example (the control says "pay now"). Allow?'
    )
    assert question("press Enter", None, "", "it sends a form with a password", "bank.example") == (
        "The agent wants to press Enter on bank.example (it sends a form with a password). Allow?"
    )
    assert (
        question("press Enter in", "textbox", "", "why", "")
        == "The agent wants to press Enter in textbox (why). Allow?"
    )


def test_which_actions_are_looked_at() -> None:
    assert _what(ClickParams(id=3)) == ("click", True, 3, None)
    assert _what(CheckParams(id=3)) == ("check", True, 3, None)
    assert _what(CheckParams(id=3, checked=False))[0] == "uncheck"
    assert _what(ClickAtParams(x=10, y=20)) == ("click at a point on", False, None, (10, 20))
    assert _what(ClickAtParams(x=10, y=20, button="right"))[0] is None  # a context menu
    assert _what(TypeParams(id=4, text="x", submit=True)) == ("press Enter in", False, 4, None)
    assert _what(TypeParams(id=4, text="x"))[0] is None  # typing alone submits nothing
    for text in ("a\n", "a\rb"):  # one key at a time, either is Enter
        assert _what(TypeParams(id=4, text=text, per_char=True))[0] == "press Enter in"
    assert _what(TypeParams(id=4, text="a\n"))[0] is None  # inserted as text: no key
    assert _what(KeyParams(key="Enter")) == ("press Enter", False, None, None)
    assert _what(KeyParams(key="Enter", id=5)) == ("press Enter in", False, 5, None)
    for key in ("Ctrl+Enter", "Return", "NumpadEnter"):
        assert _what(KeyParams(key=key))[0] == "press Enter"
    for key in ("Space", " "):
        assert _what(KeyParams(key=key))[0] == "press Space"
    assert _what(KeyParams(key="Tab"))[0] is None
    assert _what(HoverParams(id=3))[0] is None
    for key in ("\r", "\n"):  # a key named by its character is that key
        assert _what(KeyParams(key=key))[0] == "press Enter"
    # a Tab and then a key that presses whatever it reached: asked before anything is typed
    for text in ("a\t ", "\t\t\n", "x\ty\r"):
        assert _what(TypeParams(id=4, text=text, per_char=True))[0] == sensitive.TABS_THEN_PRESSES
    assert _what(TypeParams(id=4, text="a\tb", per_char=True))[0] is None
    # a script button (type=button) of a form with a card field: its handler may send it
    script = FormFacts(False, ("a card number",), may_submit=True)
    assert sensitive_reason("button", "Next step", script) == (
        "its form holds a card number, which the page's script may send"
    )
    assert sensitive_reason("button", "Show", FormFacts(False, (), may_submit=True)) is None
    assert form_facts({"maySubmit": True, "fields": [_field(type="password")]}).may_submit
    # a point or a focus in a frame of another site: asked (nothing of it can be read)
    assert sensitive_reason(None, "", FormFacts(opaque=True), clicks=False) is not None


def test_the_name_the_control_has_now_counts_and_keys_count_names_where_they_act() -> None:
    renamed = FormFacts(name="Pay 500 dollars", activates=True)
    assert sensitive_reason("button", "Continue", renamed) == 'the control says "pay"'
    assert sensitive_reason(None, "", renamed, clicks=False) == 'the control says "pay"'  # Space, click_at
    assert sensitive_reason(None, "", FormFacts(name="P\u200bay now", activates=True), clicks=False)
    assert sensitive_reason(None, "", FormFacts(name="Buy now"), clicks=False) is None  # a text field
    assert sensitive_reason("textbox", "Notes", FormFacts(name="Order number", activates=False)) is None
    assert form_facts({"name": "Delete my account", "activates": True}).activates
    assert form_facts({"name": 5, "activates": "yes"}) == NOTHING


class _Popup:
    """The person's popup: records each question and answers ``allowed``."""

    def __init__(self, allowed: bool) -> None:
        self.allowed = allowed
        self.questions: list[str] = []

    async def ask(self, kind: str, text: str, **_: Any) -> Any:
        self.questions.append(text)
        return SimpleNamespace(allowed=self.allowed)


@pytest.mark.parametrize(
    ("kind", "message", "asked"),
    [
        ("confirm", "Delete your account?", True),
        ("prompt", "Type the amount to transfer", True),
        ("beforeunload", "Pay later?", True),
        ("confirm", "Leave this page?", False),
        ("alert", "Payment failed", False),  # an alert has only OK: nothing to decide
    ],
)
def test_accepting_a_dialog_that_says_it_pays_or_deletes_needs_allow(
    kind: str, message: str, asked: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    for allowed in (True, False):
        popup = _Popup(allowed)
        monkeypatch.setattr(sensitive, "asks_for", lambda conn, popup=popup: popup)
        dialog = JavaScriptDialogOpening(type=kind, message=message)
        tab: Any = SimpleNamespace(tab_id=3, session=SimpleNamespace(dialog=dialog, conn=None))
        if asked and not allowed:
            with pytest.raises(DeniedByUser, match="still open"):
                asyncio.run(sensitive.confirm_dialog_if_sensitive(tab))
        else:
            asyncio.run(sensitive.confirm_dialog_if_sensitive(tab))
        assert len(popup.questions) == (1 if asked else 0)
        if asked:
            assert kind in popup.questions[0] and message.split()[0] in popup.questions[0]
