"""Secrets, masked by kind: the one rule for form values (``field_secret`` decides, ``shown_value``
applies it) and the one rule for URLs (``redact_url``). Every output that carries a form value or
a URL goes through them — the views, html, action results, network facts, tabs, navigation
results, events and agent payloads — so a secret is masked the same way wherever it would show.

Field values: a field that is or ever was a password (the collector and the action probes remember
every element they saw as ``type=password`` in browserx's isolated world, so a page's "show
password" toggle does not unmask it), or that says it holds a credential (autocomplete
``current-password``/``new-password``/``one-time-code``/``cc-*``; a name, id, placeholder or label
that says password, card number, CVC or one-time code), shows as its kind only. Any other value
loses card-number-like digit runs (13-19 digits, Luhn-valid or not) and SSN-like numbers.

URLs: no ``user:password@``; query and fragment parameters whose name looks secret (token,
access_token, code, key, secret, sig, session, auth, password, …) or whose value looks generated
keep their name, not their value; ``;jsessionid=``-style path parameters and JWTs likewise; a
segment right after a secret-looking one (``/reset/<token>``) when it looks generated.

Imports nothing of browserx, so every layer may use it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, quote_plus, unquote_plus, urlsplit, urlunsplit

from browserx.errors import clip

PASSWORD_MASK = "••••"
URL_MASK = "…"
MAX_SHOWN_VALUE = 2000  # characters of a form value any output shows
MAX_URL_CHARS = 8192  # of an address any output shows (the rest is cut, at a separator)

# -- form values -------------------------------------------------------------------------------

# autocomplete tokens (WHATWG autofill detail tokens) naming a credential, and the mask they get.
_AUTOCOMPLETE_KIND = {
    "current-password": PASSWORD_MASK,
    "new-password": PASSWORD_MASK,
    "one-time-code": "[one-time code]",
    "cc-number": "[card number]",
    "cc-csc": "[card code]",
    "cc-exp": "[card expiry]",
    "cc-exp-month": "[card expiry]",
    "cc-exp-year": "[card expiry]",
}
# What a field's name, id, placeholder or label says it holds (first match wins).
_HINT_KIND = (
    (re.compile(r"passw|passwd|kennwort|contrase|(?<![a-z])pwd(?![a-z])|(?<![a-z])pin(?![a-z])|passcode", re.I), PASSWORD_MASK),
    (re.compile(r"cvc|cvv|(?<![a-z])csc(?![a-z])|cvn|security[\s_-]*code|card[\s_-]*code|card[\s_-]*verification", re.I),
     "[card code]"),
    (re.compile(r"one[\s_-]*time|(?<![a-z])otp(?![a-z])|totp|(?<![a-z])2fa(?![a-z])|(?<![a-z])mfa(?![a-z])|verification[\s_-]*code|auth\w*[\s_-]*code", re.I),
     "[one-time code]"),
    (re.compile(r"card[\s_-]*(?:number|num|no(?![a-z]))|cc[\s_-]*(?:number|num)|cardnumber|credit[\s_-]*card", re.I),
     "[card number]"),
    (re.compile(r"expir|cc[\s_-]*exp|card[\s_-]*exp", re.I), "[card expiry]"),
)  # fmt: skip
_SSN = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")
_DIGIT_RUN = re.compile(r"(?<![\d+])(?:\d[ -]?){12,18}\d(?!\d)")
_URL_DIGIT_RUN = re.compile(r"(?<!\d)(?:\d(?:[ +-]|%20)?){12,18}\d(?!\d)")  # as sent: "+", "%20"


@dataclass(frozen=True, slots=True)
class Field:
    """What is known of a form field when its value is about to be shown."""

    input_type: str = ""  # the type attribute now ("text" after a show-password toggle)
    was_password: bool = False  # seen as type=password at any time in this document
    autocomplete: str = ""
    hints: tuple[str, ...] = ()  # name, id, placeholder, label, accessible name


def field_of(attrs: Mapping[str, Any], state: Mapping[str, Any], name: str = "") -> Field:
    """The Field of a snapshot node's facts (its attributes, live form state, accessible name),
    or of an action probe's answer given in the same shape."""
    hints = tuple(
        str(v) for v in (attrs.get("name"), attrs.get("id"), attrs.get("placeholder"), attrs.get("aria-label"),
                         name) if v
    )  # fmt: skip
    return Field(
        input_type=str(state.get("inputType") or attrs.get("type") or "").lower(),
        was_password=bool(state.get("wasPassword")),
        autocomplete=str(attrs.get("autocomplete") or ""),
        hints=hints,
    )


