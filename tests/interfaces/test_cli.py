"""The ``browserx`` command line (interfaces/cli.py, cli_tools.py): text for a person on every
command and JSON with --json, one name for tab ids, help with defaults on every option, the
legend with the action grammar, exit codes (fail(), Ctrl-C, a closed pipe) and the hybrid
picture always written to --out. The host is a fake: a Client stand-in, or a real control
server with fake methods (tests/control/test_server.py) for what needs a process."""

from __future__ import annotations

import argparse
import base64
import json
import os
import signal
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar

import pytest

import browserx
from browserx.control.server import Method
from browserx.control.tools import TOOLS, TOOLS_BY_NAME
from browserx.interfaces import cli, cli_tools
from browserx.interfaces.grammar import VERBS
from tests.control.test_server import GateParams, Methods, ServerThread, until

ROOT = Path(__file__).resolve().parents[2]


class FakeClient:
    """What the CLI needs of browserx.Client: ``call`` answered from ``RESULTS`` (per method),
    each call logged in ``CALLS``."""

    RESULTS: ClassVar[dict[str, Any]] = {}
    CALLS: ClassVar[list[tuple[str, dict[str, Any]]]] = []

    def __init__(self, socket_path: str | None = None) -> None:
        self.socket_path = socket_path

    def call(self, method: str, /, **params: Any) -> Any:
        self.CALLS.append((method, params))
        return json.loads(json.dumps(self.RESULTS[method]))  # a fresh copy, as off the wire

    def __enter__(self) -> FakeClient:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        pass


@pytest.fixture
def host(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[FakeClient]]:
    monkeypatch.setattr(cli_tools, "Client", FakeClient)
    monkeypatch.setattr("browserx.control.client.Client", FakeClient)
    FakeClient.RESULTS = {}
    FakeClient.CALLS = []
    yield FakeClient


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


# -- text by default, JSON with --json -------------------------------------------------------


def test_every_tool_that_is_not_an_action_has_a_printer_of_its_own() -> None:
    missing = [t.name for t in TOOLS if not t.acts and not t.binary and t.name not in cli_tools.PRINTERS]
    assert missing == []


@pytest.mark.parametrize(
    ("argv", "result", "says"),
    [
        (["new-tab"], {"tab": 41}, "opened tab 41"),
        (["close-tab", "41"], {"tab": 41, "closed": True}, "closed tab 41"),
        (["activate-tab", "41"], {"tab": 41, "active": True}, "tab 41 is the active tab"),
        (["release-tab", "41"], {"tab": 41, "released": True}, "released tab 41"),
        (["release-tab", "41"], {"tab": 41, "released": False}, "tab 41 was not attached"),
        (["targets"], {"tab": 41, "sessions": []}, "no child sessions"),
        (["tabs"], {"tabs": [{"tab": 41, "url": "http://x/", "title": "X", "active": True}]}, "41"),
    ],
)
def test_the_tab_commands_print_text_and_json_only_with_json(
    host: type[FakeClient], capsys: pytest.CaptureFixture[str], argv: list[str], result: Any, says: str
) -> None:
    host.RESULTS[TOOLS_BY_NAME[argv[0].replace("-", "_")].name] = result
    code, out, _ = run([*argv, "--socket", "s"], capsys)
    assert code == 0 and says in out and not is_json(out)
    code, out, _ = run([*argv, "--socket", "s", "--json"], capsys)
    unwrap = TOOLS_BY_NAME[argv[0].replace("-", "_")].unwrap
    assert code == 0 and json.loads(out) == (result[unwrap] if unwrap else result)


def test_new_tab_with_a_url_says_how_the_navigation_went(
    host: type[FakeClient], capsys: pytest.CaptureFixture[str]
) -> None:
    host.RESULTS["new_tab"] = {"tab": 41, "action": "navigate", "success": True, "duration_ms": 80,
                               "changes": {"navigated": True, "new_url": "http://x/"}}  # fmt: skip
    code, out, _ = run(["new-tab", "http://x/", "--socket", "s"], capsys)
    assert code == 0
    assert out.splitlines() == ["opened tab 41", "navigate succeeded in 80 ms: navigated to http://x/"]


def test_install_host_and_uninstall_host_print_json_with_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(["install-host", "--browser", "chromium", "--user-data-dir", str(tmp_path), "--json"],
                       capsys)  # fmt: skip
    launcher, manifest = json.loads(out)["installed"]  # the program the browser starts, its manifest
    assert code == 0 and all(
        Path(p).is_file() and Path(p).is_relative_to(tmp_path) for p in (launcher, manifest)
    )
    code, out, _ = run(["uninstall-host", "--browser", "chromium", "--user-data-dir", str(tmp_path)], capsys)
    assert code == 0 and out == f"removed: {launcher}\nremoved: {manifest}\n"


