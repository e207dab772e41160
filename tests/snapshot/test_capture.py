"""What the host does to a collector payload before building nodes from it."""

from __future__ import annotations

import msgspec

from browserx.snapshot.capture import RawFrame

# Shape of a collector.js reply for: <label for=x>Name</label><input id=x> and an OOPIF owner.
PAYLOAD = {
    "url": "http://a.test/", "title": "t", "viewport": [800, 600], "scroll": [0, 0], "dpr": 1,
    "docSize": [800, 600], "noAi": False, "key": [1, 2, 0, 3, 4], "parent": [-1, 0, 1, 0, 0],
    "tag": ["#document", "label", "#text", "input", "iframe"], "box": [0] * 20, "flags": [0] * 5,
    "text": {"2": "Name"}, "attrs": {}, "state": {"1": {"control": 3}, "3": {"inputType": "text"}},
    "suspects": 0, "frameOwners": [4], "pruned": 0, "keyBase": 5 << 24, "pageMs": 1.5,
}  # fmt: skip


def test_keys_arrive_small_and_become_whole_keys_everywhere_a_key_is_held() -> None:
    raw = msgspec.json.decode(msgspec.json.encode(PAYLOAD), type=RawFrame).absolute_keys()
    base = 5 << 24
    assert raw.key == [base + 1, base + 2, 0, base + 3, base + 4]  # text nodes keep 0 (no key)
    assert raw.frameOwners == [base + 4]
    assert raw.state[1]["control"] == base + 3
    assert raw.absolute_keys().key[0] == base + 1  # applied once only


def test_recorded_payloads_without_a_base_are_taken_as_they_are() -> None:
    legacy = {k: v for k, v in PAYLOAD.items() if k not in ("keyBase", "pageMs")}
    raw = msgspec.json.decode(msgspec.json.encode(legacy), type=RawFrame).absolute_keys()
    assert raw.key == [1, 2, 0, 3, 4]
    assert raw.frameOwners == [4]
