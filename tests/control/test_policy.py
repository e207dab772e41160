"""The doors that are shut unless the user opens them (pure: no browser)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tests.fakes import fake_tab

from browserx.control.api import build_methods
from browserx.control.policy import allowed_url
from browserx.control.schemas import CdpParams
from browserx.errors import BadRequest, MethodNotAllowed, UrlNotAllowed
from browserx.settings import HostSettings, load_settings
from browserx.tabs.tab import Tab


class _Registry:
    conn = None

    async def resolve(self, tab: int | None) -> None:
        raise AssertionError("a refused request must not touch a tab")


def test_the_raw_cdp_method_is_off_by_default_and_says_how_to_turn_it_on() -> None:
    methods = build_methods(_Registry(), "sock", HostSettings())  # type: ignore[arg-type]
    with pytest.raises(MethodNotAllowed) as info:
        asyncio.run(methods["cdp"].handler(CdpParams(method="Runtime.evaluate")))
    assert "allow_raw_cdp" in info.value.message


def test_even_when_open_the_hosts_machinery_is_not_served() -> None:
    methods = build_methods(_Registry(), "sock", HostSettings(allow_raw_cdp=True))  # type: ignore[arg-type]
    with pytest.raises(MethodNotAllowed):
        asyncio.run(methods["cdp"].handler(CdpParams(method="Page.addScriptToEvaluateOnNewDocument")))


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
    if not url.strip().lower().startswith("file"):
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


def test_refused_urls_never_touch_a_tab_through_any_door() -> None:
    from browserx.control.schemas import NavigateParams, NewTabParams

    methods = build_methods(_Registry(), "sock", HostSettings(allow_raw_cdp=True))  # type: ignore[arg-type]
    calls = [
        (methods["navigate"], NavigateParams(url="about:version")),
        (methods["new_tab"], NewTabParams(url="about:version")),
        (methods["cdp"], CdpParams(method="Page.navigate", params={"url": "about:version"})),
        (methods["cdp"], CdpParams(method="Page.navigate", params={"url": "mailto:a@b.c"})),
        (methods["cdp"], CdpParams(method="Page.navigate", params={"url": 7})),
    ]
    for method, params in calls:
        with pytest.raises(BadRequest) as info:
            asyncio.run(method.handler(params))
        url = getattr(params, "url", None) or getattr(params, "params", {}).get("url")
        assert info.value.code == ("url_not_allowed" if isinstance(url, str) else "bad_request")


def test_settings_file_opens_doors_and_a_bad_one_keeps_them_shut(tmp_path: Path) -> None:
    good = tmp_path / "config.json"
    good.write_text('{"allow_raw_cdp": true}')
    assert load_settings(good).allow_raw_cdp and not load_settings(good).allow_file_urls
    bad = tmp_path / "bad.json"
    bad.write_text('{"allow_raw_cdp": "yes please", "unknown": 1}')
    assert load_settings(bad) == HostSettings()
    assert load_settings(tmp_path / "missing.json") == HostSettings()


@pytest.mark.parametrize("reply", [{}, {"result": "odd"}, {"result": None}, {"result": {"value": "true"}}])
def test_an_opt_out_answer_of_an_odd_shape_is_not_a_refusal_and_not_a_crash(reply: dict[str, object]) -> None:
    from browserx.control.policy import refuse_opted_out

    tab, _ = fake_tab(lambda method, params, session_id: reply)
    asyncio.run(refuse_opted_out(tab))


def _framed_tab(tree: object, opted_out_in: set[object]) -> Tab:
    """A tab with one out-of-process iframe session "S": its frame tree is ``tree``; the opt-out
    check answers yes in the contexts of ``opted_out_in`` (None: the session's own document)."""
    from browserx.relay.protocol import TargetInfo

    def answer(method: str, params: dict[str, object], session_id: str | None) -> object:
        if method == "Page.getFrameTree":
            return tree
        if method == "Page.createIsolatedWorld":
            return {"executionContextId": 9}
        if method == "Runtime.evaluate":
            return {"result": {"type": "boolean", "value": params.get("contextId") in opted_out_in}}
        return {}

    tab, _ = fake_tab(answer)
    tab.session.sessions["S"] = TargetInfo("T", type="iframe")
    return tab


def test_a_frame_that_opted_out_refuses_a_screenshot_and_an_odd_frame_tree_still_checks_the_document() -> (
    None
):
    from browserx.control.policy import refuse_opted_out_frames
    from browserx.errors import PageOptedOut

    child = {"frameTree": {"frame": {"id": "F"}, "childFrames": [{"frame": {"id": "C"}}]}}
    asyncio.run(refuse_opted_out_frames(_framed_tab(child, set())))
    with pytest.raises(PageOptedOut):  # the same-process child frame of the iframe's document
        asyncio.run(refuse_opted_out_frames(_framed_tab(child, {9})))
    for odd in ({}, {"frameTree": {"frame": []}}, {"frameTree": {"frame": {"id": "F"}, "childFrames": [7]}}):
        with pytest.raises(PageOptedOut):  # the iframe's own document
            asyncio.run(refuse_opted_out_frames(_framed_tab(odd, {None})))
