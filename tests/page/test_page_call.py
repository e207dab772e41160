"""page/page_call.py: the one way the host runs page JavaScript. Arguments go as CDP arguments,
what is sent names its file (sourceURL), and a page error is a PageScriptError naming the snippet,
logged in the host log — for every snippet browserx has (a page that throws from each of them)."""

from __future__ import annotations

import asyncio
import importlib
import pkgutil
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
from structlog.testing import capture_logs
from tests.fakes import Answer, FakeConnection

import browserx
from browserx import page_js
from browserx.errors import ERROR_BY_CODE, CdpError, PageScriptError, error_from_dict
from browserx.page.page_call import (
    Handle,
    answer,
    call_request,
    eval_request,
    page_call,
    page_eval,
    page_object,
)
from browserx.page_js import Snippet
from browserx.relay.cdp_types import EvaluateResult
from browserx.relay.session import TabSession

T = TypeVar("T")
PACKAGE = Path(page_js.__file__).resolve().parent
JS_FILES = sorted(
    str(p.relative_to(PACKAGE))
    for p in PACKAGE.rglob("*.js")
    if p.relative_to(PACKAGE).parts[0] != "extension"
)
HIT = Snippet("actions/pointer_hit.js", "function(x, y) { return x + y; }")


def run(work: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(work, 2))


def session_over(answer: Answer) -> tuple[TabSession, FakeConnection]:
    conn = FakeConnection(answer)
    return TabSession(7, conn), conn  # type: ignore[arg-type]


def threw(
    description: str | None = "TypeError: x is not a function\n    at <anonymous>", text: str = "Uncaught"
) -> Any:
    exception = {"type": "object", "subtype": "error", "description": description} if description else None
    details: dict[str, Any] = {"exceptionId": 1, "text": text, "lineNumber": 3, "columnNumber": 7}
    if exception is not None:
        details["exception"] = exception
    return lambda method, params, sid: (
        {"result": {"type": "object"}, "exceptionDetails": details} if method.startswith("Runtime.") else {}
    )


def every_snippet() -> dict[str, list[Snippet]]:
    """Every Snippet the host's modules hold, by the file it comes from."""
    found: dict[str, list[Snippet]] = {}
    for info in pkgutil.walk_packages(browserx.__path__, "browserx."):
        if info.name.endswith(("__main__", "_native")):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, Snippet) and value not in found.get(value.name, []):
                found.setdefault(value.name, []).append(value)
    return found


SNIPPETS = every_snippet()


# -- what is sent --------------------------------------------------------------------------------


def test_a_call_sends_its_arguments_as_arguments_and_names_its_file() -> None:
    method, params = call_request(HIT, 3, "a", Handle("obj-2"), this="obj-1", await_promise=True, group="g")
    assert method == "Runtime.callFunctionOn"
    assert params == {
        "functionDeclaration": "function(x, y) { return x + y; }\n//# sourceURL=browserx/actions/pointer_hit.js\n",
        "objectId": "obj-1",
        "arguments": [{"value": 3}, {"value": "a"}, {"objectId": "obj-2"}],
        "returnByValue": True,
        "awaitPromise": True,
        "objectGroup": "g",
    }
    _, in_world = call_request(HIT, world=5, by_value=False)
    assert in_world["executionContextId"] == 5 and in_world["returnByValue"] is False
    assert "arguments" not in in_world and "objectId" not in in_world


def test_a_call_goes_to_an_object_or_a_world_never_both_or_neither() -> None:
    with pytest.raises(ValueError):
        call_request(HIT)
    with pytest.raises(ValueError):
        call_request(HIT, this="o", world=1)


def test_an_evaluation_calls_a_function_snippet_with_its_arguments_as_json() -> None:
    wait = Snippet("actions/navigation_wait.js", "(want, gone) => [want, gone]")
    method, params = eval_request(wait, 'say "hi"', None, world=4)
    assert method == "Runtime.evaluate"
    assert params == {
        "expression": '((want, gone) => [want, gone])("say \\"hi\\"", null)\n'
        "//# sourceURL=browserx/actions/navigation_wait.js\n",
        "returnByValue": True,
        "contextId": 4,
    }
    _, plain = eval_request(Snippet("a.js", "function() { return document; }"), by_value=False, group="g")
    assert plain == {"expression": "(function() { return document; })()\n//# sourceURL=browserx/a.js\n",
                     "returnByValue": False, "objectGroup": "g"}  # fmt: skip


def test_a_library_member_is_never_evaluated_in_the_page_world() -> None:
    with pytest.raises(ValueError, match="browserx's world"):
        eval_request(page_js.load("browserx.actions", "pointer_hit.js"))


