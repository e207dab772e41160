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
        build = (
            "compiled"
            if status.get("compiled")
            else "plain Python (run `make native` for the compiled build)"
        )
        print(f"host {status['version']} pid {status['pid']} socket {status['socket']} ({build})")
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
            tab=args.tab, format=args.format, include_values=args.include_values, stats=args.json_stats,
            viewport_only=args.viewport_only, boxes=args.boxes, max_depth=args.max_depth,
            max_elements=args.max_elements, filter=args.filter, max_tokens=args.max_tokens,
            since_last=args.since_last, query=args.query, wait_stable=not args.no_wait,
            network_idle=args.network_idle,
        )  # fmt: skip
    if args.json:
        _print_json(result)
        return 0
    if args.format in ("json", "semantic"):
        _print_json(result[args.format])
    else:
        sys.stdout.write(result["text"])
    if args.json_stats:
        print(json.dumps(result["stats"], ensure_ascii=False), file=sys.stderr)
    return 0


def cmd_legend(args: argparse.Namespace) -> int:
    from browserx.views import semantic, text

    print(semantic.LEGEND if args.format == "semantic" else text.LEGEND)
    return 0


def _mods(text: str | None) -> list[str] | None:
    return [m for m in text.replace("+", ",").split(",") if m] if text else None


def _report(args: argparse.Namespace, result: dict[str, Any]) -> int:
    """One line for people, the whole ActionResult with --json."""
    if args.json:
        _print_json(result)
        return 0
    changes = result.get("changes") or {}
    parts = [f"{result['action']} ok", f"{result.get('duration_ms', 0):.0f} ms"]
    if result.get("id") is not None:
        parts.insert(1, f"id {result['id']}")
    if result.get("recovered_from") is not None:
        parts.append(f"recovered from id {result['recovered_from']}")
    if changes.get("navigated"):
        parts.append(f"navigated to {changes.get('new_url')}")
    if changes.get("dom_mutations"):
        parts.append(f"{changes['dom_mutations']} DOM mutations")
    if changes.get("new_value") is not None:
        parts.append(f"value {changes['new_value']!r}")
    elif changes.get("value_changed") and changes.get("value_length") is not None:
        parts.append(f"value changed ({changes['value_length']} characters)")
    if changes.get("checked") is not None:
        parts.append("checked" if changes["checked"] else "unchecked")
    if changes.get("selected") is not None:
        parts.append(f"selected {changes['selected']!r}")
    scroll = changes.get("scroll")
    if scroll:
        parts.append(f"scroll {scroll['before']} → {scroll['after']}, left: {scroll['remaining']}")
    print(", ".join(parts))
    return 0


def cmd_action(args: argparse.Namespace) -> int:
    with Client(args.socket) as bx:
        name = args.command
        if name == "click":
            result = bx.click(args.id, tab=args.tab, button=args.button, count=args.count,
                              modifiers=_mods(args.modifiers), force=args.force)  # fmt: skip
        elif name == "type":
            result = bx.type_text(args.id, args.text, tab=args.tab, clear=args.clear, submit=args.submit,
                                  per_char=args.per_char, include_values=args.include_values)  # fmt: skip
        elif name == "key":
            result = bx.key(
                args.key, tab=args.tab, modifiers=_mods(args.modifiers), id=args.id, repeat=args.repeat
            )
        elif name == "scroll":
            amount: str | float = args.amount if args.amount == "page" else float(args.amount)
            result = bx.scroll(args.id, tab=args.tab, direction=args.direction, amount=amount, to_id=args.to)
        elif name == "select":
            result = bx.select(args.id, args.value, tab=args.tab, include_values=args.include_values)
        elif name == "check":
            result = bx.check(args.id, not args.uncheck, tab=args.tab)
        elif name == "hover":
            result = bx.hover(args.id, tab=args.tab, force=args.force)
        elif name == "navigate":
            result = bx.navigate(args.url, tab=args.tab, timeout=args.timeout)
        elif name in ("back", "forward"):
            result = getattr(bx, name)(tab=args.tab, timeout=args.timeout)
        elif name == "reload":
            result = bx.reload(tab=args.tab, ignore_cache=args.ignore_cache)
        else:
            result = bx.wait(text=args.text, gone=args.gone, tab=args.tab, timeout=args.timeout)
    return _report(args, result)


