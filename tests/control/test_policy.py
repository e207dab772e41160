"""The doors that are shut unless the user opens them (pure: no browser)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tests.fakes import fake_tab

from browserx.control.api import build_methods
from browserx.control.schemas import CdpParams
from browserx.errors import BadRequest, MethodNotAllowed
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
