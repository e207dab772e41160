"""The page-side JavaScript files (browserx/page_js.py) and their one description (docs/PAGE_API.md)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from browserx import page_js

PACKAGE = Path(page_js.__file__).resolve().parent
REPO = PACKAGE.parent.parent
# (the browser extension inside the package holds scripts, not page snippets)
JS_FILES = sorted(p for p in PACKAGE.rglob("*.js") if p.relative_to(PACKAGE).parts[0] != "extension")


MODULES = sorted(p for p in JS_FILES if not p.name.endswith(".gen.js"))
# A member is a module's default export; a module without one (the collector's parts) is bundled
# into the modules that import it.
NAMES = [str(p.relative_to(PACKAGE)) for p in MODULES if re.search(r"^export default\b", p.read_text(), re.M)]


def test_the_library_holds_every_page_module_by_its_path() -> None:
    assert sorted(page_js.members()) == NAMES
    # Built, not a module: the one generated file.
    assert [p.relative_to(PACKAGE).as_posix() for p in JS_FILES if p.name.endswith(".gen.js")] == [
        page_js.LIBRARY_FILE
    ]


def test_a_member_is_loaded_by_its_path_and_a_module_the_library_lacks_is_refused() -> None:
    hit = page_js.load("browserx.actions", "pointer_hit.js")
    assert hit == page_js.Snippet("actions/pointer_hit.js") and hit.code is None
    with pytest.raises(ValueError, match="make page-library"):
        page_js.load("browserx.actions", "no_such_module.js")


def test_a_member_is_called_by_name_and_names_its_module_in_what_is_sent() -> None:
    hit = page_js.load("browserx.actions", "pointer_hit.js")
    # On a line of its own, and a line break after it: Chrome closes a function declaration with ")".
    assert hit.source.endswith("\n//# sourceURL=browserx/actions/pointer_hit.js\n")
    assert len(hit.source) < 400 and page_js.library_name() in hit.source and page_js.MISSING in hit.source
    assert '"actions/pointer_hit.js"' in hit.source
    assert page_js.library() in hit.whole and hit.whole.endswith(
        "//# sourceURL=browserx/actions/pointer_hit.js\n"
    )
    assert page_js.library() in page_js.document_start_source()


def test_the_library_is_named_after_its_text() -> None:
    assert (
        page_js.library_name().removeprefix("__bxLibrary_")
        in hashlib.sha256(page_js.library().encode()).hexdigest()
    )


def test_a_page_world_function_is_sent_whole_without_its_header_and_export() -> None:
    text = '// what it does\n// for whom\n/** @type {BxSnippets["x.js"]} */\nexport default function (x) {\n  // inside\n  return x;\n}\n'
    assert page_js.module_function(text) == "function (x) {\n  // inside\n  return x;\n}"
    wait = page_js.page_world("browserx.actions", "navigation_wait.js")
    assert wait.code is not None and wait.code.startswith("function (want, gone) {")
    assert wait.source == wait.whole == wait.code + "\n//# sourceURL=browserx/actions/navigation_wait.js\n"


def test_a_page_world_module_that_imports_is_refused() -> None:
    with pytest.raises(ValueError, match="imports nothing"):
        page_js.page_world("browserx.actions", "pointer_aim.js")


def test_every_file_sits_where_the_package_data_takes_it() -> None:
    # pyproject.toml ships "*/*.js" and "*/*/*.js": in a room of browserx/ or a room's room
    # (control/person/), beside the module that sends it.
    assert JS_FILES
    assert [p for p in JS_FILES if len(p.relative_to(PACKAGE).parts) not in (2, 3)] == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_module_is_called_by_a_module_of_its_package_or_imported_by_one_that_is(path: Path) -> None:
    sources = "\n".join(p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py"))
    imported = "\n".join(p.read_text(encoding="utf-8") for p in MODULES if p != path)
    name = path.relative_to(PACKAGE).as_posix()
    package = "browserx." + ".".join(path.relative_to(PACKAGE).parent.parts)
    assert f'"{package}", "{path.name}"' in sources or f'"{name}"' in sources or f'/{path.name}"' in imported


LIBRARY_RUN = """
const vm = require("vm");
const [whole, stub, keyed, missing] = %(forms)s;
const world = vm.createContext({});
const call = (src, self, ...args) => vm.runInContext("(" + src + ")", world).apply(self, args);
const out = {};
out.whole = call(whole, null, {nodeType: 1, hasAttribute: (name) => name === "data-no-ai"});
out.stub = call(stub, null, {nodeType: 1, hasAttribute: () => false});
try { vm.runInNewContext("(" + stub + ")").call({}, "z"); } catch (e) { out.thrown = String(e.message); }
out.keyed = call(keyed, undefined, 0);
console.log(JSON.stringify(out));
"""


def test_the_whole_form_installs_the_library_and_the_stub_calls_it_or_throws_missing() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed (scripts/setup-system.sh installs it)")
    no_ai = page_js.load("browserx.page", "no_ai.js")
    forms = [
        no_ai.whole,
        no_ai.source,
        page_js.load("browserx.actions", "drag_started.js").keyed().source,
        page_js.MISSING,
    ]
    script = LIBRARY_RUN % {"forms": json.dumps(forms)}
    out = json.loads(subprocess.run([node, "-e", script], capture_output=True, text=True, check=True).stdout)
    assert out["whole"] is True and out["stub"] is False  # ran with its arguments, then by name
    assert out["thrown"] == page_js.MISSING  # a world without the library
    assert out["keyed"] is None  # no element of that key: nothing is called on


def _members_and_globals(code: str) -> tuple[set[str], set[str]]:
    """The ``__browserx`` members (read through any local alias) and the globals a snippet uses."""
    aliases = {"globalThis.__browserx"} | {
        m.group(1) for m in re.finditer(r"(?:const|let|var)\s+(\w+)\s*=\s*globalThis\.__browserx\b", code)
    }
    members = {m.group(1) for a in aliases for m in re.finditer(r"\b" + re.escape(a) + r"\.(\w+)", code)}
    return members, {m.group(1) for m in re.finditer(r"globalThis\.(__\w+)", code)}


def test_every_member_and_global_the_snippets_use_is_described() -> None:
    described = (REPO / "docs" / "PAGE_API.md").read_text(encoding="utf-8")
    members: set[str] = set()
    found_globals: set[str] = set()
    for path in JS_FILES:
        m, g = _members_and_globals(page_js.module_function(path.read_text(encoding="utf-8")))
        members |= m
        found_globals |= g
    assert {"keyOf", "nodeOf", "keyFor", "closed", "cover", "suspects"} <= members  # the scan works
    assert sorted(m for m in members if f"`{m}`" not in described and f"`{m}(" not in described) == []
    assert sorted(g for g in found_globals if g not in described) == []
