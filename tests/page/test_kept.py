"""page/kept.py: functions kept in browserx's world — sent whole once per world, called by name
after; sent whole again where the world turns out not to hold them (a stub's throw) or a frame
navigated since; a page error raised as before; and the stub's signal not forgeable by the page.
The forms themselves run under node (tests/page/test_kept_js.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest
from tests.fakes import FakeConnection, RecordedPage

from browserx.errors import CdpError, PageScriptError
from browserx.page.kept import MISSING, forget, holds, kept, kept_call, stub_missed
from browserx.page_js import Snippet
from browserx.relay.session import TabSession

T = TypeVar("T")
SUM = Snippet("actions/pointer_hit.js", "function(x, y) { return x + y; }")


def run(work: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(work, 2))


class World:
    """Browserx's worlds as the renderer keeps functions in them: by context id, what each holds;
    each call's declaration logged as "whole" or "stub"."""

    def __init__(self) -> None:
        self.page = RecordedPage("hello")  # its stub_missed: keeps what is sent whole
        self.sent: list[str] = []
        self.throws: str | None = None  # the function's own page error

    def __call__(self, method: str, params: dict[str, Any], session_id: str | None) -> Any:
        if method != "Runtime.callFunctionOn":
            return {}  # attaching: Page.enable and the like
        declaration = params["functionDeclaration"]
        self.sent.append("whole" if declaration == kept(SUM).whole.source else "stub")
        missed = self.page.stub_missed(declaration)
        if missed is not None:
            return missed
        if self.throws is not None:
            return {"result": {"type": "object"},
                    "exceptionDetails": {"exceptionId": 1, "text": "Uncaught", "lineNumber": 0, "columnNumber": 0,
                                         "exception": {"type": "object", "description": self.throws}}}  # fmt: skip
        args = [a["value"] for a in params["arguments"]]
        return {"result": {"type": "number", "value": args[0] + args[1]}}


def session_over(world: World) -> TabSession:
    return TabSession(7, FakeConnection(world))  # type: ignore[arg-type]


def test_a_function_goes_whole_once_per_world_then_by_its_name() -> None:
    async def body() -> list[int]:
        world = World()
        session = session_over(world)
        values = [await kept_call(session, SUM, 1, 2, world=(None, 5)) for _ in range(3)]
        values.append(await kept_call(session, SUM, 3, 4, world=(None, 6)))  # another world: whole
        assert world.sent == ["whole", "stub", "stub", "whole"]
        assert holds(session, (None, 5), SUM) and holds(session, (None, 6), SUM)
        assert len(kept(SUM).stub.source) < 300 and kept(SUM).stub.source.endswith(
            "//# sourceURL=browserx/actions/pointer_hit.js\n"
        )
        return values

    assert run(body()) == [3, 3, 3, 7]


def test_a_world_that_does_not_hold_what_was_recorded_gets_it_whole_again() -> None:
    async def body() -> None:
        world = World()
        session = session_over(world)
        assert await kept_call(session, SUM, 1, 2, world=(None, 5)) == 3
        world.page.kept.clear()  # a new document whose world has the same context id
        assert await kept_call(session, SUM, 1, 2, world=(None, 5)) == 3
        assert world.sent == ["whole", "stub", "whole"]
        assert await kept_call(session, SUM, 1, 2, world=(None, 5)) == 3
        assert world.sent[-1] == "stub"

    run(body())


def test_a_record_is_void_once_a_frame_navigated() -> None:
    async def body() -> None:
        world = World()
        session = session_over(world)
        await kept_call(session, SUM, 1, 2, world=(None, 5))
        session.frames_changed_at += 1  # Page.frameNavigated and the like
        assert not holds(session, (None, 5), SUM)
        await kept_call(session, SUM, 1, 2, world=(None, 5))
        assert world.sent == ["whole", "whole"]  # no stub tried on a world that may be new
        forget(session, (None, 5))
        assert not holds(session, (None, 5), SUM)

    run(body())


def test_the_functions_own_page_error_is_raised_and_it_counts_as_kept() -> None:
    async def body() -> None:
        world = World()
        world.throws = "TypeError: el.getBoundingClientRect is not a function"
        session = session_over(world)
        with pytest.raises(PageScriptError) as raised:
            await kept_call(session, SUM, 1, 2, world=(None, 5))
        assert raised.value.details["snippet"] == "actions/pointer_hit.js"
        assert holds(session, (None, 5), SUM)  # it ran (and threw): the world keeps it
        with pytest.raises(PageScriptError):
            await kept_call(session, SUM, 1, 2, world=(None, 5))
        assert world.sent == ["whole", "stub"]  # a throw of its own is not a missing function

    run(body())


def test_a_page_cannot_forge_the_missing_signal() -> None:
    """A page handler that a snippet runs (a focus listener) may throw the words of the signal; the
    token it lacks keeps that from making the host run the snippet a second time."""

    async def body() -> None:
        world = World()
        session = session_over(world)
        await kept_call(session, SUM, 1, 2, world=(None, 5))
        world.throws = "Error: browserx: kept function missing"
        with pytest.raises(PageScriptError):
            await kept_call(session, SUM, 1, 2, world=(None, 5))
        assert world.sent == ["whole", "stub"]

    run(body())
    assert MISSING.startswith("browserx: kept function missing ") and len(MISSING) > 40


def test_a_command_that_failed_keeps_nothing() -> None:
    def gone(method: str, params: dict[str, Any], session_id: str | None) -> Any:
        raise CdpError("Cannot find context with specified id")

    async def body() -> None:
        session = TabSession(7, FakeConnection(gone))  # type: ignore[arg-type]
        with pytest.raises(CdpError):
            await kept_call(session, SUM, 1, 2, world=(None, 5))
        assert not holds(session, (None, 5), SUM)

    run(body())


def test_a_batch_answer_is_read_as_a_stub_that_missed_only_with_the_token() -> None:
    page = RecordedPage("hello")
    missed = page.stub_missed(kept(SUM).stub.source)
    assert missed is not None and stub_missed(missed)
    assert not stub_missed({"result": {"type": "number", "value": 3}})
    assert not stub_missed(CdpError("skipped"))
    forged = {
        "exceptionDetails": {
            "text": "Uncaught",
            "exception": {"description": "browserx: kept function missing"},
        }
    }
    assert not stub_missed(forged)
