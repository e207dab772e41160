"""The tokens of an action line (interfaces/grammar_lexer.py): kinds, columns and values; strings
decoded as JSON strings; a bad string reported at the offending character, as a ``bad_request``
with its column."""

from __future__ import annotations

import pytest

from browserx.errors import BadRequest
from browserx.interfaces.grammar_lexer import GrammarError, Lexer, Token


def tokens(text: str) -> list[Token]:
    """Every token of ``text``, up to and with the end."""
    lexer = Lexer(text)
    out = [lexer.next()]
    while out[-1].kind != "end":
        out.append(lexer.next())
    return out


def test_tokens_kinds_columns_and_values() -> None:
    found = tokens('  setValue ( 13 ,\t"x" )\n')
    assert [(t.kind, t.text, t.column, t.value) for t in found] == [
        ("name", "setValue", 3, None),
        ("(", "(", 12, None),
        ("int", "13", 14, 13),
        (",", ",", 17, None),
        ("string", '"x"', 19, "x"),
        (")", ")", 23, None),
        ("end", "", 25, None),
    ]
    assert [t.kind for t in tokens("click(-1.5);")] == [
        "name",
        "(",
        "char",
        "int",
        "char",
        "int",
        ")",
        "char",
        "end",
    ]
    assert tokens("٣")[0].kind == "char"  # digits of other scripts are not numbers


def test_strings_are_json_strings() -> None:
    (string, _) = tokens(r'"a\"b\\c\/\n\t\u00e9\ud83d\ude00"')
    assert string.value == 'a"b\\c/\n\té😀'
    assert tokens('"日本語 ✓"')[0].value == "日本語 ✓"
    assert tokens('""')[0].value == ""


def test_what_a_token_says_in_messages() -> None:
    assert tokens("")[0].describe() == "end of input"
    assert tokens('"abc"')[0].describe() == '"abc"'  # already quoted
    assert tokens("x" * 100)[0].describe() == '"' + "x" * 40 + '… (100 characters)"'  # clipped, JSON-quoted


BAD_STRINGS: list[tuple[str, int, str]] = [
    ('type(1, "\\q")', 10, "invalid escape \\q in string at column 10"),
    ('type(1, "\\u12")', 10, "\\u takes four hex digits"),
    ('type(1, "\\ud800")', 10, "unpaired surrogate in string"),
    ('type(1, "\\udc00")', 10, "unpaired surrogate in string"),
    ('type(1, "\\ud800\\u0041")', 10, "unpaired surrogate in string"),  # a high half, then no low one
    ('type(1, "a\udc80")', 11, "unpaired surrogate in string at column 11"),  # undecodable argv byte
    ('type(1, "a\nb")', 11, "control character U+000A in string at column 11"),
    ('type(1, "abc', 13, 'expected a closing " at column 13 (the string starts at column 9)'),
    ('type(1, "abc\\', 14, 'expected a closing " at column 14'),
]


@pytest.mark.parametrize(("text", "column", "fragment"), BAD_STRINGS)
def test_a_bad_string_is_reported_at_the_offending_character(text: str, column: int, fragment: str) -> None:
    with pytest.raises(GrammarError) as info:
        tokens(text)
    err = info.value
    assert err.code == "bad_request" and isinstance(err, BadRequest)
    assert err.details == {"column": column}
    assert fragment in err.message
    assert f"column {column}" in err.message


def test_tokens_come_on_demand() -> None:
    lexer = Lexer('click 12 "\\q"')
    assert lexer.next().text == "click"
    assert lexer.next().value == 12  # the bad string after it is not read yet
    with pytest.raises(GrammarError):
        lexer.next()
