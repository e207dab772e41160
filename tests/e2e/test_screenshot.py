"""Screenshots end to end: the viewport, one element, the whole page, scaled JPEG, Set-of-Mark
labels; the perceptual hash; opted-out pages refused; the CLI writes the image."""

from __future__ import annotations

import base64
import io
import time
from pathlib import Path

import pytest
from PIL import Image

from browserx import Client
from browserx.errors import BrowserxError
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import id_of, js, open_page, run_cli


def image_of(result: dict[str, object]) -> Image.Image:
    image = Image.open(io.BytesIO(base64.b64decode(str(result["data"]))))
    image.load()
    assert (image.width, image.height) == (result["width"], result["height"])
    return image


def steady_viewport(browser: Browser) -> list[int]:
    """The window's inner size once it has stayed the same for 0.2 s (at most 3 s)."""
    last = js(browser, "[innerWidth, innerHeight]")
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = js(browser, "[innerWidth, innerHeight]")
        if now == last:
            break
        last = now
    return list(last)


def test_viewport_element_and_full_page_shots_are_one_pixel_per_css_pixel(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("snap-layout.html"))
    bx.screenshot(tab=tab)  # attached first: the debugging banner takes its share of the window
    viewport = steady_viewport(browser)  # (the banner may still be sliding in: a CI run saw 757, then 756)
    shot = bx.screenshot(tab=tab)
    assert shot["format"] == "png" and image_of(shot).format == "PNG"
    assert [shot["width"], shot["height"]] in (viewport, js(browser, "[innerWidth, innerHeight]"))

    scrolled = js(browser, "scrollY")
    page = bx.screenshot(tab=tab, mode="full_page")
    height = js(browser, "document.documentElement.scrollHeight")
    assert page["width"] == viewport[0] and abs(page["height"] - height) <= 1 and height > viewport[1]
    assert js(browser, "scrollY") == scrolled  # the page is where it was

    tab = open_page(browser, bx, servers.url("act-controls.html"))
    button = id_of(bx, tab, "Increment")
    box = browser.driver.execute_script(
        """const b = [...document.querySelectorAll('button')].find(b => b.textContent.trim() === 'Increment');
        const r = b.getBoundingClientRect(), cs = getComputedStyle(b), p = (v) => parseFloat(v);
        return [r.width - p(cs.paddingLeft) - p(cs.paddingRight) - p(cs.borderLeftWidth) - p(cs.borderRightWidth),
                r.height - p(cs.paddingTop) - p(cs.paddingBottom) - p(cs.borderTopWidth) - p(cs.borderBottomWidth)]""",
    )
    element = bx.screenshot(tab=tab, mode="element", id=button)
    assert abs(element["width"] - box[0]) <= 1 and abs(element["height"] - box[1]) <= 1, (element, box)


def test_a_scaled_jpeg_and_marks_with_the_snapshot_ids(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("act-controls.html"))
    small = bx.screenshot(tab=tab, format="jpeg", quality=60, max_width=320)
    assert small["width"] == 320 and image_of(small).format == "JPEG"
    plain = bx.screenshot(tab=tab)
    marked = bx.screenshot(tab=tab, marks=True)
    assert marked["marks"] >= 5 and marked["data"] != plain["data"]
    # The labels carry the IDs the text view shows: the view taken for the marks kept them.
    assert f"[{id_of(bx, tab, 'Increment')}]" in bx.snapshot(tab=tab)["text"]


def test_shots_refuse_opted_out_pages_and_bad_arguments(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("snap-noai.html"))
    with pytest.raises(BrowserxError) as refused:
        bx.screenshot(tab=tab)
    assert refused.value.code == "page_opted_out"
    tab = open_page(browser, bx, servers.url("hello.html"))
    with pytest.raises(BrowserxError) as bad:
        bx.screenshot(tab=tab, mode="element")  # no id
    assert bad.value.code == "bad_request"


