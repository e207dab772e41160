"""Views on recorded payloads (tests/snapshot/recordings): the semantic contract, budgets,
viewport_only (2/3 rule), max_elements, filters, deltas, query chunking, events and scroll."""

from __future__ import annotations

import re
from dataclasses import replace

import msgspec
import pytest

from browserx.page.css_filter import expand
from browserx.page.events import EventLog, classify, from_raw
from browserx.snapshot.model import Box, Node, NodeRef
from browserx.snapshot.snapshot import DomSnapshot
from browserx.views.build import build_view
from browserx.views.delta import diff, state_of
from browserx.views.events import summarise
from browserx.views.options import ViewOptions
from browserx.views.outline import outline
from browserx.views.query import chunks_of, rank, tokenize
from browserx.views.scroll import containers, page_scroll
from browserx.views.semantic import LEGEND, ROLE_MAP, ROLE_NAMES
from browserx.views.tokens import count_tokens
from browserx.views.units import units_of
from browserx.views.viewport import ViewportIndex
from tests.builders import el, recorded, snapshot_of
from tests.builders import page as built_page

NO_EVENTS = None


def _snap(name: str) -> DomSnapshot:
    return snapshot_of(recorded(name))


def _view(snap: DomSnapshot, **kw: object):  # type: ignore[no-untyped-def]
    return build_view(snap, ViewOptions(**kw), events=summarise([], snap))  # type: ignore[arg-type]


def _ids(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"\[(\d+)\] ", text)]


# -- semantic ---------------------------------------------------------------------------------


def test_semantic_view_has_the_contract_shape_and_minified_roles() -> None:
    snap = _snap("snap-controls")
    doc = _view(snap, format="semantic").payload
    assert doc["mode"] == "semantic"
    for key in ("url", "title", "viewport", "scroll_position", "interactive_tree", "scrollable_containers",
                "recent_events", "has_errors", "has_success", "meta"):  # fmt: skip
        assert key in doc
    assert set(doc["meta"]) == {"totalElements", "viewportElements", "prunedElements", "occludedElements",
                                "extractionTimeMs", "estimatedTokens"}  # fmt: skip
    tree = doc["interactive_tree"]
    assert len(tree) == doc["meta"]["totalElements"] == len(snap.by_id)
    by_name = {e.get("n"): e for e in tree}
    assert by_name["Place order"]["r"] == "btn"
    assert by_name["Full name"]["r"] == "inp"
    assert (
        by_name["Subscribe to newsletter"]["r"] == "chk"
        and "checked" in by_name["Subscribe to newsletter"]["s"]
    )
    assert by_name["Standard shipping"]["r"] == "radio"
    assert by_name["Country"]["r"] == "sel"
    assert by_name["Terms of service"]["r"] == "link"
    assert all(set(e) <= {"i", "r", "n", "v", "s", "xy", "f", "box", "scr", "occ"} for e in tree)
    assert all(len(e.get("n", "")) <= 50 for e in tree)
    assert all("v" not in e and "box" not in e for e in tree)
    assert abs(doc["meta"]["estimatedTokens"] - count_tokens(msgspec.json.encode(doc).decode())) <= 2
    boxed = _view(snap, format="semantic", boxes=True).payload["interactive_tree"]
    placed = [e for e in boxed if "xy" in e]
    assert placed and all(len(e["box"]) == 4 for e in placed)


def test_semantic_values_only_on_request_and_never_passwords() -> None:
    # The recorded page: its password fields are found by their type, not by what the view shows.
    snap = _snap("snap-values")
    passwords = {i for i, n in snap.by_id.items() if n.state.get("inputType") == "password"}
    filled = {i for i in passwords if snap.by_id[i].state.get("hasValue")}
    assert filled and passwords - filled  # one typed into, one empty
    asked = _view(replace(snap, include_values=True), format="semantic").payload["interactive_tree"]
    values = {e["i"]: e.get("v") for e in asked}
    assert {i: values[i] for i in passwords} == {i: "••••" if i in filled else None for i in passwords}
    assert all("v" not in e for e in _view(snap, format="semantic").payload["interactive_tree"])

    # Live values (the recording has none): shown, redacted, only when asked; a password never,
    # not even when its value was captured.
    def form(values: bool) -> DomSnapshot:
        return built_page(
            el("input", state={"inputType": "text", "value": "Ada Lovelace"}, role="textbox", name="Name", bx_id=1),
            el("input", state={"inputType": "text", "value": "4111 1111 1111 1111"}, role="textbox", name="Card",
               bx_id=2),
            el("input", attrs={"type": "password"}, state={"inputType": "password", "hasValue": True,
               "value": "hunter2"}, role="textbox", name="Password", bx_id=3),
            include_values=values,
        )  # fmt: skip

    shown = _view(form(True), format="semantic").payload
    values = {e["i"]: e.get("v") for e in shown["interactive_tree"]}
    assert values == {1: "Ada Lovelace", 2: "[card number]", 3: "••••"}
    hidden = _view(form(False), format="semantic").payload
    assert [e["i"] for e in hidden["interactive_tree"]] == [1, 2, 3]
    assert all("v" not in e for e in hidden["interactive_tree"])
    for doc in (shown, hidden):
        encoded = msgspec.json.encode(doc).decode()
        assert "hunter2" not in encoded and "4111" not in encoded


