"""One opt-out rule for every tool (issue 20, items 2 and 3): on hostile pages whose opted-out parts
(``data-no-ai`` on an element in the light DOM, in an open and a closed shadow root, on a shadow
host, on a toast that appears after a click; a same-origin and a cross-origin frame that opted out;
a frame whose <iframe> sits in an opted-out element) hold NOAI- marker texts, every call of every
agent tool (tests/e2e/every_tool.py) answers without a marker, screenshots show those parts filled,
and nothing reaches them (the page's own counters of clicks, input, keys, focus inside them stay 0).
"""

from __future__ import annotations

import base64
import io
import json
import os
import time
from typing import Any

import pytest
from PIL import Image

from browserx import Client
from browserx.errors import BrowserxError
from tests.e2e.every_tool import EXPECT_S, LEAVES_PAGE, calls_for_every_tool, run_calls
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import open_page
from tests.e2e.test_agent import agent, fake_backend

MARK = "NOAI-"  # every text inside an opted-out part has it; nothing else on these pages does
ONLY_INSIDE = "Zebra"  # a word only the opted-out parts hold: typed, queried, waited and expected
GREY = (128, 128, 128)


def _ids(bx: Client, tab: int) -> list[int]:
    found: list[int] = []

    def walk(node: dict[str, Any]) -> None:
        if isinstance(node.get("id"), int):
            found.append(node["id"])
        for child in node.get("children", []):
            walk(child)

    walk(bx.snapshot(tab=tab, format="json")["json"]["page"]["body"])
    return found


def _guessed_ids(bx: Client, tab: int) -> list[int]:
    """What an attacker would try: the live IDs, those around them and the first few. (Not every
    ID from 1: a tab's IDs count up for the whole session, so that grew with every test before
    this one, to 1,400 IDs and 20 minutes.)"""
    ids = _ids(bx, tab)
    low, high = min(ids, default=1), max(ids, default=0)
    return sorted(set(ids) | set(range(max(1, low - 8), high + 8)) | set(range(1, 9)))


def _counters(browser: Browser, frames: tuple[str, ...] = ()) -> dict[str, dict[str, int]]:
    """The page's own counts of what reached its opted-out parts (and each frame's, by element id)."""
    d = browser.driver
    out = {"page": d.execute_script("return window.__noai || null")}
    for fid in frames:
        d.switch_to.frame(d.find_element("id", fid))
        try:
            out[fid] = d.execute_script("return window.__noai || null")
        finally:
            d.switch_to.default_content()
    return out


def _frames_running(browser: Browser, frames: tuple[str, ...], timeout: float = 10.0) -> None:
    """Wait until each frame (by element id) has run its script and sent its first beacon: loaded
    and running, however long that takes on this machine (not a fixed sleep)."""
    d = browser.driver
    deadline = time.monotonic() + timeout
    for fid in frames:
        while True:
            d.switch_to.frame(d.find_element("id", fid))
            try:
                beaconed = d.execute_script(
                    "return !!window.__noai && performance.getEntriesByType('resource')"
                    ".some(e => e.name.includes('NOAI-BEACON'))"
                )
            finally:
                d.switch_to.default_content()
            if beaconed:
                break
            assert time.monotonic() < deadline, f"frame #{fid} sent no beacon within {timeout} s"
            time.sleep(0.05)


def _reset(browser: Browser, frames: tuple[str, ...] = ()) -> None:
    d = browser.driver
    zero = "for (const k in window.__noai) window.__noai[k] = 0;"
    d.execute_script(zero)
    for fid in frames:
        d.switch_to.frame(d.find_element("id", fid))
        try:
            d.execute_script(zero)
        finally:
            d.switch_to.default_content()


def _boxes(browser: Browser, selectors: list[str]) -> list[tuple[float, float, float, float]]:
    """Viewport boxes (x, y, w, h) of elements, light DOM or an open shadow root (host>>inner)."""
    return [
        tuple(
            browser.driver.execute_script(
                "const [h, s] = arguments[0].split('>>'); let e = document.querySelector(h);"
                "if (s) e = e.shadowRoot.querySelector(s); const r = e.getBoundingClientRect();"
                "return [r.left, r.top, r.width, r.height];",
                sel,
            )
        )
        for sel in selectors
    ]


def _around(answer: str) -> str:
    """Where the marker is in an answer (for the failure message)."""
    at = answer.index(MARK)
    return answer[max(0, at - 160) : at + 60]


