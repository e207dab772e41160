"""``browserx mcp``: the agent tools of control/tools.py as a Model Context Protocol server over
stdio, for Claude Desktop, Claude Code, Cursor, VS Code and any other MCP client.

Nothing here names a tool: the list, the descriptions and the input schemas all come from
``AGENT_TOOLS``, and every call is forwarded to the host through :class:`browserx.Client`, which
validates the params (``bad_request``) exactly as for any other client (the session's link to its
host, bound to one browser: interfaces/mcp_host_link.py). What this layer adds:

- actions (``Tool.acts``) take an ``observe`` argument, so an agent sees what its action did
  without a second round trip: the delta since its last snapshot (default), a full view, or none;
- results are rendered for an LLM (the text view as text, a one-line account of an action) and
  also returned as structured content;
- errors come back as tool results with ``isError`` and ``"<code>: <message>"``, so the model reads
  them and can correct itself;
- with ``--launch`` it starts a browser with the extension for this session (headless when there
  is no display) and stops it (and removes its throwaway profile) when the session ends; with
  ``--keep`` too it leaves the browser running and a later ``--keep`` session reuses it, so
  one-shot clients (a server started per call) keep working in one page.

stdout carries MCP messages only: logs go to stderr.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import Any, Literal

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from browserx._version import __version__
from browserx.control.tool_declaration import Tool
from browserx.control.tools import AGENT_TOOLS
from browserx.errors import BadRequest, BrowserxError, UnknownMethod
from browserx.interfaces.mcp_host_link import HostLink
from browserx.interfaces.mcp_input import guarded_input
from browserx.interfaces.outcome import describe_action
from browserx.runtime import browser_name
from browserx.setup.launch import Launched, display_available, launch_lock, reusable, stop_browser
from browserx.setup.launch import launch as launch_browser

log = logging.getLogger("browserx.mcp")

Observe = Literal["none", "delta", "full"]
OBSERVE_MODES: tuple[Observe, ...] = ("none", "delta", "full")
OBSERVE_SCHEMA: dict[str, Any] = {
    "type": "string",
    "enum": list(OBSERVE_MODES),
    "default": "delta",
    "description": (
        "What to return after the action: delta = only what changed on the page since the last "
        "snapshot (default), full = a new snapshot, none = just the outcome."
    ),
}

# Seconds a launched browser gets to exit on SIGTERM before SIGKILL. An MCP client closes our
# stdin and SIGTERMs us 2 s later (SIGKILL 2 s after that): stay well inside those 4 s.
BROWSER_GRACE_S = 2.5


def instructions() -> str:
    """What an MCP client may put in the model's system prompt: how to work with these tools and
    how to read the text view (its legend)."""
    from browserx.views.text import LEGEND  # the host's view package: only when a server starts

    return (
        "browserx drives the user's real browser. Work in a loop: `snapshot` a tab, act on an element "
        "by the ID in brackets ([12] button Save) with click/type/select/check/hover/scroll/key, and read "
        "what changed in the action's result (observe=delta, the default). Take a new snapshot after the "
        "page changed a lot or when an ID is reported stale.\n\n" + LEGEND
    )


def input_schema(tool: Tool) -> dict[str, Any]:
    """The tool's params as JSON Schema, plus ``observe`` for actions (the host never sees it)."""
    schema = tool.json_schema()
    if tool.acts:
        schema.setdefault("properties", {})["observe"] = dict(OBSERVE_SCHEMA)
    return schema


def tool_annotations(tool: Tool) -> types.ToolAnnotations:
    """The tool's declared hints as MCP annotations (the title again for clients before 2025-06-18)."""
    hints = tool.hints
    return types.ToolAnnotations(
        title=tool.title,
        read_only_hint=hints.read_only,
        destructive_hint=hints.destructive,
        idempotent_hint=hints.idempotent,
        open_world_hint=hints.open_world,
    )


def mcp_tools() -> list[types.Tool]:
    return [
        types.Tool(
            name=t.name,
            title=t.title,
            description=t.description,
            input_schema=input_schema(t),
            annotations=tool_annotations(t),
        )
        for t in AGENT_TOOLS
    ]


# -- rendering results for an LLM ------------------------------------------------------------------


def snapshot_text(result: dict[str, Any], view_format: str | None) -> str:
    if view_format in ("json", "semantic", "hybrid"):
        return json.dumps(result["semantic" if view_format == "hybrid" else view_format], ensure_ascii=False)
    return str(result["text"])


