"""run.py's report, docs/BENCHMARKS.md: the setup (machine, browser, each tool and how it is
called, the method), the floors (scoring.py's verdicts), a table per page with its notes (coverage,
browserx's time split, its other views, failures) and the raw runs."""

from __future__ import annotations

import argparse
from typing import Any

from adapters import CALL_TIMEOUT_S, OTHERS, PW_INTERACTIVE_ROLES, TOOLS
from adapters.browser_use import BROWSER_USE_THRESHOLD_PX
from harness import ROOT, VIEWPORT, version_of
from markdown import fmt_ms, fmt_ratio, load, machine_line, write_markdown
from measure import MAX_FAILURES, SLOW_CALL_S
from results import PageReport, Result
from scoring import QUERY_MAX_TOKENS, floor_rows, missed_by_browserx, whole_view

REPORT = ROOT / "docs" / "BENCHMARKS.md"


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


def floors(pages: list[PageReport], env_info: dict[str, Any]) -> list[str]:
    return [
        "| floor | measured | verdict |",
        "| --- | --- | --- |",
        *[f"| {a} | {b} | {c} |" for a, b, c in floor_rows(pages, env_info)],
    ]


def write_report(pages: list[PageReport], env_info: dict[str, Any], args: argparse.Namespace) -> None:
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
        machine_line(env_info["machine"]),
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
    write_markdown(REPORT, "\n".join(lines) + "\n")
