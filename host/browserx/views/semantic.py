"""The ``semantic`` view: the minified list of docs/DESIGN.md — one short record per element
with an ID (``i`` ID, ``r`` role, ``n`` name, ``v`` value, ``s`` states, ``xy`` centre, ``f``
frame, ``box``, ``scr`` scroll depth, ``occ`` covered), plus page context, scroll state, recent
page events and meta counts. ``LEGEND`` explains the keys for a system prompt."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import Any

from browserx.snapshot.model import Node
from browserx.snapshot.redaction import value_of
from browserx.snapshot.snapshot import DomSnapshot
from browserx.views.outline import RANGE_ROLES, control_facts
from browserx.views.scroll import container_dicts, containers, scroll_position

# Role → code. The codes of the backend contract's table (btn, link, inp, chk, radio, sel, menu,
# tab, opt, switch, slider) are kept as it spells them; browserx adds codes for the roles the
# table lacks (docs/DESIGN.md, "Role codes").
ROLE_MAP: dict[str, str] = {
    "button": "btn", "link": "link", "textbox": "inp", "searchbox": "inp", "spinbutton": "num",
    "combobox": "sel", "listbox": "lst", "option": "opt", "checkbox": "chk", "radio": "radio",
    "switch": "switch", "slider": "slider", "tab": "tab", "menuitem": "menu", "menuitemcheckbox": "mchk",
    "menuitemradio": "mrad", "treeitem": "ti", "gridcell": "cell", "row": "row", "columnheader": "colh",
    "scrollable": "scr", "clickable": "clk", "generic": "clk", "heading": "h", "img": "img",
    "textarea": "inp", "summary": "sum", "DisclosureTriangle": "sum", "dialog": "dlg", "progressbar": "prog", "menubar": "mbar",
}  # fmt: skip
# The role each code stands for, spelled out (the reverse of ROLE_MAP, one role a code): the
# legend a backend reads (the agent's request sends the codes it uses as ``roleCodes``) and the
# roles of the full-key nodes (``semanticNodes``). Roles without a code are spelled out already.
ROLE_NAMES: dict[str, str] = {
    "btn": "button", "link": "link", "inp": "textbox", "num": "spinbutton", "sel": "combobox",
    "lst": "listbox", "opt": "option", "chk": "checkbox", "radio": "radio", "switch": "switch",
    "slider": "slider", "tab": "tab", "menu": "menuitem", "mchk": "menuitemcheckbox",
    "mrad": "menuitemradio", "ti": "treeitem", "cell": "gridcell", "row": "row",
    "colh": "columnheader", "scr": "scroll container", "clk": "clickable (no role of its own)",
    "h": "heading", "img": "img", "sum": "summary (disclosure)", "dlg": "dialog",
    "prog": "progressbar", "mbar": "menubar",
}  # fmt: skip
MAX_NAME = 50
STATE_KEYS = ("disabled", "checked", "selected", "pressed", "required", "readonly", "invalid", "focused")

# How the legend words a code, where a reader knows the role by another name than ROLE_NAMES's.
_LEGEND_WORDS = {"inp": "text input", "sel": "select/combobox", "num": "number input"}


def _role_legend() -> str:
    """The ``r`` line of the legend: every code of ROLE_NAMES (so it cannot leave one out)."""
    codes = [f"{code}={_LEGEND_WORDS.get(code, name)}" for code, name in ROLE_NAMES.items()]
    text = "- r: role, minified (a role without a code is spelled out): " + ", ".join(codes)
    return textwrap.fill(
        text, width=100, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
    )


LEGEND = (
    """LEGEND for the browserx semantic view (interactive_tree):
- i: element ID (use it in click(i), type(i, text), select(i, value), scroll(i))
"""
    + _role_legend()
    + """
