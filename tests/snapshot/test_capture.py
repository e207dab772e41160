"""What the host does to a collector payload before building nodes from it."""

from __future__ import annotations

import msgspec

from browserx.snapshot.capture import RawFrame

# A collector.js reply as sent, for: <div><label for=x>Name</label><input id=x></div><iframe>,
# where the label and input were keyed before the div (keys need not rise in document order).
COMMON = {
    "url": "http://a.test/", "title": "t", "viewport": [800, 600], "scroll": [0, 0], "dpr": 1,
    "docSize": [800, 600], "noAi": False, "box": [0] * 24, "flags": [0] * 6,
    "text": {"3": "Name"}, "attrs": {}, "state": {"2": {"control": 3}, "4": {"inputType": "text"}},
    "suspects": 0, "frameOwners": [5], "pruned": 0,
}  # fmt: skip
SENT = COMMON | {
    "keyBase": 5 << 24, "pageMs": 1.5,
    "keyDeltas": [1, 3, -2, 0, 1, 2], "parentDeltas": [1, 1, 1, 1, 3, 5],
    "tagIds": [0, 1, 2, 3, 4, 5], "tagNames": ["#document", "div", "label", "#text", "input", "iframe"],
}  # fmt: skip
EXPANDED = COMMON | {
    "key": [1, 4, 2, 0, 3, 5], "parent": [-1, 0, 1, 2, 1, 0],
    "tag": ["#document", "div", "label", "#text", "input", "iframe"],
}  # fmt: skip


def test_compact_columns_are_expanded_and_keys_made_whole_everywhere_a_key_is_held() -> None:
    raw = msgspec.json.decode(msgspec.json.encode(SENT), type=RawFrame).normalized()
    base = 5 << 24
    assert raw.tag == EXPANDED["tag"]
    assert raw.parent == EXPANDED["parent"]
    assert raw.key == [k + base if k else 0 for k in EXPANDED["key"]]  # text nodes keep 0 (no key)
    assert raw.frameOwners == [base + 5]
    assert raw.state[2]["control"] == base + 3
    assert raw.normalized().key[0] == base + 1  # applied once only


def test_recorded_payloads_with_expanded_columns_and_no_base_are_taken_as_they_are() -> None:
    raw = msgspec.json.decode(msgspec.json.encode(EXPANDED), type=RawFrame).normalized()
    assert raw.key == EXPANDED["key"]
    assert raw.parent == EXPANDED["parent"]
    assert raw.frameOwners == [5]


def test_boxes_sent_without_text_nodes_land_on_the_same_nodes() -> None:
    from pathlib import Path

    from browserx.snapshot.capture import load_recording
    from browserx.snapshot.merge import build_nodes

    recorded = load_recording(Path(__file__).parent / "recordings" / "snap-layout.json")[0].raw
    expected = [(n.tag, n.box) for n in build_nodes(recorded, "m")]
    compact = msgspec.structs.replace(
        recorded,
        textBoxes=False,
        box=[
            v for i, tag in enumerate(recorded.tag) if tag != "#text" for v in recorded.box[i * 4 : i * 4 + 4]
        ],
    )
    assert len(compact.box) < len(recorded.box)
    assert [(n.tag, n.box) for n in build_nodes(compact, "m")] == expected
    assert any(box is not None and box.y > 0 for _, box in expected)
