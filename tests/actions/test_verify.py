"""Judging an expectation (actions/verify.py) against looks at the page, and finding elements by
text or role in snapshots built from recorded Chromium payloads (tests/snapshot/recordings)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from browserx.actions.result import ActionResult
from browserx.actions.verify import (
    Look,
    TargetState,
    confidence,
    describe_expect,
    judge,
    match_key,
    page_has,
    page_state_of,
)
from browserx.expectations import DEFAULT_EXPECT, ElementMatch, Expect, default_expect
from browserx.page.events import PageEvent
from browserx.page.recording import load_recording
from browserx.snapshot.ids import IdAllocator
from browserx.snapshot.pipeline import finish, prepare

RECORDINGS = Path(__file__).parents[1] / "snapshot" / "recordings"


def expect(**kw: object) -> Expect:
    return Expect.model_validate(kw)


def ok() -> ActionResult:
    return ActionResult(success=True, action="click")


def test_navigation_and_url() -> None:
    before = Look(url="http://a/x")
    moved = Look(url="http://a/done?step=2", navigated=True, mutations=None)
    stayed = Look(url="http://a/x", mutations=0)
    e = expect(navigation=True, url_contains="step=2")
    assert judge(e, before, moved, ok(), [], []).passed
    j = judge(e, before, stayed, ok(), [], [])
    assert not j.passed and "no navigation" in j.observed and "URL is http://a/x" in j.observed
    assert judge(expect(navigation=False), before, stayed, ok(), [], []).passed


def test_appears_needs_it_new_or_shown_anew_and_disappears_needs_it_there_before() -> None:
    m = ElementMatch(text="Saved")
    e = expect(element_appears={"text": "Saved"})
    k = match_key(m)
    assert judge(e, Look(present={k: False}), Look(present={k: True}), ok(), [], []).passed
    already = judge(e, Look(present={k: True}), Look(present={k: True}), ok(), [], [])
    assert not already.passed and "it was before the action too" in already.observed[0]
    assert judge(e, Look(present={k: True}), Look(present={k: True}), ok(), [], ["Saved at 12:00"]).passed
    gone = expect(element_disappears={"text": "Saved"})
    assert judge(gone, Look(present={k: True}), Look(present={k: False}), ok(), [], []).passed
    never = judge(gone, Look(present={k: False}), Look(present={k: False}), ok(), [], [])
    assert not never.passed and "was not on the page before" in never.observed[0]


def test_value_and_state_compare_without_showing_values() -> None:
    before = Look(target=TargetState("old secret", {"checked": False}))
    after = Look(target=TargetState("new secret", {"checked": True}))
    j = judge(expect(value_changes=True, state_changes=True), before, after, ok(), [], [])
    assert j.passed and "checked: False → True" in " ".join(j.observed)
    assert "secret" not in " ".join(j.observed)
    same = judge(expect(value_changes=True), before, Look(target=TargetState("old secret", {})), ok(), [], [])
    assert not same.passed
    gone = judge(
        expect(value_changes=True), before, Look(target=TargetState(None, {}, gone=True)), ok(), [], []
    )
    assert not gone.passed and "the acted-on element is gone" in gone.observed


def test_any_change_no_change_errors_and_alternatives() -> None:
    quiet, busy = Look(mutations=0), Look(mutations=4)
    assert judge(expect(any_change=True), Look(), busy, ok(), [], []).passed
    assert not judge(expect(any_change=True), Look(), quiet, ok(), [], []).passed
    assert judge(expect(no_change=True), Look(), quiet, ok(), [], []).passed
    assert not judge(expect(no_change=True), Look(), quiet, ok(), ["Invalid email"], []).passed
    either = expect(**{"or": [{"navigation": True}, {"any_change": True}]})
    assert judge(either, Look(), busy, ok(), [], []).passed
    assert not judge(either, Look(), quiet, ok(), [], []).passed
    assert describe_expect(either) == "(the page navigates) or (something changes)"


@pytest.mark.parametrize(
    "bad",
    [{}, {"timeout": 2}, {"element_appears": {}}, {"element_appears": {"text": "a", "role": "b"}},
     {"element_appears": {"name": "x"}}, {"navigation": "yes"}, {"or": []}, {"nope": True}],
)  # fmt: skip
def test_malformed_expectations_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        Expect.model_validate(bad)


def test_page_has_finds_visible_text_names_and_roles_but_not_hidden_ones() -> None:
    snap = finish(prepare(load_recording(RECORDINGS / "snap-hidden.json")), IdAllocator(), {}, tab_id=1,
                  include_values=False)  # fmt: skip
    visible = next(n for n in snap.by_id.values() if n.role == "button" and n.name)
    assert page_has(snap, ElementMatch(text=visible.name.upper()))
    assert page_has(snap, ElementMatch(role="button", name=visible.name[2:].lower()))
    assert not page_has(snap, ElementMatch(text="Hidden by display none"))
    assert not page_has(snap, ElementMatch(text="Hidden by visibility"))
    assert not page_has(snap, ElementMatch(role="dialog"))


def test_confidence_is_lower_when_the_page_disagrees_or_the_check_is_generic() -> None:
    plain = Look(url="http://a/x", mutations=3)
    assert confidence(expect(url_contains="x"), True, [], [], plain) == 1.0
    assert confidence(expect(url_contains="x"), True, ["Invalid email"], [], plain) == 0.5
    assert confidence(expect(url_contains="y"), False, [], ["Saved"], plain) == 0.5
    assert confidence(expect(url_contains="y"), False, ["Invalid email"], [], plain) == 1.0
    assert confidence(expect(any_change=True), True, [], [], plain) == 0.8
    assert (
        confidence(expect(**{"or": [{"any_change": True}, {"navigation": True}]}), True, [], [], plain) == 1.0
    )
    gone = Look(target=TargetState(None, {}, gone=True))
    assert confidence(expect(value_changes=True), False, [], [], gone) == 0.7
    assert confidence(expect(any_change=True), True, ["x"], [], gone) == 0.3  # (no target wanted)


def test_page_state_says_what_the_page_did() -> None:
    events = [PageEvent(at=1.0, op="appeared", text="Saved", kind="success", source="status"),
              PageEvent(at=1.1, op="disappeared", text="Loading", kind="loading", source="status")]  # fmt: skip
    moved = page_state_of(
        Look(url="http://a/done?token=s3cr3t", navigated=True, mutations=None), "http://a/x", events
    )
    assert moved.url_changed and moved.dom_changed
    assert moved.recent_mutations == ['success appeared: "Saved"', 'loading disappeared: "Loading"']
    assert moved.url is not None and "s3cr3t" not in moved.url
    still = page_state_of(Look(url="http://a/x", mutations=0), "http://a/x", [])
    assert (still.url_changed, still.dom_changed, still.recent_mutations) == (False, False, [])


def test_default_expectations_per_action_kind() -> None:
    for action in DEFAULT_EXPECT:
        default = default_expect(action)
        assert default is not None and default.timeout == 1.0, action
    assert default_expect("type") == expect(value_changes=True, timeout=1.0)
    assert default_expect("click") == expect(any_change=True, timeout=1.0)
    assert default_expect("navigate") == expect(navigation=True, timeout=1.0)
    assert default_expect("hover") is None and default_expect("wait") is None
