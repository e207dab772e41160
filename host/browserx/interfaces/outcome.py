"""How an action's outcome reads, for a person at the CLI and for an LLM over MCP alike."""

from __future__ import annotations

import json
from typing import Any


def describe_action(result: dict[str, Any]) -> str:
    """One line about an ActionResult: what was done to which element, and what visibly changed."""
    changes: dict[str, Any] = result.get("changes") or {}
    scroll = changes.get("scroll")
    # A scroll that moved nothing worked (no error) but did not do what was asked: said so.
    stuck = (
        isinstance(scroll, dict)
        and not changes.get("scroll_changed")
        and scroll.get("before") == scroll.get("after")
    )
    outcome = "succeeded" if result.get("success") else "failed"
    if stuck and result.get("success"):
        outcome = "moved nothing"
    head = f"{result.get('action', 'action')} {outcome}"
    if result.get("id") is not None:
        head += f" on [{result['id']}]"
    head += f" in {float(result.get('duration_ms') or 0):.0f} ms"
    parts: list[str] = []
    if result.get("recovered_from") is not None:
        parts.append(
            f"[{result['recovered_from']}] had been re-rendered and was found again as [{result.get('id')}]"
        )
    if changes.get("navigated"):
        parts.append(f"navigated to {changes.get('new_url')}")
    else:
        parts.append("no navigation")
        if changes.get("new_url"):
            parts.append(f"URL now {changes['new_url']}")
    if changes.get("dom_mutations") is not None:
        count = changes["dom_mutations"]
        parts.append(f"{count} DOM mutation{'' if count == 1 else 's'}")
    if changes.get("new_value") is not None:
        parts.append(f"value now {json.dumps(changes['new_value'], ensure_ascii=False)}")
    elif changes.get("value_changed"):
        length = changes.get("value_length")
        parts.append("value changed" + (f" ({length} characters)" if length is not None else ""))
    if changes.get("checked") is not None:
        parts.append("now checked" if changes["checked"] else "now unchecked")
    if changes.get("selected") is not None:
        parts.append(f"selected {json.dumps(changes['selected'], ensure_ascii=False)}")
    for d in result.get("downloads") or ():
        if isinstance(d, dict):
            parts.append(f"downloaded {json.dumps(d.get('name'), ensure_ascii=False)} ({d.get('state')})")
    if isinstance(result.get("files"), list):
        names = ", ".join(
            f"{f.get('name')} ({f.get('size')} bytes)" for f in result["files"] if isinstance(f, dict)
        )
        parts.insert(0, f"the input holds {names}" if names else "the input holds no file")
    if isinstance(result.get("drag"), dict):
        parts.insert(0, _dragged(result["drag"]))
    if scroll:
        parts.insert(0, _scrolled(scroll, stuck))  # what a scroll did comes first
    elif changes.get("scroll_changed"):
        parts.append("a scroll position changed")
    if changes.get("focused") is not None:
        parts.append("focused" if changes["focused"] else "not focused")
    hit = result.get("hit")
    if hit:
        parts.insert(
            0, f"at ({', '.join(f'{v:g}' for v in result.get('point') or ())}): {hit.get('description')}"
        )
    network = result.get("network")
    if network:
        parts.append(_requests(network))
    line = f"{head}: {', '.join(parts)}"
    verification = result.get("verification")
    if verification:
        line += "\n" + str(verification.get("feedback", ""))
    return line


def _scrolled(scroll: dict[str, Any], stuck: bool) -> str:
    """Where a scroll went and how much room is left, in words (pixels as whole numbers)."""
    target = scroll.get("target") or "page"
    room = {way: px for way, px in (scroll.get("remaining") or {}).items() if px and px >= 1}
    left = ", ".join(f"{way} {px:,.0f} px" for way, px in room.items())
    if stuck:
        if not room:
            return f"nothing to scroll: the {target} does not scroll (it all fits)"
        return f"nothing scrolled: the {target} is at its end that way; room left: {left}"
    x0, y0 = scroll.get("before") or (0, 0)
    x1, y1 = scroll.get("after") or (0, 0)
    return f"scrolled the {target} from ({x0:,.0f}, {y0:,.0f}) to ({x1:,.0f}, {y1:,.0f}), " + (
        f"room left: {left}" if room else "at its end every way"
    )


def _requests(network: dict[str, Any]) -> str:
    count = int(network.get("requests") or 0)
    if not count:
        return "no requests"
    calls = [
        f"{c.get('method')} {c.get('url')} → "
        + ("pending" if c.get("pending") else "failed" if c.get("failed") else str(c.get("status")))
        for c in network.get("xhr") or ()
    ]
    text = f"{count} request{'' if count == 1 else 's'}"
    return text + (f" ({'; '.join(calls)})" if calls else "")


def _dragged(drag: dict[str, Any]) -> str:
    """ "dropped on element 7 (listitem 'Done'), moved from rank 0 to 2 (HTML5 drag)"."""
    said = f"dropped on {drag.get('to', '?')}"
    if drag.get("gone"):
        said += ", and it left the page"
    elif not drag.get("moved"):
        said += ", but it did not move"
    else:
        index = drag.get("index")
        if drag.get("container_changed"):
            said += f", now in {drag.get('container') or 'another container'}"
        if isinstance(index, list | tuple) and index[0] != index[1]:
            said += f", rank {index[0]} → {index[1]}"
        elif not drag.get("container_changed"):
            dx, dy = drag.get("shift") or (0, 0)
            said += f", moved by ({dx:.0f}, {dy:.0f}) px"
    return said + (" (HTML5 drag)" if drag.get("html5") else "")
