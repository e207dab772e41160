"""Real third-party web UIs (tests/e2e/apps/corpus.py: Django admin, Swagger UI, Redoc, Datasette,
MkDocs Material, JupyterLab, Shoelace), served locally, observed through browserx as an agent would
(the default text view) and checked against what a person would use there.

For every page of the corpus: every expected control must be listed with an ID, with its role and
name (``[12] button Save``, ``[3] Home → /``); no ID may appear twice in the text or json view; and
a few actions, run by ID through browserx (click, type, select, check), must change the page's own
state as seen through Selenium. A failure names each missing or wrong control with what browserx
printed near it, whether the whole-page view (``max_tokens=0``) has it, and whether Chrome's own
accessibility tree has it (so a wrong expectation is told apart from a browserx bug).

Per page: found / expected, IDs listed, tokens, snapshot latency and actions; the table is printed
and written to .pytest_cache/browserx-e2e/real-apps-report.txt, each page's text view to
.pytest_cache/browserx-e2e/real-apps/<app>-<page>.txt.
Needs `make corpus` (scripts/setup-corpus.sh).
"""

from __future__ import annotations

import contextlib
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from selenium.common.exceptions import NoAlertPresentException, UnexpectedAlertPresentException
from selenium.webdriver.remote.webdriver import WebDriver

from browserx import Client
from browserx.errors import BrowserxError
from browserx.views.text import TEXT_ROLES, parse_controls
from browserx.views.tokens import count_tokens
from tests.e2e.apps.corpus import (
    PAGES,
    Action,
    App,
    Expect,
    Page,
    app_of,
    match_expectations,
    norm_name,
    run_steps,
    wait_for,
)
from tests.e2e.harness import Browser, artifact

REPORT_PATH = artifact("real-apps-report.txt")
VIEWS_DIR = artifact("real-apps")
ROWS: dict[str, str] = {}
HEADER = (
    f"{'page':<28} {'found':>7} {'IDs':>4} {'dup':>3} {'nodes':>6} {'tokens':>6} {'latency':>8} {'settle':>7} "
    f"{'capture':>7} {'build':>6} {'actions':>7}"
)
TOTALS: dict[str, tuple[int, int, int, int]] = {}  # page → found, expected, actions ok, actions

# Roles of the text view that Chrome's accessibility tree does not have.
NOT_CHROME_ROLES = frozenset({"clickable", "scrollable", "label", "summary"})
# A control's ``[ID] `` in a text view line (as browserx.views.text.parse_controls reads them).
ID_AT = re.compile(r"(?:^|(?<=[\s|]))\[(\d+)\] ")


# -- driving the page (Selenium) ----------------------------------------------------------------


class SeleniumDriver:
    """corpus.Driver over Selenium: a beforeunload prompt left by an app is accepted."""

    def __init__(self, driver: WebDriver) -> None:
        self.driver = driver

    def goto(self, url: str) -> None:
        try:
            self.driver.get(url)
        except UnexpectedAlertPresentException:
            self.dismiss_prompt()
            self.driver.get(url)

    def run(self, body: str) -> Any:
        return self.driver.execute_script(body)

    def dismiss_prompt(self) -> None:
        with contextlib.suppress(NoAlertPresentException):
            self.driver.switch_to.alert.accept()


def tab_of(bx: Client, driver: WebDriver) -> int:
    tabs = bx.tabs()
    url = driver.current_url
    for tab in tabs:
        if tab["url"] == url:
            return int(tab["tab"])
    if len(tabs) == 1:  # a single-page app changed its URL since
        return int(tabs[0]["tab"])
    raise AssertionError(f"tab with {url} not listed: {tabs}")


@pytest.fixture(scope="module")
def app_base() -> Iterator[Callable[[App], str]]:
    """Each app's server, started on first use and kept for the whole module."""
    with contextlib.ExitStack() as stack:
        started: dict[str, str] = {}

        def base(app: App) -> str:
            if app.name not in started:
                started[app.name] = stack.enter_context(app.serve())
            return started[app.name]

        yield base


