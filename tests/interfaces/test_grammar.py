"""The backend loop's action grammar: what parses to which tool call, where and why the rest fails, the
format/parse round trip, and `browserx do` on a parse error (no host needed)."""

from __future__ import annotations

import json
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browserx.control.client import Client
from browserx.control.tools import TOOLS_BY_NAME
from browserx.errors import BadRequest
from browserx.interfaces import grammar
from browserx.interfaces.cli import main
from browserx.interfaces.grammar import (
    ActionCall,
    GrammarError,
    format_action,
    parse_action,
    run_action,
)

VALID: list[tuple[str, str | None, dict[str, Any]]] = [
    ("click(12)", "click", {"id": 12}),
    ('click("12")', "click", {"id": 12}),  # stable IDs as backends write them: a string of digits
    ('setValue(13, "space x")', "type", {"id": 13, "text": "space x", "clear": True}),
    ('type(13, "text")', "type", {"id": 13, "text": "text"}),
    ('press("Enter")', "key", {"key": "Enter"}),
    ('press("Ctrl+A")', "key", {"key": "Ctrl+A"}),
    ("scroll(7)", "scroll", {"id": 7}),
    ('scroll("7")', "scroll", {"id": 7}),
    ('scroll("down")', "scroll", {"direction": "down"}),
    ('scroll("up")', "scroll", {"direction": "up"}),
    ('scroll("left")', "scroll", {"direction": "left"}),
    ('scroll("right")', "scroll", {"direction": "right"}),
    ('select(15, "Deutsch")', "select", {"id": 15, "value": "Deutsch"}),
    ("check(14)", "check", {"id": 14}),
    ("check(14, false)", "check", {"id": 14, "checked": False}),
    ("check(14, true)", "check", {"id": 14, "checked": True}),
    ("hover(10)", "hover", {"id": 10}),
    ("drag(3, 9)", "drag", {"id": 3, "to_id": 9}),
    ('navigate("https://example.com")', "navigate", {"url": "https://example.com"}),
    ("goBack()", "back", {}),
    ('wait("Saved")', "wait", {"text": "Saved"}),
    ("finish()", None, {}),
    ('finish("all done")', None, {"reason": "all done"}),
    ("fail()", None, {}),
    ('fail("why")', None, {"reason": "why"}),
    # whitespace anywhere between tokens, JSON escapes decoded
    ('  setValue ( 13 ,\t"x" )\n', "type", {"id": 13, "text": "x", "clear": True}),
    ("click(007)", "click", {"id": 7}),
    (r'type(1, "a\"b\\c\/\n\t\u00e9\ud83d\ude00")', "type", {"id": 1, "text": 'a"b\\c/\n\té😀'}),
    ('type(1, "日本語 ✓")', "type", {"id": 1, "text": "日本語 ✓"}),
    ('type(1, "")', "type", {"id": 1, "text": ""}),
]


@pytest.mark.parametrize(("text", "tool", "params"), VALID)
def test_valid_actions(text: str, tool: str | None, params: dict[str, Any]) -> None:
    call = parse_action(text)
    assert (call.tool, call.params) == (tool, params)
    assert call.verb == text.strip().split("(")[0].strip()
    if tool is not None:  # what parses, the host accepts
        TOOLS_BY_NAME[tool].params.model_validate(params)
    assert parse_action(format_action(call)) == call


def test_canonical_text() -> None:
    assert format_action(parse_action('  click( "12" ) ')) == "click(12)"
    assert format_action(parse_action('setValue(13,"a\\u0022")')) == 'setValue(13, "a\\"")'
    assert format_action(parse_action('type(1, "\\u00e9")')) == 'type(1, "é")'


