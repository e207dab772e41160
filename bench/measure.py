"""run.py's measuring: every tool on every page of the one shared browser. Per page: navigate (with
browserx's raw ``cdp``), point every adapter at it, one warm-up call each, then the runs interleaved
(browserx, browserx full, browser-use, Playwright, browserx, …) while the host's RSS is sampled;
then browserx's other views. A page whose tab crashed is measured once more from scratch."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adapters import CALL_TIMEOUT_S, Sample
from adapters.browser_use import LOGGERS, BrowserUseTool
from adapters.browserx import BrowserxTool
from adapters.playwright import PlaywrightTool
from harness import VIEWPORT, LogTally, RssSampler, running_browser, serve_pages, short_error
from results import PageReport, Result
from scoring import QUERY_MAX_TOKENS, whole_view

SLOW_CALL_S = 30.0  # a tool whose first measured run takes longer gets --slow-runs runs on that page
MAX_FAILURES = 2  # failed runs after which a tool is given up on for a page


def page_set(fixtures: tuple[str, ...], generated: list[str], sizes: tuple[int, ...]) -> list[PageReport]:
    """The pages to measure: the chosen fixture pages, then the generated ones (harness.serve_pages)."""
    reports = [PageReport(name, name, None) for name in fixtures]
    reports += [
        PageReport(f"generated {size // 1000}k", name, size)
        for size, name in zip(sizes, generated, strict=True)
    ]
    return reports


@dataclass
class Rig:
    """What every page is measured with: the adapters by name (browserx first), browserx itself (it
    loads the pages), the host's RSS sampler, the comparison tools' log tally and the options."""

    tools: dict[str, Any]
    bx: BrowserxTool
    rss: RssSampler
    logs: LogTally
    args: argparse.Namespace


async def timed_call(make: Callable[[], Awaitable[Sample]]) -> Sample:
    return await asyncio.wait_for(make(), timeout=CALL_TIMEOUT_S)


async def run_all(args: argparse.Namespace, workdir: Path, env_info: dict[str, Any]) -> list[PageReport]:
    tools: dict[str, Any] = {}
    rss: RssSampler | None = None
    logs = LogTally(LOGGERS)
    logs.attach()
    try:
        with serve_pages(workdir, args.sizes) as (origin, generated), running_browser(workdir) as browser:
            pages = page_set(args.fixtures, generated, args.sizes)
            try:
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
                tools.update(await connect_others(args, browser.cdp_endpoint, first, env_info))
                if "playwright" in tools:
                    env_info["playwright_method"] = tools["playwright"].method
                rig = Rig(tools, bx, rss, logs, args)
                for page in pages:
                    await measure_page(page, f"{origin}/{page.url}", rig)
                env_info["host_hwm_mb"] = (rss.status_kb("VmHWM") or 0) / 1024
            finally:
                for name, tool in reversed(list(tools.items())):
                    try:
                        await tool.close()
                    except Exception as exc:
                        print(f"closing {name}: {short_error(exc)}", flush=True)
                if rss is not None:
                    rss.close()
    finally:
        logs.detach()
    return pages


async def connect_others(
    args: argparse.Namespace, cdp_endpoint: str, first: str, env_info: dict[str, Any]
) -> dict[str, Any]:
    """The comparison tools asked for (``--tools``) that connect; why the others did not goes to
    ``env_info["tool_errors"]``."""
    tools: dict[str, Any] = {}
    for name, connect in (
        ("browser-use", BrowserUseTool.connect),
        ("playwright", PlaywrightTool.connect),
    ):
        if name not in args.tools:
            continue
        try:
            tools[name] = await asyncio.wait_for(connect(cdp_endpoint, first), timeout=60)
        except Exception as exc:
            env_info["tool_errors"][name] = short_error(exc)
            print(f"{name} unavailable: {short_error(exc)}", flush=True)
            if args.verbose:
                traceback.print_exc()
    return tools


async def measure_page(page: PageReport, url: str, rig: Rig) -> None:
    """``bench_page``, once more from a fresh navigation when the tab crashed meanwhile."""
    try:
        if await bench_page(page, url, rig):
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
            if await bench_page(page, url, rig):
                page.notes.append("the tab crashed again in the second attempt")
    except Exception as exc:
        page.notes.append(f"page failed: {short_error(exc)}")
        print(f"   page failed: {short_error(exc)}", flush=True)


async def bench_page(page: PageReport, url: str, rig: Rig) -> bool:
    """Measure every tool on one page; True when the tab's renderer crashed meanwhile."""
    print(f"== {page.name}: {url}", flush=True)
    await load_page(page, url, rig)
    page.results = {name: Result(name) for name in rig.tools}
    rig.logs.clear()
    with rig.rss.sampling():
        await time_tools(page, rig)
    page.notes += [f"logged during this page: {line}" for line in rig.logs.summary()]
    page.rss_max_mb = rig.rss.max_kb / 1024
    elements = page.results["browserx"].extra_median("elements") if "browserx" in page.results else None
    page.elements = int(elements) if elements else None
    for name, result in page.results.items():
        result.finish()
        if rig.args.dump and result.text:
            rig.args.dump.mkdir(parents=True, exist_ok=True)
            (rig.args.dump / f"{Path(page.url).stem}.{name}.txt").write_text(result.text, encoding="utf-8")
        if result.error:
            print(f"   {name}: ERROR {result.error}", flush=True)
        else:
            print(
                f"   {name}: median {result.median:.0f} ms, min {result.min:.0f} ms, "
                f"{result.tokens} tokens, {result.interactive} interactive",
                flush=True,
            )
    await other_views(page, rig)
    problems = [f for r in page.results.values() for f in [*r.failures, r.error or ""]]
    pw = rig.tools.get("playwright")
    return bool(pw and pw.crashed) or any("crash" in problem.lower() for problem in problems)


