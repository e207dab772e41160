"""Common widget patterns (WAI-ARIA APG) and "tried as a new user" app pages, with Chrome's own
accessibility tree as the oracle.

For every page (tests/fixtures/pages/patterns*.html, realapp-*.html) Chrome's full AX tree is read
through Selenium's own CDP connection (independent of the host under test), and:

- every non-ignored AX node with an interactive role (row, gridcell and column/row headers when
  focusable) whose box lies in the page's viewport must be listed in browserx's json view with an
  ID, the same role (browserx uses Chrome's role names, see browserx/snapshot/roles.py), the same
  name (whitespace collapsed) and the same states (checked, expanded, selected, pressed, and
  aria-sort as ``sort``, which Chrome's AX tree does not carry: read from the DOM). Content an
  iframe's own scroll hides counts when its box is in the page's viewport: browserx lists what is
  scrolled out, with its position. Not compared: inner parts of native widgets (user-agent shadow
  DOM: the date field's spin buttons and picker button) and Chrome's expanded=false on every
  closed native <select>; an empty Chrome name matches a name browserx found in nearby text;
- the negative controls (``data-bx="hidden"``: clipped away, clip-path, content-visibility,
  visibility) are listed nowhere, not even as text;
- no ID appears twice in the json or the text view.

Per-page expectations the AX comparison cannot express follow, then actions by ID whose effect is
read back from the page through Selenium.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from browserx import Client
from browserx.errors import BrowserxError
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import js, open_page

PAGES = [
    "patterns.html",
    "patterns-grids.html",
    "patterns-menus.html",
    "realapp-shell.html",
    "realapp-shell.html?propagate",
    "realapp-react.html",
    "realapp-custom-controls.html",
]

# Chrome roles an agent acts on. row/gridcell/columnheader/rowheader only count when Chrome says
# they are focusable (roving-tabindex grids, treegrid rows).
CHROME_INTERACTIVE = frozenset(
    {"button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox", "menuitemradio",
     "option", "treeitem", "textbox", "combobox", "listbox", "slider", "spinbutton", "searchbox",
     "DisclosureTriangle", "Date", "DateTime", "InputTime", "ColorWell"}
)  # fmt: skip
FOCUSABLE_ONLY = frozenset({"row", "gridcell", "columnheader", "rowheader"})
# Chrome's role names where browserx's json view uses another word (none today: roles.py follows
# Chrome, e.g. "DisclosureTriangle" for <summary>, "Date" for <input type=date>).
CHROME_TO_OURS: dict[str, str] = {}

ID_ON_LINE = re.compile(r"(?:^|[\s|])\[(\d+)\] ")


def _collapse(text: str) -> str:
    return " ".join(str(text).split())


# -- Chrome's side ------------------------------------------------------------------------------


@dataclass
class DomInfo:
    tag: str
    attrs: dict[str, str]
    parent: int | None
    user_agent: bool  # inside a user-agent shadow root (a native widget's inner parts)


@dataclass
class AXControl:
    role: str
    name: str
    states: dict[str, Any]
    where: str  # the DOM element, for messages: <tag id=… class=…>
    frame: str  # "main" or the iframe's URL
    frame_hidden: bool = False  # in the page's viewport, but scrolled out of its iframe's


def _index_dom(node: dict[str, Any], parent: int | None, ua: bool, out: dict[int, DomInfo]) -> None:
    attrs_list = node.get("attributes") or []
    attrs = dict(zip(attrs_list[::2], attrs_list[1::2], strict=True))
    backend = node["backendNodeId"]
    out[backend] = DomInfo(node.get("localName") or node.get("nodeName", "").lower(), attrs, parent, ua)
    for child in node.get("children") or []:
        _index_dom(child, backend, ua, out)
    for root in node.get("shadowRoots") or []:
        _index_dom(root, backend, ua or root.get("shadowRootType") == "user-agent", out)
    if node.get("contentDocument"):
        _index_dom(node["contentDocument"], backend, ua, out)


def _negative(dom: dict[int, DomInfo], backend: int) -> str | None:
    """The data-name of the data-bx="hidden" element this node is in (across shadow roots)."""
    at: int | None = backend
    while at is not None and at in dom:
        info = dom[at]
        if info.attrs.get("data-bx") == "hidden":
            return info.attrs.get("data-name", "?")
        at = info.parent
    return None


def _describe(info: DomInfo) -> str:
    bits = [info.tag]
    for key in ("id", "class", "role", "type", "title"):
        if info.attrs.get(key):
            bits.append(f'{key}="{info.attrs[key]}"')
    return "<" + " ".join(bits) + ">"


# The element's box in top-level viewport coordinates (through same-origin iframes), the top-level
# viewport, and whether an iframe's own viewport (its scroll) hides the box. An <option> of a
# list box has no box of its own: its select's is used.
RECT_JS = """function() {
  const el = this.nodeType === 1 ? this : this.parentElement;
  let r = el.getBoundingClientRect();
  if ((r.width === 0 || r.height === 0) && el.localName === "option") {
    const select = el.closest("select");
    if (select && (select.multiple || select.size > 1)) r = select.getBoundingClientRect();
  }
  let x = r.left, y = r.top, frameHidden = false;
  let win = el.ownerDocument.defaultView;
  while (win && win.frameElement) {
    if (x >= win.innerWidth || y >= win.innerHeight || x + r.width <= 0 || y + r.height <= 0) frameHidden = true;
    const f = win.frameElement.getBoundingClientRect();
    x += f.left + win.frameElement.clientLeft;
    y += f.top + win.frameElement.clientTop;
    win = win.parent;
  }
  return [x, y, r.width, r.height, top.innerWidth, top.innerHeight, frameHidden];
}"""


def _placement(driver: WebDriver, backend: int) -> tuple[bool, bool]:
    """(in the top-level viewport, hidden by the scroll of the iframe it is in)."""
    obj = driver.execute_cdp_cmd("DOM.resolveNode", {"backendNodeId": backend, "objectGroup": "bx-oracle"})
    res = driver.execute_cdp_cmd(
        "Runtime.callFunctionOn",
        {"objectId": obj["object"]["objectId"], "functionDeclaration": RECT_JS, "returnByValue": True},
    )
    x, y, w, h, vw, vh, frame_hidden = res["result"]["value"]
    return w > 0 and h > 0 and x < vw and y < vh and x + w > 0 and y + h > 0, bool(frame_hidden)


def _chrome_states(node: dict[str, Any], info: DomInfo) -> dict[str, Any]:
    props = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
    states: dict[str, Any] = {}
    checked = props.get("checked")
    if checked in ("true", True):
        states["checked"] = True
    elif checked == "mixed":
        states["checked"] = "mixed"
    # Chrome reports expanded=false for every closed native <select>; that is the combobox's
    # default, not a disclosure state, so it is left out for native selects only.
    if "expanded" in props and not (info.tag == "select" and props["expanded"] is False):
        states["expanded"] = bool(props["expanded"])
    if props.get("selected") is True:
        states["selected"] = True
    pressed = props.get("pressed")
    if pressed in ("true", "false", "mixed"):
        states["pressed"] = {"true": True, "false": False}.get(pressed, "mixed")
    sort = info.attrs.get("aria-sort", "").strip().lower()  # Chrome's AX tree does not expose it
    if sort in ("ascending", "descending", "other"):
        states["sort"] = sort
    return states


def chrome_controls(driver: WebDriver) -> list[AXControl]:
    """Chrome's interactive AX nodes in the viewport, of every same-origin frame, in tree order;
    negative controls and native widgets' inner parts left out."""
    driver.switch_to.default_content()
    dom: dict[int, DomInfo] = {}
    _index_dom(
        driver.execute_cdp_cmd("DOM.getDocument", {"depth": -1, "pierce": True})["root"], None, False, dom
    )
    frames: list[tuple[str, str]] = []

    def walk(tree: dict[str, Any]) -> None:
        frames.append((tree["frame"]["id"], tree["frame"]["url"]))
        for child in tree.get("childFrames") or []:
            walk(child)

    walk(driver.execute_cdp_cmd("Page.getFrameTree", {})["frameTree"])
    out: list[AXControl] = []
    for n, (frame_id, url) in enumerate(frames):
        nodes = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {"frameId": frame_id})["nodes"]
        for node in nodes:
            if node.get("ignored") or "backendDOMNodeId" not in node:
                continue
            role = str((node.get("role") or {}).get("value"))
            props = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
            if role in FOCUSABLE_ONLY:
                if not props.get("focusable"):
                    continue
            elif role not in CHROME_INTERACTIVE:
                continue
            info = dom.get(node["backendDOMNodeId"])
            if info is None or info.user_agent or _negative(dom, node["backendDOMNodeId"]):
                continue
            in_view, frame_hidden = _placement(driver, node["backendDOMNodeId"])
            if not in_view:
                continue
            out.append(
                AXControl(
                    role=CHROME_TO_OURS.get(role, role),
                    name=_collapse((node.get("name") or {}).get("value") or ""),
                    states=_chrome_states(node, info),
                    where=_describe(info),
                    frame="main" if n == 0 else url,
                    frame_hidden=frame_hidden,
                )
            )
    driver.execute_cdp_cmd("Runtime.releaseObjectGroup", {"objectGroup": "bx-oracle"})
    return out