def hybrid_result(result: dict[str, Any]) -> types.CallToolResult:
    """The semantic view as text, then the screenshot as image content when there is one (None:
    unchanged since the last one sent, or not taken: a line says which); the structured content
    without the image data."""
    about = {k: v for k, v in result.items() if k != "screenshot"}
    content: list[types.ContentBlock] = [types.TextContent(text=snapshot_text(result, "hybrid"))]
    if result.get("screenshot") is not None:
        content.append(types.ImageContent(data=result["screenshot"], mime_type="image/jpeg"))
    elif result.get("screenshotNote"):
        content.append(types.TextContent(text=f"(screenshot: {result['screenshotNote']})"))
    else:
        hash_ = result.get("screenshotHash")
        content.append(types.TextContent(text=f"(screenshot unchanged since the last one: hash {hash_})"))
    return types.CallToolResult(content=content, structured_content=about)


def structured(result: Any) -> dict[str, Any]:
    """Structured content must be a JSON object before MCP 2026-07-28."""
    return result if isinstance(result, dict) else {"result": result}


def text_result(text: str, result: Any) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=structured(result))


def image_result(result: dict[str, Any]) -> types.CallToolResult:
    """The image as image content, what it is as text; the structured content without the data."""
    about = {k: v for k, v in result.items() if k != "data"}
    return types.CallToolResult(
        content=[
            types.ImageContent(data=result["data"], mime_type=f"image/{result['format']}"),
            types.TextContent(text=json.dumps(about, ensure_ascii=False)),
        ],
        structured_content=about,
    )


def error_result(exc: BrowserxError) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(text=f"{exc.code}: {exc.message}")],
        structured_content=exc.to_dict(),
        is_error=True,
    )


def run_tool(link: HostLink, tool: Tool, arguments: dict[str, Any]) -> types.CallToolResult:
    """One tools/call, in a worker thread (the Client is synchronous). Raises BrowserxError."""
    if not tool.acts:
        result = link.call(tool.name, **arguments)
        if tool.name == "snapshot" and arguments.get("format") == "hybrid":
            return hybrid_result(result)
        if tool.name == "snapshot":
            return text_result(snapshot_text(result, arguments.get("format")), result)
        if tool.binary:
            return image_result(result)
        if tool.name == "html":  # the HTML as it is, not escaped inside JSON
            return text_result(
                str(result["html"]) + (f"\n<!-- {result['note']} -->" if result.get("note") else ""), result
            )
        return text_result(json.dumps(result, ensure_ascii=False), result)
    observe = arguments.pop("observe", "delta")
    if observe not in OBSERVE_MODES:
        raise BadRequest(f"observe must be one of {', '.join(OBSERVE_MODES)}, not {observe!r}.")
    with link.session() as call:  # the view right after the action, nothing in between
        result = call(tool.name, **arguments)
        text = describe_action(result)
        if observe != "none":
            tab = result.get("tab", arguments.get("tab"))
            try:
                view = call("snapshot", tab=tab, since_last=observe == "delta" or None)
                text += "\n\n" + str(view["text"])
            except BrowserxError as exc:  # the action happened: report it, and why there is no view
                text += f"\n\n(no view after the action: {exc.code}: {exc.message})"
    return text_result(text, result)


# -- the MCP server -------------------------------------------------------------------------------------


