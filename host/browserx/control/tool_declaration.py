"""What declaring a tool takes (control/tools.py declares every one): ``Tool``, its name,
description for a model, params model and how clients call it, and ``Hints``, what it does to
its world, with the common kinds of that. Light on purpose, as tools.py: pydantic only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from browserx.control.schemas import Params


@dataclass(frozen=True)
class Hints:
    """What a tool does to its world, for clients that decide which calls to run unasked and
    which to confirm (MCP's tool annotations): hints, not guarantees."""

    read_only: bool  # changes nothing: not the page, not the tabs
    destructive: bool  # may undo or lose something (submit, delete, pay, close); False: additive only
    idempotent: bool  # a second identical call has no further effect
    open_world: bool  # may reach beyond the browser: pages load, forms post


# The common kinds; a tool that fits none spells its own.
READS = Hints(read_only=True, destructive=False, idempotent=True, open_world=False)
# Input a page reacts to as it likes: a click or Enter may submit, delete, pay.
INPUT = Hints(read_only=False, destructive=True, idempotent=False, open_world=True)
# A control's value or state, a page or a pointer position: setting it twice changes nothing more.
SETS = Hints(read_only=False, destructive=False, idempotent=True, open_world=True)
# Scroll, history, a new tab: each call goes further.
MOVES = Hints(read_only=False, destructive=False, idempotent=False, open_world=True)
TAB_FOCUS = Hints(read_only=False, destructive=False, idempotent=True, open_world=False)


@dataclass(frozen=True)
class Tool:
    name: str  # the wire, MCP, schema and CLI name
    description: str  # for an LLM: what it does, when to use it
    params: type[Params]
    positional: tuple[str, ...] = ()  # parameters the Client and CLI take by position, in order
    agent: bool = True  # offered to agents (MCP, function-calling schemas); False: operator tools
    unwrap: str | None = None  # the Client returns result[unwrap] instead of the whole result
    python_name: str | None = None  # the Client method, when not ``name``
    acts: bool = False  # changes the page (an action: returns an ActionResult)
    # The CLI's spelling of a field where it is not ``--field-name`` (a positional given here is
    # an option on the command line); a flag's spelling says which way it sets the field.
    cli: Mapping[str, str] = field(default_factory=dict)
    binary: bool = False  # the result carries an image (base64 ``data``): the CLI writes it to --out
    # Required of every tool (keyword-only, no default): a name for people and what the tool does
    # to the world; MCP clients show the one and decide on confirmations by the other.
    title: str = field(kw_only=True)
    hints: Hints = field(kw_only=True)

    @property
    def method_name(self) -> str:
        return self.python_name or self.name

    def json_schema(self) -> dict[str, Any]:
        """The params as JSON Schema (draft 2020-12, as pydantic writes it), each description as
        plain text for a model (a nested model's is its docstring: wrapped, reStructuredText)."""
        schema = self.params.model_json_schema()
        schema.pop("title", None)
        schema.pop("description", None)
        _plain_descriptions(schema)
        return schema


def plain_text(text: str) -> str:
    """One line with single backquotes: a description as a model reads it."""
    return " ".join(text.replace("``", "`").split())


def _plain_descriptions(node: Any) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                node[key] = plain_text(value)
            else:
                _plain_descriptions(value)
    elif isinstance(node, list):
        for item in node:
            _plain_descriptions(item)


__all__ = ["INPUT", "MOVES", "READS", "SETS", "TAB_FOCUS", "Hints", "Tool", "plain_text"]
