"""Each tool's implementation, bound to its declaration (control/tools.py).

An implementation is an async function ``(ctx, params)``: ``ctx`` is what the host serves tools
with (its tabs, its settings, the person's controls), ``params`` the tool's params model, validated
by the server and passed whole. Adding a parameter is a change to the params model and to the
function that uses it; nothing in between spells the fields out.

``@implements("name")`` binds a function to the tool of that name, and refuses, when the module
defining it is imported: a name no tool declares, a second implementation of a tool, a function
whose params are not the tool's declared model. ``Bindings.complete()`` (run when control/api.py is
imported) refuses a declared tool that has no implementation. So neither kind of mismatch gets as
far as a host serving it.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from browserx.control.person.controls import PersonControls
from browserx.control.tool_declaration import Tool
from browserx.control.tools import TOOLS
from browserx.relay.connection import ExtensionConnection
from browserx.settings import HostSettings
from browserx.tabs.registry import TabRegistry


@dataclass(frozen=True)
class Context:
    """What every implementation is called with, besides its params."""

    registry: TabRegistry
    settings: HostSettings
    person: PersonControls  # Stop, site rules, tab sharing: every tool runs under them
    socket_path: str  # the control socket this host serves

    @property
    def conn(self) -> ExtensionConnection:
        return self.registry.conn


Implementation = Callable[[Context, Any], Awaitable[Any]]
F = TypeVar("F", bound=Implementation)


class Bindings:
    """The implementations of ``tools``, by tool name."""

    def __init__(self, tools: Iterable[Tool]) -> None:
        self.tools = {t.name: t for t in tools}
        self.bound: dict[str, Implementation] = {}

    def tool(self, name: str) -> Tool:
        tool = self.tools.get(name)
        if tool is None:
            raise RuntimeError(f"an implementation of {name!r}, which no tool declares (control/tools.py)")
        return tool

    def bind(self, name: str, implementation: Implementation) -> None:
        """Bind ``implementation`` to the tool ``name`` (its params checked by the caller)."""
        self.tool(name)
        if name in self.bound:
            raise RuntimeError(f"two implementations of the tool {name!r}")
        self.bound[name] = implementation

    def implements(self, name: str) -> Callable[[F], F]:
        """Decorator: the function ``(ctx, params: <the tool's params model>)`` implements ``name``."""
        tool = self.tool(name)

        def register(fn: F) -> F:
            hints = typing.get_type_hints(fn)
            args = list(inspect.signature(fn).parameters)
            taken = hints.get(args[1]) if len(args) == 2 else None
            if taken is not tool.params:
                raise RuntimeError(
                    f"{fn.__qualname__} implements {name!r}: it must take (ctx, params: "
                    f"{tool.params.__name__}), the tool's declared params"
                )
            self.bind(name, fn)
            return fn

        return register

    def complete(self) -> dict[str, Implementation]:
        """Every declared tool's implementation, in the declared order; an error naming the
        tools without one."""
        missing = [name for name in self.tools if name not in self.bound]
        if missing:
            raise RuntimeError(f"tools declared (control/tools.py) but not implemented: {missing}")
        return {name: self.bound[name] for name in self.tools}


# The host's: the tools of control/tools.py.
BINDINGS = Bindings(TOOLS)
implements = BINDINGS.implements

__all__ = ["BINDINGS", "Bindings", "Context", "Implementation", "implements"]
