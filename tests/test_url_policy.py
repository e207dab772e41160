"""The URL allowlist, as Chrome's URL parser reads a URL (pure: no browser). The walk through a
real browser is tests/e2e/test_url_policy.py."""

from __future__ import annotations

import pytest

from browserx.errors import BadRequest, UrlNotAllowed
from browserx.url_policy import allowed_url, check_link

# Every door Chrome has that is not a web page, under the spellings a parser must see through.
REFUSED_URLS = [
    "about:version", "about:settings", "about:about", "about:srcdoc", "about:blank/x", "about:BLANK",
    "about:newtab", "about:crash", "about://blank", "chrome://version", "chrome://crash", "chrome://kill",
    "chrome://hang", "chrome://gpucrash", "chrome://inducebrowsercrashforrealz", "CHROME://settings",
    "chrome-extension://abcdefghijklmnop/x.html", "devtools://devtools/bundled/inspector.html",
    "view-source:https://a.b", "javascript:void(0)", "jAvAsCrIpT:alert(1)", "java\tscript:alert(1)",
    "java\nscript:alert(1)", " \x01javascript:alert(1)", "\x00javascript:alert(1)", "data:text/html,x",
    "blob:https://a.b/uuid", "filesystem:https://a.b/temporary/x", "mailto:a@b.c", "tel:+1555",
    "ftp://a.b/x", "ws://a.b", "wss://a.b", "intent://x#Intent;end", "chrome-untrusted://x",
    "chrome-search://local-ntp", "edge://flags", "brave://settings", "opera://x", "vivaldi://x",
    "file:///etc/passwd", " File:///x", "FILE:/etc/passwd", "http://", "https:///", "http:?x#y", "http:?x", "urn:x",
    "localhost:x", "sms:x", "market://details", "android-app://x", "isolated-app://x",
]  # fmt: skip


@pytest.mark.parametrize("url", REFUSED_URLS)
def test_urls_outside_the_allowlist_are_refused_with_url_not_allowed(url: str) -> None:
    with pytest.raises(UrlNotAllowed) as info:
        allowed_url(url, allow_file_urls=False)
    assert info.value.code == "url_not_allowed"
    if not url.strip().lower().startswith("file:"):
        assert "http" in info.value.message  # says what is allowed


@pytest.mark.parametrize(
    ("url", "sent"),
    [("https://example.com", "https://example.com"), ("http://127.0.0.1:8000/x", "http://127.0.0.1:8000/x"),
     ("  HTTP://Example.com/  ", "HTTP://Example.com/"), ("about:blank", "about:blank"),
     ("about:blank#top", "about:blank#top"), ("example.com", "https://example.com"),
     ("localhost:8000/x", "https://localhost:8000/x"), ("http:/\\evil.example/", "http:/\\evil.example/"),
     ("https://user@host.example", "https://user@host.example"), ("ht\ttps://a.b", "https://a.b"),
     ("\x00https://a.b\n", "https://a.b")],
)  # fmt: skip
def test_web_urls_and_about_blank_pass_as_chrome_reads_them(url: str, sent: str) -> None:
    assert allowed_url(url, allow_file_urls=False) == sent


def test_file_urls_only_when_the_user_allowed_them() -> None:
    with pytest.raises(UrlNotAllowed, match="allow_file_urls"):
        allowed_url("file:///tmp/page.html", allow_file_urls=False)
    assert allowed_url("file:///tmp/page.html", allow_file_urls=True) == "file:///tmp/page.html"
    with pytest.raises(UrlNotAllowed):  # the file door opens nothing else
        allowed_url("chrome://version", allow_file_urls=True)


def test_an_empty_url_is_a_bad_request() -> None:
    for url in ("", "  ", "\t\n"):
        with pytest.raises(BadRequest):
            allowed_url(url, allow_file_urls=False)


@pytest.mark.parametrize(
    "href",
    ["about:version", "chrome://settings", "mailto:a@b.c", "tel:+1555", "data:text/html,x", "blob:http://a.b/u",
     "view-source:http://a.b", "intent://x", "file:///etc/passwd", "ws://a.b", " CHROME://crash"],
)  # fmt: skip
def test_links_outside_the_allowlist_are_refused(href: str) -> None:
    with pytest.raises(UrlNotAllowed) as info:
        check_link(href, "http://a.b/page")
    assert "Nothing was clicked" in info.value.message


def test_links_a_page_follows_itself() -> None:
    for href in ("https://a.b/x", "http://a.b/#top", "about:blank", "javascript:void(0)", "JavaScript:go()"):
        check_link(href, "http://a.b/page")
    check_link("blob:http://a.b/uuid", "http://a.b/page", download=True)  # saves a file
    check_link("file:///tmp/b.html", "file:///tmp/a.html")  # a file page's own links
    with pytest.raises(UrlNotAllowed):  # a download does not open other doors
        check_link("chrome://version", "http://a.b/page", download=True)


def test_the_extension_refuses_what_the_host_refuses() -> None:
    """Defence in depth: the service worker's own check (extension/service-worker.js, urlAllowed,
    run here under Node's WHATWG URL parser) refuses every URL the host refuses but file: (the
    host decides that by the user's setting) and lets through what the host sends."""
    import json
    import shutil
    import subprocess
    from pathlib import Path

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    worker = (
        Path(__file__).resolve().parents[1] / "host" / "browserx" / "extension" / "service-worker.js"
    ).read_text("utf-8")
    source = worker.split("// url-allowed-begin", 1)[1].split("// url-allowed-end", 1)[0]
    source = source.split("\n", 1)[1]  # the marker line's comment
    sent = [
        allowed_url(u, allow_file_urls=False)
        for u in ("https://a.b/x", "http:/\\evil.example", "about:blank#x")
    ]
    urls = [*REFUSED_URLS, *sent, 7, None]
    script = f"{source}\nconsole.log(JSON.stringify({json.dumps(urls)}.map(urlAllowed)));"
    out = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=30, check=True)
    verdicts = dict(zip(map(str, urls), json.loads(out.stdout), strict=True))
    wrong = {u: v for u, v in verdicts.items() if v != (u in sent or u.strip().lower().startswith("file:"))}
    assert not wrong, f"the extension disagrees with the host on: {wrong}"