INVALID: list[tuple[str, int, str]] = [
    ("", 1, "expected an action such as click(12) at column 1"),
    ("   ", 4, "found end of input"),
    ("click(", 7, 'expected an argument (a number, a "string", true or false) or ")" at column 7'),
    ("click(12", 9, 'expected ")" or "," at column 9'),  # unclosed paren
    ('setValue(13 "x")', 13, 'expected ")" or "," at column 13, found "x"'),  # missing comma
    ("click(12,)", 10, "expected an argument"),
    ("click 12", 7, 'expected "(" at column 7'),
    ("clik(12)", 1, 'unknown action "clik" at column 1; did you mean click?'),
    ("launch(1)", 1, "valid actions: click, setValue, type, press, scroll, select, check, fill, hover"),
    ("click()", 7, "wrong number of arguments for click at column 7: expected 1 argument, found 0"),
    ("click(1, 2)", 10, "usage: click(id)"),
    ("setValue(13)", 12, 'usage: setValue(id, "text")'),
    ("goBack(1)", 8, "expected 0 arguments, found 1"),
    ('fail("a", "b")', 11, 'usage: fail() or fail("reason")'),
    ('click("abc")', 7, "bad argument 1 of click at column 7: expected an element ID"),
    ('type("x", 1)', 6, "bad argument 1 of type"),
    ("type(1, 2)", 9, 'bad argument 2 of type at column 9: expected a "string", found "2"'),
    ('scroll("sideways")', 8, 'or a direction ("down", "up", "left" or "right"), found "sideways"'),
    ('check(1, "yes")', 10, "expected true or false"),
    ("check(true)", 7, "expected an element ID"),
    ("wait(Saved)", 6, 'strings need double quotes: "Saved"'),
    # other quotes: single (Python, JavaScript) and typographic
    ("type(14, 'hi')", 10, 'found "\'"; strings need double quotes: "hi"'),
    ("press('Enter')", 7, 'strings need double quotes: "Enter"'),
    ("type(1, \u201cx y\u201d)", 9, 'strings need double quotes: "x y"'),
    ("type(1, 'open", 9, 'strings need double quotes: "open"'),
    # a bad string: the lexer's error, as parse_action raises it (the rest: test_grammar_lexer.py)
    ('type(1, "\\q")', 10, "invalid escape \\q in string at column 10"),
    ("click(12) x", 11, 'expected end of input at column 11, found "x"'),  # trailing garbage
    ("click(12);", 10, "expected end of input"),
    ("click(12) click(13)", 11, "one action per call"),
    ("click(-1)", 7, 'found "-"'),
    ("click(1.5)", 8, 'found "."'),
    ('"click(12)"', 1, "expected an action such as click(12)"),
]


@pytest.mark.parametrize(("text", "column", "fragment"), INVALID)
def test_invalid_actions(text: str, column: int, fragment: str) -> None:
    with pytest.raises(GrammarError) as info:
        parse_action(text)
    err = info.value
    assert err.code == "bad_request" and isinstance(err, BadRequest)
    assert err.details == {"column": column}
    assert fragment in err.message
    assert f"column {column}" in err.message


def test_unknown_verb_lists_every_verb() -> None:
    with pytest.raises(GrammarError) as info:
        parse_action("frobnicate()")
    for verb in grammar.VERBS:
        assert verb.name in info.value.message


def test_long_garbage_is_clipped_in_messages() -> None:
    with pytest.raises(GrammarError) as info:
        parse_action("x" * 10_000 + "()")
    assert len(info.value.message) < 400


def test_every_verb_maps_onto_a_declared_tool() -> None:
    for verb in grammar.VERBS:
        assert verb.tool is None or verb.tool in TOOLS_BY_NAME, verb.name
    assert {v.name for v in grammar.VERBS if v.tool is None} == {"finish", "fail"}


def test_format_refuses_calls_outside_the_grammar() -> None:
    for call in (
        ActionCall("click", "click", {"id": 1, "force": True}),
        ActionCall("click", "hover", {"id": 1}),
        ActionCall("click", "click", {"id": True}),
        ActionCall("jump", None, {}),
    ):
        with pytest.raises(ValueError):
            format_action(call)


def test_action_call_is_frozen_and_hashable() -> None:
    call = parse_action("click(1)")
    assert hash(call) == hash(parse_action('click("1")'))
    with pytest.raises(AttributeError):
        call.verb = "hover"  # type: ignore[misc]


# -- the round trip ---------------------------------------------------------------------------


def _value(arg: grammar.Arg) -> st.SearchStrategy[Any]:
    if arg.kind is grammar.Kind.ID:
        return st.integers(min_value=0, max_value=10**15)
    if arg.kind is grammar.Kind.BOOL:
        return st.booleans()
    if arg.kind is grammar.Kind.DIRECTION:
        return st.sampled_from(grammar.DIRECTIONS)
    if arg.kind is grammar.Kind.VALUE:
        return st.one_of(st.booleans(), _value(grammar.Arg(arg.param, grammar.Kind.TEXT)))
    # quotes, backslashes, control characters and any non-surrogate code point
    return st.text(
        st.one_of(st.sampled_from('"\\/\n\t\x00\x1f\u2028 '), st.characters(exclude_categories=["Cs"])),
        max_size=30,
    )


