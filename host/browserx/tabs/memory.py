"""What each issued ID named, remembered per tab from every snapshot the tab took, so an action
can refuse a wrong element and heal a re-rendered one (actions/resolve.py, actions/matching.py).

Needed because keys restart at 1 in a new document: without the world's context id and the tag,
an old ID's (frame, key) could silently resolve to an unrelated element of the next page.
Snapshots are told apart by their sequence number (``DomSnapshot.seq``), never by address."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from browserx.heap import paused_gc
from browserx.snapshot.context import ControlContext, control_contexts
from browserx.snapshot.ids import IdAllocator
from browserx.snapshot.snapshot import DomSnapshot


class Fingerprint(NamedTuple):
    """What an ID named when it was issued: enough to recognise the element again."""

    element_id: int
    frame: str
    context_id: int | None  # browserx world the key lived in (a new one = a new document)
    tag: str
    role: str | None
    name: str
    center: tuple[float, float] | None  # top-level viewport coords at snapshot time
    scroll: tuple[float, float] = (0.0, 0.0)  # page scroll at snapshot time
    # Where it sat (dialog/form/landmark/row chain, heading, text before it, rank among equals):
    # a heal takes only a candidate in the same place (actions/matching.py). Interned, shared.
    context: ControlContext | None = None


def fingerprints(snap: DomSnapshot, context_of: Callable[[str], int | None]) -> dict[int, Fingerprint]:
    """One per ID (tens of thousands on huge pages: plain tuples, no per-node lookups).
    ``context_of``: the isolated world's context id of a frame label, as the snapshot used it."""
    contexts: dict[str, int | None] = {
        label: context_of(label) for label in {f["frame"] for f in snap.frames}
    }
    out: dict[int, Fingerprint] = {}
    scroll = snap.scroll
    # Computed once by the pipeline for the nodes it gave IDs; a hand-built snapshot computes here.
    where = snap.caches.contexts
    if where is None:
        where = snap.caches.contexts = control_contexts(snap.nodes, list(snap.by_id.values()))
    # tuple.__new__ skips the NamedTuple's Python-level constructor (a third of the time at 12k IDs).
    new = tuple.__new__
    for element_id, node in snap.by_id.items():
        frame = node.ref.frame
        box = node.box
        center = (box.x + box.w / 2, box.y + box.h / 2) if box is not None else None
        out[element_id] = new(
            Fingerprint,
            (
                element_id,
                frame,
                contexts.get(frame),
                node.tag,
                node.role,
                node.name,
                center,
                scroll,
                where.get(node.index),
            ),
        )
    return out


class ActionMemory:
    """The fingerprints of one tab's IDs."""

    def __init__(self, ids: IdAllocator) -> None:
        self.ids = ids
        self.by_id: dict[int, Fingerprint] = {}
        self.seen_seq = 0  # the last snapshot remembered
        self.forgotten = 0  # ids.forgotten when last pruned

    def remember(self, snap: DomSnapshot, context_of: Callable[[str], int | None]) -> None:
        """Record the IDs of ``snap``. Call right after the snapshot is taken, while the worlds
        ``context_of`` reads are still the ones it used."""
        if self.seen_seq == snap.seq:
            return
        self.seen_seq = snap.seq
        if self.forgotten != self.ids.forgotten:  # the allocator let go of some IDs
            self.forgotten = self.ids.forgotten
            issued = self.ids.ref_of
            for element_id in [i for i in self.by_id if i not in issued]:
                del self.by_id[element_id]
        with paused_gc():
            self.by_id.update(fingerprints(snap, context_of))

    def recall(self, element_id: int) -> Fingerprint | None:
        return self.by_id.get(element_id)
