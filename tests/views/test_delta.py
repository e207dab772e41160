"""Deltas (views/delta.py) between two snapshots of a recorded page, the second one taken after an
edit of the page (a box unchecked, a button renamed, one disabled, one gone, one new): exactly those
changes, under the IDs the first view showed; values only when both views read them; the lines
and the headline a text view prints."""

from __future__ import annotations

import re

from browserx.snapshot.frames import FrameCapture
from browserx.snapshot.ids import IdAllocator
from browserx.snapshot.snapshot import DomSnapshot
from browserx.views.build import build_view
from browserx.views.delta import Delta, change_lines, diff, headline, state_of
from browserx.views.events import summarise
from browserx.views.options import ViewOptions
from tests.builders import append_button, drop_node, recorded, snapshot_of


def _index(frames: list[FrameCapture], tag: str, text: str | None = None, **attrs: str) -> int:
    """The node of the recorded main frame with that tag (and text inside it, or attributes)."""
    raw = frames[0].raw
    for i, t in enumerate(raw.tag):
        if t != tag or any(raw.attrs.get(i, {}).get(k) != v for k, v in attrs.items()):
            continue
        if text is None or any(raw.parent[j] == i and raw.text.get(j) == text for j in range(len(raw.tag))):
            return i
    raise AssertionError(f"no {tag} {text or attrs} in the recording")


def _id(snap: DomSnapshot, name: str) -> int:
    (found,) = [i for i, n in snap.by_id.items() if n.name == name]
    return found


def _edited(ids: IdAllocator) -> DomSnapshot:
    """snap-controls after a person's and a script's edits, through the same ID allocator."""
    frames = recorded("snap-controls")
    raw = frames[0].raw
    box = _index(frames, "input", type="checkbox")
    raw.attrs[box].pop("checked")
    raw.state[box] = {**raw.state[box], "checked": False}
    save = _index(frames, "button", "Save draft")
    raw.text[save + 1] = "Save as draft"
    preview = _index(frames, "input", type="button")
    raw.attrs[preview] = {**raw.attrs[preview], "disabled": ""}
    raw.state[preview] = {**raw.state[preview], "disabled": True}
    append_button(raw, 1, "Undo", (300.0, 600.0, 60.0, 21.0))
    drop_node(raw, _index(frames, "button", **{"aria-label": "Close panel"}))
    return snapshot_of(frames, ids)


def test_an_edit_of_the_recorded_page_is_exactly_the_delta() -> None:
    ids = IdAllocator()
    before = snapshot_of(recorded("snap-controls"), ids)
    after = _edited(ids)
    delta = diff(state_of(before), state_of(after))
    undo, gone = _id(after, "Undo"), _id(before, "Close panel")
    assert undo not in before.by_id and gone not in after.by_id
    assert delta.added == [undo]
    assert delta.removed == [gone]
    assert delta.changed == {
        _id(before, "Subscribe to newsletter"): {"checked": (True, None)},
        _id(before, "Save draft"): {"name": ("Save draft", "Save as draft")},
        _id(before, "Preview order"): {"disabled": (None, True)},
    }
    assert _id(after, "Save as draft") == _id(before, "Save draft")  # the same button, renamed
    assert not delta.navigated and not delta.empty
    assert delta.old_hash != delta.new_hash
    assert delta.to_dict()["changed"][str(_id(before, "Save draft"))] == {
        "name": {"was": "Save draft", "now": "Save as draft"}
    }
    assert "navigated" not in delta.to_dict()


def test_the_text_delta_marks_each_change_on_its_line() -> None:
    ids = IdAllocator()
    before = snapshot_of(recorded("snap-controls"), ids)
    after = _edited(ids)
    view = build_view(
        after, ViewOptions(since_last=True), events=summarise([], after), previous=state_of(before)
    )
    text = view.payload
    box, save, preview = (_id(before, n) for n in ("Subscribe to newsletter", "Save draft", "Preview order"))
    undo, gone = _id(after, "Undo"), _id(before, "Close panel")
    assert re.search(
        r"^# delta since the last view \d+s ago: 1 new \(\+\), 3 changed \(~\), 1 removed;", text, re.M
    )
    assert re.search(rf"^\+ \[{undo}\] button Undo$", text, re.M)
    for changed in (box, save, preview):
        assert re.search(rf"^ *~ \[{changed}\] ", text, re.M), changed
    assert f"~ [{box}] checked yes → no" in text
    assert f'~ [{save}] name "Save draft" → "Save as draft"' in text
    assert f"~ [{preview}] disabled no → yes" in text
    assert f"- removed: [{gone}]" in text
    # Only what changed is listed: no line of an untouched control.
    shown = {int(i) for i in re.findall(r"\[(\d+)\]", text)}
    assert shown == {undo, gone, box, save, preview}
    doc = build_view(after, ViewOptions(since_last=True, format="json"), events=summarise([], after),
                     previous=state_of(before)).payload  # fmt: skip
    assert doc["page"]["context"]["delta"]["added"] == [undo]


