"""The tokens of an action line (interfaces/grammar.py): names, integers, JSON strings and the
punctuation ``(`` ``,`` ``)``, each with its 1-based column. Strings are checked as they are
scanned — escapes, control characters, unpaired surrogates, the closing quote — so an error points
at the offending character; tokens come on demand, so the first error from the left is the one
reported."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Literal

from browserx.errors import BadRequest, clip

# A parse error is a BadRequest carrying ``column`` in its details. Not a subclass: the error tree
# keeps one class per code, all declared in errors.py (tests/test_errors.py checks it), and a
# second class with the code bad_request would break that.
GrammarError = BadRequest

TokenKind = Literal["name", "int", "string", "(", ")", ",", "end", "char"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
INT = re.compile(r"[0-9]+")  # not \d: that also matches other scripts' digits
_HEX4 = re.compile(r"[0-9A-Fa-f]{4}")
_SPACE = " \t\r\n"
_ESCAPES = '"\\/bfnrt'  # and u, checked apart
_PUNCT: dict[str, TokenKind] = {"(": "(", ")": ")", ",": ","}


@dataclass(frozen=True)
class Token:
    kind: TokenKind
    text: str  # the source text ("" at the end)
    column: int  # 1-based, of its first character
    value: int | str | None = None  # int tokens: the number; string tokens: the decoded text

    def describe(self) -> str:
        if self.kind == "end":
            return "end of input"
        if self.kind == "string":  # already quoted
            return clip(self.text, 40)
        return json.dumps(clip(self.text, 40), ensure_ascii=False)


def grammar_error(message: str, column: int) -> BadRequest:
    return GrammarError(message, column=column)


class Lexer:
    """Tokens on demand, so an error is the first one from the left (a bad string after a missing
    comma reports the comma)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def next(self) -> Token:
        text, n, pos = self.text, len(self.text), self.pos
        while pos < n and text[pos] in _SPACE:
            pos += 1
        if pos >= n:
            self.pos = pos
            return Token("end", "", pos + 1)
        ch = text[pos]
        if ch == '"':
            end = self._string_end(pos)
            tok = Token("string", text[pos:end], pos + 1, self._decode(pos, end))
        elif (m := _NAME.match(text, pos)) is not None:
            tok = Token("name", m.group(), pos + 1)
        elif (m := INT.match(text, pos)) is not None:
            tok = Token("int", m.group(), pos + 1, int(m.group()))
        elif ch in _PUNCT:
            tok = Token(_PUNCT[ch], ch, pos + 1)
        else:
            tok = Token("char", ch, pos + 1)  # the parser says what it expected instead
        self.pos = pos + len(tok.text)
        return tok

    def _string_end(self, start: int) -> int:
        """The index after the closing quote of the string opening at ``start``. Escapes and
        control characters are checked here, so the column points at the offending character."""
        text, n, i = self.text, len(self.text), start + 1
        high: int | None = None  # index of a \\uD800-\\uDBFF escape still waiting for its low half
        while i < n:
            c = text[i]
            if c == "\\" and text.startswith("u", i + 1):
                if _HEX4.fullmatch(text, i + 2, i + 6) is None:
                    raise grammar_error(
                        f"invalid escape in string at column {i + 1}: \\u takes four hex digits (\\u00e9)",
                        i + 1,
                    )
                code = int(text[i + 2 : i + 6], 16)
                is_low = 0xDC00 <= code <= 0xDFFF
                if (high is None) == is_low:  # a low half alone, or a high half without its low
                    raise _lone_surrogate(i if high is None else high)
                high = i if 0xD800 <= code <= 0xDBFF else None
                i += 6
                continue
            if high is not None:
                raise _lone_surrogate(high)
            if c == '"':
                return i + 1
            if c == "\\":
                if i + 1 >= n:
                    break
                if text[i + 1] not in _ESCAPES:
                    raise grammar_error(
                        f"invalid escape {text[i : i + 2]} in string at column {i + 1}; strings use "
                        'JSON escapes: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX',
                        i + 1,
                    )
                i += 2
                continue
            if 0xD800 <= ord(c) <= 0xDFFF:  # from undecodable input (surrogateescape): unsendable
                raise _lone_surrogate(i)
            if ord(c) < 0x20:
                raise grammar_error(
                    f"control character U+{ord(c):04X} in string at column {i + 1}; write it as an "
                    "escape (\\n, \\t, \\u0001)",
                    i + 1,
                )
            i += 1
        if high is not None:
            raise _lone_surrogate(high)
        raise grammar_error(
            f'expected a closing " at column {n + 1} (the string starts at column {start + 1})', n + 1
        )

    def _decode(self, start: int, end: int) -> str:
        try:
            value = json.loads(self.text[start:end])
        except json.JSONDecodeError as exc:  # the scan above should have caught it already
            raise grammar_error(
                f"bad string at column {start + 1 + exc.pos}: {exc.msg}", start + 1 + exc.pos
            ) from exc
        assert isinstance(value, str)
        return value


def _lone_surrogate(index: int) -> BadRequest:
    return grammar_error(
        f"unpaired surrogate in string at column {index + 1}: \\uD800-\\uDFFF only come as a high-low "
        "pair (or write the character itself)",
        index + 1,
    )


__all__ = ["INT", "GrammarError", "Lexer", "Token", "TokenKind", "grammar_error"]
