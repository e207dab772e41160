"""The backend loop's action grammar: the one-line calls an LLM backend emits as its ``action``.

    click(12)   setValue(13, "space x")   type(13, "x")   press("Enter")   scroll(7)
    scroll("down")   select(15, "Deutsch")   check(14)   check(14, false)   hover(10)
    navigate("https://example.com")   goBack()   wait("Saved")   finish()   fail("why")

Grammar (whitespace allowed between any two tokens)::

    action := VERB "(" [ arg { "," arg } ] ")" END
    arg    := INT | STRING | "true" | "false"

INT is ASCII digits; STRING is a JSON string (JSON escapes, decoded with ``json.loads``). An
element ID may also be written as a string of digits (``click("6")``, as backends write stable IDs).
Each verb maps onto one tool of ``control/tools.py`` (``finish``/``fail``, each with an optional
reason, onto none: they end the task; no ``goForward``: backends have none), and the params it produces are validated against that tool's params model, so a call that
parses is one the host accepts. Errors are ``bad_request`` with the 1-based ``column`` in their
details and a message saying what was expected there. The tokens (with the checks of a string's
escapes) are interfaces/grammar_lexer.py's; this module holds the verbs, the parser and the
formatter.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from browserx.control.tools import TOOLS_BY_NAME
from browserx.errors import BadRequest, clip
from browserx.interfaces.grammar_lexer import INT, GrammarError, Lexer, Token, grammar_error

if TYPE_CHECKING:
    from browserx.control.client import Client

DIRECTIONS = ("down", "up", "left", "right")

# -- verbs ----------------------------------------------------------------------------------


class Kind(Enum):
    ID = 'an element ID (a number such as 12, or a string of digits such as "12")'
    TEXT = 'a "string"'
    BOOL = "true or false"
    VALUE = 'a "string", true or false'
    DIRECTION = 'a direction ("down", "up", "left" or "right")'


@dataclass(frozen=True)
class Arg:
    param: str  # the tool param it fills
    kind: Kind

    def usage(self) -> str:
        if self.kind is Kind.DIRECTION:
            return "|".join(f'"{d}"' for d in DIRECTIONS)
        if self.kind is Kind.TEXT:
            return f'"{self.param}"'
        if self.kind is Kind.BOOL:
            return "true|false"
        if self.kind is Kind.VALUE:
            return '"value"|true|false'
        return self.param


@dataclass(frozen=True)
class Form:
    """One signature of a verb: its positional args and the params it always sets."""

    args: tuple[Arg, ...] = ()
    fixed: tuple[tuple[str, Any], ...] = ()
    # The args repeat, one or more times; each round is a dict of them in a list under this param.
    rounds: str | None = None


@dataclass(frozen=True)
class Verb:
    name: str
    tool: str | None  # None: ends the task (finish/fail), nothing to run on the host
    forms: tuple[Form, ...]
    doc: str = ""  # what it does, for the legend (``browserx legend``)

    def usage(self) -> str:
        return " or ".join(
            f"{self.name}({', '.join(a.usage() for a in f.args)}{', ...' if f.rounds else ''})"
            for f in self.forms
        )


_ID = Arg("id", Kind.ID)
_REASON = (Form(), Form((Arg("reason", Kind.TEXT),)))

# In the backends' words (setValue, goBack, finish, fail) plus the other tools an agent acts with.
VERBS: tuple[Verb, ...] = (
    Verb("click", "click", (Form((_ID,)),), "click the element"),
    Verb("setValue", "type", (Form((_ID, Arg("text", Kind.TEXT)), (("clear", True),)),),
         "replace the field's value with text"),
    Verb("type", "type", (Form((_ID, Arg("text", Kind.TEXT))),), "type text into the field, keeping its value"),
    Verb("press", "key", (Form((Arg("key", Kind.TEXT),)),), 'press a key or shortcut ("Enter", "Ctrl+A")'),
    Verb("scroll", "scroll", (Form((_ID,)), Form((Arg("direction", Kind.DIRECTION),))),
         "scroll the element's container down a page, or the page that way"),
    Verb("select", "select", (Form((_ID, Arg("value", Kind.TEXT))),), "choose the option with this label"),
    Verb("check", "check", (Form((_ID,)), Form((_ID, Arg("checked", Kind.BOOL)))),
         "check (or with false, uncheck) a checkbox, radio or switch"),
    Verb("fill", "fill", (Form((_ID, Arg("value", Kind.VALUE)), rounds="fields"),),
         "fill several fields in order: text, an option's label, or true|false for a checkbox"),
    Verb("hover", "hover", (Form((_ID,)),), "move the mouse over the element"),
    Verb("drag", "drag", (Form((_ID, Arg("to_id", Kind.ID))),), "drag the first element and drop it on the second"),
    Verb("navigate", "navigate", (Form((Arg("url", Kind.TEXT),)),), "open the URL in the tab"),
    Verb("goBack", "back", (Form(),), "go back one page"),
    Verb("wait", "wait", (Form((Arg("text", Kind.TEXT),)),), "wait until the text shows on the page"),
    Verb("acceptDialog", "dialog", (Form(fixed=(("action", "accept"),)),
                                    Form((Arg("text", Kind.TEXT),), (("action", "accept"),))),
         "press OK in the page's alert, confirm or prompt (with text: the prompt's answer)"),
    Verb("dismissDialog", "dialog", (Form(fixed=(("action", "dismiss"),)),),
         "press Cancel in the page's confirm or prompt"),
    Verb("finish", None, _REASON, "the task is done (nothing runs)"),
    Verb("fail", None, _REASON, "the task cannot be done (nothing runs)"),
)  # fmt: skip
VERBS_BY_NAME: dict[str, Verb] = {v.name: v for v in VERBS}


def _check_verbs() -> None:
    """Fail at import, not at the first call, if a tool is renamed or loses a param."""
    for verb in VERBS:
        if verb.tool is None:
            continue
        fields = TOOLS_BY_NAME[verb.tool].params.model_fields
        for form in verb.forms:
            names = [form.rounds] if form.rounds else [a.param for a in form.args]
            for name in names + [k for k, _ in form.fixed]:
                if name not in fields:
                    raise RuntimeError(f"grammar verb {verb.name}: tool {verb.tool} has no param {name}")


_check_verbs()


def legend() -> str:
    """How to write an action, from VERBS itself (so it cannot drift from the parser): printed by
    ``browserx legend`` for an agent that acts through ``browserx do`` or a backend's ``action``."""
    lines = [
        "Actions (browserx do 'ACTION', and a backend's `action`): one call, IDs from the view.",
        *(f"  {verb.usage()}: {verb.doc}" for verb in VERBS),
        "Arguments:",
        *(f"  {kind.value}" for kind in Kind),
        '"Strings" are JSON: in double quotes, with backslash escapes ("say \\"hi\\"").',
        "A malformed action is an error naming what was expected at which column.",
    ]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class ActionCall:
    """One parsed action: the verb as written, the tool it runs (None for finish/fail) and the
    tool's params."""

    verb: str
    tool: str | None
    params: dict[str, Any] = field(default_factory=dict, hash=False)  # a dict: not hashed