def field_secret(field: Field) -> str | None:
    """THE rule: the mask a field's value shows as when the field holds a secret by its kind,
    else None (its value may be shown, with ``mask_numbers`` applied)."""
    if field.input_type == "password" or field.was_password:
        return PASSWORD_MASK
    for token in field.autocomplete.lower().split():
        kind = _AUTOCOMPLETE_KIND.get(token)
        if kind is not None:
            return kind
    for hint in field.hints:
        for pattern, kind in _HINT_KIND:
            if pattern.search(hint):
                return kind
    return None


def shown_value(value: str, field: Field) -> str:
    """A form value as every output may show it: a secret field's kind, else the value without
    card-number-like or SSN-like numbers, cut at MAX_SHOWN_VALUE characters (a page may fill a
    field with a megabyte; masked before it is cut, so no half number shows)."""
    secret = field_secret(field)
    if secret is not None:
        return secret
    return clip(mask_numbers(value), MAX_SHOWN_VALUE)


def value_of(attrs: Mapping[str, Any], state: Mapping[str, Any], name: str = "") -> str | None:
    """What a snapshot node's value shows as when values were asked for (None: nothing to show):
    a password (never read by the collector: only that it holds something) or any other secret
    field as its kind, any other value through ``shown_value``."""
    if state.get("inputType") in ("checkbox", "radio"):
        return None
    field = field_of(attrs, state, name)
    if "value" in state:
        return shown_value(str(state["value"]), field)
    if state.get("hasValue"):
        return field_secret(field) or PASSWORD_MASK
    return None


def mask_numbers(value: str) -> str:
    """Card-number-like digit runs (13-19 digits, spaces or dashes between; Luhn-valid or not:
    a mistyped card number is still one) and SSN-like numbers masked in free text."""
    value = _SSN.sub("[ssn]", value)
    return _DIGIT_RUN.sub("[card number]", value)


# -- URLs --------------------------------------------------------------------------------------

SECRET_NAME = re.compile(
    r"token|secret|key|pass|pwd|auth|session|sess|sid|sig|signature|code|credential|jwt|otp|nonce|state|"
    r"ticket|hash|hmac|bearer|assertion|saml|apikey|private|csrf|xsrf",
    re.IGNORECASE,
)
# Short names that say a secret only as a whole word of the name (``pw``, ``user_pin``, ``cardNumber``;
# not ``shipping``): camelCase is split before matching.
_SECRET_WORD = re.compile(r"(?:^|[^a-z])(?:pw|pin|cvv2?|cvc2?|cvn|csc|ssn|cc|ccn|card|iban)(?=$|[^a-z])")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_SECRET_WORD_HINTS = ("pw", "pin", "cv", "csc", "ssn", "cc", "card", "iban")  # checked first: cheap


def _secret_word(name: str) -> bool:
    return _SECRET_WORD.search(_CAMEL.sub("_", name).lower()) is not None


# A value that looks generated (long, mixed, no spaces) is masked whatever its name.
_RANDOM_VALUE = re.compile(r"^[A-Za-z0-9_\-.~+/=%]{24,}$")
# Each starts only where a token does (the lookbehinds): tried at every character of a megabyte
# without "=" or ".", they took minutes (quadratic) and held the host.
_JWT = re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*")
_PARAM = re.compile(r"(?<![^&;?#/])([^&;?#/=]+)=([^&;?#/]*)")
_GENERATED_SEGMENT = re.compile(r"^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_\-.~=%]{16,}$")
_PLAIN_URL = re.compile(r"^[^@?#;]*$")
# A path segment after which a generated-looking one is a secret (``/reset/<token>``).
_SECRET_SEGMENT = re.compile(SECRET_NAME.pattern + r"|reset|magic|invite|verify|confirm", re.IGNORECASE)


def redact_url(url: str, *, query_values: bool = True, fragment: bool = True) -> str:
    """THE rule for URLs: the URL as any output may show it (absolute or relative). Userinfo
    dropped; secret-looking parameter values (query, fragment, ``;`` path parameters) and JWTs
    masked; with ``query_values=False`` every query value masked and the fragment dropped (network
    facts, unless values were asked for); ``fragment=False`` drops the fragment; longer than
    MAX_URL_CHARS, cut. Idempotent, and linear in the URL's length."""
    if len(url) > MAX_URL_CHARS:  # a page's megabyte of address: what follows its last cut is not shown
        cut = max(url.rfind(sep, 0, MAX_URL_CHARS) for sep in "/?#&;=")
        url = url[: cut if cut > 0 else MAX_URL_CHARS] + URL_MASK
    if (
        _PLAIN_URL.match(url)
        and not _SECRET_SEGMENT.search(url)
        and "eyJ" not in url
        and not _card_digits(url)
    ):
        return url  # the common case, fast: nothing that can hold a secret
    try:
        parts = urlsplit(url)
        host = parts.hostname
        port = parts.port
    except ValueError:
        return URL_MASK
    scheme = parts.scheme.lower()
    if scheme in ("data", "blob"):
        return f"{scheme}:{URL_MASK}"
    netloc = parts.netloc
    if "@" in netloc:
        netloc = host or ""
        if ":" in netloc:
            netloc = f"[{netloc}]"
        if port is not None:
            netloc += f":{port}"
    path = _redact_path(parts.path)
    if not query_values:
        query = "&".join(_param(p, True) for p in parts.query.split("&")) if parts.query else ""
        return urlunsplit((parts.scheme, netloc, path, query, ""))
    query = "&".join(_param(p, False) for p in parts.query.split("&")) if parts.query else ""
    shown_fragment = _PARAM.sub(_fragment_param, parts.fragment) if parts.fragment and fragment else ""
    out = urlunsplit((parts.scheme, netloc, path, query, shown_fragment))
    if fragment and parts.fragment == "" and url.endswith("#"):
        out += "#"
    return _JWT.sub(URL_MASK, out)


