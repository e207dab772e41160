"""Chrome's accessibility tree as the oracle on third-party UI libraries (tests/e2e/apps/oracle.py):
on every page, every node Chrome exposes as interactive and a person can reach (on screen, or
scrolled into view in the page or any scroll container) must be listed by browserx's json view
(``max_tokens=0``) with an ID, Chrome's role, name and states; and browserx's IDs must sit on
elements that Chrome or a real handler makes interactive (precision). The definitions and the join
are in tests/e2e/apps/oracle_join.py.

One browser, the pages in sequence, each server started once. Per library and page: found / role /
name / states agreement and precision; every miss and imprecise ID is printed and written to
.pytest_cache/browserx-e2e/oracle-corpus-report.txt (each page's text view to
.pytest_cache/browserx-e2e/oracle-corpus/). The floors below are a
ratchet at what browserx achieves now (the issue's target is 99.5 % found per library): raise them
as the snapshot rules improve, never lower them to make a run pass.

Then, on the measured page, its actions (oracle.py: one or two per library, what a person would do
there): the target found by Chrome's role and name in browserx's json view, acted on by its ID
(click, type, select, check), and judged by the page's own state (the framework's model, the
widget's API, checked / aria-selected / value). Every one must land.
Needs `make corpus` (scripts/setup-corpus.sh).
"""

from __future__ import annotations

import contextlib
import copy
import os
import time
import traceback
from typing import Any

from browserx import Client
from browserx.errors import BrowserxError
from tests.e2e.apps.corpus import Action, norm_name, run_steps, wait_for
from tests.e2e.apps.oracle import PAGES, SERVERS, OraclePage
from tests.e2e.apps.oracle_join import ROW_HEADER, Score, score_view, short
from tests.e2e.harness import Browser, artifact

REPORT_PATH = artifact("oracle-corpus-report.txt")
VIEWS_DIR = artifact("oracle-corpus")
TARGET = 0.995
# library → (found, precision) floors: what browserx achieves now, rounded down (a ratchet).
# Measured 2026-11-27 (tests/e2e/apps/oracle.py, Chromium 156), raised after the transparent-input,
# row, aria-disabled/checked and datalist rules, then ElementInternals roles, cursor: not-allowed and
# keyboard-reached radios (every library at 100 % found and precise). Angular Material added
# 2026-11-27 at 100 % found and precise on its first run.
FLOORS: dict[str, tuple[float, float]] = {
    "ag-grid": (1.0, 1.0),
    "angular-material": (1.0, 1.0),
    "alpine": (1.0, 1.0),
    "antd": (1.0, 1.0),
    "bootstrap": (1.0, 1.0),
    "choices": (1.0, 1.0),
    "dash": (1.0, 1.0),
    "element-plus": (1.0, 1.0),
    "flatpickr": (1.0, 1.0),
    "fluent": (1.0, 1.0),
    "gridjs": (1.0, 1.0),
    "handsontable": (1.0, 1.0),
    "ionic": (1.0, 1.0),
    "jquery-ui": (1.0, 1.0),
    "material-web": (1.0, 1.0),
    "mui": (1.0, 1.0),
    "naive-ui": (1.0, 1.0),
    "nicegui": (1.0, 1.0),
    "nouislider": (1.0, 1.0),
    "quasar": (1.0, 1.0),
    "react-bootstrap": (1.0, 1.0),
    "shiny": (1.0, 1.0),
    "splide": (1.0, 1.0),
    "svelte": (1.0, 1.0),
    "tabulator": (1.0, 1.0),
    "tom-select": (1.0, 1.0),
    "uikit": (1.0, 1.0),
    "vuetify": (1.0, 1.0),
}
# Actions browserx does not land yet, by page and action (a strict ratchet: each must still fail;
# remove it when it lands). Every other action must land.
ACTION_GAPS: dict[str, str] = {}  # actions known not to land (none now; an entry must say why)
# Over all libraries: role, name and states agreement of the found nodes (same ratchet).
AGREEMENT_FLOORS = {"role": 0.999, "name": 0.999, "states": 0.999}
MIN_PAGES, MIN_LIBRARIES = 40, 20


class Driver:
    def __init__(self, browser: Browser) -> None:
        self.driver = browser.driver

    def goto(self, url: str) -> None:
        self.driver.get(url)

    def run(self, body: str) -> Any:
        return self.driver.execute_script(body)


def tab_of(bx: Client, url: str) -> int:
    tabs = bx.tabs()
    for tab in tabs:
        if tab["url"] == url:
            return int(tab["tab"])
    return int(tabs[0]["tab"])


