"""browserx vs browser-use vs Playwright: snapshot latency, tokens and interactive coverage.

One headless Chromium (system binary) runs with the browserx extension and host and a CDP port,
so all three tools observe the SAME tab of the SAME browser:

* browserx: ``Client.snapshot(stats=True)`` through the control socket (text view), as an agent
  calls it, and "browserx full" with ``max_tokens=0`` (the whole page, no token budget);
* browser-use: its ``DomService.get_serialized_dom_tree()`` + ``llm_representation()`` (DOM
  extraction and serialization only: no LLM, no screenshot);
* Playwright: ``page.aria_snapshot(mode="ai")`` over ``connect_over_cdp`` (whole page).

Runs are interleaved (browserx, browserx full, browser-use, Playwright, ...) after one warm-up each.
Tokens are cl100k_base (browserx.views.tokens). The report goes to docs/BENCHMARKS.md.

    make bench            # or: .venv-bench/bin/python bench/run.py [--runs N] [--sizes 1000,5000]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import importlib.metadata
import inspect
import logging
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pages import generate

from browserx import BrowserxError, Client
from browserx.install import apply, default_plan
from browserx.launch import browser_flags, find_browser
from browserx.runtime import wait_for_new_host
from browserx.views.options import DEFAULT_MAX_TOKENS
from browserx.views.text import parse_controls
from browserx.views.tokens import count_tokens

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "pages"
sys.path.insert(0, str(ROOT))  # the fixture servers are shared with the e2e tests
from tests.e2e.servers import fixture_servers  # noqa: E402

REPORT = ROOT / "docs" / "BENCHMARKS.md"
FIXTURE_PAGES = ("snap-controls.html", "snap-js.html", "snap-layout.html")
SIZES = (1000, 5000, 20000, 50000)
VIEWPORT = (1280, 900)
BROWSER_USE_THRESHOLD_PX = 1000  # DomService's default viewport_threshold: what it lists below the fold
CALL_TIMEOUT_S = 120.0
SLOW_CALL_S = 30.0  # a tool whose first measured run takes longer gets --slow-runs runs on that page
MAX_FAILURES = 2  # failed runs after which a tool is given up on for a page

TOOLS = ("browserx", "browserx full", "browser-use", "playwright")
OTHERS = ("browser-use", "playwright")
# Roles a Playwright aria snapshot line must have to count as an interactive element.
# (``option`` is left out: a <select>'s options are listed under its combobox, not acted on alone.)
PW_INTERACTIVE_ROLES = (
    "button|link|textbox|searchbox|checkbox|radio|combobox|listbox|slider|spinbutton|switch|"
    "tab|menuitem|menuitemcheckbox|menuitemradio|treeitem"
)
CONTROL_TAGS = ("a", "button", "input", "select", "textarea", "summary")
# An interactive aria line and its (escaped) name: ``- button "Buy 5-0" [ref=e12]``.
PW_INTERACTIVE = re.compile(rf'^\s*- (?:{PW_INTERACTIVE_ROLES})\b(?: "((?:[^"\\]|\\.)*)")?', re.M)

# Floors from the issue: page size → max browserx median seconds.
LATENCY_FLOORS = {5000: 0.3, 20000: 1.0, 50000: 2.5}
SPEEDUP_FLOOR = 5.0  # vs browser-use at 5k and 20k
SPEEDUP_SIZES = (5000, 20000)
RSS_FLOOR_MB = 150.0  # at 50k
TOKENS_VS_PLAYWRIGHT = 0.3
TOKENS_VS_BROWSER_USE = 0.7
VIEWPORT_ONLY_TOKENS = 1500  # viewport_only views of long pages
QUERY_MAX_TOKENS = 2000  # the query-focused view of the largest page, asked with this budget


# -- results ---------------------------------------------------------------------------------------


@dataclass
class Sample:
    ms: float
    text: str
    names: list[str]  # one per interactive element the tool lists ("" when unnamed)
    extra: dict[str, float] = field(default_factory=dict)
    controls: list[str] | None = None  # names to check against browserx, when not all of ``names``
    others: list[str] = field(default_factory=list)  # text of the listed elements that are not controls


@dataclass
class Result:
    """One tool on one page: every measured run, the last output's size and any error."""

    tool: str
    runs_ms: list[float] = field(default_factory=list)
    tokens: int | None = None
    interactive: int | None = None
    extra: dict[str, list[float]] = field(default_factory=dict)
    warmup_ms: float | None = None
    error: str | None = None  # why the tool was given up on for this page
    failures: list[str] = field(default_factory=list)  # failed runs (not in runs_ms)
    text: str = field(default="", repr=False)  # the last output
    names: list[str] = field(default_factory=list, repr=False)  # its interactive elements' names
    controls: list[str] = field(default_factory=list, repr=False)  # the ones compared with browserx
    others: list[str] = field(default_factory=list, repr=False)

    def add(self, sample: Sample) -> None:
        self.runs_ms.append(sample.ms)
        self.text = sample.text
        self.names = sample.names
        self.controls = sample.names if sample.controls is None else sample.controls
        self.others = sample.others
        self.interactive = len(sample.names)
        for key, value in sample.extra.items():
            self.extra.setdefault(key, []).append(value)

    @property
    def median(self) -> float | None:
        return statistics.median(self.runs_ms) if self.runs_ms else None

    @property
    def min(self) -> float | None:
        return min(self.runs_ms) if self.runs_ms else None

    def finish(self) -> None:
        """Count the tokens of the last output (once: at 50k that takes a while)."""
        self.tokens = count_tokens(self.text) if self.runs_ms else None

    def extra_median(self, key: str) -> float | None:
        values = self.extra.get(key)
        return statistics.median(values) if values else None


@dataclass
class PageReport:
    name: str
    url: str
    size: int | None  # requested element count for generated pages
    elements: int | None = None  # what browserx counted (elements, incl. shadow roots and frames)
    doc_height: int | None = None
    results: dict[str, Result] = field(default_factory=dict)
    rss_max_mb: float | None = None
    notes: list[str] = field(default_factory=list)
    views: dict[str, Any] = field(default_factory=dict)  # browserx's other views (view_checks)

    @property
    def fits_browser_use_window(self) -> bool:
        return self.doc_height is not None and self.doc_height <= VIEWPORT[1] + BROWSER_USE_THRESHOLD_PX


