"""browserx vs Playwright on the real-app corpus (tests/e2e/apps/corpus.py): Django admin, Swagger UI,
Redoc, Datasette, MkDocs Material, JupyterLab and Shoelace, served locally.

One headless Chromium (bench/run.py's ``start_browser``: system binary, browserx extension and host,
a CDP port) is shared: Playwright attaches over CDP and drives the corpus' steps (``page.goto``,
``page.evaluate``); browserx observes and acts on the same tab through its control socket.
Per page and tool:

* found: the page's hand-written expectations (``Expect`` role + name) listed as something to act
  on — browserx: a control with an ID, that role and name (the matching tests/e2e/test_real_apps.py
  does); Playwright: an ``aria_snapshot(mode="ai")`` line with a ``[ref=…]``, that role and name;
* tokens of the whole view (browserx's default text view, Playwright's snapshot), cl100k_base;
* snapshot latency, interleaved runs after a warm-up each: ``Client.snapshot`` client-side (the full
  round trip through the control socket), ``page.aria_snapshot(mode="ai")``;
* actions: each page's actions from a freshly opened page per tool (target found in the tool's own
  view, acted on by ID / aria ref), verified by the action's ``check`` on the page's own state;
* the page's element count and no duplicate IDs in browserx's text or json view.

The report goes to docs/CORPUS.md and the summary table to stdout.

    make bench-corpus     # or: .venv-bench/bin/python bench/corpus.py [--runs N] [--apps redoc,shoelace]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import platform
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from run import ROOT, Browser, fmt_ms, load, machine_info, short_error, start_browser, version_of
from tests.e2e.apps.corpus import (
    APPS,
    Action,
    App,
    Expect,
    Page,
    match_expectations,
    norm_name,
    run_steps,
    wait_for,
)

from browserx import BrowserxError, Client, _native
from browserx.views.text import TEXT_ROLES
from browserx.views.tokens import count_tokens

REPORT = ROOT / "docs" / "CORPUS.md"
SMALL_PAGE = 3000  # elements: pages under this are held to the latency floor
LATENCY_FLOOR = 1.2  # browserx median ÷ Playwright median on small pages
PW_ACTION_TIMEOUT_MS = 5000  # Playwright's actionability wait per action call
OPEN_ATTEMPTS = 2
TARGET_WAIT_S = 3.0  # an action's target not in the view yet: look again until this long
# browserx's time per snapshot (its stats): capture (page → host), build (host CPU), view (render,
# budget), stability (waiting for a quiet DOM first); rest = socket, relay, token count.
SPLIT = ("capture_ms", "build_ms", "view_ms", "stability", "rest")

# Every element, open shadow roots included (same-origin iframes are not descended into).
COUNT_ELEMENTS = """
let n = 0;
const walk = (root) => { for (const el of root.querySelectorAll('*')) { n++; if (el.shadowRoot) walk(el.shadowRoot); } };
walk(document);
return n;"""


# -- browserx's view: controls with IDs (as tests/e2e/test_real_apps.py reads them) ------------------

_TEXT_ROLE = {**{r: r for r in TEXT_ROLES.values()}, **TEXT_ROLES}  # Chrome's role or the text view's
ID_AT = re.compile(r"(?:^|(?<=[\s|]))\[(\d+)\] ")  # a control's "[ID] " in a text view line


def text_role(role: str) -> str:
    return _TEXT_ROLE.get(role, role)


@dataclass
class Control:
    key: str  # browserx: its ID; Playwright: its ref (or "line N" when the line has none)
    role: str
    name: str
    line: str  # the line the tool printed for it ("" when browserx's text view does not show it)
    lineno: int
    pointer: bool = False  # Playwright: [cursor=pointer]
    content: str = ""  # Playwright: the names and text of the lines nested under it


def json_nodes(view: dict[str, Any]) -> Iterator[dict[str, Any]]:
    stack = [view["page"]["body"]]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.get("children", [])))


def browserx_controls(text: str, view: dict[str, Any]) -> list[Control]:
    """Every control with an ID in document order: role and name from the json view, its line from
    the text view (only those the text view shows count as listed)."""
    lines: dict[int, tuple[str, int]] = {}
    for lineno, line in enumerate(text.splitlines()):
        for m in ID_AT.finditer(line):
            lines.setdefault(int(m.group(1)), (line.strip(), lineno))
    out = []
    for node in json_nodes(view):
        if "id" in node:
            line, lineno = lines.get(int(node["id"]), ("", -1))
            out.append(
                Control(str(node["id"]), str(node.get("role", "")), str(node.get("name", "")), line, lineno)
            )
    return out


def duplicate_ids(text: str, view: dict[str, Any]) -> list[str]:
    counts = Counter(int(m.group(1)) for line in text.splitlines() for m in ID_AT.finditer(line))
    found = [f"text view: [{i}] ×{n}" for i, n in counts.items() if n > 1]
    ids = Counter(int(node["id"]) for node in json_nodes(view) if "id" in node)
    return found + [f"json view: id {i} ×{n}" for i, n in ids.items() if n > 1]


def browserx_fits(expect: Expect, control: Control) -> bool:
    return (
        bool(control.line)
        and text_role(control.role) in {text_role(r) for r in expect.roles}
        and expect.matches_name(control.name)
    )


# -- Playwright's view: aria snapshot lines ----------------------------------------------------------

# ``- role "name" [attr] [ref=e12] [cursor=pointer]: text`` (the key single-quoted when YAML needs it).
_PW_KEY = re.compile(
    r'^(?P<role>[A-Za-z][\w-]*)(?: "(?P<name>(?:[^"\\]|\\.)*)")?(?P<attrs>(?: \[[^\]]*\])*)$'
)
# Chrome roles (as the corpus writes them) → what Playwright's aria snapshot calls them. Roles with no
# ARIA equivalent come out as ``generic``; browserx's ``clickable`` (no role, reacts to clicks) is a
# generic (or an icon ``img``) line that Playwright marks ``[cursor=pointer]``.
PW_ROLES: dict[str, tuple[tuple[str, bool], ...]] = {
    "clickable": (("generic", True), ("img", True)),
    "DisclosureTriangle": (("generic", False),),
    "LabelText": (("generic", False),),
    "label": (("generic", False),),
}


def _unquote_yaml(value: str) -> str:
    value = value.strip()
    if value.startswith('"'):
        with contextlib.suppress(ValueError):
            return str(json.loads(value))
    if value.startswith("'") and value.endswith("'") and len(value) >= 2:
        return value[1:-1].replace("''", "'")
    return value


def _split_key(body: str) -> tuple[str, str]:
    """A snapshot line's key (role, name, attributes) and its inline text after ``:``."""
    if body.startswith("'"):
        i, out = 1, []
        while i < len(body):
            if body[i] == "'":
                if body[i + 1 : i + 2] == "'":
                    out.append("'")
                    i += 2
                    continue
                break
            out.append(body[i])
            i += 1
        rest = body[i + 1 :]
        return "".join(out), _unquote_yaml(rest[1:]) if rest.startswith(":") else ""
    m = re.search(r":(?: |$)", body)
    if m is None:
        return body, ""
    return body[: m.start()], _unquote_yaml(body[m.end() :])