def test_role_table_and_legend() -> None:
    assert ROLE_MAP["button"] == "btn" and ROLE_MAP["checkbox"] == "chk" and ROLE_MAP["option"] == "opt"
    for key in ("i:", "r:", "n:", "v:", "s:", "xy:", "f:", "box:", "scr:", "occ:", "recent_events"):
        assert key in LEGEND
    for short in set(ROLE_MAP.values()) & {"btn", "inp", "link", "chk", "radio", "sel", "opt", "tab"}:
        assert f"{short}=" in LEGEND


def test_the_legend_lists_every_role_code_the_view_emits() -> None:
    """The legend said "other roles are spelled out" but left out 12 codes (mchk, ti, cell, h,
    dlg, ...): every code of the table is in its ``r`` line, and every code ROLE_MAP gives is in
    the table."""
    assert set(ROLE_MAP.values()) <= set(ROLE_NAMES)
    role_line = LEGEND.split("\n- n:")[0].split("- r:")[1]
    listed = set(re.findall(r"(?:^|[ ,:])([a-z]+)=", role_line))
    assert listed == set(ROLE_NAMES), sorted(set(ROLE_NAMES) ^ listed)


# -- budgets, viewport, max_elements, max_depth ---------------------------------------------


def test_a_page_that_fits_is_listed_whole() -> None:
    snap = _snap("snap-layout")
    view = _view(snap)
    assert view.stats["shown_lines"] == view.stats["total_lines"]
    assert "not shown" not in view.payload
    assert set(_ids(view.payload)) == set(snap.by_id)
    # A budget the page meets exactly still lists it whole (the size estimate only skips
    # rendering the whole page when it clearly cannot fit).
    whole = _view(snap, max_tokens=0)
    exact = _view(snap, max_tokens=whole.tokens)
    assert exact.payload == whole.payload


def test_over_budget_keeps_the_viewport_first_and_summarises_the_rest() -> None:
    snap = _snap("snap-layout")
    whole = _view(snap, max_tokens=0)
    for fmt, budget in (("text", 300), ("json", 700), ("semantic", 400)):
        view = _view(snap, max_tokens=budget, format=fmt)
        assert view.tokens <= budget, (fmt, view.tokens)
        assert view.stats["shown_lines"] < view.stats["total_lines"]
    view = _view(snap, max_tokens=300)
    assert whole.tokens > 300
    index = ViewportIndex(snap)
    in_view = {i for i, n in snap.by_id.items() if index.where(n).in_view}
    shown = set(_ids(view.payload))
    assert in_view <= shown
    assert "-- not shown (token budget)" in view.payload
    assert "scroll container 3 to see them" in view.payload  # rows of the scroll container
    # never cut mid-line: every line of the budgeted view is a line of the whole view or a note
    whole_lines = set(whole.payload.splitlines())
    body = [line for line in view.payload.splitlines() if re.search(r"\[\d+\] ", line)]
    assert all(line in whole_lines for line in body)


@pytest.mark.parametrize("name", ["snap-layout", "snap-controls", "snap-frames"])
def test_every_text_view_ends_with_a_newline_cut_or_whole(name: str) -> None:
    """A view cut by its budget ends its last line too: what a caller prints after it (the CLI's
    --json-stats) starts on a line of its own."""
    snap = _snap(name)
    previous = state_of(snap)
    for budget in (0, 1, 10, 40, 120, 300):
        for extra in ({}, {"viewport_only": True}, {"max_elements": 1}, {"query": "save"}):
            view = _view(snap, max_tokens=budget, **extra)
            assert view.payload.endswith("\n"), (budget, extra, view.payload[-80:])
        delta = build_view(snap, ViewOptions(since_last=True, max_tokens=budget), events=summarise([], snap),
                           previous=previous)  # fmt: skip
        assert delta.payload.endswith("\n")