# -- pages and servers -------------------------------------------------------------------------------


def write_pages(directory: Path, fixtures: tuple[str, ...], sizes: tuple[int, ...]) -> list[PageReport]:
    """Fixture pages (all copied: the generated pages' iframe loads oopif-child.html) + generated."""
    for page in FIXTURES.glob("*.html"):
        shutil.copy(page, directory / page.name)
    reports = [PageReport(name, name, None) for name in fixtures]
    for size in sizes:
        name = f"gen-{size // 1000}k.html"
        (directory / name).write_text(generate(size, seed=7, xorigin="__XORIGIN__"), encoding="utf-8")
        reports.append(PageReport(f"generated {size // 1000}k", name, size))
    return reports


# -- the browser -------------------------------------------------------------------------------------


@dataclass
class Browser:
    proc: subprocess.Popen[bytes]
    cdp_endpoint: str
    host_pid: int
    version: str

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        # The host exits when the browser closes its pipe; make sure of it (by its own pid).
        deadline = time.monotonic() + 5
        while Path(f"/proc/{self.host_pid}").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        with contextlib.suppress(ProcessLookupError):
            if Path(f"/proc/{self.host_pid}").exists():
                os.kill(self.host_pid, signal.SIGTERM)


def start_browser(workdir: Path, timeout: float = 45.0) -> Browser:
    """System Chromium, headless, with the extension, the host registered in a temp profile and a CDP
    port. BROWSERX_RUNTIME_DIR must already point at a temp dir (set in main)."""
    profile = workdir / "profile"
    apply(default_plan(None, profile))
    started = time.time()
    cmd = [
        find_browser(),
        *browser_flags(profile, headless=True),
        "--remote-debugging-port=0",
        "--remote-debugging-address=127.0.0.1",
        "about:blank",
    ]
    proc = subprocess.Popen(
        cmd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: stopped with killpg
    )
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + timeout
        while not port_file.exists() or not port_file.read_text().strip():
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"Chromium exposed no CDP port (exit code {proc.poll()})")
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        host = wait_for_new_host(started, timeout, str(profile))
        if host is None:
            raise RuntimeError(f"no browserx host connected within {timeout:.0f} s")
        version = subprocess.run(
            [cmd[0], "--version"], capture_output=True, text=True, check=False
        ).stdout.strip()
        return Browser(proc, f"http://127.0.0.1:{port}", host.pid, version)
    except BaseException:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        raise