# -- parsing ----------------------------------------------------------------------------------


def _expected(what: str, got: Token, hint: str = "") -> BadRequest:
    return grammar_error(f"expected {what} at column {got.column}, found {got.describe()}{hint}", got.column)


def _syntax(text: str) -> tuple[Token, list[Token], Token]:
    """The verb, argument and closing-paren tokens of ``text``; checks the verb is known."""
    lx = Lexer(text)
    verb = lx.next()
    if verb.kind != "name":
        raise _expected("an action such as click(12)", verb)
    if verb.text not in VERBS_BY_NAME:
        raise _unknown_verb(verb)
    tok = lx.next()
    if tok.kind != "(":
        raise _expected('"("', tok)
    args: list[Token] = []
    tok = lx.next()
    if tok.kind != ")":
        while True:
            if not _is_arg(tok):
                what = 'an argument (a number, a "string", true or false)' + ("" if args else ' or ")"')
                hint = ""
                if tok.kind == "name":
                    hint = f'; strings need double quotes: "{clip(tok.text, 40)}"'
                elif tok.kind == "char" and tok.text in OTHER_QUOTES:
                    hint = "; strings need double quotes: " + _requoted(text, tok)
                raise _expected(what, tok, hint)
            args.append(tok)
            tok = lx.next()
            if tok.kind == ")":
                break
            if tok.kind != ",":
                raise _expected('")" or ","', tok)
            tok = lx.next()
    end = lx.next()
    if end.kind != "end":
        raise _expected("end of input", end, " (one action per call)")
    return verb, args, tok


