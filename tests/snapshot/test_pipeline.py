"""The snapshot pipeline (merge → visibility → tiers → names → IDs → views) on capture payloads
recorded from real Chromium by scripts/record_payloads.py (tests/snapshot/recordings/*.json,
one per fixture page in tests/fixtures/pages/). Expectations come from the fixture HTML itself:
elements marked data-expect="interactive" (with data-name/data-role) must be listed with an ID,
elements marked data-expect="hidden" must not appear at all."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from tests.builders import RECORDINGS, recorded, snapshot_of

from browserx.snapshot.classify import is_interactive
from browserx.snapshot.ids import IdAllocator
from browserx.views.json_view import render_json
from browserx.views.text import render_text

PAGES = Path(__file__).parents[1] / "fixtures" / "pages"
ID_LINE = re.compile(r"^\s*(?:- |row: )?\[(\d+)\] ")


class _Expectations(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.interactive: list[tuple[str, str]] = []
        self.hidden_tags: list[str] = []
        self.frames: list[str] = []
        self._hidden_depth = 0
        self.hidden_texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("data-expect") == "interactive" and a.get("data-name"):
            self.interactive.append((a.get("data-role") or "", a["data-name"] or ""))
        if tag == "iframe" and a.get("src") and "__" not in (a.get("src") or "")[:2]:
            self.frames.append((a["src"] or "").rsplit("/", 1)[-1])
        if a.get("data-expect") == "hidden":
            self._hidden_depth = 1
        elif self._hidden_depth:
            self._hidden_depth += 1

    def handle_endtag(self, tag: str) -> None:
        if self._hidden_depth:
            self._hidden_depth -= 1

    def handle_data(self, data: str) -> None:
        if self._hidden_depth and data.strip():
            self.hidden_texts.append(" ".join(data.split()))


def expectations(page: str) -> _Expectations:
    parser = _Expectations()
    parser.feed((PAGES / page).read_text(encoding="utf-8"))
    for child in list(parser.frames):
        if (PAGES / child).exists():
            sub = expectations(child)
            parser.interactive += sub.interactive
            parser.hidden_texts += sub.hidden_texts
    return parser


RECORDED_PAGES = sorted(p.stem for p in RECORDINGS.glob("snap-*.json"))


@pytest.mark.parametrize("page", RECORDED_PAGES)
def test_every_expected_interactive_element_is_listed_and_nothing_hidden(page: str) -> None:
    snap = snapshot_of(recorded(page))
    expect = expectations(f"{page}.html")
    listed = {(n.role, n.name) for n in snap.by_id.values()}
    names = {n.name for n in snap.by_id.values()}
    missing = [(role, name) for role, name in expect.interactive if name not in names]
    assert not missing, f"not listed: {missing}\n{render_text(snap)}"
    wrong_role = [
        (r, n)
        for r, n in expect.interactive
        if r and n in names and (r, n) not in listed and r != "clickable"
    ]
    assert not wrong_role, f"listed with another role: {wrong_role}"
    text = render_text(snap)
    leaked = [t for t in expect.hidden_texts if t in text]
    assert not leaked, f"hidden content listed: {leaked}\n{text}"


@pytest.mark.parametrize("page", RECORDED_PAGES)
def test_ids_are_unique_first_on_their_line_and_only_on_actionable_nodes(page: str) -> None:
    snap = snapshot_of(recorded(page))
    text = render_text(snap)
    ids = [int(m.group(1)) for line in text.splitlines() if (m := ID_LINE.match(line))]
    inline = [int(i) for i in re.findall(r"\[(\d+)\]", text)]
    assert len(ids) == len(set(ids))
    assert set(inline) <= set(snap.by_id)
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            assert not re.search(r"\[\d+\]", line), f"a heading carries an ID: {line}"
    assert all(is_interactive(n) or "scroll" in n.state for n in snap.by_id.values())


def test_cross_origin_frames_are_stitched_under_their_iframe_with_translated_boxes() -> None:
    frames = recorded("oopif")
    assert len(frames) == 3, "main frame + cross-site child + nested frame"
    snap = snapshot_of(frames)
    child = next(n for n in snap.by_id.values() if n.name == "Child button")
    nested = next(n for n in snap.by_id.values() if n.name == "Nested button")
    iframe = child.parent
    while iframe is not None and iframe.tag != "iframe":
        iframe = iframe.parent
    assert iframe is not None and iframe.ref.frame == "m"
    assert child.ref.frame != "m" and nested.ref.frame not in ("m", child.ref.frame)
    assert iframe.box is not None and child.box is not None and nested.box is not None
    # boxes are in top-level viewport coordinates: inside the iframe's box
    assert iframe.box.x <= child.box.x < iframe.box.right
    assert iframe.box.y <= child.box.y < iframe.box.bottom
    assert child.box.x <= nested.box.x and child.box.y <= nested.box.y + iframe.box.h


def test_closed_shadow_roots_are_merged_under_their_host() -> None:
    frames = recorded("snap-shadow")
    assert frames[0].closed_roots, "the recording holds the closed roots found through CDP"
    snap = snapshot_of(frames)
    roots = [n for n in snap.nodes if n.tag == "#shadow-root" and n.attrs.get("mode") == "closed"]
    assert roots
    inside = [n for n in snap.by_id.values() if any(a is roots[0] for a in _ancestors(n))]
    assert inside, "controls inside the closed root get IDs"


def _ancestors(node):  # type: ignore[no-untyped-def]
    while node.parent is not None:
        node = node.parent
        yield node


def test_ids_survive_a_resnapshot_of_the_same_nodes() -> None:
    ids = IdAllocator()
    first = snapshot_of(recorded("snap-controls"), ids)
    second = snapshot_of(recorded("snap-controls"), ids)
    assert {n.ref: i for i, n in first.by_id.items()} == {n.ref: i for i, n in second.by_id.items()}


def test_recreated_nodes_get_their_ids_back_and_changed_ones_never_reuse_others() -> None:
    ids = IdAllocator()
    first = snapshot_of(recorded("snap-rerender"), ids)
    frames = recorded("snap-rerender")
    raw = frames[0].raw
    # A framework re-render: same content, new DOM objects → new collector keys for the list.
    list_start = raw.tag.index("li")
    raw.key[:] = [k + 100_000 if i >= list_start and k else k for i, k in enumerate(raw.key)]
    second = snapshot_of(frames, ids)
    before = {n.name: i for i, n in first.by_id.items() if n.name.startswith("Item")}
    after = {n.name: i for i, n in second.by_id.items() if n.name.startswith("Item")}
    kept = sum(1 for name, i in before.items() if after.get(name) == i)
    assert kept / len(before) >= 0.95
    # Rename the second half: none of them may take an ID that named a different item before.
    frames = recorded("snap-rerender")
    raw = frames[0].raw
    raw.key[:] = [k + 200_000 if i >= list_start and k else k for i, k in enumerate(raw.key)]
    renamed = 0
    for i, text in list(raw.text.items()):
        if text and text.startswith("Item 1") and len(text) > 6:
            raw.text[i] = text.replace("Item", "Renamed")
            renamed += 1
    third = snapshot_of(frames, ids)
    assert renamed and sum(n.name.startswith("Renamed") for n in third.by_id.values()) == renamed
    names_by_id = {i: n.name for i, n in first.by_id.items()}
    reused = [(i, n.name) for i, n in third.by_id.items() if i in names_by_id]
    assert reused, "the unchanged items keep their IDs"
    for element_id, name in reused:
        assert names_by_id[element_id] == name, f"ID {element_id} moved to {name!r}"


def test_json_view_nests_frames_and_lists_the_same_ids_as_text() -> None:
    snap = snapshot_of(recorded("snap-frames"))
    doc = render_json(snap)
    found: list[int] = []

    def walk(item: dict) -> None:  # type: ignore[type-arg]
        if "id" in item:
            found.append(item["id"])
        for child in item.get("children", []):
            walk(child)

    walk(doc["page"]["body"])
    assert sorted(found) == sorted(snap.by_id)
    assert doc["page"]["context"]["url"].endswith("snap-frames.html")
    assert any(c.get("role") == "iframe" for c in doc["page"]["body"]["children"])
