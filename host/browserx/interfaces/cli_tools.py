"""The CLI's tool subcommands, derived from control/tools.py: one subcommand per tool, one
argument per params field (positionals as the tool declares them, the rest as ``--flags``, help
from the field's description), and how each kind of result is printed."""

from __future__ import annotations

import argparse
import base64
import json
import sys
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from browserx.control.client import Client
from browserx.control.tool_declaration import Tool
from browserx.control.tools import TOOLS
from browserx.interfaces.outcome import describe_action
from browserx.quoting import quote
from browserx.views import grammar

Printer = Callable[[argparse.Namespace, Any], None]


def print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False))


def command_name(tool: Tool) -> str:
    return tool.name.replace("_", "-")


# -- arguments from fields ------------------------------------------------------------------


def _list_of_words(text: str) -> list[str]:
    """Modifier keys as people write them: ctrl,shift or Ctrl+Shift."""
    return [m for m in text.replace("+", ",").split(",") if m]


def _local_path(text: str) -> str:
    """A path as the shell gave it, absolute from the CLI's working folder (the host has another)."""
    return str(Path(text).expanduser().absolute())


def _number_or_word(text: str) -> str | float:
    try:
        return float(text)
    except ValueError:
        return text


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("must be a JSON object")
    return value


def _json_fields(text: str) -> Any:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"not JSON: {exc}") from exc
    if not isinstance(value, dict | list):
        raise argparse.ArgumentTypeError('must be a JSON object ({"12": "Ann"}) or list')
    return value