def build_server(link: HostLink) -> Server[Any]:
    tools = mcp_tools()
    by_name = {t.name: t for t in AGENT_TOOLS}

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        tool = by_name.get(params.name)
        if tool is None:
            return error_result(
                UnknownMethod(f"No tool named {params.name!r}; the tools are: {', '.join(by_name)}.")
            )
        try:
            # abandon_on_cancel: a cancelled request (or the session ending) must not wait for the
            # host; the thread finishes on its own, and the next call waits for it on the lock.
            return await anyio.to_thread.run_sync(
                partial(run_tool, link, tool, dict(params.arguments or {})), abandon_on_cancel=True
            )
        except BrowserxError as exc:
            return error_result(exc)

    return Server(
        "browserx",
        version=__version__,
        title="browserx",
        description="Eyes and hands for an LLM agent in a real, logged-in browser.",
        instructions=instructions(),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


# -- a browser of its own (--launch) ------------------------------------------------------------------


def _launch(headless: bool, url: str | None = None, keep: bool = False) -> Launched:
    if not headless and not display_available():
        log.info("no display ($DISPLAY and $WAYLAND_DISPLAY are unset): the browser runs headless")
        headless = True
    try:
        if keep:
            with launch_lock():  # sessions started together share one browser
                reused = reusable()
                if reused is not None:
                    log.info(
                        "reusing browser pid %d, profile %s, host socket %s (left running by --keep or "
                        "browserx launch; browserx stop ends it)",
                        reused.browser_pid, reused.user_data_dir, reused.host.socket,
                    )  # fmt: skip
                    return reused
                launched = _start(headless, url)
        else:
            launched = _start(headless, url)
    except Exception as exc:  # every tool call answers it too (HostLink._socket)
        log.error("starting a browser failed: %s", exc)
        raise
    log.info(
        "launched browser pid %d, profile %s, host socket %s",
        launched.browser_pid,
        launched.user_data_dir,
        launched.host.socket,
    )
    return launched


def _start(headless: bool, url: str | None) -> Launched:
    # about:blank, not the browser's new-tab page: a chrome:// page cannot be debugged, so an
    # agent's first `navigate` in the only tab would fail.
    return launch_browser(url=url or "about:blank", headless=headless)


def _stop_launched(launching: Future[Launched]) -> None:
    try:
        launched = launching.result()  # a launch still under way finishes first: it is then stopped
    except Exception:  # it failed: nothing was left running (launch() stops what it started)
        return
    stop_browser(launched.browser_pid, launched.user_data_dir, BROWSER_GRACE_S)


# -- running ---------------------------------------------------------------------------------------------


async def serve(
    socket_path: str | None = None,
    launch: bool = False,
    headless: bool = False,
    url: str | None = None,
    keep: bool = False,
) -> None:
    """Serve one MCP session on stdin/stdout until the client closes stdin (or SIGTERM/SIGINT).
    ``launch``: in a browser of its own, opened at ``url`` (when it starts: a reused one stays
    where it is); ``keep``: left running at the end, and reused if an earlier session left one."""
    executor: ThreadPoolExecutor | None = None
    launching: Future[Launched] | None = None
    if launch:
        # In the background: the client gets its initialize answer and tool list at once; the
        # first tool call waits for the browser.
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="browserx-launch")
        launching = executor.submit(_launch, headless, url, keep)
    link = HostLink(socket_path, launching)
    pinned = link.pin()  # several hosts and none named: ambiguous_host, before serving anything
    if pinned is not None:
        log.info(
            "bound to host pid %d (%s, profile %s)",
            pinned.pid, browser_name(pinned.browser), pinned.profile or "default",
        )  # fmt: skip
    server = build_server(link)
    cleanup_lock = anyio.Lock()
    cleaned_up = False

    async def cleanup() -> None:
        nonlocal cleaned_up
        with anyio.CancelScope(shield=True):
            async with cleanup_lock:
                if cleaned_up:
                    return
                cleaned_up = True
                link.close()
                if launching is not None and not keep:
                    await anyio.to_thread.run_sync(_stop_launched, launching)
                if executor is not None:
                    executor.shutdown(wait=False)

    # Signals stay caught until the end, cleanup included: an MCP client closes our stdin, then
    # sends SIGTERM if we take long, which must not cut the stopping of our browser short.
    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        try:
            async with anyio.create_task_group() as tg:

                async def stop_on_signal() -> None:
                    async for signum in signals:
                        # Terminate as the signal would, once our browser is stopped: the SDK's
                        # stdin reader is a thread blocked on a read no cancellation can end.
                        log.info("signal %d: stopping", signum)
                        await cleanup()
                        os._exit(128 + signum)

                tg.start_soon(stop_on_signal)
                async with (
                    stdio_server() as (raw_read_stream, write_stream),
                    guarded_input(raw_read_stream, write_stream) as read_stream,
                ):
                    await server.run(read_stream, write_stream, server.create_initialization_options())
                tg.cancel_scope.cancel()
        finally:
            await cleanup()


def main(
    socket_path: str | None = None,
    launch: bool = False,
    headless: bool = False,
    url: str | None = None,
    keep: bool = False,
) -> int:
    # The server's own log and launch's (stopping the browser), on stderr: stdout is the protocol's.
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("browserx mcp: %(message)s"))
    for logger in (log, logging.getLogger("browserx.setup.launch")):
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    anyio.run(partial(serve, socket_path, launch, headless, url, keep))
    return 0


__all__ = ["build_server", "input_schema", "main", "mcp_tools", "serve", "tool_annotations"]
