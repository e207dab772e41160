"""The body of one ``POST {backend}/api/agent/interact`` of ``browserx agent`` (interfaces/agent/loop.py),
built by pure functions of the observation (the semantic view) and how the last action went:
the page fields (``interactiveTree`` typed as the contract types it), then, after an action,
``lastActionStatus``, ``lastActionError``, ``lastActionResult``, ``previousUrl``,
``clientObservations``, ``clientVerification`` (when an ``actionDetails.selectorPath`` lookup ran)
and the verification fields (docs/DESIGN.md, "The backend loop"). The backend client checks the body against
the contract (interfaces/agent/backend.py) before it is sent; the artifacts a negotiation asks for are
added by interfaces/agent/negotiation.py."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from browserx.interfaces.outcome import describe_action
from browserx.snapshot.redaction import redact_url
from browserx.views.semantic import ROLE_NAMES, role_name

_FRAME = re.compile(r"(?:f?([0-9]+))?(?:s([0-9]+))?")
# Second-level labels under which a country's registrable domains sit (example.co.uk): the root
# domain keeps three labels there, two elsewhere. A short list, not the public suffix list.
_SECOND_LEVEL = frozenset({"ac", "co", "com", "edu", "gob", "gov", "go", "mil", "ne", "net", "or", "org"})


@dataclass(frozen=True)
class Observation:
    tab: int
    page: dict[str, Any]  # the semantic view (views/semantic.py)

    @property
    def url(self) -> str:
        return str(self.page.get("url") or "")


def v3_node(entry: Mapping[str, Any]) -> dict[str, Any]:
    """One interactiveTree node as the contract types it: ``i`` a string, ``n`` always present, ``f``
    a frame number."""
    node: dict[str, Any] = {
        "i": str(entry["i"]),
        "r": str(entry.get("r") or ""),
        "n": str(entry.get("n") or ""),
    }
    for key in ("v", "s"):
        if entry.get(key) is not None:
            node[key] = str(entry[key])
    if _numbers(entry.get("xy"), 2):
        node["xy"] = list(entry["xy"])
    frame = frame_number(entry.get("f"))
    if frame is not None:
        node["f"] = frame
    if _numbers(entry.get("box"), 4):
        node["box"] = list(entry["box"])
    scr = entry.get("scr")
    if isinstance(scr, Mapping):
        node["scr"] = {"depth": str(scr.get("depth") or "0%"), "h": bool(scr.get("h"))}
    if entry.get("occ"):
        node["occ"] = True
    return node


def _numbers(value: Any, n: int) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) == n
        and all(isinstance(x, int | float) and not isinstance(x, bool) for x in value)
    )


def frame_number(label: Any) -> int | None:
    """The contract numbers frames (``f: 1``; 0 or none for the page itself); browserx labels them
    (views/semantic.FrameLabels): a cross-site frame ``fN`` is N, a same-site frame ``sK`` 1000 + K
    and ``fNsK`` (inside frame fN) 1000 × (N + 1) + K; the same label, the same number."""
    if isinstance(label, int) and not isinstance(label, bool):
        return label
    m = _FRAME.fullmatch(label) if isinstance(label, str) else None
    if m is None:
        return None
    outer, inner = m.group(1), m.group(2)
    if inner is None:
        return int(outer) if outer is not None else None
    return 1000 * (int(outer or 0) + 1) + int(inner)


def v2_node(entry: Mapping[str, Any]) -> dict[str, Any]:
    """One ``semanticNodes`` node: the same element with full keys and its role spelled out (for
    backends that read only that form)."""
    node: dict[str, Any] = {
        "id": str(entry["i"]),
        "role": role_name(str(entry.get("r") or "")),
        "name": str(entry.get("n") or ""),
    }
    for key, full in (("v", "value"), ("s", "state"), ("ph", "placeholder")):
        if entry.get(key) is not None:
            node[full] = str(entry[key])
    frame = frame_number(entry.get("f"))
    if frame is not None:
        node["frameId"] = frame
    if _numbers(entry.get("box"), 4):
        x, y, w, h = entry["box"]
        node["bounds"] = {"x": x, "y": y, "width": w, "height": h}
    return node


def domain_of(url: str) -> str:
    """The root domain of ``url`` (``www.bbc.co.uk`` → ``bbc.co.uk``); an IP address or a
    one-label host (localhost) as it is; "" without a host."""
    try:
        host = (urlsplit(url).hostname or "").rstrip(".")
    except ValueError:
        return ""
    try:
        ipaddress.ip_address(host)
        return host
    except ValueError:
        pass
    labels = host.split(".")
    keep = 3 if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVEL else 2
    return ".".join(labels[-keep:])


def filter_fields(page: Mapping[str, Any]) -> dict[str, Any]:
    """``dom_filtered`` and, when the view left elements out (its token budget, a query), why
    and how much: ``filter_reason``, ``original_node_count``, ``token_reduction`` (per cent)."""
    figures = page.get("filtered")
    if not isinstance(figures, Mapping):
        return {"dom_filtered": False}
    return {
        "dom_filtered": True,
        "filter_reason": str(figures.get("reason") or ""),
        "original_node_count": int(figures.get("originalCount") or 0),
        "token_reduction": int(figures.get("tokenReduction") or 0),
    }


def page_fields(obs: Observation) -> dict[str, Any]:
    """What every request says about the page (docs/DESIGN.md, "The backend loop"). The URL is the view's,
    redacted as every browserx output is (snapshot/redaction.py); the view has already left out
    opted-out parts and password values."""
    page = obs.page
    viewport = page.get("viewport") or {}
    tree = page.get("interactive_tree") or []
    url = redact_url(obs.url)
    title = str(page.get("title") or "")
    return {
        "domMode": "semantic",
        "interactiveTree": [v3_node(e) for e in tree],
        "url": url,
        "tabId": obs.tab,
        "domain": domain_of(url),
        "title": title,
        "pageTitle": title,
        "viewport": {
            "width": round(viewport.get("width") or 0),
            "height": round(viewport.get("height") or 0),
        },
        "scrollPosition": str(page.get("scroll_position") or "0%"),
        "scrollableContainers": [
            {"id": str(c["id"]), "depth": str(c.get("depth") or "0%"), "hasMore": bool(c.get("hasMore"))}
            for c in page.get("scrollable_containers") or []
        ],
        "recentEvents": [str(e) for e in page.get("recent_events") or []],
        "hasErrors": bool(page.get("has_errors")),
        "hasSuccess": bool(page.get("has_success")),
        **filter_fields(page),
        "semanticNodes": [v2_node(e) for e in tree],
        "roleCodes": role_codes(tree),
    }


def role_codes(tree: list[Mapping[str, Any]]) -> dict[str, str]:
    """The legend of the role codes ``tree`` uses that are not the role's own name (``btn`` →
    ``button``; ``link`` is left out): the backend need not know browserx's table."""
    used = {str(e.get("r") or "") for e in tree}
    return {code: ROLE_NAMES[code] for code in sorted(used) if ROLE_NAMES.get(code, code) != code}


