"""Roles from ElementInternals: a custom element can take a role and states without saying so in
its attributes (``this.internals.role = "tab"``: Material Web's tabs and radios, or role "none" on
a list item host wrapping its own ``<button>``), and page JavaScript cannot read them. The
collector leaves the custom elements that take focus yet say no role in
``globalThis.__browserx.internals``; Chrome's accessibility tree says what each one is. Two round
trips plus one batch, only on pages that have such elements and only for those whose attributes
changed since it was last asked (or new ones); asked while the click listeners are looked up.

Asking turns Chrome's accessibility tree on for that document (kept while the page lives): the
price of reading what only it knows, paid only by pages with such elements.
"""

from __future__ import annotations

from typing import Any

from browserx.page.capture_state import CaptureState
from browserx.page.closed_roots import object_ids
from browserx.relay.cdp_types import AXNode, PartialAXTreeResult
from browserx.snapshot.frames import RawFrame

GROUP = "browserx-ax"
# Chrome's roles for an element that is only a wrapper (the host of a control in its shadow root).
PRESENTATIONAL = frozenset({"none", "presentation", "generic", "GenericContainer"})
# AX properties read as states, named as the collector names native ones (snapshot/states.py).
STATES = ("checked", "selected", "disabled", "expanded", "pressed")


def facts_of(node: AXNode) -> dict[str, Any]:
    """What one accessibility node says: ``axRole`` ("none" for an ignored or presentational
    element) and its states, as snapshot/states.py reads them from ``Node.state``."""
    role = node.role.value if node.role is not None else None
    if node.ignored or not isinstance(role, str) or role in PRESENTATIONAL:
        return {"axRole": "none"}
    facts: dict[str, Any] = {"axRole": role}
    for prop in node.properties:
        if prop.name not in STATES:
            continue
        value = prop.value.value
        if value == "mixed":
            facts[prop.name] = "mixed"
        elif value in (True, "true"):
            facts[prop.name] = True
        elif value in (False, "false"):
            facts[prop.name] = False
    return facts


async def internal_roles(
    state: CaptureState, session_id: str | None, ctx: int, raw: RawFrame
) -> dict[int, dict[str, Any]]:
    """By position in ``raw.internals``: what Chrome's accessibility tree says of each element
    the collector left in ``__browserx.internals``. Kept per element while its attributes stay as
    they were (components reflect their state in them), so a page snapshotted again asks nothing."""
    known = state.internal_facts.setdefault(session_id, {})
    keys = [raw.key[i] for i in raw.internals]
    sigs = raw.internalsSig if len(raw.internalsSig) == len(keys) else [""] * len(keys)
    out: dict[int, dict[str, Any]] = {}
    missing: list[int] = []
    for position, (key, sig) in enumerate(zip(keys, sigs, strict=True)):
        hit = known.get(key)
        if sig and hit is not None and hit[0] == sig:
            out[position] = dict(hit[1])
        else:
            missing.append(position)
    for key in [k for k in known if k not in set(keys)]:
        del known[key]  # gone, or no longer such an element
    if not missing:
        return out
    _, objects = await object_ids(state, session_id, ctx, "internals", GROUP)
    asked = [p for p in missing if p < len(objects)]
    try:
        replies = await state.session.cdp_batch(
            [
                ("Accessibility.getPartialAXTree", {"objectId": objects[p], "fetchRelatives": False})
                for p in asked
            ],
            session_id,
            result_type=PartialAXTreeResult,
        )
    finally:
        state.session.fire_and_forget(
            state.session.cdp("Runtime.releaseObjectGroup", {"objectGroup": GROUP}, session_id=session_id)
        )
    for position, reply in zip(asked, replies, strict=True):
        if isinstance(reply, PartialAXTreeResult) and reply.nodes:
            facts = out[position] = facts_of(reply.nodes[0])
            known[keys[position]] = (sigs[position], facts)
    return out


def apply_internal_roles(raw: RawFrame, by_position: dict[int, dict[str, Any]]) -> None:
    """Put what Chrome said into the nodes' state (positions in ``raw.internals``)."""
    for position, facts in by_position.items():
        if position < len(raw.internals):
            index = raw.internals[position]
            raw.state[index] = {**raw.state.get(index, {}), **facts}
