"""browserx vs Playwright on the oracle corpus (tests/e2e/apps/oracle.py: 50+ pages of 20+ third-party
UI libraries), with Chrome's accessibility tree as the oracle for both.

One headless Chromium (bench/harness.py's ``running_browser``): Playwright attaches over CDP, opens
each page by its steps and reads Chrome's side through its own CDP session; browserx observes the
same tab. Per page:

* browserx: found / role / name / states agreement and precision, exactly as
  tests/e2e/test_oracle_corpus.py scores them (``oracle_join.score_view``);
* Playwright: ``aria_snapshot(mode="ai")`` lines with a ``[ref=…]``, joined to Chrome's targets by
  role and name one to one (its refs carry no DOM identity); states from its ``[checked]``,
  ``[selected]``, ``[expanded]``, ``[disabled]``, ``[pressed]`` marks;
* tokens of each tool's default output and snapshot latency (interleaved runs after a warm-up);
* the page's actions (oracle.py: one or two per library), per tool on the page opened afresh, as in
  bench/corpus_actions.py: the target found by role and name in the tool's own view (browserx acts
  by ID; Playwright by the aria ref of that line, else ``get_by_role``), judged by the page's own
  state.

The per-library table replaces the oracle section of docs/CORPUS.md (between its markers; the rest
of the file belongs to bench/corpus.py) and is printed.

    .venv-bench/bin/python bench/oracle_corpus.py [--runs N] [--pages lib/page,...] [--no-actions] [--no-report]
"""

from __future__ import annotations

import argparse
import contextlib
import re
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from adapters.browserx import BrowserxConnection
from corpus_actions import act_browserx, act_playwright
from corpus_scoring import ActionRun, Control, playwright_controls
from corpus_session import Session
from harness import ROOT, arg_parser, comma_list, end_facts, run_facts, running_browser, short_error, workdir
from markdown import load, machine_line, write_markdown
from tests.e2e.apps.corpus import norm_name, run_steps
from tests.e2e.apps.oracle import PAGES, SERVERS, OraclePage, js_step
from tests.e2e.apps.oracle_join import STATES, Score, Target, score_view

from browserx import Client
from browserx.views.tokens import count_tokens

REPORT = ROOT / "docs" / "CORPUS.md"
BEGIN, END = "<!-- oracle-corpus:begin -->", "<!-- oracle-corpus:end -->"
# Live pages: corpus pages that never stop updating once opened, as data apps fed by a websocket
# do (a streaming grid, a spreadsheet recomputed, a status line pushed by the server). Bench-only
# (the oracle test keeps its pages still): their latency is what is measured here.
_EVERY = "window.__live = setInterval(() => {{ {} }}, {});"
LIVE_PAGES = (
    OraclePage("live", "live updates", "ag-grid-stream", "/pages/ag-grid.html",
               "AG Grid fleet page, 5 price cells updated every 100 ms (its streaming-updates pattern)",
               after=(js_step(_EVERY.format("for (let j = 0; j < 5; j++) { const n = api.getDisplayedRowAtIndex("
                                            "Math.floor(Math.random() * 15)); if (n) n.setDataValue('price', "
                                            "20000 + Math.floor(Math.random() * 50000)); }", 100)),), settle=1.5),
    OraclePage("live", "live updates", "handsontable-ticks", "/pages/handsontable.html",
               "Handsontable budget sheet, one amount rewritten every 150 ms",
               ready=PAGES[[p.key for p in PAGES].index("handsontable/budget")].ready,
               after=(js_step(_EVERY.format("hot.setDataAtCell(Math.floor(Math.random() * 8), 2, "
                                            "Math.floor(Math.random() * 900))", 150)),), settle=1.5),
    OraclePage("live", "live updates", "dash-status", "/",
               "Dash explorer, a status line pushed every 100 ms (set_props, as a server push renders)",
               server="dash", ready=PAGES[[p.key for p in PAGES].index("dash/explorer")].ready,
               after=(js_step(_EVERY.format("dash_clientside.set_props('out', {children: 'Updated ' + "
                                            "new Date().toISOString()})", 100)),), settle=1.5),
)  # fmt: skip
_PW_STATE = re.compile(r"\[(checked|selected|expanded|disabled|pressed)(?:=(\w+))?\]")


