"""The semantic view (views/semantic.py) on recorded payloads: the figures of a filtered view."""

from __future__ import annotations

from typing import Any

from browserx.snapshot.snapshot import DomSnapshot
from browserx.views.build import build_view
from browserx.views.events import summarise
from browserx.views.options import ViewOptions
from browserx.views.semantic import filtered_figures
from tests.builders import recorded, snapshot_of


def _semantic(snap: DomSnapshot, **kw: Any) -> dict[str, Any]:
    view = build_view(snap, ViewOptions(format="semantic", **kw), events=summarise([], snap))
    doc: dict[str, Any] = view.payload
    return doc


def test_a_view_that_leaves_elements_out_says_how_many_and_why() -> None:
    snap = snapshot_of(recorded("snap-layout"))
    whole = _semantic(snap, max_tokens=0)
    assert "filtered" not in whole
    cut = _semantic(snap, max_elements=3)
    total = len(snap.by_id)
    assert cut["filtered"] == {
        "reason": "token budget",
        "originalCount": total,
        "filteredCount": 3,
        "tokenReduction": round(100 * (1 - 3 / total)),
    }
    assert cut["meta"]["prunedElements"] == total - 3
    focused = _semantic(snapshot_of(recorded("snap-controls")), query="shipping", max_tokens=500)
    assert focused["filtered"]["reason"] == "query" and 0 < focused["filtered"]["filteredCount"] < 27
    assert _semantic(snap, viewport_only=True)["filtered"]["reason"] == "outside the viewport"


def test_filtered_figures() -> None:
    assert filtered_figures(10, 10, "x") == {}
    assert filtered_figures(500, 8, "query") == {
        "filtered": {"reason": "query", "originalCount": 500, "filteredCount": 8, "tokenReduction": 98}
    }


def test_every_element_in_a_frame_carries_its_frame() -> None:
    frames = {e["n"]: e.get("f") for e in _semantic(snapshot_of(recorded("snap-frames")))["interactive_tree"]}
    assert frames == {"Main frame button": None, "Same-origin frame button": "s1", "Cross-site frame button": "f1",
                      "Cross-site field": "f1", "Nested frame button": "f2"}  # fmt: skip
    nested = {e["n"]: e.get("f") for e in _semantic(snapshot_of(recorded("oopif")))["interactive_tree"]}
    assert nested == {"Child button": "f1", "Nested button": "f2"}
