"""page/kept.py's two forms, run under node: every function snippet browserx has parses as
composed, and still parses as a function once wrapped (its code on lines of its own: a last line that is a comment must not
swallow the closing parenthesis); the whole form keeps the function and runs it with the call's
``this`` and arguments, the stub runs the kept one, and a stub in a world that keeps nothing throws
the host's signal."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from tests.page.test_page_call import SNIPPETS

from browserx.page.kept import MISSING, kept
from browserx.page_js import Snippet

SCRIPT = """
const vm = require("vm");
const forms = %(forms)s;
const out = {functions: [], parsed: [], unparsed: [], ran: null};
const isFunction = (src) => {
  try { return typeof vm.runInNewContext("(" + src + ")") === "function"; } catch (e) { return false; }
};
for (const [name, plain, whole, stub] of forms) {
  if (!isFunction(plain)) { out.unparsed.push(name); continue; }
  out.functions.push(name);
  if (isFunction(whole) && isFunction(stub)) out.parsed.push(name);
}
const [whole, stub] = %(thing)s;
const world = vm.createContext({});
const call = (src, self, ...args) => vm.runInContext("(" + src + ")", world).apply(self, args);
const ran = [call(whole, {base: 10}, 1, 2), call(stub, {base: 20}, 3, 4)];
let thrown = null;
try { vm.runInNewContext("(" + stub + ")").call({}, 1, 1); } catch (e) { thrown = String(e.message); }
out.ran = {ran, thrown};
console.log(JSON.stringify(out));
"""
# ``this`` and the arguments as the host passes them; a last line that is a comment.
THING = Snippet("actions/thing.js", "function(x, y) {\n  return this.base + x + y;\n}\n// the end")


def test_the_kept_forms_of_every_function_snippet_parse_and_run_as_the_snippet_does() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    functions = [s for found in SNIPPETS.values() for s in found if s.code.lstrip().startswith("function")]
    assert len(functions) > 40
    forms = [[s.name, s.source, kept(s).whole.source, kept(s).stub.source] for s in functions]
    thing = [kept(THING).whole.source, kept(THING).stub.source]
    script = SCRIPT % {"forms": json.dumps(forms), "thing": json.dumps(thing)}
    out = json.loads(
        subprocess.run(
            [node, "-"], input=script, capture_output=True, text=True, timeout=60, check=True
        ).stdout
    )
    assert len(out["functions"]) > 40 and out["parsed"] == out["functions"]
    # Every function snippet parses as composed (a placeholder in a comment once broke one); only
    # effects.js is two declarations, which EFFECT_CALL_JS wraps into a function.
    assert set(out["unparsed"]) == {"actions/effects.js"}
    assert out["ran"]["ran"] == [13, 27]
    assert out["ran"]["thrown"] == MISSING  # a fresh context keeps nothing


NAMED = """
const vm = require("vm");
const [stub, name, collectStub, collectName] = %(args)s;
// A page element with that id: a named property on the global's prototype chain, seen by every world.
const world = vm.createContext({});
vm.runInContext(`Object.setPrototypeOf(globalThis, {${JSON.stringify(name)}: () => "page's", ${JSON.stringify(collectName)}: () => "page's"})`, world);
let thrown = null;
try { vm.runInContext("(" + stub + ")", world).call({}); } catch (e) { thrown = e.message; }
const collected = vm.runInContext("(" + collectStub + ")", world)({}, 0, 0, false);
console.log(JSON.stringify([thrown, collected]));
"""


def test_a_stub_never_calls_what_the_page_named_like_its_function() -> None:
    """An element with the function's name as its id is a property every world sees (on the
    global's prototype chain); a stub reads only the world's own property: the kept stub throws
    the host's signal (then the call goes whole), the collector's stub answers null (then it is
    installed)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    from browserx.page.collector import _COLLECTOR_NAME, COLLECT_STUB_JS

    args = [kept(THING).stub.source, kept(THING).name, COLLECT_STUB_JS.source, _COLLECTOR_NAME]
    script = NAMED % {"args": json.dumps(args)}
    out = subprocess.run([node, "-"], input=script, capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(out.stdout) == [MISSING, None]