@st.composite
def calls(draw: st.DrawFn) -> ActionCall:
    verb = draw(st.sampled_from(grammar.VERBS))
    form = draw(st.sampled_from(verb.forms))
    params: dict[str, Any]
    if form.rounds:  # fill's (id, value) pairs, one or more
        rounds = draw(st.integers(min_value=1, max_value=3))
        params = {form.rounds: [{arg.param: draw(_value(arg)) for arg in form.args} for _ in range(rounds)]}
    else:
        params = {arg.param: draw(_value(arg)) for arg in form.args}
    params.update(form.fixed)
    return ActionCall(verb.name, verb.tool, params)


@settings(max_examples=400)
@given(calls())
def test_format_then_parse_is_the_identity(call: ActionCall) -> None:
    text = format_action(call)
    assert parse_action(text) == call
    assert format_action(parse_action(text)) == text


@settings(max_examples=200)
@given(calls(), st.data())
def test_any_spacing_and_quoted_ids_parse_the_same(call: ActionCall, data: st.DataObject) -> None:
    """The same call written loosely: whitespace around every token, IDs as strings of digits,
    strings with every character escaped."""
    verb = grammar.VERBS_BY_NAME[call.verb]
    form = next(
        f
        for f in verb.forms
        if ({f.rounds} if f.rounds else {a.param for a in f.args}) | dict(f.fixed).keys()
        == call.params.keys()
    )
    space = st.text(" \t\r\n", max_size=2)
    parts: list[str] = []
    rounds = call.params[form.rounds] if form.rounds else [call.params]
    for arg, value in ((arg, one[arg.param]) for one in rounds for arg in form.args):
        if arg.kind is grammar.Kind.ID and data.draw(st.booleans()):
            parts.append(f'"{value}"')
        elif isinstance(value, str) and data.draw(st.booleans()):
            parts.append(json.dumps(value, ensure_ascii=True))  # \uXXXX escapes, surrogate pairs
        elif isinstance(value, bool):
            parts.append("true" if value else "false")
        else:
            parts.append(json.dumps(value, ensure_ascii=False))

    def sp() -> str:
        return data.draw(space)

    args = "".join(f"{sp()},{sp()}{part}" if i else part for i, part in enumerate(parts))
    text = f"{sp()}{call.verb}{sp()}({sp()}{args}{sp()}){sp()}"
    assert parse_action(text) == call


@settings(max_examples=300)
@given(st.text(max_size=40))
def test_anything_either_parses_or_fails_with_a_column(text: str) -> None:
    try:
        call = parse_action(text)
    except GrammarError as err:
        assert 1 <= err.details["column"] <= len(text) + 1
        assert f"column {err.details['column']}" in err.message
    else:
        assert parse_action(format_action(call)) == call


# -- running -----------------------------------------------------------------------------------


class FakeClient:
    """Records what run_action sends instead of sending it (all it uses of a Client is call)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def call(self, method: str, /, **params: Any) -> Any:
        self.calls.append((method, params))
        return {"action": method, "success": True}

    @property
    def client(self) -> Client:
        return cast(Client, self)


def test_run_action_calls_the_tool() -> None:
    fake = FakeClient()
    assert run_action(fake.client, 'setValue(13, "x")', tab=5) == {"action": "type", "success": True}
    run_action(fake.client, "goBack()")
    assert fake.calls == [("type", {"id": 13, "text": "x", "clear": True, "tab": 5}), ("back", {})]


def test_finish_and_fail_never_reach_the_host() -> None:
    fake = FakeClient()
    assert run_action(fake.client, "finish()") == {"done": True, "success": True, "reason": None}
    assert run_action(fake.client, 'fail("no such product")', tab=3) == {
        "done": True,
        "success": False,
        "reason": "no such product",
    }
    assert fake.calls == []


def test_run_action_raises_before_calling() -> None:
    fake = FakeClient()
    with pytest.raises(GrammarError):
        run_action(fake.client, "click(")
    assert fake.calls == []


# -- the CLI -----------------------------------------------------------------------------------


def test_cli_do_reports_the_column_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["do", "click(", "--socket", "/nonexistent/browserx.sock"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.startswith("browserx: bad_request: expected an argument")
    assert "at column 7" in out.err


def test_cli_do_json_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["do", "--json", "clik(1)"]) == 2
    out = capsys.readouterr()
    error = json.loads(out.out)["error"]
    assert error["code"] == "bad_request" and error["details"] == {"column": 1}
    assert "valid actions" in out.err