# Resolves true once no animation of the page (CSS animation or transition, Web Animation: the
# document's and every open shadow root's) that ends is running, seen so twice QUIET_MS apart (a
# framework may start a transition a frame after its classes change), its fonts loaded; false when
# arguments[0] ms passed first. Endless ones (a spinner) never end: not waited for.
SETTLE_JS = """
const [limit, done] = [arguments[0], arguments[arguments.length - 1]];
const until = performance.now() + limit;
const moving = () => {
  const roots = [document];
  for (let i = 0; i < roots.length; i++) {
    for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
  }
  return roots.some(r => r.getAnimations().some(a => a.playState === 'running' && !!a.effect &&
    Number.isFinite(a.effect.getComputedTiming().endTime)));
};
const pause = (ms) => new Promise(r => setTimeout(r, ms));
(async () => {
  await document.fonts.ready;
  for (let quiet = 0; ; await pause(__QUIET_MS__)) {
    quiet = moving() ? 0 : quiet + 1;
    if (quiet === 2) return true;
    if (performance.now() > until) return false;
  }
})().then(done, () => done(false));
"""
QUIET_MS = 50


def settle(driver: Driver, longest: float) -> None:
    """Let the page's animations end (at most ``longest`` s, the page's ``settle``: then it is
    measured as it is, as after the fixed sleep this wait replaced)."""
    driver.driver.execute_async_script(SETTLE_JS.replace("__QUIET_MS__", str(QUIET_MS)), longest * 1000)


def measure(page: OraclePage, browser: Browser, bx: Client, base: str) -> tuple[Score, list[str]]:
    driver = Driver(browser)
    run_steps(driver, base, (*page_opening(page),))
    settle(driver, page.settle)
    tab = tab_of(bx, browser.driver.current_url)

    def cdp(method: str, params: dict[str, Any]) -> Any:
        return browser.driver.execute_cdp_cmd(method, params)

    view = bx.snapshot(tab=tab, format="json", max_tokens=0, boxes=True)["json"]
    scroll = driver.run("return [window.scrollX, window.scrollY];")
    result = score_view(cdp, view, (float(scroll[0]), float(scroll[1])))
    VIEWS_DIR.mkdir(exist_ok=True)
    text = bx.snapshot(tab=tab, max_tokens=0)["text"]
    (VIEWS_DIR / f"{page.library}-{page.name}.txt").write_text(text, encoding="utf-8")
    (VIEWS_DIR / f"{page.library}-{page.name}.pairs.txt").write_text(result.pairs_text(), encoding="utf-8")
    score, lines = result.score, result.lines
    return score, lines


def find_target(view: dict[str, Any], action: Action) -> dict[str, Any] | None:
    """The first node of the json view (document order) with an ID and the action's role and name."""
    stack = [view["page"]["body"]]
    while stack:
        node = stack.pop()
        name = str(node.get("name", ""))
        if "id" in node and node.get("role") in action.target.roles and action.target.matches_name(name):
            return node
        stack.extend(reversed(node.get("children", [])))
    return None


def act(bx: Client, tab: int, driver: Driver, action: Action) -> str | None:
    """One action by ID as an agent does it; None when the page's own state says it landed."""
    view = bx.snapshot(tab=tab, format="json", max_tokens=0)["json"]
    node = find_target(view, action)
    if node is None:
        return f"no {action.target} with an ID in browserx's json view"
    target = f"[{node['id']}] {node.get('role')} {norm_name(str(node.get('name', '')))!r}"
    if not driver.run(f"return !!({action.before});"):
        return f"precondition false before acting: {action.before}"
    element = int(node["id"])
    try:
        action.run_by_id(bx, element, tab)
    except BrowserxError as e:
        return f"{target}: {type(e).__name__}: {short(str(e), 300)}"
    try:
        wait_for(driver, action.check, action.timeout)
    except TimeoutError:
        return f"{target}: acted, but the page's state did not change: {action.check}"
    return None


def run_actions(page: OraclePage, browser: Browser, bx: Client) -> list[tuple[Action, str | None]]:
    """The page's actions, in order, on the page just measured (its measurement is finished)."""
    driver = Driver(browser)
    tab = tab_of(bx, browser.driver.current_url)
    return [(a, act(bx, tab, driver, a)) for a in page.actions]


def page_opening(page: OraclePage) -> tuple[Any, ...]:
    from tests.e2e.apps.corpus import Step

    return (Step(goto=page.path, wait=page.ready, timeout=30), *page.after)


def chosen_pages() -> list[OraclePage]:
    """All pages, or, while working on a library, those of ORACLE_LIBRARIES (comma-separated): the
    corpus's size floors still count every page, the floors only the libraries measured."""
    only = {s for s in os.environ.get("ORACLE_LIBRARIES", "").split(",") if s}
    return [p for p in PAGES if not only or p.library in only]


