"""Confirm before sensitive actions (the person's option ``confirmSensitive``, the config file's
``confirm_sensitive``; off by default): an action that would pay, buy, delete or send a password
form waits for "Allow" or "Deny" in browserx's popup (control/person/ask.py). "Deny" answers
``denied_by_user``, no answer in time ``no_answer``; either way nothing is done.

Sensitive is (``sensitive_reason``, pure, unit-tested):
- a click (``click``, ``check``, ``click_at``), or Enter or Space on a control that acts on keys
  (a button, link, checkbox...), whose name says it pays, buys, orders, deletes or moves money (the
  words of ``SENSITIVE_WORDS``, whole words, read as a person reads them) — the name the snapshot
  gave the ID, and the name the control has now (a page can rename "Continue" to "Pay 500 dollars"
  after the snapshot); text fields are never named sensitive (typing into "Order number" is not
  ordering);
- a click, or Enter (``key`` Enter, ``type`` with ``submit`` or a ``\n`` / ``\r`` typed one key at a
  time), that submits a form holding a password or payment field (what the fields say they hold,
  read as redaction.field_secret reads them: type=password, ever a password, autocomplete cc-*,
  names like card number or CVC).

The page's part (``sensitive_facts.js``) runs in browserx's isolated world on the target; it reads
no value.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from browserx import page_js
from browserx.actions.keys import key_press, parse_combo
from browserx.actions.resolve import by_key, call_on, resolve
from browserx.control.person.ask import CONFIRM_TIMEOUT_S, asks_for
from browserx.control.policy import refuse_opted_out
from browserx.control.schemas import CheckParams, ClickAtParams, ClickParams, KeyParams, TypeParams
from browserx.errors import BadRequest, DeniedByUser, NoAnswer, clip
from browserx.page.page_call import page_call
from browserx.page.worlds import isolated_world
from browserx.snapshot.redaction import PASSWORD_MASK, field_of, field_secret
from browserx.tabs.tab import Tab

FACTS_JS = page_js.load("browserx.control.person", "sensitive_facts.js")
FACTS_BY_KEY_JS = by_key(FACTS_JS)

# The one list of what a control's name must say to need the person's "Allow": whole words or
# phrases, any case. A word here costs a question each time an agent clicks such a control.
SENSITIVE_WORDS: tuple[str, ...] = (
    "pay", "pay now", "submit payment", "make payment", "make a payment", "complete payment",
    "authorize payment", "authorise payment", "buy", "buy now", "order", "place order", "purchase", "checkout",
    "check out", "delete", "remove account", "close account", "transfer", "send money", "confirm payment",
    "withdraw", "donate",
    # German, French, Spanish, Italian, Portuguese, Dutch: the same acts.
    "bezahlen", "kaufen", "bestellen", "zahlungspflichtig bestellen", "kostenpflichtig bestellen",
    "löschen", "überweisen",
    "payer", "acheter", "commander", "supprimer",
    "pagar", "comprar", "eliminar", "borrar", "transferir",
    "paga", "acquista", "elimina",
    "excluir", "finalizar compra",
    "betalen", "kopen", "verwijderen",
)  # fmt: skip
_WORDS = re.compile(
    r"(?<![\w])(?:"
    + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(SENSITIVE_WORDS, key=len, reverse=True))
    + r")(?![\w])",
    re.IGNORECASE,
)
# Roles whose name describes what is typed, not what a click does.
TEXT_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton", "slider"})
# What field_secret names a password or payment field.
FORM_SECRETS = {PASSWORD_MASK: "a password", "[card number]": "a card number", "[card code]": "a card code",
                "[card expiry]": "a card expiry"}  # fmt: skip


@dataclass(frozen=True)
class FormFacts:
    """What the page says about the target's form (sensitive_facts.js)."""

    submits: bool = False  # the action submits the target's form
    secrets: tuple[str, ...] = ()  # what its password/payment fields hold ("a password", ...)
    host: str = ""
    name: str = ""  # the control's name as the page shows it now
    activates: bool = False  # a click, Enter or Space on it acts (a button, link, checkbox...)
    opaque: bool = False  # it lands in a frame of another site, which browserx cannot read
    may_submit: bool = False  # a script button of the form (type=button): its handler may send it


def form_facts(raw: Mapping[str, Any] | None) -> FormFacts:
    """The facts of sensitive_facts.js's answer (anything else: nothing sensitive known)."""
    if not isinstance(raw, Mapping):
        return FormFacts()
    secrets: list[str] = []
    fields = raw.get("fields")
    for f in fields if isinstance(fields, list) else []:
        if not isinstance(f, Mapping):
            continue
        attrs = f.get("attrs") if isinstance(f.get("attrs"), Mapping) else {}
        kind = field_secret(field_of(attrs, f, str(f.get("label") or "")))  # type: ignore[arg-type]
        what = FORM_SECRETS.get(kind or "")
        if what is not None and what not in secrets:
            secrets.append(what)
    return FormFacts(
        bool(raw.get("submits")),
        tuple(secrets),
        str(raw.get("host") or "")[:253],
        name[:300] if isinstance(name := raw.get("name"), str) else "",
        raw.get("activates") is True,
        raw.get("opaque") is True,
        raw.get("maySubmit") is True,
    )