# -- tab ids: `tab` everywhere ----------------------------------------------------------------


def test_tabs_lists_each_tab_by_its_tab_id(
    host: type[FakeClient], capsys: pytest.CaptureFixture[str]
) -> None:
    host.RESULTS["tabs"] = {"tabs": [{"tab": 7, "url": "http://x/", "title": "X", "active": True,
                                      "focused": True}]}  # fmt: skip
    code, out, _ = run(["tabs", "--socket", "s"], capsys)
    assert code == 0 and out.startswith("*     7  X ")


@pytest.mark.parametrize("breaker", ["\n", "\r", "\u2028", "\u2029", "\x85", "\x0b"])
def test_a_tabs_title_cannot_pose_as_a_line_of_its_own(
    host: type[FakeClient], capsys: pytest.CaptureFixture[str], breaker: str
) -> None:
    forged = f"Bank{breaker}*     9  Pay now  https://evil.example/"
    host.RESULTS["tabs"] = {"tabs": [{"tab": 7, "url": f"http://x/{breaker}y", "title": forged}]}
    code, out, _ = run(["tabs", "--socket", "s"], capsys)
    assert code == 0 and len(out.splitlines()) == 1, out


# -- help: every option says what it does and its default -------------------------------------


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def test_every_option_of_every_command_has_help_and_shows_its_default() -> None:
    problems: list[str] = []
    for name, parser in _subcommands().items():
        tool = TOOLS_BY_NAME.get(name.replace("-", "_"))
        fields = tool.params.model_fields if tool is not None else {}
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            label = f"{name} {'/'.join(action.option_strings) or action.dest}"
            text = action.help or ""
            if not text.strip():
                problems.append(f"{label}: no help")
                continue
            default = action.default
            field = fields.get(action.dest)
            if field is not None:  # a tool's parameter: the CLI sends none, the tool's default holds
                default = cli_tools._default_text(field)
            if default not in (None, False) and "default" not in text.lower():
                problems.append(f"{label}: default {default!r} not shown")
    assert problems == []


def test_every_command_takes_json_but_the_two_whose_stdout_is_json_already() -> None:
    """Text for a person, --json for a program, on every command (legend and agent had none):
    only schema (JSON anyway) and mcp (stdout is the MCP protocol) go without."""
    lacking = {
        n for n, p in _subcommands().items() if not any("--json" in a.option_strings for a in p._actions)
    }
    assert lacking == {"schema", "mcp"}


def test_help_says_what_no_wait_and_backend_really_do() -> None:
    commands = _subcommands()

    def help_of(command: str, flag: str) -> str:
        (action,) = [a for a in commands[command]._actions if flag in a.option_strings]
        return str(action.help)

    assert "at once" in help_of("snapshot", "--no-wait")  # (it said "First wait until …": the opposite)
    assert "uncheck" in help_of("check", "--uncheck")
    assert "http://127.0.0.1" in help_of("agent", "--backend")


def test_the_agent_commands_defaults_are_the_loops() -> None:
    from browserx.interfaces.agent import loop

    (action,) = [a for a in _subcommands()["agent"]._actions if "--max-steps" in a.option_strings]
    assert action.default == loop.DEFAULT_MAX_STEPS


# -- legend: the views and the action grammar -------------------------------------------------


def test_legend_documents_every_verb_of_the_action_grammar(capsys: pytest.CaptureFixture[str]) -> None:
    for view in ("text", "semantic"):
        code, out, _ = run(["legend", "--format", view], capsys)
        assert code == 0
        for verb in VERBS:
            assert f"  {verb.usage()}: {verb.doc}" in out, verb.name
        assert "double quotes" in out


@pytest.mark.parametrize("view", ["text", "semantic"])
def test_legend_json_is_the_legend_as_an_object(view: str, capsys: pytest.CaptureFixture[str]) -> None:
    from browserx.views import semantic, text

    code, printed, _ = run(["legend", "--format", view], capsys)
    assert code == 0 and not is_json(printed)
    code, out, _ = run(["legend", "--format", view, "--json"], capsys)
    assert code == 0
    legend = json.loads(out)
    assert legend["format"] == view
    assert legend["view"] == (semantic.LEGEND if view == "semantic" else text.LEGEND)
    assert legend["text"] == printed  # the same legend, whole
    assert all(f"  {verb.usage()}: {verb.doc}" in legend["actions"] for verb in VERBS)
    assert legend.get("role_codes") == (semantic.ROLE_NAMES if view == "semantic" else None)


