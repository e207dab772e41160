"""Control-socket messages: newline-delimited JSON, one request → one response with the same id.

Request:  ``{"id": 1, "method": "tabs", "params": {...}}``
Response: ``{"id": 1, "ok": true, "result": {...}}`` or
          ``{"id": 1, "ok": false, "error": {"code": "unknown_tab", "message": "..."}}``
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from browserx.expectations import Expect

MAX_REQUEST_BYTES = 4 * 1024 * 1024


class Params(BaseModel):
    """Base of every method's params: unknown fields are an error, not silently ignored, and types
    are taken as they are (strict): an ID of true, 1.0 or "12" is a bad request, not element 1."""

    model_config = ConfigDict(extra="forbid", strict=True)


class TabParams(Params):
    tab: int | None = Field(default=None, description="Tab id; default: the active tab.")


class ControlRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: int | str = Field(description="Echoed back in the response.")
    method: str = Field(description="Method name, e.g. 'tabs'.")
    params: dict[str, Any] = Field(default_factory=dict, description="Method parameters.")


class StatusParams(Params):
    pass


class TabsParams(Params):
    pass


class CdpParams(TabParams):
    method: str = Field(description="CDP method, e.g. 'Runtime.evaluate' (must be allowlisted).")
    params: dict[str, Any] = Field(default_factory=dict, description="CDP params.")
    session_id: str | None = Field(
        default=None, description="Child session (out-of-process iframe) to run it in."
    )
    timeout: float | None = Field(default=None, gt=0, le=300, description="Seconds to wait.")


class TargetsParams(TabParams):
    pass


class SnapshotParams(TabParams):
    format: Literal["text", "json", "semantic", "hybrid"] = Field(
        default="text",
        description="View to render: text outline, json tree, the minified semantic contract, or hybrid: "
        "semantic plus a JPEG of the viewport (null when unchanged since the last one).",
    )
    include_values: bool = Field(
        default=False, description="Include form values (never passwords; card numbers and SSNs masked)."
    )
    stats: bool = Field(default=False, description="Include snapshot stats and token count.")
    viewport_only: bool = Field(
        default=False,
        description="Only what is in view (an element counts when >= 2/3 of its box is visible).",
    )
    boxes: bool = Field(default=False, description="Include each element's box (x, y, width, height).")
    max_depth: int | None = Field(default=None, ge=0, description="Drop content nested deeper than this.")
    max_elements: int | None = Field(
        default=None,
        ge=1,
        description="At most this many elements with IDs: the viewport first, then document order.",
    )
    filter: str | None = Field(
        default=None,
        description="CSS selector: only matching elements and their content (matched in every frame and shadow root).",
    )
    max_tokens: int | None = Field(
        default=None, ge=0,
        description="Token budget (cl100k); over it the viewport comes first and the rest is summarised. "
        "Default 6000; 0 = unlimited.",
    )  # fmt: skip
    since_last: bool = Field(
        default=False,
        description="Only what changed since the last view of this tab (new, changed, removed).",
    )
    query: str | None = Field(
        default=None,
        description="Keep only the page sections most relevant to this text (BM25), within max_tokens.",
    )
    wait_stable: bool = Field(default=True, description="First wait until the DOM stops changing.")
    stability_ms: int = Field(
        default=300, ge=0, le=10_000, description="Quiet time that counts as stable, ms."
    )
    stability_timeout_ms: int = Field(
        default=3000,
        ge=0,
        le=60_000,
        description="Longest stability wait, ms (the snapshot is taken anyway).",
    )
    network_idle: bool = Field(
        default=False, description="Stability also needs no resource loads finished in the last 500 ms."
    )


# -- actions ------------------------------------------------------------------------------


class ActionParams(TabParams):
    expect: Expect | None = Field(
        default=None,
        description='Check the outcome: e.g. {"url_contains": "/done"}, {"element_appears": '
        '{"text": "Saved"}}, {"or": [{"navigation": true}, {"element_appears": {"role": '
        '"dialog"}}]}. The result\'s `verification` says whether it held, and what happened instead.',
    )


class ClickParams(ActionParams):
    id: int = Field(description="Element ID from a snapshot of this tab.")
    button: Literal["left", "right", "middle"] = Field(default="left", description="Mouse button.")
    count: int = Field(default=1, ge=1, le=3, description="1 = click, 2 = double click.")
    modifiers: list[str] = Field(default_factory=list, description="Held keys: Alt, Ctrl, Meta, Shift.")
    force: bool = Field(default=False, description="Click even if another element covers the target.")


class TypeParams(ActionParams):
    id: int = Field(description="ID of an input, textarea or contenteditable element.")
    text: str = Field(description="Text to insert.")
    clear: bool = Field(default=False, description="Clear the current value first.")
    submit: bool = Field(default=False, description="Press Enter afterwards.")
    per_char: bool = Field(default=False, description="Send a key event per character (slower).")
    delay_ms: int = Field(
        default=0,
        ge=0,
        le=1000,
        description="With per_char: pause between characters, ms (as a person types).",
    )
    blur: bool = Field(
        default=False, description="Leave the field afterwards (fires its change and blur events)."
    )
    include_values: bool = Field(
        default=False, description="Return the field's value after the action (masked; never passwords)."
    )


class KeyParams(ActionParams):
    key: str = Field(description="Key name (Enter, Tab, Escape, ArrowDown, a, F5, ...) or combo 'Ctrl+A'.")
    modifiers: list[str] = Field(default_factory=list, description="Held keys: Alt, Ctrl, Meta, Shift.")
    id: int | None = Field(default=None, description="Focus this element first; default: what has focus.")
    repeat: int = Field(default=1, ge=1, le=100, description="Press the key this many times.")


class ScrollParams(ActionParams):
    id: int | None = Field(
        default=None, description="Scroll this container (or the one holding it); default: page."
    )
    direction: Literal["down", "up", "left", "right"] = Field(default="down", description="Direction.")
    amount: str | float = Field(default="page", description="'page' or a number of CSS pixels.")
    to_id: int | None = Field(default=None, description="Instead: scroll this element into view.")


class SelectParams(ActionParams):
    id: int = Field(description="ID of a <select>, combobox or listbox.")
    value: str = Field(description="Option label (or value) to choose.")
    include_values: bool = Field(
        default=False, description="Return the field's value after the action (masked; never passwords)."
    )


class CheckParams(ActionParams):
    id: int = Field(description="ID of a checkbox, radio, switch or toggle button.")
    checked: bool = Field(default=True, description="Desired state.")


class FillField(BaseModel):
    """One field of a form and what to put in it."""

    model_config = ConfigDict(extra="forbid", strict=True)

    id: int = Field(
        description="ID of the field: a text field, textarea, dropdown, checkbox, radio, switch or file input."
    )
    value: str | bool = Field(
        description="Text for a text field (its value is replaced; dates as 2026-11-26), an option's "
        "label for a dropdown, true or false for a checkbox, radio or switch, a file's absolute path for a "
        "file input (asked of the person unless in a folder they allowed)."
    )


class FillParams(ActionParams):
    fields: list[FillField] = Field(
        min_length=1,
        max_length=100,
        description="The fields in the order to fill them. Stops at the first that fails.",
    )

    @field_validator("fields", mode="before")
    @classmethod
    def _from_mapping(cls, value: Any) -> Any:
        """Also ``{"12": "Ann", "13": true}`` (the CLI's and a person's shorthand), in its order."""
        if isinstance(value, dict):
            try:
                return [{"id": int(key), "value": item} for key, item in value.items()]
            except ValueError:
                raise ValueError("a field's key is its element ID, a number") from None
        return value


class HoverParams(ActionParams):
    id: int = Field(description="Element ID to move the mouse over.")
    force: bool = Field(default=False, description="Hover even if another element covers the target.")


class DragParams(ActionParams):
    id: int = Field(description="ID of the element to drag (a card, a list item, a handle).")
    to_id: int | None = Field(default=None, description="ID of the element to drop it on.")
    x: float | None = Field(
        default=None, description="Instead of `to_id`: the drop point's x in the viewport, in CSS pixels."
    )
    y: float | None = Field(
        default=None, description="Instead of `to_id`: the drop point's y in the viewport, in CSS pixels."
    )
    force: bool = Field(default=False, description="Drag even if another element covers either end.")


class UploadParams(ActionParams):
    id: int = Field(
        description="ID of a file input (listed as `button ... (type=file)`) or of the button or label that "
        "opens a file chooser."
    )
    paths: list[str] = Field(
        min_length=1,
        max_length=50,
        description="Absolute paths of the files to upload (or ~/...), on the computer the browser runs on.",
    )


class PointParams(ActionParams):
    x: float = Field(
        ge=0, description="Viewport x in CSS pixels (from the left edge of the page's visible area)."
    )
    y: float = Field(
        ge=0, description="Viewport y in CSS pixels (from the top edge of the page's visible area)."
    )


class ClickAtParams(PointParams):
    button: Literal["left", "right", "middle"] = Field(default="left", description="Mouse button.")
    count: int = Field(default=1, ge=1, le=3, description="1 = click, 2 = double click.")
    modifiers: list[str] = Field(default_factory=list, description="Held keys: Alt, Ctrl, Meta, Shift.")


class HoverAtParams(PointParams):
    pass


class NavigateParams(ActionParams):
    url: str = Field(description="URL to open in the tab.")
    timeout: float = Field(default=30.0, gt=0, le=300, description="Seconds to wait for the page.")


class HistoryParams(ActionParams):
    timeout: float = Field(default=30.0, gt=0, le=300, description="Seconds to wait for the page.")


class ReloadParams(HistoryParams):
    ignore_cache: bool = Field(default=False, description="Bypass the cache.")


class DialogParams(TabParams):
    action: Literal["accept", "dismiss"] = Field(
        description="accept (OK) or dismiss (Cancel) the JavaScript dialog open in the tab."
    )
    text: str | None = Field(
        default=None, max_length=10_000, description="A prompt's answer, typed into it before accepting."
    )


class WaitParams(ActionParams):
    text: str | None = Field(default=None, description="Wait until this text is on the page.")
    gone: str | None = Field(default=None, description="Wait until this text is no longer on the page.")
    timeout: float = Field(default=10.0, gt=0, le=300, description="Seconds to wait.")


# -- tabs ---------------------------------------------------------------------------------


class NewTabParams(Params):
    url: str | None = Field(default=None, description="URL to open; default: an empty tab (about:blank).")
    timeout: float = Field(default=30.0, gt=0, le=300, description="Seconds to wait for the page.")


class CloseTabParams(Params):
    tab: int = Field(description="Tab id (from `tabs`).")


class ActivateTabParams(Params):
    tab: int = Field(description="Tab id (from `tabs`).")


class ReleaseTabParams(Params):
    tab: int = Field(description="Tab id (from `tabs`).")


# -- pixels -------------------------------------------------------------------------------


class ScreenshotParams(TabParams):
    mode: Literal["viewport", "full_page", "element"] = Field(
        default="viewport",
        description="What to capture: what is in view, the whole page, or one element (needs id).",
    )
    id: int | None = Field(default=None, description="Element ID for mode element: its box without padding.")
    format: Literal["png", "jpeg"] = Field(default="png", description="Image format.")
    quality: int = Field(default=70, ge=1, le=100, description="JPEG quality.")
    max_width: int | None = Field(
        default=None,
        ge=16,
        le=10_000,
        description="Scale down to at most this many pixels wide (default: 1 px per CSS px).",
    )
    marks: bool = Field(
        default=False,
        description="Draw a box and its ID on every element in view that has an ID (Set-of-Mark).",
    )
    show_effects: bool = Field(
        default=False,
        description="Keep browserx's own cursor and outline (shown to the person while it acts) in "
        "the picture; left out by default.",
    )


# -- page source --------------------------------------------------------------------------


class DownloadsParams(TabParams):
    pass


class ConsoleParams(TabParams):
    level: Literal["all", "warning", "error"] = Field(
        default="all", description="Which messages: all, warnings and errors, or errors only."
    )
    limit: int = Field(default=50, ge=1, le=500, description="At most this many, the latest.")


class HtmlParams(TabParams):
    mode: Literal["skeleton", "full"] = Field(
        default="skeleton",
        description="skeleton: only the elements with IDs (data-id) in their landmarks, forms and "
        "dialogs; full: the whole visible page as annotated HTML.",
    )
    max_chars: int = Field(
        default=50_000,
        ge=100,
        le=200_000,
        description="Cut the HTML at this many characters (it still ends with every tag closed).",
    )
    include_values: bool = Field(
        default=False, description="Include form values (never passwords; card numbers and SSNs masked)."
    )


# -- the person ---------------------------------------------------------------------------

MAX_ASK_TIMEOUT_S = 900.0


class AskUserParams(Params):
    question: str = Field(
        min_length=1, max_length=1000, description="The question, as the person will read it in the popup."
    )
    choices: list[str] | None = Field(
        default=None,
        max_length=10,
        description="Answers to offer as buttons (the person may still type another).",
    )
    timeout_s: float = Field(
        default=300.0,
        gt=0,
        le=MAX_ASK_TIMEOUT_S,
        description="Seconds to wait for the answer (then no_answer).",
    )

    @field_validator("choices")
    @classmethod
    def _short_choices(cls, choices: list[str] | None) -> list[str] | None:
        if choices is not None and any(not c.strip() or len(c) > 100 for c in choices):
            raise ValueError("each choice is 1 to 100 characters")
        return choices
