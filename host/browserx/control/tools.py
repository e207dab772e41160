"""Every tool browserx offers, declared once: its name, what it does (written for an LLM), its
params model (control/schemas.py, a description on every field) and how clients call it (what a
declaration holds: ``Tool`` and ``Hints``, control/tool_declaration.py).

Everything else is derived from this list: the control server's dispatch (each tool's
implementation is bound to it by name, control/bindings.py: a tool without one, or one of no tool,
fails the import of control/api.py), the ``Client`` methods (generated into
control/client_tools.py by ``scripts/gen_client.py``, checked fresh by a test), the MCP server's
tools (interfaces/mcp_server.py), the function-calling schemas (interfaces/schema.py) and the
tool reference in docs/TOOLS.md. Light on purpose: pydantic only, so clients and the CLI import it
without the host stack.
"""

from __future__ import annotations

from browserx.control.schemas import (
    ActivateTabParams,
    AskUserParams,
    CdpParams,
    CheckParams,
    ClickAtParams,
    ClickParams,
    CloseTabParams,
    ConsoleParams,
    DialogParams,
    DownloadsParams,
    DragParams,
    FillParams,
    HistoryParams,
    HoverAtParams,
    HoverParams,
    HtmlParams,
    KeyParams,
    NavigateParams,
    NewTabParams,
    ReleaseTabParams,
    ReloadParams,
    ScreenshotParams,
    ScrollParams,
    SelectParams,
    SnapshotParams,
    StatusParams,
    TabsParams,
    TargetsParams,
    TypeParams,
    UploadParams,
    WaitParams,
)
from browserx.control.tool_declaration import INPUT, MOVES, READS, SETS, TAB_FOCUS, Hints, Tool

ID_NOTE = (
    "Element IDs are the numbers in brackets in a snapshot of the same tab ([12] button Save); an "
    "ID keeps naming its element across snapshots while the element lives, and is never reused."
)

