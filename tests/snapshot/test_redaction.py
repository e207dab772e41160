"""The two secret rules (snapshot/redaction.py): which field values are secret by their kind, and
what of a URL may be shown."""

from __future__ import annotations

import time

import pytest

from browserx.snapshot.redaction import (
    MAX_SHOWN_VALUE,
    MAX_URL_CHARS,
    PASSWORD_MASK,
    URL_MASK,
    Field,
    field_of,
    field_secret,
    redact_url,
    redact_url_attrs,
    shown_value,
    value_of,
)

# -- fields --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "mask"),
    [
        (Field(input_type="password"), PASSWORD_MASK),
        # A "show password" toggle made it a text field: it stays a password.
        (Field(input_type="text", was_password=True), PASSWORD_MASK),
        (Field(autocomplete="current-password"), PASSWORD_MASK),
        (Field(autocomplete="section-login new-password"), PASSWORD_MASK),
        (Field(autocomplete="cc-csc"), "[card code]"),
        (Field(autocomplete="billing cc-number"), "[card number]"),
        (Field(autocomplete="cc-exp-month"), "[card expiry]"),
        (Field(autocomplete="one-time-code"), "[one-time code]"),
        (Field(hints=("cvv",)), "[card code]"),
        (Field(hints=("Security code",)), "[card code]"),
        (Field(hints=("otp",)), "[one-time code]"),
        (Field(hints=("Verification code",)), "[one-time code]"),
        (Field(hints=("card_number",)), "[card number]"),
        (Field(hints=("user_pwd",)), PASSWORD_MASK),
        (Field(hints=("Passwort / password",)), PASSWORD_MASK),
    ],
)
def test_secret_fields_show_their_kind_only(field: Field, mask: str) -> None:
    assert field_secret(field) == mask
    assert shown_value("s3cr3t-Value", field) == mask


@pytest.mark.parametrize(
    "field",
    [Field(), Field(input_type="email", autocomplete="email"), Field(hints=("Shipping address", "q")),
     Field(autocomplete="off"), Field(hints=("passenger count",))],
)  # fmt: skip
def test_ordinary_fields_are_not_secret(field: Field) -> None:
    assert field_secret(field) is None
    assert shown_value("Ada Lovelace", field) == "Ada Lovelace"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("4111 1111 1111 1111", "[card number]"),  # Luhn-valid
        ("4111 1111 1111 1112", "[card number]"),  # a mistyped card is still a card
        ("4111-1111-1111-1112", "[card number]"),
        ("pay 5500000000000005 now", "pay [card number] now"),
        ("123-45-6789", "[ssn]"),
        ("order 12345", "order 12345"),
        ("2024-05-01", "2024-05-01"),
    ],
)
def test_card_and_ssn_numbers_are_masked_in_any_value(value: str, shown: str) -> None:
    assert shown_value(value, Field()) == shown


def test_a_snapshot_nodes_value_follows_the_same_rule() -> None:
    # The collector never reads a password's value: only that it has one.
    assert value_of({"type": "password"}, {"inputType": "password", "hasValue": True}) == PASSWORD_MASK
    assert value_of({}, {"inputType": "text", "wasPassword": True, "hasValue": True}) == PASSWORD_MASK
    assert value_of({}, {"inputType": "text", "wasPassword": True, "value": "hunter2"}) == PASSWORD_MASK
    assert value_of({"autocomplete": "cc-csc"}, {"inputType": "text", "value": "737"}) == "[card code]"
    assert value_of({}, {"inputType": "text", "value": "123456"}, name="One-time code") == "[one-time code]"
    assert value_of({}, {"inputType": "text", "value": "Ada"}) == "Ada"
    assert value_of({}, {"inputType": "checkbox", "checked": True}) is None
    assert value_of({}, {"inputType": "text"}) is None
    assert field_of({"name": "cc"}, {"inputType": "TEXT"}, "Card number") == Field(
        input_type="text", hints=("cc", "Card number")
    )


# -- URLs ----------------------------------------------------------------------------------------

SECRET_URLS = [
    # (url, shown, secrets that must be gone)
    (
        "https://me:pw@api.example.com:8443/v1/items?page=2&access_token=abc&q=red+shoes&x=Zm9vYmFyYmF6cXV4cXV1eHh4eA#top",
        "https://api.example.com:8443/v1/items?page=2&access_token=…&q=red+shoes&x=…#top",
        ("me:pw", "abc", "Zm9vYmFy"),
    ),
    (
        "http://user:hunter22@127.0.0.1:8000/cb?token=T0KEN#access_token=FRAGTOK&token_type=bearer&page=2",
        "http://127.0.0.1:8000/cb?token=…#access_token=…&token_type=…&page=2",
        ("hunter22", "T0KEN", "FRAGTOK"),
    ),
    ("/login?next=/home&code=AUTHCODE1&state=xyz", "/login?next=/home&code=…&state=…", ("AUTHCODE1",)),
    ("//u:p@cdn.example/x.js?sig=SIG1&key=K1", "//cdn.example/x.js?sig=…&key=…", ("u:p", "SIG1", "K1")),
    ("/app;jsessionid=SESS1?x=1", "/app;jsessionid=…?x=1", ("SESS1",)),
    ("#/callback?code=C0DE&session=S3SS", "#/callback?code=…&session=…", ("C0DE", "S3SS")),
    ("https://x.example/reset/a8f9d7c6b5e4a3b2c1d0", "https://x.example/reset/…", ("a8f9d7c6b5e4a3b2c1d0",)),
    (
        "https://x.example/a/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
        "https://x.example/a/…",
        ("eyJzdWIiOiIxIn0",),
    ),
    (
        "https://x.example/?password=pw1&secret=s1&auth=a1",
        "https://x.example/?password=…&secret=…&auth=…",
        ("pw1", "s1"),
    ),
    (
        "https://x.example/pay?n=4111111111111112",
        "https://x.example/pay?n=[card number]",
        ("4111111111111112",),
    ),
    (
        "https://x.example/login?pw=hunter2&user_pin=1234&cvv=123&cardNumber=4111&q=shoes#cc=5",
        "https://x.example/login?pw=…&user_pin=…&cvv=…&cardNumber=…&q=shoes#cc=…",
        ("hunter2", "1234", "123", "4111"),
    ),
    (
        "https://x.example/pay/4111-1111-1111-1111/ok",
        "https://x.example/pay/[card number]/ok",
        ("4111-1111-1111-1111",),
    ),
    ("https://x.example/c/4111%201111%201111%201111", "https://x.example/c/[card number]", ("1111",)),
    ("https://[::1]:80/?key=1", "https://[::1]:80/?key=…", ()),
    ("data:text/html,<p>secret</p>", "data:…", ("secret",)),
]


