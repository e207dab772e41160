"""`browserx schema`: the agent tools in each vendor's function-calling shape, valid JSON Schema;
the strict variant held against OpenAI's published strict-mode rules (openai_strict.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from browserx.control.tools import AGENT_TOOLS, TOOLS_BY_NAME
from browserx.errors import BadRequest
from browserx.interfaces.cli import main
from browserx.interfaces.schema import from_strict, tool_definitions
from tests.interfaces.openai_strict import violations

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


# -- the plain variant stays as it was; the strict variant is what OpenAI's strict mode accepts ----

PLAIN = Path(__file__).with_name("schema_plain.json")  # `browserx schema` before the strict variant


def test_the_plain_variants_are_unchanged() -> None:
    plain = tool_definitions("json-schema")
    assert plain == json.loads(PLAIN.read_text(encoding="utf-8")), (
        "the plain schemas changed; if on purpose: .venv/bin/browserx schema > tests/interfaces/schema_plain.json"
    )
    tool_definitions("openai", strict=True)  # making the strict variant leaves the plain one alone
    assert tool_definitions("json-schema") == plain
    reshaped = [
        {"type": "function", "function": {"name": t["name"], "description": t["description"],
                                          "parameters": t["parameters"]}} for t in plain
    ]  # fmt: skip
    assert tool_definitions("openai") == reshaped
    assert tool_definitions("anthropic") == [
        {"name": t["name"], "description": t["description"], "input_schema": t["parameters"]} for t in plain
    ]


def test_the_strict_variant_keeps_every_rule_of_openai_strict_mode() -> None:
    tools = tool_definitions("openai", strict=True)
    assert [t["function"]["name"] for t in tools] == [t.name for t in AGENT_TOOLS]
    for tool in tools:
        assert violations(tool) == [], tool["function"]["name"]
        jsonschema.Draft202012Validator.check_schema(tool["function"]["parameters"])


def test_the_checker_catches_what_strict_mode_refuses() -> None:
    plain = tool_definitions("openai", ["click"])[0]
    found = "\n".join(violations(plain))
    for rule in ("strict is not true", "not every property is required", "unsupported keywords ['default']"):
        assert rule in found, found
    strict = tool_definitions("openai", ["click"], strict=True)[0]
    strict["function"]["parameters"]["$defs"]["ElementMatch"]["additionalProperties"] = True
    strict["function"]["parameters"]["properties"]["id"]["minLength"] = 1
    found = "\n".join(violations(strict))
    assert "ElementMatch: additionalProperties is not false" in found and "['minLength']" in found, found


def _sample(schema: dict[str, Any], root: dict[str, Any]) -> Any:
    """A value of a (strict) schema: null where allowed, else the first enum value or a plain one."""
    if "$ref" in schema:
        return _sample(root["$defs"][schema["$ref"].removeprefix("#/$defs/")], root)
    branches = schema.get("anyOf", [schema])
    if {"type": "null"} in branches:
        return None
    first = branches[0]
    if "enum" in first:
        return first["enum"][0]
    kind = first["type"]
    if kind == "object":
        return {name: _sample(prop, root) for name, prop in first["properties"].items()}
    if kind == "array":  # as few items as it takes
        return [_sample(first["items"], root)] * first.get("minItems", 0)
    return {"integer": 1, "number": 1.0, "string": "x", "boolean": True}[kind]


def test_what_a_model_writes_to_the_strict_schema_is_what_the_host_takes() -> None:
    for tool, declared in zip(tool_definitions("openai", strict=True), AGENT_TOOLS, strict=True):
        parameters = tool["function"]["parameters"]
        written = _sample(parameters, parameters)  # every optional parameter null
        jsonschema.Draft202012Validator(parameters).validate(written)
        plain = from_strict(written)
        assert None not in plain.values()
        declared.params.model_validate(plain)  # the host's own check: null meant its default
        jsonschema.Draft202012Validator(parameters_of(declared.name)).validate(plain)
    click = tool_definitions("openai", ["click"], strict=True)[0]["function"]["parameters"]
    match = {"text": "Saved", "role": None, "name": None}
    expect = {**dict.fromkeys(click["$defs"]["Expect"]["properties"]), "element_appears": match}
    written = {**_sample(click, click), "id": 12, "expect": expect}
    jsonschema.Draft202012Validator(click).validate(written)
    assert from_strict(written) == {"id": 12, "expect": {"element_appears": {"text": "Saved"}}}
    TOOLS_BY_NAME["click"].params.model_validate(from_strict(written))


def test_optional_parameters_become_nullable_and_say_their_default() -> None:
    strict = tool_definitions("openai", ["click"], strict=True)[0]["function"]["parameters"]["properties"]
    assert strict["button"]["anyOf"][-1] == {"type": "null"}
    assert strict["button"]["description"].endswith('null means the default, "left".')
    assert strict["id"] == {"type": "integer", "description": "Element ID from a snapshot of this tab."}


def test_strict_is_for_openai_and_the_cli_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(BadRequest, match="openai"):
        tool_definitions("anthropic", strict=True)
    assert main(["schema", "--format", "openai", "--strict", "--tools", "click"]) == 0
    (tool,) = json.loads(capsys.readouterr().out)
    assert tool["function"]["strict"] is True and violations(tool) == []


def parameters_of(name: str) -> dict[str, Any]:
    (tool,) = tool_definitions("json-schema", [name])
    schema: dict[str, Any] = tool["parameters"]
    return schema