def _action_commands(command: Callable[..., argparse.ArgumentParser],
                     connects: Callable[..., None]) -> None:  # fmt: skip
    def act(name: str, help: str) -> argparse.ArgumentParser:
        p = command(name, cmd_action, help)
        connects(p, tab=True)
        return p

    p = act("click", "Click an element by its snapshot ID.")
    p.add_argument("id", type=int)
    p.add_argument("--button", choices=("left", "right", "middle"), default="left")
    p.add_argument("--count", type=int, default=1, help="2 for a double click")
    p.add_argument("--modifiers", help="held keys, e.g. ctrl,shift")
    p.add_argument("--force", action="store_true", help="click even if covered")
    p = act("type", "Type text into an input, textarea or contenteditable element.")
    p.add_argument("id", type=int)
    p.add_argument("text")
    p.add_argument("--clear", action="store_true", help="clear the field first")
    p.add_argument("--submit", action="store_true", help="press Enter afterwards")
    p.add_argument("--per-char", action="store_true", help="one key event per character")
    p.add_argument("--include-values", action="store_true", help="report the field's value (masked)")
    p = act("key", "Press a key or shortcut, e.g. Enter, Escape, ArrowDown, Ctrl+A.")
    p.add_argument("key")
    p.add_argument("--modifiers", help="held keys, e.g. ctrl,shift")
    p.add_argument("--id", type=int, help="focus this element first")
    p.add_argument("--repeat", type=int, default=1)
    p = act("scroll", "Scroll the page, a container (--id) or an element into view (--to).")
    p.add_argument("--id", type=int, help="container to scroll (default: the page)")
    p.add_argument("--direction", choices=("down", "up", "left", "right"), default="down")
    p.add_argument("--amount", default="page", help="'page' or pixels")
    p.add_argument("--to", type=int, help="scroll this element into view instead")
    p = act("select", "Choose an option of a select, combobox or listbox by label or value.")
    p.add_argument("id", type=int)
    p.add_argument("value")
    p.add_argument("--include-values", action="store_true", help="report the chosen value (masked)")
    p = act("check", "Check (or --uncheck) a checkbox, radio, switch or toggle.")
    p.add_argument("id", type=int)
    p.add_argument("--uncheck", action="store_true")
    p = act("hover", "Move the mouse over an element.")
    p.add_argument("id", type=int)
    p.add_argument("--force", action="store_true")
    p = act("navigate", "Open a URL in the tab and wait for it to load.")
    p.add_argument("url")
    p.add_argument("--timeout", type=float)
    for name, text in (
        ("back", "Go back in the tab's history."),
        ("forward", "Go forward in the tab's history."),
    ):
        act(name, text).add_argument("--timeout", type=float)
    act("reload", "Reload the tab.").add_argument("--ignore-cache", action="store_true")
    p = act("wait", "Wait until text appears (--text) and/or disappears (--gone).")
    p.add_argument("--text")
    p.add_argument("--gone")
    p.add_argument("--timeout", type=float)


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
    p.add_argument("--format", choices=("text", "json", "semantic"), default="text")
    p.add_argument("--include-values", action="store_true", help="include form values (never passwords)")
    p.add_argument("--json-stats", action="store_true", help="print snapshot stats as JSON on stderr")
    p.add_argument("--viewport-only", action="store_true", help="only what is in view (2/3 of a box visible)")
    p.add_argument("--boxes", action="store_true", help="include element boxes (x, y, w, h)")
    p.add_argument("--max-depth", type=int, metavar="N", help="drop content nested deeper than N")
    p.add_argument("--max-elements", type=int, metavar="N", help="at most N elements: viewport first")
    p.add_argument(
        "--filter", metavar="CSS", help="only elements matching this selector (frames, shadow roots)"
    )
    p.add_argument("--max-tokens", type=int, metavar="N", help="token budget (default 6000, 0 = unlimited)")
    p.add_argument("--since-last", action="store_true", help="only what changed since the last view")
    p.add_argument("--query", metavar="TEXT", help="only the sections most relevant to TEXT")
    p.add_argument("--no-wait", action="store_true", help="do not wait for the DOM to be stable first")
    p.add_argument("--network-idle", action="store_true", help="stability also waits for network idle")
    p = command("legend", cmd_legend, "Print how to read a view (for a system prompt).")
    p.add_argument("--format", choices=("text", "semantic"), default="text", help="which view (default text)")

    p = command("cdp", cmd_cdp, "Run one allowlisted CDP command (debugging aid).")
    connects(p, tab=True)
    p.add_argument("method")
    p.add_argument("params", nargs="?", default="{}", help="JSON object")
    p.add_argument("--session", help="child session id (out-of-process iframe)")

    _action_commands(command, connects)

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
