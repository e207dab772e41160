"""The ``browserx`` command line, a thin layer over :class:`browserx.Client`.

Exit codes: 0 ok, 1 the request failed (the error is printed, as JSON with --json) or ``do
'fail()'``, 2 bad usage, 130 Ctrl-C, 141 stdout closed by its reader (``| head``). Every command
prints text for a person, and JSON with ``--json``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

from browserx._version import __version__
from browserx.errors import BrowserxError
from browserx.interfaces.cli_tools import add_tool_commands, print_json
from browserx.runtime import pin_hint
from browserx.setup.install import BROWSERS, Step, WriteFile, apply, default_plan, remove


def cmd_legend(args: argparse.Namespace) -> int:
    """How to read the view, then how to write an action (``browserx do``, a backend's ``action``);
    with --json an object: ``format``, ``view`` (how to read it), ``actions`` (the grammar),
    ``text`` (both, as printed without --json) and, for the semantic view, ``role_codes``."""
    from browserx.interfaces.grammar import legend
    from browserx.views import semantic, text

    view = semantic.LEGEND if args.format == "semantic" else text.LEGEND
    actions = legend()
    whole = f"{view}\n\n{actions}"
    if args.json:
        out = {"format": args.format, "view": view, "actions": actions, "text": whole}
        if args.format == "semantic":
            out["role_codes"] = dict(semantic.ROLE_NAMES)
        print_json(out)
    else:
        sys.stdout.write(whole)
    return 0


def cmd_do(args: argparse.Namespace) -> int:
    """One action of the action grammar: click(12), setValue(13, "x"), goBack(), finish(), ...;
    exit 0, or 1 for fail() as for an action that failed."""
    from browserx.control.client import Client
    from browserx.interfaces import grammar
    from browserx.interfaces.cli_tools import print_action

    try:  # parse before connecting: a grammar error needs no host, and is bad usage (exit 2)
        call = grammar.parse_action(args.action)
    except grammar.GrammarError as exc:
        if args.json:
            print_json({"ok": False, "error": exc.to_dict()})
        print(f"browserx: {exc.code}: {exc.message}", file=sys.stderr)
        return 2
    if call.tool is None:  # finish()/fail(): nothing runs, no host needed
        result = grammar.ending(call)
    else:
        with Client(args.socket) as bx:
            result = grammar.run_action(bx, args.action, tab=args.tab)
    if args.json:
        print_json(result)
    elif result.get("done"):  # finish()/fail(): the task ends, nothing ran on the host
        reason = f": {result['reason']}" if result["reason"] else ""
        print(f"{'finished' if result['success'] else 'failed'}{reason}")
    else:
        print_action(args, result)
    # fail() exits 1, as `browserx agent` does when its backend gives up.
    return 1 if result.get("done") and not result["success"] else 0


def cmd_agent(args: argparse.Namespace) -> int:
    from browserx.interfaces.agent.loop import cli_main  # the HTTP client only for this command

    return cli_main(args)


def cmd_schema(args: argparse.Namespace) -> int:
    from browserx.interfaces.schema import tool_definitions

    names = [n for n in (args.tools or "").split(",") if n]
    print_json(tool_definitions(args.format, names, strict=args.strict))
    return 0


def _report(args: argparse.Namespace, key: str, lines: list[str], prefix: str) -> None:
    """Lines for a person, or ``{key: lines}`` with --json."""
    if args.json:
        print_json({key: lines})
        return
    for line in lines:
        print(f"{prefix}{line}")


def _where(step: Step) -> str:
    """What a step writes: a file's path, or the registry value it sets."""
    return str(step.path) if isinstance(step, WriteFile) else step.describe()


def cmd_install_host(args: argparse.Namespace) -> int:
    steps = default_plan(args.browser, Path(args.user_data_dir) if args.user_data_dir else None)
    if args.dry_run:
        _report(args, "would_write", [step.describe() for step in steps], "")
        return 0
    apply(steps)
    _report(args, "installed", [_where(step) for step in steps], "installed: ")
    return 0


def cmd_uninstall_host(args: argparse.Namespace) -> int:
    steps = default_plan(args.browser, Path(args.user_data_dir) if args.user_data_dir else None)
    if args.dry_run:
        _report(args, "would_remove", [_where(step) for step in steps], "would remove: ")
        return 0
    _report(args, "removed", remove(steps), "removed: ")
    return 0


def cmd_extension(args: argparse.Namespace) -> int:
    """The folder "Load unpacked" takes (the last line), or with --zip the store upload's zip."""
    from browserx.setup.assets import EXTENSION_DIR

    if args.zip:
        target = Path(args.zip).expanduser().absolute()
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in sorted(EXTENSION_DIR.rglob("*")):
                if path.is_file() and path.name != "allowlist-test.js":
                    zf.write(path, path.relative_to(EXTENSION_DIR).as_posix())
        print_json({"zip": str(target)}) if args.json else print(f"wrote {target}")
        return 0
    if args.json:
        print_json({"path": str(EXTENSION_DIR)})
        return 0
    print(
        "Load browserx's extension: open chrome://extensions (edge://extensions, brave://extensions),\n"
        'switch on "Developer mode", press "Load unpacked" and choose this folder; then run\n'
        "`browserx install-host` so the browser can start the host. After an upgrade, press the\n"
        "extension's reload button there. The folder:"
    )
    print(EXTENSION_DIR)
    return 0


def cmd_launch(args: argparse.Namespace) -> int:
    from browserx.setup.launch import launch

    launched = launch(
        url=args.url,
        headless=args.headless,
        browser=args.browser,
        user_data_dir=Path(args.user_data_dir) if args.user_data_dir else None,
        timeout=args.timeout,
    )
    # The path that pins later calls to this browser (its link follows a restarted host).
    pin = pin_hint(launched.host)
    if args.json:
        print_json(
            {
                "socket": pin,
                "host_socket": launched.host.socket,
                "host_pid": launched.host.pid,
                "browser_pid": launched.browser_pid,
                "user_data_dir": str(launched.user_data_dir),
                "export": f"export BROWSERX_SOCKET={shlex.quote(pin)}",
            }
        )
    else:
        print(pin)
        print(f"browser pid {launched.browser_pid} (browserx stop ends it)")
        print("to send every later call to this browser (needed when more than one runs):")
        print(f"export BROWSERX_SOCKET={shlex.quote(pin)}")
    return 0


def cmd_stop(args: argparse.Namespace) -> int:
    from browserx.setup.launch import launched, stop

    running = launched()
    chosen = running if args.all else running[-1:]
    for record in chosen:
        stop(record)
    if args.json:
        print_json({"stopped": [r.browser_pid for r in chosen]})
    elif chosen:
        print("stopped browser pid " + ", ".join(str(r.browser_pid) for r in chosen))
    else:
        print("no browser launched by browserx is running")
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    if args.headless and not args.launch:
        raise SystemExit("browserx mcp: --headless goes with --launch")
    if args.socket and args.launch:
        raise SystemExit("browserx mcp: --launch starts its own host: no --socket with it")
    if (args.url or args.keep) and not args.launch:
        raise SystemExit("browserx mcp: --url and --keep go with --launch")
    from browserx.interfaces.mcp_server import main as serve_mcp  # the MCP SDK only for this command

    return serve_mcp(
        socket_path=args.socket, launch=args.launch, headless=args.headless, url=args.url, keep=args.keep
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="browserx", description="Eyes and hands for an LLM agent in your browser."
    )
    parser.add_argument("--version", action="version", version=f"browserx {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, func: Callable[[argparse.Namespace], int], help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        p.set_defaults(func=func)
        return p

    def connects(p: argparse.ArgumentParser, tab: bool = False) -> None:
        p.add_argument(
            "--socket", help="control socket path (default: $BROWSERX_SOCKET, else the only running host)"
        )
        p.add_argument("--json", action="store_true", help="print JSON")
        if tab:
            p.add_argument("--tab", type=int, help="tab id (default: the active tab)")

    # status, tabs, snapshot, the actions, the tab tools, cdp, targets: one per declared tool.
    add_tool_commands(sub)
    p = command(
        "legend", cmd_legend, "Print how to read a view and how to write an action (for a system prompt)."
    )
    p.add_argument("--format", choices=("text", "semantic"), default="text", help="which view (default text)")
    p.add_argument(
        "--json", action="store_true",
        help="print JSON: format, view, actions, text (the whole legend) and role_codes (semantic)",
    )  # fmt: skip
    p = command("schema", cmd_schema, "Print the agent tools as function-calling definitions (JSON).")
    p.add_argument(
        "--format", choices=("json-schema", "openai", "anthropic"), default="json-schema",
        help="json-schema: name, description and a JSON Schema of the parameters per tool; openai: "
        "Chat Completions tools; anthropic: Messages API tools (default: json-schema)",
    )  # fmt: skip
    p.add_argument("--tools", metavar="A,B", help="only these tools (default: every agent tool)")
    p.add_argument(
        "--strict", action="store_true",
        help="with --format openai: the variant OpenAI's strict mode takes (every property required, "
        "optional ones nullable; drop the nulls before calling: browserx.interfaces.schema.from_strict)",
    )  # fmt: skip

    p = command("extension", cmd_extension, "Print the extension's folder (for Load unpacked), or zip it.")
    p.add_argument("--zip", metavar="FILE", help="write the extension as a zip (a store upload) to FILE")
    p.add_argument("--json", action="store_true", help="print JSON: the folder's path (or the zip's)")

    for name, func, text in (
        ("install-host", cmd_install_host, "Register the native-messaging host with browsers."),
        ("uninstall-host", cmd_uninstall_host, "Remove the host registration."),
    ):
        p = command(name, func, text)
        p.add_argument("--browser", choices=BROWSERS, help="only this browser (default: all)")
        p.add_argument("--user-data-dir", help="only this profile dir (its NativeMessagingHosts/)")
        p.add_argument("--dry-run", action="store_true", help="print what would be written where")
        p.add_argument("--json", action="store_true", help="print JSON: the paths written or removed")

    p = command("launch", cmd_launch, "Start a browser with the extension and host, print the socket path.")
    p.add_argument("--url", help="page to open (default: a blank tab)")
    p.add_argument("--headless", action="store_true", help="a browser without a window (default: a window)")
    p.add_argument("--browser", help="browser executable (default: Chromium on PATH)")
    p.add_argument("--user-data-dir", help="profile dir (default: a new temporary one)")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for the host (default: 30)")
    p.add_argument(
        "--json", action="store_true",
        help="print JSON: socket, host_socket, host_pid, browser_pid, user_data_dir, export",
    )  # fmt: skip
    p = command(
        "stop", cmd_stop, "Stop the browser `browserx launch` started last (its throwaway profile goes too)."
    )
    p.add_argument(
        "--all", action="store_true", help="every browser launched from this runtime dir (default: the last)"
    )
    p.add_argument("--json", action="store_true", help="print JSON: the stopped browsers' pids")

    p = command("mcp", cmd_mcp, "Serve the browserx tools to MCP clients (Claude, Cursor, VS Code) on stdio.")
    p.add_argument(
        "--socket", help="control socket path (default: $BROWSERX_SOCKET, else the only running host)"
    )
    p.add_argument("--launch", action="store_true", help="start a browser for this session, stop it after")
    p.add_argument(
        "--headless", action="store_true",
        help="with --launch: a browser without a window (the default when there is no display)",
    )  # fmt: skip
    p.add_argument("--url", help="with --launch: the page the browser opens at (default: a blank tab)")
    p.add_argument(
        "--keep", action="store_true",
        help="with --launch: leave the browser running when the session ends, and reuse one an earlier "
        "session (or browserx launch) left: for clients that start the server per call; browserx stop ends it",
    )  # fmt: skip

    p = command("do", cmd_do, 'Run one action written as a call: click(12), setValue(13, "x"), goBack(), ...')
    connects(p, tab=True)
    p.add_argument(
        "action",
        metavar="ACTION",
        help="e.g. 'press(\"Enter\")'; strings are JSON (browserx legend: every verb)",
    )

    p = command(
        "agent", cmd_agent, "Let an HTTP backend drive a task: observe, POST /api/agent/interact, act."
    )
    p.add_argument(
        "--backend", required=True, metavar="URL",
        help="the backend's base URL: https://..., or http://... (meant for one on this machine: "
        "http://127.0.0.1:PORT, localhost; to another host it warns that nothing is encrypted)",
    )  # fmt: skip
    p.add_argument("--task", required=True, metavar="TEXT", help="what to do (sent as `query`)")
    p.add_argument("--tab", type=int, help="tab id (default: the active tab, then kept)")
    p.add_argument(
        "--max-steps",
        type=int,
        default=25,
        metavar="N",
        help="give up after N actions (exit 2) (default: 25)",
    )
    p.add_argument(
        "--header", action="append", metavar="'NAME: VALUE'", help="sent on every request (repeatable)"
    )
    p.add_argument(
        "--timeout", type=float, default=120.0, metavar="S", help="seconds per backend request (default: 120)"
    )
    p.add_argument("--include-values", action="store_true", help="send form values (`v`; never passwords)")
    p.add_argument(
        "--ask-timeout", type=float, default=300.0, metavar="S",
        help="seconds to wait for the person's answer when the backend needs input (the browserx popup) "
        "(default: 300)",
    )  # fmt: skip
    p.add_argument(
        "--socket", help="control socket path (default: $BROWSERX_SOCKET, else the only running host)"
    )
    p.add_argument(
        "--json", action="store_true",
        help="print the final line as JSON: outcome (finished, failed, error), steps, reason, task_id, "
        "session_id (the step log stays on stderr)",
    )  # fmt: skip
    return parser


# Exit codes of a command cut short, as a shell reports a process a signal ended (128 + signal).
EXIT_INTERRUPTED = 130  # Ctrl-C (SIGINT)
EXIT_BROKEN_PIPE = 141  # the reader of stdout went away (SIGPIPE): `browserx schema | head`


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        try:
            code: int = args.func(args)
        except BrowserxError as exc:
            if getattr(args, "json", False):
                print_json({"ok": False, "error": exc.to_dict()})
            else:
                print(f"browserx: {exc.code}: {exc.message}", file=sys.stderr)
            code = 1
        sys.stdout.flush()  # a reader that went away shows here, not as a traceback at exit
        return code
    except KeyboardInterrupt:
        # Ctrl-C: no traceback. The request's connection closed with the client, which tells the
        # host to drop work nobody waits for (control/server.py).
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # Nothing more can be written; point stdout at /dev/null so Python's own flush at exit
        # does not complain about the pipe again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
