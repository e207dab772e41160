"""One adapter per tool run.py compares, each observing the shared tab of the one browser the way
its users call it: ``browserx`` (and its whole-page variant), ``browser_use``, ``playwright``.

An adapter has a ``name``, ``async snapshot() -> Sample`` (one timed observation of the page) and
``async close()``, and may have ``async prepare(url)`` (find the page before its runs). Here: the
``Sample`` every adapter returns, the tools' names and what every adapter counts as a control."""

from __future__ import annotations

from dataclasses import dataclass, field

TOOLS = ("browserx", "browserx full", "browser-use", "playwright")
OTHERS = ("browser-use", "playwright")
CALL_TIMEOUT_S = 120.0  # an adapter's call is abandoned after this long

# Roles a Playwright aria snapshot line must have to count as an interactive element.
# (``option`` is left out: a <select>'s options are listed under its combobox, not acted on alone.)
PW_INTERACTIVE_ROLES = (
    "button|link|textbox|searchbox|checkbox|radio|combobox|listbox|slider|spinbutton|switch|"
    "tab|menuitem|menuitemcheckbox|menuitemradio|treeitem"
)
CONTROL_TAGS = ("a", "button", "input", "select", "textarea", "summary")


@dataclass
class Sample:
    ms: float
    text: str
    names: list[str]  # one per interactive element the tool lists ("" when unnamed)
    extra: dict[str, float] = field(default_factory=dict)
    controls: list[str] | None = None  # names to check against browserx, when not all of ``names``
    others: list[str] = field(default_factory=list)  # text of the listed elements that are not controls