class LogTally(logging.Handler):
    """Counts the warnings the comparison tools log (numbers masked), to note them per page."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.counts: Counter[str] = Counter()
        self._seen: set[int] = set()

    def emit(self, record: logging.LogRecord) -> None:
        if id(record) in self._seen:  # the same record reaches several of the loggers we watch
            return
        self._seen.add(id(record))
        message = re.sub(r"\d+", "N", record.getMessage().splitlines()[0] if record.getMessage() else "")
        self.counts[f"{record.name.split('.')[0].split(' ')[0]}: {message[:120]}"] += 1

    def attach(self) -> None:
        for name in ("", "browser_use", "cdp_use", "bubus"):
            logging.getLogger(name).addHandler(self)

    def detach(self) -> None:
        for name in ("", "browser_use", "cdp_use", "bubus"):
            logging.getLogger(name).removeHandler(self)

    def clear(self) -> None:
        self.counts.clear()
        self._seen.clear()

    def summary(self, top: int = 5) -> list[str]:
        return [f"`{message}` ×{n}" for message, n in self.counts.most_common(top)]


class RssSampler:
    """Samples VmRSS of one process every few ms in a thread while ``sampling`` is on."""

    def __init__(self, pid: int, interval: float = 0.005) -> None:
        self.pid = pid
        self.interval = interval
        self.max_kb = 0
        self._on = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def status_kb(self, key: str) -> int | None:
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith(key + ":"):
                    return int(line.split()[1])
        except OSError:
            return None
        return None

    def _loop(self) -> None:
        while not self._stop.is_set():
            if self._on.wait(0.1):
                kb = self.status_kb("VmRSS")
                if kb:
                    self.max_kb = max(self.max_kb, kb)
                time.sleep(self.interval)

    @contextlib.contextmanager
    def sampling(self) -> Iterator[None]:
        self.max_kb = self.status_kb("VmRSS") or 0
        self._on.set()
        try:
            yield
        finally:
            self._on.clear()
            self.max_kb = max(self.max_kb, self.status_kb("VmRSS") or 0)

    def close(self) -> None:
        self._stop.set()
        self._on.set()
        self._thread.join(timeout=2)


# -- the tools ---------------------------------------------------------------------------------------


class BrowserxConnection:
    """One control-socket client, shared by both browserx variants and replaced after a failed call
    (a late answer to an abandoned request would otherwise be read as the next call's)."""

    def __init__(self) -> None:
        self.client = Client(timeout=CALL_TIMEOUT_S - 10)  # fail in the socket before wait_for does

    def reset(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close()
        self.client = Client(timeout=CALL_TIMEOUT_S - 10)


class BrowserxTool:
    """``browserx``: the snapshot as an agent calls it (host defaults, incl. any token budget);
    ``browserx full``: the same with ``max_tokens=0`` (the whole page), when the client has it."""

    def __init__(self, conn: BrowserxConnection, tab: int, full: bool = False) -> None:
        self.conn = conn
        self.tab = tab
        self.full = full
        self.name = "browserx full" if full else "browserx"
        self.options: dict[str, Any] = {"max_tokens": 0} if full else {}

    @classmethod
    def connect(cls) -> BrowserxTool:
        conn = BrowserxConnection()
        tabs = conn.client.tabs()
        if not tabs:
            conn.client.close()
            raise RuntimeError("browserx lists no tab")
        return cls(conn, int(tabs[0]["tabId"]))

    def whole_page(self) -> BrowserxTool | None:
        """The ``browserx full`` variant on the same connection, if this client can ask for it."""
        if "max_tokens" not in inspect.signature(Client.snapshot).parameters:
            return None
        return BrowserxTool(self.conn, self.tab, full=True)

    def _eval(self, expression: str) -> Any:
        reply = self.conn.client.cdp(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True}, tab=self.tab
        )
        return reply.get("result", {}).get("value")

    def navigate(self, url: str, timeout: float = 60.0) -> None:
        """Page.navigate, then wait for the load event (readyState) and a short settle."""
        self.conn.client.cdp("Page.navigate", {"url": url}, tab=self.tab)
        deadline = time.monotonic() + timeout
        seen: object = None
        while time.monotonic() < deadline:
            try:  # the old document may go away mid-call
                seen = (self._eval("location.href"), self._eval("document.readyState"))
                if seen == (url, "complete"):
                    break
            except Exception as exc:
                seen = short_error(exc)
                if not isinstance(exc, BrowserxError):
                    self.conn.reset()
            time.sleep(0.1)
        else:
            raise TimeoutError(f"{url} did not load within {timeout:.0f} s (last seen: {seen})")
        time.sleep(0.5)  # let the cross-site iframe and custom elements settle

    def view_checks(self, whole_page: str, with_query: bool) -> dict[str, Any]:
        """Tokens of the views the issue sets floors for besides the default one, a call each
        (not timed): ``viewport_only``, and on the largest page a query-focused view naming a
        button far below the fold (picked from the whole-page view) — is that button in it?"""
        client = self.conn.client
        viewport = client.snapshot(tab=self.tab, format="text", viewport_only=True, stats=True)
        out: dict[str, Any] = {"viewport_only": int(viewport["stats"]["tokens"])}
        buttons = [name for role, name in parse_controls(whole_page).values() if role == "button" and name]
        if with_query and buttons:
            name = buttons[len(buttons) * 4 // 5]
            result = client.snapshot(
                tab=self.tab, format="text", query=name, max_tokens=QUERY_MAX_TOKENS, stats=True
            )
            found = ("button", name) in parse_controls(result["text"]).values()
            out["query"] = {"text": name, "tokens": int(result["stats"]["tokens"]), "found": found}
        return out

    def page_facts(self) -> tuple[int | None, tuple[int, int] | None]:
        height = self._eval("document.documentElement.scrollHeight")
        size = self._eval("[innerWidth, innerHeight]")
        return (int(height) if height else None), (tuple(size) if size else None)

    def _snapshot(self) -> Sample:
        t0 = time.perf_counter()
        try:
            result = self.conn.client.snapshot(tab=self.tab, format="text", stats=True, **self.options)
        except Exception:
            self.conn.reset()
            raise
        ms = (time.perf_counter() - t0) * 1000
        text: str = result["text"]
        stats = result["stats"]
        extra = {
            "capture_ms": float(stats["capture_ms"]),
            "build_ms": float(stats["build_ms"]),
            "elements": float(stats.get("elements", 0)),
            "stats_interactive": float(stats.get("interactive", 0)),
        }
        if "view_ms" in stats:  # newer hosts: view building (budget, summaries) timed apart
            extra["view_ms"] = float(stats["view_ms"])
        if isinstance(stats.get("stability"), dict):  # newer hosts: a DOM-quiet wait first
            extra["stability_ms"] = float(stats["stability"].get("waited_ms", 0))
        parts = ("capture_ms", "build_ms", "view_ms", "stability_ms")
        extra["rest_ms"] = ms - sum(extra.get(key, 0.0) for key in parts)
        names = [name for _, name in parse_controls(text).values()]  # [12] button Pay, [7] Terms → /t
        return Sample(ms, text, names, extra)

    async def snapshot(self) -> Sample:
        return await asyncio.to_thread(self._snapshot)  # the socket client blocks; keep the loop free

    async def close(self) -> None:
        if not self.full:  # the full variant borrows the connection
            self.conn.client.close()


def browser_use_name(node: Any) -> str:
    """An element's accessible name as browser-use holds it (its AX name; its own text rules when it
    has no AX node)."""
    ax = getattr(node, "ax_node", None)
    if ax is not None:
        return str(ax.name or "")
    # No AX node (browser-use's AX request timed out): the attributes that name an element, else text.
    attrs = node.attributes or {}
    for key in ("aria-label", "title", "placeholder", "alt"):
        if attrs.get(key):
            return str(attrs[key])
    tag = node.tag_name.lower()
    if tag == "input" and attrs.get("type") in ("submit", "button", "reset"):
        return str(attrs.get("value") or "")
    if tag in ("input", "select", "textarea"):
        return ""  # named by a <label>, which only the AX tree resolves
    return str(node.get_all_children_text())


def browser_use_is_control(node: Any) -> bool:
    """A control (by AX role or tag), not one of the rows, cells, labels or listener-bearing
    containers browser-use also indexes."""
    ax = getattr(node, "ax_node", None)
    role = (ax.role or "") if ax is not None else ""
    return role in PW_INTERACTIVE_ROLES.split("|") or node.tag_name.lower() in CONTROL_TAGS


class BrowserUseTool:
    name = "browser-use"

    def __init__(self, session: Any, service: Any) -> None:
        self.session = session
        self.service = service

    @classmethod
    async def connect(cls, cdp_endpoint: str, page_url: str) -> BrowserUseTool:
        from browser_use.browser import BrowserProfile, BrowserSession
        from browser_use.browser.profile import ViewportSize
        from browser_use.dom.service import DomService

        # An explicit viewport: left unset, browser-use emulates a 1920x1080 screen on the shared tab.
        profile = BrowserProfile(
            cdp_url=cdp_endpoint,
            is_local=False,
            keep_alive=True,
            headless=True,
            viewport=ViewportSize(width=VIEWPORT[0], height=VIEWPORT[1]),
        )
        session = BrowserSession(browser_profile=profile)
        await session.start()
        tool = cls(session, None)
        await tool.prepare(page_url)
        tool.service = DomService(
            session,
            cross_origin_iframes=profile.cross_origin_iframes,
            paint_order_filtering=profile.paint_order_filtering,
            max_iframes=profile.max_iframes,
            max_iframe_depth=profile.max_iframe_depth,
        )
        return tool

    async def prepare(self, url: str) -> None:
        """Point browser-use's agent focus at the tab showing ``url`` (the one the others observe)."""
        targets = self.session.session_manager.get_all_page_targets()
        for target in targets:
            if target.url == url:
                if self.session.agent_focus_target_id != target.target_id:
                    await self.session.get_or_create_cdp_session(target_id=target.target_id, focus=True)
                return
        raise RuntimeError(f"browser-use sees no tab at {url}: {[t.url for t in targets]}")

    async def snapshot(self) -> Sample:
        t0 = time.perf_counter()
        state, _tree, _timing = await self.service.get_serialized_dom_tree()
        text = state.llm_representation()
        ms = (time.perf_counter() - t0) * 1000
        nodes = list(state.selector_map.values())
        controls = [browser_use_name(node) for node in nodes if browser_use_is_control(node)]
        others = [node.get_meaningful_text_for_llm() for node in nodes if not browser_use_is_control(node)]
        return Sample(ms, text, [browser_use_name(n) for n in nodes], controls=controls, others=others)

    async def close(self) -> None:
        # Drop the CDP connection and event bus only; keep_alive leaves the browser to us.
        await asyncio.wait_for(self.session.stop(), timeout=20)


class PlaywrightTool:
    name = "playwright"

    def __init__(self, driver: Any, cdp_endpoint: str) -> None:
        self.driver = driver
        self.cdp_endpoint = cdp_endpoint
        self.browser: Any = None
        self.page: Any = None
        self.method = ""
        self.crashed = False  # the tab's renderer crashed (Playwright's "crash" event)

    @classmethod
    async def connect(cls, cdp_endpoint: str, page_url: str) -> PlaywrightTool:
        from playwright.async_api import async_playwright

        tool = cls(await async_playwright().start(), cdp_endpoint)
        try:
            await tool._attach(page_url)
        except BaseException:
            await tool.close()
            raise
        return tool

    async def _attach(self, page_url: str) -> None:
        self.browser = await self.driver.chromium.connect_over_cdp(self.cdp_endpoint)
        pages = [p for c in self.browser.contexts for p in c.pages if p.url == page_url]
        if not pages:
            raise RuntimeError(f"Playwright sees no page at {page_url}")
        self.page = pages[0]
        self.crashed = False
        self.page.on("crash", lambda _page: setattr(self, "crashed", True))
        if "mode" in inspect.signature(self.page.aria_snapshot).parameters:
            self.method = 'page.aria_snapshot(mode="ai")'
        elif hasattr(self.page, "_snapshot_for_ai"):
            self.method = "page._snapshot_for_ai()"
        else:
            self.method = 'page.locator("body").aria_snapshot()'

    async def prepare(self, url: str) -> None:
        """After a crash Playwright's Page stays dead even once the tab loads again: reconnect."""
        if self.crashed or self.page is None or self.page.url != url:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.browser.close(), timeout=10)
            await self._attach(url)

    async def _aria(self) -> str:
        timeout = CALL_TIMEOUT_S * 1000
        if self.method.startswith("page.aria_snapshot"):
            text: str = await self.page.aria_snapshot(mode="ai", timeout=timeout)
        elif self.method.startswith("page._snapshot_for_ai"):
            text = await self.page._snapshot_for_ai(timeout=timeout)
        else:
            text = await self.page.locator("body").aria_snapshot(timeout=timeout)
        return text

    async def snapshot(self) -> Sample:
        t0 = time.perf_counter()
        text = await self._aria()
        ms = (time.perf_counter() - t0) * 1000
        names = [re.sub(r"\\(.)", r"\1", name) for name in PW_INTERACTIVE.findall(text)]
        return Sample(ms, text, names)

    async def close(self) -> None:
        if self.browser is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.browser.close(), timeout=10)  # over CDP: disconnects only
        await self.driver.stop()