@dataclass
class PwScore:
    targets: int = 0
    found: int = 0
    role: int = 0
    states: int = 0
    refs: int = 0

    def add(self, other: PwScore) -> None:
        for k in self.__dataclass_fields__:
            setattr(self, k, getattr(self, k) + getattr(other, k))


@dataclass
class Row:
    page: OraclePage
    bx: Score = field(default_factory=Score)
    pw: PwScore = field(default_factory=PwScore)
    bx_ms: list[float] = field(default_factory=list)
    pw_ms: list[float] = field(default_factory=list)
    bx_tokens: int = 0
    pw_tokens: int = 0
    pw_misses: list[str] = field(default_factory=list)
    acts: list[ActionRun] = field(default_factory=list)
    error: str = ""


def pw_states(line: str) -> dict[str, Any]:
    out: dict[str, Any] = {s: False for s in STATES}
    for m in _PW_STATE.finditer(line):
        out[m[1]] = "mixed" if m[2] == "mixed" else m[2] != "false"
    return out


def chrome_states(t: Target) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for s in STATES:
        v = t.states.get(s)
        out[s] = "mixed" if v in ("mixed", "Mixed") else v in (True, "true")
    return out


def score_playwright(targets: list[Target], text: str) -> tuple[PwScore, list[str]]:
    """Targets matched one to one to snapshot lines with a ref: by role and name first, then by name
    alone (Playwright computes roles itself: an ``<a>`` without href is its ``generic``)."""
    controls = [c for c in playwright_controls(text) if not c.key.startswith("line ")]
    used: set[str] = set()
    score = PwScore(targets=len(targets), refs=len(controls))
    matched: dict[int, Control] = {}
    for same_role in (True, False):
        for k, t in enumerate(targets):
            if k in matched or (not same_role and not t.name):
                continue
            for c in controls:
                if c.key in used or norm_name(c.name) != norm_name(t.name):
                    continue
                if same_role and c.role != t.role:
                    continue
                used.add(c.key)
                matched[k] = c
                break
    misses: list[str] = []
    for k, t in enumerate(targets):
        hit = matched.get(k)
        if hit is None:
            misses.append(f"{t.role} {t.name!r}")
            continue
        score.found += 1
        score.role += hit.role == t.role
        score.states += pw_states(hit.line) == chrome_states(t)
    return score, misses