def _converter(annotation: Any) -> tuple[Callable[[str], Any] | None, tuple[Any, ...] | None]:
    """(type function, choices) for a field's annotation; None: a flag (bool)."""
    args = [a for a in get_args(annotation) if a is not type(None)]
    if get_origin(annotation) in (typing.Union, types.UnionType):
        if set(args) == {str, float}:
            return _number_or_word, None
        if len(args) == 1:
            return _converter(args[0])
    if annotation is bool:
        return None, None
    if annotation in (int, float, str):
        return annotation, None
    if get_origin(annotation) is Literal:
        return str, get_args(annotation)
    if get_origin(annotation) is list and any(isinstance(a, type) and issubclass(a, BaseModel) for a in args):
        return _json_fields, None  # fill's fields: '{"12": "Ann", "13": true}' or a JSON list
    if get_origin(annotation) is list:
        return _list_of_words, None
    if get_origin(annotation) is dict or (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
        return _json_object, None  # an object (``--expect '{"url_contains": "/done"}'``), checked by the host
    raise TypeError(f"no CLI spelling for {annotation!r}")


# A flag that turns a default-on field off: what it does, in the flag's own words (the field's
# description says what "on" does). Others read "<field> = false (default: true): <description>".
NEGATED_HELP = {
    "wait_stable": "take the snapshot at once, without first waiting until the DOM stops changing "
    "(default: wait)",
    "checked": "uncheck it instead (default: check)",
}


def _default_text(field: FieldInfo) -> str | None:
    """The field's default as the command line would write it; None: no default worth showing
    (required, none, off, an empty list)."""
    value = field.default
    if value is PydanticUndefined or value is None or value is False or value == []:
        return None
    return f"{value:g}" if isinstance(value, float) else str(value)


def _help(name: str, field: FieldInfo) -> str:
    """The field's description, with its default when the description does not say it."""
    text = field.description or name.replace("_", " ")
    shown = _default_text(field)
    if shown is not None and "default" not in text.lower():
        text = f"{text.removesuffix('.')} (default: {shown})" + ("." if text.endswith(".") else "")
    return text


def _add_field(p: argparse.ArgumentParser, tool: Tool, name: str, field: FieldInfo) -> None:
    kind, choices = _converter(field.annotation)
    help_text = _help(name, field)
    if name in tool.positional and name not in tool.cli:
        if kind is None:
            raise TypeError(f"{tool.name}.{name}: a flag cannot be positional")
        nargs = None if field.is_required() else "?"
        if kind is _list_of_words:  # upload's paths: one argument each, made absolute here
            kind, nargs = _local_path, "+" if field.is_required() else "*"
        p.add_argument(name, type=kind, choices=choices, nargs=nargs, default=None, help=help_text)
        return
    flag = tool.cli.get(name, "--" + name.replace("_", "-"))
    if kind is None:  # a flag sets the opposite of the field's default
        on = field.default is not True
        if not on and flag == "--" + name.replace("_", "-"):
            flag = "--no-" + name.replace("_", "-")
        if not on:
            help_text = NEGATED_HELP.get(name, f"{name} = false (default: true): {field.description}")
        p.add_argument(flag, dest=name, action="store_const", const=on, default=None, help=help_text)
        return
    p.add_argument(flag, dest=name, type=kind, choices=choices, default=None, metavar=None, help=help_text,
                   required=field.is_required())  # fmt: skip


def add_tool_commands(sub: Any) -> None:
    """A subcommand per tool, on the CLI's subparsers."""
    for tool in TOOLS:
        p = sub.add_parser(
            command_name(tool), help=_first_sentence(tool.description), description=tool.description
        )
        p.set_defaults(func=run_tool, tool=tool)
        p.add_argument(
            "--socket", help="control socket path (default: $BROWSERX_SOCKET, else the only running host)"
        )
        p.add_argument("--json", action="store_true", help="print the whole result as JSON")
        for name, field in tool.params.model_fields.items():
            _add_field(p, tool, name, field)
        if tool.binary:
            p.add_argument("--out", required=True, metavar="FILE", help="write the image to FILE")
        elif tool.name == "snapshot":
            p.add_argument(
                "--out", metavar="FILE", help="--format hybrid: write its screenshot (JPEG) to FILE"
            )


def _first_sentence(text: str) -> str:
    return text.split(". ")[0].rstrip(".") + "."


def print_image(args: argparse.Namespace, result: dict[str, Any]) -> None:
    """Write the image to --out; say what was written (the data itself stays out of the terminal)."""
    data = base64.b64decode(result.pop("data"))
    Path(args.out).write_bytes(data)
    if args.json:
        print_json({**result, "out": args.out, "bytes": len(data)})
    else:
        print(f"{args.out}: {result['format']} {result['width']}x{result['height']}, phash {result['phash']}"
              + (f", {result['marks']} marks" if result.get("marks") else ""))  # fmt: skip


def run_tool(args: argparse.Namespace) -> int:
    tool: Tool = args.tool
    params = {n: getattr(args, n) for n in tool.params.model_fields if getattr(args, n) is not None}
    if tool.name == "snapshot" and args.out and args.format != "hybrid":
        print("browserx snapshot: --out writes the picture of --format hybrid", file=sys.stderr)
        return 2
    with Client(args.socket) as bx:
        result = bx.call(tool.name, **params)
        if tool.name == "snapshot" and getattr(args, "out", None) and _picture_held_back(result):
            _take_picture_again(bx, result)
    if tool.unwrap:
        result = result[tool.unwrap]
    printer: Printer = PRINTERS.get(tool.name) or print_action  # (every other tool has a printer)
    if tool.binary:
        print_image(args, result)
    elif args.json:
        if tool.name == "snapshot" and args.out:
            _hybrid_picture(args, result)  # the file, as without --json
        print_json(result)
    else:
        printer(args, result)
    return 0


# -- how results read -----------------------------------------------------------------------


def print_status(_: argparse.Namespace, status: dict[str, Any]) -> None:
    ext = status.get("extension") or {}
    build = (
        "compiled" if status.get("compiled") else "plain Python (run `make native` for the compiled build)"
    )
    print(f"host {status['version']} pid {status['pid']} socket {status['socket']} ({build})")
    print(
        f"extension {'connected' if status['extension_connected'] else 'DISCONNECTED'} {ext.get('version', '')}"
    )
    print(f"attached tabs: {status['attached_tabs'] or 'none'}")


def print_tabs(_: argparse.Namespace, tabs: list[dict[str, Any]]) -> None:
    for tab in tabs:
        mark = "*" if tab.get("active") and tab.get("focused") else " "
        # A title or URL is page text: quoted when it could break or pose as a line (views/grammar.py).
        title, url = grammar.title(tab.get("title", "")[:60]), grammar.url(tab.get("url", ""))
        print(f"{mark}{tab['tab']:>6}  {title:<60}  {url}")


def print_snapshot(args: argparse.Namespace, result: dict[str, Any]) -> None:
    view = args.format or "text"
    if view in ("json", "semantic"):
        print_json(result[view])
    elif view == "hybrid":  # the semantic view; what became of the picture goes to stderr
        print_json(result["semantic"])
        print(_hybrid_picture(args, result), file=sys.stderr)
    else:
        text = result["text"]
        sys.stdout.write(text if text.endswith("\n") else text + "\n")  # (stats must not glue on)
    if "stats" in result:
        sys.stdout.flush()  # the view before its stats, also where both streams go to one file
        print(json.dumps(result["stats"], ensure_ascii=False), file=sys.stderr)


def _picture_held_back(result: dict[str, Any]) -> bool:
    """A hybrid view whose picture the host did not send: unchanged since the last hybrid view
    of the tab (any client's), so only its hash came."""
    return (
        result.get("format") == "hybrid"
        and result.get("screenshot") is None
        and bool(result.get("screenshotHash"))
    )


def _take_picture_again(bx: Client, result: dict[str, Any]) -> None:
    """--out always gets a file: the held-back picture taken again, as the hybrid view takes it."""
    from browserx.control.snapshot_tool import HYBRID_MAX_WIDTH, HYBRID_QUALITY  # (this path only)

    shot = bx.call("screenshot", tab=result["tab"], mode="viewport", format="jpeg",
                   quality=HYBRID_QUALITY, max_width=HYBRID_MAX_WIDTH)  # fmt: skip
    result["screenshot"] = shot["data"]
    result["screenshotAgain"] = True  # (for the line saying what was written)


def _hybrid_picture(args: argparse.Namespace, result: dict[str, Any]) -> str:
    """Write a hybrid view's screenshot to --out (if given and there is one); say what happened."""
    if result.get("screenshotNote"):
        return f"screenshot: {result['screenshotNote']}"
    size = "x".join(str(n) for n in result.get("screenshotSize") or ())
    about = f"screenshot jpeg {size}, hash {result['screenshotHash']}"
    if result.get("screenshot") is None:
        return f"{about}: unchanged since the last hybrid view of this tab (not sent again; --out FILE writes it)"
    if args.out:
        Path(args.out).write_bytes(base64.b64decode(result["screenshot"]))
        again = (
            " (unchanged since the last hybrid view: taken again)"
            if result.pop("screenshotAgain", None)
            else ""
        )
        return f"{about}: written to {args.out}{again}"
    return f"{about} (--out FILE writes it)"


def print_html(_: argparse.Namespace, result: dict[str, Any]) -> None:
    """The HTML itself; the note on a cut one to stderr."""
    sys.stdout.write(result["html"] + "\n")
    if result.get("note"):
        print(result["note"], file=sys.stderr)


def print_action(_: argparse.Namespace, result: dict[str, Any]) -> None:
    """One line (the whole ActionResult with --json)."""
    print(describe_action(result))


def print_fill(_: argparse.Namespace, result: dict[str, Any]) -> None:
    """A line for the fill, then one per field (the whole result with --json)."""
    print(f"filled {result['filled']} field{'' if result['filled'] == 1 else 's'} in "
          f"{float(result.get('duration_ms') or 0):.0f} ms")  # fmt: skip
    for field in result["fields"]:
        print(f"  {describe_action(field)}")


def print_answer(_: argparse.Namespace, result: dict[str, Any]) -> None:
    """The person's answer, as they wrote it."""
    print(result["answer"])


def print_new_tab(args: argparse.Namespace, result: dict[str, Any]) -> None:
    """The new tab's id; with a URL, how the navigation went too."""
    print(f"opened tab {result['tab']}")
    if "action" in result:
        print_action(args, result)


def print_close_tab(_: argparse.Namespace, result: dict[str, Any]) -> None:
    print(f"closed tab {result['tab']}")


def print_activate_tab(_: argparse.Namespace, result: dict[str, Any]) -> None:
    print(f"tab {result['tab']} is the active tab of its window")


def print_release_tab(_: argparse.Namespace, result: dict[str, Any]) -> None:
    if result.get("released"):
        print(f"released tab {result['tab']}: detached, the next request attaches again")
    else:
        print(f"tab {result['tab']} was not attached: nothing to release")


def print_dialog(_: argparse.Namespace, result: dict[str, Any]) -> None:
    """What was answered, then what the page did next."""
    handled = result["handled"]
    verb = "accepted" if result.get("accepted") else "dismissed"
    print(f"{verb} the {handled['type']} dialog {quote(handled['message'])}")
    nxt = result.get("next_dialog")
    if nxt is not None:
        print(f"the page opened another: {nxt['type']} {quote(nxt['message'])}")
    elif result.get("navigated"):
        print(f"the page went on to {result.get('url', '')}")


def print_downloads(_: argparse.Namespace, downloads: list[dict[str, Any]]) -> None:
    """One line per download, newest first: its state, name, size and address."""
    if not downloads:
        print("no downloads in this tab")
    for d in downloads:
        size = f" ({d['size']} bytes)" if d.get("size") else ""
        print(f"{d['state']:<11} {quote(d['name'])}{size}  {d['url']}")


def print_console(_: argparse.Namespace, result: dict[str, Any]) -> None:
    """One line per message, oldest first: level, text (quoted: the page's words) and source."""
    if not result["messages"]:
        print("no console messages")
    for m in result["messages"]:
        source = f"  ({m['source']})" if m.get("source") else ""
        print(f"{m['level']:<7} {quote(m['text'])}{source}")


def print_targets(_: argparse.Namespace, sessions: list[dict[str, Any]]) -> None:
    """One line per child session (out-of-process iframe): its id, type and URL."""
    if not sessions:
        print("no child sessions (no out-of-process iframes)")
    for target in sessions:
        print(f"{target['session_id']}  {target['type']}  {target['url']}")


def print_cdp(_: argparse.Namespace, result: Any) -> None:
    """Raw CDP: its result is JSON data and reads best as such (indented; --json the same)."""
    print_json(result)


# A printer for every tool that is not an action (actions print one line, print_action) nor
# binary (the image goes to --out): tests/interfaces/test_cli.py checks none is missing.
PRINTERS: dict[str, Printer] = {
    "ask_user": print_answer,
    "status": print_status,
    "tabs": print_tabs,
    "snapshot": print_snapshot,
    "html": print_html,
    "new_tab": print_new_tab,
    "close_tab": print_close_tab,
    "activate_tab": print_activate_tab,
    "release_tab": print_release_tab,
    "dialog": print_dialog,
    "downloads": print_downloads,
    "console": print_console,
    "fill": print_fill,
    "targets": print_targets,
    "cdp": print_cdp,
}
