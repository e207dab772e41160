"""CSS selector filters for views, matched in the page: one ``Runtime.callFunctionOn`` per frame
in browserx's isolated world, against the document every same-process frame document and every
shadow root the snapshot holds (open and closed: the collector keeps a reference to each root it
walked), mapped back to node keys.
The matched elements and everything under them (shadow content, frame documents) are kept."""

from __future__ import annotations

import asyncio

from browserx import page_js
from browserx.errors import BadRequest
from browserx.page.capture_state import CaptureState
from browserx.page.page_call import page_call
from browserx.snapshot.model import NodeRef
from browserx.snapshot.snapshot import DomSnapshot

MATCH_JS = page_js.load("browserx.page", "css_filter_match.js")


async def match_selector(state: CaptureState, snap: DomSnapshot, selector: str) -> frozenset[NodeRef]:
    """Refs of the nodes the selector matches, in every frame, with their whole subtrees."""
    import msgspec

    roots: dict[str, list[int]] = {}
    for node in snap.nodes:
        if node.tag in ("#shadow-root", "#document"):  # same-process frame documents too
            roots.setdefault(node.ref.frame, []).append(node.ref.key)
    labels = sorted({f["frame"] for f in snap.frames})

    async def run(label: str) -> list[int]:
        session = state.session.session_of(label)
        world = state.worlds.get(session)
        if world is None:
            return []
        # A page error fails the view (PageScriptError): no match is not "matches nothing".
        value = await page_call(
            state.session, MATCH_JS, selector, roots.get(label, []), world=world[1], session_id=session
        )
        result = msgspec.json.decode(value or "{}")
        if "error" in result:
            raise BadRequest(f"invalid CSS selector {selector!r}: {result['error']}")
        return [int(k) for k in result.get("keys", [])]

    found = await asyncio.gather(*(run(label) for label in labels))
    refs = {NodeRef(label, key) for label, keys in zip(labels, found, strict=True) for key in keys}
    return expand(snap, refs)


def expand(snap: DomSnapshot, refs: set[NodeRef]) -> frozenset[NodeRef]:
    """The matched nodes and all their descendants (text nodes are reached through their parent)."""
    out: set[NodeRef] = set()
    for node in snap.nodes:
        if node.ref in refs and node.ref not in out:
            out.update(n.ref for n in node.walk() if not n.is_text)
    return frozenset(out)