class Opener:
    """corpus.Driver over Playwright's page."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def goto(self, url: str) -> None:
        self.page.goto(url, wait_until="load", timeout=60_000)

    def run(self, body: str) -> Any:
        return self.page.evaluate(f"() => {{\n{body}\n}}")


def measure(page: Any, bx: Client, spec: OraclePage, base: str, runs: int) -> Row:
    from tests.e2e.apps.corpus import Step

    row = Row(spec)
    opener = Opener(page)
    run_steps(opener, base, (Step(goto=spec.path, wait=spec.ready, timeout=30), *spec.after))
    time.sleep(spec.settle)
    tabs = bx.tabs()
    tab = next((int(t["tab"]) for t in tabs if t["url"] == page.url), int(tabs[0]["tab"]))
    session = page.context.new_cdp_session(page)
    try:

        def cdp(method: str, params: dict[str, Any]) -> Any:
            return session.send(method, params)

        view = bx.snapshot(tab=tab, format="json", max_tokens=0, boxes=True)["json"]
        scroll = page.evaluate("[window.scrollX, window.scrollY]")
        result = score_view(cdp, view, (float(scroll[0]), float(scroll[1])))
        row.bx = result.score
        targets = [p.target for p in result.pairs]
        pw_text = str(page.aria_snapshot(mode="ai", timeout=60_000))
        row.pw, row.pw_misses = score_playwright(targets, pw_text)
    finally:
        with contextlib.suppress(Exception):
            session.detach()
    bx_text = str(bx.snapshot(tab=tab)["text"])
    row.bx_tokens, row.pw_tokens = count_tokens(bx_text), count_tokens(pw_text)
    for _ in range(runs):
        t0 = time.perf_counter()
        bx.snapshot(tab=tab)
        row.bx_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        page.aria_snapshot(mode="ai", timeout=60_000)
        row.pw_ms.append((time.perf_counter() - t0) * 1000)
    return row


class SharedTab(Session):
    """corpus_session.Session over the tab this benchmark already drives (Playwright's page and a
    browserx connection of its own), so bench/corpus_actions.py acts here as on the app corpus."""

    def __init__(self, page: Any, conn: BrowserxConnection) -> None:  # no browser of its own
        self.dump = None
        self.page = page
        self.conn = conn
        self.tab = None
        self.bx_elements = None


def run_actions(s: SharedTab, spec: OraclePage, base: str) -> list[ActionRun]:
    """Each tool on the page opened afresh by its steps, then the page's actions in order."""
    from tests.e2e.apps.corpus import Step

    out: list[ActionRun] = []
    for tool, act in (("browserx", act_browserx), ("playwright", act_playwright)):
        try:
            run_steps(s, base, (Step(goto=spec.path, wait=spec.ready, timeout=30), *spec.after))
            time.sleep(spec.settle)
            s.tab = s.find_tab()
        except Exception as exc:
            out += [ActionRun(tool, a, False, f"page did not open: {short_error(exc)}") for a in spec.actions]
            continue
        for action in spec.actions:
            try:
                out.append(act(s, action))
            except Exception as exc:
                out.append(ActionRun(tool, action, False, short_error(exc)))
    return out


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f} %" if b else "—"


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def table(rows: list[Row]) -> list[str]:
    head = (
        "| library / page | Chrome targets | found browserx | role | name | states | precision browserx "
        "| found Playwright | role Playwright | states Playwright | tokens browserx | tokens Playwright | ms browserx | ms Playwright "
        "| actions verified browserx | actions verified Playwright |"
    )
    out = [head, "| --- " + "| --: " * 15 + "|"]
    libs: dict[str, list[Row]] = {}
    for r in rows:
        libs.setdefault(r.page.library, []).append(r)
    for lib, rs in libs.items():
        bx, pw = Score(), PwScore()
        for r in rs:
            bx.add(r.bx)
            pw.add(r.pw)
        bx_acts, pw_acts = (
            landed([a for r in rs for a in r.acts], tool) for tool in ("browserx", "playwright")
        )
        out.append(
            f"| **{lib}** ({rs[0].page.ecosystem}) | {bx.targets} | **{pct(bx.found, bx.targets)}** | "
            f"{pct(bx.role, bx.found)} | {pct(bx.name, bx.found)} | {pct(bx.states, bx.found)} | "
            f"**{pct(bx.legit, bx.legit + bx.imprecise)}** | **{pct(pw.found, pw.targets)}** | "
            f"{pct(pw.role, pw.found)} | {pct(pw.states, pw.found)} | | | | | **{bx_acts}** | **{pw_acts}** |"
        )
        for r in rs:
            if r.error:
                out.append(f"| {lib}/{r.page.name} | error: {r.error} " + "| " * 14 + "|")
                continue
            ratio = median(r.bx_ms) / median(r.pw_ms) if r.pw_ms else float("nan")
            out.append(
                f"| {lib}/{r.page.name} | {r.bx.targets} | {r.bx.found} ({pct(r.bx.found, r.bx.targets)}) | "
                f"{pct(r.bx.role, r.bx.found)} | {pct(r.bx.name, r.bx.found)} | {pct(r.bx.states, r.bx.found)} | "
                f"{r.bx.legit}/{r.bx.legit + r.bx.imprecise} | {r.pw.found} ({pct(r.pw.found, r.pw.targets)}) | "
                f"{pct(r.pw.role, r.pw.found)} | {pct(r.pw.states, r.pw.found)} | {r.bx_tokens:,} | {r.pw_tokens:,} | {median(r.bx_ms):.0f} | "
                f"{median(r.pw_ms):.0f} ({ratio:.2f}×) | | |"
            )
    return out


