"""Page-side JavaScript: browserx's page library. The code browserx runs in a page lives in ES
modules beside the Python module that calls it (``actions/pointer_hit.js`` for actions/pointer.py);
a module the host calls exports one function by default, typed in snippets.d.ts (one that only
serves others, such as the collector's parts, exports its pieces by name). tools/js/build.mjs
bundles them all with esbuild into one script, ``page/library.gen.js`` (committed: running browserx
needs no node), whose members are those default exports keyed by their module's path under
host/browserx.

The library is installed once per isolated world of browserx, under a name only browserx's world
holds (``LIBRARY_NAME``: the library's hash, so another version's library is never called), and a
member is called by name: ``Runtime.callFunctionOn`` of a stub of a hundred characters
(``Snippet.source``), its arguments as CDP arguments. A world without the library (a document that
was there before browserx watched its tab) makes the stub throw ``MISSING``; the call is then made
with ``Snippet.whole``, which installs the library first. Every new document of a watched tab gets
it as it starts (``document_start_source``). page/page_call.py is the one way the host runs a
member.

Never in the page's own world, where the page could replace what is kept: the few functions that
must run there (a framework's props are expandos only that world sees) are sent whole every time,
``page_world(package, name)``: a module that imports nothing.

Imports nothing of browserx, so every layer may use it.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from functools import cache
from importlib import resources

LIBRARY_FILE = "page/library.gen.js"
# A stub's throw; the token (this host's own) keeps a page from forging it through a handler of
# its that a member runs (a focus listener's throw reaches the member).
MISSING = "browserx: page library missing " + secrets.token_hex(8)
_MEMBER_KEY = re.compile(r'^\s+"([\w/]+\.js)": \w+,?$', re.M)


@cache
def library() -> str:
    """The bundle: ``var __bxLibrary = (() => {...})();``, its ``members`` keyed by path."""
    return resources.files("browserx").joinpath(LIBRARY_FILE).read_text(encoding="utf-8")


@cache
def library_name() -> str:
    """Where browserx's world keeps the library: named after its text."""
    return "__bxLibrary_" + hashlib.sha256(library().encode()).hexdigest()[:16]


@cache
def members() -> frozenset[str]:
    return frozenset(_MEMBER_KEY.findall(library()))


def _kept() -> str:
    # Its own property only: a page element with that id is a named property every world sees.
    return f"Object.getOwnPropertyDescriptor(globalThis, {json.dumps(library_name())})?.value"


def _installed() -> str:
    """An expression: the library of this world, installed now if it was not."""
    return (
        f"({_kept()} ?? (() => {{\n{library()}\n"
        f"Object.defineProperty(globalThis, {json.dumps(library_name())}, {{value: __bxLibrary.members}});\n"
        "return __bxLibrary.members;\n})())"
    )


@dataclass(frozen=True, slots=True)
class Snippet:
    """A page function: a member of the library (``code`` None), or a function of the page's own
    world sent whole (``code``). ``by_key``: called with an element's collector key first, it runs
    on the element actions/resolve.js finds by it (null when that is gone or opted out)."""

    name: str  # its module's path under host/browserx: "actions/pointer_hit.js"
    code: str | None = None
    by_key: bool = False

    @property
    def source(self) -> str:
        """What is sent to call it: the stub that calls the kept member (throwing ``MISSING`` in a
        world without the library), or the page-world function itself."""
        if self.code is not None:
            return _named(self.code, self.name)
        return _named(f"function(...args) {{\n  const L = {_kept()};\n  if (!L) throw new Error({json.dumps(MISSING)});\n"
                      f"  {self._call()}\n}}", self.name)  # fmt: skip

    @property
    def whole(self) -> str:
        """What is sent where the library may be missing: it installs the library, then calls."""
        if self.code is not None:
            return self.source
        return _named(f"function(...args) {{\n  const L = {_installed()};\n  {self._call()}\n}}", self.name)

    def keyed(self) -> Snippet:
        """This member, called with an element's key first (``by_key``)."""
        return Snippet(self.name, self.code, by_key=True)

    def _call(self) -> str:
        if not self.by_key:
            return f"return L[{json.dumps(self.name)}].apply(this, args);"
        return (
            'const el = L["actions/resolve.js"](args[0]);\n'
            f"  return el && typeof el === 'object' ? L[{json.dumps(self.name)}].apply(el, args.slice(1)) : null;"
        )


def _named(code: str, name: str) -> str:
    """The code, then the line that names its module (on a line of its own, so the ``)`` Chrome
    closes a function declaration with stays code): a page error's stack names it."""
    return f"{code}\n//# sourceURL=browserx/{name}\n"


def document_start_source() -> str:
    """The script each new document of a watched tab runs as it starts, in browserx's world: the
    library installed, and the page watcher started (page/page_watch_early.js)."""
    return _named(f'{_installed()}["page/page_watch_early.js"]();', "page/page_watch_early.js")


def load(package: str, name: str) -> Snippet:
    """The library member of module ``name`` of ``package`` (``load("browserx.actions",
    "pointer_hit.js")``); a ValueError when the library has no such member (rebuild it:
    ``make page-library``)."""
    path = _path(package, name)
    if path not in members():
        raise ValueError(f"{path}: not a member of {LIBRARY_FILE}; run `make page-library`")
    return Snippet(path)


def page_world(package: str, name: str) -> Snippet:
    """The function of module ``name`` of ``package``, sent whole to the page's own world: a module
    that imports nothing and exports its function by default."""
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    code = module_function(text)
    if re.search(r"^import\b", code, re.M):
        raise ValueError(f"{name}: a page-world module imports nothing (it is sent whole)")
    return Snippet(_path(package, name), code)


def module_function(text: str) -> str:
    """A module's default-exported function as a function expression: without its header (the
    ``//`` and blank lines it starts with), its type line and ``export default``."""
    lines = text.split("\n")
    start = 0
    while start < len(lines) and (lines[start].startswith("//") or not lines[start].strip()):
        start += 1
    code = "\n".join(line for line in lines[start:] if not line.startswith("/** @type"))
    return code.replace("export default ", "", 1).removesuffix("\n")


def _path(package: str, name: str) -> str:
    path = package.removeprefix("browserx").strip(".").replace(".", "/")
    return f"{path}/{name}" if path else name


__all__ = [
    "LIBRARY_FILE",
    "MISSING",
    "Snippet",
    "document_start_source",
    "library",
    "library_name",
    "load",
    "members",
    "module_function",
    "page_world",
]