def playwright_controls(text: str) -> list[Control]:
    """Every element line of an aria snapshot, in document order (props like ``/url:`` left out). A
    generic's name is its own or, failing that, its inline text."""
    out = []
    open_: list[tuple[int, Control]] = []  # (indent, control) of the lines enclosing this one
    for lineno, raw in enumerate(text.splitlines()):
        stripped = raw.strip()
        if not stripped.startswith("- "):
            continue
        depth = len(raw) - len(raw.lstrip())
        while open_ and open_[-1][0] >= depth:
            open_.pop()
        key, inline = _split_key(stripped[2:])
        m = _PW_KEY.match(key)
        if m is None:  # a prop (``- /url: …``)
            continue
        name = m["name"]
        name = _unquote_yaml(f'"{name}"') if name is not None else ""
        words = " ".join(w for w in (name, inline) if w)
        for _, outer in open_:
            outer.content = f"{outer.content} {words}".strip()
        if m["role"] == "text":
            continue
        if not name and m["role"] == "generic":
            name = inline
        ref = re.search(r"\[ref=([^\]]+)\]", m["attrs"])
        pointer = "[cursor=pointer]" in m["attrs"]
        control = Control(ref[1] if ref else f"line {lineno + 1}", m["role"], name, stripped, lineno, pointer)
        control.content = inline if m["role"] != "generic" else ""
        out.append(control)
        open_.append((depth, control))
    return out


def has_ref(control: Control) -> bool:
    return not control.key.startswith("line ")


def pw_roles(expect: Expect) -> set[tuple[str, bool]]:
    return {pr for r in expect.roles for pr in PW_ROLES.get(r, ((r, False),))}


def playwright_fits(expect: Expect, control: Control, need_ref: bool = True) -> bool:
    if need_ref and not has_ref(control):
        return False
    roles = pw_roles(expect)
    role_ok = (control.role, False) in roles or (control.pointer and (control.role, True) in roles)
    return role_ok and expect.matches_name(control.name)


# -- matching expectations to controls ---------------------------------------------------------------


def match(
    expected: tuple[Expect, ...], controls: list[Control], fits: Callable[[Expect, Control], bool]
) -> dict[int, Control]:
    """As tests/e2e/test_real_apps.py matches (one control per expectation)."""
    return match_expectations(expected, controls, fits, lambda c: c.key)