def landed(acts: list[ActionRun], tool: str) -> str:
    runs = [a for a in acts if a.tool == tool]
    return f"{sum(a.ok for a in runs)}/{len(runs)}" if runs else "—"


def section(rows: list[Row], env: dict[str, Any], args: argparse.Namespace) -> str:
    bx, pw = Score(), PwScore()
    for r in rows:
        bx.add(r.bx)
        pw.add(r.pw)
    libs = {r.page.library for r in rows}
    acts = [a for r in rows for a in r.acts]
    lines = [
        BEGIN,
        "## Oracle corpus: Chrome's accessibility tree as the oracle (browserx and Playwright)",
        "",
        f"Generated by `bench/oracle_corpus.py` ({env['command']}); do not edit by hand. The same scoring runs in "
        "`make test` as tests/e2e/test_oracle_corpus.py (floors per library there). Pages: "
        f"`tests/e2e/apps/oracle.py` — {len(rows)} pages of {len(libs)} libraries (npm builds served from "
        "node_modules, Svelte compiled and Angular bundled at start, Shiny / NiceGUI / Dash apps), installed by `make corpus`.",
        "",
        f"- Date: {env['date']}; {env['elapsed_s']:.0f} s; load {load(env['load_start'])} → {load(env['load_end'])}.",
        machine_line(env["machine"]),
        f"- Browser: {env.get('chromium', 'unknown')}, headless, one tab shared by both tools.",
        "- Chrome targets: non-ignored AX nodes with a widget role (button, link, textbox, searchbox, checkbox, "
        "radio, switch, combobox, listbox, option inside a listbox, slider, spinbutton, menuitem*, tab, treeitem; "
        "gridcell / column- and rowheader only when in the tab order, holding a click listener or aria-sort, and "
        "not just holding a control) whose element is reachable (a box ≥ 1 px, not clipped away by a non-scrolling "
        "ancestor; content of scroll containers counts), concealed originals of enhanced selects left out. "
        "Definitions: `tests/e2e/apps/oracle_join.py`.",
        "- browserx: json view with `max_tokens=0, boxes=True`, each node placed on its DOM element (tag + box); "
        "a target is found when an ID sits on its element, or on its label / a near relative agreeing in role or "
        "name. Role / name / states: agreement on the found ones. Precision: IDs on elements Chrome or a real "
        "handler (listener, React/Vue/jQuery handler, delegation under a pointer cursor, label, scroll container) "
        "makes interactive.",
        '- Playwright: `aria_snapshot(mode="ai")` lines with a ref, matched to targets one to one by role and name, '
        "then by name alone (its own role computation differs: role column).",
        f"- Tokens: cl100k_base of the default output (browserx text view, Playwright snapshot). Latency: median of "
        f"{args.runs} interleaved runs, ms (ratio = browserx ÷ Playwright).",
        "- Actions verified, for actions the page's own state as the judge: each library's one or two actions "
        "(`actions=` in oracle.py: click a tab, check a box, pick an option, type into a field), per tool on the "
        "page opened afresh; the target found by role and name in the tool's own view (browserx acts by ID; "
        "Playwright by that line's aria ref, else `get_by_role`), landed when the page's state says so (the "
        "framework's model, the widget's API, checked / aria-selected / value) within 5 s.",
        "",
        f"**Total: browserx finds {bx.found}/{bx.targets} ({pct(bx.found, bx.targets)}), role "
        f"{pct(bx.role, bx.found)}, name {pct(bx.name, bx.found)}, states {pct(bx.states, bx.found)}, precision "
        f"{pct(bx.legit, bx.legit + bx.imprecise)}; Playwright finds {pw.found}/{pw.targets} "
        f"({pct(pw.found, pw.targets)}), role {pct(pw.role, pw.found)}, states {pct(pw.states, pw.found)}. "
        f"Actions verified: browserx {landed(acts, 'browserx')}, Playwright {landed(acts, 'playwright')}.** "
        "Target: 99.5 % found per library.",
        "",
        *table(rows),
        "",
        "Playwright's misses (no line with a ref and that name):",
        "",
        *[
            f"- {r.page.key}: {', '.join(r.pw_misses[:12])}{' …' if len(r.pw_misses) > 12 else ''}"
            for r in rows
            if r.pw_misses
        ],
        "",
        "Actions that did not land (the tool's words):",
        "",
        *[
            f"- {a.tool}, {r.page.key}: {a.action.label}: {a.detail}"
            for r in rows
            for a in r.acts
            if not a.ok
        ],
        END,
    ]
    return "\n".join(lines)


