"""Page-side JavaScript: the code browserx runs in a page lives in ``.js`` files beside the module
that sends it (``actions/pointer_hit.js`` for actions/pointer.py), each read once, when its module
is imported, as a ``Snippet``. What the snippets share in the page (``globalThis.__browserx`` and
browserx's other globals) is described in docs/PAGE_API.md. page/page_call.py is the one way the
host runs a snippet.

A file holds one snippet: a function declaration (sent with ``Runtime.callFunctionOn``, its
arguments as CDP arguments) or an expression (``Runtime.evaluate``). Its header — the ``//`` comment
lines it starts with, for a reader — and its final line break are not part of the snippet: what is
sent is the code alone, followed by a ``//# sourceURL=browserx/<path>`` line, so a page error (and
the page's stack trace) names the file.

What a snippet is built from is declared where it is loaded: ``load(package, name, uses={...})``
fills each ``__NAME__`` placeholder of the file with another snippet's code (``uses={"HIT": HIT}``)
or with a constant the host owns, written as a JSON literal (``uses={"MAX": 200}``); every
placeholder must be given and every given one used (snippets.d.ts declares their types, checked by
``make lint``). Values that change from call to call are the call's arguments, never placeholders.

Imports nothing of browserx, so every layer may use it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

PLACEHOLDER = re.compile(r"__([A-Z][A-Z0-9_]*)__")


@dataclass(frozen=True, slots=True)
class Snippet:
    """Page code and the file it comes from."""

    name: str  # its path under host/browserx: "actions/pointer_hit.js"
    code: str  # the code alone: what another snippet embeds

    @property
    def source(self) -> str:
        """What is sent to the page: the code, then the line that names its file (on a line of its
        own, so the ``)`` Chrome closes a function declaration with stays code)."""
        return f"{self.code}\n//# sourceURL=browserx/{self.name}\n"


Use = Snippet | int | float | str | bool | None


def load(package: str, name: str, uses: Mapping[str, Use] | None = None) -> Snippet:
    """The snippet in file ``name`` of ``package`` (``load("browserx.actions", "pointer_hit.js")``),
    its placeholders filled from ``uses``."""
    code = _read(package, name)
    path = package.removeprefix("browserx").strip(".").replace(".", "/")
    path = f"{path}/{name}" if path else name
    return Snippet(path, compose(path, code, uses or {}))


def compose(name: str, code: str, uses: Mapping[str, Use]) -> str:
    """``code`` with each ``__NAME__`` replaced by ``uses[NAME]`` (a snippet's code or a JSON
    literal); a ValueError when a placeholder is missing or a given one unused."""
    wanted = set(PLACEHOLDER.findall(code))
    if wanted != set(uses):
        raise ValueError(f"{name}: placeholders {sorted(wanted)}, given {sorted(uses)}")

    def fill(match: re.Match[str]) -> str:
        value = uses[match.group(1)]
        return value.code if isinstance(value, Snippet) else json.dumps(value)

    return PLACEHOLDER.sub(fill, code)


@cache
def _read(package: str, name: str) -> str:
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


__all__ = ["Snippet", "compose", "load", "snippet"]