def test_a_member_is_called_by_name_and_sent_again_whole_where_the_world_lacks_the_library() -> None:
    hit = page_js.load("browserx.actions", "pointer_hit.js")
    installed = False

    def page(method: str, params: dict[str, Any], sid: str | None) -> Any:
        nonlocal installed
        if method != "Runtime.callFunctionOn":
            return {}
        if params["functionDeclaration"] == hit.whole:
            installed = True
        if not installed:
            thrown = {"type": "object", "subtype": "error", "description": f"Error: {page_js.MISSING}"}
            return {"result": {"type": "object"}, "exceptionDetails": {"exceptionId": 1, "text": "Uncaught",
                    "lineNumber": 0, "columnNumber": 0, "exception": thrown}}  # fmt: skip
        return {"result": {"type": "number", "value": 7}}

    session, conn = session_over(page)
    with capture_logs() as logs:
        assert run(page_call(session, hit, 1, 2, world=3)) == 7  # by name, then whole
        assert run(page_call(session, hit, 1, 2, world=3)) == 7  # by name: the world keeps it now
    declarations = [params["functionDeclaration"] for m, params in conn.sent if m == "Runtime.callFunctionOn"]
    assert declarations == [hit.source, hit.whole, hit.source]
    assert [e for e in logs if e["event"] == "page_script_error"] == []  # a missing library is no page error


def test_the_answer_is_the_value_or_the_handle() -> None:
    session, conn = session_over(
        lambda m, p, s: {"result": {"type": "number", "value": 7}} if m.startswith("Runtime") else {}
    )
    assert run(page_call(session, HIT, 3, 4, this="o", session_id="S")) == 7
    assert conn.calls[-1] == ("Runtime.callFunctionOn", "S")
    assert run(page_eval(session, HIT, world=2)) == 7
    handle, _ = session_over(
        lambda m, p, s: {"result": {"type": "object", "subtype": "node", "objectId": "n1"}}
    )
    assert run(page_object(handle, HIT, world=1)).objectId == "n1"


def test_a_failed_command_in_a_batch_is_raised_as_itself() -> None:
    with pytest.raises(CdpError):
        answer(HIT, CdpError("Cannot find context with specified id"))
    assert answer(HIT, EvaluateResult()).value is None  # no value is no error


# -- a page that throws ----------------------------------------------------------------------------


def test_a_page_error_is_a_page_script_error_with_the_page_message_in_the_host_log() -> None:
    session, _ = session_over(threw())
    with capture_logs() as logs, pytest.raises(PageScriptError) as raised:
        run(page_call(session, HIT, 1, 2, this="o"))
    err = raised.value
    assert err.code == "page_script_error"
    assert err.details == {
        "snippet": "actions/pointer_hit.js",
        "page_message": "TypeError: x is not a function\n    at <anonymous>",
    }
    assert "actions/pointer_hit.js" in err.message and "x is not a function" in err.message
    assert [e for e in logs if e["event"] != "attached"] == [{"event": "page_script_error", "log_level": "warning", "snippet": "actions/pointer_hit.js",
                     "page_message": err.details["page_message"]}]  # fmt: skip


def test_without_an_exception_object_the_page_text_is_the_message() -> None:
    session, _ = session_over(threw(description=None, text="Uncaught SyntaxError"))
    with pytest.raises(PageScriptError) as raised:
        run(page_eval(session, HIT))
    assert raised.value.details["page_message"] == "Uncaught SyntaxError"


def test_a_huge_page_message_is_clipped() -> None:
    session, _ = session_over(threw(description="E" * 10_000))
    with pytest.raises(PageScriptError) as raised:
        run(page_eval(session, HIT))
    assert len(raised.value.details["page_message"]) < 600


def test_the_client_gets_the_code_and_the_snippet() -> None:
    err = PageScriptError("browserx's page script x.js failed", snippet="actions/x.js", page_message="boom")
    back = error_from_dict(err.to_dict())
    assert ERROR_BY_CODE["page_script_error"] is PageScriptError
    assert isinstance(back, PageScriptError) and back.details["snippet"] == "actions/x.js"


def test_every_snippet_a_module_holds_is_a_page_module() -> None:
    assert SNIPPETS and sorted(SNIPPETS) == sorted(n for n in SNIPPETS if n in JS_FILES)


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_a_page_that_throws_from_each_snippet_gets_a_page_script_error_naming_it(name: str) -> None:
    for snippet in SNIPPETS[name]:
        assert snippet.source.endswith(f"\n//# sourceURL=browserx/{name}\n")
        for how in ("world", "this", "eval") if snippet.code is not None else ("world", "this"):
            session, conn = session_over(threw())
            call = (
                page_call(session, snippet, 1, world=3)
                if how == "world"
                else page_call(session, snippet, this="o")
                if how == "this"
                else page_eval(session, snippet, world=3)
            )
            with capture_logs() as logs, pytest.raises(PageScriptError) as raised:
                run(call)
            sent = conn.sent[-1][1]
            assert f"//# sourceURL=browserx/{name}\n" in (
                sent.get("functionDeclaration") or sent["expression"]
            )
            assert raised.value.details["snippet"] == name
            assert [entry["snippet"] for entry in logs if entry["event"] == "page_script_error"] == [name]