@pytest.fixture(scope="module", autouse=True)
def _write_report() -> Iterator[None]:
    yield
    if ROWS:
        found, expected, ok, actions = (sum(t[i] for t in TOTALS.values()) for i in range(4))
        total = f"{'total':<28} {found:>3}/{expected:<3} {'':>{len(HEADER) - 44}}{ok:>3}/{actions:<3}"
        body = "\n".join([HEADER, *(ROWS[p.key] for p in PAGES if p.key in ROWS), total])
        REPORT_PATH.write_text(body + "\n", encoding="utf-8")
        print("\n" + body)


# -- reading the views ---------------------------------------------------------------------------

_TEXT_ROLE = {
    **{r: r for r in TEXT_ROLES.values()},
    **TEXT_ROLES,
}  # Chrome's role or the text view's → text view's


def text_role(role: str) -> str:
    return _TEXT_ROLE.get(role, role)


@dataclass
class Control:
    id: int
    role: str  # as the json view has it
    name: str
    line: str  # its text view line ("" when the text view does not list the ID)
    lineno: int


def json_nodes(view: dict[str, Any]) -> Iterator[dict[str, Any]]:
    stack = [view["page"]["body"]]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.get("children", [])))


def text_lines(text: str) -> dict[int, tuple[str, int]]:
    """ID → (its text view line, line number)."""
    out: dict[int, tuple[str, int]] = {}
    for lineno, line in enumerate(text.splitlines()):
        for m in ID_AT.finditer(line):
            out.setdefault(int(m.group(1)), (line.strip(), lineno))
    return out


def controls_of(text: str, view: dict[str, Any]) -> list[Control]:
    """Every control with an ID, in document order: role and name from the json view, its line
    from the text view. Only those whose ID the text view shows count as listed."""
    lines = text_lines(text)
    out = []
    for node in json_nodes(view):
        if "id" in node:
            line, lineno = lines.get(int(node["id"]), ("", -1))
            out.append(
                Control(int(node["id"]), str(node.get("role", "")), str(node.get("name", "")), line, lineno)
            )
    return out


def read_back_errors(text: str, controls: list[Control]) -> list[str]:
    """Text view lines that browserx.views.text.parse_controls reads back as another role or name
    than the json view gives the same ID (the text view's own contract)."""
    parsed = parse_controls(text)
    out = []
    for c in controls:
        if c.line and c.id in parsed:
            role, name = parsed[c.id]
            # A quoted name shows its double quotes as single ones (the text view's quoting).
            if (role, name.replace("'", '"')) != (text_role(c.role), c.name.replace("'", '"')):
                out.append(f"[{c.id}] {c.line!r} reads back as {role} {name!r}; json: {c.role} {c.name!r}")
        elif c.line:
            out.append(f"[{c.id}] {c.line!r} is not read back at all; json: {c.role} {c.name!r}")
    return out


def duplicate_ids(text: str, view: dict[str, Any]) -> list[str]:
    found: list[str] = []
    counts = Counter(int(m.group(1)) for line in text.splitlines() for m in ID_AT.finditer(line))
    found += [f"text view: [{i}] x{n}" for i, n in counts.items() if n > 1]
    ids: Counter[int] = Counter()

    def walk(node: dict[str, Any]) -> None:
        if "id" in node:
            ids[int(node["id"])] += 1
        for child in node.get("children", []):
            walk(child)

    walk(view["page"]["body"])
    found += [f"json view: id {i} x{n}" for i, n in ids.items() if n > 1]
    return found


def fits(expect: Expect, control: Control) -> bool:
    return (
        bool(control.line)
        and text_role(control.role) in {text_role(r) for r in expect.roles}
        and expect.matches_name(control.name)
    )


def match(expected: tuple[Expect, ...], controls: list[Control]) -> dict[int, Control]:
    return match_expectations(expected, controls, fits, lambda c: c.id)


