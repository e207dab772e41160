"""What a tool call did, in words, for the person's Activity list in the popup: ``click [12]
button "Save"``, ``type into [13] textbox "Email"``, ``navigate to https://example.com/…``.

Never a value: typed text, a chosen option, a pressed character, text waited for, a query or a
CSS filter stay out (an agent may type a password, a card number or a message); URLs go through
``redact_url`` as in every other output. Element names are what the snapshot showed (a control's
label, not its value), cut short. Pure: the element's role and name are looked up by the caller.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from browserx.snapshot.redaction import redact_url

MAX_NAME = 60
MAX_URL = 120
# Keys named by more than one character (Enter, Tab, ArrowDown, F5): a single character pressed
# is a piece of text and is not shown.
NamedElement = Callable[[int], tuple[str | None, str] | None]


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _element(element_id: Any, named: NamedElement) -> str:
    if not isinstance(element_id, int):
        return "an element"
    found = named(element_id)
    if found is None:
        return f"[{element_id}]"
    role, name = found
    out = f"[{element_id}]"
    if role:
        out += f" {role}"
    if name:
        out += f' "{_clip(name, MAX_NAME)}"'
    return out


def _url(url: Any) -> str:
    return _clip(redact_url(url), MAX_URL) if isinstance(url, str) and url else "a page"


def _key(key: Any, modifiers: Any) -> str:
    """A key combination without the character it types: Ctrl+A is a shortcut; a plain "a" or
    "Shift+a" is text."""
    if not isinstance(key, str):
        return "a key"
    parts = [p for p in key.split("+") if p]
    held = [m for m in (modifiers or []) if isinstance(m, str)] + parts[:-1]
    last = parts[-1] if parts else ""
    shortcut = any(m.lower() in ("ctrl", "control", "alt", "meta", "cmd", "command") for m in held)
    if len(last) > 1 and last.isascii() and last.replace("_", "").isalnum():
        name = last  # Enter, Tab, ArrowDown, F5
    elif shortcut and len(last) == 1:
        name = last.upper()
    else:
        return "a character key"
    return "+".join([*held, name]) if held else name


def describe(tool: str, params: dict[str, Any], named: NamedElement) -> str:
    """One line in words for a call of ``tool`` with ``params`` (as sent)."""
    p = params

    def el(key: str = "id") -> str:
        return _element(p.get(key), named)

    if tool == "click":
        verb = {1: "click", 2: "double-click", 3: "triple-click"}.get(p.get("count", 1), "click")
        if p.get("button") == "right":
            verb = "right-click"
        return f"{verb} {el()}"
    if tool == "type":
        return f"type into {el()}" + (" and submit" if p.get("submit") else "")
    if tool == "key":
        target = f" in {el()}" if p.get("id") is not None else ""
        return f"press {_key(p.get('key'), p.get('modifiers'))}{target}"
    if tool == "scroll":
        if p.get("to_id") is not None:
            return f"scroll to {el('to_id')}"
        where = f" in {el()}" if p.get("id") is not None else ""
        return f"scroll {p.get('direction', 'down')}{where}"
    if tool == "select":
        return f"choose an option in {el()}"
    if tool == "check":
        return f"{'check' if p.get('checked', True) else 'uncheck'} {el()}"
    if tool == "fill":
        fields = p.get("fields")
        ids = [f.get("id") for f in fields if isinstance(f, dict)] if isinstance(fields, list) else []
        if isinstance(fields, dict):
            ids = [int(k) for k in fields if str(k).isdigit()]
        shown = ", ".join(_element(i, named) for i in ids[:3]) + (
            f" and {len(ids) - 3} more" if len(ids) > 3 else ""
        )
        return f"fill {len(ids)} field{'' if len(ids) == 1 else 's'}: {shown}" if ids else "fill a form"
    if tool == "hover":
        return f"hover over {el()}"
    if tool == "upload":
        paths = p.get("paths")
        count = len(paths) if isinstance(paths, list) else 0
        return f"upload {count} file{'' if count == 1 else 's'} into {el()}"
    if tool == "drag":
        onto = el("to_id") if p.get("to_id") is not None else "a point"
        return f"drag {el()} onto {onto}"
    if tool in ("click_at", "hover_at"):
        x, y = p.get("x"), p.get("y")
        at = f"({round(x)}, {round(y)})" if isinstance(x, int | float) and isinstance(y, int | float) else ""
        return f"{'click' if tool == 'click_at' else 'hover'} at {at}".rstrip()
    if tool == "navigate":
        return f"navigate to {_url(p.get('url'))}"
    if tool in ("back", "forward"):
        return f"go {tool}"
    if tool == "reload":
        return "reload"
    if tool == "wait":
        what = [w for w, k in (("text to appear", "text"), ("text to go", "gone")) if p.get(k)]
        return "wait for " + (" and ".join(what) or "the page")
    if tool == "console":
        return "read the tab's console"
    if tool == "downloads":
        return "list the tab's downloads"
    if tool == "snapshot":
        return f"read the page ({p.get('format', 'text')} view)"
    if tool == "screenshot":
        mode = p.get("mode", "viewport")
        return f"screenshot of {el() if mode == 'element' else mode.replace('_', ' ')}"
    if tool == "html":
        return f"read the page's HTML ({p.get('mode', 'skeleton')})"
    if tool == "new_tab":
        return f"open a new tab at {_url(p.get('url'))}" if p.get("url") else "open a new tab"
    if tool == "close_tab":
        return "close the tab"
    if tool == "activate_tab":
        return "bring the tab to the front"
    if tool == "release_tab":
        return "let go of the tab"
    if tool == "cdp":
        method = p.get("method")
        return f"raw CDP {_clip(method, 60)}" if isinstance(method, str) else "raw CDP"
    if tool == "targets":
        return "list the tab's frames"
    return _clip(tool, 40)