def sensitive_words(name: str) -> list[str]:
    """The sensitive words a control's name says (lower case), read as a person reads the name:
    NFKC (full-width and styled letters as plain ones, accents composed), format characters
    (zero-width spaces and joiners, direction marks, soft hyphens) and combining marks left
    (grapheme joiners, variation selectors, overlays) removed, look-alike letters as Latin."""
    return [" ".join(m.group(0).lower().split()) for m in _WORDS.finditer(as_read(name or ""))]


# Cyrillic and Greek letters drawn like Latin ones ("Pаy" with a Cyrillic а reads "Pay").
_LOOKALIKES = str.maketrans(
    "аеорсуххіјѕԁһԛԝАВЕКМНОРСТУХІЈЅαοτυνκρΑΒΕΗΙΚΜΝΟΡΤΥΧΖɑᴀʏ",
    "aeopcyxxijsdhqwABEKMHOPCTYXIJSaotuvkpABEHIKMNOPTYXZaay",
)


def as_read(text: str) -> str:
    """``text`` as a person reads it on screen (see ``sensitive_words``)."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cf", "Mn", "Me"))
    return text.translate(_LOOKALIKES)


def sensitive_reason(role: str | None, name: str, facts: FormFacts, *, clicks: bool = True) -> str | None:
    """Why the action needs the person's "Allow" (None: it does not). ``clicks``: a click on the
    control the snapshot named (its names count, unless it is a text field); else a key, or a
    click at a point: the names count when the control acts on it (``facts.activates``)."""
    if facts.submits and facts.secrets:
        return f"it sends a form with {' and '.join(facts.secrets)}"
    if facts.may_submit and facts.secrets and (clicks or facts.activates):
        return f"its form holds {' and '.join(facts.secrets)}, which the page's script may send"
    if facts.opaque:
        return "it lands in a frame of another site, which browserx cannot look at first"
    if (clicks and (role or "") not in TEXT_ROLES) or facts.activates:
        words = sensitive_words(f"{name}\n{facts.name}")
        if words:
            return f'the control says "{words[0]}"'
    return None


def question(action: str, role: str | None, name: str, why: str, host: str) -> str:
    """The popup's question: what the agent wants to do, where, and why it asks."""
    target = f'{role or "element"} "{clip(" ".join(name.split()), 80)}"' if name.strip() else (role or "")
    where = f" on {host}" if host else ""
    return f"The agent wants to {action}{' ' + target if target else ''}{where} ({why}). Allow?"


async def confirm_if_sensitive(tab: Tab, params: Any, timeout_s: float = CONFIRM_TIMEOUT_S) -> None:
    """Ask the person before ``params`` (a click, Enter, typing with submit) runs when it is
    sensitive; raise DeniedByUser or NoAnswer unless they allow it. Takes the tab's lock to look
    at the target, not while the person decides."""
    action, clicks, element_id, point = _what(params)
    if action is None:
        return
    if action == TABS_THEN_PRESSES:  # what the keys press is known only as they land
        blind = "Tab moves the focus to controls browserx cannot look at first"
        await _ask(tab, question(action, None, "", blind, ""), action, blind, element_id, timeout_s)
        return
    async with tab.lock:  # the look only: the person is asked with the tab free
        enter = action.startswith("press Enter")  # (Space acts as a click does)
        role, name, raw = await _look(tab, element_id, enter, point)
    facts = form_facts(raw if isinstance(raw, Mapping) else None)
    why = sensitive_reason(role, name, facts, clicks=clicks)
    if why is None:
        return
    shown = facts.name if sensitive_words(facts.name) or not name else name  # the name that asks
    await _ask(tab, question(action, role, shown, why, facts.host), action, why, element_id, timeout_s)


async def _ask(tab: Tab, text: str, action: str, why: str, element_id: int | None, timeout_s: float) -> None:
    """Ask the person ``text`` (for ``action``, because ``why``); raise unless they allow it."""
    try:
        answer = await asks_for(tab.session.conn).ask("confirm", text, timeout_s=timeout_s, tab_id=tab.tab_id)
    except NoAnswer:
        raise NoAnswer(
            f"The person did not answer within {timeout_s:g} s whether you may {action} this ({why}); "
            "nothing was done. Ask them (ask_user) or leave this step to them.",
            id=element_id,
        ) from None
    if answer.allowed is not True:
        raise DeniedByUser(
            f"The person denied this action in browserx's popup ({action}: {why}); nothing was done. "
            "Do not try it another way: ask them (ask_user) what to do instead.",
            id=element_id,
        )