def test_oracle_corpus(browser: Browser, bx: Client) -> None:
    libraries = {p.library for p in PAGES}
    pages = chosen_pages()
    per_page: dict[str, Score] = {}
    per_lib: dict[str, Score] = {lib: Score() for lib in sorted({p.library for p in pages})}
    acted: dict[str, list[tuple[str, str | None]]] = {lib: [] for lib in per_lib}  # page: action → why not
    details: list[str] = []
    failures: list[str] = []
    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        bases: dict[str, str] = {}
        for page in pages:
            t0 = time.monotonic()
            try:
                if page.server not in bases:
                    bases[page.server] = stack.enter_context(SERVERS[page.server]())
                score, lines = measure(page, browser, bx, bases[page.server])
                done = run_actions(page, browser, bx)
            except Exception as e:
                failures.append(
                    f"{page.key}: could not be measured: {type(e).__name__}: {short(str(e), 300)}"
                )
                details.append(f"{page.key}: ERROR\n{traceback.format_exc(limit=3)}")
                continue
            per_page[page.key] = score
            per_lib[page.library].add(score)
            acted[page.library] += [(f"{page.key}: {a.label}", why) for a, why in done]
            details.append(f"{page.key} ({page.widgets}; {time.monotonic() - t0:.1f} s)")
            details += lines
            details += [f"  action {a.label}: {why or 'landed'}" for a, why in done]
    elapsed = time.monotonic() - started

    table = [f"{'library / page':<34} {ROW_HEADER}"]
    for lib, s in per_lib.items():
        gap = max(0.0, TARGET - s.found_ratio) * s.targets
        ok = sum(why is None for _, why in acted[lib])
        table.append(f"{lib:<34} {s.row()}  gap to 99.5%: {gap:.1f} nodes; actions {ok}/{len(acted[lib])}")
        for p in PAGES:
            if p.library == lib and p.key in per_page:
                table.append(f"  {p.name:<32} {per_page[p.key].row()}")
    total = Score()
    for s in per_lib.values():
        total.add(s)
    all_acts = [why for done in acted.values() for _, why in done]
    table.append(f"{'total':<34} {total.row()}  actions {all_acts.count(None)}/{len(all_acts)} landed")
    report = "\n".join(
        [
            f"Oracle corpus: {len(per_page)}/{len(pages)} pages, {len(libraries)} libraries, {elapsed:.0f} s",
            "found = Chrome's reachable interactive nodes listed with an ID; role/name/state % of those found;",
            "precise = browserx IDs on elements Chrome or a real handler makes interactive; unpl = IDs not placed",
            "",
            *table,
            "",
            *failures,
            "",
            *details,
        ]
    )
    REPORT_PATH.write_text(report + "\n", encoding="utf-8")
    print("\n" + report)

    assert len(PAGES) >= MIN_PAGES and len(libraries) >= MIN_LIBRARIES, (len(PAGES), len(libraries))
    no_action = sorted(libraries - {p.library for p in PAGES if p.actions})
    assert not no_action, f"libraries without an action: {no_action}"
    assert not failures, "\n".join(failures)
    below = []
    for lib, s in per_lib.items():
        found_floor, precision_floor = FLOORS.get(lib, (TARGET, 1.0))
        if s.found_ratio < found_floor:
            below.append(f"{lib}: found {s.found_ratio:.4f} < floor {found_floor}")
        if s.precision < precision_floor:
            below.append(f"{lib}: precision {s.precision:.4f} < floor {precision_floor}")
    for lib, done in acted.items():  # the actions' floor: every one lands, but for the known gaps
        for key, why in done:
            if why is not None and key not in ACTION_GAPS:
                below.append(f"{lib}: action {key} did not land: {why}")
            elif why is None and key in ACTION_GAPS:
                below.append(f"{lib}: action {key} lands now: remove it from ACTION_GAPS")
    for what, floor in AGREEMENT_FLOORS.items():
        ratio = Score.ratio(getattr(total, what), total.found)
        if ratio < floor:
            below.append(f"all libraries: {what} agreement {ratio:.4f} < floor {floor}")
    assert not below, "\n".join(below) + f"\n(see {REPORT_PATH})"


def test_oracle_scoring_fails_on_missing_and_stray_ids(browser: Browser, bx: Client) -> None:
    """The scoring itself can fail: on a real page, browserx's view with its IDs taken away finds
    nothing, and an ID put on a plain text block counts as imprecise."""
    page = next(p for p in PAGES if p.key == "bootstrap/form")
    with SERVERS[page.server]() as base:
        driver = Driver(browser)
        run_steps(driver, base, page_opening(page))
        tab = tab_of(bx, browser.driver.current_url)

        def cdp(method: str, params: dict[str, Any]) -> Any:
            return browser.driver.execute_cdp_cmd(method, params)

        view = bx.snapshot(tab=tab, format="json", max_tokens=0, boxes=True)["json"]
        real = score_view(cdp, view, (0.0, 0.0)).score
        assert real.targets >= 30 and real.found == real.targets and real.imprecise == 0, real

        def strip(node: dict[str, Any]) -> None:
            node.pop("id", None)
            for child in node.get("children", []):
                strip(child)

        stripped = copy.deepcopy(view)
        strip(stripped["page"]["body"])
        none = score_view(cdp, stripped, (0.0, 0.0)).score
        assert none.found == 0 and none.targets == real.targets, none

        stray = copy.deepcopy(view)  # an ID on the toast's text, which does nothing
        box = driver.run(
            "const r = document.querySelector('.toast-body').getBoundingClientRect();"
            "return [r.x, r.y, r.width, r.height].map(Math.round);"
        )
        stray["page"]["body"]["children"].append(
            {
                "id": 999_999,
                "role": "clickable",
                "tag": "div",
                "name": "Your settings were saved.",
                "box": box,
            }
        )
        wrong = score_view(cdp, stray, (0.0, 0.0)).score
        assert wrong.imprecise == 1 and wrong.found == real.found, wrong
