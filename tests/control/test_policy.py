"""The doors that are shut unless the user opens them (pure: no browser)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tests.fakes import fake_tab

from browserx.control.api import build_methods
from browserx.control.policy import check_url
from browserx.control.schemas import CdpParams
from browserx.errors import BadRequest, MethodNotAllowed
from browserx.settings import HostSettings, load_settings


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


@pytest.mark.parametrize(
    "url",
    ["file:///etc/passwd", " File:///x", "javascript:void(0)", "data:text/html,x", "chrome://settings",
     "chrome-extension://abc/x.html", "devtools://devtools", "view-source:https://a.b", "edge://flags",
     "brave://settings", "chrome-untrusted://x"],
)  # fmt: skip
def test_urls_that_are_refused(url: str) -> None:
    with pytest.raises(BadRequest):
        check_url(url, allow_file_urls=False)


def test_urls_that_pass() -> None:
    for url in ("https://example.com", "http://127.0.0.1:8000/x", "about:blank", "example.com"):
        check_url(url, allow_file_urls=False)
    check_url("file:///tmp/page.html", allow_file_urls=True)


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