@pytest.mark.parametrize(("url", "shown", "secrets"), SECRET_URLS)
def test_urls_lose_userinfo_and_secret_values(url: str, shown: str, secrets: tuple[str, ...]) -> None:
    out = redact_url(url)
    assert out == shown
    for secret in secrets:
        assert secret not in out
    assert redact_url(out) == out  # idempotent: applying it twice (snapshot, then view) is harmless


@pytest.mark.parametrize(
    "url",
    ["https://example.com/a", "/docs/intro#install", "#section-2", "https://x.example/search?q=shoes&page=3",
     "mailto:someone@example.com", "javascript:void(0)",
     "https://github.com/o/r/commit/0123456789abcdef0123456789abcdef01234567", "",
     "https://x.example/status/1790000000000000001", "https://x.example/?shipping=2&spin=1"],
)  # fmt: skip
def test_urls_without_secrets_are_unchanged(url: str) -> None:
    assert redact_url(url) == url


def test_network_facts_keep_query_keys_only() -> None:
    url = "https://u:p@x.example/hit?v=typed+words&q=1&token=t#frag"
    assert redact_url(url, query_values=False) == "https://x.example/hit?v=…&q=…&token=…"
    assert redact_url(url, query_values=False, fragment=False) == "https://x.example/hit?v=…&q=…&token=…"
    assert redact_url(url, fragment=False) == "https://x.example/hit?v=typed+words&q=1&token=…"


def test_url_attributes_of_collected_elements() -> None:
    attrs = [{"href": "/a?token=T1", "id": "x"}, {"src": "https://u:p@h/i.png"}, {"action": "/go?sid=S1"}, {}]
    redact_url_attrs(attrs)
    assert attrs == [
        {"href": "/a?token=…", "id": "x"},
        {"src": "https://h/i.png"},
        {"action": "/go?sid=…"},
        {},
    ]


def test_a_shown_value_is_cut_after_its_numbers_are_masked() -> None:
    value = "x" * (MAX_SHOWN_VALUE - 8) + " 4111 1111 1111 1111" + "y" * 1_000_000
    shown = shown_value(value, field_of({}, {}))
    assert len(shown) < MAX_SHOWN_VALUE + 40 and shown.endswith(" characters)")  # says how long
    assert "4111" not in shown and "1111" not in shown  # masked whole, then cut


HOSTILE_URL_BODIES = [
    lambda n: "#" + "Q" * n,  # a fragment without "=": the parameter pattern was tried at each character
    lambda n: "a;" + "Q" * n,
    lambda n: "eyJ" * (n // 3),  # a JWT's start again and again
    lambda n: "#" + "eyJaaaa." * (n // 8),
    lambda n: "1" * n,
    lambda n: "reset/" + "a1" * (n // 2),
    lambda n: "?" + "a=" * (n // 2),
    lambda n: "x/" * (n // 2),
]


@pytest.mark.parametrize("n", [8000, 1 << 20])
def test_a_huge_address_is_redacted_in_linear_time_and_shown_cut(n: int) -> None:
    """A page's link or location of a megabyte held the host for minutes (quadratic patterns);
    the promise here is time: each takes far under a second (before: 12 s at 32 kB)."""
    for body in HOSTILE_URL_BODIES:
        url = "https://x.example/" + body(n)
        started = time.perf_counter()
        out = redact_url(url)
        redact_url(url, query_values=False)
        took = time.perf_counter() - started
        assert took < 1.0, (body(12), n, took)
        assert len(out) <= MAX_URL_CHARS + len(URL_MASK) and redact_url(out) == out


def test_typed_text_is_masked_wherever_the_page_put_it() -> None:
    from browserx.snapshot.redaction import URL_MASK, hide_typed

    typed = ("p@ss word!",)
    for url in (
        "https://shop.example/check/p@ss word!/x",
        "https://shop.example/check/p%40ss%20word%21",
        "https://shop.example/check/p%40ss+word%21",
        "https://shop.example/check?v=p@ss%20word!",
    ):
        shown = hide_typed(url, typed)
        assert "ss" not in shown.split("/check")[1] and URL_MASK in shown, (url, shown)
    assert hide_typed("https://shop.example/ab", ("ab",)) == "https://shop.example/ab"  # too short to hunt
