"""Delta views (docs/DESIGN.md, "Views"): what changed since the last view this tab served — elements
that are new, gone, or whose name, value or states changed — and a short hash of the element
tree, so "nothing changed" costs one line."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import msgspec

from browserx.quoting import quote
from browserx.snapshot.snapshot import DomSnapshot
from browserx.views.outline import control_facts

TRACKED = ("role", "name", "value", "disabled", "checked", "expanded", "selected", "pressed", "required",
           "readonly", "invalid", "focused", "current", "type", "options")  # fmt: skip
Facts = tuple[tuple[str, Any], ...]


class ViewState:
    """What a served view showed, for the next delta. Computed only when a delta asks for it:
    most views are never diffed, and the facts of every element cost real time on big pages."""

    def __init__(self, snap: DomSnapshot) -> None:
        self._snap: DomSnapshot | None = snap
        self.url = snap.url
        self.include_values = snap.include_values
        self.at = snap.created_at

    def holds(self, snap: DomSnapshot) -> bool:
        return self._snap is snap

    def detach(self) -> None:
        """Compute what a delta needs now and let go of the snapshot (before it is torn down: a
        whole page's tree must not outlive its use for one cached view state)."""
        if self._snap is not None:
            self.tree_hash  # noqa: B018 (computes and caches elements too)
            self._snap = None

    @cached_property
    def elements(self) -> dict[int, Facts]:
        snap = self._snap
        assert snap is not None, "detach() computes elements first"
        return {i: _facts(snap, i) for i in snap.by_id}

    @cached_property
    def tree_hash(self) -> str:
        digest = hashlib.blake2b(
            msgspec.json.encode([self.url, sorted(self.elements.items())]), digest_size=4
        )
        return digest.hexdigest()


def _facts(snap: DomSnapshot, element_id: int) -> Facts:
    node = snap.by_id[element_id]
    facts = control_facts(node, snap)
    out = [(k, facts[k]) for k in TRACKED if k in facts]
    if node.state.get("hasValue"):
        out.append(("hasValue", True))
    return tuple(out)


def state_of(snap: DomSnapshot) -> ViewState:
    return ViewState(snap)


@dataclass
class Delta:
    old_hash: str
    new_hash: str
    added: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    changed: dict[int, dict[str, tuple[Any, Any]]] = field(default_factory=dict)  # ID → field → (old, new)
    navigated: bool = False

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed or self.navigated)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tree_hash": self.new_hash,
            "previous_hash": self.old_hash,
            "added": self.added,
            "removed": self.removed,
            "changed": {
                str(i): {k: {"was": a, "now": b} for k, (a, b) in c.items()} for i, c in self.changed.items()
            },
            **({"navigated": True} if self.navigated else {}),
        }


def diff(old: ViewState, new: ViewState) -> Delta:
    delta = Delta(old.tree_hash, new.tree_hash, navigated=old.url != new.url)
    if old.tree_hash == new.tree_hash:
        return delta
    for element_id, facts in new.elements.items():
        before = old.elements.get(element_id)
        if before is None:
            delta.added.append(element_id)
            continue
        if before == facts:
            continue
        a, b = dict(before), dict(facts)
        if not (old.include_values and new.include_values):
            a.pop("value", None)  # compared only when both views read values
            b.pop("value", None)
        changes = {k: (a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}
        if changes:
            delta.changed[element_id] = changes
    delta.removed = sorted(i for i in old.elements if i not in new.elements)
    return delta


BOOLEAN = frozenset({"disabled", "checked", "expanded", "selected", "pressed", "required", "readonly", "invalid",
                     "focused", "hasValue"})  # fmt: skip


def _short(value: Any, key: str = "") -> str:
    if value is None:
        return "no" if key in BOOLEAN else "—"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    text = str(value)
    return quote(text if len(text) <= 60 else text[:59] + "…")  # page text: JSON-quoted, never a line


def change_lines(delta: Delta) -> list[str]:
    lines = []
    for element_id, changes in delta.changed.items():
        parts = [f"{k} {_short(a, k)} → {_short(b, k)}" for k, (a, b) in changes.items()]
        lines.append(f"~ [{element_id}] " + ", ".join(parts))
    if delta.removed:
        shown = ", ".join(f"[{i}]" for i in delta.removed[:40])
        more = f" … and {len(delta.removed) - 40} more" if len(delta.removed) > 40 else ""
        lines.append(f"- removed: {shown}{more}")
    return lines


def headline(delta: Delta, ago_s: float) -> str:
    if delta.empty:
        return f"no changes since the last view {ago_s:.0f}s ago (tree {delta.new_hash})"
    nav = "navigated; " if delta.navigated else ""
    return (f"# delta since the last view {ago_s:.0f}s ago: {nav}{len(delta.added)} new (+), "
            f"{len(delta.changed)} changed (~), {len(delta.removed)} removed; tree {delta.old_hash} → {delta.new_hash}")  # fmt: skip