def test_viewport_only_uses_the_two_thirds_rule() -> None:
    snap = _snap("snap-layout")
    index = ViewportIndex(snap)
    vw, vh = snap.viewport

    def at(y: float, h: float = 90) -> bool:
        probe = Node(NodeRef("m", -1), "button", parent=snap.root, box=Box(10, y, 100, h))
        return index.where(probe).in_view

    assert at(100)
    assert at(vh - 60)  # 60 of 90 px visible: exactly 2/3
    assert not at(vh - 50)  # 50 of 90: not enough
    assert not at(-40)  # 50 of 90 above the top
    assert index.where(Node(NodeRef("m", -2), "div", parent=snap.root, box=Box(0, 0, vw, vh * 5))).in_view
    view = _view(snap, viewport_only=True)
    shown = set(_ids(view.payload))
    assert shown == {i for i, n in snap.by_id.items() if index.where(n).in_view}
    assert shown < set(snap.by_id) and "outside the viewport" in view.payload


def test_max_elements_takes_the_viewport_first_then_document_order() -> None:
    snap = _snap("snap-layout")
    index = ViewportIndex(snap)
    in_view = [i for i, n in snap.by_id.items() if index.where(n).in_view]
    rest = [i for i in snap.by_id if i not in in_view]
    view = _view(snap, max_elements=len(in_view) + 2, max_tokens=0)
    shown = _ids(view.payload.split("-- not shown")[0])
    assert set(shown) == set(in_view) | set(rest[:2])
    # The semantic view keeps the same ones, listed in document order. Only a limit past what the
    # viewport holds tells "viewport first" from plain document order on this page.
    beyond = len(in_view) + 2
    assert sorted([*in_view, *rest[:2]]) != sorted(snap.by_id)[:beyond]
    for limit, kept in ((3, in_view[:3]), (beyond, [*in_view, *rest[:2]])):
        semantic = _view(snap, format="semantic", max_elements=limit).payload
        assert [e["i"] for e in semantic["interactive_tree"]] == sorted(kept), limit
        assert semantic["meta"]["prunedElements"] == len(snap.by_id) - limit


def test_max_depth_drops_nested_content() -> None:
    snap = _snap("snap-controls")
    flat = _view(snap, max_depth=0, max_tokens=0).payload
    assert "[1] textbox" not in flat  # inside the form
    assert "\n[20] button Save draft\n" in flat


def test_filter_keeps_only_matched_subtrees() -> None:
    snap = _snap("snap-controls")
    form = next(n for n in snap.nodes if n.tag == "form")
    matched = expand(snap, {form.ref})
    assert all(n.ref in matched for n in form.walk() if not n.is_text)
    view = build_view(snap, ViewOptions(), events=summarise([], snap), matched=matched, filter_text="form")
    assert "] textbox Full name\n" in view.payload and "Save draft" not in view.payload
    assert 'filter "form"' in view.payload


# -- delta ------------------------------------------------------------------------------------


def test_delta_with_no_change_is_one_line_with_the_tree_hash() -> None:
    snap = _snap("snap-controls")
    previous = state_of(snap)
    view = build_view(snap, ViewOptions(since_last=True), events=summarise([], snap), previous=previous)
    lines = view.payload.splitlines()
    assert len(lines) == 1 and re.search(rf"tree {previous.tree_hash}\)$", lines[0])


def test_delta_marks_added_removed_and_changed() -> None:
    snap = _snap("snap-controls")
    now = state_of(snap)
    elements = dict(now.elements)
    first, second, third = sorted(elements)[:3]
    del elements[first]  # new now
    elements[second] = tuple((k, "Old name" if k == "name" else v) for k, v in elements[second])
    elements[999] = (("role", "button"), ("name", "Gone"))
    old = state_of(snap)
    vars(old).update(elements=elements, tree_hash="00000000")  # what an earlier view had shown
    delta = diff(old, now)
    assert delta.added == [first] and delta.removed == [999] and list(delta.changed) == [second]
    text = build_view(snap, ViewOptions(since_last=True), events=summarise([], snap), previous=old).payload
    assert re.search(rf"^\+ .*\[{first}\] ", text, re.M)
    assert re.search(rf"^~ .*\[{second}\] ", text, re.M)
    assert f'~ [{second}] name "Old name" →' in text
    assert "- removed: [999]" in text
    assert f"[{third}] " not in text


