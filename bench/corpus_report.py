"""corpus.py's report: the summary line per page (stdout, as it goes) and docs/CORPUS.md: the setup,
the floors, a table per page, each tool's misses the other finds, where browserx's snapshot time
goes, the actions by kind, and every page's details."""

from __future__ import annotations

import argparse
from typing import Any

from corpus_actions import PW_ACTION_TIMEOUT_MS, TARGET_WAIT_S
from corpus_scoring import PageResult
from corpus_session import SPLIT
from harness import ROOT, median_or_none, version_of
from markdown import cell, fmt_ms, load, machine_line, write_markdown

REPORT = ROOT / "docs" / "CORPUS.md"
SMALL_PAGE = 3000  # elements: pages under this are held to the latency floor
LATENCY_FLOOR = 1.2  # browserx median ÷ Playwright median on small pages

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
    runs = [(r.page.key, a) for r in results for a in r.actions]
    kinds = sorted({a.action.do for _, a in runs})
    # The ratio compares the actions both tools did (a time of an action that failed is no time
    # of it): each tool's median over those.
    both = {
        (page, a.action.label)
        for page, a in runs
        if a.tool == "browserx" and a.ok
        and any(p == page and b.tool == "playwright" and b.ok and b.action.label == a.action.label for p, b in runs)
    }  # fmt: skip
    lines = [
        "| kind | browserx verified | browserx client ms (median) | browserx `duration_ms` (median) "
        "| browserx round trips (median) | Playwright verified | Playwright call ms (median) "
        "| both verified | browserx ms, those (median) | Playwright ms, those (median) | ratio (those) |",
        "| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |",
    ]

    def med(values: list[float | None]) -> str:
        return fmt_ms(median_or_none(values))

    for kind in [*kinds, "all"]:
        bx = [(p, a) for p, a in runs if a.tool == "browserx" and kind in (a.action.do, "all")]
        pw = [(p, a) for p, a in runs if a.tool == "playwright" and kind in (a.action.do, "all")]
        trips = median_or_none([float(a.round_trips) for _, a in bx if a.ok and a.round_trips is not None])
        bx_paired = median_or_none([a.call_ms for p, a in bx if a.ok and (p, a.action.label) in both])
        pw_paired = median_or_none([a.call_ms for p, a in pw if a.ok and (p, a.action.label) in both])
        paired = sum(1 for p, a in bx if a.ok and (p, a.action.label) in both)
        ratio = (
            f"{bx_paired / pw_paired:.2f}×" + (" ✓" if bx_paired <= pw_paired else "")
            if bx_paired and pw_paired
            else "—"
        )
        lines.append(
            f"| {kind} | {sum(a.ok for _, a in bx)}/{len(bx)} | {med([a.call_ms for _, a in bx if a.ok])} | "
            f"{med([a.host_ms for _, a in bx if a.ok])} | {'—' if trips is None else f'{trips:g}'} | "
            f"{sum(a.ok for _, a in pw)}/{len(pw)} | {med([a.call_ms for _, a in pw if a.ok])} | "
            f"{paired} | {fmt_ms(bx_paired)} | {fmt_ms(pw_paired)} | {ratio} |"
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
            if len(a.rounds_ms) > 1:
                timing += (
                    f", median of {len(a.rounds_ms)} rounds ({', '.join(fmt_ms(x) for x in a.rounds_ms)})"
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
        machine_line(env["machine"]),
        f"- Browser: {env.get('chromium', 'unknown')}, headless, one browser and one tab shared by both tools "
        "(bench/harness.py's `start_browser`: browserx extension + host, and a CDP port Playwright connects to).",
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
        "- Actions: per tool, the page opened afresh, then its actions in order, in rounds (`--action-rounds`, "
        "default 3; the tools take turns, the first of each round alternating), each action's time its median "
        "over the rounds and verified only when every round verified it: the target is the first control "
        "that fits in the tool's own view (browserx: default view, else `max_tokens=0`; Playwright: the "
        "snapshot line's `aria-ref`, or `get_by_role(role, name=…, exact=True).first` for a line without a ref), "
        f"looked for again every 0.25 s for up to {TARGET_WAIT_S:.0f} s while it is not there, "
        "acted on with `Client.click/type_text/select/check` or `locator.click/fill/select_option/check` "
        f"(timeout {PW_ACTION_TIMEOUT_MS / 1000:.0f} s; `fill` refused → click + keyboard, `select_option` on "
        "an ARIA combobox → click it, then its option's ref), and verified by the action's `check` on the "
        "page's own state. Times: browserx client-side and its `duration_ms` (which includes waiting for the "
        "page's reaction until the DOM is quiet); Playwright the acting call(s) (which return once the input "
        "is dispatched). Per kind, the ratio is over the actions both tools verified (each tool's median "
        "over those): an action one tool failed has no time to compare.",
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
    # The oracle corpus section belongs to bench/oracle_corpus.py: kept as it is.
    old = REPORT.read_text(encoding="utf-8") if REPORT.exists() else ""
    begin, end = "<!-- oracle-corpus:begin -->", "<!-- oracle-corpus:end -->"
    if begin in old and end in old:
        lines += ["", old[old.index(begin) : old.index(end) + len(end)]]
    write_markdown(REPORT, "\n".join(lines).rstrip() + "\n")