def test_the_cli_writes_the_image_to_out(
    browser: Browser, bx: Client, servers: Servers, tmp_path: Path
) -> None:
    tab = open_page(browser, bx, servers.url("hello.html"))
    bx.snapshot(tab=tab)  # attached (and the debugging banner shown) before the two shots
    first, again = bx.screenshot(tab=tab), bx.screenshot(tab=tab)
    assert first["phash"] == again["phash"]  # an unchanged page: the same hash
    out = tmp_path / "shot.png"
    done = run_cli("screenshot", "--tab", str(tab), "--marks", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert str(out) in done.stdout and "phash" in done.stdout
    with Image.open(out) as written:
        assert written.format == "PNG"


@pytest.mark.parametrize("where", ["same", "cross"])
def test_a_page_with_an_opted_out_frame_is_not_pictured(
    browser: Browser, bx: Client, servers: Servers, where: str
) -> None:
    tab = open_page(browser, bx, servers.url(f"shot-frames.html?{where}"))
    time.sleep(0.5)  # the frame loads
    with pytest.raises(BrowserxError) as refused:
        bx.screenshot(tab=tab)
    assert refused.value.code == "page_opted_out" and "frame" in refused.value.message
    assert "Page with a frame" in bx.snapshot(tab=tab)["text"]  # the snapshot just leaves the frame out
    tab = open_page(browser, bx, servers.url("shot-frames.html?plain"))
    time.sleep(0.3)
    assert bx.screenshot(tab=tab)["width"] > 0  # a frame that did not opt out is pictured


def _frame_box(browser: Browser, element: str) -> tuple[list[float], list[float]]:
    """The element's content box in its frame ([left, top, right, bottom]) and that frame's
    viewport size, as Selenium sees them inside the iframe."""
    driver = browser.driver
    driver.switch_to.frame(driver.find_element("id", "child"))
    try:
        return driver.execute_script(  # type: ignore[no-any-return]
            """const e = document.getElementById(arguments[0]), r = e.getBoundingClientRect();
            const cs = getComputedStyle(e), p = (v) => parseFloat(v);
            return [[r.left + p(cs.borderLeftWidth) + p(cs.paddingLeft), r.top + p(cs.borderTopWidth) + p(cs.paddingTop),
                     r.right - p(cs.borderRightWidth) - p(cs.paddingRight), r.bottom - p(cs.borderBottomWidth) - p(cs.paddingBottom)],
                    [document.documentElement.clientWidth, document.documentElement.clientHeight]]""",
            element,
        )
    finally:
        driver.switch_to.default_content()


def _id_in_frame(bx: Client, tab: int, name: str) -> int:
    deadline = time.monotonic() + 10
    while True:  # the frame loads (and an out-of-process one attaches) after the page
        try:
            return id_of(bx, tab, name)
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@pytest.mark.parametrize("where", ["cross", "same"])
def test_element_shots_of_elements_inside_an_iframe(
    browser: Browser, bx: Client, servers: Servers, where: str
) -> None:
    tab = open_page(browser, bx, servers.url(f"shot-iframe.html?{where}"))
    swatch = _id_in_frame(bx, tab, "Swatch")
    tall = id_of(bx, tab, "Tall swatch")
    browser.driver.execute_script("scrollTo(0, 150)")  # the top-level scroll counts too
    box, _ = _frame_box(browser, "swatch")
    shot = bx.screenshot(tab=tab, mode="element", id=swatch)
    image = image_of(shot).convert("RGB")
    # The content box, without the swatch's padding (white) or border (black): all of it, and
    # only it, in the swatch's colour.
    assert (shot["width"], shot["height"]) == (round(box[2] - box[0]), round(box[3] - box[1])) == (120, 60)
    off = [
        (x, y, image.getpixel((x, y)))
        for x in range(image.width)
        for y in range(image.height)
        if max(abs(a - b) for a, b in zip(image.getpixel((x, y)), (230, 0, 180), strict=True)) > 12
    ]
    assert not off, f"{len(off)} pixels are not the swatch's colour, e.g. {off[:5]}"

    # Most of the tall swatch is below the frame's bottom edge: only what the frame shows of it.
    box, (_, frame_height) = _frame_box(browser, "tall")
    assert box[1] < frame_height < box[3]
    shot = bx.screenshot(tab=tab, mode="element", id=tall)
    assert (shot["width"], shot["height"]) == (80, round(frame_height - box[1]))
    assert image_of(shot).convert("RGB").getpixel((40, shot["height"] // 2)) == (0, 160, 80)
    assert js(browser, "scrollY") == 150  # nothing was scrolled for the pictures
