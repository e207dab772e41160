"""How an action's outcome reads, for a person at the CLI and for an LLM over MCP alike."""

from __future__ import annotations

import json
from typing import Any


def describe_action(result: dict[str, Any]) -> str:
    """One line about an ActionResult: what was done to which element, and what visibly changed."""
    changes: dict[str, Any] = result.get("changes") or {}
    head = f"{result.get('action', 'action')} {'succeeded' if result.get('success') else 'failed'}"
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
    scroll = changes.get("scroll")
    if scroll:
        parts.append(f"scrolled {scroll.get('target', 'page')} {scroll.get('before')} → {scroll.get('after')}, "
                     f"left to scroll: {scroll.get('remaining')}")  # fmt: skip
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