def _centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return (round(box[0] + box[2] / 2, 1), round(box[1] + box[3] / 2, 1))


def _filled(
    answer: dict[str, Any], boxes: list[tuple[float, float, float, float]], origin: tuple[float, float]
) -> None:
    """The picture shows each box filled grey (sampled at its centre and near its corners)."""
    image = Image.open(io.BytesIO(base64.b64decode(answer["data"]))).convert("RGB")
    for x, y, w, h in boxes:
        for fx, fy in ((0.5, 0.5), (0.1, 0.15), (0.9, 0.85)):
            px, py = int(x + w * fx - origin[0]), int(y + h * fy - origin[1])
            if 0 <= px < image.width and 0 <= py < image.height:
                got = image.getpixel((px, py))  # (JPEG: within its rounding)
                assert isinstance(got, tuple)
                assert all(abs(c - g) <= 12 for c, g in zip(got, GREY, strict=True)), (
                    (x, y, w, h),
                    (px, py),
                    got,
                )


def _run_everything(
    browser: Browser,
    bx: Client,
    tab: int,
    url: str,
    points: list[tuple[float, float]],
    blank: list[tuple[float, float, float, float]],
    frames: tuple[str, ...] = (),
) -> None:
    """Every call of every tool (the point tools at each point): no marker in any answer, the
    opted-out boxes (``blank``, viewport at scroll 0) filled in every picture, nothing counted."""
    guessed = _guessed_ids(bx, tab)
    _reset(browser, frames)
    calls = calls_for_every_tool(guessed, points[0], url, text=ONLY_INSIDE)
    for point in points[1:]:
        calls[:0] = [
            c for c in calls_for_every_tool([], point, url, ONLY_INSIDE) if c[0] in ("click_at", "hover_at")
        ]
    staying = [c for c in calls if c[0] not in LEAVES_PAGE]
    leaving = [c for c in calls if c[0] in LEAVES_PAGE]
    answers = []
    pictures = 0
    for name, params in staying:
        (answer,) = run_calls(bx, [(name, params)], tab)
        answers.append(answer)
        if os.environ.get("NOAI_DEBUG"):
            print(name, params, _counters(browser, frames))
        if name == "screenshot" and params.get("mode") in (None, "full_page") and "max_width" not in params:
            shot = json.loads(answer[2])
            if "data" in shot and browser.driver.execute_script("return scrollX + scrollY") == 0:
                _filled(shot, blank, (0.0, 0.0))
                pictures += 1
    assert not blank or pictures >= 2  # the pixel check ran
    assert [(n, p, _around(a)) for n, p, a in answers if MARK in a] == []
    # Nothing reached the opted-out parts.
    # (A Tab may move focus into an opted-out part: the key answers page_opted_out and takes it out
    # again, but the part saw a focus event; that one count is allowed, nothing else.)
    counts = _counters(browser, frames)
    assert all(v == 0 for c in counts.values() if c for k, v in c.items() if k != "focus"), counts
    tabbed = [a for n, p, a in answers if n == "key" and p.get("key") == "Tab"]
    if any(c and c["focus"] for c in counts.values()):
        assert all('"page_opted_out"' in a for a in tabbed), tabbed
    assert not browser.driver.execute_script(
        "let a = document.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;"
        "return !!a && !!a.closest('[data-no-ai]')"
    )  # focus was not left in an opted-out part
    # The opted-out word tells nothing: a wait for it times out, no expectation of it holds.
    for n, p, a in answers:
        if n == "wait" and p.get("text") == ONLY_INSIDE:
            assert '"action_timeout"' in a or '"success": false' in a, a
        if "element_appears" in json.dumps(p.get("expect")) and ONLY_INSIDE in json.dumps(p.get("expect")):
            assert '"passed": true' not in a, (n, p, a[:400])
    # Then the calls that leave the page (or let the tab go).
    left = run_calls(bx, leaving, tab)
    assert [(n, p, _around(a)) for n, p, a in left if MARK in a] == []
    assert {n for n, _, _ in answers + left} == {t for t, _ in calls}  # every tool was called


