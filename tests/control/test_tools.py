"""One declaration per tool (control/tools.py): every surface lists the same tools with the same
parameters — the host's dispatch, the generated Client methods, the CLI."""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from browserx.control.api import build_methods
from browserx.control.client import Client
from browserx.control.schemas import TabsParams
from browserx.control.tool_declaration import Hints, Tool
from browserx.control.tools import AGENT_TOOLS, TOOLS, TOOLS_BY_NAME
from browserx.settings import HostSettings

ROOT = Path(__file__).resolve().parents[2]


class _Registry:
    conn: Any = None


def test_every_tool_has_one_unique_name_and_a_description_on_every_parameter() -> None:
    assert len(TOOLS_BY_NAME) == len(TOOLS)
    for tool in TOOLS:
        assert tool.description.strip(), tool.name
        for name, field in tool.params.model_fields.items():
            assert field.description, f"{tool.name}.{name} has no description"
        assert set(tool.positional) <= set(tool.params.model_fields), tool.name


# What a model must not read in a description: references to documents outside the repository,
# reStructuredText, text wrapped by hard newlines.
NOT_FOR_A_MODEL = re.compile(r"\bseed\b|§|``|\n", re.IGNORECASE)


def _descriptions(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["description"]] if isinstance(node.get("description"), str) else []
        return own + [d for key, value in node.items() if key != "description" for d in _descriptions(value)]
    if isinstance(node, list):
        return [d for item in node for d in _descriptions(item)]
    return []


def test_every_tool_declares_a_title_and_what_it_does_to_the_world() -> None:
    for tool in TOOLS:
        assert tool.title.strip() and tool.title[0].isupper() and len(tool.title) <= 40, tool.name
        assert isinstance(tool.hints, Hints), tool.name
        assert not (tool.hints.read_only and tool.hints.destructive), tool.name
    assert len({t.title for t in TOOLS}) == len(TOOLS)
    with pytest.raises(TypeError):  # a new tool cannot leave them out
        Tool("peek", "Look.", TabsParams)  # type: ignore[call-arg]


def test_descriptions_are_plain_text_for_a_model() -> None:
    for tool in TOOLS:
        texts = [tool.description, tool.title, *_descriptions(tool.json_schema())]
        for text in texts:
            assert not NOT_FOR_A_MODEL.search(text), f"{tool.name}: {text!r}"
            assert text == text.strip() and "  " not in text, f"{tool.name}: {text!r}"


def test_the_agent_tools_are_the_ones_agents_are_promised() -> None:
    assert [t.name for t in AGENT_TOOLS] == [
        "tabs", "snapshot", "click", "type", "key", "scroll", "select", "check", "fill", "upload", "hover", "drag",
        "click_at", "hover_at", "navigate", "back", "forward", "reload", "wait", "dialog", "downloads", "console",
        "screenshot", "html", "new_tab", "close_tab", "activate_tab", "release_tab", "ask_user",
    ]  # fmt: skip
    for tool in AGENT_TOOLS:
        fields = tool.params.model_fields
        if "id" in fields:
            assert fields["id"].annotation in (int, int | None), tool.name
        if "tab" in fields:
            assert fields["tab"].annotation in (int, int | None), tool.name


def test_the_host_serves_exactly_the_declared_tools_with_their_params() -> None:
    methods = build_methods(_Registry(), "sock", HostSettings())  # type: ignore[arg-type]
    assert list(methods) == [t.name for t in TOOLS]
    for tool in TOOLS:
        assert methods[tool.name].params is tool.params


def test_the_client_has_a_method_per_tool_with_the_tools_parameters() -> None:
    for tool in TOOLS:
        method = getattr(Client, tool.method_name)
        params = inspect.signature(method).parameters
        assert list(params)[1 : 1 + len(tool.positional)] == list(tool.positional), tool.name
        assert set(params) - {"self"} == set(tool.params.model_fields), tool.name
        for name, field in tool.params.model_fields.items():
            if field.is_required():
                assert params[name].default is inspect.Parameter.empty, (tool.name, name)


def test_the_generated_client_methods_are_fresh() -> None:
    spec = importlib.util.spec_from_file_location("gen_client", ROOT / "scripts" / "gen_client.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_client"] = module
    spec.loader.exec_module(module)
    generated = (ROOT / "host" / "browserx" / "control" / "client_tools.py").read_text(encoding="utf-8")
    assert module.render() == generated, "run: python scripts/gen_client.py"


def test_the_cli_has_a_command_per_tool_with_an_argument_per_parameter() -> None:
    from browserx.interfaces.cli import build_parser
    from browserx.interfaces.cli_tools import command_name

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for tool in TOOLS:
        command = sub.choices[command_name(tool)]
        dests = (
            {a.dest for a in command._actions}
            - {"help", "socket", "json"}
            - ({"out"} if tool.binary or tool.name == "snapshot" else set())  # snapshot: hybrid's picture
        )
        assert dests == set(tool.params.model_fields), tool.name


def test_the_docs_tool_reference_is_fresh() -> None:
    spec = importlib.util.spec_from_file_location("gen_client", ROOT / "scripts" / "gen_client.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    reference = (ROOT / "docs" / "TOOLS.md").read_text(encoding="utf-8")
    assert module.with_reference(reference) == reference, "run: python scripts/gen_client.py"
    for tool in TOOLS:
        assert f"| `{tool.name}` |" in reference


@pytest.mark.parametrize("bad", [True, 1.0, "12", None, [12]])
def test_an_element_id_is_taken_as_it_is_never_coerced(bad: object) -> None:
    # true, 1.0 or "12" must not become element 1 or 12 (an action on an element nobody named).
    for tool in TOOLS:
        if "id" in tool.params.model_fields and tool.params.model_fields["id"].is_required():
            required = {n: "x" for n, f in tool.params.model_fields.items() if f.is_required() and n != "id"}
            with pytest.raises(ValidationError):
                tool.params.model_validate({**required, "id": bad})
