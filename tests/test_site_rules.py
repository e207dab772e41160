"""The person's site rules (browserx/site_rules.py, pure): host patterns, verdicts per mode, the
stricter union of the config file and the options page — and the service worker's copy of the
matcher (extension/controls.js, run under node) agrees with the host's on every case."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from browserx.settings import HostSettings
from browserx.site_rules import (
    Controls,
    SiteRules,
    dialog_answers,
    host_matches,
    host_of,
    merge,
    merge_controls,
)

# (pattern, host, matches)
MATCHES = [
    ("mail.example.com", "mail.example.com", True),
    ("mail.example.com", "MAIL.Example.COM", True),
    ("mail.example.com", "mail.example.com.", True),
    ("mail.example.com", "example.com", False),
    ("mail.example.com", "x.mail.example.com", False),
    ("mail.example.com", "evilmail.example.com", False),
    ("*.bank.example", "bank.example", True),
    ("*.bank.example", "www.bank.example", True),
    ("*.bank.example", "a.b.bank.example", True),
    ("*.bank.example", "notbank.example", False),
    ("*.bank.example", "bank.example.evil.com", False),
    ("*.Bank.Example.", "WWW.BANK.EXAMPLE", True),
    ("https://bank.example/login?x=1", "bank.example", True),
    ("bank.example:8443", "bank.example", True),
    ("  bank.example  ", "bank.example", True),
    ("127.0.0.1", "127.0.0.1", True),
    ("127.0.0.1", "127.0.0.2", False),
    ("localhost", "localhost", True),
    ("*", "anything.example", True),
    ("", "bank.example", False),
    ("*.", "bank.example", True),  # "*" with a trailing dot: every site
    ("   ", "bank.example", False),
    # Written as the browser normalises hosts: Unicode and punycode, IPv4 forms, IPv6-mapped IPv4.
    ("bücher.example", "xn--bcher-kva.example", True),
    ("*.BÜCHER.example", "www.xn--bcher-kva.example", True),
    ("xn--bcher-kva.example", "bücher.example", True),
    ("straße.example", "xn--strae-oqa.example", True),  # ß is no ss (UTS 46, nontransitional)
    ("straße.example", "strasse.example", False),
    ("☃.example", "xn--n3h.example", True),
    ("127.0.0.1", "0x7f.1", True),
    ("127.0.0.1", "017700000001", True),
    ("127.0.0.1", "::ffff:127.0.0.1", True),
    ("[::ffff:7f00:1]", "127.0.0.1", True),
    ("[::1]", "0:0:0:0:0:0:0:1", True),
    ("10.0.0.1", "10.0.0.2", False),
    ("\uff10\uff58\uff17\uff46.1", "127.0.0.1", True),  # full-width 0x7f.1
]


@pytest.mark.parametrize(("pattern", "host", "expected"), MATCHES)
def test_host_patterns(pattern: str, host: str, expected: bool) -> None:
    assert host_matches(pattern, host) is expected


# URLs as Chrome reads them: the host is what a tab would show.
URL_HOSTS = [
    ("https://bank.example/x", "bank.example"),
    ("HTTPS://WWW.Bank.Example:8443/", "www.bank.example"),
    ("http:/\\www.bank.example/", "www.bank.example"),
    ("https://user:pw@www.bank.example/", "www.bank.example"),
    ("https://www.b%61nk.example/", "www.bank.example"),
    ("https://www.bank.example./", "www.bank.example"),
    ("ht\ttps://www.bank.example", "www.bank.example"),
    ("about:blank", None),
    ("file:///tmp/bank.example.html", None),
    ("chrome://settings", None),
    ("data:text/html,bank.example", None),
    ("https://BÜCHER.example./", "xn--bcher-kva.example"),
    ("http://0x7f.0.0.1:8000/", "127.0.0.1"),
    ("http://[::FFFF:127.0.0.1]/", "127.0.0.1"),
]


@pytest.mark.parametrize(("url", "host"), URL_HOSTS)
def test_the_host_of_a_url_is_the_one_chrome_reads(url: str, host: str | None) -> None:
    assert host_of(url) == host


def test_verdicts_per_mode() -> None:
    blocked = SiteRules("all", blocked=("*.bank.example",))
    assert blocked.verdict("https://www.bank.example/") == "blocked"
    assert blocked.verdict("https://shop.example/") == "allowed"
    assert blocked.verdict("about:blank") == "allowed"  # no site
    listed = SiteRules("listed", blocked=("*.bank.example",), allowed=("docs.example", "*.bank.example"))
    assert listed.verdict("https://docs.example/a") == "allowed"
    assert listed.verdict("https://shop.example/") == "unlisted"
    assert listed.verdict("https://bank.example/") == "blocked"  # blocked wins over allowed
    ask = SiteRules("ask", allowed=("docs.example",))
    assert ask.verdict("https://docs.example/") == "allowed"
    assert ask.verdict("https://shop.example/") == "ask"
    assert not SiteRules().restrictive and not SiteRules(blocked=("  ",)).restrictive
    assert SiteRules("listed").restrictive and SiteRules(blocked=("a.b",)).restrictive


def test_the_stricter_of_config_and_options_page_is_in_force() -> None:
    config = SiteRules("all", blocked=("*.bank.example",), allowed=("ignored.example",))
    page = SiteRules("all", blocked=("mail.example.com", "*.bank.example"))
    both = merge(config, page)
    assert both.mode == "all" and both.blocked == ("*.bank.example", "mail.example.com")
    assert both.allowed == ()  # an "all" source lists nothing to widen the others
    # listed or ask wins over all; listed over ask
    assert merge(SiteRules("listed", allowed=("a.example",)), SiteRules("all")).mode == "listed"
    assert merge(SiteRules("all"), SiteRules("ask")).mode == "ask"
    assert merge(SiteRules("ask"), SiteRules("listed")).mode == "listed"
    listed = merge(SiteRules("listed", allowed=("a.example",)), SiteRules("all", allowed=("b.example",)))
    assert listed.verdict("https://a.example/") == "allowed"
    assert listed.verdict("https://b.example/") == "unlisted"
    # sharing and confirmation: on when either says so
    on = merge_controls(Controls(tab_sharing=True), Controls(confirm_sensitive=True))
    assert on.tab_sharing and on.confirm_sensitive
    assert not merge_controls(Controls(), Controls()).tab_sharing


def test_upload_folders_add_up_and_dialog_answers_hold_only_where_both_agree() -> None:
    merged = merge_controls(
        Controls(upload_folders=("/a", "/b"), auto_dialogs=(("alert", "accept"), ("confirm", "accept"))),
        Controls(upload_folders=("/b", "/c"), auto_dialogs=(("confirm", "dismiss"), ("prompt", "dismiss"))),
    )
    assert merged.upload_folders == ("/a", "/b", "/c")
    # alert and prompt: one source names each; confirm: the two disagree, so the agent answers it
    assert dict(merged.auto_dialogs) == {"alert": "accept", "prompt": "dismiss"}
    assert dialog_answers(
        {"alert": "accept", "confirm": "yes", "beforeunload": "dismiss", "x": "accept"}
    ) == (
        ("alert", "accept"),
        ("beforeunload", "dismiss"),
    )
    assert dialog_answers(["alert"]) == ()
    settings = HostSettings.model_validate(
        {"auto_dialogs": {"beforeunload": "dismiss"}, "upload_folders": ["~/Up"]}
    )
    assert settings.controls().auto_dialogs == (("beforeunload", "dismiss"),)
    assert settings.controls().upload_folders == ("~/Up",)
    with pytest.raises(ValueError):
        HostSettings.model_validate({"auto_dialogs": {"alert": "maybe"}})


def test_the_config_file_says_the_same() -> None:
    settings = HostSettings.model_validate(
        {"site_rules": {"mode": "listed", "blocked": ["*.bank.example", ""], "allowed": ["docs.example"]},
         "tab_sharing": True}
    )  # fmt: skip
    controls = settings.controls()
    assert controls.sites == SiteRules("listed", ("*.bank.example",), ("docs.example",))
    assert controls.tab_sharing and not controls.confirm_sensitive
    with pytest.raises(ValueError):
        HostSettings.model_validate({"site_rules": {"mode": "some"}})


def test_the_service_worker_matches_sites_as_the_host_does() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    worker = (
        Path(__file__).resolve().parents[1] / "host" / "browserx" / "extension" / "controls.js"
    ).read_text("utf-8")
    source = worker.split("// site-rules-begin", 1)[1].split("// site-rules-end", 1)[0]
    source = source.split("\n", 2)[2]  # the marker's two comment lines
    urls = [u for u, _ in URL_HOSTS]
    rules = [
        SiteRules("all", blocked=("*.bank.example",)),
        SiteRules("listed", allowed=("www.bank.example",)),
        SiteRules("ask", blocked=("mail.example.com",), allowed=("*.example",)),
        SiteRules("all", blocked=("bücher.example", "127.0.0.1")),
    ]
    js_rules = [
        {"siteMode": r.mode, "blockedSites": list(r.blocked), "allowedSites": list(r.allowed)} for r in rules
    ]
    script = (
        f"{source}\n"
        f"const cases = {json.dumps([[p, h] for p, h, _ in MATCHES])};\n"
        f"const urls = {json.dumps(urls)}; const rules = {json.dumps(js_rules)};\n"
        "console.log(JSON.stringify({matches: cases.map(([p, h]) => siteMatches(p, h)),"
        " verdicts: rules.map((r) => urls.map((u) => siteVerdict(u, r)))}));"
    )
    out = json.loads(
        subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=30, check=True).stdout
    )
    wrong = [(p, h) for (p, h, want), got in zip(MATCHES, out["matches"], strict=True) if got is not want]
    assert not wrong, f"the extension matches differently: {wrong}"
    want = [[r.verdict(u) for u in urls] for r in rules]
    assert out["verdicts"] == want
    assert "blocked" in want[0] and "unlisted" in want[1] and "allowed" in want[2]  # the cases say something
    assert want[3].count("blocked") == 3  # bücher, 0x7f.0.0.1 and the IPv4-mapped address