# Quotes that are not JSON's: 'hi' (Python, JavaScript) and the typographic ones an LLM may write.
OTHER_QUOTES = {"'": "'", "\u2018": "\u2019", "\u201c": "\u201d", "\u2019": "\u2019"}


def _requoted(text: str, tok: Token) -> str:
    """The string that opens at ``tok`` with another quote, written as JSON: 'hi' → "hi"."""
    start = tok.column  # (the 0-based index after the quote)
    end = text.find(OTHER_QUOTES[tok.text], start)
    inner = text[start:] if end < 0 else text[start:end]
    return clip(json.dumps(inner, ensure_ascii=False), 40)


def _is_arg(tok: Token) -> bool:
    return tok.kind in ("int", "string") or (tok.kind == "name" and tok.text in ("true", "false"))


def _unknown_verb(tok: Token) -> BadRequest:
    close = difflib.get_close_matches(tok.text, VERBS_BY_NAME, n=1, cutoff=0.6)
    close = close or [v for v in VERBS_BY_NAME if v.lower() == tok.text.lower()]
    hint = f"did you mean {close[0]}? " if close else ""
    return grammar_error(
        f"unknown action {tok.describe()} at column {tok.column}; {hint}valid actions: "
        + ", ".join(VERBS_BY_NAME),
        tok.column,
    )


def _convert(tok: Token, kind: Kind) -> tuple[bool, Any]:
    """(fits, value) of an argument token read as ``kind``."""
    if kind is Kind.ID:
        if tok.kind == "int":
            return True, tok.value
        if tok.kind == "string" and isinstance(tok.value, str) and INT.fullmatch(tok.value):
            return True, int(tok.value)
    elif kind is Kind.TEXT:
        if tok.kind == "string":
            return True, tok.value
    elif kind is Kind.BOOL or kind is Kind.VALUE:
        if tok.kind == "name":
            return True, tok.text == "true"
        if kind is Kind.VALUE and tok.kind == "string":
            return True, tok.value
    elif tok.kind == "string" and tok.value in DIRECTIONS:
        return True, tok.value
    return False, None


def _resolve(verb: Verb, args: list[Token], close: Token) -> tuple[dict[str, Any], dict[str, int]]:
    """The params of the form the args fit, and the column each param came from."""
    for form in verb.forms:
        if form.rounds:
            return _resolve_rounds(verb, form, args, close)
    forms = [f for f in verb.forms if len(f.args) == len(args)]
    if not forms:
        arities = sorted({len(f.args) for f in verb.forms})
        column = args[arities[-1]].column if len(args) > arities[-1] else close.column
        expected = " or ".join(str(a) for a in arities)
        plural = "" if arities == [1] else "s"
        raise grammar_error(
            f"wrong number of arguments for {verb.name} at column {column}: expected {expected} "
            f"argument{plural}, found {len(args)}; usage: {verb.usage()}",
            column,
        )
    failures: list[tuple[int, Kind]] = []  # per form: the first arg that does not fit
    for form in forms:
        params: dict[str, Any] = {}
        columns: dict[str, int] = {}
        for index, (arg, tok) in enumerate(zip(form.args, args, strict=True)):
            fits, value = _convert(tok, arg.kind)
            if not fits:
                failures.append((index, arg.kind))
                break
            params[arg.param] = value
            columns[arg.param] = tok.column
        else:
            params.update(form.fixed)
            return params, columns
    # Blame the argument the best-fitting form got furthest to; name every kind tried there.
    index = max(i for i, _ in failures)
    kinds = list(dict.fromkeys(k for i, k in failures if i == index))
    tok = args[index]
    raise grammar_error(
        f"bad argument {index + 1} of {verb.name} at column {tok.column}: expected "
        f"{' or '.join(k.value for k in kinds)}, found {tok.describe()}; usage: {verb.usage()}",
        tok.column,
    )


