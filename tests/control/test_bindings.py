"""Each tool's implementation is bound to its declaration (control/bindings.py): a declared tool
without an implementation, an implementation of no declared tool, one taking other params than the
declared model, and an action whose parameters are not its params' fields all fail at import."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import pytest

from browserx.actions.result import ActionResult
from browserx.control import api
from browserx.control.action_methods import ACTIONS, Action, arguments, bind_actions
from browserx.control.bindings import BINDINGS, Bindings, Context
from browserx.control.schemas import ClickParams, HoverParams, KeyParams, TabsParams
from browserx.control.tool_declaration import READS, Tool
from browserx.control.tools import TOOLS
from browserx.relay.dialogs import AutoAnswers
from browserx.settings import HostSettings
from browserx.tabs.downloads import DownloadLog
from browserx.tabs.openers import Openers

PEEK = Tool("peek", "Look.", TabsParams, title="Peek", hints=READS)
POKE = Tool("poke", "Poke.", ClickParams, acts=True, title="Poke", hints=READS)


def test_every_declared_tool_is_implemented_in_the_declared_order() -> None:
    assert list(api.IMPLEMENTATIONS) == [t.name for t in TOOLS]
    assert BINDINGS.complete() == api.IMPLEMENTATIONS
    # The actions are exactly the tools declared as acting on the page, but fill, which is made
    # of them (control/fill.py).
    assert set(ACTIONS) | {"fill"} == {t.name for t in TOOLS if t.acts}


def test_a_declared_tool_without_an_implementation_is_refused() -> None:
    bindings = Bindings([*TOOLS, PEEK])
    bind_actions(bindings, ACTIONS)
    for name, implementation in api.IMPLEMENTATIONS.items():
        if name not in ACTIONS:
            bindings.bind(name, implementation)
    with pytest.raises(RuntimeError, match="not implemented: \\['peek'\\]"):
        bindings.complete()


def test_an_implementation_of_no_declared_tool_is_refused() -> None:
    bindings = Bindings(TOOLS)
    with pytest.raises(RuntimeError, match="no tool declares"):

        @bindings.implements("peek")
        async def peek(ctx: Context, p: TabsParams) -> None: ...

    with pytest.raises(RuntimeError, match="no tool declares"):
        bind_actions(bindings, {"poke": ACTIONS["click"]})


def test_an_implementation_takes_its_tools_declared_params_once() -> None:
    bindings = Bindings([PEEK])
    with pytest.raises(RuntimeError, match="TabsParams"):

        @bindings.implements("peek")
        async def wrong(ctx: Context, p: ClickParams) -> None: ...

    with pytest.raises(RuntimeError, match="TabsParams"):

        @bindings.implements("peek")
        async def unannotated(ctx, p):  # type: ignore[no-untyped-def]
            ...

    @bindings.implements("peek")
    async def peek(ctx: Context, p: TabsParams) -> None: ...

    with pytest.raises(RuntimeError, match="two implementations"):

        @bindings.implements("peek")
        async def again(ctx: Context, p: TabsParams) -> None: ...

    assert bindings.complete() == {"peek": peek}


async def _click(tab: Any, element_id: int, button: str = "left", *, expect: Any = None) -> ActionResult:
    raise AssertionError


def test_an_action_takes_exactly_its_params_fields() -> None:
    # ClickParams has count, modifiers and force too: a field the action would not take.
    with pytest.raises(RuntimeError, match="not the action"):
        Action(_click).check(POKE)
    # The action takes more than the tool gives (hover has no button, count, modifiers).
    with pytest.raises(RuntimeError, match="not the action"):
        ACTIONS["click"].check(Tool("poke", "Poke.", HoverParams, acts=True, title="Poke", hints=READS))
    # A tool that does not declare that it acts is not an action.
    with pytest.raises(RuntimeError, match="acts=False"):
        ACTIONS["click"].check(Tool("poke", "Poke.", ClickParams, title="Poke", hints=READS))
    ACTIONS["click"].check(POKE)


def test_an_action_is_called_with_its_params_whole() -> None:
    assert arguments(KeyParams(key="Enter", id=4, tab=2)) == {
        "key": "Enter", "modifiers": [], "element_id": 4, "repeat": 1, "expect": None,
    }  # fmt: skip
    calls: list[tuple[Any, dict[str, Any]]] = []
    tab = SimpleNamespace(
        tab_id=2,
        lock=asyncio.Lock(),
        session=SimpleNamespace(auto_answers=AutoAnswers()),
        downloads=DownloadLog(),
    )

    async def key(tab: Any, **kwargs: Any) -> ActionResult:
        calls.append((tab, kwargs))
        return ActionResult(success=True, action="key", id=kwargs["element_id"])

    async def resolve(tab_id: int | None) -> Any:
        assert tab_id == 2
        return tab

    ctx = Context(
        cast(Any, SimpleNamespace(resolve=resolve, openers=Openers())),
        HostSettings(),
        cast(Any, SimpleNamespace(effective=SimpleNamespace(confirm_sensitive=False))),
        "sock",
    )
    out = asyncio.run(Action(key, reads_page=False)(ctx, KeyParams(key="a", id=7, repeat=3, tab=2)))
    assert calls == [(tab, {"key": "a", "modifiers": [], "element_id": 7, "repeat": 3, "expect": None})]
    assert out["tab"] == 2 and out["id"] == 7 and out["success"] is True


def test_an_extension_of_another_version_is_refused_naming_both_and_the_fix() -> None:
    from browserx import __version__
    from browserx.control.api import check_versions
    from browserx.errors import VersionMismatch

    check_versions(__version__)
    with pytest.raises(VersionMismatch):  # a hello without a version: older than versions in hellos
        check_versions("unknown")
    with pytest.raises(VersionMismatch) as info:
        check_versions("0.0.9")
    assert "0.0.9" in info.value.message and __version__ in info.value.message
    assert "browserx extension" in info.value.message and info.value.details == {
        "extension": "0.0.9",
        "host": __version__,
    }
