"""Verified outcomes (docs/DESIGN.md, "Verification"): an answer's ``expectedOutcome`` / ``expected_outcome``
translated into the ``expect`` an action takes (expectations.py). Its ``timeout`` / ``timeoutMs``
is in milliseconds, as backends write it (``2000``: 2 s). The verification comes back in the
action's result and goes to the backend as ``verification_passed``, ``verification_message``,
``errors_detected``, ``success_messages`` (interfaces/agent/request.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_FLAGS = ("navigation", "value_changes", "state_changes", "any_change", "no_change")


def to_expect(outcome: Any) -> dict[str, Any] | None:
    """``{"type": "navigation", "or_element_appears": "Thank you", "timeout": 2000}`` →
    ``{"or": [{"navigation": true}, {"element_appears": {"text": "Thank you"}}], "timeout": 2.0}``.
    Kinds: navigation, url_contains, element_appears, element_disappears, value_changes,
    state_changes, any_change, no_change; alternatives as ``or_<kind>`` keys or ``orOutcome``.
    ``timeout`` (or ``timeoutMs``) is in milliseconds, as backends write it (``2000``: 2 s;
    ``5``: 5 ms), capped at 60 s. None when nothing in it can be checked."""
    if not isinstance(outcome, Mapping):
        return None
    parts = [_expect_one(outcome.get("type"), outcome)]
    for key, value in outcome.items():
        if isinstance(key, str) and key.startswith("or_"):
            parts.append(_expect_one(key[3:], value))
    if isinstance(outcome.get("orOutcome"), Mapping):
        alt = to_expect(outcome["orOutcome"])
        if alt is not None:
            alt.pop("timeout", None)
            parts.append(alt)
    found = [p for p in parts if p]
    if not found:
        return None
    expect: dict[str, Any] = found[0] if len(found) == 1 else {"or": found}
    timeout = outcome.get("timeoutMs", outcome.get("timeout"))
    if isinstance(timeout, int | float) and not isinstance(timeout, bool) and timeout > 0:
        expect["timeout"] = min(timeout / 1000, 60.0)
    return expect


def _expect_one(kind: Any, source: Any) -> dict[str, Any] | None:
    """One kind, its argument taken from ``source`` (the outcome object, or an ``or_`` value)."""
    if kind in _FLAGS:
        return {kind: True} if source is not False else None
    if kind == "url_contains":
        text = source if isinstance(source, str) else _first_str(source, "url", "value", "text")
        return {"url_contains": text} if text else None
    if kind in ("element_appears", "element_disappears"):
        if isinstance(source, str):
            return {kind: {"text": source}} if source else None
        if isinstance(source, Mapping):
            role, name = _first_str(source, "role"), _first_str(source, "name")
            if role:
                return {kind: {"role": role, **({"name": name} if name else {})}}
            text = _first_str(source, "text", "value", "name")
            return {kind: {"text": text}} if text else None
    return None


def _first_str(source: Any, *keys: str) -> str | None:
    if isinstance(source, Mapping):
        for key in keys:
            if isinstance(source.get(key), str) and source[key]:
                return str(source[key])
    return None


__all__ = ["to_expect"]
