"""control/console.py: a replayed console event as the tool gives it, whatever its shape."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from browserx.control.console import message_of
from browserx.relay.protocol import Inbound


def _event(method: str, params: Any) -> Inbound:
    return Inbound(type="event", method=method, params=msgspec.Raw(msgspec.json.encode(params)))


def test_console_calls_and_exceptions() -> None:
    called = _event(
        "Runtime.consoleAPICalled",
        {"type": "warning", "args": [{"type": "string", "value": "low"}, {"type": "number", "value": 3},
                                     {"type": "object", "description": "Object"}, {"type": "undefined"}],
         "stackTrace": {"callFrames": [{"url": "https://x.example/app.js?key=abc", "lineNumber": 9}]}},
    )  # fmt: skip
    assert message_of(called) == {
        "level": "warning", "kind": "console", "text": "low 3 Object undefined",
        "source": "https://x.example/app.js?key=…:10",
    }  # fmt: skip
    thrown = _event(
        "Runtime.exceptionThrown",
        {"exceptionDetails": {"text": "Uncaught", "url": "https://x.example/", "lineNumber": 0,
                              "exception": {"description": "Error: boom\n    at f (https://x.example/:1:1)"}}},
    )  # fmt: skip
    assert message_of(thrown) == {"level": "error", "kind": "exception", "text": "Error: boom",
                                  "source": "https://x.example/:1"}  # fmt: skip
    long = message_of(_event("Runtime.consoleAPICalled", {"type": "log", "args": [{"value": "x" * 5000}]}))
    assert long is not None and len(long["text"]) < 600


@pytest.mark.parametrize(
    "params", [None, [], "x", {"args": "no"}, {"args": [1, None]}, {"exceptionDetails": 5}, {"stackTrace": 3}]
)
def test_shapes_chrome_never_sends_do_not_break_it(params: Any) -> None:
    for method in ("Runtime.consoleAPICalled", "Runtime.exceptionThrown"):
        out = message_of(_event(method, params))
        assert out is None or isinstance(out["text"], str)
