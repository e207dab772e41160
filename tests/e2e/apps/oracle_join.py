"""Chrome's accessibility tree as the oracle for browserx on third-party pages (tests/e2e/apps/oracle.py):
which nodes Chrome exposes as interactive, how they join to browserx's IDs, and the scores.

Chrome's side is read through any CDP door that takes ``(method, params)`` (Selenium's
``execute_cdp_cmd`` in the test): ``Accessibility.getFullAXTree`` (main frame) and one
``DOMSnapshot.captureSnapshot`` (every element of the document with its shadow trees: tag,
attributes, backendNodeId, layout box, a few computed styles, ``isClickable``).

**Interactive, for the oracle** (``chrome_targets``): a non-ignored AX node whose role is one of
``WIDGET_ROLES`` (option only inside a ``listbox``, not a closed native select's popup; grid cells
and headers only when they are in the tab order, hold a click listener themselves or, for headers,
carry ``aria-sort``, and are not named after a control they hold — the control stands for them), backed by a DOM element of the main frame that is *reachable*: it has a layout
box of at least 1×1 px (or a zero-size control whose ``<label>`` has one), is not entirely clipped
away by an ancestor that clips without scrolling (``overflow: hidden/clip``; an ``auto``/``scroll``
container brings it in by scrolling, so its content counts), and is not placed entirely left of or
above the document. Ancestors are followed through the containing-block chain approximately:
``position: fixed`` escapes all, ``position: absolute`` skips static ancestors; past a scroll container
the test goes on with the container's box (scrolling it brings the element there). Transparent
(opacity 0) controls count — Chrome exposes them and a person uses them (hover-revealed row actions,
native inputs over a drawn box) — and are marked so in the misses.

**The join**: each browserx json node (``boxes=True``) is placed on the DOM element of the snapshot
with the same tag and the same border box (±1.5 px, viewport coordinates). A Chrome target is *found*
when (1) a browserx ID is placed on its element, else (2) an unused ID is placed on its ``<label>`` or a
near ancestor (five levels when the role agrees, three otherwise) / descendant and agrees in role or name (a label promoted for a hidden input, a field
promoted for a transparent input), else (3) an unused ID that could not be placed has the same role
and non-empty name (counted as ``by name``). Each ID serves one target: two targets folded into one ID
are one miss. On the found pairs: role equal, name equal (``norm_name``; Chrome's empty name agrees
with browserx's empty or label-hunted name), states equal (checked, selected, expanded, disabled,
pressed; absent = false).

**Precision**: every browserx ID of the main frame is *legitimate* when its element is a Chrome
target, any other AX widget or focusable node, a ``<label>`` of a control, editable, a link or holder
of a click/press listener (``isClickable``, ``DOMDebugger.getEventListeners``), or of a React/Vue/
jQuery click-like handler (``FRAMEWORK_JS``), or has ``cursor: pointer`` with such a handler on an
ancestor within four levels (delegation). Anything else is *imprecise* (an ID on something neither
Chrome nor a handler makes interactive). IDs that could not be placed on any element are listed as
``unplaced`` and left out of the ratio. Elements of one tag and one box (a wrapper and its
overlay, stacked range inputs) cannot be told apart by the json view: nodes are placed on them in
order, and an ID there is legitimate when any of them is (a click on that box reaches them all).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.apps.corpus import norm_name

Cdp = Callable[[str, dict[str, Any]], Any]

WIDGET_ROLES = frozenset(
    {"button", "link", "textbox", "searchbox", "checkbox", "radio", "switch", "combobox", "listbox",
     "option", "slider", "spinbutton", "menuitem", "menuitemcheckbox", "menuitemradio", "tab",
     "treeitem", "gridcell", "columnheader", "rowheader", "DisclosureTriangle", "ToggleButton",
     "PopUpButton"}
)  # fmt: skip
GRID_ROLES = frozenset({"gridcell", "columnheader", "rowheader"})
ROLE_ALIASES = {"ToggleButton": "button", "PopUpButton": "combobox"}  # Chrome internal → ARIA
STATES = ("checked", "selected", "expanded", "disabled", "pressed")
STYLES = ["display", "visibility", "opacity", "overflow-x", "overflow-y", "position", "cursor", "transform"]
TOL = 1.5
PRESS_EVENTS = frozenset({"click", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart",
                          "dblclick", "keydown"})  # fmt: skip

# Main world: whether an element (or an ancestor within 4 levels, when delegation is asked) holds a
# framework click-like handler: React 16-18 props, Vue 3 ``_vei`` invokers, jQuery's event data.
FRAMEWORK_JS = r"""function(up) {
  const press = /^on(Click|DoubleClick|MouseDown|MouseUp|PointerDown|PointerUp|TouchStart|KeyDown)(Capture)?$/i;
  const own = (el) => {
    for (const k of Object.keys(el)) {
      if (k.startsWith('__reactProps$') || k.startsWith('__reactEventHandlers$')) {
        const p = el[k] || {};
        if (Object.keys(p).some(n => press.test(n) && typeof p[n] === 'function')) return 'react';
      }
    }
    if (el._vei && Object.keys(el._vei).some(n => press.test(n) && el._vei[n] && el._vei[n].value)) return 'vue';
    const jq = window.jQuery;
    if (jq && jq._data) {
      const ev = jq._data(el, 'events') || {};
      if (['click', 'mousedown', 'mouseup', 'pointerdown'].some(t => ev[t])) return 'jquery';
    }
    if (el.__svelte_meta || el.onclick) return 'onclick';
    return '';
  };
  let el = this, depth = 0;
  while (el && depth <= (up ? 4 : 0)) {
    const kind = own(el);
    if (kind) return depth ? kind + ' on an ancestor' : kind;
    el = el.parentElement || (el.getRootNode && el.getRootNode().host) || null;
    depth += 1;
  }
  return '';
}"""


# -- the DOM snapshot ---------------------------------------------------------------------------


@dataclass
class Dom:
    """The main document of one ``DOMSnapshot.captureSnapshot``, indexed."""

    tag: list[str]
    parent: list[int]
    backend: list[int]
    attrs: list[dict[str, str]]
    clickable: set[int]
    bounds: dict[int, tuple[float, float, float, float]]  # node index → x, y, w, h (document)
    style: dict[int, dict[str, str]]
    scroll: dict[int, tuple[float, float, float, float]]  # node index → scroll rect (x, y, w, h)
    client: dict[int, tuple[float, float, float, float]]
    by_backend: dict[int, int] = field(default_factory=dict)
    children: dict[int, list[int]] = field(default_factory=dict)

    @classmethod
    def capture(cls, cdp: Cdp) -> Dom:
        snap = cdp("DOMSnapshot.captureSnapshot", {"computedStyles": STYLES, "includeDOMRects": True})
        strings: list[str] = snap["strings"]
        doc = snap["documents"][0]
        nodes = doc["nodes"]
        n = len(nodes["parentIndex"])
        tag = [strings[i].lower() if i >= 0 else "" for i in nodes["nodeName"]]
        attrs: list[dict[str, str]] = []
        for flat in nodes.get("attributes", [[] for _ in range(n)]):
            attrs.append({strings[flat[i]]: strings[flat[i + 1]] for i in range(0, len(flat) - 1, 2)})
        layout = doc["layout"]
        bounds: dict[int, tuple[float, float, float, float]] = {}
        style: dict[int, dict[str, str]] = {}
        scroll: dict[int, tuple[float, float, float, float]] = {}
        client: dict[int, tuple[float, float, float, float]] = {}
        for li, ni in enumerate(layout["nodeIndex"]):
            if ni in bounds:
                continue  # a text node's second line box
            b = layout["bounds"][li]
            bounds[ni] = (b[0], b[1], b[2], b[3])
            style[ni] = {STYLES[k]: strings[s] if s >= 0 else "" for k, s in enumerate(layout["styles"][li])}
            if layout.get("scrollRects") and layout["scrollRects"][li]:
                r = layout["scrollRects"][li]
                scroll[ni] = (r[0], r[1], r[2], r[3])
            if layout.get("clientRects") and layout["clientRects"][li]:
                r = layout["clientRects"][li]
                client[ni] = (r[0], r[1], r[2], r[3])
        dom = cls(
            tag=tag,
            parent=list(nodes["parentIndex"]),
            backend=list(nodes["backendNodeId"]),
            attrs=attrs,
            clickable=set(nodes.get("isClickable", {}).get("index", [])),
            bounds=bounds,
            style=style,
            scroll=scroll,
            client=client,
        )
        dom.by_backend = {b: i for i, b in enumerate(dom.backend)}
        for i, p in enumerate(dom.parent):
            if p >= 0:
                dom.children.setdefault(p, []).append(i)
        return dom

    def ancestors(self, i: int) -> Iterator[int]:
        p = self.parent[i]
        while p >= 0:
            yield p
            p = self.parent[p]

    def is_element(self, i: int) -> bool:
        t = self.tag[i]
        return bool(t) and not t.startswith("#") and t != "::before" and t != "::after"

    def scrolls(self, i: int) -> bool:
        """A scroll container whose content a person can scroll to."""
        s = self.style.get(i, {})
        if s.get("overflow-x") not in ("auto", "scroll") and s.get("overflow-y") not in ("auto", "scroll"):
            return False
        sr, cr = self.scroll.get(i), self.client.get(i)
        return sr is None or cr is None or sr[2] > cr[2] + 1 or sr[3] > cr[3] + 1

    def clips(self, i: int) -> bool:
        s = self.style.get(i, {})
        return s.get("overflow-x") in ("hidden", "clip") or s.get("overflow-y") in ("hidden", "clip")

    def label_of(self, i: int) -> int | None:
        """The ``<label>`` that labels element ``i`` (for= or wrapping), if any."""
        for a in self.ancestors(i):
            if self.tag[a] == "label":
                return a
        ident = self.attrs[i].get("id")
        if ident:
            for j, t in enumerate(self.tag):
                if t == "label" and self.attrs[j].get("for") == ident:
                    return j
        return None

    def opacity_zero(self, i: int) -> bool:
        return any(self.style.get(j, {}).get("opacity") == "0" for j in (i, *self.ancestors(i)))

    def describe(self, i: int) -> str:
        a = self.attrs[i]
        out = self.tag[i]
        if a.get("id"):
            out += "#" + a["id"]
        cls_ = a.get("class", "").split()
        if cls_:
            out += "." + ".".join(cls_[:2])
        return out


def hidden_original(dom: Dom, i: int) -> bool:
    """A library's concealed original control, kept for forms while an enhanced widget stands in
    for it: out of the tab order (tabindex=-1) and either marked ``hidden`` (which the library's CSS
    overrides, Choices.js) or at most 1 px wide or tall (Tom Select's ``ts-hidden-accessible``).
    An option counts as its select's. (A transparent control that is not so marked is a control: a
    checkbox input drawn over by its box, AG Grid's.)"""
    if dom.tag[i] == "option":
        i = next((a for a in dom.ancestors(i) if dom.tag[a] in ("select", "datalist")), i)
    if dom.attrs[i].get("tabindex", "").strip() != "-1":
        return False
    box = dom.bounds.get(i)
    return "hidden" in dom.attrs[i] or box is None or box[2] <= 1 or box[3] <= 1


def reach(dom: Dom, i: int) -> str:
    """'' when element ``i`` is reachable (see the module's docstring), else why not."""
    if hidden_original(dom, i):
        return "a concealed original (tabindex=-1, hidden or 1 px)"
    box = dom.bounds.get(i)
    if box is None:
        return "no layout box"
    if box[2] < 1 or box[3] < 1:
        label = dom.label_of(i)
        lb = dom.bounds.get(label) if label is not None else None
        if lb is None or lb[2] < 1 or lb[3] < 1:
            return "zero size"
        box = lb
    x, y, w, h = box
    if x + w <= 0 or y + h <= 0:
        return "placed outside the document"
    position = dom.style.get(i, {}).get("position", "static")
    for a in dom.ancestors(i):
        if position == "fixed":
            break
        s = dom.style.get(a)
        if s is None:
            continue
        if (
            position == "absolute"
            and s.get("position", "static") == "static"
            and s.get("transform") in ("", "none")
        ):
            continue  # not its containing block
        ab = dom.bounds.get(a)
        if dom.scrolls(a) and ab:
            x, y, w, h = ab  # scrolling it brings the element into its box: test that box further up
        elif (
            dom.clips(a)
            and ab
            and not (x < ab[0] + ab[2] and x + w > ab[0] and y < ab[1] + ab[3] and y + h > ab[1])
        ):
            return f"clipped by {dom.describe(a)}"
        position = s.get("position", "static")
    return ""


# -- Chrome's interactive nodes ---------------------------------------------------------------------


def _prop(node: dict[str, Any], name: str) -> Any:
    for p in node.get("properties", []):
        if p.get("name") == name:
            return (p.get("value") or {}).get("value")
    return None


def _value(node: dict[str, Any], key: str) -> str:
    return " ".join(str((node.get(key) or {}).get("value") or "").split())


@dataclass
class Target:
    """One node Chrome exposes as interactive."""

    role: str
    name: str
    states: dict[str, Any]
    backend: int
    index: int  # in the Dom
    transparent: bool
    focusable: bool


def ax_states(node: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for s in STATES:
        v = _prop(node, s)
        if v is not None:
            out[s] = v
    return out


def chrome_targets(ax: dict[str, Any], dom: Dom) -> tuple[list[Target], list[str], dict[int, dict[str, Any]]]:
    """Chrome's reachable interactive nodes; the unreachable ones (as report lines); and every
    non-ignored AX node by backendNodeId (for precision)."""
    nodes = ax["nodes"]
    by_id = {n["nodeId"]: n for n in nodes}
    by_backend: dict[int, dict[str, Any]] = {}
    for n in nodes:
        if not n.get("ignored") and n.get("backendDOMNodeId") is not None:
            by_backend.setdefault(int(n["backendDOMNodeId"]), n)

    def in_listbox(n: dict[str, Any]) -> bool:
        p = by_id.get(n.get("parentId", ""))
        while p is not None:
            r = _value(p, "role")
            if r == "listbox":
                return True
            if r in ("MenuListPopup", "combobox", "PopUpButton"):
                return False
            p = by_id.get(p.get("parentId", ""))
        return False

    targets: list[Target] = []
    unreachable: list[str] = []
    for n in nodes:
        if n.get("ignored") or n.get("backendDOMNodeId") is None:
            continue
        role = _value(n, "role")
        if role not in WIDGET_ROLES:
            continue
        i = dom.by_backend.get(int(n["backendDOMNodeId"]))
        if i is None:
            continue  # not in the main document
        if role == "option" and not in_listbox(n):
            continue
        if role in GRID_ROLES:
            tabindex = dom.attrs[i].get("tabindex", "")
            sort = role != "gridcell" and bool(dom.attrs[i].get("aria-sort"))
            if (
                not (tabindex.lstrip("-").isdigit() and int(tabindex) >= 0)
                and i not in dom.clickable
                and not sort
            ):
                continue
        role = ROLE_ALIASES.get(role, role)
        why = reach(dom, i)
        name = _value(n, "name")
        if why:
            unreachable.append(f"{role} {name!r} ({dom.describe(i)}): {why}")
            continue
        targets.append(
            Target(role, name, ax_states(n), int(n["backendDOMNodeId"]), i, dom.opacity_zero(i),
                   bool(_prop(n, "focusable")))
        )  # fmt: skip
    # A cell or header named after a control it holds (or unnamed, holding one) is represented by
    # that control: Grid.js' clickable <td> around its Edit button, a header cell around the
    # select-all checkbox. A sortable header holding a filter button stays.
    holders: dict[int, set[str]] = {}  # element → names of the controls it holds
    for t in targets:
        if t.role not in GRID_ROLES:
            for a in dom.ancestors(t.index):
                holders.setdefault(a, set()).add(norm_name(t.name))
    kept = [
        t
        for t in targets
        if t.role not in GRID_ROLES or not (norm_name(t.name) in holders.get(t.index, set()) or
                                             (not t.name and t.index in holders))
    ]  # fmt: skip
    unreachable += [
        f"{t.role} {t.name!r} ({dom.describe(t.index)}): holds a control" for t in targets if t not in kept
    ]
    return kept, unreachable, by_backend


# -- browserx's side --------------------------------------------------------------------------------


@dataclass
class BxNode:
    id: int | None
    role: str
    name: str
    tag: str
    box: tuple[int, int, int, int] | None
    node: dict[str, Any]
    index: int | None = None  # placed on this Dom element
    alts: tuple[int, ...] = ()  # every element of the same tag and box (nested or stacked)


def bx_nodes(view: dict[str, Any]) -> list[BxNode]:
    """Every node of the json view outside iframes, in document order."""
    out: list[BxNode] = []

    def walk(node: dict[str, Any]) -> None:
        box = node.get("box")
        out.append(
            BxNode(node.get("id"), str(node.get("role", "")), str(node.get("name", "")), str(node.get("tag", "")),
                   (box[0], box[1], box[2], box[3]) if box else None, node)
        )  # fmt: skip
        if node.get("role") == "iframe" or node.get("tag") == "iframe":
            return
        for child in node.get("children", []):
            walk(child)

    walk(view["page"]["body"])
    return out[1:]


def place(nodes: list[BxNode], dom: Dom, scroll: tuple[float, float], chrome: set[int]) -> None:
    """Put each browserx node on the element with its tag and box (viewport coordinates)."""
    index: dict[tuple[str, int, int], list[int]] = {}
    for i, b in dom.bounds.items():
        if dom.is_element(i):
            index.setdefault((dom.tag[i], round(b[0] - scroll[0]), round(b[1] - scroll[1])), []).append(i)
    taken: set[int] = set()
    for n in nodes:
        if n.box is None or not n.tag:
            continue
        x, y, w, h = n.box
        cands = [
            i
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            for i in index.get((n.tag, x + dx, y + dy), [])
            if abs(dom.bounds[i][2] - w) <= TOL and abs(dom.bounds[i][3] - h) <= TOL
        ]
        if cands:
            # Elements of one tag and one box (a wrapper and its overlay, two stacked range
            # inputs) are told apart by order: each goes to the first node not placed there yet.
            free = [i for i in cands if i not in taken] or cands
            n.index = next((i for i in free if i in chrome), free[-1])
            n.alts = tuple(cands)
            taken.add(n.index)


# -- scoring ----------------------------------------------------------------------------------------


def _truthy(v: Any) -> Any:
    if v in ("mixed", "Mixed"):
        return "mixed"
    return v in (True, "true")


def states_of(node: dict[str, Any]) -> dict[str, Any]:
    return {s: _truthy(node.get(s)) for s in STATES}


@dataclass
class Pair:
    target: Target
    bx: BxNode | None
    how: str  # "element", "related", "by name", ""

    @property
    def role_ok(self) -> bool:
        return self.bx is not None and self.bx.role == self.target.role

    @property
    def name_ok(self) -> bool:
        if self.bx is None:
            return False
        if not self.target.name:
            return not self.bx.name or self.bx.node.get("name_from") == "nearby text"
        return norm_name(self.bx.name) == norm_name(self.target.name)

    def state_diff(self) -> list[str]:
        if self.bx is None:
            return []
        ours = states_of(self.bx.node)
        theirs = {s: _truthy(self.target.states.get(s)) for s in STATES}
        return [f"{s}: Chrome {theirs[s]}, browserx {ours[s]}" for s in STATES if ours[s] != theirs[s]]


def join(targets: list[Target], nodes: list[BxNode], dom: Dom) -> list[Pair]:
    with_id = [n for n in nodes if n.id is not None]
    used: set[int] = set()
    by_index: dict[int, BxNode] = {}
    for n in with_id:
        if n.index is not None:
            by_index.setdefault(n.index, n)
    pairs: dict[int, Pair] = {}
    for k, t in enumerate(targets):
        at = by_index.get(t.index)
        if at is not None and at.id not in used:
            n = at
            used.add(n.id)  # type: ignore[arg-type]
            pairs[k] = Pair(t, n, "element")

    def related_to(t: Target, up: int) -> set[int]:
        related: set[int] = set()
        label = dom.label_of(t.index)
        if label is not None:
            related.add(label)
        related.update(list(dom.ancestors(t.index))[:up])
        stack = list(dom.children.get(t.index, []))
        while stack:
            c = stack.pop()
            related.add(c)
            stack.extend(dom.children.get(c, []))
        return related

    # (2) an ID on a related element: first those that agree in role, then those that agree in name.
    for want_role in (True, False):
        for k, t in enumerate(targets):
            if k in pairs:
                continue
            # Five levels up when the role agrees (a field promoted for its transparent focus
            # input: classify.py looks as far), three when only the name does.
            related = related_to(t, 5 if want_role else 3)
            for n in with_id:
                if n.id in used or n.index not in related:
                    continue
                same_name = bool(t.name) and norm_name(n.name) == norm_name(t.name)
                if (n.role == t.role) if want_role else same_name:
                    used.add(n.id)  # type: ignore[arg-type]
                    pairs[k] = Pair(t, n, "related")
                    break
    for k, t in enumerate(targets):
        if k in pairs or not t.name:
            continue
        for n in with_id:
            if (
                n.id not in used
                and n.index is None
                and n.role == t.role
                and norm_name(n.name) == norm_name(t.name)
            ):
                used.add(n.id)  # type: ignore[arg-type]
                pairs[k] = Pair(t, n, "by name")
                break
    return [pairs.get(k, Pair(t, None, "")) for k, t in enumerate(targets)]


def miss_hint(t: Target, nodes: list[BxNode], pairs: list[Pair], dom: Dom) -> str:
    """What browserx shows at a missed target's element (or around it)."""
    facts = []
    if t.transparent:
        facts.append("transparent (opacity 0)")
    for a in dom.ancestors(t.index):
        if dom.scrolls(a):
            facts.append(f"inside scroll container {dom.describe(a)}")
            break
    at = [n for n in nodes if n.index == t.index]
    if at:
        n = at[0]
        facts.append(f"browserx lists the element without an ID as {n.role} {n.name[:60]!r}")
    else:
        near = set(list(dom.ancestors(t.index))[:4])
        holders = [p.bx for p in pairs if p.bx is not None and p.bx.index in near]
        if holders:
            h = holders[0]
            facts.append(f"folded into [{h.id}] {h.role} {h.name[:60]!r} (an ancestor, already joined)")
        else:
            owners = [n for n in nodes if n.index in near and n.id is not None]
            if owners:
                facts.append(f"an ancestor has [{owners[0].id}] {owners[0].role} {owners[0].name[:60]!r}")
            else:
                facts.append("not in browserx's view")
    return "; ".join(facts)


@dataclass
class Score:
    targets: int = 0
    found: int = 0
    role: int = 0
    name: int = 0
    states: int = 0
    by_name: int = 0
    ids: int = 0
    legit: int = 0
    imprecise: int = 0
    unplaced: int = 0

    def add(self, other: Score) -> None:
        for k in self.__dataclass_fields__:
            setattr(self, k, getattr(self, k) + getattr(other, k))

    @staticmethod
    def ratio(a: int, b: int) -> float:
        return a / b if b else 1.0

    @property
    def found_ratio(self) -> float:
        return self.ratio(self.found, self.targets)

    @property
    def precision(self) -> float:
        return self.ratio(self.legit, self.legit + self.imprecise)

    def row(self) -> str:
        r = self.ratio
        return (
            f"{self.found:>4}/{self.targets:<4} {100 * r(self.found, self.targets):6.1f}% "
            f"{100 * r(self.role, self.found):6.1f}% {100 * r(self.name, self.found):6.1f}% "
            f"{100 * r(self.states, self.found):6.1f}% {self.legit:>4}/{self.legit + self.imprecise:<4} "
            f"{100 * self.precision:6.1f}% {self.unplaced:>3}"
        )


ROW_HEADER = f"{'found':>9} {'found%':>7} {'role%':>7} {'name%':>7} {'state%':>7} {'precise':>9} {'prec%':>7} {'unpl':>4}"


_SPACE = re.compile(r"\s+")


def short(text: str, n: int = 70) -> str:
    text = _SPACE.sub(" ", text).strip()
    return text if len(text) <= n else text[: n - 1] + "…"


def _handler(cdp: Cdp, backend: int, up: bool) -> str:
    """A real press listener on the element (CDP), or a framework handler on it / near above it."""
    try:
        obj = cdp("DOM.resolveNode", {"backendNodeId": backend, "objectGroup": "oracle"})["object"][
            "objectId"
        ]
    except Exception:
        return ""
    if not up:
        listeners = cdp("DOMDebugger.getEventListeners", {"objectId": obj}).get("listeners", [])
        if any(entry.get("type") in PRESS_EVENTS for entry in listeners):
            return "listener"
    got = cdp("Runtime.callFunctionOn", {"objectId": obj, "functionDeclaration": FRAMEWORK_JS,
                                         "arguments": [{"value": up}], "returnByValue": True})  # fmt: skip
    return str((got.get("result") or {}).get("value") or "")


def _legit(i: int, dom: Dom, ax_by_backend: dict[int, dict[str, Any]], cdp: Cdp) -> str:
    """Why element ``i`` is interactive for Chrome or a real handler ('' when it is not)."""
    ax = ax_by_backend.get(dom.backend[i])
    role = _value(ax, "role") if ax else ""
    why = ""
    if role in WIDGET_ROLES or (ax is not None and _prop(ax, "focusable")):
        why = f"Chrome {role or 'focusable'}"
    elif dom.scrolls(i):
        why = "scroll container"
    elif dom.tag[i] == "label" or i in dom.clickable:
        why = "label or click listener"
    elif dom.attrs[i].get("contenteditable") in ("", "true", "plaintext-only"):
        why = "editable"
    else:
        why = _handler(cdp, dom.backend[i], False)
        if not why and dom.style.get(i, {}).get("cursor") == "pointer":
            if any(a in dom.clickable for a in list(dom.ancestors(i))[:4]):
                why = "pointer cursor under a click listener"
            else:
                why = _handler(cdp, dom.backend[i], True)
    return why


def precision(
    nodes: list[BxNode], pairs: list[Pair], dom: Dom, ax_by_backend: dict[int, dict[str, Any]], cdp: Cdp
) -> tuple[int, list[str], list[str]]:
    """(legitimate IDs, imprecise ones, unplaced ones) — see the module's docstring."""
    joined = {p.bx.id for p in pairs if p.bx is not None}
    legit = 0
    imprecise: list[str] = []
    unplaced: list[str] = []
    for n in nodes:
        if n.id is None:
            continue
        if n.id in joined:
            legit += 1
            continue
        if n.index is None:
            unplaced.append(f"[{n.id}] {n.role} {short(n.name)!r} <{n.tag}> box {n.box}")
            continue
        i = n.index
        ax = ax_by_backend.get(dom.backend[i])
        role = _value(ax, "role") if ax else ""
        # A click on the box reaches every element of that tag and box (nested: the inner one
        # is hit, the outer one gets the event; the json view cannot say which one it meant).
        why = next(
            (w for j in (i, *(a for a in n.alts if a != i)) if (w := _legit(j, dom, ax_by_backend, cdp))), ""
        )
        if why:
            legit += 1
        else:
            imprecise.append(
                f"[{n.id}] {n.role} {short(n.name)!r} on {dom.describe(i)} (Chrome: {role or 'no node'}, "
                f"cursor {dom.style.get(i, {}).get('cursor', '?')})"
            )
    return legit, imprecise, unplaced


@dataclass
class Result:
    """One page scored: the counts, the report lines (misses, disagreements, imprecise IDs, what was
    left out), and the pairs."""

    score: Score
    lines: list[str]
    pairs: list[Pair]
    dom: Dom

    def pairs_text(self) -> str:
        return "".join(
            f"{p.target.role:<12} {short(p.target.name, 50)!r:<54} {p.target.states} "
            f"<{self.dom.describe(p.target.index)}> -> "
            + (f"[{p.bx.id}] {p.bx.role} {short(p.bx.name, 50)!r} ({p.how})" if p.bx else "MISSING")
            + "\n"
            for p in self.pairs
        )


def score_view(cdp: Cdp, view: dict[str, Any], scroll: tuple[float, float]) -> Result:
    """Score browserx's json view (``max_tokens=0, boxes=True``) of the page ``cdp`` reaches,
    captured right after it (``scroll``: the window's scroll offsets)."""
    dom = Dom.capture(cdp)
    ax = cdp("Accessibility.getFullAXTree", {})

    targets, unreachable, ax_by_backend = chrome_targets(ax, dom)
    nodes = bx_nodes(view)
    place(nodes, dom, scroll, {t.index for t in targets})
    pairs = join(targets, nodes, dom)
    score = Score(targets=len(targets))
    lines: list[str] = []
    for p in pairs:
        t = p.target
        if p.bx is None:
            lines.append(
                f"  MISS {t.role} {short(t.name)!r} <{dom.describe(t.index)}>: {miss_hint(t, nodes, pairs, dom)}"
            )
            continue
        score.found += 1
        score.by_name += p.how == "by name"
        score.role += p.role_ok
        score.name += p.name_ok
        diff = p.state_diff()
        score.states += not diff
        where = f"[{p.bx.id}] <{dom.describe(t.index)}>" + (f" ({p.how})" if p.how != "element" else "")
        if not p.role_ok:
            lines.append(
                f"  ROLE {where}: Chrome {t.role} {short(t.name)!r}, browserx {p.bx.role} {short(p.bx.name)!r}"
            )
        if not p.name_ok:
            lines.append(f"  NAME {where} {t.role}: Chrome {short(t.name)!r}, browserx {short(p.bx.name)!r}")
        if diff:
            lines.append(f"  STATE {where} {t.role} {short(t.name)!r}: {'; '.join(diff)}")
    legit, imprecise, unplaced = precision(nodes, pairs, dom, ax_by_backend, cdp)
    with contextlib.suppress(Exception):
        cdp("Runtime.releaseObjectGroup", {"objectGroup": "oracle"})
    score.ids = sum(1 for n in nodes if n.id is not None)
    score.legit, score.imprecise, score.unplaced = legit, len(imprecise), len(unplaced)
    lines += [f"  IMPRECISE {x}" for x in imprecise]
    lines += [f"  UNPLACED {x}" for x in unplaced]
    lines += [f"  (not reachable, not counted) {x}" for x in unreachable]
    return Result(score, lines, pairs, dom)