@dataclass
class ActionOutcome:
    """How the last action went, for the next request."""

    action: str  # the action as the backend wrote it
    success: bool
    url_before: str
    result: dict[str, Any] | None = None  # the ActionResult, when it ran
    code: str | None = None  # failure: the error code ...
    message: str | None = None  # ... and message
    element_id: int | None = None
    notes: list[str] = field(default_factory=list)  # e.g. the selectorPath used
    # The actionDetails.selectorPath lookup, when one ran: the contract's clientVerification
    # without urlChanged (known only when the next request is built).
    selector_check: dict[str, Any] | None = None
    # The verification checked the action kind's default expectation (the backend named none).
    default_check: bool = False
    # The interactive tree the action was chosen from: what the next view lists anew, or no
    # longer, is the action's domChanges.
    tree_before: list[Mapping[str, Any]] | None = None

    def summary(self) -> str:
        """One line: the result's lines (the verification feedback is one) and the notes, joined
        with "; "."""
        head = describe_action(self.result) if self.result else f"failed: {self.code}: {self.message}"
        lines = [line.strip() for line in head.splitlines() if line.strip()]
        verification = (self.result or {}).get("verification")
        if self.default_check and isinstance(verification, Mapping) and not verification.get("passed"):
            lines.append("(the default check of this kind of action: no expectedOutcome was given)")
        return "; ".join([*lines, *self.notes])


DROPDOWN_CODES = frozenset({"opt", "menu", "mchk", "mrad"})  # options and menu items: a list opened
MAX_DROPDOWN_OPTIONS = 20