def test_opted_out_elements_and_shadow_roots_stay_out_of_every_tool(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    url = servers.url("noai-elements.html")
    tab = open_page(browser, bx, url)
    boxes = [*_boxes(browser, ["#light", "#openhost>>[data-no-ai]", "#noaihost"]), _closed_inner_box(browser)]
    points = [_centre(b) for b in boxes]
    # Keys into a focused opted-out field are refused: light DOM, open and closed shadow roots.
    for focus in ("document.querySelector('#light input')", "window.__openInput", "window.__closedInput"):
        browser.driver.execute_script(f"{focus}.focus()")
        _reset(browser)
        with pytest.raises(BrowserxError) as refused:
            bx.call("key", key="a", tab=tab)
        assert refused.value.code == "page_opted_out" and MARK not in refused.value.message
        assert _counters(browser)["page"]["key"] == 0
    browser.driver.execute_script("document.activeElement.blur()")
    # The toast appears after a click of the public button (50 ms on): its text stays out of the
    # events. (Its alert is opted out: the expectation fails, after waiting EXPECT_S, not 3 s.)
    shown = _ids(bx, tab)
    alert = {"element_appears": {"role": "alert"}, "timeout": EXPECT_S}
    toast = bx.call("click", id=shown[0], tab=tab, expect=alert)
    assert MARK not in str(toast)
    _run_everything(browser, bx, tab, url, points, boxes)


def _closed_inner_box(browser: Browser) -> tuple[float, float, float, float]:
    r = browser.driver.execute_script(
        "const r = window.__closedInput.parentElement.getBoundingClientRect(); return [r.left, r.top, r.width, r.height];"
    )
    return (r[0], r[1], r[2], r[3])


@pytest.mark.parametrize("where", ["same", "cross"])
def test_opted_out_frames_stay_out_of_every_tool(
    browser: Browser, bx: Client, servers: Servers, where: str
) -> None:
    url = servers.url(f"noai-frames.html?{where}")
    tab = open_page(browser, bx, url)
    _frames_running(browser, ("f", "g"))
    boxes = _boxes(browser, ["#f", "#g"])
    # Keys into a focused field of an opted-out frame are refused.
    d = browser.driver
    d.switch_to.frame(d.find_element("id", "f"))
    d.execute_script("document.querySelector('input').focus()")
    d.switch_to.default_content()
    _reset(browser, ("f", "g"))
    with pytest.raises(BrowserxError) as refused:
        bx.call("key", key="a", tab=tab)
    assert refused.value.code == "page_opted_out"
    assert _counters(browser, ("f",))["f"]["key"] == 0
    # #f's document opted out: pictures are refused (no blanking needed); the points go to both.
    _run_everything(browser, bx, tab, url, [_centre(b) for b in boxes], [], ("f", "g"))


def test_a_page_that_opted_out_keeps_its_title_out_of_tabs(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("noai-page.html"))
    with pytest.raises(BrowserxError) as refused:
        bx.snapshot(tab=tab)
    assert refused.value.code == "page_opted_out"
    listed = [t for t in bx.tabs() if t["tab"] == tab]
    assert listed and MARK not in str(listed), listed


def test_the_backend_loop_sends_nothing_of_an_opted_out_part(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    """`browserx agent`: every request body (the semantic tree, recent events, and the full DOM,
    skeleton and screenshot a backend can ask for) holds no marker, and the actions a backend
    aims at guessed IDs reach nothing."""
    tab = open_page(browser, bx, servers.url("noai-elements.html"))
    guessed = _guessed_ids(bx, tab)
    actions = [f"click({i})" for i in guessed] + ['type(1, "Zebra")', 'press("Enter")', "finish()"]
    context = {
        "status": "needs_context",
        "requestedDomMode": "full",
        "needsScreenshot": True,
        "needsSkeletonDom": True,
    }

    def script(bodies: list[dict[str, Any]]) -> dict[str, Any]:
        if len(bodies) == 1:
            return context  # the first step asks for everything a backend can ask for
        return {"thought": "try", "action": actions[min(len(bodies) - 2, len(actions) - 1)]}

    _reset(browser)
    with fake_backend(script) as backend:
        done = agent(backend, tab, "Read everything", "--max-steps", str(len(actions) + 2))
    assert done.returncode == 0, done.stderr[-2000:]
    assert any("dom" in b and "skeletonDom" in b for b in backend.bodies)  # the context was sent
    leaks = [json.dumps(b)[:300] for b in backend.bodies if MARK in json.dumps(b)]
    assert leaks == [] and MARK not in done.stdout + done.stderr
    counts = _counters(browser)["page"]
    assert all(v == 0 for k, v in counts.items() if k != "focus"), counts


def test_an_input_that_would_land_in_an_opted_out_element_is_stopped(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    """Judged by the page's own state: a Tab typed one key at a time moves the focus into the
    opted-out field that follows (the rest is not typed there), and a public <label> would toggle
    its opted-out checkbox (refused at its point)."""
    tab = open_page(browser, bx, servers.url("noai-inputs.html"))
    found = {n.get("n"): n for n in bx.snapshot(tab=tab, format="semantic")["semantic"]["interactive_tree"]}
    note = found["Public note"]
    with pytest.raises(BrowserxError) as typed:
        bx.type_text(note["i"], "a\tZZ", per_char=True, tab=tab)
    assert typed.value.code == "page_opted_out"
    assert browser.driver.execute_script("return document.getElementById('priv').value") == ""
    assert browser.driver.execute_script("return document.getElementById('pub').value") == "a"
    # The label is no control of its own (no ID): at its point, where a person would press it.
    (x, y) = _centre(_boxes(browser, ["#lab"])[0])
    with pytest.raises(BrowserxError) as clicked:
        bx.click_at(x, y, tab=tab)
    assert clicked.value.code == "page_opted_out"
    assert browser.driver.execute_script("return document.getElementById('keep').checked") is False


def test_options_that_opted_out_stay_out_of_every_view_and_of_select(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("noai-options.html"))
    answers = [
        json.dumps(bx.snapshot(tab=tab, format=f, include_values=True)) for f in ("text", "json", "semantic")
    ]
    answers.append(json.dumps(bx.html(tab=tab)))
    assert [MARK in a for a in answers] == [False] * 4, [_around(a) for a in answers if MARK in a]
    assert ["Checking" in a for a in answers] == [True, True, False, True]  # (semantic: no option list)
    acct = next(
        n["i"]
        for n in bx.snapshot(tab=tab, format="semantic")["semantic"]["interactive_tree"]
        if n.get("n") == "Account"
    )
    for label in ("NOAI-Savings 4411", "NOAI-Trust 9982"):
        with pytest.raises(BrowserxError) as chose:
            bx.select(acct, label, tab=tab)
        # not there for the agent (the error quotes only its own words back, and the public options)
        assert chose.value.code == "option_not_found" and chose.value.to_dict()["details"]["options"] == [
            "Checking"
        ]
    assert (
        browser.driver.execute_script("return document.getElementById('acct').value") == "NOAI-Savings 4411"
    )


def test_screenshots_blank_all_an_opted_out_element_paints_and_a_shown_password(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    """Decoded pixels: a child overflowing its opted-out parent, an absolutely positioned one far
    outside it, the content of a display: contents element, and a password field the page's own
    "show password" turned into text are grey in every kind of picture."""
    tab = open_page(browser, bx, servers.url("noai-paint.html"))
    found = {n.get("n"): n for n in bx.snapshot(tab=tab, format="semantic")["semantic"]["interactive_tree"]}
    bx.type_text(found["Password"]["i"], "hunter2-hunter2", tab=tab)
    browser.driver.execute_script("document.querySelector('button').click()")  # the page shows it
    assert browser.driver.execute_script("return document.getElementById('pw').type") == "text"
    boxes = _boxes(browser, ["#over", "#abs", "#inside", "#pw"])
    for shot in (
        bx.screenshot(tab=tab),
        bx.screenshot(tab=tab, format="jpeg"),
        bx.screenshot(tab=tab, mode="full_page"),
    ):
        _filled(shot, boxes, (0.0, 0.0))


@pytest.mark.parametrize("tool", ["hover_at", "click_at"])
def test_a_first_call_by_coordinates_into_an_opted_out_frame_is_refused(
    browser: Browser, bx: Client, servers: Servers, tool: str
) -> None:
    """Before any snapshot of the page (no collector in its world yet, so its <iframe> has no key)
    the point is still followed into the right frame: refused, nothing reaches it."""
    tab = open_page(browser, bx, servers.url("noai-frames.html?cross"))
    _frames_running(browser, ("f", "g"))
    (x, y) = _centre(_boxes(browser, ["#f"])[0])
    _reset(browser, ("f",))
    with pytest.raises(BrowserxError) as refused:
        bx.call(tool, x=x, y=y, tab=tab)
    assert refused.value.code == "page_opted_out" and MARK not in str(refused.value.to_dict())
    counts = _counters(browser, ("f",))["f"]
    assert counts is not None and all(v == 0 for v in counts.values()), counts
