"""What each issued ID named, remembered per tab from every snapshot the actions layer sees.

Needed because keys restart at 1 in a new document: without the world's context id and the tag,
an old ID's (frame, key) could silently resolve to an unrelated element of the next page."""

from __future__ import annotations

from weakref import WeakKeyDictionary

from browserx.actions.matching import Fingerprint
from browserx.heap import paused_gc
from browserx.service import DomService
from browserx.snapshot.snapshot import DomSnapshot

_memory: WeakKeyDictionary[DomService, dict[int, Fingerprint]] = WeakKeyDictionary()
_seen: WeakKeyDictionary[DomService, int] = WeakKeyDictionary()  # seq of the last snapshot read
_forgotten: WeakKeyDictionary[DomService, int] = WeakKeyDictionary()  # ids.forgotten when last pruned


def fingerprints(snap: DomSnapshot, service: DomService) -> dict[int, Fingerprint]:
    """One per ID (tens of thousands on huge pages: plain tuples, no per-node lookups)."""
    contexts: dict[str, int | None] = {}
    for label in {f["frame"] for f in snap.frames}:
        world = service.worlds.get(service.session_of(label))
        contexts[label] = world[1] if world else None
    out: dict[int, Fingerprint] = {}
    scroll = snap.scroll
    # tuple.__new__ skips the NamedTuple's Python-level constructor (a third of the time at 12k IDs).
    new = tuple.__new__
    for element_id, node in snap.by_id.items():
        frame = node.ref.frame
        box = node.box
        center = (box.x + box.w / 2, box.y + box.h / 2) if box is not None else None
        out[element_id] = new(
            Fingerprint,
            (element_id, frame, contexts.get(frame), node.tag, node.role, node.name, center, scroll),
        )
    return out


def remember(service: DomService, snap: DomSnapshot | None = None) -> None:
    """Record the IDs of ``snap`` (default: the service's cached snapshot). Call right after a
    snapshot is taken, while ``service.worlds`` still holds the contexts it used."""
    snap = snap if snap is not None else service.snapshot
    if snap is None or _seen.get(service) == snap.seq:
        return
    _seen[service] = snap.seq
    memory = _memory.setdefault(service, {})
    if _forgotten.get(service, 0) != service.ids.forgotten:  # the allocator let go of some IDs
        _forgotten[service] = service.ids.forgotten
        issued = service.ids.ref_of
        for element_id in [i for i in memory if i not in issued]:
            del memory[element_id]
    with paused_gc():
        memory.update(fingerprints(snap, service))


def recall(service: DomService, element_id: int) -> Fingerprint | None:
    return _memory.get(service, {}).get(element_id)
