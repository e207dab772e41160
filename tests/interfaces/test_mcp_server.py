"""The MCP server without a browser: an in-process MCP client against ``build_server`` with a fake
host link, checking what is listed, what reaches the host and what the model reads back."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client as McpClient
from mcp_types import CallToolResult, TextContent

from browserx.control.tools import AGENT_TOOLS
from browserx.errors import PageOptedOut, UnknownElement
from browserx.interfaces import mcp_server
from browserx.interfaces.mcp_host_link import HostLink
from browserx.interfaces.mcp_server import build_server
from browserx.interfaces.outcome import describe_action
from browserx.runtime import HostRecord
from browserx.setup.launch import Launched

CLICKED = {
    "success": True,
    "error": None,
    "action": "click",
    "id": 12,
    "duration_ms": 41.6,
    "changes": {"navigated": False, "new_url": None, "dom_mutations": 1, "value_changed": False},
    "recovered_from": None,
    "tab": 7,
}


class FakeLink(HostLink):
    """Answers each host method from ``answers`` (a value, or an exception to raise) and records
    every call as (method, params)."""

    def __init__(self, answers: dict[str, Any]) -> None:
        super().__init__()
        self.answers = answers
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def _call(self, method: str, /, **params: Any) -> Any:
        self.calls.append((method, params))
        answer = self.answers[method]
        if isinstance(answer, BaseException):
            raise answer
        return answer


def run(link: FakeLink, scenario: Callable[[McpClient], Any]) -> Any:
    async def main() -> Any:
        async with McpClient(build_server(link), mode="legacy") as client:
            return await scenario(client)

    return anyio.run(main)


def call(link: FakeLink, name: str, arguments: dict[str, Any]) -> CallToolResult:
    result: CallToolResult = run(link, lambda c: c.call_tool(name, arguments))
    return result


def text(result: CallToolResult) -> str:
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent), result
    return result.content[0].text


def test_lists_every_agent_tool_with_its_schema_and_observe_on_actions() -> None:
    listed = run(FakeLink({}), lambda c: c.list_tools()).tools
    assert [t.name for t in listed] == [t.name for t in AGENT_TOOLS]
    for tool, declared in zip(listed, AGENT_TOOLS, strict=True):
        assert tool.description == declared.description
        assert tool.title == declared.title and tool.annotations is not None
        assert tool.annotations.read_only_hint is declared.hints.read_only, tool.name
        assert tool.annotations.destructive_hint is declared.hints.destructive, tool.name
        assert tool.annotations.idempotent_hint is declared.hints.idempotent, tool.name
        assert tool.annotations.open_world_hint is declared.hints.open_world, tool.name
        schema = dict(tool.input_schema)
        observe = schema["properties"].pop("observe", None)
        assert schema == declared.json_schema(), tool.name
        if declared.acts:
            assert observe is not None and observe["enum"] == ["none", "delta", "full"]
            assert observe["default"] == "delta" and "observe" not in schema.get("required", [])
        else:
            assert observe is None, tool.name


def test_snapshot_returns_the_text_view_and_the_structured_result() -> None:
    answer = {"tab": 7, "format": "text", "url": "http://x/", "title": "X", "text": "# X\n[1] button Go\n"}
    link = FakeLink({"snapshot": answer})
    result = call(link, "snapshot", {"tab": 7, "max_tokens": 500})
    assert text(result) == answer["text"] and not result.is_error
    assert result.structured_content == answer
    assert link.calls == [("snapshot", {"tab": 7, "max_tokens": 500})]


def test_snapshot_json_and_semantic_formats_come_back_as_json_text() -> None:
    for view_format in ("json", "semantic"):
        tree = {"page": {"url": "http://x/"}, "format": view_format}
        link = FakeLink({"snapshot": {"tab": 7, "format": view_format, view_format: tree}})
        assert json.loads(text(call(link, "snapshot", {"format": view_format}))) == tree


def test_an_action_reports_its_outcome_then_the_delta_since_the_last_view() -> None:
    link = FakeLink(
        {"click": CLICKED, "snapshot": {"tab": 7, "text": "# delta since the last view 1s ago\n"}}
    )
    result = call(link, "click", {"id": 12})
    assert not result.is_error
    assert text(result) == (
        "click succeeded on [12] in 42 ms: no navigation, 1 DOM mutation\n\n# delta since the last view 1s ago\n"
    )
    assert result.structured_content == CLICKED
    # observe is this server's: stripped before the host sees the params; the view is of the acted tab.
    assert link.calls == [("click", {"id": 12}), ("snapshot", {"tab": 7, "since_last": True})]


def test_observe_full_takes_a_whole_view_and_none_takes_no_view() -> None:
    link = FakeLink({"click": CLICKED, "snapshot": {"tab": 7, "text": "# X\n"}})
    assert text(call(link, "click", {"id": 12, "observe": "full"})).endswith("\n\n# X\n")
    assert link.calls[1] == ("snapshot", {"tab": 7, "since_last": None})
    link = FakeLink({"click": CLICKED})
    assert "\n" not in text(call(link, "click", {"id": 12, "observe": "none"}))
    assert link.calls == [("click", {"id": 12})]


def test_a_bad_observe_value_is_a_bad_request_that_never_reaches_the_host() -> None:
    link = FakeLink({})
    result = call(link, "click", {"id": 12, "observe": "everything"})
    assert result.is_error and text(result).startswith("bad_request: observe must be one of")
    assert link.calls == []


def test_host_errors_become_error_results_with_code_and_message() -> None:
    error = UnknownElement("No element with ID 987654 was ever shown for this tab.")
    result = call(FakeLink({"click": error}), "click", {"id": 987654})
    assert result.is_error
    assert text(result) == f"unknown_id: {error.message}"
    assert result.structured_content == {"code": "unknown_id", "message": error.message}


def test_an_action_that_worked_is_no_error_when_the_view_after_it_fails() -> None:
    link = FakeLink({"click": CLICKED, "snapshot": PageOptedOut("This page opted out of AI agents.")})
    result = call(link, "click", {"id": 12})
    assert not result.is_error
    assert text(result).endswith(
        "(no view after the action: page_opted_out: This page opted out of AI agents.)"
    )


def test_other_tools_return_their_result_as_json_and_unknown_tools_are_errors() -> None:
    tabs = {"tabs": [{"tabId": 7, "url": "http://x/", "active": True}]}
    result = call(FakeLink({"tabs": tabs}), "tabs", {})
    assert json.loads(text(result)) == tabs and result.structured_content == tabs
    missing = call(FakeLink({}), "status", {})  # an operator tool: not offered to agents
    assert missing.is_error and text(missing).startswith("unknown_method: No tool named 'status'")


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"navigated": True, "new_url": "http://x/b", "dom_mutations": None}, "navigated to http://x/b"),
        (
            {"value_changed": True, "value_length": 12, "dom_mutations": 3},
            "3 DOM mutations, value changed (12 characters)",
        ),
        ({"value_changed": True, "new_value": "Ada"}, 'value now "Ada"'),
        ({"checked": False}, "now unchecked"),
        ({"selected": "Deutsch"}, 'selected "Deutsch"'),
    ],
)
def test_describe_action_names_what_changed(changes: dict[str, Any], expected: str) -> None:
    line = describe_action({"success": True, "action": "act", "duration_ms": 5, "changes": changes})
    assert line.startswith("act succeeded in 5 ms: ") and expected in line, line


def test_a_recovered_element_is_reported() -> None:
    line = describe_action({**CLICKED, "id": 13, "recovered_from": 12})
    assert "[12] had been re-rendered and was found again as [13]" in line


def test_host_link_reports_a_missing_host_as_an_error_result(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", str(tmp_path))
    monkeypatch.delenv("BROWSERX_SOCKET", raising=False)

    async def main() -> CallToolResult:
        async with McpClient(build_server(HostLink()), mode="legacy") as client:
            return await client.call_tool("tabs", {})

    result = anyio.run(main)
    assert result.is_error and text(result).startswith("no_host: ")


def test_a_hybrid_snapshot_is_the_semantic_json_then_the_image_unless_unchanged() -> None:
    tree = {"interactive_tree": [{"i": "1", "r": "button", "n": "Go"}]}
    shot = {"tab": 7, "format": "hybrid", "semantic": tree, "screenshot": "/9j/AAAA", "screenshotHash": "ab" * 8,
            "screenshotFormat": "jpeg", "screenshotSize": [1024, 720]}  # fmt: skip
    result = call(FakeLink({"snapshot": shot}), "snapshot", {"format": "hybrid"})
    assert [c.type for c in result.content] == ["text", "image"]
    assert json.loads(result.content[0].text) == tree  # type: ignore[union-attr]
    assert result.content[1].data == "/9j/AAAA" and result.content[1].mime_type == "image/jpeg"  # type: ignore[union-attr]
    assert result.structured_content == {k: v for k, v in shot.items() if k != "screenshot"}
    unchanged = call(FakeLink({"snapshot": {**shot, "screenshot": None}}), "snapshot", {"format": "hybrid"})
    assert [c.type for c in unchanged.content] == ["text", "text"]
    assert "unchanged" in unchanged.content[1].text  # type: ignore[union-attr]


# -- --launch: headless without a display, --url, --keep ----------------------------------------------


def _launched(tmp_path: Path) -> Launched:
    host = HostRecord(pid=2, socket=str(tmp_path / "host-2.sock"), started_at=1.0, version="0")
    return Launched(1, tmp_path / "profile", host)


def test_launch_goes_headless_without_a_display_and_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    started: list[dict[str, Any]] = []
    monkeypatch.setattr(mcp_server, "display_available", lambda: False)
    monkeypatch.setattr(mcp_server, "launch_browser", lambda **kw: started.append(kw) or _launched(tmp_path))
    with caplog.at_level(logging.INFO, logger="browserx.mcp"):
        mcp_server._launch(headless=False, url="http://127.0.0.1:1/a")
    assert started == [{"url": "http://127.0.0.1:1/a", "headless": True}]
    assert "no display ($DISPLAY and $WAYLAND_DISPLAY are unset): the browser runs headless" in caplog.text
    monkeypatch.setattr(mcp_server, "display_available", lambda: True)
    mcp_server._launch(headless=False)
    assert started[-1] == {"url": "about:blank", "headless": False}  # a debuggable first tab


def test_keep_reuses_a_browser_an_earlier_session_left_and_starts_one_only_without(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", str(tmp_path / "run"))
    monkeypatch.setattr(mcp_server, "display_available", lambda: True)
    started: list[dict[str, Any]] = []
    monkeypatch.setattr(mcp_server, "launch_browser", lambda **kw: started.append(kw) or _launched(tmp_path))
    left = _launched(tmp_path)
    monkeypatch.setattr(mcp_server, "reusable", lambda: left)
    assert mcp_server._launch(headless=True, url="http://x/", keep=True) is left and started == []
    monkeypatch.setattr(mcp_server, "reusable", lambda: None)
    mcp_server._launch(headless=True, keep=True)
    assert started == [{"url": "about:blank", "headless": True}]
