"""The snapshot, for real: fixture pages in Chromium with the real extension and host, every claim
of the text and json views cross-checked against what the page really contains (Selenium).

Fixture pages (tests/fixtures/pages/snap-*.html) mark each element the snapshot must list with
``data-expect="interactive"`` (its expected name in ``data-name``, role in ``data-role``), each
element it must not show with ``data-expect="hidden"``, and plain text with ``data-expect="text"``.
The markers are read from the live DOM through Selenium (frames and open shadow roots included);
elements inside closed shadow roots are out of Selenium's reach and are listed by name here.

Per-page counts (listed vs expected controls) and token costs are printed and written to
.pytest_cache/browserx-e2e/snapshot-fixture-report.txt when the module finishes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from browserx import Client
from browserx.errors import BrowserxError, PageOptedOut
from browserx.views.text import TEXT_ROLES, parse_controls
from tests.e2e.harness import Browser, Servers, artifact
from tests.e2e.helpers import SNAPSHOT_PAGES, open_page, run_cli

REPORT_PATH = artifact("snapshot-fixture-report.txt")
REPORT: dict[str, str] = {}

# What Selenium cannot see: controls inside closed shadow roots, as (name, role).
CLOSED_SHADOW: dict[str, list[tuple[str, str]]] = {
    "snap-shadow.html": [
        ("Closed shadow button", "button"),
        ("Closed shadow input", "textbox"),
        ("Open inside closed button", "button"),
        ("Closed inside open button", "button"),
        ("Closed root next to slot", "button"),
    ],
    "snap-frames.html": [("Closed in same-origin frame", "button")],
}

PAGES = SNAPSHOT_PAGES

ID_RE = re.compile(r"\[(\d+)\]")

# Reads the data-expect markers of one document (and its open shadow roots).
EXPECTATIONS_JS = r"""
const collapse = (s) => (s || "").replace(/\s+/g, " ").trim();
const out = [];
function walk(root, inShadow) {
  for (const el of root.querySelectorAll("*")) {
    const kind = el.getAttribute("data-expect");
    if (kind) {
      out.push({
        kind,
        name: el.getAttribute("data-name") || el.getAttribute("aria-label") || collapse(el.textContent),
        text: collapse(el.textContent),
        role: el.getAttribute("data-role"),
        hint: el.getAttribute("data-hint"),
        nearby: el.hasAttribute("data-nearby"),
        disabled: el.matches(":disabled"),
        checked: typeof el.checked === "boolean" && (el.type === "checkbox" || el.type === "radio")
          ? el.checked : null,
        type: el.localName === "input" ? el.type : null,
        href: el.localName === "a" ? el.getAttribute("href") : null,
        tag: el.localName,
        inShadow,
        frameUrl: location.href,
        unreachable: !!el.closest("[aria-hidden=true], [inert]"),
      });
    }
    if (el.shadowRoot) walk(el.shadowRoot, true);
  }
}
walk(document, false);
return out;
"""


# -- reading the page (Selenium) -----------------------------------------------------------


def _frame_expectations(driver: WebDriver) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = list(driver.execute_script(EXPECTATIONS_JS))
    for frame in driver.find_elements(By.TAG_NAME, "iframe"):
        driver.switch_to.frame(frame)
        try:
            found += _frame_expectations(driver)
        finally:
            driver.switch_to.parent_frame()
    return found


def page_expectations(driver: WebDriver, page: str) -> list[dict[str, Any]]:
    """Every data-expect element of the page, across frames; closed-shadow ones by name."""
    driver.switch_to.default_content()
    found = _frame_expectations(driver)
    seen = {e["name"] for e in found if e["kind"] == "interactive"}
    for name, role in CLOSED_SHADOW.get(page, []):
        if name not in seen:  # Selenium cannot reach it: the page's own marker is behind a closed root
            found.append({"kind": "interactive", "name": name, "role": role, "text": name, "closed": True,
                          "disabled": False, "checked": None, "type": None, "href": None, "hint": None,
                          "nearby": False, "inShadow": True, "frameUrl": None, "unreachable": False})  # fmt: skip
    return found


# -- reading the snapshot ----------------------------------------------------------------------


def walk_json(
    node: dict[str, Any], frame_url: str | None = None
) -> Iterator[tuple[dict[str, Any], str | None]]:
    """Every dict of the json view with the URL of the iframe document it sits in (None: main)."""
    yield node, frame_url
    inner = node.get("url") if node.get("role") == "iframe" else frame_url
    for child in node.get("children", []):
        yield from walk_json(child, inner)


def json_controls(view: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for node, frame_url in walk_json(view["page"]["body"]):
        if "id" in node:
            out.append({**node, "_frame": frame_url})
    return out


@dataclass
class Observation:
    page: str
    tab: int
    text: str
    view: dict[str, Any]
    tokens: int
    expected: list[dict[str, Any]]
    controls: list[dict[str, Any]] = field(default_factory=list)

    @property
    def interactive(self) -> list[dict[str, Any]]:
        return [e for e in self.expected if e["kind"] == "interactive"]

    @property
    def hidden(self) -> list[dict[str, Any]]:
        return [e for e in self.expected if e["kind"] == "hidden"]

    def by_name(self, name: str) -> dict[str, Any]:
        matches = [c for c in self.controls if c.get("name") == name]
        assert len(matches) == 1, (
            f"{self.page}: expected one control named {name!r}, got {matches}\n{self.text}"
        )
        return matches[0]


def observe(bx: Client, tab: int, page: str, driver: WebDriver, **kwargs: Any) -> Observation:
    text_result = bx.snapshot(tab=tab, stats=True, **kwargs)  # XX
    view = bx.snapshot(tab=tab, format="json", **kwargs)["json"]
    obs = Observation(page, tab, text_result["text"], view, int(text_result["stats"]["tokens"]),
                      page_expectations(driver, page))  # fmt: skip
    obs.controls = json_controls(view)
    return obs


def record(obs: Observation) -> None:
    listed = {c.get("name") for c in obs.controls}
    found = sum(1 for e in obs.interactive if e["name"] in listed)
    line = (
        f"{obs.page}: listed {len(obs.controls)} interactive (IDs), expected {len(obs.interactive)} "
        f"(found {found}/{len(obs.interactive)}), hidden markers {len(obs.hidden)}, text view {obs.tokens} tokens"
    )
    print(line)
    REPORT.setdefault(obs.page, line)


@pytest.fixture(scope="module", autouse=True)
def _write_report() -> Iterator[None]:
    yield
    if REPORT:
        body = "\n".join(REPORT[p] for p in [*PAGES, *sorted(set(REPORT) - set(PAGES))] if p in REPORT)
        REPORT_PATH.write_text(body + "\n", encoding="utf-8")
        print("\n" + body)


def line_of(text: str, control: dict[str, Any]) -> str:
    """The text view line of a control: the one line with ``[N] `` (and its role and name)."""
    key = re.compile(rf"(?:^|[\s|])\[{control['id']}\] ")
    lines = [line for line in text.splitlines() if key.search(line)]
    assert len(lines) == 1, f"{key.pattern!r} should be on exactly one line: {lines}"
    return lines[0]


MARKER_RE = re.compile(r"^\s*-- ((?:above|below|left|right)\b[^-]*|in view) --$")


def zone_of(text: str, control: dict[str, Any]) -> str:
    """Where the text view says a control is: the last ``-- below the viewport --`` style marker
    line before the control's line ("in view" when there is none)."""
    zone = "in view"
    for line in text.splitlines():
        marker = MARKER_RE.match(line)
        if marker:
            zone = marker.group(1)
        elif re.search(rf"(?:^|[\s|])\[{control['id']}\] ", line):
            return zone
    raise AssertionError(f"[{control['id']}] is not in the text view")


