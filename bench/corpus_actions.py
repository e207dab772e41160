"""corpus.py's actions: per tool, the page opened afresh, then each of its actions as an agent
would do it (the target found in the tool's own view, looked for again while it is not there yet;
browserx acts by ID, Playwright by aria ref), verified by the action's ``check`` on the page's own
state."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

from corpus_scoring import (
    ActionRun,
    Control,
    PageResult,
    browserx_fits,
    has_ref,
    playwright_controls,
    playwright_fits,
)
from corpus_session import Session
from harness import median_or_none, short_error
from tests.e2e.apps.corpus import Action, Page, norm_name, wait_for

from browserx import BrowserxError

PW_ACTION_TIMEOUT_MS = 5000  # Playwright's actionability wait per action call
TARGET_WAIT_S = 3.0  # an action's target not in the view yet: look again until this long


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
        result = action.run_by_id(s.bx, element, s.tab)
    except BrowserxError as exc:
        run.detail = f"`{target.line}`: {short_error(exc)}"
        return run
    except Exception:
        s.conn.reset()
        raise
    run.call_ms = (time.perf_counter() - t0) * 1000
    with contextlib.suppress(KeyError, TypeError, ValueError):
        run.host_ms = float(result["duration_ms"])
        run.round_trips = int(result["round_trips"])
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


def run_actions(s: Session, page: Page, base: str, res: PageResult, rounds: int = 1) -> None:
    """Each tool's actions on the page opened afresh, ``rounds`` times, the tools taking turns
    (bx, pw, then pw, bx, …: a machine that slows down mid-way weighs on both); per action, its
    median time over the rounds, verified only when every round was."""
    runs: dict[tuple[str, str], list[ActionRun]] = {}
    tools = [("browserx", act_browserx), ("playwright", act_playwright)]
    for round_ in range(rounds):
        for tool, act in tools if round_ % 2 == 0 else tools[::-1]:
            for run in _one_round(s, page, base, tool, act):
                runs.setdefault((tool, run.action.label), []).append(run)
    res.actions += [_merged(each) for each in runs.values()]


def _one_round(
    s: Session, page: Page, base: str, tool: str, act: Callable[[Session, Action], ActionRun]
) -> list[ActionRun]:
    try:
        s.open(page, base)
    except Exception as exc:
        return [ActionRun(tool, a, False, f"page did not open: {short_error(exc)}") for a in page.actions]
    out: list[ActionRun] = []
    for action in page.actions:
        try:
            out.append(act(s, action))
        except Exception as exc:
            out.append(ActionRun(tool, action, False, short_error(exc)))
    s.close_page(page, base)
    return out


def _merged(runs: list[ActionRun]) -> ActionRun:
    """One action's rounds as one run: the first failure if any failed, else the medians."""
    failed = next((r for r in runs if not r.ok), None)
    if failed is not None:
        if len(runs) > 1:
            failed.detail += f" (round {runs.index(failed) + 1} of {len(runs)})"
        return failed
    first = runs[0]
    first.rounds_ms = [r.call_ms for r in runs if r.call_ms is not None]
    first.call_ms = median_or_none(first.rounds_ms)
    first.host_ms = median_or_none([r.host_ms for r in runs if r.host_ms is not None])
    trips = [r.round_trips for r in runs if r.round_trips is not None]
    first.round_trips = sorted(trips)[len(trips) // 2] if trips else None
    return first