TOOLS: tuple[Tool, ...] = (
    Tool(
        "tabs",
        "List the browser's open tabs: id, URL, title, whether active and attached. Use it to find the "
        "`tab` id other tools take; without `tab` they act on the active tab of the focused window.",
        TabsParams,
        unwrap="tabs",
        title="List tabs",
        hints=READS,
    ),
    Tool(
        "snapshot",
        "See a tab: a compact text outline of the page with an ID in brackets on every element you can "
        "act on ([12] button Save, [13] textbox Email). Take one before acting and after the page "
        "changes; act by ID with click/type/select/check/hover/scroll/key. Options: `query` keeps the "
        "sections relevant to a question, `since_last` shows only what changed, `max_tokens` bounds the "
        "size (default 6000), `format` json/semantic for structured output, hybrid for semantic plus "
        "a JPEG of the viewport (null when unchanged since the last one). " + ID_NOTE,
        SnapshotParams,
        cli={"wait_stable": "--no-wait", "stats": "--json-stats"},
        title="Read the page",
        hints=READS,
    ),
    Tool(
        "click",
        "Click an element by its ID from the latest snapshot (a real mouse click at a visible point: "
        "fails with `occluded` if something covers it). Also double/right click, modifier keys.",
        ClickParams,
        positional=("id",),
        acts=True,
        title="Click an element",
        hints=INPUT,
    ),
    Tool(
        "type",
        "Type text into a text field, textarea or contenteditable element by ID (focuses it first). "
        "`clear` replaces the current value; `submit` presses Enter after. Date, time, color and range "
        "inputs take their value as text (2026-11-26, 13:45, #ff0000, 40).",
        TypeParams,
        positional=("id", "text"),
        python_name="type_text",
        acts=True,
        title="Type into a field",
        hints=INPUT,
    ),
    Tool(
        "key",
        "Press a key or shortcut (Enter, Escape, Tab, ArrowDown, Ctrl+A, ...), optionally focusing an "
        "element by ID first; otherwise it goes to whatever has focus.",
        KeyParams,
        positional=("key",),
        acts=True,
        title="Press a key",
        hints=INPUT,
    ),
    Tool(
        "scroll",
        "Scroll the page (default) or the scrollable container with this ID, by a page or a number of "
        "pixels; or bring the element `to_id` into view. Snapshots mark content beyond the viewport.",
        ScrollParams,
        positional=("id",),
        acts=True,
        cli={"id": "--id", "to_id": "--to"},
        title="Scroll",
        hints=MOVES,
    ),
    Tool(
        "select",
        "Choose an option by its label in a dropdown, combobox or listbox by ID (native <select> and "
        "ARIA widgets alike).",
        SelectParams,
        positional=("id", "value"),
        acts=True,
        title="Choose an option",
        hints=SETS,
    ),
    Tool(
        "check",
        "Set a checkbox, radio button, switch or toggle button by ID to checked (default) or unchecked; "
        "does nothing if it already is.",
        CheckParams,
        positional=("id", "checked"),
        acts=True,
        cli={"checked": "--uncheck"},
        title="Check or uncheck",
        hints=SETS,
    ),
    Tool(
        "fill",
        "Fill several fields of a form in one call, in order: text fields are typed into (their value "
        "replaced), dropdowns choose the option with the label given, checkboxes, radios and switches "
        "take true or false, file inputs a file's path. One result per field; stops at the first field "
        "that fails, saying what was done before it. Nothing is submitted: click the submit button after.",
        FillParams,
        positional=("fields",),
        acts=True,
        title="Fill a form",
        hints=SETS,
    ),
    Tool(
        "upload",
        "Put files from this computer into a file input by ID (listed as `button ... (type=file)`), or "
        "through the button or label that opens a file dialog: the page gets them as if the person had "
        "chosen them. Absolute paths (or ~/...). Unless they are in a folder the person allowed, the "
        "person is asked first in browserx's popup (file names and sizes shown); `denied_by_user` if "
        "they refuse. Only names and sizes are reported, never content.",
        UploadParams,
        positional=("id", "paths"),
        acts=True,
        title="Upload files",
        hints=Hints(read_only=False, destructive=False, idempotent=True, open_world=True),
    ),
    Tool(
        "hover",
        "Move the mouse over an element by ID (menus and tooltips that open on hover).",
        HoverParams,
        positional=("id",),
        acts=True,
        title="Hover over an element",
        hints=SETS,
    ),
    Tool(
        "drag",
        "Drag an element by ID and drop it on another (`to_id`), or on a point of the viewport (`x`, "
        "`y`, CSS pixels: a canvas, a slider track): reorder a list, move a card to another column, "
        "drop a file row on a folder. A real mouse drag (press, moves, release), so sortable lists and "
        "kanban boards react as to a person; `draggable` elements get HTML5 drag events. The result's "
        "`drag` says what changed: the element's new rank, container or position.",
        DragParams,
        positional=("id", "to_id"),
        acts=True,
        cli={"to_id": "--to"},
        title="Drag and drop",
        hints=INPUT,
    ),
    Tool(
        "click_at",
        "Click a point of the viewport, in CSS pixels from its top-left corner, for what has no ID: a "
        "canvas, a map, a chart, a spot in a picture (find the point in a screenshot, which has one pixel "
        "per CSS pixel unless scaled). The result's `hit` names the element that was there.",
        ClickAtParams,
        positional=("x", "y"),
        acts=True,
        title="Click a point",
        hints=INPUT,
    ),
    Tool(
        "hover_at",
        "Move the mouse to a point of the viewport (CSS pixels), for hover effects on a canvas or map; "
        "`hit` names the element there.",
        HoverAtParams,
        positional=("x", "y"),
        acts=True,
        title="Hover over a point",
        hints=SETS,
    ),
    Tool(
        "navigate",
        "Open a URL in the tab and wait for it to load. http(s) only (file:// when the user allowed it).",
        NavigateParams,
        positional=("url",),
        acts=True,
        title="Open a URL",
        hints=SETS,
    ),
    Tool(
        "back",
        "Go back one page in the tab's history.",
        HistoryParams,
        acts=True,
        title="Go back",
        hints=MOVES,
    ),
    Tool(
        "forward",
        "Go forward one page in the tab's history.",
        HistoryParams,
        acts=True,
        title="Go forward",
        hints=MOVES,
    ),
    Tool(
        "reload",
        "Reload the tab (also brings back a tab whose page crashed).",
        ReloadParams,
        acts=True,
        title="Reload the tab",
        hints=SETS,
    ),
    Tool(
        "wait",
        "Wait until some text appears on the page and/or other text disappears (a save confirmation, "
        "a spinner going away), up to `timeout` seconds.",
        WaitParams,
        acts=True,
        title="Wait for text",
        hints=READS,
    ),
    Tool(
        "dialog",
        "Answer the JavaScript dialog (alert, confirm, prompt, beforeunload) the page opened: while one "
        "is open, every other call on the tab fails with `dialog_open`, which quotes it. `accept` is OK, "
        "`dismiss` is Cancel; `text` answers a prompt. The result says what the page did next (another "
        "dialog, a new page).",
        DialogParams,
        positional=("action",),
        title="Answer a dialog",
        hints=INPUT,
    ),
    Tool(
        "downloads",
        "The files the tab's pages downloaded lately, newest first: name, address, size and state "
        "(in_progress, completed, canceled). Chrome saves them where the person's settings say. An "
        "action that starts a download also lists it in its own result (`downloads`).",
        DownloadsParams,
        unwrap="downloads",
        title="List downloads",
        hints=READS,
    ),
    Tool(
        "console",
        "The tab's console messages and uncaught errors since its page loaded (level, text as the page "
        "wrote it, source file and line): why a button did nothing, what failed behind a spinner. "
        "`level` keeps warnings and errors, or errors only.",
        ConsoleParams,
        title="Read the console",
        hints=READS,
    ),
    Tool(
        "screenshot",
        "Take a picture of the tab: what is in view (default), the whole page, or one element by ID. "
        "Use it for what text cannot say (charts, icons, canvas, layout, colours). With `marks`, every "
        "element in view that has an ID is boxed and labelled with it, so you can click what you see. "
        "Returns the image and a perceptual hash (`phash`): an unchanged page gives the same hash.",
        ScreenshotParams,
        binary=True,
        title="Take a screenshot",
        hints=READS,
    ),
    Tool(
        "html",
        "The page as HTML, built from a fresh snapshot. `skeleton` (default, small): only the elements "
        'you can act on, each with data-id="ID" (the IDs of `snapshot`), in their forms, dialogs and '
        "landmarks. `full`: the whole visible page, annotated (data-id, data-interactive, data-frame), "
        "scripts, styles and hidden parts left out, long runs of alike elements shortened; use it when "
        "the text view lacks what you need (markup, attributes, structure). Cut at `max_chars` "
        "(`truncated` says so).",
        HtmlParams,
        title="Read the page as HTML",
        hints=READS,
    ),
    Tool(
        "new_tab",
        "Open a new tab, optionally at a URL, and make it the active one; returns its `tab` id.",
        NewTabParams,
        positional=("url",),
        title="Open a new tab",
        hints=MOVES,
    ),
    Tool(
        "close_tab",
        "Close a tab by id.",
        CloseTabParams,
        positional=("tab",),
        title="Close a tab",
        hints=Hints(read_only=False, destructive=True, idempotent=True, open_world=False),
    ),
    Tool(
        "activate_tab",
        "Bring a tab to the front (and its window into focus), as a person switching tabs would.",
        ActivateTabParams,
        positional=("tab",),
        title="Switch to a tab",
        hints=TAB_FOCUS,
    ),
    Tool(
        "release_tab",
        'Stop controlling a tab: browserx detaches from it and Chrome\'s "started debugging this browser" '
        "banner goes away. The next request on the tab attaches again (take a new snapshot then).",
        ReleaseTabParams,
        positional=("tab",),
        title="Release a tab",
        hints=TAB_FOCUS,
    ),
    Tool(
        "ask_user",
        "Ask the person at the browser a question and wait for their answer: it shows in browserx's "
        "toolbar popup (the badge shows ?), with an Answer box and `choices` as buttons. For what only "
        "they know or decide (which size, which account, may I pay); fails with `no_answer` when they "
        "do not answer within `timeout_s` seconds.",
        AskUserParams,
        positional=("question",),
        title="Ask the person",
        hints=Hints(read_only=True, destructive=False, idempotent=False, open_world=False),
    ),
    Tool(
        "status",
        "Health of the host: version, extension connection, attached tabs, settings.",
        StatusParams,
        agent=False,
        title="Host status",
        hints=READS,
    ),
    Tool(
        "cdp",
        "Run one allowlisted Chrome DevTools Protocol command in a tab (off unless the user enabled "
        "allow_raw_cdp).",
        CdpParams,
        positional=("method", "params"),
        agent=False,
        cli={"session_id": "--session"},
        title="Raw DevTools command",
        hints=INPUT,
    ),
    Tool(
        "targets",
        "The child CDP sessions (out-of-process iframes) of a tab.",
        TargetsParams,
        positional=("tab",),
        agent=False,
        unwrap="sessions",
        title="List frame sessions",
        hints=READS,
    ),
)

TOOLS_BY_NAME: dict[str, Tool] = {t.name: t for t in TOOLS}
AGENT_TOOLS: tuple[Tool, ...] = tuple(t for t in TOOLS if t.agent)

__all__ = ["AGENT_TOOLS", "TOOLS", "TOOLS_BY_NAME"]