def dom_changes(last: ActionOutcome, tree_now: list[Mapping[str, Any]], url_now: str) -> dict[str, Any]:
    """``domChanges``: how many elements the view lists that it did not before the action, and
    how many it no longer lists (IDs are stable, so these are elements that came and went, or
    scrolled in and out of a view cut to its budget), whether options or menu items came (a
    dropdown opened, their names), how long the action took to settle (ms), the URL before and
    whether it changed, and whether requests were made."""
    before = {str(e.get("i")) for e in last.tree_before or ()}
    now = {str(e.get("i")): e for e in tree_now}
    added = [e for i, e in now.items() if i not in before]
    options = [str(e.get("n") or "") for e in added if e.get("r") in DROPDOWN_CODES]
    out: dict[str, Any] = {
        "addedCount": len(added),
        "removedCount": len(before - set(now)),
        "dropdownDetected": bool(options),
    }
    if options:
        out["dropdownOptions"] = options[:MAX_DROPDOWN_OPTIONS]
    result = last.result or {}
    out["stabilizationTime"] = round(float(result.get("duration_ms") or 0))
    out["previousUrl"] = last.url_before
    out["urlChanged"] = url_now != last.url_before
    requests = (result.get("network") or {}).get("requests")
    if isinstance(requests, int) and not isinstance(requests, bool):
        out["didNetworkOccur"] = requests > 0
    return out


def outcome_fields(
    last: ActionOutcome, url_now: str, tree_now: list[Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """``lastActionStatus``, ``lastActionError``, ``lastActionResult``, ``previousUrl``,
    ``clientObservations``, ``clientVerification`` when an ``actionDetails.selectorPath`` lookup
    ran, when the action carried an expectation the verification fields, and ``domChanges`` when
    the tree before the action is known (``tree_now``: the tree after it)."""
    out: dict[str, Any] = {"lastActionStatus": "success" if last.success else "failure"}
    if not last.success:
        error: dict[str, Any] = {
            "message": last.message or "",
            "code": last.code or "action_failed",
            "action": last.action,
        }
        if last.element_id is not None:
            error["elementId"] = last.element_id
        out["lastActionError"] = error
    out["lastActionResult"] = {"success": last.success, "actualState": last.summary()}
    out["previousUrl"] = last.url_before
    result = last.result or {}
    seen: dict[str, bool] = {}
    network = result.get("network")
    requests = network.get("requests") if isinstance(network, Mapping) else None
    if isinstance(requests, int) and not isinstance(requests, bool):
        seen["didNetworkOccur"] = requests > 0
    changes = result.get("changes") or {}
    mutations = changes.get("dom_mutations")
    if isinstance(mutations, int) and not isinstance(mutations, bool):
        seen["didDomMutate"] = mutations > 0
    elif changes.get("navigated"):  # dom_mutations None: the page was replaced
        seen["didDomMutate"] = True
    seen["didUrlChange"] = url_now != last.url_before
    out["clientObservations"] = seen
    if last.selector_check is not None:
        out["clientVerification"] = {**last.selector_check, "urlChanged": url_now != last.url_before}
    verification = result.get("verification")
    if isinstance(verification, Mapping):
        out["verification_passed"] = bool(verification.get("passed"))
        out["verification_message"] = str(verification.get("feedback") or "")
        out["errors_detected"] = [str(e) for e in verification.get("errors_detected") or []]
        out["success_messages"] = [str(m) for m in verification.get("success_messages") or []]
    if last.tree_before is not None and tree_now is not None:
        out["domChanges"] = dom_changes(last, tree_now, url_now)
    return out


def build_request(
    task: str,
    obs: Observation,
    *,
    task_id: str | None = None,
    session_id: str | None = None,
    last: ActionOutcome | None = None,
) -> dict[str, Any]:
    """The body of one ``POST /api/agent/interact`` (no artifacts: those only on request).
    ``task_id`` and ``session_id``: the last ones the backend gave, echoed."""
    page = page_fields(obs)
    body: dict[str, Any] = {"domMode": page.pop("domMode"), "interactiveTree": page.pop("interactiveTree")}
    body["url"] = page.pop("url")
    body["query"] = task
    if task_id is not None:
        body["taskId"] = task_id
    if session_id is not None:
        body["sessionId"] = session_id
    body.update(page)
    if last is not None:
        body.update(outcome_fields(last, body["url"], list(obs.page.get("interactive_tree") or [])))
    return body


__all__ = [
    "ActionOutcome",
    "Observation",
    "build_request",
    "dom_changes",
    "domain_of",
    "filter_fields",
    "frame_number",
    "outcome_fields",
    "page_fields",
    "role_codes",
    "v2_node",
    "v3_node",
]