async def load_page(page: PageReport, url: str, rig: Rig) -> None:
    """Navigate (once more from scratch when that fails), note the page's height, point every
    adapter at it."""
    bx = rig.bx
    try:
        await asyncio.to_thread(bx.navigate, url)
    except Exception as exc:  # once more, from scratch, before giving the page up
        page.notes.append(f"first navigation failed ({short_error(exc)}); navigated again")
        print(f"   navigation failed, retrying: {short_error(exc)}", flush=True)
        await asyncio.to_thread(bx.navigate, url)
    page.doc_height, viewport = await asyncio.to_thread(bx.page_facts)
    if viewport and viewport != VIEWPORT:
        page.notes.append(f"viewport was {viewport[0]}x{viewport[1]}")
    for tool in rig.tools.values():
        if hasattr(tool, "prepare"):
            with contextlib.suppress(Exception):  # a tool that cannot find the tab fails its runs
                await tool.prepare(url)


async def time_tools(page: PageReport, rig: Rig) -> None:
    """One warm-up call per tool, then the runs interleaved; a tool that fails MAX_FAILURES runs is
    given up on, one slower than SLOW_CALL_S a call gets ``--slow-runs`` runs."""
    args = rig.args
    planned = dict.fromkeys(rig.tools, args.runs)
    for name, tool in rig.tools.items():  # warm-up: once each, not counted
        t0 = time.perf_counter()
        try:
            await timed_call(tool.snapshot)
        except Exception as exc:
            page.results[name].error = f"warm-up failed: {short_error(exc)}"
            print(f"   {name}: warm-up failed: {short_error(exc)}", flush=True)
            continue
        page.results[name].warmup_ms = (time.perf_counter() - t0) * 1000
    for run in range(args.runs):  # interleaved: browserx, browserx full, browser-use, playwright, ...
        for name, tool in rig.tools.items():
            result = page.results[name]
            if result.error or run >= planned[name]:
                continue
            try:
                result.add(await timed_call(tool.snapshot))
            except Exception as exc:
                result.failures.append(f"run {run + 1}: {short_error(exc)}")
                if len(result.failures) >= MAX_FAILURES:
                    result.error = f"given up after {len(result.failures)} failed runs"
            fastest = result.min or 0
            if run == 0 and fastest > SLOW_CALL_S * 1000 and args.slow_runs < args.runs:
                planned[name] = args.slow_runs
                page.notes.append(
                    f"{name} took {fastest / 1000:.0f} s (> {SLOW_CALL_S:.0f} s) a call: "
                    f"{args.slow_runs} runs here"
                )


async def other_views(page: PageReport, rig: Rig) -> None:
    """browserx's other views, an untimed call each, while the host's RSS is sampled apart."""
    whole = whole_view(page)
    if whole is None or not whole.text:
        return
    largest = page.size == max(rig.args.sizes, default=0)
    try:
        with rig.rss.sampling():
            page.views = await asyncio.to_thread(rig.bx.view_checks, whole.text, largest, QUERY_MAX_TOKENS)
        page.views["rss_max_mb"] = rig.rss.max_kb / 1024
    except Exception as exc:
        page.notes.append(f"view checks failed: {short_error(exc)}")