def _param(piece: str, always: bool) -> str:
    """One ``name=value`` of a query, its value masked when it looks secret (as sent, not
    re-encoded)."""
    name, eq, value = piece.partition("=")
    if eq and value and (always or _secret_param(name, value)):
        return f"{name}={URL_MASK}"
    if eq and _URL_DIGIT_RUN.search(value):
        return f"{name}={_URL_DIGIT_RUN.sub('[card number]', value)}"
    return piece


def _secret_param(name: str, value: str) -> bool:
    name = unquote_plus(name)
    return bool(
        SECRET_NAME.search(name)
        or (len(name) <= 40 and any(h in name.lower() for h in _SECRET_WORD_HINTS) and _secret_word(name))
        or _RANDOM_VALUE.match(value)
        or _JWT.search(value)
    )


_NO_DIGITS = str.maketrans("", "", "0123456789")


def _card_digits(text: str) -> bool:
    """Whether ``text`` may hold a card number (13 digits at least: counted first, it is cheap)."""
    return len(text) - len(text.translate(_NO_DIGITS)) >= 13 and _URL_DIGIT_RUN.search(text) is not None


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def _card_in_path(match: re.Match[str]) -> str:
    """A digit run of a path segment, masked when it passes the card check (Luhn): paths carry long
    numeric ids far more often than queries do."""
    return "[card number]" if _luhn(re.sub(r"\D", "", match.group(0).replace("%20", ""))) else match.group(0)


def _fragment_param(match: re.Match[str]) -> str:
    name, value = match.group(1), match.group(2)
    return f"{name}={URL_MASK}" if value and _secret_param(name, value) else match.group(0)


def _redact_path(path: str) -> str:
    if not path:
        return path
    segments = path.split("/")
    after_secret = False
    for i, segment in enumerate(segments):
        head, semi, params = segment.partition(";")
        if semi:
            segment = head + ";" + _PARAM.sub(_fragment_param, params)
        if after_secret and _GENERATED_SEGMENT.match(head):
            segment = URL_MASK + segment[len(head) :]
        elif _card_digits(segment):
            segment = _URL_DIGIT_RUN.sub(_card_in_path, segment)
        after_secret = bool(head) and bool(_SECRET_SEGMENT.search(head))
        segments[i] = segment
    return "/".join(segments)


URL_ATTRS = ("href", "src", "action")  # of those the collector sends


_URL_KEEPS = "!$&'()*+,;=:@/?~"  # what a browser leaves as it is in a path or query
MIN_HIDDEN = 3  # a shorter typed text is not hunted for in addresses (it is in every one)


def hide_typed(url: str, typed: Iterable[str]) -> str:
    """``url`` with the texts an action typed masked wherever the page put them (a path segment
    too: ``/check/<password>``), as typed and as the page may have encoded them."""
    for text in typed:
        if len(text) < MIN_HIDDEN:
            continue
        # as typed, fully encoded (encodeURIComponent, forms), and as a browser writes it into a path
        # or query (only spaces, quotes and the like encoded)
        for form in {text, quote(text, safe=""), quote(text), quote_plus(text), quote(text, safe=_URL_KEEPS)}:
            url = url.replace(form, URL_MASK)
    return url


def redact_url_attrs(attrs: Iterable[dict[str, str]]) -> None:
    """Redact, in place, the URL-valued attributes of collected elements (one dict each)."""
    for facts in attrs:
        for key in URL_ATTRS:
            value = facts.get(key)
            if value is not None:
                facts[key] = redact_url(value)


__all__ = [
    "PASSWORD_MASK",
    "URL_MASK",
    "Field",
    "field_of",
    "field_secret",
    "hide_typed",
    "mask_numbers",
    "redact_url",
    "redact_url_attrs",
    "shown_value",
    "value_of",
]