# -- agent -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "code", "outcome", "reason"),
    [
        ('finish("saved")', 0, "finished", "saved"),
        ("finish()", 0, "finished", None),
        ('fail("the form is locked")', 1, "failed", "the form is locked"),
    ],
)
def test_agent_json_prints_the_outcome_as_an_object_and_keeps_the_step_log_on_stderr(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    answer: str,
    code: int,
    outcome: str,
    reason: str | None,
) -> None:
    from browserx.interfaces.agent import loop
    from tests.fakes import BACKEND_SECRET, FakeAgentClient, scripted_backend

    class Host(FakeAgentClient):
        def __init__(self, socket_path: str | None = None) -> None:
            super().__init__()

        def __enter__(self) -> Host:
            return self

        def __exit__(self, *_: object) -> None:
            pass

    def backend_answering(*answers: dict[str, Any]) -> None:
        made, _ = scripted_backend(*answers)
        monkeypatch.setattr(loop, "Backend", lambda *args, **kw: made)

    monkeypatch.setattr("browserx.control.client.Client", Host)
    argv = ["agent", "--backend", "https://agent.example/", "--task", "Save", "--socket", "s"]
    backend_answering(
        {"data": {"action": "click(1)", "taskId": "t-7", "sessionId": "s-7"}}, {"data": {"action": answer}}
    )
    code_text, text_out, _ = run(argv, capsys)
    backend_answering(
        {"data": {"action": "click(1)", "taskId": "t-7", "sessionId": "s-7"}}, {"data": {"action": answer}}
    )
    got, out, err = run([*argv, "--json"], capsys)
    assert got == code_text == code  # the exit codes of the text form
    assert json.loads(out) == {"outcome": outcome, "steps": 2, "reason": reason, "task_id": "t-7",
                               "session_id": "s-7"}  # fmt: skip
    assert text_out.startswith(f"{outcome} after 2 steps") and not is_json(text_out)
    assert "step 1: action: click(1)" in err and "step 1: action" not in out  # the log: stderr
    assert BACKEND_SECRET not in out + err


def test_agent_json_says_an_error_as_an_object_and_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", str(tmp_path))  # no host runs there
    code, out, _ = run(
        ["agent", "--backend", "https://agent.example/?key=k3y-0042", "--task", "t", "--json"], capsys
    )
    result = json.loads(out)
    assert code == 2 and (result["outcome"], result["steps"]) == ("error", 0)
    assert result["reason"].startswith("browserx no_host") and "k3y-0042" not in out


# -- do --------------------------------------------------------------------------------------


def test_do_fail_exits_1_and_finish_0_without_a_host(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["do", 'fail("the form is locked")', "--socket", "/nonexistent"], capsys)
    assert (code, out) == (1, "failed: the form is locked\n")
    code, out, _ = run(["do", "finish()", "--socket", "/nonexistent"], capsys)
    assert (code, out) == (0, "finished\n")


def test_do_says_when_a_scroll_moved_nothing(
    host: type[FakeClient], capsys: pytest.CaptureFixture[str]
) -> None:
    host.RESULTS["scroll"] = {
        "action": "scroll", "success": True, "id": 17, "duration_ms": 40,
        "changes": {"scroll_changed": False, "dom_mutations": 0, "scroll": {
            "before": [0, 0], "after": [0, 0], "remaining": {"up": 0, "down": 0, "left": 0, "right": 0},
            "target": "page"}},
    }  # fmt: skip
    code, out, _ = run(["do", "scroll(17)", "--socket", "s"], capsys)
    assert code == 0
    assert out.startswith("scroll moved nothing on [17] in 40 ms: nothing to scroll")
    assert "{" not in out  # no raw dict


# -- snapshot --------------------------------------------------------------------------------

JPEG = base64.b64encode(b"\xff\xd8jpeg\xff\xd9").decode()
HYBRID = {"tab": 3, "format": "hybrid", "semantic": {"elements": []}, "screenshotHash": "abcd",
          "screenshotSize": [1024, 600], "screenshotFormat": "jpeg"}  # fmt: skip