def test_the_same_page_again_is_an_empty_delta_with_one_hash() -> None:
    ids = IdAllocator()
    first = state_of(snapshot_of(recorded("snap-controls"), ids))
    again = state_of(snapshot_of(recorded("snap-controls"), ids))
    delta = diff(first, again)
    assert delta.empty and delta.old_hash == delta.new_hash == first.tree_hash
    assert headline(delta, 3.4) == f"no changes since the last view 3s ago (tree {first.tree_hash})"
    assert change_lines(delta) == []


def test_values_are_compared_only_when_both_views_read_them() -> None:
    def typed(value: str, include_values: bool, ids: IdAllocator) -> DomSnapshot:
        frames = recorded("snap-controls")
        raw = frames[0].raw
        field = _index(frames, "input", id="fullname")
        raw.state[field] = {**raw.state[field], "value": value, "hasValue": bool(value)}
        return snapshot_of(frames, ids, include_values=include_values)

    ids = IdAllocator()
    name = _id(typed("", False, ids), "Full name")
    with_values = diff(state_of(typed("Ada", True, ids)), state_of(typed("Ada Lovelace", True, ids)))
    assert with_values.changed == {name: {"value": ("Ada", "Ada Lovelace")}}
    # One view without values: the value is no change (its presence, hasValue, still is).
    one_blind = diff(state_of(typed("Ada", True, ids)), state_of(typed("Ada Lovelace", False, ids)))
    assert one_blind.changed == {}
    emptied = diff(state_of(typed("Ada", False, ids)), state_of(typed("", False, ids)))
    assert emptied.changed == {name: {"hasValue": (True, None)}}
    assert change_lines(emptied) == [f"~ [{name}] hasValue yes → no"]


def test_another_url_is_a_navigation_even_with_the_same_elements() -> None:
    ids = IdAllocator()
    before = snapshot_of(recorded("snap-controls"), ids)
    frames = recorded("snap-controls")
    frames[0].raw.url = frames[0].raw.url + "?step=2"
    after = snapshot_of(frames, ids)
    delta = diff(state_of(before), state_of(after))
    assert delta.navigated and not delta.empty
    assert (delta.added, delta.removed, delta.changed) == ([], [], {})
    assert "navigated; 0 new" in headline(delta, 0)
    assert delta.to_dict()["navigated"] is True


def test_a_detached_state_lets_the_snapshot_go_and_still_diffs() -> None:
    ids = IdAllocator()
    snap = snapshot_of(recorded("snap-controls"), ids)
    state = state_of(snap)
    assert state.holds(snap)
    expected = state.tree_hash
    state.detach()
    assert not state.holds(snap)
    state.detach()  # twice is harmless
    assert state.tree_hash == expected
    assert diff(state, state_of(_edited(ids))).changed


def test_change_lines_quote_page_text_and_cut_long_lists() -> None:
    delta = Delta("a", "b", removed=list(range(1, 46)))
    delta.changed = {
        7: {"name": ("Line one\nline two", "x" * 80), "expanded": (None, True), "role": (None, "button")},
    }
    lines = change_lines(delta)
    assert (
        lines[0] == f'~ [7] name "Line one\\nline two" → "{"x" * 59}…", expanded no → yes, role — → "button"'
    )
    assert all("\n" not in line for line in lines)  # page text never breaks a line
    assert lines[1].startswith("- removed: [1], [2]") and lines[1].endswith("[40] … and 5 more")
    assert (
        headline(delta, 12.2)
        == "# delta since the last view 12s ago: 0 new (+), 1 changed (~), 45 removed; tree a → b"
    )