# -- the checks every page gets ----------------------------------------------------------------


def test_tab_survives_repeated_snapshots_across_pages(browser: Browser, bx: Client, servers: Servers) -> None:
    """First, because every later test needs a live tab: several snapshots on each of a few
    pages, with the page read by Selenium in between, must neither hang nor crash the tab."""
    done = []
    for page in ("snap-controls.html", "snap-js.html", "snap-hidden.html", "snap-shadow.html"):
        try:
            tab = open_page(browser, bx, servers.url(page))
            for _ in range(2):
                assert bx.snapshot(tab=tab)["text"].startswith("# ")
                done.append(page)
            assert page_expectations(browser.driver, page)
        except (BrowserxError, WebDriverException) as exc:
            raise AssertionError(f"the tab hung or crashed after snapshots of {done}: {exc!r}") from exc
    assert browser.driver.execute_script("return document.title") == "Snapshot shadow DOM"


@pytest.mark.parametrize("page", PAGES)
def test_page_lists_every_expected_control_and_nothing_hidden(
    browser: Browser, bx: Client, servers: Servers, page: str
) -> None:
    tab = open_page(browser, bx, servers.url(page))
    obs = observe(bx, tab, page, browser.driver)
    record(obs)
    text, controls = obs.text, obs.controls
    assert obs.interactive, f"{page} has no data-expect markers"

    # IDs are unique across the tab (frames and shadow roots included).
    ids = [c["id"] for c in controls]
    assert len(ids) == len(set(ids)), f"duplicate IDs: {sorted(ids)}"

    # Every expected control is listed exactly once, with its name (and role when the page says).
    missing = [e["name"] for e in obs.interactive if not any(c.get("name") == e["name"] for c in controls)]
    assert not missing, f"{page}: not listed: {missing}\n{text}"
    for e in obs.interactive:
        control = obs.by_name(e["name"])
        if e["role"]:
            assert control["role"] == e["role"], (e, control)
        if e["frameUrl"] is not None:
            in_main = e["frameUrl"] == servers.url(page)
            assert control["_frame"] == (None if in_main else e["frameUrl"]), (e, control)
    # ...and nothing else is (every listed control is one the page marks as interactive).
    expected_names = {e["name"] for e in obs.interactive}
    extra = [(c["id"], c["role"], c.get("name")) for c in controls if c.get("name") not in expected_names]
    assert not extra, f"{page}: listed but not expected: {extra}\n{text}"
    assert len(controls) == len(obs.interactive)

    # Hidden elements show up nowhere, not even as text.
    dumped = json.dumps(obs.view, ensure_ascii=False)
    for e in obs.hidden:
        assert e["text"] and e["text"] not in text, (
            f"{page}: hidden {e['text']!r} is in the text view\n{text}"
        )
        assert e["text"] not in dumped, f"{page}: hidden {e['text']!r} is in the json view"

    # Plain text is shown, and never on a line with an ID.
    lines = text.splitlines()
    for e in obs.expected:
        if e["kind"] == "text":
            assert any(e["text"] in line and not ID_RE.search(line) for line in lines), (e["text"], text)

    # Text view lines: an ID'd line starts with [N] (after indentation / a list bullet), except
    # a table row's (cells separated by " | "); each control's line carries its role (a link its
    # URL instead) and its name; headings carry no IDs.
    listed = parse_controls(text)
    for control in controls:
        line = line_of(text, control)
        body = line.strip()
        if " | " not in body:
            assert body.removeprefix("- ").startswith(f"[{control['id']}] "), line
        role = TEXT_ROLES.get(control["role"], control["role"])  # the text view's word for it
        if control["role"] == "link" and "href" in control:
            assert " → " in line, line
        else:
            assert f"[{control['id']}] {role}" in line, line
        name = control.get("name", "")  # quoted names read back exact (views/grammar.py)
        assert listed[control["id"]] == (role, name), (control, line)
    for line in lines[2:]:
        if line.lstrip().startswith("#"):
            assert not ID_RE.search(line), f"heading with an ID: {line}"
    for node, _ in walk_json(obs.view["page"]["body"]):
        if node.get("role") in ("heading", "paragraph") or "text" in node:
            assert "id" not in node, node
    assert {int(i) for i in ID_RE.findall(text)} == set(ids)

    # Header: the interactive count and how many are outside the viewport.
    stats = obs.view["page"]["context"]["stats"]
    assert f"; {stats['interactive']} interactive" in lines[1]
    outside = sum(1 for c in controls if "position" in c)
    if outside:
        assert f", {outside} outside the viewport" in lines[1], lines[1]
    else:
        assert "outside the viewport" not in lines[1]


