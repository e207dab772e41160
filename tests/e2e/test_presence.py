"""The agent's visible presence (issue 22 item 7), on real Chromium: the cursor glides to the
target of every hover, type, select, check, scroll, key and point action and is seen there in a
picture Selenium takes while the action runs; browserx's own pictures (the screenshot tool, hybrid
views) never hold it; the page's scripts cannot see into the overlay, their hit tests and clicks
never land on it, nor do browserx's own hit tests; the views never mention it.

The cursor is told by its fill, the exact accent colour (#0969da) effects.js paints it with: the
outline and the ripple are lighter (translucent), the fixture page has no blue at all."""

from __future__ import annotations

import base64
import io
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PIL import Image

from browserx import Client
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import id_of, js, open_page, wait_sessions

ACCENT = (9, 105, 218)
TOLERANCE = 12  # per channel: the arrow's fill, not the lighter outline or a fading ripple
MIN_PIXELS = 15  # the arrow's fill is ~80 CSS px²
Point = tuple[float, float]


def _accent_pixels(image: Image.Image, box: tuple[float, float, float, float] | None = None) -> int:
    """How many pixels of the cursor's fill colour ``image`` has (in ``box``: left, top, right,
    bottom in image pixels)."""
    rgb = image.convert("RGB")
    if box is not None:
        left, top, right, bottom = (max(0, round(v)) for v in box)
        rgb = rgb.crop((left, top, min(right, rgb.width), min(bottom, rgb.height)))
    return sum(
        1
        for r, g, b in _pixels(rgb)
        if abs(r - ACCENT[0]) <= TOLERANCE
        and abs(g - ACCENT[1]) <= TOLERANCE
        and abs(b - ACCENT[2]) <= TOLERANCE
    )


def _pixels(rgb: Image.Image) -> list[tuple[int, int, int]]:
    data = rgb.tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


def _selenium_shot(browser: Browser) -> Image.Image:
    image = Image.open(io.BytesIO(browser.driver.get_screenshot_as_png()))
    image.load()
    return image


def _cursor_at(browser: Browser, point: Point) -> int:
    """Cursor pixels in a Selenium picture (Chromium's own capture, not browserx's) around the
    arrow's tip at ``point`` (CSS px of the viewport): the arrow hangs right and down from it."""
    dpr = float(js(browser, "devicePixelRatio"))
    x, y = point
    return _accent_pixels(
        _selenium_shot(browser), ((x - 4) * dpr, (y - 4) * dpr, (x + 18) * dpr, (y + 22) * dpr)
    )


def _shows_cursor(browser: Browser, point: Point) -> bool:
    """Whether the cursor is seen at ``point`` within a second (it glides there in 0.2 s)."""
    deadline = time.monotonic() + 1
    while time.monotonic() < deadline:
        if _cursor_at(browser, point) >= MIN_PIXELS:
            return True
    return False


def _centre(browser: Browser, selector: str, frame: str | None = None) -> Point:
    """The centre of an element's border box in the top-level viewport (through a same-origin iframe)."""
    return tuple(
        browser.driver.execute_script(
            """const [sel, frame] = arguments;
            let dx = 0, dy = 0, doc = document;
            if (frame) { const f = document.querySelector(frame), r = f.getBoundingClientRect();
              dx = r.left + f.clientLeft; dy = r.top + f.clientTop; doc = f.contentDocument; }
            const r = doc.querySelector(sel).getBoundingClientRect();
            return [dx + r.left + r.width / 2, dy + r.top + r.height / 2];""",
            selector,
            frame,
        )
    )


def _seen_during(
    browser: Browser, action: Callable[[], dict[str, Any]], point: Point
) -> tuple[bool, dict[str, Any]]:
    """Run ``action`` in another thread and take Selenium pictures meanwhile: whether one shows the
    cursor at ``point`` (within 3 s of the start), and the action's result."""
    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(action)
        seen = False
        deadline = time.monotonic() + 3
        while not seen and time.monotonic() < deadline:
            seen = _cursor_at(browser, point) >= MIN_PIXELS
        result = running.result(timeout=30)
    return seen, result


