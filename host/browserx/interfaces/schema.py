"""``browserx schema``: the agent tools (control/tools.py) as function-calling definitions, for
agent frameworks that do not speak MCP.

- ``json-schema``: ``[{"name", "description", "parameters"}]``, parameters a JSON Schema object;
- ``openai``: Chat Completions tools, ``[{"type": "function", "function": {"name",
  "description", "parameters"}}]``;
- ``anthropic``: Messages API tools, ``[{"name", "description", "input_schema"}]``.

``strict=True`` (openai only) gives the variant OpenAI's strict mode (Structured Outputs) accepts:
every property required, the optional ones nullable (null = the host's default, said in the
description), ``additionalProperties: false`` on every object, only the keywords strict mode
supports, and ``"strict": true`` on each function. Arguments a model writes to it go back to the
plain form with :func:`from_strict` (nulls dropped).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any, Literal

from browserx.control.tool_declaration import Tool
from browserx.control.tools import AGENT_TOOLS, TOOLS_BY_NAME
from browserx.errors import BadRequest

Format = Literal["json-schema", "openai", "anthropic"]
FORMATS: tuple[Format, ...] = ("json-schema", "openai", "anthropic")

# The keywords OpenAI's strict mode supports (its Structured Outputs guide, "Supported schemas"):
# structure, then per type: strings pattern (format: a short list, unused here), numbers
# multipleOf/maximum/exclusiveMaximum/minimum/exclusiveMinimum, arrays minItems/maxItems. Anything
# else (default, title, minLength, maxLength, ...) is dropped.
STRICT_KEYWORDS = frozenset(
    {"type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "$ref",
     "$defs", "description", "pattern", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
     "exclusiveMinimum", "minItems", "maxItems"}
)  # fmt: skip
NULL: dict[str, Any] = {"type": "null"}


def parameters(tool: Tool) -> dict[str, Any]:
    """The tool's params as a JSON Schema object, without pydantic's titles (tokens, no meaning)."""
    schema = tool.json_schema()
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
    return schema


def strict_parameters(tool: Tool) -> dict[str, Any]:
    """The tool's params in OpenAI's strict-mode subset of JSON Schema."""
    schema = _strict(copy.deepcopy(parameters(tool)))
    for name, definition in schema.get("$defs", {}).items():
        schema["$defs"][name] = _strict(definition)
    return schema


def _strict(node: dict[str, Any]) -> dict[str, Any]:
    """One schema node and what it contains, made strict (in place; returns it)."""
    if "properties" in node or node.get("type") == "object":
        properties: dict[str, Any] = node.setdefault("properties", {})
        required = set(node.get("required", []))
        for name, prop in properties.items():
            default = prop.get("default")
            prop = _strict(prop)
            properties[name] = prop if name in required else _nullable(prop, default)
        node["required"] = list(properties)
        node["additionalProperties"] = False
    if isinstance(node.get("items"), dict):
        node["items"] = _strict(node["items"])
    if "anyOf" in node:
        node["anyOf"] = [_strict(branch) for branch in node["anyOf"]]
    for keyword in [k for k in node if k not in STRICT_KEYWORDS]:
        del node[keyword]
    return node


def _nullable(prop: dict[str, Any], default: Any) -> dict[str, Any]:
    """An optional property as a required one that may be null: null stands for its default."""
    if default is not None and "description" in prop:
        prop["description"] += f" null means the default, {json.dumps(default)}."
    if "anyOf" in prop:
        if NULL not in prop["anyOf"]:
            prop["anyOf"].append(dict(NULL))
        return prop
    description = prop.pop("description", None)
    wrapped: dict[str, Any] = {"anyOf": [prop, dict(NULL)]}
    if description is not None:
        wrapped["description"] = description
    return wrapped


def from_strict(arguments: dict[str, Any]) -> dict[str, Any]:
    """Arguments written against the strict schema, as the host takes them: every null dropped
    (null is the default), in nested objects too."""
    return {k: _drop_nulls(v) for k, v in arguments.items() if v is not None}


def _drop_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return from_strict(value)
    if isinstance(value, list):
        return [_drop_nulls(v) for v in value]
    return value


def pick(names: Sequence[str] | None) -> list[Tool]:
    if not names:
        return list(AGENT_TOOLS)
    unknown = [n for n in names if n not in TOOLS_BY_NAME or not TOOLS_BY_NAME[n].agent]
    if unknown:
        raise BadRequest(
            f"unknown tool(s) {', '.join(unknown)}; the agent tools are {', '.join(t.name for t in AGENT_TOOLS)}"
        )
    return [TOOLS_BY_NAME[n] for n in names]


def tool_definitions(
    fmt: Format = "json-schema", names: Sequence[str] | None = None, strict: bool = False
) -> list[dict[str, Any]]:
    if strict and fmt != "openai":
        raise BadRequest(f"strict applies to the openai format (OpenAI's strict mode), not {fmt}.")
    out: list[dict[str, Any]] = []
    for tool in pick(names):
        if strict:
            out.append({"type": "function", "function": {"name": tool.name, "description": tool.description,
                                                         "parameters": strict_parameters(tool), "strict": True}})  # fmt: skip
            continue
        schema = parameters(tool)
        if fmt == "openai":
            out.append({"type": "function", "function": {"name": tool.name, "description": tool.description,
                                                         "parameters": schema}})  # fmt: skip
        elif fmt == "anthropic":
            out.append({"name": tool.name, "description": tool.description, "input_schema": schema})
        else:
            out.append({"name": tool.name, "description": tool.description, "parameters": schema})
    return out
