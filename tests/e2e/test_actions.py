# ruff: noqa: B023  (the measurement lambdas are called at once, inside their loop iteration)
"""Actions end to end: act on snapshot IDs through the real pipe, verify every effect
independently through Selenium (page globals, values, URL)."""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from typing import Any

import pytest

from browserx import Client
from browserx.errors import BrowserxError, NotInteractable, Occluded, StaleElement, UnknownElement
from tests.e2e.harness import Browser, Servers, artifact
from tests.e2e.helpers import controls, id_of, js, open_page, wait_sessions

REPORT = artifact("actions-report.txt")


@pytest.fixture
def page(browser: Browser, bx: Client, servers: Servers) -> Iterator[Any]:
    def go(name: str) -> int:
        return open_page(browser, bx, servers.url(name))

    yield go


# -- pointer -----------------------------------------------------------------------------


def test_click_increments_counter_and_reports_result(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-controls.html")
    result = bx.click(id_of(bx, tab, "Increment"), tab=tab)
    assert result["success"] is True and result["error"] is None
    assert result["action"] == "click" and result["duration_ms"] > 0
    assert js(browser, "counts.inc") == 1
    assert result["changes"]["navigated"] is False
    # A click in view, observation included, in four round trips to the page (README; a ratchet:
    # resolve beside the observation's start, aim, the mouse events, verdict and settle).
    assert 1 <= result["round_trips"] <= 4, result["round_trips"]


def test_click_with_modifiers_double_and_right_click(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-controls.html")
    ids = controls(bx, tab)
    bx.click(ids["Increment"]["id"], tab=tab, modifiers=["Ctrl", "Shift"])
    assert js(browser, "counts.mods") == {"ctrl": True, "shift": True}
    bx.click(ids["Double me"]["id"], tab=tab, count=2)
    assert js(browser, "counts.dbl") == 1
    bx.click(ids["Right click me"]["id"], tab=tab, button="right")
    assert js(browser, "counts.ctx") == 1
    assert js(browser, "counts.inc") == 1  # the others did not click the wrong thing


def test_hover_fires_mouseenter(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-controls.html")
    bx.hover(id_of(bx, tab, "Hover me"), tab=tab)
    assert js(browser, "counts.hover") == 1


def test_link_click_reports_navigation(browser: Browser, bx: Client, page: Any, servers: Servers) -> None:
    tab = page("act-controls.html")
    result = bx.click(id_of(bx, tab, "Go to target"), tab=tab)
    assert result["changes"]["navigated"] is True
    assert result["changes"]["new_url"] == servers.url("act-target.html")
    assert browser.driver.current_url == servers.url("act-target.html")


def test_unknown_id_is_rejected(bx: Client, page: Any) -> None:
    tab = page("act-controls.html")
    controls(bx, tab)
    with pytest.raises(UnknownElement):
        bx.click(999_999, tab=tab)


# -- typing --------------------------------------------------------------------------------


def test_type_into_input_textarea_and_clear(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-controls.html")
    ids = controls(bx, tab)
    r = bx.type_text(ids["Full name"]["id"], "Ada Lovelace", tab=tab, clear=True)
    # Form values only on request: without include_values, what changed and by how much.
    assert r["changes"]["new_value"] is None and r["changes"]["value_changed"] is True
    assert r["changes"]["value_length"] == len("Ada Lovelace")
    assert js(browser, "document.getElementById('name').value") == "Ada Lovelace"
    r = bx.type_text(ids["Full name"]["id"], "Ada Lovelace", tab=tab, clear=True, include_values=True)
    assert r["changes"]["new_value"] == "Ada Lovelace"
    bx.type_text(ids["Notes"]["id"], "line one", tab=tab)
    assert js(browser, "document.getElementById('notes').value") == "line one"


def test_type_password_never_reports_value(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-controls.html")
    r = bx.type_text(id_of(bx, tab, "Secret"), "hunter2", tab=tab, include_values=True)
    assert r["changes"]["new_value"] is None and r["changes"]["value_length"] == 7
    assert js(browser, "document.getElementById('secret').value") == "hunter2"


def test_type_react_controlled_input_updates_state(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-controls.html")
    rid = id_of(bx, tab, "React name")
    bx.type_text(rid, "Grace", tab=tab)
    assert js(browser, "window.reactState") == "Grace"
    bx.type_text(rid, "Hopper", tab=tab, clear=True, per_char=True)
    assert js(browser, "window.reactState") == "Hopper"
    assert js(browser, "document.getElementById('react-echo').textContent") == "Hopper"


def test_type_contenteditable(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-controls.html")
    r = bx.type_text(id_of(bx, tab, "Comment editor"), "Hello editor", tab=tab, include_values=True)
    assert js(browser, "document.getElementById('editor').innerText.trim()") == "Hello editor"
    assert r["changes"]["new_value"].strip() == "Hello editor"


def test_type_refuses_buttons_and_readonly(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-controls.html")
    ids = controls(bx, tab)
    with pytest.raises(NotInteractable):
        bx.type_text(ids["Increment"]["id"], "x", tab=tab)
    with pytest.raises(NotInteractable):
        bx.type_text(ids["Locked"]["id"], "x", tab=tab)
    assert js(browser, "document.getElementById('ro').value") == "fixed"


def test_type_submit_presses_enter(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-controls.html")
    bx.type_text(id_of(bx, tab, "Query"), "cats", tab=tab, submit=True)
    assert js(browser, "window.submitted") == 1


def test_key_shortcut_with_modifiers(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-controls.html")
    bx.key("Ctrl+Shift+K", tab=tab)
    last = js(browser, "window.keys.filter(k => k.code === 'KeyK').pop()")
    assert last["ctrlKey"] is True and last["shiftKey"] is True and last["key"] == "K"
    qid = id_of(bx, tab, "Query")
    bx.key("a", tab=tab, id=qid, repeat=3)
    assert js(browser, "document.getElementById('q').value") == "aaa"
    bx.key("Backspace", tab=tab, id=qid)
    assert js(browser, "document.getElementById('q').value") == "aa"


# -- forms ---------------------------------------------------------------------------------


def test_select_native_by_label_and_value(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-controls.html")
    sid = id_of(bx, tab, "Country")
    r = bx.select(sid, "Italy", tab=tab, include_values=True)
    assert r["changes"]["selected"] == "Italy" and r["changes"]["new_value"] == "it"
    assert js(browser, "document.getElementById('country').value") == "it"
    assert js(browser, "window.countryChanged") == 1
    bx.select(sid, "fr", tab=tab)
    assert js(browser, "document.getElementById('country').value") == "fr"
    with pytest.raises(BrowserxError) as info:
        bx.select(sid, "Atlantis", tab=tab)
    assert info.value.code == "option_not_found" and "Germany" in info.value.message


def test_select_aria_listbox(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-controls.html")
    r = bx.select(id_of(bx, tab, "Fruit"), "Banana", tab=tab)
    assert r["changes"]["selected"] == "Banana"
    assert js(browser, "window.fruit") == "Banana"


def test_check_uncheck_and_aria_switch(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-controls.html")
    ids = controls(bx, tab)
    assert bx.check(ids["Subscribe"]["id"], tab=tab)["changes"]["checked"] is True
    assert js(browser, "document.getElementById('sub').checked") is True
    bx.check(ids["Subscribe"]["id"], tab=tab)  # already checked: no click
    assert js(browser, "document.getElementById('sub').checked") is True
    bx.check(ids["Subscribe"]["id"], False, tab=tab)
    assert js(browser, "document.getElementById('sub').checked") is False
    bx.check(ids["Express"]["id"], tab=tab)
    assert js(browser, "document.getElementById('exp').checked") is True
    assert bx.check(ids["Dark mode"]["id"], tab=tab)["changes"]["checked"] is True
    assert js(browser, "document.getElementById('dark').getAttribute('aria-checked')") == "true"


# -- where the element is ------------------------------------------------------------------


def test_nested_scroll_containers_and_below_the_fold(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-scroll.html")
    ids = controls(bx, tab)
    bx.click(ids["Deep button"]["id"], tab=tab)
    assert js(browser, "hits.deep") == 1
    bx.click(ids["Far button"]["id"], tab=tab)
    assert js(browser, "hits.far") == 1


def test_scroll_page_container_and_infinite_list(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-scroll.html")
    r = bx.scroll(tab=tab)
    s = r["changes"]["scroll"]
    assert r["changes"]["scroll_changed"] is True and s["after"][1] > s["before"][1] and s["target"] == "page"
    assert js(browser, "scrollY") == pytest.approx(s["after"][1], abs=1)
    feed = id_of(bx, tab, "Feed")
    seen = []
    for _ in range(12):
        r = bx.scroll(feed, tab=tab, amount=400)
        seen.append(r["changes"]["scroll"]["remaining"]["down"])
        if r["changes"]["scroll"]["remaining"]["down"] == 0:
            break
    assert seen[-1] == 0 and js(browser, "feed.children.length") == 60  # reached the real end
    assert any(x > 0 for x in seen[:-1])
    top = bx.scroll(tab=tab, direction="up", amount=100_000)
    assert top["changes"]["scroll"]["remaining"]["up"] == 0


def test_click_in_closed_shadow_root(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-shadow.html")
    bx.click(id_of(bx, tab, "Shadow button"), tab=tab)
    assert js(browser, "window.shadowClicks") == 1


def test_click_in_cross_origin_and_same_origin_iframes(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-frames.html")
    wait_sessions(bx, tab, 1)
    found: list[int] = []

    def walk(node: dict[str, Any]) -> None:
        if node.get("name") == "Frame button" and "id" in node:
            found.append(int(node["id"]))
        for child in node.get("children", []):
            walk(child)

    walk(bx.snapshot(tab=tab, format="json")["json"]["page"]["body"])
    assert len(found) == 2, found
    driver = browser.driver
    # Empirical check of the coordinate math: the point clicked (top-level viewport) is the
    # button's center as Selenium sees it right after the click (iframe content box origin +
    # button rect inside the frame) — for the OOPIF and for the same-origin frame.
    for frame_id, element_id in zip(("xo", "so"), found, strict=True):
        r = bx.click(element_id, tab=tab)
        assert r["success"], r
        point = r["point"]
        frame = driver.find_element("id", frame_id)
        origin = driver.execute_script(
            "const f = arguments[0], r = f.getBoundingClientRect(), cs = getComputedStyle(f);"
            "return [r.left + f.clientLeft + parseFloat(cs.paddingLeft),"
            " r.top + f.clientTop + parseFloat(cs.paddingTop)]",
            frame,
        )
        driver.switch_to.frame(frame)
        box = driver.execute_script(
            "const r = document.getElementById('fb').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]"
        )
        driver.switch_to.default_content()
        expected = (origin[0] + box[0] + box[2] / 2, origin[1] + box[1] + box[3] / 2)
        assert point[0] == pytest.approx(expected[0], abs=2), frame_id
        assert point[1] == pytest.approx(expected[1], abs=2), frame_id
    clicks = []
    for frame_id in ("xo", "so"):
        driver.switch_to.frame(driver.find_element("id", frame_id))
        clicks.append(driver.execute_script("return window.frameClicks"))
        driver.switch_to.default_content()
    assert clicks == [1, 1]


# -- safety ----------------------------------------------------------------------------------


def test_overlay_blocks_click_until_dismissed(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-overlay.html")
    ids = controls(bx, tab)
    with pytest.raises(Occluded) as info:
        bx.click(ids["Buy now"]["id"], tab=tab)
    assert "div#consent" in info.value.message and "Buy now" in info.value.message
    assert js(browser, "window.bought") == 0
    bx.click(ids["Accept cookies"]["id"], tab=tab)
    bx.click(ids["Buy now"]["id"], tab=tab)
    assert js(browser, "window.bought") == 1


def test_rerendered_list_heals_or_fails_never_misclicks(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-rerender.html")
    b = id_of(bx, tab, "Open B")
    js(browser, "render(['C', 'B', 'A'])")  # new nodes, new order
    r = bx.click(b, tab=tab)
    assert r["recovered_from"] == b
    assert js(browser, "window.opened") == {"B": 1}

    b = id_of(bx, tab, "Open B")
    js(browser, "render(['A', 'D', 'C'])")  # B is gone for real
    with pytest.raises(StaleElement) as info:
        bx.click(b, tab=tab)
    assert "snapshot" in info.value.message
    assert js(browser, "window.opened") == {"B": 1}

    c = id_of(bx, tab, "Open C")  # third item
    js(browser, "render(['C', 'C', 'A'])")  # two look-alikes, neither where it was: ambiguous
    with pytest.raises(StaleElement):
        bx.click(c, tab=tab)
    assert js(browser, "window.opened") == {"B": 1}

    c = id_of(bx, tab, "Open C")  # now the first of two twins
    js(browser, "render(['C', 'A', 'C'])")  # twins again, one exactly in its place: that one
    r = bx.click(c, tab=tab)
    assert r["recovered_from"] == c
    assert js(browser, "[window.opened.C, window.lastIndex]") == [1, 0]


def test_navigate_back_forward_reload_wait(browser: Browser, bx: Client, page: Any, servers: Servers) -> None:
    tab = page("act-controls.html")
    r = bx.navigate(servers.url("act-target.html"), tab=tab)
    assert r["changes"]["navigated"] and r["changes"]["new_url"] == servers.url("act-target.html")
    assert browser.driver.current_url == servers.url("act-target.html")
    bx.wait(text="Target reached", tab=tab, timeout=5)
    bx.back(tab=tab)
    assert browser.driver.current_url == servers.url("act-controls.html")
    bx.forward(tab=tab)
    assert browser.driver.current_url == servers.url("act-target.html")
    js(browser, "window.marker = 1")
    bx.reload(tab=tab)
    assert js(browser, "window.marker") is None
    with pytest.raises(BrowserxError) as info:
        bx.wait(text="never there", tab=tab, timeout=0.5)
    assert info.value.code == "action_timeout"


def test_stale_id_after_navigation_is_not_reused(
    browser: Browser, bx: Client, page: Any, servers: Servers
) -> None:
    tab = page("act-controls.html")
    inc = id_of(bx, tab, "Increment")
    bx.navigate(servers.url("act-target.html"), tab=tab)
    controls(bx, tab)  # a snapshot of the new page: its keys restart, old IDs must not alias them
    with pytest.raises(StaleElement) as info:
        bx.click(inc, tab=tab)
    assert "since left" in str(info.value)  # the tab let go of the old page's IDs
    assert browser.driver.current_url == servers.url("act-target.html")


def test_cli_click_and_type(browser: Browser, bx: Client, page: Any) -> None:
    import json
    import os
    import subprocess
    import sys

    tab = page("act-controls.html")
    ids = controls(bx, tab)

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "browserx.interfaces.cli", *args], capture_output=True,
                              text=True, timeout=60, env=os.environ.copy())  # fmt: skip

    out = cli("click", str(ids["Increment"]["id"]), "--tab", str(tab), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["success"] is True and js(browser, "counts.inc") == 1
    out = cli("type", str(ids["Full name"]["id"]), "Linus", "--clear", "--tab", str(tab))
    assert (
        out.returncode == 0 and "value changed (5 characters)" in out.stdout and "Linus" not in out.stdout
    ), out
    out = cli("type", str(ids["Full name"]["id"]), "Linus", "--clear", "--include-values", "--tab", str(tab))
    assert out.returncode == 0 and 'value now "Linus"' in out.stdout, out
    out = cli("click", "999999", "--tab", str(tab), "--json")
    assert out.returncode == 1 and json.loads(out.stdout)["error"]["code"] == "unknown_id"


# -- measurement -----------------------------------------------------------------------------

ROUNDS = 5


def test_measure_success_rate_and_latency(browser: Browser, bx: Client, page: Any) -> None:
    """Every control kind, ROUNDS times, each verified through Selenium; writes the report."""
    outcomes: dict[str, list[bool]] = {}
    latency: dict[str, list[float]] = {}
    driver = browser.driver

    def attempt(kind: str, act: Any, verify: Any) -> None:
        ok = False
        try:
            result = act()
            latency.setdefault(kind.split(":")[0], []).append(float(result["duration_ms"]))
            ok = bool(result["success"]) and bool(verify())
        except BrowserxError as exc:
            print(f"{kind}: {exc.code}: {exc.message}")
        outcomes.setdefault(kind, []).append(ok)

    for n in range(1, ROUNDS + 1):
        tab = page("act-controls.html")
        ids = {k: v["id"] for k, v in controls(bx, tab).items()}
        attempt(
            "click:button",
            lambda: bx.click(ids["Increment"], tab=tab),
            lambda: js(browser, "counts.inc") == 1,
        )
        attempt(
            "click:double",
            lambda: bx.click(ids["Double me"], tab=tab, count=2),
            lambda: js(browser, "counts.dbl") == 1,
        )
        attempt(
            "click:right",
            lambda: bx.click(ids["Right click me"], tab=tab, button="right"),
            lambda: js(browser, "counts.ctx") == 1,
        )
        text = f"value {n}"
        attempt("type:input", lambda: bx.type_text(ids["Full name"], text, tab=tab, clear=True),
                lambda: js(browser, "document.getElementById('name').value") == text)  # fmt: skip
        attempt("type:react", lambda: bx.type_text(ids["React name"], text, tab=tab),
                lambda: js(browser, "window.reactState") == text)  # fmt: skip
        attempt("type:contenteditable", lambda: bx.type_text(ids["Comment editor"], text, tab=tab),
                lambda: js(browser, "document.getElementById('editor').innerText.trim()") == text)  # fmt: skip
        attempt("select:native", lambda: bx.select(ids["Country"], "Italy", tab=tab),
                lambda: js(browser, "document.getElementById('country').value") == "it")  # fmt: skip
        attempt(
            "select:aria",
            lambda: bx.select(ids["Fruit"], "Cherry", tab=tab),
            lambda: js(browser, "window.fruit") == "Cherry",
        )
        attempt("check:checkbox", lambda: bx.check(ids["Subscribe"], tab=tab),
                lambda: js(browser, "document.getElementById('sub').checked") is True)  # fmt: skip
        attempt("key:shortcut", lambda: bx.key("Ctrl+K", tab=tab),
                lambda: js(browser, "window.keys.some(k => k.code === 'KeyK' && k.ctrlKey)"))  # fmt: skip

        tab = page("act-shadow.html")
        sid = id_of(bx, tab, "Shadow button")
        attempt(
            "click:closed-shadow",
            lambda: bx.click(sid, tab=tab),
            lambda: js(browser, "window.shadowClicks") == 1,
        )

        tab = page("act-scroll.html")
        deep = id_of(bx, tab, "Deep button")
        attempt("click:nested-scroll", lambda: bx.click(deep, tab=tab), lambda: js(browser, "hits.deep") == 1)

        tab = page("act-frames.html")
        wait_sessions(bx, tab, 1)
        body = bx.snapshot(tab=tab, format="json")["json"]["page"]["body"]
        by_frame: dict[str, int] = {}

        def walk_frames(node: dict[str, Any], frame: str | None) -> None:
            if node.get("role") == "iframe":
                frame = "xo" if "localhost" in str(node.get("url", "")) else "so"
            if node.get("name") == "Frame button" and "id" in node and frame:
                by_frame[frame] = int(node["id"])
            for child in node.get("children", []):
                walk_frames(child, frame)

        walk_frames(body, None)
        assert set(by_frame) == {"xo", "so"}, f"both frames' buttons are listed: {by_frame}"
        for frame_name, element_id in by_frame.items():

            def in_frame(frame_name: str = frame_name) -> bool:
                driver.switch_to.frame(driver.find_element("id", frame_name))
                try:
                    return bool(driver.execute_script("return window.frameClicks") == 1)
                finally:
                    driver.switch_to.default_content()

            kind = "click:cross-origin-iframe" if frame_name == "xo" else "click:same-origin-iframe"
            attempt(kind, lambda element_id=element_id: bx.click(element_id, tab=tab), in_frame)

    lines = ["browserx actions report", f"rounds per kind: {ROUNDS}", "", "success rate per kind:"]
    for kind, oks in sorted(outcomes.items()):
        lines.append(f"  {kind:<28} {sum(oks)}/{len(oks)}  {100 * sum(oks) / len(oks):.0f}%")
    total = [ok for oks in outcomes.values() for ok in oks]
    lines.append(f"  {'overall':<28} {sum(total)}/{len(total)}  {100 * sum(total) / len(total):.1f}%")
    lines += ["", "latency (duration_ms, includes the ~100 ms settle):"]
    for kind, values in sorted(latency.items()):
        lines.append(
            f"  {kind:<8} median {statistics.median(values):7.1f}  max {max(values):7.1f}  n={len(values)}"
        )
    report = "\n".join(lines) + "\n"
    print(report)
    REPORT.write_text(report)
    # A measurement: the dedicated tests above assert each kind exactly; here the floors are 95 %
    # overall and no kind below 4 in 5 (a rare miss under CI load is reported, not hidden).
    total = [ok for oks in outcomes.values() for ok in oks]
    assert sum(total) / len(total) >= 0.95, report
    assert all(sum(oks) / len(oks) >= 0.8 for oks in outcomes.values()), report


# -- whole forms -----------------------------------------------------------------------------


def test_fill_fills_every_kind_of_field_in_one_call(browser: Browser, bx: Client, page: Any) -> None:
    tab = page("act-controls.html")
    ids = {name: found["id"] for name, found in controls(bx, tab).items()}
    values: dict[str, str | bool] = {"Full name": "Ann Lee", "Notes": "two\nlines", "Secret": "hunter2",
                                     "Subscribe": True, "Express": True, "Dark mode": True,
                                     "Country": "Italy", "Fruit": "Banana"}  # fmt: skip
    result = bx.fill([{"id": ids[name], "value": value} for name, value in values.items()], tab=tab)
    assert result["success"] is True and result["filled"] == len(values)
    assert [f["action"] for f in result["fields"]] == ["type"] * 3 + ["check"] * 3 + ["select"] * 2
    assert "hunter2" not in str(result)  # a password is never in a result
    page_state = js(browser, "[document.getElementById('name').value, notes.value, secret.value, sub.checked, exp.checked,"
                             " dark.getAttribute('aria-checked'), country.value, window.fruit]")  # fmt: skip
    assert page_state == ["Ann Lee", "two\nlines", "hunter2", True, True, "true", "it", "Banana"]
    assert js(browser, "window.countryChanged") == 1


def test_fill_stops_at_the_first_field_that_fails_and_says_what_was_done(
    browser: Browser, bx: Client, page: Any
) -> None:
    tab = page("act-controls.html")
    ids = {name: found["id"] for name, found in controls(bx, tab).items()}
    with pytest.raises(BrowserxError) as info:
        bx.fill({str(ids["Full name"]): "Bo", str(ids["Locked"]): "x", str(ids["Notes"]): "never"}, tab=tab)
    assert info.value.code == "not_interactable" and "Field 2 of 3" in info.value.message
    assert [f["id"] for f in info.value.details["filled"]] == [ids["Full name"]]
    assert info.value.details["field"] == ids["Locked"]
    assert js(browser, "[document.getElementById('name').value, ro.value, notes.value]") == [
        "Bo",
        "fixed",
        "",
    ]
    with pytest.raises(BrowserxError) as info:  # text for a checkbox: refused before any input
        bx.fill([{"id": ids["Subscribe"], "value": "yes"}], tab=tab)
    assert info.value.code == "bad_request" and js(browser, "sub.checked") is False
