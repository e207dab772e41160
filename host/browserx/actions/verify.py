"""Verified outcomes (docs/DESIGN.md, "Verification"): an action given ``expect`` checks,
once it has settled and then until the expectation holds or its timeout passes, whether what
the caller meant came about, and reports what happened instead: URL, navigation, DOM changes,
elements that appeared or went away, the acted-on element's value and state, and the error and
success messages the page showed meanwhile (the page events the tab keeps, page/events.py).

A failed expectation is a result (``verification.passed`` false), never an exception. Values are
compared, never shown: "the value changed", not what it changed to.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from browserx import page_js
from browserx.actions.page_changes import MutationCounter, NavigationWatch
from browserx.actions.resolve import call_on, resolve
from browserx.actions.result import ActionResult, PageState, Verification
from browserx.errors import PAGE_CALL_ERRORS, BrowserxError, ElementError
from browserx.expectations import ElementMatch, Expect
from browserx.page.events import EventLog, PageEvent, from_raw
from browserx.page.page_call import page_call
from browserx.page.worlds import isolated_world
from browserx.quoting import quote
from browserx.snapshot.redaction import redact_url
from browserx.snapshot.snapshot import DomSnapshot
from browserx.snapshot.stability import SettleOptions
from browserx.tabs.snapshots import take_snapshot
from browserx.tabs.tab import Tab

POLL_S = 0.1
# The acted-on element cannot be read: its page call failed, or it is gone (stale, unknown).
TARGET_GONE: tuple[type[BrowserxError], ...] = (*PAGE_CALL_ERRORS, ElementError)
MAX_MESSAGES = 5
TARGET_STATE_JS = page_js.load("browserx.actions", "verify_target_state.js")
DRAIN_EVENTS_JS = page_js.load("browserx.actions", "verify_drain_events.js")


# -- what the page looks like at one moment ---------------------------------------------------


@dataclass
class TargetState:
    value: str | None
    state: dict[str, Any]
    gone: bool = False


@dataclass
class Look:
    url: str | None = None
    navigated: bool = False
    mutations: int | None = 0  # None: the document was replaced
    present: dict[str, bool] = field(default_factory=dict)  # ElementMatch key → on the page
    target: TargetState | None = None


def match_key(m: ElementMatch) -> str:
    return f"text:{m.text}" if m.text is not None else f"role:{m.role}:{m.name or ''}"


def describe_match(m: ElementMatch) -> str:
    if m.text is not None:
        return repr(m.text)
    return f"a {m.role}" + (f" named {m.name!r}" if m.name else "")


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def page_has(snap: DomSnapshot, m: ElementMatch) -> bool:
    """Whether a visible element matches: its text (across the page's visible text, and names)
    or its role and name."""
    if m.text is not None:
        needle = _norm(m.text)
        text = _norm(" ".join(n.text for n in snap.nodes if n.is_text and n.visible))
        if needle in text:
            return True
        return any(needle in _norm(n.name) for n in snap.nodes if n.visible and n.name)
    role = _norm(m.role or "")
    name = _norm(m.name or "")
    return any(
        n.visible and _norm(n.role or "") == role and (not name or name in _norm(n.name)) for n in snap.nodes
    )


def matches_of(expect: Expect) -> list[ElementMatch]:
    out = [m for m in (expect.element_appears, expect.element_disappears) if m is not None]
    for alternative in expect.any_of or ():
        out += matches_of(alternative)
    return out


def wants_target(expect: Expect) -> bool:
    if expect.value_changes is not None or expect.state_changes is not None:
        return True
    return any(wants_target(a) for a in expect.any_of or ())


# -- judging ------------------------------------------------------------------------------------


@dataclass
class Judged:
    passed: bool
    observed: list[str]  # what was seen, for `actual`


def describe_expect(expect: Expect) -> str:
    parts: list[str] = []
    c = expect.conditions()
    if "navigation" in c:
        parts.append("the page navigates" if c["navigation"] else "the page does not navigate")
    if "url_contains" in c:
        parts.append(f"the URL contains {c['url_contains']!r}")
    if expect.element_appears is not None:
        parts.append(f"{describe_match(expect.element_appears)} appears")
    if expect.element_disappears is not None:
        parts.append(f"{describe_match(expect.element_disappears)} disappears")
    if "value_changes" in c:
        parts.append("the value changes" if c["value_changes"] else "the value stays")
    if "state_changes" in c:
        parts.append("the element's state changes" if c["state_changes"] else "the element's state stays")
    if c.get("any_change"):
        parts.append("something changes")
    if c.get("no_change"):
        parts.append("nothing changes and no error shows")
    text = " and ".join(parts)
    if expect.any_of:
        alternatives = " or ".join(f"({describe_expect(a)})" for a in expect.any_of)
        text = f"{text} and ({alternatives})" if text else alternatives
    return text


def judge(
    expect: Expect, before: Look, now: Look, result: ActionResult, errors: list[str], appeared: list[str]
) -> Judged:
    """Whether ``expect`` holds for the page as it is now (``now``) against ``before``."""
    ok = True
    seen: list[str] = []
    c = expect.conditions()
    changed_dom = now.mutations is None or (now.mutations or 0) > 0
    if "navigation" in c:
        ok &= now.navigated == c["navigation"]
        seen.append(f"navigated to {_shown(now.url)}" if now.navigated else "no navigation")
    if "url_contains" in c:
        ok &= now.url is not None and c["url_contains"] in now.url
        seen.append(f"URL is {_shown(now.url)}")
    for m, wanted in ((expect.element_appears, True), (expect.element_disappears, False)):
        if m is None:
            continue
        key, what = match_key(m), describe_match(m)
        was, is_ = before.present.get(key, False), now.present.get(key, False)
        if wanted:
            # Already there before, it counts only if the page showed it anew (a toast again).
            anew = m.text is not None and any(_norm(m.text) in _norm(t) for t in appeared)
            hold = is_ and (not was or anew)
            seen.append(f"{what} is on the page" + (" (it was before the action too)" if was and not anew else "")
                        if is_ else f"{what} is not on the page")  # fmt: skip
        else:
            hold = was and not is_
            seen.append(f"{what} is gone" if hold else
                        f"{what} is still on the page" if is_ else f"{what} was not on the page before the action")  # fmt: skip
        ok &= hold
    if "value_changes" in c or "state_changes" in c:
        b, n = before.target, now.target
        if b is None or n is None or n.gone:
            ok = False
            seen.append(
                "the acted-on element is gone" if n is not None and n.gone else "no element was acted on"
            )
        else:
            if "value_changes" in c:
                changed = b.value != n.value
                ok &= changed == c["value_changes"]
                seen.append("its value changed" if changed else "its value did not change")
            if "state_changes" in c:
                diff = [f"{k}: {b.state.get(k)} → {n.state.get(k)}" for k in sorted(set(b.state) | set(n.state))
                        if b.state.get(k) != n.state.get(k)]  # fmt: skip
                ok &= bool(diff) == c["state_changes"]
                seen.append(
                    "its state changed (" + ", ".join(diff) + ")" if diff else "its state did not change"
                )
    if c.get("any_change") or c.get("no_change"):
        ch = result.changes
        anything = changed_dom or now.navigated or ch.scroll_changed or ch.value_changed
        if c.get("any_change"):
            ok &= anything
        if c.get("no_change"):
            ok &= not anything and not errors
        seen.append(_changes(now) if anything else "nothing changed")
    if expect.any_of:
        judged = [judge(a, before, now, result, errors, appeared) for a in expect.any_of]
        ok &= any(j.passed for j in judged)
        for j in judged:
            seen += [s for s in j.observed if s not in seen]
    return Judged(ok, seen)


def _changes(now: Look) -> str:
    if now.navigated:
        return f"navigated to {_shown(now.url)}"
    if now.mutations is None:
        return "the page was replaced"
    return f"{now.mutations} DOM changes"


# -- looking ------------------------------------------------------------------------------------


class Verifier:
    """Checks one action's ``expect``: ``before`` the action runs, ``after`` it settled."""

    def __init__(self, tab: Tab, expect: Expect, element_id: int | None) -> None:
        self.tab = tab
        self.expect = expect
        self.element_id = element_id
        self.matches = matches_of(expect)
        self.wants_target = wants_target(expect) and element_id is not None
        self.started = time.time()
        self.before = Look()
        self.log = tab.page_events if tab.page_events is not None else EventLog()
        tab.page_events = self.log

    async def before_action(self) -> None:
        self.started = time.time()
        await self._drain_events()  # what happened before the action is not its doing
        if self.matches:
            snap = self.tab.snapshot  # the page as the caller last saw it, if still current
            if snap is None:
                snap = await self._snapshot()
            if snap is not None:
                self.before.present = {match_key(m): page_has(snap, m) for m in self.matches}
        if self.wants_target:
            self.before.target = await self._target_state()

    async def after_action(
        self, result: ActionResult, counter: MutationCounter, watch: NavigationWatch
    ) -> Verification:
        deadline = time.monotonic() + self.expect.timeout
        while True:
            now = await self._look(counter, watch)
            errors, successes, during = await self._messages()
            appeared = [e.text for e in during if e.op == "appeared"]
            judged = judge(self.expect, self.before, now, result, errors, appeared)
            if judged.passed or time.monotonic() >= deadline:
                break
            await asyncio.sleep(POLL_S)
        verification = _verification(self.expect, judged, errors, successes)
        verification.confidence = confidence(self.expect, judged.passed, errors, successes, now)
        verification.page_state = page_state_of(now, counter.url_before, during)
        return verification

    async def _look(self, counter: MutationCounter, watch: NavigationWatch) -> Look:
        look = Look()
        look.mutations, look.url = await counter.peek()
        before_url = counter.url_before
        look.navigated = watch.committed or (
            look.url is not None and before_url is not None and look.url != before_url
        )
        if look.url is None:
            look.url = watch.url
        if self.matches:
            snap = await self._snapshot()
            if snap is not None:
                look.present = {match_key(m): page_has(snap, m) for m in self.matches}
        if self.wants_target:
            look.target = await self._target_state()
        return look

    async def _snapshot(self) -> DomSnapshot | None:
        """A snapshot now (placed as the tab's: later IDs stay consistent), its page events logged."""
        try:
            snap = await take_snapshot(self.tab, settle=SettleOptions(wait=False))
        except PAGE_CALL_ERRORS:
            return None  # mid-navigation: the next look sees the new page
        if snap.settled is not None:
            self._log(snap.settled.events)
        return snap

    async def _target_state(self) -> TargetState:
        assert self.element_id is not None
        try:
            target = await resolve(self.tab, self.element_id, heal=False)
            raw = await call_on(self.tab, target, TARGET_STATE_JS)
        except TARGET_GONE:
            return TargetState(None, {}, gone=True)
        if not isinstance(raw, dict):
            return TargetState(None, {}, gone=True)
        return TargetState(raw.get("value"), dict(raw.get("state") or {}))

    async def _drain_events(self) -> None:
        try:
            _, ctx = await isolated_world(self.tab.capture, None)
            value = await page_call(self.tab.session, DRAIN_EVENTS_JS, world=ctx)
        except PAGE_CALL_ERRORS:  # an answer of a shape Chrome never sends included
            return  # (a page error is PageScriptError: the events could not be read)
        if isinstance(value, dict):
            now = float(value.get("now") or 0)
            self._log([(e, now) for e in value.get("events") or [] if isinstance(e, dict)])

    def _log(self, raw: list[tuple[dict[str, Any], float]]) -> None:
        host_now = time.time()
        self.log.add(e for r, page_now in raw if (e := from_raw(r, page_now, host_now)) is not None)

    async def _messages(self) -> tuple[list[str], list[str], list[PageEvent]]:
        """(errors, success messages, every event: texts that appeared or went away) the page
        showed since the action began."""
        await self._drain_events()
        during: list[PageEvent] = [e for e in self.log.events if e.at >= self.started - 0.05]
        shown = [e for e in during if e.op == "appeared"]
        errors = _unique(e.text for e in shown if e.kind == "error")
        successes = _unique(e.text for e in shown if e.kind == "success")
        return errors[:MAX_MESSAGES], successes[:MAX_MESSAGES], during


def _unique(texts: Any) -> list[str]:
    out: list[str] = []
    for t in texts:
        if t not in out:
            out.append(t)
    return out


def _verification(expect: Expect, judged: Judged, errors: list[str], successes: list[str]) -> Verification:
    expected = describe_expect(expect)
    actual = "; ".join(judged.observed) or "nothing observed"
    if errors:
        actual += "; the page showed: " + "; ".join(repr(e) for e in errors)
    if judged.passed:
        feedback = f"Verified: {expected}."
        if errors:
            feedback += f" But the page also showed an error: {errors[0]!r}."
    else:
        feedback = f"Not verified: expected {expected}, but {actual}."
        feedback += (
            " The error says what to fix." if errors else " Take a snapshot to see the page as it is now."
        )
    return Verification(
        passed=judged.passed, expected=expected, actual=actual, errors_detected=errors,
        success_messages=successes, feedback=feedback,
    )  # fmt: skip


def confidence(expect: Expect, passed: bool, errors: list[str], successes: list[str], now: Look) -> float:
    """How far the verdict can be trusted, 0.1-1: 1 less 0.5 when the page's own messages say the
    opposite (an error beside a pass, a success message beside a fail), 0.2 when it rests on
    "something changed" / "nothing changed" alone (the change may be the page's own: a clock, a
    feed), 0.3 when the acted-on element went away before its value or state could be compared."""
    score = 1.0
    if (passed and errors) or (not passed and successes):
        score -= 0.5
    if generic_only(expect):
        score -= 0.2
    if wants_target(expect) and now.target is not None and now.target.gone:
        score -= 0.3
    return round(max(0.1, score), 2)


def generic_only(expect: Expect) -> bool:
    """Whether ``expect`` names nothing more specific than any_change / no_change."""
    if set(expect.conditions()) - {"any_change", "no_change"}:
        return False
    return all(generic_only(a) for a in expect.any_of or ())


def page_state_of(now: Look, url_before: str | None, during: list[PageEvent]) -> PageState:
    known = now.url is not None and url_before is not None
    url_changed = now.url != url_before if known else now.navigated
    recent = [f"{e.kind} {e.op}: {quote(e.text)}" for e in during][-2 * MAX_MESSAGES :]
    dom_changed = now.mutations is None or now.mutations > 0
    return PageState(
        url=_shown(now.url), url_changed=url_changed, dom_changed=dom_changed, recent_mutations=recent
    )


def _shown(url: str | None) -> str | None:
    """A URL as a verification may say it (compared in full, shown redacted)."""
    return redact_url(url) if url else url