# -- query ------------------------------------------------------------------------------------


def test_tokenizer_keeps_compounds_and_parts() -> None:
    assert sorted(tokenize("Buy 500-3, e-mail a_b")) == sorted(
        ["buy", "500-3", "500", "3", "e-mail", "e", "mail", "a_b", "a_b"]
    )


def test_query_chunks_by_container_and_ranks_with_bm25() -> None:
    snap = _snap("snap-controls")
    units = units_of(outline(snap), snap)
    chunks = chunks_of(units)
    assert len(chunks) > 1
    form_chunk = next(c for c in chunks if any("Full name" in u.text for u in c.units))
    assert any("Country" in u.text for u in form_chunk.units)  # one chunk per form
    best = rank(chunks, "delete account")[0][1]
    assert any("Delete account" in u.text for u in best.units)
    view = _view(snap, query="Delete account", max_tokens=200)
    assert view.tokens <= 200
    assert "[22] button Delete account (disabled)" in view.payload and "filtered out" in view.payload
    assert view.payload.startswith("# Snapshot controls")


def test_the_lean_query_index_scores_as_rank_bm25_does() -> None:
    from rank_bm25 import BM25Okapi

    from browserx.views.query import _query_index

    chunks = []
    for page in ("snap-controls", "snap-layout", "snap-shadow", "snap-frames"):
        snap = _snap(page)
        chunks += chunks_of(units_of(outline(snap), snap))
    corpus = [tokenize(c.text) for c in chunks]
    assert len(corpus) > 5
    for query in ("delete account", "Row button 7", "shipping standard express", "button"):
        terms = tokenize(query)
        expected = BM25Okapi(corpus).get_scores(terms)
        got = _query_index(iter(corpus), set(terms)).get_scores(terms)
        assert list(got) == list(expected), query
        assert any(expected > 0), query


def test_query_that_matches_nothing_falls_back_to_the_page() -> None:
    view = _view(_snap("snap-controls"), query="zebra xylophone")
    assert "nothing matched" in view.payload and "[1] textbox Full name" in view.payload


# -- events and scroll ---------------------------------------------------------------------------


def test_event_classification_rules() -> None:
    assert classify("Invalid ZIP code") == "error"
    assert classify("Saved successfully") == "success"
    assert classify("Loading results…") == "loading"
    assert classify("Warning: unsaved changes") == "warning"
    assert classify("Something happened", role="alert") == "error"
    assert classify("Heads up", cls="toast toast-success") == "success"
    assert classify("3 new messages", role="status") == "info"
    assert classify("Could not save your draft") == "error"


def test_event_log_keeps_each_event_once_and_shows_it_in_the_next_view() -> None:
    snap = _snap("snap-controls")
    log = EventLog()
    page_now = 1_000_000.0
    raw = [{"t": page_now - 2000, "op": "added", "text": "Saved  successfully", "role": "status"},
           {"t": page_now - 1990, "op": "added", "text": "Saved successfully", "role": "status"},
           {"t": page_now - 1000, "op": "removed", "text": "Saved successfully", "role": "status"}]  # fmt: skip
    log.add(e for r in raw if (e := from_raw(r, page_now, 500.0)) is not None)
    assert [e.op for e in log.events] == ["appeared", "disappeared"]
    summary = summarise(log.since_last_view(500.0), snap, 500.0)
    assert summary.has_success and not summary.has_errors
    assert summary.lines()[1] == '  [2s ago] success appeared: "Saved successfully"'
    assert log.since_last_view(501.0) == []
    text = build_view(snap, ViewOptions(), events=summary).payload
    assert "events since last view:" in text


def test_scroll_context_of_page_and_containers() -> None:
    snap = _snap("snap-layout")
    page = page_scroll(snap)
    assert page.percent == 0 and page.more_below and not page.more_above
    found = dict(containers(snap))
    assert found and all(s.more_below for s in found.values())
    text = _view(snap).payload
    assert "scrolled 0,0 of 1265x2692 (0% down, more below);" in text.splitlines()[1]
    assert "scroll containers: 3 (0% down, more below)" in text
    doc = _view(snap, format="semantic").payload
    assert doc["scroll_position"] == "0%" and doc["scrollable_containers"][0]["hasMore"] is True
    scr = [e for e in doc["interactive_tree"] if "scr" in e]
    assert scr and scr[0]["scr"] == {"depth": "0%", "h": True}