def similar(expect: Expect, name: str) -> bool:
    want, have = norm_name(expect.name), norm_name(name)
    return bool(want and have) and (want in have or (len(have) >= max(4, len(want) // 3) and have in want))


def explain_browserx(
    expect: Expect, text: str, controls: list[Control], full: list[Control] | None
) -> list[str]:
    """What browserx printed instead of a missing expectation."""
    out: list[str] = []
    want = norm_name(expect.name)
    lines = text.splitlines()
    for c in controls:
        if expect.matches_name(c.name) and want and not browserx_fits(expect, c):
            out.append(
                f"same name as `{c.line}`"
                if c.line
                else f"json view has [{c.key}] {c.role} {c.name!r}, text view hides it"
            )
    for c in controls:
        if c.line and similar(expect, c.name) and not expect.matches_name(c.name):
            out.append(f"similar name: `{c.line}`")
    if want:
        out += [
            f"text without an ID: `{line.strip()}`"
            for line in lines
            if want in norm_name(line) and not ID_AT.search(line)
        ]
    if not out:
        out.append("nothing like it")
    if full is not None:
        in_full = [c for c in full if browserx_fits(expect, c)]
        out.append(
            f"whole-page view (`max_tokens=0`) lists it: `{in_full[0].line}`"
            if in_full
            else "not in the whole-page view either"
        )
    return out[:5]


def explain_playwright(expect: Expect, controls: list[Control]) -> list[str]:
    """What Playwright printed instead of a missing expectation (closest first)."""
    found: list[list[str]] = [[], [], [], []]
    want = norm_name(expect.name)
    unnamed = Expect(expect.role, "", expect.also)
    for c in controls:
        if playwright_fits(expect, c, need_ref=False):
            found[0].append(f"listed without a ref: `{c.line}`")
        elif not c.name and want and want in norm_name(c.content) and playwright_fits(unnamed, c, False):
            found[1].append(f"listed without a name: `{c.line}`, holding {c.content[:120]!r}")
        elif want and expect.matches_name(c.name):
            found[2].append(f"same name as `{c.line}`")
        elif similar(expect, c.name):
            found[3].append(f"similar name: `{c.line}`")
    return [line for bucket in found for line in bucket][:4] or ["nothing like it"]


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


# -- results -------------------------------------------------------------------------------------------


@dataclass
class ToolResult:
    runs_ms: list[float] = field(default_factory=list)
    warmup_ms: float | None = None
    text: str = ""
    tokens: int | None = None
    found: int | None = None
    missing: list[tuple[Expect, list[str]]] = field(default_factory=list)
    error: str | None = None
    splits: list[dict[str, float]] = field(default_factory=list)  # browserx: stats per run

    def split_median(self, key: str) -> float | None:
        values = [s[key] for s in self.splits if key in s]
        return statistics.median(values) if values else None

    @property
    def median(self) -> float | None:
        return statistics.median(self.runs_ms) if self.runs_ms else None

    @property
    def min(self) -> float | None:
        return min(self.runs_ms) if self.runs_ms else None


@dataclass
class ActionRun:
    tool: str
    action: Action
    ok: bool
    detail: str = ""
    call_ms: float | None = None  # client-side time of the acting call(s)
    host_ms: float | None = None  # browserx: the result's duration_ms


@dataclass
class PageResult:
    page: Page
    url: str = ""
    error: str | None = None
    elements: int | None = None
    bx_elements: int | None = None  # browserx's own count (stats), frames included
    ids: int | None = None
    dups: list[str] = field(default_factory=list)
    tools: dict[str, ToolResult] = field(
        default_factory=lambda: {"browserx": ToolResult(), "playwright": ToolResult()}
    )
    actions: list[ActionRun] = field(default_factory=list)

    def verified(self, tool: str) -> tuple[int | None, int]:
        runs = [a for a in self.actions if a.tool == tool]
        return (sum(a.ok for a in runs) if runs else None), len(self.page.actions)

    @property
    def ratio(self) -> float | None:
        bx, pw = self.tools["browserx"].median, self.tools["playwright"].median
        return bx / pw if bx is not None and pw else None


# -- driving the tab ---------------------------------------------------------------------------------


class Session:
    """The shared tab: Playwright's Page (steps, checks, its snapshot and actions) and a browserx
    client (its snapshot and actions), both on the one Chromium."""

    def __init__(self, browser: Browser, dump: Path | None) -> None:
        from playwright.sync_api import sync_playwright

        self.dump = dump
        self.driver = sync_playwright().start()
        try:
            self.pw_browser = self.driver.chromium.connect_over_cdp(browser.cdp_endpoint)
            self.page = self._page()
        except BaseException:
            self.driver.stop()
            raise
        self.bx = Client(timeout=60)
        self.tab: int | None = None
        self.bx_elements: int | None = None  # browserx's own element count (last snapshot's stats)

    def _page(self) -> Any:
        pages = [p for c in self.pw_browser.contexts for p in c.pages]
        if not pages:
            raise RuntimeError("Playwright sees no page")
        page = pages[0]
        page.on("dialog", lambda dialog: dialog.accept())  # beforeunload prompts: leave
        return page

    def reset_bx(self) -> None:
        """A fresh socket after a failed call (a late answer would be read as the next call's)."""
        with contextlib.suppress(Exception):
            self.bx.close()
        self.bx = Client(timeout=60)

    # corpus.Driver
    def goto(self, url: str) -> None:
        self.page.goto(url, wait_until="load", timeout=60_000)

    def run(self, body: str) -> Any:
        return self.page.evaluate(f"() => {{\n{body}\n}}")

    def open(self, page: Page, base: str) -> None:
        for attempt in range(OPEN_ATTEMPTS):
            try:
                if self.page.is_closed():
                    self.page = self._page()
                run_steps(self, base, page.opening())
                break
            except Exception:
                if attempt + 1 == OPEN_ATTEMPTS:
                    raise
        self.tab = self.find_tab()

    def close_page(self, page: Page, base: str) -> None:
        with contextlib.suppress(Exception):
            run_steps(self, base, page.teardown)

    def find_tab(self) -> int:
        tabs = self.bx.tabs()
        for tab in tabs:
            if tab["url"] == self.page.url:
                return int(tab["tabId"])
        if len(tabs) == 1:
            return int(tabs[0]["tabId"])
        raise RuntimeError(f"browserx lists no tab at {self.page.url}: {tabs}")

    # -- snapshots
    def bx_snapshot(self, **options: Any) -> dict[str, Any]:
        try:
            result: dict[str, Any] = self.bx.snapshot(tab=self.tab, **options)
            return result
        except BrowserxError:
            raise
        except Exception:
            self.reset_bx()
            raise

    def bx_text(self, **options: Any) -> str:
        return str(self.bx_snapshot(**options)["text"])

    def bx_controls(self, **options: Any) -> tuple[str, list[Control], dict[str, Any]]:
        text = self.bx_text(**options)
        view = self.bx.snapshot(tab=self.tab, format="json", **options)["json"]
        return text, browserx_controls(text, view), view

    def pw_text(self) -> str:
        return str(self.page.aria_snapshot(mode="ai", timeout=60_000))

    def timed(self, tool: str) -> tuple[float, str, dict[str, float]]:
        """One snapshot, timed around the call; for browserx also where the time went (its stats)."""
        if tool == "playwright":
            t0 = time.perf_counter()
            text = self.pw_text()
            return (time.perf_counter() - t0) * 1000, text, {}
        t0 = time.perf_counter()
        result = self.bx_snapshot(stats=True)
        ms = (time.perf_counter() - t0) * 1000
        stats = result["stats"]
        self.bx_elements = int(stats.get("elements") or 0) or None
        split = {key: float(stats.get(key) or 0) for key in SPLIT[:3]}
        split["stability"] = float((stats.get("stability") or {}).get("waited_ms") or 0)
        split["rest"] = ms - sum(split.values())
        return ms, str(result["text"]), split

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.bx.close()
        with contextlib.suppress(Exception):
            self.pw_browser.close()  # over CDP: disconnects only
        with contextlib.suppress(Exception):
            self.driver.stop()


# -- measuring a page ------------------------------------------------------------------------------


def measure(s: Session, page: Page, base: str, res: PageResult, runs: int) -> None:
    s.open(page, base)
    res.url = s.page.url
    res.elements = int(s.run(COUNT_ELEMENTS))
    order = ("browserx", "playwright")
    for tool in order:  # warm-up, once each
        try:
            res.tools[tool].warmup_ms = s.timed(tool)[0]
        except Exception as exc:
            res.tools[tool].error = f"warm-up failed: {short_error(exc)}"
    for _ in range(runs):  # interleaved: browserx, playwright, browserx, ...
        for tool in order:
            result = res.tools[tool]
            if result.error:
                continue
            try:
                ms, text, split = s.timed(tool)
            except Exception as exc:
                result.error = short_error(exc)
                continue
            result.runs_ms.append(ms)
            result.text = text
            if split:
                result.splits.append(split)

    res.bx_elements = s.bx_elements
    bx, pw = res.tools["browserx"], res.tools["playwright"]
    if bx.text:
        bx.tokens = count_tokens(bx.text)
        view = s.bx.snapshot(tab=s.tab, format="json")["json"]
        controls = browserx_controls(bx.text, view)
        res.ids = sum(1 for c in controls if c.line)
        res.dups = duplicate_ids(bx.text, view)
        matched = match(page.expect, controls, browserx_fits)
        bx.found = len(matched)
        missing = [e for i, e in enumerate(page.expect) if i not in matched]
        full = s.bx_controls(max_tokens=0)[1] if missing else None
        bx.missing = [(e, explain_browserx(e, bx.text, controls, full)) for e in missing]
    if pw.text:
        pw.tokens = count_tokens(pw.text)
        controls = playwright_controls(pw.text)
        matched = match(page.expect, controls, playwright_fits)
        pw.found = len(matched)
        pw.missing = [
            (e, explain_playwright(e, controls)) for i, e in enumerate(page.expect) if i not in matched
        ]
    if bx.missing and pw.text:  # what Playwright lists for browserx's misses
        controls = playwright_controls(pw.text)
        for expect, why in bx.missing:
            hit = next((c for c in controls if playwright_fits(expect, c)), None)
            why.append(f"Playwright: `{hit.line}`" if hit else "Playwright misses it too")
    if s.dump:
        s.dump.mkdir(parents=True, exist_ok=True)
        for tool, result in res.tools.items():
            (s.dump / f"{page.app}-{page.name}.{tool}.txt").write_text(result.text, encoding="utf-8")
    s.close_page(page, base)


# -- actions ----------------------------------------------------------------------------------------


def retry(find: Callable[[], Control | None]) -> tuple[Control | None, int]:
    """Look for an action's target as an agent would: a snapshot, and while the target is not in it
    (the page still rendering the last action's effect), another one, up to TARGET_WAIT_S."""
    deadline = time.monotonic() + TARGET_WAIT_S
    looks = 0
    while True:
        looks += 1
        target = find()
        if target is not None or time.monotonic() > deadline:
            return target, looks
        time.sleep(0.25)


def act_browserx(s: Session, action: Action) -> ActionRun:
    run = ActionRun("browserx", action, False)

    def find() -> Control | None:
        for options in ({}, {"max_tokens": 0}):
            _, controls, _ = s.bx_controls(**options)
            hit = next((c for c in controls if browserx_fits(action.target, c)), None)
            if hit is not None:
                return hit
        return None

    target, looks = retry(find)
    if target is None:
        run.detail = f"target {action.target} not listed (nor in the whole-page view) in {looks} looks"
        return run
    if not s.run(f"return !!({action.before});"):
        run.detail = f"precondition false before acting: {action.before}"
        return run
    element = int(target.key)
    t0 = time.perf_counter()
    try:
        if action.do == "click":
            result = s.bx.click(element, tab=s.tab)
        elif action.do == "type":
            result = s.bx.type_text(element, action.value, tab=s.tab, clear=action.clear)
        elif action.do == "select":
            result = s.bx.select(element, action.value, tab=s.tab)
        elif action.do == "check":
            result = s.bx.check(element, True, tab=s.tab)
        else:
            raise ValueError(f"unknown action {action.do!r}")
    except BrowserxError as exc:
        run.detail = f"`{target.line}`: {short_error(exc)}"
        return run
    except Exception:
        s.reset_bx()
        raise
    run.call_ms = (time.perf_counter() - t0) * 1000
    with contextlib.suppress(TypeError, ValueError):
        run.host_ms = float(result.get("duration_ms"))
    return verify(s, run, f"`{target.line}`")


def act_playwright(s: Session, action: Action) -> ActionRun:
    """By the aria ref of the first snapshot line that fits (as an agent on Playwright MCP acts);
    a line listed without a ref is located with ``get_by_role(role, name=…, exact=True).first``."""
    run = ActionRun("playwright", action, False)

    def find() -> Control | None:
        controls = playwright_controls(s.pw_text())
        hit = next((c for c in controls if playwright_fits(action.target, c)), None)
        return hit or next((c for c in controls if playwright_fits(action.target, c, need_ref=False)), None)

    target, looks = retry(find)
    if target is None:
        run.detail = f"target {action.target} not in the snapshot in {looks} looks"
        return run
    if has_ref(target):
        locator, how = s.page.locator(f"aria-ref={target.key}"), f"`{target.line}`"
    else:
        locator = s.page.get_by_role(target.role, name=target.name, exact=True).first
        how = f"`{target.line}` (no ref: get_by_role)"
    if not s.run(f"return !!({action.before});"):
        run.detail = f"precondition false before acting: {action.before}"
        return run
    timeout = PW_ACTION_TIMEOUT_MS
    elapsed = 0.0
    try:
        t0 = time.perf_counter()
        if action.do == "click":
            locator.click(timeout=timeout)
        elif action.do == "check":
            locator.check(timeout=timeout)
        elif action.do == "type":
            try:
                locator.fill(action.value, timeout=timeout)
            except Exception as exc:  # not an input (a code editor's wrapper): click, then keys
                if "not an <input>" not in str(exc):
                    raise
                locator.click(timeout=timeout)
                if action.clear:
                    s.page.keyboard.press("ControlOrMeta+A")
                s.page.keyboard.type(action.value)
                how += " (fill refused: click + keyboard)"
        elif action.do == "select":
            try:
                locator.select_option(label=action.value, timeout=timeout)
            except Exception as exc:  # an ARIA combobox: open it, then click the option it shows
                if "not a <select>" not in str(exc):
                    raise
                locator.click(timeout=timeout)
                elapsed += (time.perf_counter() - t0) * 1000
                option = next(
                    (c for c in playwright_controls(s.pw_text()) if c.role == "option" and has_ref(c) and norm_name(c.name) == norm_name(action.value)),
                    None,
                )  # fmt: skip
                if option is None:
                    raise RuntimeError(
                        f"no option {action.value!r} in the snapshot after opening it"
                    ) from exc
                t0 = time.perf_counter()
                s.page.locator(f"aria-ref={option.key}").click(timeout=timeout)
                how += f" (not a <select>: click, then `{option.line}`)"
        else:
            raise ValueError(f"unknown action {action.do!r}")
        elapsed += (time.perf_counter() - t0) * 1000
    except Exception as exc:
        run.detail = f"{how}: {short_error(exc)}"
        return run
    run.call_ms = elapsed
    return verify(s, run, how)


def verify(s: Session, run: ActionRun, how: str) -> ActionRun:
    try:
        wait_for(s, run.action.check, run.action.timeout)
    except TimeoutError:
        run.detail = f"{how}: acted, but the page did not change: {run.action.check}"
        return run
    run.ok = True
    run.detail = how
    return run


def run_actions(s: Session, page: Page, base: str, res: PageResult) -> None:
    for tool, act in (("browserx", act_browserx), ("playwright", act_playwright)):
        try:
            s.open(page, base)
        except Exception as exc:
            res.actions += [
                ActionRun(tool, a, False, f"page did not open: {short_error(exc)}") for a in page.actions
            ]
            continue
        for action in page.actions:
            try:
                res.actions.append(act(s, action))
            except Exception as exc:
                res.actions.append(ActionRun(tool, action, False, short_error(exc)))
        s.close_page(page, base)


# -- the run ----------------------------------------------------------------------------------------


def bench(args: argparse.Namespace, workdir: Path, env: dict[str, Any]) -> list[PageResult]:
    results: list[PageResult] = []
    apps = [a for a in APPS if not args.apps or a.name in args.apps]
    browser = start_browser(workdir)
    env["chromium"] = browser.version
    session: Session | None = None
    try:
        session = Session(browser, args.dump)
        for app in apps:
            results += bench_app(session, app, args)
    finally:
        if session is not None:
            session.close()
        browser.stop()
    return results


def bench_app(s: Session, app: App, args: argparse.Namespace) -> list[PageResult]:
    results = [
        PageResult(p) for p in app.pages if not args.pages or p.name in args.pages or p.key in args.pages
    ]
    if not results:
        return []
    t0 = time.monotonic()
    print(f"== {app.name}: starting", flush=True)
    try:
        server = app.serve()
        base = server.__enter__()
    except Exception as exc:
        for res in results:
            res.error = f"the app did not start: {short_error(exc)}"
        print(f"   {results[0].error}", flush=True)
        return results
    try:
        print(f"   up in {time.monotonic() - t0:.1f} s at {base}", flush=True)
        for res in results:
            t1 = time.monotonic()
            try:
                measure(s, res.page, base, res, args.runs)
                if res.page.actions and not args.no_actions:
                    run_actions(s, res.page, base, res)
            except Exception as exc:
                res.error = f"page failed: {short_error(exc)}"
            print(summary_line(res) + f"  ({time.monotonic() - t1:.0f} s)", flush=True)
    finally:
        try:
            server.__exit__(None, None, None)
        except Exception as exc:
            print(f"   stopping {app.name}: {short_error(exc)}", flush=True)
    return results


# -- the report -------------------------------------------------------------------------------------

SUMMARY_HEADER = (
    f"{'page':<28} {'elems':>6} {'found bx':>8} {'found pw':>8} {'tok bx':>6} {'tok pw':>6} "
    f"{'bx ms':>6} {'pw ms':>6} {'ratio':>6} {'act bx':>6} {'act pw':>6} {'dup':>3}"
)


def frac(a: int | None, b: int) -> str:
    return "—" if a is None else f"{a}/{b}"


def summary_line(res: PageResult) -> str:
    if res.error and not any(t.runs_ms for t in res.tools.values()):
        return f"{res.page.key:<28} {res.error}"
    bx, pw = res.tools["browserx"], res.tools["playwright"]
    n = len(res.page.expect)
    ratio = f"{res.ratio:.2f}" if res.ratio is not None else "—"
    flag = (
        "!"
        if res.ratio is not None and (res.elements or 0) < SMALL_PAGE and res.ratio > LATENCY_FLOOR
        else " "
    )
    return (
        f"{res.page.key:<28} {res.elements or 0:>6} {frac(bx.found, n):>8} {frac(pw.found, n):>8} "
        f"{bx.tokens or 0:>6} {pw.tokens or 0:>6} {fmt_ms(bx.median):>6} {fmt_ms(pw.median):>6} {ratio:>5}{flag} "
        f"{frac(*res.verified('browserx')):>6} {frac(*res.verified('playwright')):>6} {len(res.dups):>3}"
    )


def floor_rows(results: list[PageResult]) -> list[str]:
    small = [r for r in results if r.elements is not None and r.elements < SMALL_PAGE and r.ratio is not None]
    over = [r for r in small if (r.ratio or 0) > LATENCY_FLOOR]
    unmeasured = [r for r in results if r.ratio is None]
    dups = [r for r in results if r.dups]
    no_view = [r for r in results if not r.tools["browserx"].text]
    worst = max(small, key=lambda r: r.ratio or 0, default=None)
    ratio_text = (
        f"{len(small)} pages under {SMALL_PAGE:,} elements; worst {worst.page.key} {worst.ratio:.2f}×"
        + (f"; over: {', '.join(f'{r.page.key} {r.ratio:.2f}×' for r in over)}" if over else "")
        if worst is not None and worst.ratio is not None
        else "no page measured"
    )
    if unmeasured:
        ratio_text += f"; not measured: {', '.join(r.page.key for r in unmeasured)}"
    dup_text = "; ".join(f"{r.page.key}: {', '.join(r.dups[:3])}" for r in dups) or (
        f"none in {len(results) - len(no_view)} pages' text and json views"
    )
    if no_view:
        dup_text += f"; not checked (no browserx view): {', '.join(r.page.key for r in no_view)}"
    return [
        "| floor | measured | verdict |",
        "| --- | --- | --- |",
        f"| snapshot latency ≤ {LATENCY_FLOOR}× Playwright's (median ÷ median) on every page under "
        f"{SMALL_PAGE:,} elements | {ratio_text} | {'holds' if small and not over and not unmeasured else '**misses**'} |",
        f"| no duplicate ID in any browserx view | {dup_text} | {'holds' if not dups and not no_view else '**misses**'} |",
    ]


def page_table(results: list[PageResult]) -> list[str]:
    lines = [
        "| app / page | elements | found browserx | found Playwright | tokens browserx | tokens Playwright "
        "| browserx ms median (min) | Playwright ms median (min) | ratio (median) | actions browserx | actions Playwright "
        "| duplicate IDs |",
        "| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |",
    ]
    for r in results:
        if r.error and not any(t.runs_ms for t in r.tools.values()):
            lines.append(f"| {r.page.key} | {cell(r.error)} | | | | | | | | | | |")
            continue
        bx, pw = r.tools["browserx"], r.tools["playwright"]
        n = len(r.page.expect)
        ratio = "—" if r.ratio is None else f"{r.ratio:.2f}×"
        if r.ratio is not None and (r.elements or 0) < SMALL_PAGE:
            ratio += " ✓" if r.ratio <= LATENCY_FLOOR else " **✗**"
        lines.append(
            f"| {r.page.key} | {r.elements or 0:,} | {frac(bx.found, n)} | {frac(pw.found, n)} | "
            f"{bx.tokens or 0:,} | {pw.tokens or 0:,} | {fmt_ms(bx.median)} ({fmt_ms(bx.min)}) | "
            f"{fmt_ms(pw.median)} ({fmt_ms(pw.min)}) | {ratio} | {frac(*r.verified('browserx'))} | "
            f"{frac(*r.verified('playwright'))} | {len(r.dups) if bx.text else '—'} |"
        )
    return lines


def split_table(results: list[PageResult]) -> list[str]:
    lines = [
        "| app / page | browserx median ms | capture | build | view | stability wait | rest | Playwright median ms |",
        "| --- | --: | --: | --: | --: | --: | --: | --: |",
    ]
    for r in results:
        bx = r.tools["browserx"]
        if bx.splits:
            parts = " | ".join(fmt_ms(bx.split_median(key)) for key in SPLIT)
            lines.append(
                f"| {r.page.key} | {fmt_ms(bx.median)} | {parts} | {fmt_ms(r.tools['playwright'].median)} |"
            )
    return lines


def action_kinds(results: list[PageResult]) -> list[str]:
    runs = [a for r in results for a in r.actions]
    kinds = sorted({a.action.do for a in runs})
    lines = [
        "| kind | browserx verified | browserx client ms (median) | browserx `duration_ms` (median) "
        "| Playwright verified | Playwright call ms (median) |",
        "| --- | --: | --: | --: | --: | --: |",
    ]

    def med(values: list[float | None]) -> str:
        have = [v for v in values if v is not None]
        return fmt_ms(statistics.median(have)) if have else "—"

    for kind in [*kinds, "all"]:
        bx = [a for a in runs if a.tool == "browserx" and kind in (a.action.do, "all")]
        pw = [a for a in runs if a.tool == "playwright" and kind in (a.action.do, "all")]
        lines.append(
            f"| {kind} | {sum(a.ok for a in bx)}/{len(bx)} | {med([a.call_ms for a in bx if a.ok])} | "
            f"{med([a.host_ms for a in bx if a.ok])} | {sum(a.ok for a in pw)}/{len(pw)} | "
            f"{med([a.call_ms for a in pw if a.ok])} |"
        )
    return lines


def misses_by_one(results: list[PageResult], tool: str, other: str) -> list[str]:
    """Expectations ``tool`` misses and ``other`` finds, with what ``tool`` printed instead."""
    lines = []
    for r in results:
        theirs = {e for e, _ in r.tools[other].missing}
        if r.tools[other].found is None:
            continue
        for expect, why in r.tools[tool].missing:
            if expect not in theirs:
                shown = [w for w in why if not w.startswith("Playwright")]
                lines.append(f"- {r.page.key}: {cell(str(expect))} — {'; '.join(cell(w) for w in shown)}")
    return lines or ["- none"]


def page_details(r: PageResult) -> list[str]:
    lines = [f"### {r.page.key}", ""]
    if r.url:
        lines.append(
            f"`{r.page.path}`; {r.elements or 0:,} elements (browserx counts {r.bx_elements or 0:,}); browserx lists {r.ids or 0} IDs, duplicates: {', '.join(r.dups) or 'none'}."
        )
        lines.append("")
    if r.error:
        lines += [f"- **{r.error}**", ""]
    for tool in ("browserx", "playwright"):
        t = r.tools[tool]
        if t.error:
            lines.append(f"- {tool}: **{t.error}**")
        if t.missing:
            lines.append(f"- {tool} misses {len(t.missing)} of {len(r.page.expect)}:")
            for expect, why in t.missing:
                lines.append(
                    f"  - {cell(str(expect))}"
                    + (f" ({cell(expect.why)})" if expect.why else "")
                    + ": "
                    + "; ".join(cell(w) for w in why)
                )
        elif t.found is not None:
            lines.append(f"- {tool} finds all {len(r.page.expect)}.")
    for a in r.actions:
        timing = ""
        if a.ok:
            timing = f" — {fmt_ms(a.call_ms)} ms" + (
                f" (host `duration_ms` {fmt_ms(a.host_ms)})" if a.host_ms is not None else ""
            )
        lines.append(
            f"- action {a.tool} {a.action.label!r} ({a.action.do}): {'verified' if a.ok else '**failed**'}{timing}; {cell(a.detail)}"
        )
    bx = r.tools["browserx"]
    if bx.splits:
        parts = ", ".join(f"{key.removesuffix('_ms')} {fmt_ms(bx.split_median(key))}" for key in SPLIT)
        lines.append(f"- browserx time split (medians, ms): {parts}")
    for tool, t in r.tools.items():
        if t.runs_ms:
            warm = f" (warm-up {t.warmup_ms:.0f})" if t.warmup_ms is not None else ""
            lines.append(f"- runs {tool} (ms): {', '.join(f'{x:.0f}' for x in t.runs_ms)}{warm}")
    return [*lines, ""]


def write_report(results: list[PageResult], env: dict[str, Any], args: argparse.Namespace) -> None:
    m = env["machine"]
    lines = [
        "# Real-app corpus: browserx vs Playwright",
        "",
        "Generated by `bench/corpus.py`; do not edit by hand. Reproduce with `make bench-corpus` (part of "
        f"`make bench`; needs the corpus apps, `scripts/setup-corpus.sh`). This run: `{env['command']}`. "
        "The synthetic pages are in [BENCHMARKS.md](BENCHMARKS.md).",
        "",
        "## Setup",
        "",
        f"- Date: {env['date']}; total time {env['elapsed_s']:.0f} s; load average (1/5/15 min) {load(env['load_start'])} "
        f"at the start, {load(env['load_end'])} at the end.",
        f"- Machine: {m['nproc']} CPUs ({m['cpu']}), {m['ram']} RAM, Linux {m['kernel']}, Python {platform.python_version()}.",
        f"- Browser: {env.get('chromium', 'unknown')}, headless, one browser and one tab shared by both tools "
        "(bench/run.py's `start_browser`: browserx extension + host, and a CDP port Playwright connects to).",
        "- Pages: every page of `tests/e2e/apps/corpus.py` (`APPS`), opened by its own steps (setup, the page, "
        "its readiness condition, after) through Playwright (`page.goto`, `page.evaluate`).",
        f"- browserx {version_of('browserx')}: `Client.snapshot(tab=…, stats=True)` (default text view: the host's "
        "token budget and stability wait), timed client-side around the call (the round trip through the control "
        f"socket, host, extension and chrome.debugger). Host code: {env['native']}.",
        f'- Playwright {version_of("playwright")}: `page.aria_snapshot(mode="ai")` over `connect_over_cdp`, '
        "timed around the call.",
        f"- Latency: one warm-up call each, then {args.runs} runs each interleaved (browserx, Playwright, "
        "browserx, …); median and min in ms. Ratio = browserx median ÷ Playwright median.",
        "- Tokens: cl100k_base (`browserx.views.tokens.count_tokens`) of each tool's whole output.",
        "- Found: the page's hand-written expectations (role and name, `Expect.matches_name`) matched one to one "
        "(a name expected twice must be listed twice). browserx: a control with an ID whose role and name fit "
        "(json view) and whose ID the text view shows, as tests/e2e/test_real_apps.py checks. Playwright: a "
        "snapshot line with a `[ref=…]` whose role and name fit; Chrome roles without an ARIA role are "
        "`generic` there (`DisclosureTriangle`, `LabelText`), and browserx's `clickable` is a `generic` or "
        "`img` line marked `[cursor=pointer]` (a generic's name: its own, else its inline text). A line "
        "without a ref is not counted (it is listed as such among the misses).",
        "- Elements: `document.querySelectorAll('*')` over the document and its open shadow roots.",
        "- Actions: per tool, the page opened afresh, then its actions in order: the target is the first control "
        "that fits in the tool's own view (browserx: default view, else `max_tokens=0`; Playwright: the "
        "snapshot line's `aria-ref`, or `get_by_role(role, name=…, exact=True).first` for a line without a ref), "
        f"looked for again every 0.25 s for up to {TARGET_WAIT_S:.0f} s while it is not there, "
        "acted on with `Client.click/type_text/select/check` or `locator.click/fill/select_option/check` "
        f"(timeout {PW_ACTION_TIMEOUT_MS / 1000:.0f} s; `fill` refused → click + keyboard, `select_option` on "
        "an ARIA combobox → click it, then its option's ref), and verified by the action's `check` on the "
        "page's own state. Times: browserx client-side and its `duration_ms` (which includes waiting for the "
        "page's reaction until the DOM is quiet); Playwright the acting call(s) (which return once the input "
        "is dispatched).",
        "",
        "## Floors",
        "",
        *floor_rows(results),
        "",
        "## Per page",
        "",
        *page_table(results),
        "",
        "## browserx misses that Playwright finds",
        "",
        "What browserx printed instead (same name under another role, similar names, the name in a line "
        "without an ID) and whether its whole-page view (`max_tokens=0`) has it.",
        "",
        *misses_by_one(results, "browserx", "playwright"),
        "",
        "## Playwright misses that browserx finds",
        "",
        *misses_by_one(results, "playwright", "browserx"),
        "",
        "## Where browserx's snapshot time goes",
        "",
        "Medians over the timed runs, from the host's `stats`: capture (collecting the page through "
        "chrome.debugger and the extension), build (host CPU: roles, names, visibility, hit test), view "
        "(rendering, token budget), stability wait (for a quiet DOM first), rest (socket, relay).",
        "",
        *split_table(results),
        "",
        "## Actions by kind (all pages)",
        "",
        *action_kinds(results),
        "",
        "## Details",
        "",
    ]
    for r in results:
        lines += page_details(r)
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    print(f"report written to {REPORT}", flush=True)


# -- main --------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    names = lambda s: tuple(x for x in s.split(",") if x)  # noqa: E731
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--runs", type=int, default=7, help="measured snapshot runs per tool and page (default 7)"
    )
    parser.add_argument("--apps", type=names, default=(), help="only these apps, comma-separated")
    parser.add_argument("--pages", type=names, default=(), help="only these pages (name or app/name)")
    parser.add_argument("--no-actions", action="store_true", help="skip the actions")
    parser.add_argument("--dump", type=Path, help="write each tool's last view per page to this dir")
    parser.add_argument(
        "--no-report", action="store_true", help=f"print the table only, do not write {REPORT.name}"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="browserx-corpus-bench-"))
    os.environ["BROWSERX_RUNTIME_DIR"] = str(workdir / "run")
    exe = Path(sys.executable)
    with contextlib.suppress(ValueError):
        exe = exe.relative_to(ROOT)
    env: dict[str, Any] = {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine_info(),
        "command": " ".join([str(exe), "bench/corpus.py", *(argv if argv is not None else sys.argv[1:])]),
        "load_start": os.getloadavg(),
        "native": "compiled with mypyc (`make native`)"
        if _native.up_to_date() and _native.compiled_modules()
        else "plain Python (no current `make native` build)",
    }
    try:
        results = bench(args, workdir, env)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    env["elapsed_s"] = time.monotonic() - started
    env["load_end"] = os.getloadavg()
    print("\n" + "\n".join([SUMMARY_HEADER, *(summary_line(r) for r in results)]))
    print("\n".join(["", *floor_rows(results)[2:]]))
    print(f"total {env['elapsed_s']:.0f} s")
    if not args.no_report:
        write_report(results, env, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