async def confirm_dialog_if_sensitive(tab: Tab, timeout_s: float = CONFIRM_TIMEOUT_S) -> None:
    """Ask the person before accepting a confirm, prompt or beforeunload whose message says it pays,
    deletes or the like ("Delete your account?"); raise DeniedByUser or NoAnswer unless allowed."""
    dialog = tab.session.dialog
    if dialog is None or dialog.type == "alert":
        return
    words = sensitive_words(dialog.message)
    if not words:
        return
    why = f'the page asks "{clip(" ".join(dialog.message.split()), 120)}"'
    text = f"The agent wants to accept a {dialog.type} dialog ({why}). Allow?"
    try:
        answer = await asks_for(tab.session.conn).ask("confirm", text, timeout_s=timeout_s, tab_id=tab.tab_id)
    except NoAnswer:
        raise NoAnswer(
            f"The person did not answer within {timeout_s:g} s whether you may accept this dialog (it "
            f'says "{words[0]}"); it is still open. Ask them (ask_user) or leave this step to them.'
        ) from None
    if answer.allowed is not True:
        raise DeniedByUser(
            f'The person denied accepting this dialog (it says "{words[0]}"); it is still open. Dismiss '
            "it (`dialog dismiss`) or ask them (ask_user) what to do instead."
        )


async def _look(
    tab: Tab, element_id: int | None, enter: bool, point: tuple[float, float] | None
) -> tuple[str | None, str, Any]:
    """(role, name, sensitive_facts.js's answer) of the action's target (``enter``: the action
    presses Enter, which sends a form from a field too)."""
    await refuse_opted_out(tab)  # as the action itself would: nothing of such a page is read
    if element_id is not None:
        # Read in the lookup's own round trip (the long way when it had to be found again).
        target = await resolve(tab, element_id, early=(FACTS_BY_KEY_JS, (enter,)))
        raw = target.early if isinstance(target.early, dict) else await call_on(tab, target, FACTS_JS, enter)
        fp = target.fingerprint
        return (fp.role, fp.name, raw) if fp is not None else (None, "", raw)
    # Enter to whatever has focus (the top document's, through shadow roots and frames), or a
    # click at a point: what is there (its top document's)
    _, context = await isolated_world(tab.capture, None)
    args = (False, *point) if point is not None else (enter,)
    # A page error is PageScriptError: an action whose sensitivity could not be read is not done.
    return None, "", await page_call(tab.session, FACTS_JS, *args, world=context)


def _what(params: Any) -> tuple[str | None, bool, int | None, tuple[float, float] | None]:
    """(what the action does in words, whether it is a click on an ID, its element ID, its point)
    for the actions that can be sensitive; (None, …) for any other."""
    if isinstance(params, ClickParams):
        return "click", True, params.id, None
    if isinstance(params, CheckParams):
        return "check" if params.checked else "uncheck", True, params.id, None
    if isinstance(params, ClickAtParams) and params.button == "left":
        return "click at a point on", False, None, (params.x, params.y)
    if isinstance(params, TypeParams) and params.per_char and "\t" in params.text:
        after = params.text[params.text.index("\t") :]
        if (ENTERS | {" "}) & set(after) or params.submit:
            return TABS_THEN_PRESSES, False, params.id, None
    if isinstance(params, TypeParams) and (params.submit or (params.per_char and ENTERS & set(params.text))):
        return "press Enter in", False, params.id, None
    if isinstance(params, KeyParams):
        key = _key_of(params.key)
        if key in ("Enter", " "):
            word = "Space" if key == " " else "Enter"
            return f"press {word}" + (" in" if params.id is not None else ""), False, params.id, None
    return None, False, None, None


# Typed one key at a time, either is Enter (actions/keys.char_press).
ENTERS = frozenset("\r\n")
# Typed one key at a time, a Tab and then Space or Enter: presses whatever the Tab reached.
TABS_THEN_PRESSES = "type Tab and then press a key on whatever it reaches, in"


def _key_of(name: str) -> str | None:
    """The key a ``key`` call presses, by any of its names ("Return", "Ctrl+Enter", "\\r" are
    Enter; "Space" and " " are " "); None for a name the action refuses anyway."""
    try:
        return key_press(parse_combo(name)[0]).key
    except BadRequest:
        return None


__all__ = [
    "SENSITIVE_WORDS",
    "FormFacts",
    "confirm_if_sensitive",
    "form_facts",
    "question",
    "sensitive_reason",
    "sensitive_words",
]