def write_section(text: str) -> None:
    old = REPORT.read_text(encoding="utf-8") if REPORT.exists() else ""
    if BEGIN in old and END in old:
        new = old[: old.index(BEGIN)] + text + old[old.index(END) + len(END) :]
    else:
        new = old.rstrip() + "\n\n" + text + "\n"
    write_markdown(REPORT, new)


def main(argv: list[str] | None = None) -> int:
    parser = arg_parser(__doc__, 3, "snapshot runs per tool and page")
    parser.add_argument("--pages", type=comma_list, default=(), help="only these pages (lib or lib/page)")
    parser.add_argument("--no-actions", action="store_true", help="skip the pages' actions")
    parser.add_argument("--no-report", action="store_true", help=f"print only, do not write {REPORT.name}")
    args = parser.parse_args(argv)
    env = run_facts("bench/oracle_corpus.py", argv)
    pages = [
        p for p in (*PAGES, *LIVE_PAGES) if not args.pages or p.library in args.pages or p.key in args.pages
    ]
    rows: list[Row] = []
    with workdir("browserx-oracle-bench-", raw_cdp=True) as work, running_browser(work) as browser:
        env["chromium"] = browser.version
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw, contextlib.ExitStack() as stack, Client() as bx:
            pw_browser = pw.chromium.connect_over_cdp(browser.cdp_endpoint)
            page = next(p for c in pw_browser.contexts for p in c.pages)
            conn = BrowserxConnection(timeout=60)  # the actions' own client (replaced after a failed call)
            stack.callback(lambda: conn.client.close())
            shared = SharedTab(page, conn)
            bases: dict[str, str] = {}
            for spec in pages:
                try:
                    if spec.server not in bases:
                        bases[spec.server] = stack.enter_context(SERVERS[spec.server]())
                    row = measure(page, bx, spec, bases[spec.server], args.runs)
                    if spec.actions and not args.no_actions:
                        row.acts = run_actions(shared, spec, bases[spec.server])
                except Exception as exc:
                    row = Row(spec, error=short_error(exc))
                rows.append(row)
                print(
                    f"{spec.key:<34} bx {row.bx.found}/{row.bx.targets} prec {row.bx.legit}/"
                    f"{row.bx.legit + row.bx.imprecise}  pw {row.pw.found}/{row.pw.targets}  "
                    f"ms {median(row.bx_ms):.0f}/{median(row.pw_ms):.0f}  actions bx {landed(row.acts, 'browserx')} "
                    f"pw {landed(row.acts, 'playwright')} {row.error}",
                    flush=True,
                )
    end_facts(env)
    text = section(rows, env, args)
    if not args.no_report:
        write_section(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
