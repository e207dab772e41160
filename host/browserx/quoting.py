"""How browserx writes a piece of page text it must quote: as a JSON string literal (``"…"`` with
``\\"``, ``\\\\``, ``\\n`` and ``\\uXXXX`` escapes; non-ASCII kept, line separators escaped), so a page
cannot end the string or start a line of its own. Where views quote and where they leave text bare
is views/grammar.py's; a verification's messages (actions/verify.py) and page events
(page/events.py) quote with the same function.

Imports nothing of browserx, so every layer may use it.
"""

from __future__ import annotations

import re

_ESCAPES = re.compile(r'["\\\x00-\x1f\x7f-\x9f\u2028\u2029]')
_SHORT = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def quote(text: str) -> str:
    """``text`` as a JSON string literal (non-ASCII kept, line separators escaped)."""
    return '"' + _ESCAPES.sub(_escape, text) + '"'


def _escape(match: re.Match[str]) -> str:
    ch = match.group(0)
    short = _SHORT.get(ch)
    return short if short is not None else f"\\u{ord(ch):04x}"
