"""Putting a view together (views/build.py): the same choices in every format — what a budget, a
filter, a query or a delta keeps, and what the view says about the rest — and the state the next
delta compares with."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import msgspec
import pytest

from browserx.snapshot.frames import CUT_NOTE
from browserx.snapshot.ids import IdAllocator
from browserx.snapshot.model import Node
from browserx.snapshot.snapshot import DomSnapshot
from browserx.views.build import SEMANTIC_RESERVE, View, build_view
from browserx.views.delta import state_of
from browserx.views.events import summarise
from browserx.views.html import render_html
from browserx.views.options import ViewOptions
from browserx.views.tokens import count_tokens
from tests.builders import el, page, recorded, snapshot_of, text


def view(snap: DomSnapshot, **options: Any) -> View:
    extra = {k: options.pop(k) for k in ("previous", "matched", "filter_text") if k in options}
    return build_view(snap, ViewOptions(**options), events=summarise([], snap), **extra)


def ids_in(payload: Any) -> set[int]:
    """The element IDs a view of any format lists."""
    if isinstance(payload, str):
        return {int(i) for i in re.findall(r"\[(\d+)\] ", payload)}
    if "interactive_tree" in payload:
        return {e["i"] for e in payload["interactive_tree"]}
    found: set[int] = set()

    def walk(item: dict[str, Any]) -> None:
        if "id" in item:
            found.add(item["id"])
        for child in item.get("children", []):
            walk(child)

    walk(payload["page"]["body"])
    return found


FORMATS = ("text", "json", "semantic")


@pytest.mark.parametrize("fmt", FORMATS)
def test_tokens_are_those_of_the_payload_as_sent(fmt: str) -> None:
    snap = snapshot_of(recorded("snap-controls"))
    for budget in (0, 400):
        built = view(snap, format=fmt, max_tokens=budget)
        sent = built.payload if fmt == "text" else msgspec.json.encode(built.payload).decode()
        # The semantic view carries its own count (meta.estimatedTokens), filled in after counting.
        assert abs(built.tokens - count_tokens(sent)) <= (2 if fmt == "semantic" else 0)
        assert built.stats["tokens"] == built.tokens and built.stats["max_tokens"] == budget
        if budget:
            assert built.tokens <= budget
        if fmt == "semantic":
            assert built.payload["meta"]["estimatedTokens"] == built.tokens


def test_the_semantic_budget_keeps_room_for_its_own_count() -> None:
    snap = snapshot_of(recorded("snap-layout"))
    whole = view(snap, format="semantic", max_tokens=0)
    # A budget the page meets only without the reserve: the reserve makes it cut.
    built = view(snap, format="semantic", max_tokens=whole.tokens + SEMANTIC_RESERVE - 1)
    assert built.stats["shown_lines"] < whole.stats["shown_lines"]
    assert built.payload["filtered"]["reason"] == "token budget"
    assert built.payload["omitted"]["total"] == whole.stats["total_lines"] - built.stats["shown_lines"]
    assert built.payload["notes"][0].startswith("-- not shown (token budget)")


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_shows_the_same_elements_under_the_same_limit(fmt: str) -> None:
    snap = snapshot_of(recorded("snap-layout"))
    text_ids = ids_in(view(snap, max_elements=12, max_tokens=0).payload)
    assert len(text_ids) == 12
    assert ids_in(view(snap, format=fmt, max_elements=12, max_tokens=0).payload) == text_ids
    in_view = ids_in(view(snap, viewport_only=True, max_tokens=0).payload)
    built = view(snap, format=fmt, viewport_only=True, max_tokens=0)
    assert ids_in(built.payload) == in_view < set(snap.by_id)
    if fmt == "semantic":
        assert built.payload["filtered"]["reason"] == "outside the viewport"
    if fmt == "json":
        assert "outside the viewport" in built.payload["page"]["context"]["notes"][0]


def test_json_says_what_it_left_out_in_its_context() -> None:
    snap = snapshot_of(recorded("snap-layout"))
    built = view(snap, format="json", max_tokens=600)
    context = built.payload["page"]["context"]
    assert built.tokens <= 600
    assert context["omitted"]["total"] == built.stats["omitted"]["total"] > 0
    assert context["notes"][0].startswith("-- not shown (token budget)")
    assert context["scroll_position"] == "0%" and context["more_below"] is True
    assert context["scrollable_containers"] and context["recent_events"] == []
    whole = view(snap, format="json", max_tokens=0).payload["page"]["context"]
    assert "omitted" not in whole and whole["notes"] == []


def _row_with_a_checkbox() -> tuple[DomSnapshot, Node]:
    box = el("input", role="checkbox", name="Select Ada", bx_id=1, inline=True)
    snap = page(
        el("table",
           el("tr", el("td", box), el("td", text("Ada Lovelace")), role="row"),
           el("tr", el("td", el("input", role="checkbox", name="Select Alan", bx_id=2, inline=True)),
              el("td", text("Alan Turing")), role="row"),
           role="table"),
        el("button", text("Delete"), role="button", name="Delete", bx_id=3),
    )  # fmt: skip
    return snap, box


def test_a_filter_matching_a_control_in_a_row_keeps_the_row_line() -> None:
    snap, box = _row_with_a_checkbox()
    built = view(snap, matched=frozenset({box.ref}), filter_text="input:checked", max_tokens=0)
    assert 'filter "input:checked": 1 of ' in built.payload
    assert ids_in(built.payload) == {1}
    assert "Ada Lovelace" in built.payload and "Alan Turing" not in built.payload
    nothing = view(snap, matched=frozenset(), filter_text="video", max_tokens=0)
    assert ids_in(nothing.payload) == set() and 'filter "video": 0 of ' in nothing.payload


def test_max_depth_keeps_the_outer_lines_in_every_format() -> None:
    snap, _ = _row_with_a_checkbox()
    assert ids_in(view(snap, max_depth=0, max_tokens=0).payload) == {3}
    assert ids_in(view(snap, format="semantic", max_depth=0, max_tokens=0).payload) == {3}
    assert ids_in(view(snap, format="json", max_depth=1, max_tokens=0).payload) == {1, 2, 3}


# -- deltas -------------------------------------------------------------------------------------------


def test_since_last_without_a_previous_view_gives_the_whole_view_and_says_so() -> None:
    snap = snapshot_of(recorded("snap-controls"))
    built = view(snap, since_last=True, max_tokens=0)
    assert "(no previous view of this tab to compare with: the whole view follows)" in built.payload
    assert ids_in(built.payload) == set(snap.by_id)
    assert built.state.holds(snap)


@pytest.mark.parametrize("fmt", ["json", "semantic"])
def test_an_unchanged_page_is_one_small_record(fmt: str) -> None:
    ids = IdAllocator()
    first = view(snapshot_of(recorded("snap-controls"), ids), format=fmt)
    again = snapshot_of(recorded("snap-controls"), ids)
    built = view(again, format=fmt, since_last=True, previous=first.state)
    assert built.payload == {"mode": "delta", "unchanged": True, "tree_hash": first.state.tree_hash,
                             "url": again.url, "recent_events": [], "has_errors": False,
                             "has_success": False}  # fmt: skip
    assert built.tokens == count_tokens(msgspec.json.encode(built.payload).decode())
    assert built.stats == {"delta": built.stats["delta"], "shown_lines": 0}
    assert built.stats["delta"]["added"] == [] and built.state.holds(again)


def test_a_semantic_delta_lists_only_the_elements_that_changed() -> None:
    ids = IdAllocator()
    before = snapshot_of(recorded("snap-controls"), ids)
    frames = recorded("snap-controls")
    raw = frames[0].raw
    (box,) = [i for i, a in raw.attrs.items() if a.get("type") == "checkbox"]
    raw.attrs[box].pop("checked")
    raw.state[box] = {**raw.state[box], "checked": False}
    after = snapshot_of(frames, ids)
    (changed,) = [i for i, n in after.by_id.items() if n.name == "Subscribe to newsletter"]
    built = view(after, format="semantic", since_last=True, previous=state_of(before))
    assert ids_in(built.payload) == {changed}
    assert built.payload["delta"]["changed"] == {str(changed): {"checked": {"was": True, "now": None}}}
    assert built.payload["notes"][0].startswith("# delta since the last view")


def test_a_delta_takes_the_place_of_a_query() -> None:
    ids = IdAllocator()
    first = view(snapshot_of(recorded("snap-controls"), ids))
    built = view(snapshot_of(recorded("snap-controls"), ids), since_last=True, query="delete account",
                 previous=first.state)  # fmt: skip
    assert built.payload.startswith("no changes since the last view") and "query" not in built.payload


# -- queries ------------------------------------------------------------------------------------------


def test_a_query_in_json_and_semantic_says_what_it_matched() -> None:
    snap = snapshot_of(recorded("snap-controls"))
    for fmt in ("json", "semantic"):
        built = view(snap, format=fmt, query="delete account", max_tokens=700)
        context = built.payload["page"]["context"] if fmt == "json" else built.payload
        assert context["query"]["text"] == "delete account" and context["query"]["matching"] >= 1
        assert context["notes"][-1].startswith('-- query "delete account": ')
        assert "omitted" not in context  # the query's own summary replaces it
        (delete,) = [i for i, n in snap.by_id.items() if n.name == "Delete account"]
        assert delete in ids_in(built.payload)


def test_a_query_keeps_the_focused_field_first() -> None:
    """The section the person is typing in stays in view of the agent, whatever the query ranks
    first."""
    snap = page(
        el("form", el("input", role="textbox", name="Street", state={"focused": True}, bx_id=1),
           el("input", role="textbox", name="City", bx_id=2), role="form", name="Address"),
        *[el("form", *[el("button", text(f"Pay {k} {j}"), role="button", name=f"Pay {k} {j}", bx_id=10 * k + j)
                       for j in range(5)], role="form", name=f"Payment {k}") for k in range(1, 8)],
    )  # fmt: skip
    whole = view(snap, max_tokens=0)
    built = view(snap, query="pay", max_tokens=whole.tokens // 3)
    assert built.tokens <= whole.tokens // 3
    shown = ids_in(built.payload)
    assert 1 in shown and 2 in shown  # the focused field's form, though "pay" matches nothing there
    assert any(i >= 10 for i in shown) and shown < set(snap.by_id)


@pytest.mark.parametrize("fmt", [*FORMATS, "html"])
def test_every_format_says_when_the_page_was_read_only_in_part(fmt: str) -> None:
    snap = snapshot_of(recorded("snap-layout"))
    if fmt == "html":
        assert render_html(snap).note is None
    else:
        assert CUT_NOTE not in json.dumps(view(snap, format=fmt).payload)
    snap = dataclasses.replace(
        snap, stats=dataclasses.replace(snap.stats, cut_frames=1)
    )  # the collector stopped at its node budget (snapshot/frames.py)
    said = render_html(snap).note if fmt == "html" else json.dumps(view(snap, format=fmt).payload)
    assert said is not None and "read its first 200,000 nodes in document order and stopped" in said