- n: name/label a person sees (cut to 50 characters)
- v: current value (only when values were requested; passwords never shown; a slider's always)
- ph: placeholder, the hint a field shows (a format such as YYYY-MM-DD) when it is not its name
- hn: hint, for a control without a name: words of its own markup (its icon's name, its test id or
  id, a title around it), not a name
- s: states, comma-separated (disabled, checked, mixed, expanded, collapsed, selected, pressed,
  required, readonly, invalid, focused)
- xy: [x, y] centre in viewport CSS pixels (negative or beyond the viewport = scroll first)
- f: the frame it is in (omitted in the page itself): f1, f2 for cross-site frames, s1, s2 for same-site ones
- box: [x, y, width, height] (only when boxes were requested)
- scr: {"depth": "10%", "h": true} scroll container: how far scrolled; h = more content below;
  r = more content to the right (a carousel, a wide table)
- occ: true when another element (a modal, a banner) covers it: dismiss that first

scroll_position: how far the page is scrolled; scrollable_containers: [{id, depth, hasMore}]
(above / right / left: true when more lies that way) —
if what you need is not listed and hasMore is true, scroll(id) and look again.
recent_events: text that appeared or disappeared since the last view (toasts, errors), with
has_errors / has_success: use them to check whether the last action worked.
omitted (when present): what was left out for the budget and where — scroll, or ask again with a
query or a CSS filter; filtered: {reason, originalCount, filteredCount, tokenReduction} how many
elements the page has, how many are listed, and the share of tokens saved (per cent)."""
)


def role_code(role: str) -> str:
    return ROLE_MAP.get(role, role)


def role_name(code: str) -> str:
    """The role a code stands for (a role without a code is its own name)."""
    return ROLE_NAMES.get(code, code)


class FrameLabels:
    """The label of the frame each node is in, None in the top document. A frame in another
    process has its session's label (``f1``, as everywhere in browserx); a frame in the process of
    the frame that holds it (same-site) is numbered among those, in document order, after an
    ``s`` and behind the label of that frame, if any (``s1``, ``f1s2``)."""

    def __init__(self, snap: DomSnapshot) -> None:
        self.snap = snap
        self._same_site: dict[int, str] | None = None  # document index → label, made on first need

    def of(self, node: Node) -> str | None:
        up = node.parent
        while up is not None and not (up.tag == "#document" and up.parent is not None):
            up = up.parent
        if up is None or up.parent is None:
            return None
        if up.ref.frame != up.parent.ref.frame:  # the root document of a frame's own session
            return up.ref.frame
        if self._same_site is None:
            self._same_site = {}
            counts: dict[str, int] = {}
            for doc in self.snap.nodes:
                if (
                    doc.tag == "#document"
                    and doc.parent is not None
                    and doc.ref.frame == doc.parent.ref.frame
                ):
                    counts[doc.ref.frame] = counts.get(doc.ref.frame, 0) + 1
                    holder = "" if doc.ref.frame == "m" else doc.ref.frame
                    self._same_site[doc.index] = f"{holder}s{counts[doc.ref.frame]}"
        return self._same_site.get(up.index)


def entry(
    element_id: int, node: Node, snap: DomSnapshot, boxes: bool, frames: FrameLabels | None = None
) -> dict[str, Any]:
    facts = control_facts(node, snap)
    out: dict[str, Any] = {"i": element_id, "r": role_code(facts["role"])}
    name = facts.get("name") or ""
    if name:
        out["n"] = name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"
    if snap.include_values:
        value = value_of(node.attrs, node.state, node.name or "")
        if value is not None:
            out["v"] = value[:200]
    elif facts["role"] in RANGE_ROLES and "value" in facts:  # a slider's position: always
        out["v"] = str(facts["value"])[:200]
    if "placeholder" in facts:
        out["ph"] = facts["placeholder"]
    if "hint" in facts:
        out["hn"] = facts["hint"]
    states = [key for key in STATE_KEYS if facts.get(key) is True]
    if facts.get("checked") == "mixed":
        states.append("mixed")
    if "expanded" in facts:
        states.append("expanded" if facts["expanded"] else "collapsed")
    if states:
        out["s"] = ",".join(states)
    if node.box is not None:
        cx, cy = node.box.center
        out["xy"] = [round(cx), round(cy)]
        if boxes:
            b = node.box
            out["box"] = [round(b.x), round(b.y), round(b.w), round(b.h)]
    frame = (frames or FrameLabels(snap)).of(node)
    if frame is not None:
        out["f"] = frame
    if node.index in snap.covered:
        out["occ"] = True
    return out


def filtered_figures(total: int, shown: int, reason: str) -> dict[str, Any]:
    """``{"filtered": {reason, originalCount, filteredCount, tokenReduction}}`` when fewer
    elements are shown than the page has, else nothing. ``tokenReduction`` (per cent) is
    estimated from the element counts: one record per element, of much the same size."""
    if shown >= total:
        return {}
    reduction = round(100 * (1 - shown / total)) if total else 0
    figures = {"reason": reason, "originalCount": total, "filteredCount": shown, "tokenReduction": reduction}
    return {"filtered": figures}


def render_semantic(
    snap: DomSnapshot,
    element_ids: Iterable[int],
    *,
    boxes: bool = False,
    viewport_elements: int = 0,
    events: list[str] | None = None,
    has_errors: bool = False,
    has_success: bool = False,
    extra: dict[str, Any] | None = None,
    reason: str = "token budget",
) -> dict[str, Any]:
    """The view of ``element_ids`` (the elements chosen to show, in order); ``reason`` says why
    the others were left out, when some were (``filtered``)."""
    shown = list(element_ids)
    scr = {i: s for i, s in containers(snap)}
    tree = []
    frames = FrameLabels(snap)
    for element_id in shown:
        node = snap.by_id[element_id]
        item = entry(element_id, node, snap, boxes, frames)
        state = scr.get(element_id)
        if state is not None:
            item["scr"] = {"depth": f"{state.percent or 0}%", "h": state.more_below}
            if state.more_right:  # (only a container that scrolls sideways says so)
                item["scr"]["r"] = True
        tree.append(item)
    return {
        "mode": "semantic",
        "url": snap.url,
        "title": snap.title,
        "viewport": {"width": round(snap.viewport[0]), "height": round(snap.viewport[1])},
        "scroll_position": scroll_position(snap),
        "interactive_tree": tree,
        "scrollable_containers": container_dicts(snap),
        "recent_events": events or [],
        "has_errors": has_errors,
        "has_success": has_success,
        **(extra or {}),
        **filtered_figures(len(snap.by_id), len(shown), reason),
        "meta": {
            "totalElements": len(snap.by_id),
            "viewportElements": viewport_elements,
            "prunedElements": len(snap.by_id) - len(shown),
            "occludedElements": sum(1 for i in shown if snap.by_id[i].index in snap.covered),
            "extractionTimeMs": round(snap.stats.capture_ms + snap.stats.build_ms),
            "estimatedTokens": 0,
        },
    }