# -- page by page ------------------------------------------------------------------------------


def test_controls_names_roles_and_states_match_the_dom(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    page = "snap-controls.html"
    driver = browser.driver
    tab = open_page(browser, bx, servers.url(page))
    obs = observe(bx, tab, page, driver)
    for e in obs.interactive:
        control = obs.by_name(e["name"])
        # disabled exactly when the DOM says :disabled
        assert control.get("disabled", False) is e["disabled"], (e["name"], control)
        # the label hunt is used for label-less fields only, and said so
        if e["nearby"]:
            assert control.get("name_from") == "nearby text", control
            assert "name from nearby text" in line_of(obs.text, control)
        else:
            assert "name_from" not in control, control
        if e["checked"] is not None:
            assert control.get("checked", False) is e["checked"], (e["name"], control)
        if e["type"] and e["type"] not in ("text", "submit", "button", "checkbox", "radio"):
            assert control.get("type") == e["type"], (e["name"], control)
        if e["href"]:
            assert control["href"] == urlsplit(e["href"]).path, control
    assert obs.by_name("Delete account")["disabled"] is True
    assert "(disabled)" in line_of(obs.text, obs.by_name("Delete account"))

    # Labelled fields by every labelling technique.
    for name, role in [
        ("Full name", "textbox"),  # label[for]
        ("Email address", "textbox"),  # wrapping label
        ("Volume level", "slider"),  # aria-labelledby
        ("Number of guests", "spinbutton"),  # aria-label
        ("Search products", "searchbox"),  # placeholder only
        ("Delivery notes", "textbox"),  # title only
        ("Close panel", "button"),  # icon button with aria-label
    ]:
        assert obs.by_name(name)["role"] == role
        assert re.search(rf"\] {role} {re.escape(name)}(?: \(.*)?$", obs.text, re.M), (name, obs.text)

    # The select's options are the DOM's options, in order.
    select = Select(driver.find_element(By.ID, "country"))
    country = obs.by_name("Country")
    assert country["options"] == [o.text for o in select.options]
    # Checkbox/radio states follow Selenium's view of the live page after a change.
    driver.find_element(By.CSS_SELECTOR, "input[value=exp]").click()
    driver.find_element(By.CSS_SELECTOR, "input[type=checkbox]").click()
    after = observe(bx, tab, page, driver)
    assert after.by_name("Express shipping").get("checked") is True
    assert "checked" not in after.by_name("Standard shipping")
    assert "checked" not in after.by_name("Subscribe to newsletter")
    assert after.by_name("Express shipping")["id"] == obs.by_name("Express shipping")["id"]


def test_js_handlers_delegation_and_button_content(browser: Browser, bx: Client, servers: Servers) -> None:
    page = "snap-js.html"
    driver = browser.driver
    tab = open_page(browser, bx, servers.url(page))
    obs = observe(bx, tab, page, driver)
    # The handlers are real: clicking each listed handler-only element does something.
    for name in ("Open photo gallery", "Show more reviews", "Apples", "Cherries"):
        driver.find_element(By.XPATH, f"//*[@data-name={name!r}]").click()
        assert driver.find_element(By.ID, "log").text.startswith("Clicked"), name
    for name in ("Open photo gallery", "Show more reviews"):
        control = obs.by_name(name)
        assert control["role"] == "clickable" and control["tag"] == "div", control
        assert "listener" in control.get("hints", []), control
    for name in ("Apples", "Bananas", "Cherries", "Dates"):
        control = obs.by_name(name)
        assert control["tag"] == "li", control
        assert "delegated" in control.get("hints", []), control
    assert "pointer" in obs.by_name("Add to wishlist").get("hints", [])
    # The delegating <ul> itself is not a target, and a button's inner spans are not listed.
    names = [c.get("name") for c in obs.controls]
    assert "Buy" not in names and "now" not in names
    assert not [c for c in obs.controls if c["tag"] in ("ul", "span")], obs.controls
    # Chrome's name for <button><span>Buy</span> <span>now</span></button> keeps the space.
    assert obs.by_name("Buy now")["role"] == "button"


def test_hundreds_of_click_listeners_are_listed_whole_at_every_snapshot(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    """A document with hundreds of click listeners is listed whole by every snapshot, however soon
    after the last one (page/listeners.py): an element the page adds with a listener, a listener
    the page adds to an element already there, and one an action's handler adds all show at the
    next snapshot."""
    driver = browser.driver
    tab = open_page(browser, bx, servers.url("snap-big-listing.html"))

    def look() -> tuple[str, str]:
        taken = bx.snapshot(tab=tab, stats=True)
        return taken["stats"]["frames_detail"][0]["listing"], taken["text"]

    kind, first = look()
    assert kind == "whole" and len(re.findall(r"\] clickable Cell \d+", first)) == 240
    _, before = look()
    driver.execute_script("addItem('Added item')")  # the page's own code, as a timer runs it
    kind, text = look()
    assert kind == "whole" and re.search(r"\[\d+\] clickable Added item", text), text[-400:]
    # Nothing else changed: the lines of the last snapshot, plus the added item's.
    assert [line for line in text.splitlines() if "Added item" not in line][2:] == before.splitlines()[2:]

    driver.execute_script("listenQuietly()")  # a listener on an element that was there already
    kind, text = look()
    assert kind == "whole" and re.search(r"\[\d+\] clickable Quiet label", text), text[-400:]

    arm = re.search(r"\[(\d+)\] button Arm the label", text)
    assert arm is not None
    assert bx.click(tab=tab, id=int(arm[1]))["success"]  # its handler arms the label: no DOM change
    kind, text = look()
    assert kind == "whole" and re.search(r"\[\d+\] clickable Armed label", text), text[-400:]
    driver.find_element(By.ID, "armed").click()
    assert driver.find_element(By.ID, "log").text == "Clicked armed"  # the listener is real


def test_shadow_roots_open_closed_nested_and_slotted(browser: Browser, bx: Client, servers: Servers) -> None:
    page = "snap-shadow.html"
    tab = open_page(browser, bx, servers.url(page))
    obs = observe(bx, tab, page, browser.driver)
    # Selenium sees open shadow content but not closed roots: the snapshot must see both.
    reachable = {e["name"] for e in obs.interactive if not e.get("closed")}
    assert {"Open shadow button", "Slotted light button", "Slotted into closed root"} <= reachable
    for name, role in CLOSED_SHADOW[page]:
        assert name not in reachable  # the fixture really hides these from page JS
        assert obs.by_name(name)["role"] == role
    assert obs.by_name("Closed shadow input")["role"] == "textbox"
    # A slotted light-DOM button is listed once, where it renders.
    assert sum(1 for c in obs.controls if c.get("name") == "Slotted light button") == 1
    assert obs.view["page"]["context"]["stats"]["shadow_roots"] >= 6
    # Closed roots are found through CDP once; later snapshots walk them in the page, and see
    # exactly the same thing under the same IDs.
    again = bx.snapshot(tab=tab, stats=True)
    assert again["text"] == obs.text
    assert [f["closed_shadow_roots"] for f in again["stats"]["frames_detail"]] == [0]


def test_frames_same_origin_cross_origin_and_nested(browser: Browser, bx: Client, servers: Servers) -> None:
    page = "snap-frames.html"
    driver = browser.driver
    tab = open_page(browser, bx, servers.url(page))
    obs = observe(bx, tab, page, driver)
    frames = [node for node, _ in walk_json(obs.view["page"]["body"]) if node.get("role") == "iframe"]
    urls = {f["url"] for f in frames}
    assert {
        servers.url("snap-samechild.html"),
        f"{servers.xorigin}/snap-xchild.html",
        servers.url("snap-nested.html"),
    } <= urls, urls
    # The cross-site child really is cross-origin (Selenium can enter it, page JS cannot).
    assert (
        driver.execute_script(
            "try { return !!document.getElementById('cross').contentDocument; } catch (e) { return false; }"
        )
        is False
    )
    cross = obs.by_name("Cross-site frame button")
    nested = obs.by_name("Nested frame button")
    assert cross["_frame"] == f"{servers.xorigin}/snap-xchild.html"
    assert nested["_frame"] == servers.url("snap-nested.html")
    assert obs.by_name("Cross-site field")["role"] == "textbox"
    # Everything is on screen and nothing covers it: frame content is placed in page coordinates.
    for control in obs.controls:
        assert "position" not in control and "covered" not in control, control
    assert "iframe" in obs.text and "Cross-site frame text" in obs.text
    # A closed shadow root inside the same-origin frame: found through CDP the first time, walked
    # in the page after that; both times at the same place, inside that frame.
    tab = open_page(browser, bx, servers.url(page))  # a new document: its closed roots are unknown
    boxes = []
    for _ in range(2):
        body = bx.snapshot(tab=tab, format="json", boxes=True)["json"]["page"]["body"]
        found = [n for n, _ in walk_json(body) if n.get("name") == "Closed in same-origin frame"]
        assert len(found) == 1, found
        boxes.append(found[0]["box"])
    assert boxes[0] == boxes[1], boxes
    frame = driver.execute_script(
        "const r = document.getElementById('same').getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]"
    )
    x, y, w, h = boxes[0]
    assert frame[0] <= x and frame[1] <= y and x + w <= frame[2] + 1 and y + h <= frame[3] + 1, (
        boxes[0],
        frame,
    )


PLACEMENT_JS = r"""
const R = (el) => { const r = el.getBoundingClientRect();
  return {x: r.left, y: r.top, r: r.right, b: r.bottom}; };
const inside = (a, b) => a.x >= b.x && a.y >= b.y && a.r <= b.r && a.b <= b.b;
const apart = (a, b) => a.r <= b.x || a.b <= b.y || a.x >= b.r || a.y >= b.b;
const view = {x: 0, y: 0, r: innerWidth, b: innerHeight};
const scroller = document.getElementById("scroller"), area = R(scroller);
const out = {};
for (const el of document.querySelectorAll("button[data-expect=interactive]")) {
  const box = R(el), inScroller = scroller.contains(el);
  let where = null, within = false, certain = true;
  if (inScroller && apart(box, area)) {
    within = true;
    where = box.b <= area.y ? "above" : "below";
  } else if (apart(box, view)) {
    where = box.b <= view.y ? "above" : box.y >= view.b ? "below" : box.r <= view.x ? "left" : "right";
  } else if (!inside(box, view) || (inScroller && !inside(box, area))) {
    certain = false;  // partly visible: either answer is defensible
  }
  let covered = null;
  if (where === null && certain) {
    const hit = document.elementFromPoint((box.x + box.r) / 2, (box.y + box.b) / 2);
    covered = !(hit === el || el.contains(hit));
  }
  out[el.getAttribute("data-name")] = {where, within, certain, covered};
}
return out;
"""


def _check_layout(obs: Observation, driver: WebDriver) -> dict[str, dict[str, Any]]:
    truth: dict[str, dict[str, Any]] = driver.execute_script(PLACEMENT_JS)
    scroller_id = obs.by_name("Result list")["id"]
    for name, real in truth.items():
        control = obs.by_name(name)
        where = control.get("position")
        if not real["certain"]:
            continue
        if real["where"] is None:
            assert where is None, (name, real, control)
            assert zone_of(obs.text, control) == "in view", (name, obs.text)
        else:
            assert where is not None and where["offscreen"] == real["where"], (name, real, control)
            assert where.get("scroll_container") == (scroller_id if real["within"] else None), (name, control)
            zone = {"above": "above the", "below": "below the"}.get(real["where"], f"{real['where']} of the")
            zone = (
                f"{real['where']} in scroll container {scroller_id}" if real["within"] else f"{zone} viewport"
            )
            assert zone_of(obs.text, control) == zone, (name, obs.text)
        if real["covered"] is not None:
            assert ("covered" in control) is real["covered"], (name, real, control)
    return truth


def test_layout_scroll_container_fold_and_modal_cover(browser: Browser, bx: Client, servers: Servers) -> None:
    page = "snap-layout.html"
    driver = browser.driver
    tab = open_page(browser, bx, servers.url(page))
    obs = observe(bx, tab, page, driver)
    truth = _check_layout(obs, driver)

    scroller = obs.by_name("Result list")
    assert scroller["role"] == "scrollable" and scroller["scroll"]["more_below"] is True
    assert driver.execute_script(
        "const s = document.getElementById('scroller'); return s.scrollHeight > s.clientHeight"
    )
    rows = [obs.by_name(f"Row button {i}") for i in range(1, 31)]
    outside = [r for r in rows if r.get("position", {}).get("scroll_container") == scroller["id"]]
    assert len(outside) >= 20, f"most rows should be outside the scroller's view: {len(outside)}"
    for name in ("Far below button A", "Far below button B"):
        assert obs.by_name(name)["position"] == {"offscreen": "below"}
        assert truth[name]["where"] == "below"
    # The modal covers what is under it, not its own buttons.
    for name in ("Covered action one", "Covered action two"):
        assert truth[name]["covered"] is True
        assert "overlay" in obs.by_name(name)["covered"]["by"]
        assert "covered by" in line_of(obs.text, obs.by_name(name))
    for name in ("Accept cookies", "Reject cookies"):
        assert truth[name]["covered"] is False
        assert "covered" not in obs.by_name(name)
    ids = {c["name"]: c["id"] for c in obs.controls}

    # The modal goes away: nothing is covered any more, and every element keeps its ID.
    driver.execute_script("document.getElementById('overlay').remove()")
    gone = observe(bx, tab, page, driver)
    assert not [c for c in gone.controls if "covered" in c]
    assert {c["name"]: c["id"] for c in gone.controls} == {k: v for k, v in ids.items() if "cookies" not in k}
    _check_layout(gone, driver)

    # Scroll inside the container: the first rows are now above, later ones in view.
    driver.execute_script("document.getElementById('scroller').scrollTop = 330")
    scrolled = observe(bx, tab, page, driver)
    _check_layout(scrolled, driver)
    # Rows scrolled out of the container's view are clipped by it, not covered by what lies
    # outside it on the page (there is no overlay any more: nothing covers anything).
    assert not [c for c in scrolled.controls if "covered" in c], scrolled.text
    assert scrolled.by_name("Row button 1")["position"] == {
        "offscreen": "above",
        "scroll_container": scroller["id"],
    }
    assert scrolled.by_name("Result list")["scroll"]["more_above"] is True
    assert "position" not in scrolled.by_name("Row button 13")

    # Scroll the page to the bottom: the fold buttons are in view, the top ones above.
    driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    bottom = observe(bx, tab, page, driver)
    _check_layout(bottom, driver)
    assert not [c for c in bottom.controls if "covered" in c], bottom.text
    assert "position" not in bottom.by_name("Far below button A")
    assert bottom.by_name("Covered action one")["position"]["offscreen"] == "above"
    assert bottom.view["page"]["context"]["scroll"]["y"] == driver.execute_script("return window.scrollY")


def test_hidden_elements_really_are_hidden(browser: Browser, bx: Client, servers: Servers) -> None:
    page = "snap-hidden.html"
    driver = browser.driver
    tab = open_page(browser, bx, servers.url(page))
    obs = observe(bx, tab, page, driver)
    # Selenium's own visibility check agrees with the fixture (aria-hidden / inert content is
    # drawn but not operable, so only those are left to the markers).
    for e in obs.hidden:
        element = driver.find_element(
            By.XPATH, f"//*[@data-expect='hidden' and normalize-space()={e['text']!r}]"
        )
        if not e["unreachable"]:
            assert not element.is_displayed(), e["text"]
        assert e["text"] not in obs.text
    child = driver.find_element(By.XPATH, "//*[@data-name='Visible child of hidden parent']")
    assert child.is_displayed()
    assert obs.by_name("Visible child of hidden parent")["role"] == "button"
    assert obs.by_name("More options").get("expanded") is False

    # Opening the <details> reveals its button: it appears, with an ID, and the summary says so.
    driver.find_element(By.TAG_NAME, "summary").click()
    assert driver.find_element(
        By.XPATH, "//button[normalize-space()='Hidden in closed details']"
    ).is_displayed()
    opened = observe(bx, tab, page, driver)
    assert opened.by_name("Hidden in closed details")["role"] == "button"
    assert opened.by_name("More options").get("expanded") is True
    assert opened.by_name("More options")["id"] == obs.by_name("More options")["id"]


def test_page_that_opted_out_is_refused(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("snap-noai.html"))
    assert browser.driver.execute_script("return document.body.hasAttribute('data-no-ai')")
    for fmt in ("text", "json"):
        with pytest.raises(PageOptedOut) as info:
            bx.snapshot(tab=tab, format=fmt)
        assert info.value.code == "page_opted_out"
    out = run_cli("snapshot", "--tab", str(tab))
    assert out.returncode == 1
    assert "page_opted_out" in out.stderr and "Transfer all money" not in out.stdout + out.stderr
    REPORT.setdefault("snap-noai.html", "snap-noai.html: refused with page_opted_out (no view)")


def _ids_by_name(obs: Observation) -> dict[str, int]:
    return {c["name"]: c["id"] for c in obs.controls}


def test_rerendered_list_keeps_ids_and_never_reuses_them(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    page = "snap-rerender.html"
    driver = browser.driver
    tab = open_page(browser, bx, servers.url(page))
    first = observe(bx, tab, page, driver)
    before = _ids_by_name(first)
    names = [f"Item {i}" for i in range(1, 21)]
    assert set(names) <= set(before)
    history: dict[int, str] = {v: k for k, v in before.items()}

    def consistent(obs: Observation) -> None:
        for control in obs.controls:
            old = history.setdefault(control["id"], control["name"])
            assert old == control["name"], f"ID {control['id']} named {old!r} and now {control['name']!r}"

    # Same content, new DOM nodes.
    driver.execute_script("window.__firstButton = document.querySelector('#items button'); rerender()")
    assert driver.execute_script("return window.__firstButton.isConnected") is False
    second = observe(bx, tab, page, driver)
    consistent(second)
    after = _ids_by_name(second)
    kept = sum(1 for n in names if after.get(n) == before[n])
    print(f"re-render: {kept}/20 items kept their IDs")
    REPORT["snap-rerender.html (IDs)"] = f"snap-rerender.html: identical re-render kept {kept}/20 IDs"
    assert kept / len(names) >= 0.95

    # Items 11-20 become different items: they must get new IDs, 1-10 keep theirs.
    driver.execute_script("rerenderChanged()")
    third = observe(bx, tab, page, driver)
    consistent(third)
    changed = _ids_by_name(third)
    kept_unchanged = sum(1 for n in names[:10] if changed.get(n) == after[n])
    REPORT["snap-rerender.html (IDs)"] += f"; changed re-render kept {kept_unchanged}/10 unchanged items' IDs"
    assert kept_unchanged / 10 >= 0.95
    seen = set(before.values()) | set(after.values())
    for i in range(11, 21):
        assert f"Item {i}" not in changed
        assert changed[f"Renamed {i}"] not in seen, f"Renamed {i} got an old ID {changed[f'Renamed {i}']}"


def test_ids_are_never_reused_across_navigation(browser: Browser, bx: Client, servers: Servers) -> None:
    """IDs are never reused in a tab's lifetime: after navigating, an old ID never names a
    different element (ids.py's promise; the collector's node keys restart in every document)."""
    named: dict[int, tuple[str, str]] = {}
    clashes = []
    tab = None
    for page in ("snap-js.html", "snap-hidden.html", "snap-values.html", "snap-js.html"):
        tab = open_page(browser, bx, servers.url(page))
        for control in json_controls(bx.snapshot(tab=tab, format="json")["json"]):
            key = (control["role"], control.get("name", ""))
            old = named.setdefault(control["id"], key)
            if old != key:
                clashes.append(f"{page}: [{control['id']}] was {old}, now {key}")
    assert not clashes, "\n".join(clashes)


PRIVATE = ("hunter2-Sup3rSecret", "typed-Pa55word", "4111", "123-45-6789")


def test_form_values_only_on_request_and_never_secrets(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    page = "snap-values.html"
    driver = browser.driver
    tab = open_page(browser, bx, servers.url(page))
    driver.find_element(By.ID, "nick").send_keys("Ziggy")
    driver.find_element(By.ID, "typed-secret").send_keys("typed-Pa55word")
    live = {
        e: driver.find_element(By.ID, e).get_property("value")
        for e in ("name", "nick", "card", "ssn", "note")
    }
    assert live["nick"] == "Ziggy" and live["card"] == "4111 1111 1111 1111"

    plain = observe(bx, tab, page, driver)
    plain_dump = plain.text + json.dumps(plain.view, ensure_ascii=False)
    for value in (*live.values(), *PRIVATE, "Please charge card"):
        assert value not in plain_dump, f"{value!r} shown without include_values"
    assert not [c for c in plain.controls if "value" in c]

    full = observe(bx, tab, page, driver, include_values=True)
    full_dump = full.text + json.dumps(full.view, ensure_ascii=False)
    for secret in PRIVATE:
        assert secret not in full_dump, f"{secret!r} leaked with include_values"
    assert full.by_name("Holder name")["value"] == live["name"]
    assert full.by_name("Nickname")["value"] == "Ziggy"
    assert full.by_name("Card number")["value"] == "[card number]"
    assert full.by_name("Social security number")["value"] == "[ssn]"
    assert full.by_name("Order note")["value"] == "Please charge card [card number] for this order"
    for name in ("Login password", "Confirm password"):
        assert full.by_name(name)["value"] == "••••"
    assert 'value="Jane Q Public"' in line_of(full.text, full.by_name("Holder name"))


def test_cli_snapshot_prints_the_text_view(browser: Browser, bx: Client, servers: Servers) -> None:
    page = "snap-hidden.html"
    tab = open_page(browser, bx, servers.url(page))
    via_client = bx.snapshot(tab=tab)["text"]
    out = run_cli("snapshot", "--tab", str(tab))
    assert out.returncode == 0, out.stderr
    assert out.stdout == via_client
    assert out.stdout.startswith(f"# Snapshot hidden — {servers.url(page)}\n")
    assert "Plainly visible button" in out.stdout and "Hidden by display none" not in out.stdout
    as_json = run_cli("snapshot", "--tab", str(tab), "--format", "json")
    assert as_json.returncode == 0, as_json.stderr
    ids = {c["id"] for c in json_controls(json.loads(as_json.stdout))}
    assert ids == {int(i) for i in ID_RE.findall(out.stdout)}


def test_a_cover_that_comes_moves_or_goes_shows_at_the_next_snapshot(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    """The collector keeps a hit test's answer while nothing that could cover an element moved
    (page/collector.js): every way a cover comes, moves, restacks or goes must still show in
    the very next snapshot, as the page's own hit test says."""
    page = "snap-covers.html"
    driver = browser.driver
    tab = open_page(browser, bx, servers.url(page))
    steps = [
        ("nothing over anything", ""),
        ("the same again (answers kept)", ""),
        ("a fixed toast shows over Alpha", "covers.toast(true)"),
        ("the toast goes", "covers.toast(false)"),
        ("an absolute promo moves over Beta", "covers.promoOver('Beta')"),
        ("Beta lifted above it", "covers.lift('Beta', true)"),
        ("Beta back under it", "covers.lift('Beta', false)"),
        ("the promo moves on to Gamma", "covers.promoOver('Gamma')"),
        ("a sheet grows from the bottom over everything", "covers.sheet(2000)"),
        ("the sheet folds away", "covers.sheet(0)"),
        ("a banner element is inserted over Delta", "covers.banner(true)"),
        ("the banner is removed", "covers.banner(false)"),
    ]
    seen_covered = set()
    for what, script in steps:
        if script:
            driver.execute_script(script)
        truth: dict[str, bool] = driver.execute_script("return truth()")
        controls = {c["name"]: c for c in bx.snapshot(tab=tab, format="json", max_tokens=0)["json"]["page"]["body"]["children"] if "id" in c}  # fmt: skip
        shown = {name: "covered" in controls[name] for name in truth}
        assert shown == truth, f"{what}: browserx {shown}, the page {truth}"
        seen_covered |= {name for name, covered in truth.items() if covered}
    assert seen_covered == {"Alpha", "Beta", "Gamma", "Delta"}  # every step really covered something
