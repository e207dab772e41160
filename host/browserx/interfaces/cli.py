"""The ``browserx`` command line, a thin layer over :class:`browserx.Client`.

Exit codes: 0 ok, 1 the request failed (the error is printed, as JSON with --json), 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from browserx._version import __version__
from browserx.control.client import Client
from browserx.errors import BrowserxError
from browserx.install import BROWSERS, apply, default_plan, remove


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False))


def cmd_status(args: argparse.Namespace) -> int:
    with Client(args.socket) as bx:
        status = bx.status()
    if args.json:
        _print_json(status)
    else:
        ext = status.get("extension") or {}
        print(f"host {status['version']} pid {status['pid']} socket {status['socket']}")
        print(
            f"extension {'connected' if status['extension_connected'] else 'DISCONNECTED'} {ext.get('version', '')}"
        )
        print(f"attached tabs: {status['attached_tabs'] or 'none'}")
    return 0


def cmd_tabs(args: argparse.Namespace) -> int:
    with Client(args.socket) as bx:
        tabs = bx.tabs()
    if args.json:
        _print_json(tabs)
    else:
        for tab in tabs:
            mark = "*" if tab.get("active") and tab.get("focused") else " "
            print(f"{mark}{tab['tabId']:>6}  {tab.get('title', '')[:60]:<60}  {tab.get('url', '')}")
    return 0


def cmd_cdp(args: argparse.Namespace) -> int:
    try:
        params = json.loads(args.params)
    except json.JSONDecodeError as exc:
        raise SystemExit(f"browserx cdp: params must be a JSON object: {exc}") from exc
    with Client(args.socket) as bx:
        _print_json(bx.cdp(args.method, params, tab=args.tab, session_id=args.session))
    return 0


def cmd_snapshot(args: argparse.Namespace) -> int:
    with Client(args.socket) as bx:
        result = bx.snapshot(
            tab=args.tab, format=args.format, include_values=args.include_values, stats=args.json_stats
        )
    if args.json:
        _print_json(result)
        return 0
    if args.format == "json":
        _print_json(result["json"])
    else:
        sys.stdout.write(result["text"])
    if args.json_stats:
        print(json.dumps(result["stats"], ensure_ascii=False), file=sys.stderr)
    return 0


def cmd_install_host(args: argparse.Namespace) -> int:
    steps = default_plan(args.browser, Path(args.user_data_dir) if args.user_data_dir else None)
    if args.dry_run:
        for step in steps:
            print(step.describe())
        return 0
    apply(steps)
    for step in steps:
        print(f"installed: {getattr(step, 'path', None) or step.describe()}")
    return 0


def cmd_uninstall_host(args: argparse.Namespace) -> int:
    steps = default_plan(args.browser, Path(args.user_data_dir) if args.user_data_dir else None)
    if args.dry_run:
        for step in steps:
            print(f"would remove: {getattr(step, 'path', None) or step.describe()}")
        return 0
    for path in remove(steps):
        print(f"removed: {path}")
    return 0


def cmd_launch(args: argparse.Namespace) -> int:
    from browserx.launch import launch

    launched = launch(
        url=args.url,
        headless=args.headless,
        browser=args.browser,
        user_data_dir=Path(args.user_data_dir) if args.user_data_dir else None,
        timeout=args.timeout,
    )
    if args.json:
        _print_json(
            {
                "socket": launched.host.socket,
                "host_pid": launched.host.pid,
                "browser_pid": launched.browser_pid,
                "user_data_dir": str(launched.user_data_dir),
            }
        )
    else:
        print(launched.host.socket)
    return 0


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
        p.add_argument("--socket", help="control socket path (default: discover the running host)")
        p.add_argument("--json", action="store_true", help="print JSON")
        if tab:
            p.add_argument("--tab", type=int, help="tab id (default: the active tab)")

    connects(command("status", cmd_status, "Health check: is a host running and its extension connected?"))
    connects(command("tabs", cmd_tabs, "List the browser's tabs."))
    p = command("snapshot", cmd_snapshot, "Observe a tab: a compact view with element IDs.")
    connects(p, tab=True)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--include-values", action="store_true", help="include form values (never passwords)")
    p.add_argument("--json-stats", action="store_true", help="print snapshot stats as JSON on stderr")

    p = command("cdp", cmd_cdp, "Run one allowlisted CDP command (debugging aid).")
    connects(p, tab=True)
    p.add_argument("method")
    p.add_argument("params", nargs="?", default="{}", help="JSON object")
    p.add_argument("--session", help="child session id (out-of-process iframe)")

    for name, func, text in (
        ("install-host", cmd_install_host, "Register the native-messaging host with browsers."),
        ("uninstall-host", cmd_uninstall_host, "Remove the host registration."),
    ):
        p = command(name, func, text)
        p.add_argument("--browser", choices=BROWSERS, help="only this browser (default: all)")
        p.add_argument("--user-data-dir", help="only this profile dir (its NativeMessagingHosts/)")
        p.add_argument("--dry-run", action="store_true", help="print what would be written where")

    p = command("launch", cmd_launch, "Start a browser with the extension and host, print the socket path.")
    p.add_argument("--url", help="page to open")
    p.add_argument("--headless", action="store_true")
    p.add_argument("--browser", help="browser executable (default: Chromium on PATH)")
    p.add_argument("--user-data-dir", help="profile dir (default: a new temporary one)")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for the host")
    p.add_argument("--json", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
        return code
    except BrowserxError as exc:
        if getattr(args, "json", False):
            _print_json({"ok": False, "error": exc.to_dict()})
        else:
            print(f"browserx: {exc.code}: {exc.message}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