def test_the_cursor_goes_to_the_target_of_every_action_in_a_picture_taken_mid_action(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("presence.html"))
    ids = {
        name: id_of(bx, tab, name)
        for name in ("Hover me", "Count", "Full name", "Size", "Newsletter", "Items", "City")
    }
    at = {
        "hover": _centre(browser, "#hov"),
        "type": _centre(browser, "#name"),
        "select": _centre(browser, "#size"),
        "check": _centre(browser, "#news"),
        "scroll": _centre(browser, "#list"),
        "frame": _centre(browser, "#city", "#inner"),
        "count": _centre(browser, "#inc"),
    }
    steps: list[tuple[str, Callable[[], dict[str, Any]], Point]] = [
        ("hover", lambda: bx.hover(ids["Hover me"], tab=tab), at["hover"]),
        ("type", lambda: bx.type_text(ids["Full name"], "Ada", tab=tab), at["type"]),
        ("select", lambda: bx.select(ids["Size"], "Large", tab=tab), at["select"]),
        ("check (clicks)", lambda: bx.check(ids["Newsletter"], tab=tab), at["check"]),
        ("scroll a list", lambda: bx.scroll(ids["Items"], tab=tab, amount=40), at["scroll"]),
        ("check (already so)", lambda: bx.check(ids["Newsletter"], tab=tab), at["check"]),
        ("type in a frame", lambda: bx.type_text(ids["City"], "Oslo", tab=tab), at["frame"]),
        ("key with an ID", lambda: bx.key("End", tab=tab, id=ids["Full name"]), at["type"]),
        ("hover_at", lambda: bx.hover_at(*at["count"], tab=tab), at["count"]),
        ("click", lambda: bx.click(ids["Hover me"], tab=tab), at["hover"]),
    ]
    assert _accent_pixels(_selenium_shot(browser)) == 0  # the page itself has no such blue
    missed = []
    for name, action, point in steps:
        # Not there yet (the previous target is elsewhere): it is seen *moving* to this one.
        assert _cursor_at(browser, point) < MIN_PIXELS, f"{name}: the cursor was at its target before"
        seen, result = _seen_during(browser, action, point)
        assert result["success"], (name, result)
        if not seen:
            missed.append(name)
    assert not missed, f"no cursor at the target during: {missed}"
    assert (
        js(browser, "window.hovers") >= 1 and js(browser, "document.querySelector('#size').value") == "Large"
    )


def test_browserx_pictures_leave_the_cursor_out_unless_asked(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("presence.html"))
    hover = id_of(bx, tab, "Hover me")
    point = _centre(browser, "#hov")

    bx.hover(hover, tab=tab)
    assert _shows_cursor(browser, point)  # drawn: Chromium's own capture shows it
    shot = bx.screenshot(tab=tab)
    image = Image.open(io.BytesIO(base64.b64decode(shot["data"])))
    assert _accent_pixels(image) == 0, "the screenshot tool's picture holds the cursor"

    bx.hover(id_of(bx, tab, "Count"), tab=tab)
    assert _shows_cursor(browser, _centre(browser, "#inc"))
    hybrid = bx.snapshot(tab=tab, format="hybrid")
    picture = Image.open(io.BytesIO(base64.b64decode(hybrid["screenshot"])))
    scale = picture.width / float(js(browser, "innerWidth"))
    x, y = _centre(browser, "#inc")
    near = ((x - 4) * scale, (y - 4) * scale, (x + 18) * scale, (y + 22) * scale)
    # A JPEG: colours drift a little, so the whole arrow's area is looked at with room to spare.
    rgb = picture.convert("RGB").crop(near)
    bluish = sum(1 for r, g, b in _pixels(rgb) if b > 150 and r < 90 and g < 150)
    assert bluish == 0, "the hybrid view's picture holds the cursor"

    bx.hover(hover, tab=tab)
    asked = bx.screenshot(tab=tab, show_effects=True)
    image = Image.open(io.BytesIO(base64.b64decode(asked["data"])))
    assert _accent_pixels(image) >= MIN_PIXELS, "show_effects: the cursor should be in the picture"