def chrome_has(driver: WebDriver, expect: Expect) -> bool:
    """Whether Chrome's accessibility tree (main frame) has a node with that role and name."""
    try:
        tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})
    except Exception:
        return False
    for node in tree.get("nodes", []):
        if node.get("ignored"):
            continue
        role = str((node.get("role") or {}).get("value"))
        name = str((node.get("name") or {}).get("value") or "")
        if role in expect.roles and expect.matches_name(name):
            return True
    return False


def explain(
    expect: Expect, text: str, controls: list[Control], full: list[Control], chrome: bool
) -> list[str]:
    """What browserx printed instead: the same name under another role, similar names, the name
    in a line without an ID, and whether the whole-page view or Chrome has it."""
    out = [f"  MISSING {expect}" + (f"  [{expect.why}]" if expect.why else "")]
    want = norm_name(expect.name)
    lines = text.splitlines()
    shown: set[int] = set()

    def show(kind: str, lineno: int) -> None:
        if lineno < 0 or lineno in shown or len(shown) >= 4:
            return
        shown.add(lineno)
        before = lines[lineno - 1].strip() if lineno > 0 else ""
        after = lines[lineno + 1].strip() if lineno + 1 < len(lines) else ""
        out.append(f"    {kind}: line {lineno + 1}: {lines[lineno].strip()!r}")
        out.append(f"      (before: {before[:120]!r}; after: {after[:120]!r})")

    if want:
        for c in controls:
            if expect.matches_name(c.name) and not fits(expect, c):
                if c.line:
                    show(f"same name, role {c.role!r}", c.lineno)
                else:
                    out.append(
                        f"    json view has [{c.id}] {c.role} {c.name!r}, the text view does not show it"
                    )
        for c in controls:
            have = norm_name(c.name)
            similar = want in have or (len(have) >= max(4, len(want) // 3) and have in want)
            if have.replace(" ", "") == want.replace(" ", ""):
                show(f"same name but for spaces [{c.id}] {c.role} {c.name!r}", c.lineno)
            elif have and similar and not expect.matches_name(c.name):
                show(f"similar name [{c.id}] {c.role} {c.name!r}", c.lineno)
        for lineno, line in enumerate(lines):
            if want in norm_name(line) and not ID_AT.search(line):
                show("in a line without an ID", lineno)
    else:
        for c in controls:
            if text_role(c.role) in {text_role(r) for r in expect.roles}:
                show("same role (already taken by another expectation)", c.lineno)
    if not shown:
        roles = {text_role(r) for r in expect.roles}
        for c in controls:
            if text_role(c.role) in roles and c.line:
                show(f"same role, another name [{c.id}] {c.role} {c.name!r}", c.lineno)
    if not shown:
        out.append("    browserx printed nothing like it")
    in_full = [c for c in full if fits(expect, c)]
    if in_full:
        out.append(
            f"    whole-page view (max_tokens=0) lists it: {in_full[0].line!r} (cut by the token budget)"
        )
    if set(expect.roles) - NOT_CHROME_ROLES:
        out.append(f"    Chrome's accessibility tree {'has' if chrome else 'does NOT have'} {expect}")
    else:
        out.append("    (Chrome gives it no role: nothing to compare)")
    return out


def observe(bx: Client, tab: int, **options: Any) -> list[Control]:
    text = bx.snapshot(tab=tab, **options)["text"]
    return controls_of(text, bx.snapshot(tab=tab, format="json", **options)["json"])


# -- acting --------------------------------------------------------------------------------------


def run_action(bx: Client, tab: int, page_driver: SeleniumDriver, action: Action) -> str | None:
    """Run one action by ID; None when the page's own state shows it worked, else why not."""
    target = next((c for c in observe(bx, tab) if fits(action.target, c)), None)
    if target is None:
        target = next((c for c in observe(bx, tab, max_tokens=0) if fits(action.target, c)), None)
        if target is None:
            return f"target {action.target} not listed (nor in the whole-page view)"
    if not page_driver.run(f"return !!({action.before});"):
        return f"precondition false before acting: {action.before}"
    try:
        action.run_by_id(bx, target.id, tab)
    except BrowserxError as e:
        return f"bx.{action.do}([{target.id}] {target.line!r}) failed: {type(e).__name__}: {e}"
    try:
        wait_for(page_driver, action.check, action.timeout)
    except TimeoutError:
        return f"bx.{action.do}([{target.id}] {target.line!r}) succeeded but the page did not change: {action.check}"
    return None


# -- the test ------------------------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES, ids=[p.key for p in PAGES])
def test_real_app_page(page: Page, browser: Browser, bx: Client, app_base: Callable[[App], str]) -> None:
    driver = SeleniumDriver(browser.driver)
    try:
        base = app_base(app_of(page))
        run_steps(driver, base, page.opening())
    except Exception as e:
        ROWS[page.key] = (
            f"{page.key:<28} could not open the page: {type(e).__name__}: {(str(e).splitlines() or [''])[0]}"
        )
        raise
    tab = tab_of(bx, browser.driver)

    started = time.perf_counter()
    result = bx.snapshot(tab=tab, stats=True)
    latency_ms = (time.perf_counter() - started) * 1000
    text: str = result["text"]
    stats = result.get("stats", {})
    tokens = int(stats.get("tokens") or count_tokens(text))
    settle_ms = float((stats.get("stability") or {}).get("waited_ms") or 0)
    view = bx.snapshot(tab=tab, format="json")["json"]
    VIEWS_DIR.mkdir(exist_ok=True)
    (VIEWS_DIR / f"{page.app}-{page.name}.txt").write_text(text, encoding="utf-8")

    controls = controls_of(text, view)
    matched = match(page.expect, controls)
    dups = duplicate_ids(text, view)
    problems: list[str] = []
    missing = [e for i, e in enumerate(page.expect) if i not in matched]
    if missing:
        full = observe(bx, tab, max_tokens=0)
        for expect in missing:
            problems += explain(expect, text, controls, full, chrome_has(browser.driver, expect))
    problems += [f"  DUPLICATE ID in one view: {d}" for d in dups]
    misread = read_back_errors(text, controls)
    if misread:  # the page may have changed between the text and the json view: look again
        again = bx.snapshot(tab=tab)["text"]
        persisting = set(
            read_back_errors(again, controls_of(again, bx.snapshot(tab=tab, format="json")["json"]))
        )
        misread = [e for e in misread if e in persisting]
    problems += [f"  TEXT LINE READS BACK WRONG (parse_controls): {e}" for e in misread]

    actions_ok = 0
    for action in page.actions:
        failure = run_action(bx, tab, driver, action)
        if failure is None:
            actions_ok += 1
        else:
            problems.append(f"  ACTION {action.label!r} ({action.do} {action.target}): {failure}")
    with contextlib.suppress(Exception):
        run_steps(driver, base, page.teardown)

    found = len(page.expect) - len(missing)
    TOTALS[page.key] = (found, len(page.expect), actions_ok, len(page.actions))
    listed = sum(1 for c in controls if c.line)
    ROWS[page.key] = (
        f"{page.key:<28} {found:>3}/{len(page.expect):<3} {listed:>4} {len(dups):>3} "
        f"{int(stats.get('total_nodes') or 0):>6} {tokens:>6} "
        f"{latency_ms:>6.0f}ms {settle_ms:>5.0f}ms {float(stats.get('capture_ms') or 0):>5.0f}ms "
        f"{float(stats.get('build_ms') or 0):>4.0f}ms {actions_ok:>3}/{len(page.actions):<3}"
    )
    print(ROWS[page.key])
    if problems:
        pytest.fail(
            f"{page.key} ({base}{page.path}): {found}/{len(page.expect)} expected controls listed, "
            f"{actions_ok}/{len(page.actions)} actions worked, {len(dups)} duplicate IDs\n"
            + "\n".join(problems)
            + f"\n--- text view ({tokens} tokens; also in {VIEWS_DIR}/{page.app}-{page.name}.txt) ---\n{text}",
            pytrace=False,
        )