def _resolve_rounds(
    verb: Verb, form: Form, args: list[Token], close: Token
) -> tuple[dict[str, Any], dict[str, int]]:
    """The params of a form whose args repeat (``Form.rounds``)."""
    size = len(form.args)
    if not args or len(args) % size:
        column = args[-1].column if args else close.column
        raise grammar_error(
            f"wrong number of arguments for {verb.name} at column {column}: expected {size}, {2 * size}, "
            f"{3 * size} ... (a multiple of {size}), found {len(args)}; usage: {verb.usage()}",
            column,
        )
    rounds: list[dict[str, Any]] = []
    for start in range(0, len(args), size):
        one: dict[str, Any] = {}
        for index, (arg, tok) in enumerate(zip(form.args, args[start : start + size], strict=True)):
            fits, value = _convert(tok, arg.kind)
            if not fits:
                raise grammar_error(
                    f"bad argument {start + index + 1} of {verb.name} at column {tok.column}: expected "
                    f"{arg.kind.value}, found {tok.describe()}; usage: {verb.usage()}",
                    tok.column,
                )
            one[arg.param] = value
        rounds.append(one)
    assert form.rounds is not None
    return {form.rounds: rounds, **dict(form.fixed)}, {form.rounds: args[0].column}


def parse_action(text: str) -> ActionCall:
    """Parse one action such as ``click(12)`` or ``setValue(13, "x")``; raise ``GrammarError``
    (bad_request, ``details["column"]``) saying what was expected where."""
    verb_tok, args, close = _syntax(text)
    verb = VERBS_BY_NAME[verb_tok.text]
    params, columns = _resolve(verb, args, close)
    if verb.tool is not None:
        try:
            TOOLS_BY_NAME[verb.tool].params.model_validate(params)
        except ValidationError as exc:  # the grammar and the schemas drifted apart
            problem = exc.errors()[0]
            name = str(problem["loc"][0]) if problem["loc"] else ""
            column = columns.get(name, verb_tok.column)
            raise grammar_error(
                f"invalid {name or 'params'} for {verb.name} at column {column}: {problem['msg']}", column
            ) from exc
    return ActionCall(verb.name, verb.tool, params)


# -- formatting and running ---------------------------------------------------------------------


def _fits(value: Any, kind: Kind) -> bool:
    if kind is Kind.ID:
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if kind is Kind.BOOL:
        return isinstance(value, bool)
    if kind is Kind.DIRECTION:
        return value in DIRECTIONS
    if kind is Kind.VALUE:
        return isinstance(value, str | bool)
    return isinstance(value, str)


def _render(value: Any, kind: Kind) -> str:
    if kind is Kind.ID:
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value, ensure_ascii=False)


def _form_of(verb: Verb, params: Mapping[str, Any]) -> Form | None:
    for form in verb.forms:
        if form.rounds:
            rounds = params.get(form.rounds)
            if set(params) == {form.rounds} and isinstance(rounds, list) and rounds and all(
                isinstance(r, Mapping) and set(r) == {a.param for a in form.args}
                and all(_fits(r[a.param], a.kind) for a in form.args) for r in rounds
            ):  # fmt: skip
                return form
            continue
        names = {a.param for a in form.args} | {k for k, _ in form.fixed}
        if (
            names == set(params)
            and all(params[k] == v for k, v in form.fixed)
            and all(_fits(params[a.param], a.kind) for a in form.args)
        ):
            return form
    return None


def format_action(call: ActionCall) -> str:
    """The canonical text of ``call``: ``parse_action(format_action(c)) == c`` for every call
    ``parse_action`` returns (IDs as numbers, strings JSON-escaped, ``", "`` between args)."""
    verb = VERBS_BY_NAME.get(call.verb)
    form = _form_of(verb, call.params) if verb is not None and verb.tool == call.tool else None
    if verb is None or form is None:
        raise ValueError(f"{call!r} has no form in the action grammar")
    if form.rounds:
        rounds = call.params[form.rounds]
        return f"{verb.name}({', '.join(_render(r[a.param], a.kind) for r in rounds for a in form.args)})"
    return f"{verb.name}({', '.join(_render(call.params[a.param], a.kind) for a in form.args)})"


def ending(call: ActionCall) -> dict[str, Any]:
    """The result of finish()/fail(), which end the task and never reach the host."""
    return {"done": True, "success": call.verb == "finish", "reason": call.params.get("reason")}


def run_action(client: Client, text: str, tab: int | None = None) -> dict[str, Any]:
    """Parse ``text`` and run it: the tool's result (an ActionResult), or for finish/fail, which
    the host never sees, ``{"done": True, "success": ..., "reason": ...}``."""
    call = parse_action(text)
    if call.tool is None:
        return ending(call)
    where = {} if tab is None else {"tab": tab}
    result: dict[str, Any] = client.call(call.tool, **call.params, **where)
    return result


__all__ = [
    "VERBS",
    "ActionCall",
    "GrammarError",
    "ending",
    "format_action",
    "legend",
    "parse_action",
    "run_action",
]