NEGATIVES_JS = r"""
const out = [];
function walk(root) {
  for (const el of root.querySelectorAll("*")) {
    if (el.getAttribute("data-bx") === "hidden") out.push(el.getAttribute("data-name"));
    if (el.shadowRoot) walk(el.shadowRoot);
  }
}
walk(document);
return out;
"""


# -- browserx's side ---------------------------------------------------------------------------


def json_controls(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every node with an ID, frames included, in view order."""
    out: list[dict[str, Any]] = []

    def walk(node: dict[str, Any]) -> None:
        if "id" in node:
            out.append(node)
        for child in node.get("children", []):
            walk(child)

    walk(view["page"]["body"])
    return out


def our_states(control: dict[str, Any]) -> dict[str, Any]:
    states: dict[str, Any] = {}
    if control.get("checked") in (True, "mixed"):
        states["checked"] = control["checked"]
    if "expanded" in control:
        states["expanded"] = control["expanded"]
    if control.get("selected"):
        states["selected"] = True
    if "pressed" in control:
        states["pressed"] = control["pressed"]
    if control.get("sort"):
        states["sort"] = control["sort"]
    return states


def lines_of(text: str, control_id: int) -> list[str]:
    return [line for line in text.splitlines() if any(int(m) == control_id for m in ID_ON_LINE.findall(line))]


def show(control: dict[str, Any], text: str) -> str:
    """A browserx control as its text-view line (and its json facts)."""
    lines = lines_of(text, control["id"])
    facts = {k: v for k, v in control.items() if k not in ("children",)}
    line = lines[0].strip() if len(lines) == 1 else f"{len(lines)} text lines: {lines}"
    return f"{line!r} json {facts}"


def _fmt_states(states: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{k}={v}" for k, v in states.items()) + "}"


# -- one observation of a page -------------------------------------------------------------------


@dataclass
class Observation:
    label: str
    text: str
    view: dict[str, Any]
    controls: list[dict[str, Any]]
    problems: list[str] = field(default_factory=list)

    def named(self, name: str) -> list[dict[str, Any]]:
        return [c for c in self.controls if c.get("name") == name]

    def one(self, name: str, role: str | None = None) -> dict[str, Any]:
        """The one control named ``name`` (AssertionError naming what was listed instead)."""
        found = [c for c in self.named(name) if role is None or c.get("role") == role]
        if len(found) != 1:
            near = [
                show(c, self.text) for c in self.controls if name.lower() in str(c.get("name", "")).lower()
            ]
            raise AssertionError(
                f"{self.label}: expected exactly one control named {name!r}"
                + (f" with role {role}" if role else "")
                + f", browserx listed {len(found)}: {[show(c, self.text) for c in found]}; "
                f"controls with a similar name: {near}\n--- text view ---\n{self.text}"
            )
        return found[0]

    def expect(self, ok: bool, message: str) -> None:
        if not ok:
            self.problems.append(f"{self.label}: {message}")


def observe(bx: Client, tab: int, label: str) -> Observation:
    view = bx.snapshot(tab=tab, format="json")["json"]
    text = bx.snapshot(tab=tab)["text"]
    obs = Observation(label, text, view, json_controls(view))
    ids = Counter(c["id"] for c in obs.controls)
    twice = {i: n for i, n in ids.items() if n > 1}
    obs.expect(
        not twice,
        f"IDs listed more than once in the json view: "
        f"{[show(c, text) for c in obs.controls if c['id'] in twice]}",
    )
    in_text = Counter(int(m) for line in text.splitlines() for m in ID_ON_LINE.findall(line))
    twice_text = {i: n for i, n in in_text.items() if n > 1}
    obs.expect(
        not twice_text,
        f"IDs on more than one text line: {[(i, lines_of(text, i)) for i in twice_text]}",
    )
    return obs


def compare_with_chrome(obs: Observation, driver: WebDriver) -> None:
    """Every interactive AX node in the viewport is one of our controls (role, name, states);
    the negative controls are nowhere."""
    theirs = chrome_controls(driver)
    unused = list(obs.controls)
    for ax in theirs:
        same = [c for c in unused if c.get("role") == ax.role and _collapse(c.get("name", "")) == ax.name]
        if not same and not ax.name:  # our label hunt may name what Chrome leaves unnamed
            same = [c for c in unused if c.get("role") == ax.role and c.get("name_from") == "nearby text"]
        exact = [c for c in same if our_states(c) == ax.states]
        chrome = f"Chrome {ax.role} {ax.name!r} {_fmt_states(ax.states)} at {ax.where}"
        if ax.frame != "main":
            chrome += f" in frame {ax.frame}" + (
                " (scrolled out of the frame's view)" if ax.frame_hidden else ""
            )
        if exact:
            unused.remove(exact[0])
        elif same:
            unused.remove(same[0])
            obs.problems.append(
                f"{obs.label}: states differ: {chrome}; browserx {_fmt_states(our_states(same[0]))}: "
                f"{show(same[0], obs.text)}"
            )
        else:
            by_name = [c for c in obs.controls if _collapse(c.get("name", "")) == ax.name and ax.name]
            by_role = sorted({c.get("name", "") for c in unused if c.get("role") == ax.role})
            hint = (
                f"browserx has that name as {[show(c, obs.text) for c in by_name]}"
                if by_name
                else f"browserx has no control named {ax.name!r}; its unmatched {ax.role} names: {by_role}"
            )
            obs.problems.append(f"{obs.label}: not listed: {chrome}; {hint}")
    for name in driver.execute_script(NEGATIVES_JS):
        listed = [c for c in obs.controls if name in str(c.get("name", ""))]
        if listed:
            obs.problems.append(
                f"{obs.label}: negative control {name!r} (invisible) is listed: {[show(c, obs.text) for c in listed]}"
            )
        elif name in obs.text:
            shown = [line for line in obs.text.splitlines() if name in line]
            obs.problems.append(
                f"{obs.label}: negative control {name!r} (invisible) shows in the text view: {shown}"
            )


def assert_clean(*observations: Observation) -> None:
    problems = [p for obs in observations for p in obs.problems]
    if problems:
        views = "\n".join(f"--- text view of {o.label} ---\n{o.text}" for o in observations if o.problems)
        raise AssertionError(f"{len(problems)} problem(s):\n" + "\n".join(problems) + "\n" + views)


@pytest.fixture
def go(browser: Browser, bx: Client, servers: Servers) -> Iterator[Any]:
    def opener(page: str) -> int:
        return open_page(browser, bx, servers.url(page))

    yield opener


def act(obs: Observation, what: str, call: Any) -> dict[str, Any] | None:
    """Run one action; a browserx error becomes a problem (with its code and message)."""
    try:
        result: dict[str, Any] = call()
    except BrowserxError as exc:
        obs.problems.append(
            f"{obs.label}: {what} failed: {type(exc).__name__} {getattr(exc, 'code', '')}: {exc}"
        )
        return None
    if not result.get("success"):
        obs.problems.append(f"{obs.label}: {what} did not succeed: {result}")
    return result


# -- every page against Chrome's accessibility tree ---------------------------------------------


@pytest.mark.parametrize("page", PAGES)
def test_view_lists_what_chrome_accessibility_tree_has(
    browser: Browser, bx: Client, go: Any, page: str
) -> None:
    tab = go(page)
    obs = observe(bx, tab, page)
    compare_with_chrome(obs, browser.driver)
    assert_clean(obs)


# -- page by page -----------------------------------------------------------------------------


def test_patterns_hidden_parts_and_links(browser: Browser, bx: Client, go: Any) -> None:
    page = "patterns.html"
    obs = observe(bx, go(page), page)
    # Images inside links name the link; links inside <h5> are links with their href.
    for name, href in [
        ("Canal houses in Amsterdam at dusk", "/shows/europe"),
        ("Mountain lake in autumn", "/gallery/lake"),
        ("Dynamic Europe: Amsterdam, Prague, Berlin", "/shows/europe"),
        ("Designing accessible carousels", "/articles/carousels"),
        ("When to use tabs", "/articles/tabs"),
    ]:
        found = [c for c in obs.named(name) if c.get("role") == "link"]
        obs.expect(
            len(found) == 1 and found[0].get("href") == href,
            f"link {name!r} → {href}: browserx listed {[show(c, obs.text) for c in obs.named(name)]}",
        )
    # What is display:none (closed accordion sections, inactive tab panels, other slides) is not listed.
    for name in ("Address line 1", "City", "Shipping street", "Read about Andersen", "Tokyo skyline at night",
                 "Tokyo Nights: A Food Tour", "Andes Trek: Ten Days on Foot", "Start a return",
                 "Contact support"):  # fmt: skip
        obs.expect(
            not obs.named(name), f"hidden {name!r} is listed: {[show(c, obs.text) for c in obs.named(name)]}"
        )
    # Visually hidden text names the carousel's prev/next buttons.
    for name in ("Previous slide", "Next slide"):
        found = [c for c in obs.named(name) if c.get("role") == "button"]
        obs.expect(
            len(found) == 1, f"button {name!r} (named by .visually-hidden text) not listed once: {found}"
        )
    assert_clean(obs)


def test_grids_hidden_rows_and_scrolled_options(browser: Browser, bx: Client, go: Any) -> None:
    page = "patterns-grids.html"
    obs = observe(bx, go(page), page)
    collapsed = "re: re: Treegrids are awesome Shizzle forever billy@dangerous.fish"
    obs.expect(
        not [c for c in obs.controls if "Shizzle forever" in str(c.get("name", ""))],
        f"the collapsed treegrid row {collapsed!r} is listed",
    )
    # Options below the listbox's scroll are listed, outside the view of its scroll container.
    for name in ("Mendelevium", "Nobelium"):
        found = [c for c in obs.named(name) if c.get("role") == "option"]
        obs.expect(
            len(found) == 1 and "position" in found[0],
            f"option {name!r} (scrolled out of its listbox) should be listed with a position: "
            f"{[show(c, obs.text) for c in obs.named(name)]}",
        )
    found = [c for c in obs.named("Neptunium") if c.get("role") == "option"]
    obs.expect(
        len(found) == 1 and "position" not in found[0],
        f"option 'Neptunium' is in view: {[show(c, obs.text) for c in found]}",
    )
    assert_clean(obs)


def test_menus_closed_submenus_and_feed_in_scrolled_iframe(browser: Browser, bx: Client, go: Any) -> None:
    page = "patterns-menus.html"
    obs = observe(bx, go(page), page)
    for name in ("Sans-serif", "Serif", "Monospace", "Larger", "Black"):
        obs.expect(not obs.named(name), f"item {name!r} of a closed menu is listed")
    # The feed's first articles are in the frame's view; the last ones are below its scroll.
    frame = [c for c in json_controls(obs.view) if c.get("name") == "Bookmark Tito's Tacos"]
    obs.expect(
        len(frame) == 1 and "position" not in frame[0],
        f"'Bookmark Tito's Tacos' (first article, in view): {[show(c, obs.text) for c in frame]}",
    )
    for name in ("Bookmark Harbor Fish Market", "Bookmark Le Petit Four"):
        found = obs.named(name)
        obs.expect(
            len(found) == 1 and "position" in found[0],
            f"{name!r} (an article below the iframe's scroll) should be listed with a position: "
            f"{[show(c, obs.text) for c in found]}",
        )
    obs.expect(
        len(obs.named("Like")) == 8, f"8 'Like' buttons in the feed, browserx listed {len(obs.named('Like'))}"
    )
    assert_clean(obs)


@pytest.mark.parametrize("page", ["realapp-shell.html", "realapp-shell.html?propagate"])
def test_shell_app_under_a_zero_height_clipping_body(
    browser: Browser, bx: Client, go: Any, page: str
) -> None:
    tab = go(page)
    obs = observe(bx, tab, page)
    assert browser.driver.execute_script("return document.body.getBoundingClientRect().height") == 0
    for name in ("File", "Edit", "View", "Run", "Kernel", "Help"):
        found = [c for c in obs.named(name) if c.get("role") == "menuitem"]
        obs.expect(len(found) == 1, f"menubar item {name!r} not listed as a menuitem: {obs.named(name)}")
    for title in ("New Launcher", "New Folder", "Upload Files", "Refresh the file browser.",
                  "Save and create checkpoint (Ctrl+S)", "Run this cell and advance (Shift+Enter)"):  # fmt: skip
        found = [c for c in obs.named(title) if c.get("role") == "button"]
        obs.expect(
            len(found) == 1, f"toolbar button {title!r} (named by title) not listed: {obs.named(title)}"
        )
    for tab_title in ("File Browser (Ctrl+Shift+F)", "Table of Contents"):
        found = [c for c in obs.named(tab_title) if c.get("role") == "tab"]
        obs.expect(
            len(found) == 1, f"side bar tab {tab_title!r} (named by title) not listed: {obs.named(tab_title)}"
        )
    # The file list: Lumino handles its clicks on the listing node; every file is a target.
    for file in ("data", "analysis.ipynb", "cleanup.py", "README.md"):
        word = re.compile(rf"(?:^|\s|: ){re.escape(file)}(?:\s|$)")
        found = [c for c in obs.controls if word.search(str(c.get("name", ""))) and c.get("role") != "tab"]
        obs.expect(
            len(found) == 1, f"file {file!r} not listed once with an ID: {[show(c, obs.text) for c in found]}"
        )
    # The fixed toast escapes its static overflow:hidden, 0 px box and the clipping file browser.
    dismiss = obs.named("Dismiss")
    obs.expect(
        len(dismiss) == 1 and "position" not in dismiss[0] and "covered" not in dismiss[0],
        f"toast button 'Dismiss' (position: fixed, visible) should be listed in view: "
        f"{[show(c, obs.text) for c in dismiss]}",
    )
    # Everything of the shell is on screen and nothing covers it.
    for control in obs.controls:
        obs.expect(
            "position" not in control and "covered" not in control,
            f"{show(control, obs.text)} is on screen and uncovered",
        )
    # Lumino's menu opens on mousedown, attached to the 0 px body, positioned absolutely: it is visible.
    file_menu = [c for c in obs.named("File") if c.get("role") == "menuitem"]
    if file_menu:
        act(obs, "click menuitem 'File'", lambda: bx.click(file_menu[0]["id"], tab=tab))
        obs.expect(js(browser, "!!document.querySelector('.lm-Menu')"), "the File menu did not open")
        opened = observe(bx, tab, f"{page} (File menu open)")
        compare_with_chrome(opened, browser.driver)
        found = [
            c
            for c in opened.controls
            if c.get("role") == "menuitem" and str(c.get("name", "")).startswith("New Launcher")
        ]
        opened.expect(len(found) == 1, f"menu item 'New Launcher' of the open File menu not listed: {found}")
        if found:
            act(opened, "click menuitem 'New Launcher'", lambda: bx.click(found[0]["id"], tab=tab))
            opened.expect(
                "command New Launcher" in js(browser, "window.shellLog"),
                f"'New Launcher' was not run: shellLog {js(browser, 'window.shellLog')}",
            )
        assert_clean(obs, opened)
    assert_clean(obs)


def test_react_delegated_handlers_and_visually_hidden_names(browser: Browser, bx: Client, go: Any) -> None:
    page = "realapp-react.html"
    obs = observe(bx, go(page), page)
    assert js(browser, "typeof React.version") == "string"
    for name in ("Apollo", "Borealis", "Cassini"):
        obs.expect(
            len(obs.named(name)) == 1,
            f"React <h3 onClick> {name!r} not listed once with an ID: {obs.named(name)}",
        )
    for row in ("Deployed Apollo v2.1 to production", "Merged pull request #482 in Borealis",
                "Closed issue #97 in Cassini", "Invited dana@example.com to Apollo"):  # fmt: skip
        obs.expect(
            len(obs.named(row)) == 1,
            f"React <div onClick> row {row!r} not listed once with an ID: {obs.named(row)}",
        )
    toggle = obs.named("Toggle theme")
    obs.expect(
        len(toggle) == 1 and toggle[0].get("role") == "button",
        f"theme toggle named by .visually-hidden text: {[show(c, obs.text) for c in toggle]}",
    )
    assert_clean(obs)


def test_custom_checkboxes_switches_and_web_components(browser: Browser, bx: Client, go: Any) -> None:
    page = "realapp-custom-controls.html"
    obs = observe(bx, go(page), page)
    for name, role, checked_js in [
        ("Remember this device", "checkbox", "document.getElementById('remember').checked"),
        ("Send me product updates", "checkbox", "document.getElementById('updates').checked"),
        ("Bold text", "checkbox", "document.getElementById('btn-bold').checked"),
        ("Wrap lines", "checkbox", "document.getElementById('btn-wrap').checked"),
        ("Small", "radio", "document.getElementById('size-s').checked"),
        ("Medium", "radio", "document.getElementById('size-m').checked"),
        ("Airplane mode", "checkbox", "document.getElementById('airplane').checked"),
        ("Wi-Fi", "switch", "document.getElementById('wifi').checked"),
        ("Send me a copy", "checkbox", "document.getElementById('copy').checked"),
    ]:
        found = obs.named(name)
        checked = js(browser, checked_js)
        obs.expect(
            len(found) == 1
            and found[0].get("role") == role
            and bool(found[0].get("checked")) is checked
            and "covered" not in found[0]
            and "position" not in found[0],
            f"{name!r} should be listed once as a {role}{' (checked)' if checked else ''}, in view, not covered "
            f"(not by its own label or host either): {[show(c, obs.text) for c in found]}",
        )
    for name, role in [("Arrival date", "Date"), ("Arrival time", "InputTime"), ("Meeting start", "DateTime"),
                       ("Card expiry month", "DateTime"), ("Sprint week", "DateTime"), ("Accent colour", "ColorWell"),
                       ("Volume", "slider")]:  # fmt: skip
        found = obs.named(name)
        obs.expect(
            len(found) == 1 and found[0].get("role") == role,
            f"{name!r} as {role}: {[show(c, obs.text) for c in found]}",
        )
    assert_clean(obs)


# -- actions by ID, verified in the page -----------------------------------------------------------


def test_accordion_and_disclosures_open_by_id(browser: Browser, bx: Client, go: Any) -> None:
    page = "patterns.html"
    tab = go(page)
    obs = observe(bx, tab, page)
    billing = obs.one("Billing Address", "button")
    act(obs, "click 'Billing Address'", lambda: bx.click(billing["id"], tab=tab))
    obs.expect(
        js(browser, "document.getElementById('accordion2id').getAttribute('aria-expanded')") == "true"
        and js(browser, "!document.getElementById('sect2').hidden"),
        f"the Billing Address section did not open: log {js(browser, 'window.patternLog')}",
    )
    returns = obs.one("What is the return policy?", "DisclosureTriangle")
    act(obs, "click summary 'What is the return policy?'", lambda: bx.click(returns["id"], tab=tab))
    obs.expect(
        js(browser, "document.getElementById('faq-returns').open") is True, "the <details> did not open"
    )
    more = obs.one("Show more information", "button")
    act(obs, "click disclosure button 'Show more information'", lambda: bx.click(more["id"], tab=tab))
    obs.expect(js(browser, "!document.getElementById('more-info').hidden"), "the disclosure did not open")
    after = observe(bx, tab, f"{page} (Billing, returns, more information open)")
    compare_with_chrome(after, browser.driver)
    for name in ("Address line 1", "City", "Start a return", "Contact support"):
        after.expect(
            len(after.named(name)) == 1, f"{name!r} (now shown) is not listed once: {after.named(name)}"
        )
    after.expect(
        after.one("Billing Address", "button").get("expanded") is True, "Billing Address not expanded"
    )
    after.expect(
        after.one("Billing Address", "button")["id"] == billing["id"], "Billing Address changed its ID"
    )
    assert_clean(obs, after)


def test_tab_switches_panel(browser: Browser, bx: Client, go: Any) -> None:
    page = "patterns.html"
    tab = go(page)
    obs = observe(bx, tab, page)
    carl = obs.one("Carl Andersen", "tab")
    act(obs, "click tab 'Carl Andersen'", lambda: bx.click(carl["id"], tab=tab))
    obs.expect(
        js(browser, "document.getElementById('tab-2').getAttribute('aria-selected')") == "true"
        and browser.driver.find_element(By.ID, "tabpanel-2").is_displayed(),
        f"tab 2 not selected: log {js(browser, 'window.patternLog')}",
    )
    after = observe(bx, tab, f"{page} (tab 2)")
    after.expect(
        after.one("Carl Andersen", "tab").get("selected") is True,
        "tab 'Carl Andersen' not selected in the view",
    )
    after.expect(
        len(after.named("Read about Andersen")) == 1, "the link of the now visible panel is not listed"
    )
    after.expect(not after.named("Read about Ahlefeldt"), "the link of the now hidden panel is still listed")
    # The carousel's next button and switch toggles work by ID too.
    nxt = after.one("Next slide", "button")
    act(after, "click 'Next slide'", lambda: bx.click(nxt["id"], tab=tab))
    after.expect(
        js(browser, "document.getElementById('carousel-item-2').classList.contains('active')"),
        "the carousel did not move to slide 2",
    )
    switch = after.one("Notifications", "switch")
    act(after, "click switch 'Notifications'", lambda: bx.click(switch["id"], tab=tab))
    after.expect(
        js(browser, "document.getElementById('notify-switch').getAttribute('aria-checked')") == "false",
        "the Notifications switch did not turn off",
    )
    final = observe(bx, tab, f"{page} (slide 2, notifications off)")
    compare_with_chrome(final, browser.driver)
    assert_clean(obs, after, final)


def test_sort_by_column_header(browser: Browser, bx: Client, go: Any) -> None:
    page = "patterns-grids.html"
    tab = go(page)
    obs = observe(bx, tab, page)
    header = obs.one("Description", "columnheader")
    act(obs, "click column header 'Description'", lambda: bx.click(header["id"], tab=tab))
    obs.expect(
        js(browser, "document.querySelector('th[data-key=description]').getAttribute('aria-sort')")
        == "ascending",
        f"the grid was not sorted by Description: log {js(browser, 'window.patternLog')}",
    )
    after = observe(bx, tab, f"{page} (sorted by Description)")
    compare_with_chrome(after, browser.driver)
    described = after.one("Description", "columnheader")
    after.expect(
        described.get("sort") == "ascending" and "sort" not in after.one("Date", "columnheader"),
        f"after sorting by Description: {show(described, after.text)}; "
        f"{show(after.one('Date', 'columnheader'), after.text)}",
    )
    assert_clean(obs, after)


def test_treegrid_row_selects_by_click_and_expands_by_key(browser: Browser, bx: Client, go: Any) -> None:
    page = "patterns-grids.html"
    tab = go(page)
    obs = observe(bx, tab, page)
    row = obs.one("Sprint planning Agenda for Monday lead@team.example", "row")
    act(obs, "click treegrid row 'Sprint planning'", lambda: bx.click(row["id"], tab=tab))
    obs.expect(
        js(browser, "document.getElementById('row-planning').getAttribute('aria-selected')") == "true",
        f"the treegrid row was not selected: log {js(browser, 'window.patternLog')}",
    )
    act(obs, "key ArrowRight on the row", lambda: bx.key("ArrowRight", id=row["id"], tab=tab))
    obs.expect(
        js(browser, "document.getElementById('row-planning').getAttribute('aria-expanded')") == "true"
        and browser.driver.find_element(By.ID, "row-agenda").is_displayed(),
        f"the treegrid row did not expand: log {js(browser, 'window.patternLog')}",
    )
    after = observe(bx, tab, f"{page} (row selected and expanded)")
    compare_with_chrome(after, browser.driver)
    assert_clean(obs, after)


def test_select_in_native_multiple_select_and_aria_listbox(browser: Browser, bx: Client, go: Any) -> None:
    page = "patterns-grids.html"
    tab = go(page)
    obs = observe(bx, tab, page)
    fruit = obs.one("Fruit basket", "listbox")
    act(obs, "select 'Banana' in <select multiple>", lambda: bx.select(fruit["id"], "Banana", tab=tab))
    selected = js(browser, "[...document.getElementById('fruit').selectedOptions].map(o => o.text)")
    obs.expect("Banana" in selected, f"'Banana' not selected in <select multiple>: selected {selected}")
    elements = obs.one("Transuranium elements", "listbox")
    act(obs, "select 'Curium' in the ARIA listbox", lambda: bx.select(elements["id"], "Curium", tab=tab))
    obs.expect(
        js(browser, "document.getElementById('ss_elem_Cm').getAttribute('aria-selected')") == "true",
        f"'Curium' not selected in the ARIA listbox: log {js(browser, 'window.patternLog')}",
    )
    after = observe(bx, tab, f"{page} (Banana, Curium)")
    compare_with_chrome(after, browser.driver)
    assert_clean(obs, after)


def test_menubar_submenu_opens_and_items_act(browser: Browser, bx: Client, go: Any) -> None:
    page = "patterns-menus.html"
    tab = go(page)
    obs = observe(bx, tab, page)
    style = obs.one("Style/Color", "menuitem")
    act(obs, "click menuitem 'Style/Color'", lambda: bx.click(style["id"], tab=tab))
    obs.expect(
        js(browser, "document.getElementById('menu-style').getAttribute('aria-expanded')") == "true",
        "the Style/Color menu did not open",
    )
    opened = observe(bx, tab, f"{page} (Style/Color open)")
    compare_with_chrome(opened, browser.driver)
    italic = [c for c in opened.named("Italic") if c.get("role") == "menuitemcheckbox"]
    opened.expect(len(italic) == 1, f"menuitemcheckbox 'Italic' not listed: {opened.named('Italic')}")
    if italic:
        act(opened, "click menuitemcheckbox 'Italic'", lambda: bx.click(italic[0]["id"], tab=tab))
        opened.expect(
            js(
                browser,
                "[...document.querySelectorAll('[role=menuitemcheckbox]')].find(e => e.textContent === 'Italic').getAttribute('aria-checked')",
            )
            == "true",
            "'Italic' was not checked",
        )
    # The toolbar's radio named by its off-page tooltip text acts by ID.
    center = opened.one("Text align center", "radio")
    act(opened, "click radio 'Text align center'", lambda: bx.click(center["id"], tab=tab))
    opened.expect(
        js(browser, "document.querySelector('[data-command=align-center]').getAttribute('aria-checked')")
        == "true",
        "'Text align center' was not checked",
    )
    assert_clean(obs, opened)


def test_switch_in_closed_shadow_root_toggles(browser: Browser, bx: Client, go: Any) -> None:
    page = "realapp-custom-controls.html"
    tab = go(page)
    obs = observe(bx, tab, page)
    wifi = obs.one("Wi-Fi", "switch")
    act(obs, "click switch 'Wi-Fi' (closed shadow root)", lambda: bx.click(wifi["id"], tab=tab))
    obs.expect(
        js(browser, "document.getElementById('wifi').checked") is True,
        f"the Wi-Fi switch is not on: log {js(browser, 'window.controlLog')}",
    )
    copy = obs.one("Send me a copy", "checkbox")
    act(obs, "click checkbox 'Send me a copy' (open shadow root)", lambda: bx.click(copy["id"], tab=tab))
    obs.expect(
        js(browser, "document.getElementById('copy').checked") is True, "'Send me a copy' is not checked"
    )
    after = observe(bx, tab, f"{page} (Wi-Fi on, copy checked)")
    after.expect(after.one("Wi-Fi", "switch").get("checked") is True, "the view does not show Wi-Fi checked")
    after.expect(
        after.one("Send me a copy", "checkbox").get("checked") is True,
        "the view does not show the copy checked",
    )
    compare_with_chrome(after, browser.driver)
    assert_clean(obs, after)


def test_visually_hidden_checkbox_is_checked_through_its_label(browser: Browser, bx: Client, go: Any) -> None:
    page = "realapp-custom-controls.html"
    tab = go(page)
    obs = observe(bx, tab, page)
    remember = obs.one("Remember this device", "checkbox")
    act(
        obs,
        "check 'Remember this device' (opacity 0 input under its label)",
        lambda: bx.check(remember["id"], tab=tab),
    )
    obs.expect(
        js(browser, "document.getElementById('remember').checked") is True,
        "'Remember this device' not checked",
    )
    airplane = obs.one("Airplane mode", "checkbox")
    act(obs, "click 'Airplane mode' (sr-only input in its label)", lambda: bx.click(airplane["id"], tab=tab))
    obs.expect(
        js(browser, "document.getElementById('airplane').checked") is True, "'Airplane mode' not checked"
    )
    wrap = obs.one("Wrap lines", "checkbox")
    act(obs, "click 'Wrap lines' (clipped btn-check input)", lambda: bx.click(wrap["id"], tab=tab))
    obs.expect(js(browser, "document.getElementById('btn-wrap').checked") is True, "'Wrap lines' not checked")
    large = obs.one("Large", "radio")
    act(obs, "click radio 'Large' (clipped btn-check input)", lambda: bx.click(large["id"], tab=tab))
    obs.expect(js(browser, "document.getElementById('size-l').checked") is True, "'Large' not checked")
    after = observe(bx, tab, f"{page} (checked)")
    for name in ("Remember this device", "Airplane mode", "Wrap lines", "Large"):
        found = after.named(name)
        after.expect(
            len(found) == 1 and found[0].get("checked") is True,
            f"{name!r} not shown checked after the action: {[show(c, after.text) for c in found]}",
        )
    assert_clean(obs, after)


def test_type_a_date_into_a_date_input(browser: Browser, bx: Client, go: Any) -> None:
    page = "realapp-custom-controls.html"
    tab = go(page)
    obs = observe(bx, tab, page)
    arrival = obs.one("Arrival date", "Date")
    act(
        obs, "type 2026-11-26 into 'Arrival date'", lambda: bx.type_text(arrival["id"], "2026-11-26", tab=tab)
    )
    value = js(browser, "document.getElementById('arrival').value")
    events = [e for e in js(browser, "window.controlLog") if " arrival " in e]
    obs.expect(value == "2026-11-26", f"<input type=date> value is {value!r}, expected '2026-11-26'")
    obs.expect(
        "input arrival 2026-11-26" in events and "change arrival 2026-11-26" in events,
        f"input and change events with 2026-11-26 expected, the page saw {events}",
    )
    assert_clean(obs)


def test_react_clickable_heading_and_row(browser: Browser, bx: Client, go: Any) -> None:
    page = "realapp-react.html"
    tab = go(page)
    obs = observe(bx, tab, page)
    borealis = obs.one("Borealis")
    act(obs, "click React <h3 onClick> 'Borealis'", lambda: bx.click(borealis["id"], tab=tab))
    obs.expect(
        js(browser, "document.getElementById('detail').textContent") == "Opened Borealis",
        f"clicking the <h3> did not open Borealis: log {js(browser, 'window.appLog')}",
    )
    row = obs.one("Closed issue #97 in Cassini")
    act(obs, "click React <div onClick> row", lambda: bx.click(row["id"], tab=tab))
    obs.expect(
        "activity 2" in js(browser, "window.appLog"), f"row click not seen: {js(browser, 'window.appLog')}"
    )
    assert_clean(obs)


def moved_ids(obs: Observation, before: dict[int, tuple[Any, Any]]) -> None:
    """An ID that named control A before and now names control B, which had another ID before:
    the ID moved to a different element."""
    first_id: dict[tuple[Any, Any], int] = {}
    for control_id, key in before.items():
        first_id.setdefault(key, control_id)
    for control in obs.controls:
        key = (control.get("role"), control.get("name"))
        old = before.get(control["id"])
        prior = first_id.get(key)
        obs.expect(
            old is None or old == key or prior is None or prior == control["id"],
            f"ID {control['id']} named {old} before and now names {show(control, obs.text)}, "
            f"which was ID {prior} before",
        )


def test_react_modal_through_portal(browser: Browser, bx: Client, go: Any) -> None:
    page = "realapp-react.html"
    tab = go(page)
    obs = observe(bx, tab, page)
    before_ids = {c["id"]: (c.get("role"), c.get("name")) for c in obs.controls}
    new = obs.one("New project", "button")
    act(obs, "click 'New project'", lambda: bx.click(new["id"], tab=tab))
    obs.expect(js(browser, "!!document.querySelector('[role=dialog]')"), "the modal did not open")
    modal = observe(bx, tab, f"{page} (modal open)")
    compare_with_chrome(modal, browser.driver)
    # Behind the modal everything is inert and aria-hidden: not listed.
    for name in ("New project", "Toggle theme", "Apollo", "Deployed Apollo v2.1 to production"):
        modal.expect(not modal.named(name), f"{name!r} behind the modal (inert, aria-hidden) is listed: "
                     f"{[show(c, modal.text) for c in modal.named(name)]}")  # fmt: skip
    moved_ids(modal, before_ids)
    name_field = [c for c in modal.named("Project name") if c.get("role") == "textbox"]
    modal.expect(len(name_field) == 1, f"textbox 'Project name' in the modal: {modal.named('Project name')}")
    if name_field:
        act(
            modal,
            "type 'Zephyr' into 'Project name'",
            lambda: bx.type_text(name_field[0]["id"], "Zephyr", tab=tab),
        )
    create = [c for c in modal.named("Create") if c.get("role") == "button"]
    modal.expect(len(create) == 1, f"button 'Create' in the modal: {modal.named('Create')}")
    if create:
        act(modal, "click 'Create' in the modal", lambda: bx.click(create[0]["id"], tab=tab))
        log = js(browser, "window.appLog")
        modal.expect("created Zephyr" in log, f"'Create' did not create Zephyr: log {log}")
    closed = observe(bx, tab, f"{page} (modal closed)")
    closed.expect(not js(browser, "!!document.querySelector('[role=dialog]')"), "the modal is still open")
    closed.expect(
        len(closed.named("Zephyr")) == 1, f"the new project 'Zephyr' is not listed: {closed.named('Zephyr')}"
    )
    compare_with_chrome(closed, browser.driver)
    moved_ids(closed, before_ids)
    assert_clean(obs, modal, closed)
