"""`browserx schema`: the agent tools in each vendor's function-calling shape, valid JSON Schema."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from browserx.control.tools import AGENT_TOOLS
from browserx.errors import BadRequest
from browserx.interfaces.cli import main
from browserx.interfaces.schema import tool_definitions

NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")  # what OpenAI and Anthropic accept as a tool name


def test_every_agent_tool_has_a_valid_json_schema_that_checks_arguments() -> None:
    tools = tool_definitions("json-schema")
    assert [t["name"] for t in tools] == [t.name for t in AGENT_TOOLS]
    for tool in tools:
        assert set(tool) == {"name", "description", "parameters"}
        jsonschema.Draft202012Validator.check_schema(tool["parameters"])
        assert tool["parameters"]["type"] == "object"
    click = jsonschema.Draft202012Validator(next(t for t in tools if t["name"] == "click")["parameters"])
    assert click.is_valid({"id": 12, "tab": 3, "button": "right"})
    assert not click.is_valid({"id": "twelve"})
    assert not click.is_valid({"tab": 3})  # id is required
    assert not click.is_valid({"id": 12, "colour": "red"})  # unknown parameters are refused


def test_openai_shape_field_by_field() -> None:
    for tool in tool_definitions("openai"):
        assert set(tool) == {"type", "function"} and tool["type"] == "function"
        function = tool["function"]
        assert set(function) == {"name", "description", "parameters"}
        assert NAME.match(function["name"]) and function["description"]
        assert function["parameters"]["type"] == "object"
        jsonschema.Draft202012Validator.check_schema(function["parameters"])


def test_anthropic_shape_field_by_field() -> None:
    for tool in tool_definitions("anthropic"):
        assert set(tool) == {"name", "description", "input_schema"}
        assert NAME.match(tool["name"]) and tool["description"]
        assert tool["input_schema"]["type"] == "object"
        jsonschema.Draft202012Validator.check_schema(tool["input_schema"])


def test_a_subset_of_tools_and_unknown_ones() -> None:
    assert [t["name"] for t in tool_definitions("anthropic", ["click", "snapshot"])] == ["click", "snapshot"]
    with pytest.raises(BadRequest, match="agent tools are"):
        tool_definitions("openai", ["click", "cdp"])  # an operator tool, not an agent's


@pytest.mark.parametrize("fmt", ["json-schema", "openai", "anthropic"])
def test_the_cli_prints_valid_json_and_nothing_else(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--format", fmt, "--tools", "click,type"]) == 0
    out = capsys.readouterr().out
    assert len(json.loads(out)) == 2