# -- running ---------------------------------------------------------------------------------------


def short_error(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip().replace("\n", " ")
    return text[:300] + ("…" if len(text) > 300 else "")


async def timed_call(make: Callable[[], Awaitable[Sample]]) -> Sample:
    return await asyncio.wait_for(make(), timeout=CALL_TIMEOUT_S)


async def bench_page(
    page: PageReport,
    tools: dict[str, Any],
    bx: BrowserxTool,
    rss: RssSampler,
    url: str,
    args: argparse.Namespace,
    logs: LogTally,
) -> bool:
    """Measure every tool on one page; True when the tab's renderer crashed meanwhile."""
    print(f"== {page.name}: {url}", flush=True)
    try:
        await asyncio.to_thread(bx.navigate, url)
    except Exception as exc:  # once more, from scratch, before giving the page up
        page.notes.append(f"first navigation failed ({short_error(exc)}); navigated again")
        print(f"   navigation failed, retrying: {short_error(exc)}", flush=True)
        await asyncio.to_thread(bx.navigate, url)
    page.doc_height, viewport = await asyncio.to_thread(bx.page_facts)
    if viewport and viewport != VIEWPORT:
        page.notes.append(f"viewport was {viewport[0]}x{viewport[1]}")
    for tool in tools.values():
        if hasattr(tool, "prepare"):
            with contextlib.suppress(Exception):  # a tool that cannot find the tab fails its runs
                await tool.prepare(url)
    page.results = {name: Result(name) for name in tools}
    planned = dict.fromkeys(tools, args.runs)
    logs.clear()
    with rss.sampling():
        for name, tool in tools.items():  # warm-up: once each, not counted
            t0 = time.perf_counter()
            try:
                await timed_call(tool.snapshot)
            except Exception as exc:
                page.results[name].error = f"warm-up failed: {short_error(exc)}"
                print(f"   {name}: warm-up failed: {short_error(exc)}", flush=True)
                continue
            page.results[name].warmup_ms = (time.perf_counter() - t0) * 1000
        for run in range(args.runs):  # interleaved: browserx, browserx full, browser-use, playwright, ...
            for name, tool in tools.items():
                result = page.results[name]
                if result.error or run >= planned[name]:
                    continue
                try:
                    result.add(await timed_call(tool.snapshot))
                except Exception as exc:
                    result.failures.append(f"run {run + 1}: {short_error(exc)}")
                    if len(result.failures) >= MAX_FAILURES:
                        result.error = f"given up after {len(result.failures)} failed runs"
                if run == 0 and (result.min or 0) > SLOW_CALL_S * 1000 and args.slow_runs < args.runs:
                    planned[name] = args.slow_runs
                    page.notes.append(
                        f"{name} took {result.min / 1000:.0f} s (> {SLOW_CALL_S:.0f} s) a call: "
                        f"{args.slow_runs} runs here"
                    )
    page.notes += [f"logged during this page: {line}" for line in logs.summary()]
    page.rss_max_mb = rss.max_kb / 1024
    elements = page.results["browserx"].extra_median("elements") if "browserx" in page.results else None
    page.elements = int(elements) if elements else None
    for name, result in page.results.items():
        result.finish()
        if args.dump and result.text:
            args.dump.mkdir(parents=True, exist_ok=True)
            (args.dump / f"{Path(page.url).stem}.{name}.txt").write_text(result.text, encoding="utf-8")
        if result.error:
            print(f"   {name}: ERROR {result.error}", flush=True)
        else:
            print(
                f"   {name}: median {result.median:.0f} ms, min {result.min:.0f} ms, "
                f"{result.tokens} tokens, {result.interactive} interactive",
                flush=True,
            )
    whole = whole_view(page)
    if whole is not None and whole.text:
        try:
            with rss.sampling():
                page.views = await asyncio.to_thread(
                    bx.view_checks, whole.text, page.size == max(args.sizes, default=0)
                )
            page.views["rss_max_mb"] = rss.max_kb / 1024
        except Exception as exc:
            page.notes.append(f"view checks failed: {short_error(exc)}")
    problems = [f for r in page.results.values() for f in [*r.failures, r.error or ""]]
    pw = tools.get("playwright")
    return bool(pw and pw.crashed) or any("crash" in problem.lower() for problem in problems)


async def run_all(args: argparse.Namespace, workdir: Path, env_info: dict[str, Any]) -> list[PageReport]:
    pages_dir = workdir / "pages"
    pages_dir.mkdir()
    pages = write_pages(pages_dir, args.fixtures, args.sizes)
    browser: Browser | None = None
    tools: dict[str, Any] = {}
    rss: RssSampler | None = None
    logs = LogTally()
    logs.attach()
    with fixture_servers(pages_dir) as servers:
        origin = servers.origin
        try:
            browser = start_browser(workdir)
            env_info["chromium"] = browser.version
            bx = BrowserxTool.connect()
            rss = RssSampler(browser.host_pid)
            env_info["host_pid"] = browser.host_pid
            tools["browserx"] = bx
            full = bx.whole_page()
            if full is not None:
                tools[full.name] = full
            else:
                env_info["tool_errors"]["browserx full"] = "this browserx client has no max_tokens option"
            if not pages:
                raise SystemExit("no pages to measure (--fixtures and --sizes both empty)")
            first = f"{origin}/{pages[0].url}"
            await asyncio.to_thread(bx.navigate, first)
            for name, connect in (
                ("browser-use", BrowserUseTool.connect),
                ("playwright", PlaywrightTool.connect),
            ):
                if name not in args.tools:
                    continue
                try:
                    tools[name] = await asyncio.wait_for(connect(browser.cdp_endpoint, first), timeout=60)
                except Exception as exc:
                    env_info["tool_errors"][name] = short_error(exc)
                    print(f"{name} unavailable: {short_error(exc)}", flush=True)
                    if args.verbose:
                        traceback.print_exc()
            if "playwright" in tools:
                env_info["playwright_method"] = tools["playwright"].method
            for page in pages:
                try:
                    url = f"{origin}/{page.url}"
                    if await bench_page(page, tools, bx, rss, url, args, logs):
                        print("   the tab crashed: measuring this page again", flush=True)
                        crashed = [
                            f"{n}: {'; '.join(r.failures) or r.error}"
                            for n, r in page.results.items()
                            if r.failures or r.error
                        ]
                        page.notes.append(
                            "the tab's renderer crashed in a first attempt at this page, which was then "
                            f"measured again from a fresh navigation (first attempt: {' | '.join(crashed)})"
                        )
                        if await bench_page(page, tools, bx, rss, url, args, logs):
                            page.notes.append("the tab crashed again in the second attempt")
                except Exception as exc:
                    page.notes.append(f"page failed: {short_error(exc)}")
                    print(f"   page failed: {short_error(exc)}", flush=True)
            env_info["host_hwm_mb"] = (rss.status_kb("VmHWM") or 0) / 1024
        finally:
            for name, tool in reversed(list(tools.items())):
                try:
                    await tool.close()
                except Exception as exc:
                    print(f"closing {name}: {short_error(exc)}", flush=True)
            if rss is not None:
                rss.close()
            if browser is not None:
                browser.stop()
            logs.detach()
    return pages


# -- the report ------------------------------------------------------------------------------------


def machine_info() -> dict[str, Any]:
    cpu = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    ram = "unknown"
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    return {"nproc": os.cpu_count(), "cpu": cpu, "ram": ram, "kernel": platform.release()}


def version_of(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def load(avg: tuple[float, float, float]) -> str:
    return "/".join(f"{x:.1f}" for x in avg)


def fmt_ms(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f}"


def fmt_ratio(num: float | None, den: float | None, digits: int = 1) -> str:
    if num is None or den is None or den == 0:
        return "—"
    return f"{num / den:.{digits}f}×"


def normalise(name: str) -> str:
    return " ".join(name.replace('"', "'").split()).casefold()


def whole_view(page: PageReport) -> Result | None:
    """browserx's whole-page output: ``browserx full`` when measured, else the default view."""
    for name in ("browserx full", "browserx"):
        res = page.results.get(name)
        if res is not None and res.runs_ms:
            return res
    return None


def missed_by_browserx(page: PageReport, tool: str, which: str = "controls") -> tuple[int, list[str]] | None:
    """How many of ``tool``'s named interactive elements (its ``controls`` or ``others``) have a name
    browserx's whole-page view gives none of its controls, and those names. None when either side
    has no output."""
    bx, other = whole_view(page), page.results.get(tool)
    if not bx or not other or not other.runs_ms:
        return None
    exact = {normalise(n) for n in bx.names if n}
    truncated = [n[:-1] for n in exact if n.endswith("…")]  # browserx cuts long names with …
    named = [n for n in getattr(other, which) if normalise(n)]
    missed = [
        n
        for n in named
        if normalise(n) not in exact and not any(normalise(n).startswith(t) for t in truncated)
    ]
    return len(named), missed


def coverage_notes(page: PageReport, name: str, res: Result) -> list[str]:
    notes = []
    found = missed_by_browserx(page, name)
    if res.others and (more := missed_by_browserx(page, name, "others")):
        with_text, unmatched = more
        notes.append(
            f"- {name} also indexes {len(res.others)} elements that are not controls by role or tag "
            "(table rows/cells, labels, containers with click listeners), left out of the name check; "
            f"{with_text - len(unmatched)} of the {with_text} with text carry a name browserx gives one "
            "of its controls"
        )
    if found and found[1]:
        missed = found[1]
        shown = ", ".join(f"`{' '.join(m.split())[:60]}`" for m in missed[:8])
        more_text = f" and {len(missed) - 8} more" if len(missed) > 8 else ""
        notes.append(f"- named by {name}, no browserx control of that name: {shown}{more_text}")
    return notes


def split_line(res: Result) -> str:
    parts = [
        f"capture {fmt_ms(res.extra_median('capture_ms'))} ms (browser CDP + transfer)",
        f"build {fmt_ms(res.extra_median('build_ms'))} ms (host CPU + hit-test)",
    ]
    for key, label in (("view_ms", "view (render, budget)"), ("stability_ms", "stability wait")):
        value = res.extra_median(key)
        if value is not None:
            parts.append(f"{label} {fmt_ms(value)} ms")
    parts.append(f"rest {fmt_ms(res.extra_median('rest_ms'))} ms (socket, relay, token count)")
    return (
        f"{res.tool} split (medians): {', '.join(parts)}; host stats: "
        f"{int(res.extra_median('stats_interactive') or 0)} interactive."
    )


def page_table(page: PageReport) -> list[str]:
    r = page.results
    bx, full = r.get("browserx"), whole_view(page)
    lines = [
        f"### {page.name} (`{page.url}`)",
        "",
        f"{page.elements or '?'} elements (browserx count, incl. shadow roots and frames); "
        f"document height {page.doc_height or '?'} px; "
        f"{'fits' if page.fits_browser_use_window else 'does not fit'} browser-use's window "
        f"(viewport {VIEWPORT[1]} px + {BROWSER_USE_THRESHOLD_PX} px); "
        f"browserx host max RSS while serving it {page.rss_max_mb or 0:.0f} MB.",
        "",
        "| tool | runs | median ms | min ms | ÷ browserx (median) | tokens | browserx ÷ tool tokens "
        "| browserx full ÷ tool tokens | interactive listed | named controls browserx full lists |",
        "| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |",
    ]
    notes: list[str] = []
    for name in TOOLS:
        res = r.get(name)
        if res is None or not res.runs_ms:
            why = "not run" if res is None else "error, below"
            lines.append(f"| {name} | 0 | — | — | — | — | — | — | — ({why}) | — |")
            continue
        found = missed_by_browserx(page, name) if name in OTHERS else None
        cover = f"{found[0] - len(found[1])} of {found[0]}" if found else "—"
        if name in OTHERS:
            notes += coverage_notes(page, name, res)
        lines.append(
            f"| {name} | {len(res.runs_ms)} | {fmt_ms(res.median)} | {fmt_ms(res.min)} "
            f"| {fmt_ratio(res.median, bx.median if bx else None)} | {res.tokens:,} "
            f"| {fmt_ratio(bx.tokens if bx else None, res.tokens, 2)} "
            f"| {fmt_ratio(full.tokens if full else None, res.tokens, 2)} | {res.interactive} | {cover} |"
        )
    if notes:
        lines += ["", *notes]
    splits = [
        split_line(res) for name in ("browserx", "browserx full") if (res := r.get(name)) and res.runs_ms
    ]
    if splits:
        lines += ["", *[f"- {line}" for line in splits]]
    if page.views:
        lines += ["", f"- {views_line(page)}"]
    errors = [
        f"- {name}: {len(res.failures)} failed run(s){f' ({res.error})' if res.error else ''}: "
        + "; ".join(res.failures)
        for name, res in r.items()
        if res.failures
    ]
    errors += [f"- {name}: {res.error}" for name, res in r.items() if res.error and not res.failures]
    page_notes = [f"- {note}" for note in page.notes]
    if errors or page_notes:
        lines += ["", *errors, *page_notes]
    return [*lines, ""]


def views_line(page: PageReport) -> str:
    parts = [f"`viewport_only` {page.views['viewport_only']:,} tokens"]
    query = page.views.get("query")
    if query:
        parts.append(
            f'`query="{query["text"]}", max_tokens={QUERY_MAX_TOKENS}` {query["tokens"]:,} tokens, '
            f"the button {'is' if query['found'] else 'is NOT'} in it"
        )
    if "rss_max_mb" in page.views:
        parts.append(f"host max RSS meanwhile {page.views['rss_max_mb']:.0f} MB")
    return f"browserx's other views (one untimed call each): {'; '.join(parts)}."


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("holds" if ok else "**misses**")


def median_of(page: PageReport | None, tool: str) -> float | None:
    res = page.results.get(tool) if page else None
    return res.median if res else None


def floors(pages: list[PageReport], env_info: dict[str, Any]) -> list[str]:
    by_size = {p.size: p for p in pages if p.size}
    rows: list[tuple[str, str, str]] = []
    for size, limit in LATENCY_FLOORS.items():
        med, full = median_of(by_size.get(size), "browserx"), median_of(by_size.get(size), "browserx full")
        measured = f"{med / 1000:.3f} s" if med is not None else "not measured"
        if full is not None:
            measured += f" (full view {full / 1000:.3f} s)"
        rows.append(
            (
                f"browserx text snapshot ≤ {limit} s at {size // 1000}k (median)",
                measured,
                verdict(None if med is None else med <= limit * 1000),
            )
        )
    for size in SPEEDUP_SIZES:
        page = by_size.get(size)
        bx, full, bu = (median_of(page, t) for t in ("browserx", "browserx full", "browser-use"))
        ratio = bu / bx if bx and bu else None
        measured = f"{ratio:.1f}×" if ratio else "not measured"
        if full and bu:
            measured += f" (full view {bu / full:.1f}×)"
        rows.append(
            (
                f"≥ {SPEEDUP_FLOOR:.0f}× faster than browser-use at {size // 1000}k (median ÷ median)",
                measured,
                verdict(None if ratio is None else ratio >= SPEEDUP_FLOOR),
            )
        )
    big = by_size.get(max(LATENCY_FLOORS))
    rss = big.rss_max_mb if big else None
    rows.append(
        (
            f"host RSS ≤ {RSS_FLOOR_MB:.0f} MB at 50k (max sampled VmRSS while serving it)",
            f"{rss:.0f} MB (lifetime VmHWM {env_info.get('host_hwm_mb', 0):.0f} MB)"
            if rss
            else "not measured",
            verdict(None if not rss else rss <= RSS_FLOOR_MB),
        )
    )
    views_rss = big.views.get("rss_max_mb") if big else None
    rows.append(
        (
            f"host RSS ≤ {RSS_FLOOR_MB:.0f} MB at 50k while serving its other views (`viewport_only`, query-focused)",
            f"{views_rss:.0f} MB" if views_rss else "not measured",
            verdict(None if not views_rss else views_rss <= RSS_FLOOR_MB),
        )
    )
    for label, pick in (
        ("whole-page view", whole_view),
        ("default view (info)", lambda p: p.results.get("browserx")),
    ):
        ratios = []
        for page in pages:
            bx, pw = pick(page), page.results.get("playwright")
            if bx and pw and bx.tokens and pw.tokens:
                ratios.append((page.name, bx.tokens / pw.tokens))
        ok = None if not ratios else all(x <= TOKENS_VS_PLAYWRIGHT for _, x in ratios)
        rows.append(
            (
                f"tokens ≤ {TOKENS_VS_PLAYWRIGHT}× Playwright whole-page, browserx {label}",
                ", ".join(f"{n} {x:.2f}×" for n, x in ratios) or "not measured",
                verdict(ok) if "info" not in label else "—",
            )
        )
    long_pages = [
        (p.name, p.views["viewport_only"])
        for p in pages
        if "viewport_only" in p.views and (p.doc_height or 0) > VIEWPORT[1]
    ]
    rows.append(
        (
            f"`viewport_only` text view of long pages ≤ {VIEWPORT_ONLY_TOKENS:,} tokens",
            ", ".join(f"{n} {t:,}" for n, t in long_pages) or "not measured",
            verdict(None if not long_pages else all(t <= VIEWPORT_ONLY_TOKENS for _, t in long_pages)),
        )
    )
    budgeted = []  # (page, default view tokens, whole page tokens)
    for page in pages:
        default, whole = page.results.get("browserx"), page.results.get("browserx full")
        if default and whole and default.tokens and whole.tokens:
            budgeted.append((page.name, default.tokens, whole.tokens))
    rows.append(
        (
            f"default text view within its budget ({DEFAULT_MAX_TOKENS:,} tokens), the whole page when it fits "
            "(default view tokens of whole-page tokens)",
            ", ".join(f"{n} {d:,} of {f:,}" for n, d, f in budgeted) or "not measured",
            verdict(
                None
                if not budgeted
                else all(
                    d <= DEFAULT_MAX_TOKENS and (f > DEFAULT_MAX_TOKENS or d == f) for _, d, f in budgeted
                )
            ),
        )
    )
    queried = [(p.name, p.views["query"]) for p in pages if "query" in p.views]
    rows.append(
        (
            f"query-focused view of the largest page ≤ its max_tokens ({QUERY_MAX_TOKENS:,}) and holding "
            "the element the query names",
            "; ".join(
                f'{n}: "{q["text"]}" {q["tokens"]:,} tokens, {"found" if q["found"] else "NOT found"}'
                for n, q in queried
            )
            or "not measured",
            verdict(
                None
                if not queried
                else all(q["found"] and q["tokens"] <= QUERY_MAX_TOKENS for _, q in queried)
            ),
        )
    )
    bu_ratios = []
    for page in pages:
        bx, bu = page.results.get("browserx"), page.results.get("browser-use")
        if page.fits_browser_use_window and bx and bu and bx.tokens and bu.tokens:
            bu_ratios.append((page.name, bx.tokens / bu.tokens))
    rows.append(
        (
            f"tokens ≤ {TOKENS_VS_BROWSER_USE}× browser-use on pages that fit its window",
            ", ".join(f"{n} {x:.2f}×" for n, x in bu_ratios) or "no page measured",
            verdict(None if not bu_ratios else all(x <= TOKENS_VS_BROWSER_USE for _, x in bu_ratios)),
        )
    )
    counts, names = [], []
    for page in pages:
        bx = whole_view(page)
        others = [r.interactive for t in OTHERS if (r := page.results.get(t)) and r.runs_ms]
        if bx and bx.interactive is not None and others:
            counts.append(f"{page.name} {bx.interactive} vs {max(x or 0 for x in others)}")
        missed = [len(f[1]) for t in OTHERS if (f := missed_by_browserx(page, t)) is not None]
        if missed:
            names.append((page.name, sum(missed)))
    rows.append(
        (
            "browserx (whole page) lists every interactive element either tool lists: by count "
            "(browserx vs the larger)",
            "; ".join(counts) or "not measured",
            "see by name",
        )
    )
    rows.append(
        (
            "… by name: the other tools' named controls with no browserx control of that name",
            "; ".join(f"{n} {k}" for n, k in names) or "not measured",
            verdict(None if not names else all(k == 0 for _, k in names)),
        )
    )
    return [
        "| floor (from the issue) | measured | verdict |",
        "| --- | --- | --- |",
        *[f"| {a} | {b} | {c} |" for a, b, c in rows],
    ]


def write_report(pages: list[PageReport], env_info: dict[str, Any], args: argparse.Namespace) -> None:
    m = env_info["machine"]
    tool_errors = env_info["tool_errors"]
    lines = [
        "# Benchmarks: browserx vs browser-use vs Playwright",
        "",
        "Generated by `bench/run.py`; do not edit by hand. Reproduce with `make bench` "
        "(which installs browserx and `bench/requirements.txt` into `.venv-bench`, then runs "
        f"`.venv-bench/bin/python bench/run.py`). This run: `{env_info['command']}`.",
        "",
        "Real third-party apps (Django admin, Swagger UI, Redoc, Datasette, MkDocs Material, JupyterLab, "
        "Shoelace), browserx vs Playwright: [CORPUS.md](CORPUS.md) (`bench/corpus.py`).",
        "",
        "## Setup",
        "",
        f"- Date: {env_info['date']}; total bench time {env_info['elapsed_s']:.0f} s; load average "
        f"(1/5/15 min) {load(env_info['load_start'])} at the start, {load(env_info['load_end'])} at the end "
        "(anything else running on the machine shows up here and in the spread between median and min).",
        f"- Machine: {m['nproc']} CPUs ({m['cpu']}), {m['ram']} RAM, Linux {m['kernel']}, "
        f"Python {platform.python_version()}.",
        f"- Browser: {env_info.get('chromium', 'unknown')}, headless (`--headless=new`), window "
        f"{VIEWPORT[0]}x{VIEWPORT[1]}, one browser shared by all three tools (CDP port + browserx extension).",
        f"- browserx {version_of('browserx')} (the host runs from this checkout's working tree): "
        "`Client.snapshot(format='text', stats=True)` end to end through the control socket "
        "(host → extension → chrome.debugger), with the host's defaults (token budget, stability wait) as "
        "an agent gets it. **browserx full** is the same call with `max_tokens=0`: the whole page, used "
        "for the whole-page token ratio and the coverage checks."
        + (f" **browserx full: {tool_errors['browserx full']}**" if "browserx full" in tool_errors else ""),
        f"- browser-use {version_of('browser-use')}: `DomService.get_serialized_dom_tree()` + "
        "`SerializedDOMState.llm_representation()` over CDP (profile defaults: cross-origin iframes on, "
        f"paint-order filtering on, elements within {BROWSER_USE_THRESHOLD_PX} px of the viewport); no LLM, "
        "no screenshot. Interactive = entries in its selector map."
        + (f" **Unavailable: {tool_errors['browser-use']}**" if "browser-use" in tool_errors else ""),
        f"- Playwright {version_of('playwright')}: `{env_info.get('playwright_method', 'n/a')}` over "
        "`connect_over_cdp` (whole page, iframes included). Interactive = lines whose role is one of "
        f"{PW_INTERACTIVE_ROLES.replace('|', ', ')}."
        + (f" **Unavailable: {tool_errors['playwright']}**" if "playwright" in tool_errors else ""),
        "- browserx interactive = distinct `[N]` IDs in the text view. Coverage by name: each other tool's "
        "named controls (browser-use: selector-map entries that are controls by AX role or tag) whose "
        "name (case and whitespace folded) is the name of no `[N]` control in browserx's whole-page view.",
        "- Tokens: cl100k_base (`browserx.views.tokens.count_tokens`) of each tool's text output.",
        f"- Method: navigate, wait for load, one warm-up call per tool, then {args.runs} runs per tool "
        "interleaved (browserx, browserx full, browser-use, Playwright, browserx, …); median and min of wall-clock "
        f"latency in ms. A tool whose first measured run on a page takes > {SLOW_CALL_S:.0f} s gets {args.slow_runs} runs there; "
        f"a call is abandoned after {CALL_TIMEOUT_S:.0f} s and a tool after {MAX_FAILURES} failed runs on a page.",
        "- Other browserx views, after a page's timed runs (one untimed call each): `viewport_only=True`, and on "
        f"the largest page `query=<name>, max_tokens={QUERY_MAX_TOKENS}`, the name being that of the button four fifths "
        "down the whole-page view; checked: its tokens, and that the button is listed in it.",
        "- Host RSS: VmRSS of the browserx host process (`/proc/<pid>/status`), sampled every 5 ms during "
        "all of a page's timed calls, and apart during its other views.",
        "",
        "## Floors",
        "",
        *floors(pages, env_info),
        "",
        "## Results per page",
        "",
    ]
    for page in pages:
        lines += page_table(page)
    lines += ["## Raw runs (ms)", ""]
    for page in pages:
        for name, res in page.results.items():
            if res.runs_ms:
                warm = f" (warm-up {res.warmup_ms:.0f})" if res.warmup_ms is not None else ""
                lines.append(f"- {page.name} / {name}: {', '.join(f'{x:.0f}' for x in res.runs_ms)}{warm}")
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"report written to {REPORT}", flush=True)


# -- main ------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5, help="measured runs per tool and page (default 5)")
    parser.add_argument(
        "--slow-runs", type=int, default=3, help="runs for a tool whose first run took > 30 s (default 3)"
    )
    parser.add_argument(
        "--sizes",
        type=lambda s: tuple(int(x) for x in s.split(",") if x),
        default=SIZES,
        help="generated page sizes, comma-separated (default 1000,5000,20000,50000)",
    )
    parser.add_argument(
        "--fixtures",
        type=lambda s: tuple(x for x in s.split(",") if x),
        default=FIXTURE_PAGES,
        help=f"fixture pages, comma-separated (default {','.join(FIXTURE_PAGES)})",
    )
    parser.add_argument(
        "--tools",
        type=lambda s: tuple(x for x in s.split(",") if x),
        default=OTHERS,
        help="comparison tools to run besides browserx (default browser-use,playwright)",
    )
    parser.add_argument("--dump", type=Path, help="write each tool's last output per page to this dir")
    parser.add_argument("--verbose", action="store_true", help="print tracebacks of tool failures")
    return parser.parse_args(argv)


def _interpreter() -> str:
    """The Python running this, as a path relative to the checkout when it lives inside it."""
    here = Path(__file__).resolve().parents[1]
    exe = Path(sys.executable)
    try:
        return str(exe.relative_to(here))
    except ValueError:
        return str(exe)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="browserx-bench-"))
    os.environ["BROWSERX_RUNTIME_DIR"] = str(workdir / "run")
    # The bench loads and measures pages through the raw `cdp` method: opened for this host only.
    config = workdir / "config.json"
    config.write_text('{"allow_raw_cdp": true}', encoding="utf-8")
    os.environ["BROWSERX_CONFIG"] = str(config)
    # browser-use: no telemetry, no cloud sync, no version check, its config in the temp dir.
    os.environ.update(
        {
            "ANONYMIZED_TELEMETRY": "false",
            "BROWSER_USE_CLOUD_SYNC": "false",
            "BROWSER_USE_VERSION_CHECK": "false",
            "BROWSER_USE_CLOUD_HINTS": "false",
            "BROWSER_USE_LOGGING_LEVEL": "warning",
            "BROWSER_USE_CONFIG_DIR": str(workdir / "browseruse"),
        }
    )
    env_info: dict[str, Any] = {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine_info(),
        "command": " ".join([_interpreter(), "bench/run.py", *(argv if argv is not None else sys.argv[1:])]),
        "tool_errors": {},
        "load_start": os.getloadavg(),
    }
    try:
        pages = asyncio.run(run_all(args, workdir, env_info))
        env_info["elapsed_s"] = time.monotonic() - started
        env_info["load_end"] = os.getloadavg()
        write_report(pages, env_info, args)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