@pytest.mark.parametrize("as_json", [False, True])
def test_hybrid_out_writes_the_picture_even_when_the_host_held_it_back_as_unchanged(
    host: type[FakeClient], capsys: pytest.CaptureFixture[str], tmp_path: Path, as_json: bool
) -> None:
    host.RESULTS["snapshot"] = {**HYBRID, "screenshot": None}  # unchanged since the last hybrid view
    host.RESULTS["screenshot"] = {"data": JPEG, "format": "jpeg", "width": 1024, "height": 600}
    out_file = tmp_path / "view.jpg"
    argv = ["snapshot", "--format", "hybrid", "--out", str(out_file), "--socket", "s"]
    code, _, err = run(argv + (["--json"] if as_json else []), capsys)
    assert code == 0 and out_file.read_bytes() == base64.b64decode(JPEG)
    assert host.CALLS[-1] == ("screenshot", {"tab": 3, "mode": "viewport", "format": "jpeg", "quality": 70,
                                             "max_width": 1024})  # fmt: skip
    if not as_json:
        assert f"written to {out_file}" in err


def test_out_without_hybrid_is_bad_usage(host: type[FakeClient], capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["snapshot", "--out", "x.jpg", "--socket", "s"], capsys)
    assert code == 2 and "--format hybrid" in err and host.CALLS == []


# -- exit codes of a command cut short (real processes) ---------------------------------------


def _cli(*argv: str, **kwargs: Any) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "browserx.interfaces.cli", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        # SIGINT as a terminal sends it (a shell's background job would have it ignored)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        **kwargs,
    )


class SlowSnapshots(Methods):
    """A host whose snapshots wait for a gate (that never opens): read-only, so abandoned."""

    def table(self) -> dict[str, Method]:
        return {**super().table(), "snapshot": Method(SnapshotLike, self.snapshot, abandon=True)}

    async def snapshot(self, _: Any) -> dict[str, Any]:
        return await self.held(GateParams(name="snapshot"))


class SnapshotLike(GateParams):
    name: str = "snapshot"


@pytest.fixture
def slow_host() -> Iterator[ServerThread]:
    with tempfile.TemporaryDirectory(prefix="bx-", dir="/tmp") as directory:  # (socket paths are short)
        server = ServerThread(os.path.join(directory, "control.sock"), SlowSnapshots()).start()
        try:
            yield server
        finally:
            server.stop()


def test_ctrl_c_during_a_snapshot_exits_130_quietly_and_the_host_drops_the_work(
    slow_host: ServerThread,
) -> None:
    process = _cli("snapshot", "--socket", slow_host.path)
    assert until(lambda: "snapshot" in slow_host.methods.started, timeout=10)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=10)
    assert (process.returncode, out, err) == (cli.EXIT_INTERRUPTED, b"", b"")
    assert until(lambda: slow_host.methods.outcome.get("snapshot") == "cancelled")


def test_a_reader_that_closes_the_pipe_early_ends_the_output_without_a_traceback() -> None:
    process = _cli("schema")  # ~100 kB: more than a pipe holds
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.read(10) == b"[\n  {\n    "
    process.stdout.close()  # `browserx schema | head -c 10`
    with process.stderr:
        assert process.wait(timeout=30) == cli.EXIT_BROKEN_PIPE
        assert process.stderr.read() == b""


def test_the_text_view_ends_its_line_before_the_stats(
    host: type[FakeClient], capsys: pytest.CaptureFixture[str]
) -> None:
    host.RESULTS["snapshot"] = {"tab": 3, "format": "text", "text": "[1] button Save\n-- not shown --",
                                "stats": {"tokens": 9}}  # fmt: skip
    code, out, err = run(["snapshot", "--json-stats", "--socket", "s"], capsys)
    assert code == 0 and out == "[1] button Save\n-- not shown --\n" and err == '{"tokens": 9}\n'


def test_extension_prints_the_folder_to_load_and_zips_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(["extension"], capsys)
    folder = Path(out.splitlines()[-1])  # the last line is the path, a how-to above it
    assert code == 0 and "Load unpacked" in out
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["version"] == browserx.__version__ and manifest["manifest_version"] == 3
    code, out, _ = run(["extension", "--json"], capsys)
    assert json.loads(out) == {"path": str(folder)}
    code, out, _ = run(["extension", "--zip", str(tmp_path / "bx.zip")], capsys)
    with zipfile.ZipFile(tmp_path / "bx.zip") as zf:
        names = set(zf.namelist())
    assert {"manifest.json", "service-worker.js", "popup.html", "options.html", "icons/icon128.png"} <= names
    assert "allowlist-test.js" not in names and all(not n.startswith("/") for n in names)
