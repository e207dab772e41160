"""The page-side JavaScript files (browserx/page_js.py) and their one description (docs/PAGE_API.md)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from browserx import page_js

PACKAGE = Path(page_js.__file__).resolve().parent
REPO = PACKAGE.parent.parent
# (the browser extension inside the package holds scripts, not page snippets)
JS_FILES = sorted(p for p in PACKAGE.rglob("*.js") if p.relative_to(PACKAGE).parts[0] != "extension")


def test_the_header_and_the_final_line_break_are_not_sent() -> None:
    text = "// what it does\n// for whom\n\nfunction(x) {\n  // kept: inside the code\n  return x;\n}\n"
    assert page_js.snippet(text) == "function(x) {\n  // kept: inside the code\n  return x;\n}"
    assert page_js.snippet("[scrollX, scrollY]") == "[scrollX, scrollY]"
    assert page_js.snippet("(() => 1)()\n\n") == "(() => 1)()\n"  # only the last line break goes


def test_a_file_is_read_once() -> None:
    assert page_js._read("browserx.actions", "resolve.js") is page_js._read("browserx.actions", "resolve.js")
    assert page_js.load("browserx.actions", "pointer_hit.js") == page_js.load(
        "browserx.actions", "pointer_hit.js"
    )


def test_a_snippet_names_its_file_in_what_is_sent() -> None:
    hit = page_js.load("browserx.actions", "pointer_hit.js")
    assert hit.name == "actions/pointer_hit.js"
    # On a line of its own, and a line break after it: Chrome closes a function declaration with ")".
    assert hit.source == hit.code + "\n//# sourceURL=browserx/actions/pointer_hit.js\n"


def test_what_a_snippet_uses_is_declared_and_checked() -> None:
    hit = page_js.Snippet("actions/x.js", "(x) => x")
    code = page_js.compose(
        "a.js", "function() { return [__F__(1), __N__, __S__]; }", {"F": hit, "N": 3, "S": 'a"b'}
    )
    assert code == 'function() { return [(x) => x(1), 3, "a\\"b"]; }'
    with pytest.raises(ValueError, match="placeholders"):
        page_js.compose("a.js", "__F__ + __G__", {"F": 1})  # one missing
    with pytest.raises(ValueError, match="placeholders"):
        page_js.compose("a.js", "__F__", {"F": 1, "G": 2})  # one never used


def test_every_file_sits_where_the_package_data_takes_it() -> None:
    # pyproject.toml ships "*/*.js" and "*/*/*.js": in a room of browserx/ or a room's room
    # (control/person/), beside the module that sends it.
    assert JS_FILES
    assert [p for p in JS_FILES if len(p.relative_to(PACKAGE).parts) not in (2, 3)] == []


@pytest.mark.parametrize("path", JS_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_file_is_loaded_by_a_module_of_its_package(path: Path) -> None:
    sources = "\n".join(p.read_text(encoding="utf-8") for p in path.parent.glob("*.py"))
    assert f'"{path.name}"' in sources


@pytest.mark.parametrize(
    "module",
    [
        "browserx.actions.at_point",
        "browserx.actions.effects",
        "browserx.actions.forms",
        "browserx.actions.keyboard",
        "browserx.actions.navigation",
        "browserx.actions.page_changes",
        "browserx.actions.pointer",
        "browserx.actions.resolve",
        "browserx.actions.scroll",
        "browserx.actions.verify",
        "browserx.pixels.screenshot",
        "browserx.page.css_filter",
        "browserx.page.framework",
        "browserx.page.occlusion",
        "browserx.page.opt_out",
        "browserx.page.page_watch",
    ],
)
def test_every_placeholder_is_filled_at_import(module: str) -> None:
    snippets = {k: v for k, v in vars(importlib.import_module(module)).items() if k.endswith("_JS")}
    assert snippets
    for name, snippet in snippets.items():
        assert isinstance(snippet, page_js.Snippet) and snippet.code.strip(), name
        assert not snippet.code.startswith("//"), name
        assert re.findall(r"__[A-Z][A-Z_]*__", snippet.code) == [], name


def test_the_scroll_fraction_and_the_wait_call_are_arguments() -> None:
    from browserx.actions.navigation import WAIT_JS
    from browserx.actions.scroll import SCROLL_JS

    assert "Math.round(size * pageFraction)" in SCROLL_JS.code
    assert WAIT_JS.code.startswith("(want, gone) => {") and WAIT_JS.code.endswith("}")


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
        m, g = _members_and_globals(page_js.snippet(path.read_text(encoding="utf-8")))
        members |= m
        found_globals |= g
    assert {"keyOf", "nodeOf", "keyFor", "closed", "cover", "suspects"} <= members  # the scan works
    assert sorted(m for m in members if f"`{m}`" not in described and f"`{m}(" not in described) == []
    assert sorted(g for g in found_globals if g not in described) == []
