"""``browserx schema``: the agent tools (control/tools.py) as function-calling definitions, for
agent frameworks that do not speak MCP.

- ``json-schema``: ``[{"name", "description", "parameters"}]``, parameters a JSON Schema object;
- ``openai``: Chat Completions tools, ``[{"type": "function", "function": {"name",
  "description", "parameters"}}]``;
- ``anthropic``: Messages API tools, ``[{"name", "description", "input_schema"}]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from browserx.control.tools import AGENT_TOOLS, TOOLS_BY_NAME, Tool
from browserx.errors import BadRequest

Format = Literal["json-schema", "openai", "anthropic"]
FORMATS: tuple[Format, ...] = ("json-schema", "openai", "anthropic")


def parameters(tool: Tool) -> dict[str, Any]:
    """The tool's params as a JSON Schema object, without pydantic's titles (tokens, no meaning)."""
    schema = tool.json_schema()
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
    return schema


def pick(names: Sequence[str] | None) -> list[Tool]:
    if not names:
        return list(AGENT_TOOLS)
    unknown = [n for n in names if n not in TOOLS_BY_NAME or not TOOLS_BY_NAME[n].agent]
    if unknown:
        raise BadRequest(
            f"unknown tool(s) {', '.join(unknown)}; the agent tools are {', '.join(t.name for t in AGENT_TOOLS)}"
        )
    return [TOOLS_BY_NAME[n] for n in names]


def tool_definitions(fmt: Format = "json-schema", names: Sequence[str] | None = None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for tool in pick(names):
        schema = parameters(tool)
        if fmt == "openai":
            out.append({"type": "function", "function": {"name": tool.name, "description": tool.description,
                                                         "parameters": schema}})  # fmt: skip
        elif fmt == "anthropic":
            out.append({"name": tool.name, "description": tool.description, "input_schema": schema})
        else:
            out.append({"name": tool.name, "description": tool.description, "parameters": schema})
    return out
