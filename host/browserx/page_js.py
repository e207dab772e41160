"""Page-side JavaScript: the code browserx runs in a page lives in ``.js`` files beside the module
that sends it (``actions/pointer_hit.js`` for actions/pointer.py), each read once, when its module
is imported. What the snippets share in the page (``globalThis.__browserx`` and browserx's other
globals) is described in docs/PAGE_API.md.

A file holds one snippet: a function declaration (sent with ``Runtime.callFunctionOn``) or an
expression (``Runtime.evaluate``). Its header — the ``//`` comment lines it starts with, for a
reader — and its final line break are not part of the snippet: what is sent is the code alone.
Numbers and selectors the host owns appear as ``__NAME__`` placeholders, replaced once at import
by the module that loads the file.

Imports nothing of browserx, so every layer may use it.
"""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def load(package: str, name: str) -> str:
    """The snippet in file ``name`` of ``package``: ``load("browserx.actions", "pointer_hit.js")``."""
    return snippet(resources.files(package).joinpath(name).read_text(encoding="utf-8"))


def snippet(text: str) -> str:
    """A file's code: without its header (the ``//`` and blank lines it starts with) and its final
    line break."""
    lines = text.split("\n")
    start = 0
    while start < len(lines) and (lines[start].startswith("//") or not lines[start].strip()):
        start += 1
    code = "\n".join(lines[start:])
    return code.removesuffix("\n")


__all__ = ["load", "snippet"]
