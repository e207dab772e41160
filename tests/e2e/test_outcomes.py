"""Verified outcomes (``expect``), network facts and coordinate actions, end to end: each kind of
expectation passing and failing on a fixture page, requests seen for a fetch-on-click button and
none for a plain one, click_at on a canvas, on a button and inside a cross-site iframe."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from browserx import Client
from browserx.errors import BrowserxError
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import open_page, run_cli


def ids(bx: Client, tab: int) -> dict[str, dict[str, Any]]:
    """Semantic records by name."""
    tree = bx.snapshot(tab=tab, format="semantic", max_tokens=0)["semantic"]["interactive_tree"]
    return {str(e.get("n", "")): e for e in tree}


@pytest.fixture
def page(browser: Browser, bx: Client, servers: Servers) -> tuple[int, dict[str, dict[str, Any]]]:
    tab = open_page(browser, bx, servers.url("outcome.html"))
    return tab, ids(bx, tab)


def verification(result: dict[str, Any]) -> dict[str, Any]:
    v = result["verification"]
    assert set(v) == {
        "passed",
        "expected",
        "actual",
        "errors_detected",
        "success_messages",
        "feedback",
        "confidence",
        "page_state",
    }
    return dict(v)


def test_element_appears_by_text_passes_and_reports_the_success_message(
    bx: Client, page: tuple[int, dict[str, dict[str, Any]]]
) -> None:
    tab, els = page
    result = bx.click(els["Save"]["i"], tab=tab, expect={"element_appears": {"text": "saved  SUCCESSFULLY"}})
    v = verification(result)
    assert v["passed"], v
    assert "Saved successfully" in v["success_messages"] and v["errors_detected"] == []
    assert v["feedback"].startswith("Verified:")


def test_a_late_element_is_waited_for_up_to_the_timeout(
    bx: Client, page: tuple[int, dict[str, dict[str, Any]]]
) -> None:
    tab, els = page
    t0 = time.monotonic()
    short = verification(
        bx.click(
            els["Save later"]["i"],
            tab=tab,
            expect={"element_appears": {"text": "Saved at last"}, "timeout": 0.2},
        )
    )
    assert not short["passed"] and "'Saved at last' is not on the page" in short["actual"]
    assert short["feedback"].startswith("Not verified:")
    time.sleep(1.2)  # the first click's message comes and is then on the page already
    bx.snapshot(tab=tab)
    long = verification(
        bx.click(
            els["Save later"]["i"],
            tab=tab,
            expect={"element_appears": {"text": "Saved at last"}, "timeout": 3},
        )
    )
    assert long["passed"], long  # shown anew (a page event), though the same text was there before
    assert time.monotonic() - t0 < 10


def test_an_error_message_fails_the_expectation_and_is_reported(
    bx: Client, page: tuple[int, dict[str, dict[str, Any]]]
) -> None:
    tab, els = page
    result = bx.click(
        els["Sign up"]["i"],
        tab=tab,
        expect={"element_appears": {"text": "Thanks for signing up"}, "timeout": 0.5},
    )
    v = verification(result)
    assert result["success"] and not v["passed"]
    assert v["errors_detected"] == ["Invalid email address"]
    assert "Invalid email address" in v["feedback"] and "Invalid email address" in v["actual"]


def test_element_appears_and_disappears_by_role_and_name(
    bx: Client, page: tuple[int, dict[str, dict[str, Any]]]
) -> None:
    tab, els = page
    gone = verification(
        bx.click(
            els["Close"]["i"], tab=tab, expect={"element_disappears": {"role": "dialog", "name": "cook"}}
        )
    )
    assert gone["passed"], gone
    again = verification(
        bx.click(
            els["Count"]["i"], tab=tab, expect={"element_disappears": {"role": "dialog"}, "timeout": 0.2}
        )
    )
    assert not again["passed"] and "was not on the page before" in again["actual"]
    alert = verification(
        bx.click(els["Sign up"]["i"], tab=tab, expect={"element_appears": {"role": "alert"}})
    )
    assert alert["passed"], alert


def test_navigation_and_url(bx: Client, page: tuple[int, dict[str, dict[str, Any]]]) -> None:
    tab, els = page
    stay = verification(bx.click(els["Count"]["i"], tab=tab, expect={"navigation": True, "timeout": 0.3}))
    assert not stay["passed"] and "no navigation" in stay["actual"]
    still = verification(bx.click(els["Count"]["i"], tab=tab, expect={"navigation": False}))
    assert still["passed"]
    went = verification(
        bx.click(els["Next step"]["i"], tab=tab, expect={"navigation": True, "url_contains": "step=2"})
    )
    assert went["passed"], went
    wrong = verification(bx.reload(tab=tab, expect={"url_contains": "step=3", "timeout": 0.3}))
    assert not wrong["passed"] and "step=2" in wrong["actual"]


def test_value_and_state_changes_without_showing_values(
    bx: Client, page: tuple[int, dict[str, dict[str, Any]]]
) -> None:
    tab, els = page
    pw = bx.type_text(els["Password"]["i"], "hunter2-secret", tab=tab, expect={"value_changes": True})
    assert verification(pw)["passed"] and "hunter2" not in json.dumps(pw)
    same = bx.key("Shift", tab=tab, id=els["Email"]["i"], expect={"value_changes": True, "timeout": 0.2})
    assert not verification(same)["passed"] and "did not change" in same["verification"]["actual"]
    checked = verification(bx.check(els["I agree"]["i"], tab=tab, expect={"state_changes": True}))
    assert checked["passed"] and "checked: False → True" in checked["actual"]
    again = verification(
        bx.check(els["I agree"]["i"], tab=tab, expect={"state_changes": True, "timeout": 0.2})
    )
    assert not again["passed"]


def test_any_change_no_change_and_alternatives(
    bx: Client, page: tuple[int, dict[str, dict[str, Any]]]
) -> None:
    tab, els = page
    assert verification(bx.click(els["Count"]["i"], tab=tab, expect={"any_change": True}))["passed"]
    assert not verification(bx.click(els["Count"]["i"], tab=tab, expect={"no_change": True}))["passed"]
    quiet = bx.hover_at(5, 5, tab=tab, expect={"no_change": True})
    assert verification(quiet)["passed"], quiet
    either = {
        "or": [{"navigation": True}, {"element_appears": {"text": "Saved successfully"}}],
        "timeout": 0.5,
    }
    assert not verification(bx.click(els["Count"]["i"], tab=tab, expect=either))["passed"]
    ok = verification(bx.click(els["Save"]["i"], tab=tab, expect=either))
    assert ok["passed"] and "(the page navigates) or" in ok["expected"]


def test_a_malformed_expectation_is_a_bad_request(
    bx: Client, page: tuple[int, dict[str, dict[str, Any]]]
) -> None:
    tab, els = page
    for bad in ({}, {"element_appears": {}}, {"navigation": "yes"}, {"element_appears": {"text": "a", "role": "b"}},
                {"typo": True}):  # fmt: skip
        with pytest.raises(BrowserxError) as info:
            bx.click(els["Count"]["i"], tab=tab, expect=bad)
        assert info.value.code == "bad_request", bad


def test_network_facts_for_a_fetching_button_and_a_plain_one(
    bx: Client, page: tuple[int, dict[str, dict[str, Any]]]
) -> None:
    tab, els = page
    plain = bx.click(els["Count"]["i"], tab=tab)
    assert plain["network"] == {"requests": 0, "finished": 0, "failed": 0, "xhr": []}
    saved = bx.click(els["Save"]["i"], tab=tab)["network"]
    assert saved["requests"] == 1 and saved["finished"] == 1 and len(saved["xhr"]) == 1
    call = saved["xhr"][0]
    assert (
        call["method"] == "GET" and call["status"] == 200 and call["type"] == "Fetch" and not call["failed"]
    )
    # Query keys only: the click asked for no values.
    assert "s3cr3t" not in call["url"] and "token=…" in call["url"] and "page=…" in call["url"]
    bad = bx.click(els["Save badly"]["i"], tab=tab)
    post = bad["network"]["xhr"][0]
    assert post["method"] == "POST" and post["status"] >= 400 and "secret body" not in json.dumps(bad)


def test_click_at_a_canvas_and_at_a_button(
    browser: Browser, bx: Client, page: tuple[int, dict[str, dict[str, Any]]]
) -> None:
    tab, _ = page
    browser.driver.execute_script("document.getElementById('canvas').scrollIntoView({block: 'center'})")
    left, top = browser.driver.execute_script(
        "const r = document.getElementById('canvas').getBoundingClientRect(); return [r.left, r.top]"
    )
    left, top = round(left), round(top)  # the page rounds the offset it reports
    result = bx.click_at(
        left + 50, top + 40, tab=tab, expect={"element_appears": {"text": "clicked at 50,40"}}
    )
    assert result["success"] and verification(result)["passed"], result
    assert "canvas#canvas" in result["hit"]["description"] and result["hit"]["frame"] == "m"
    assert (
        browser.driver.execute_script("return document.getElementById('clicked').textContent")
        == "clicked at 50,40"
    )

    browser.driver.execute_script("scrollTo(0, 0)")
    count = ids(bx, tab)["Count"]
    before = browser.driver.execute_script("return +document.getElementById('count').textContent")
    hit = bx.click_at(*count["xy"], tab=tab)
    assert hit["hit"]["id"] == count["i"] and hit["id"] == count["i"]
    assert browser.driver.execute_script("return +document.getElementById('count').textContent") == before + 1

    with pytest.raises(BrowserxError) as info:
        bx.click_at(50_000, 10, tab=tab)
    assert info.value.code == "bad_request" and "outside the viewport" in info.value.message


def test_click_at_inside_a_cross_site_frame_names_the_element_there(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("snap-frames.html"))
    deadline = time.monotonic() + 10
    els = ids(bx, tab)
    while "Cross-site frame button" not in els and time.monotonic() < deadline:
        time.sleep(0.2)
        els = ids(bx, tab)
    button = els["Cross-site frame button"]
    assert button.get("f"), button  # in a frame of its own
    browser.driver.execute_script(
        "window.__clicks = 0; document.getElementById('cross').scrollIntoView({block: 'start'})"
    )
    button = ids(bx, tab)["Cross-site frame button"]
    result = bx.hover_at(*button["xy"], tab=tab)
    assert result["hit"]["id"] == button["i"] and result["hit"]["frame"] == button["f"], result
    browser.driver.execute_script("scrollTo(0, 0)")
    same = ids(bx, tab)["Same-origin frame button"]
    assert bx.click_at(*same["xy"], tab=tab)["hit"]["id"] == same["i"]


def test_the_cli_takes_expect_as_json(bx: Client, page: tuple[int, dict[str, dict[str, Any]]]) -> None:
    tab, els = page
    out = run_cli(
        "click", str(els["Count"]["i"]), "--tab", str(tab), "--json", "--expect", '{"any_change": true}'
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["verification"]["passed"] is True
    bad = run_cli("click", str(els["Count"]["i"]), "--tab", str(tab), "--expect", "[1]")
    assert bad.returncode != 0 and "JSON object" in bad.stderr
