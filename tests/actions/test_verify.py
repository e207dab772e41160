"""Judging an expectation (actions/verify.py) against looks at the page, and finding elements by
text or role in snapshots built from recorded Chromium payloads (tests/snapshot/recordings)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from browserx.actions.result import ActionResult
from browserx.actions.verify import Look, TargetState, describe_expect, judge, match_key, page_has
from browserx.expectations import ElementMatch, Expect
from browserx.snapshot.ids import IdAllocator
from browserx.snapshot.pipeline import finish, prepare
from browserx.snapshot.recording import load_recording

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
