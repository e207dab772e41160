"""What each issued ID named, remembered per tab from every snapshot the actions layer sees.

Needed because keys restart at 1 in a new document: without the world's context id and the tag,
an old ID's (frame, key) could silently resolve to an unrelated element of the next page."""

from __future__ import annotations

from weakref import WeakKeyDictionary

from browserx.actions.matching import Fingerprint
from browserx.service import DomService
from browserx.snapshot.snapshot import DomSnapshot

_memory: WeakKeyDictionary[DomService, dict[int, Fingerprint]] = WeakKeyDictionary()
_seen: WeakKeyDictionary[DomService, int] = WeakKeyDictionary()  # id() of the last snapshot read


def fingerprints(snap: DomSnapshot, service: DomService) -> dict[int, Fingerprint]:
    out: dict[int, Fingerprint] = {}
    for element_id, node in snap.by_id.items():
        world = service.worlds.get(service.session_of(node.ref.frame))
        out[element_id] = Fingerprint(
            element_id=element_id,
            frame=node.ref.frame,
            context_id=world[1] if world else None,
            tag=node.tag,
            role=node.role,
            name=node.name,
            center=node.box.center if node.box else None,
            scroll=snap.scroll,
        )
    return out


def remember(service: DomService, snap: DomSnapshot | None = None) -> None:
    """Record the IDs of ``snap`` (default: the service's cached snapshot). Call right after a
    snapshot is taken, while ``service.worlds`` still holds the contexts it used."""
    snap = snap if snap is not None else service.snapshot
    if snap is None or _seen.get(service) == id(snap):
        return
    _seen[service] = id(snap)
    _memory.setdefault(service, {}).update(fingerprints(snap, service))


def recall(service: DomService, element_id: int) -> Fingerprint | None:
    return _memory.get(service, {}).get(element_id)