def test_the_page_and_browserx_hit_tests_never_meet_the_overlay(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("presence.html"))
    count = id_of(bx, tab, "Count")
    point = _centre(browser, "#inc")
    bx.click(count, tab=tab)
    assert _shows_cursor(browser, point)  # the cursor and the outline are over the button now
    # The page finds the host element, never what it holds (a closed shadow root).
    assert js(browser, "document.querySelector('browserx-overlay') !== null")
    assert js(browser, "document.querySelector('browserx-overlay').shadowRoot") is None
    assert js(browser, "document.querySelectorAll('browserx-overlay *').length") == 0
    assert js(browser, "document.querySelector('browserx-overlay').getBoundingClientRect().width") == 0
    # Its hit tests still find the button, under the cursor and the outline.
    assert js(browser, f"document.elementFromPoint({point[0]}, {point[1]}).id") == "inc"
    assert (
        js(
            browser,
            f"document.elementsFromPoint({point[0]}, {point[1]}).some(e => e.localName === 'browserx-overlay')",
        )
        is False
    )
    # browserx's own hit tests (the click guard, the snapshot's cover check) do not see it either:
    # a second click at once, with the first one's cursor and outline over the target, goes through.
    again = bx.click(count, tab=tab)
    assert again["success"], again
    assert "covered" not in bx.snapshot(tab=tab)["text"]
    # A real mouse click (Chromium's own input, through ChromeDriver) on the cursor's spot lands on
    # the button, and every click the page's listener saw was on the button.
    bx.hover(count, tab=tab)
    assert _shows_cursor(browser, point)
    browser.driver.execute_cdp_cmd(
        "Input.dispatchMouseEvent",
        {"type": "mousePressed", "x": point[0], "y": point[1], "button": "left", "clickCount": 1},
    )
    browser.driver.execute_cdp_cmd(
        "Input.dispatchMouseEvent",
        {"type": "mouseReleased", "x": point[0], "y": point[1], "button": "left", "clickCount": 1},
    )
    assert js(browser, "window.clicks") == ["button", "button", "button"]
    assert js(browser, "document.querySelector('#inc').dataset.n") == "3"


def test_the_views_never_show_the_overlay(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("presence.html"))
    before = bx.snapshot(tab=tab)["text"]
    assert js(browser, "document.querySelector('browserx-overlay')") is None
    hovered = bx.hover(id_of(bx, tab, "Hover me"), tab=tab)
    assert js(browser, "document.querySelector('browserx-overlay') !== null")
    # Adding the overlay is no change of the page's: the action saw none.
    assert hovered["changes"]["dom_mutations"] == 0, hovered
    assert bx.snapshot(tab=tab)["text"] == before  # nothing of it in the text view
    json_view = str(bx.snapshot(tab=tab, format="json")["json"])
    semantic = str(bx.snapshot(tab=tab, format="semantic")["semantic"])
    html = bx.html(tab=tab, mode="full")["html"]
    for view in (before, json_view, semantic, html):
        assert "overlay" not in view.lower()


def test_the_cursor_goes_into_an_out_of_process_frame(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("oopif.html"))
    wait_sessions(bx, tab, 1)
    button = id_of(bx, tab, "Child button")
    d = browser.driver
    fx, fy = d.execute_script(
        "const f = document.querySelector('#x'), r = f.getBoundingClientRect();"
        "return [r.left + f.clientLeft, r.top + f.clientTop];"
    )
    d.switch_to.frame(d.find_element("id", "x"))
    bx_, by_ = d.execute_script(
        "const r = document.querySelector('#child-button').getBoundingClientRect();"
        "return [r.left + r.width / 2, r.top + r.height / 2];"
    )
    d.switch_to.default_content()
    point = (fx + bx_, fy + by_)
    assert _cursor_at(browser, point) < MIN_PIXELS
    # A key with an ID focuses the element (no point of its own): its place is found in the background.
    seen, result = _seen_during(browser, lambda: bx.key("Shift", tab=tab, id=button), point)
    assert result["success"], result
    assert seen, "no cursor at the button in the out-of-process frame"
