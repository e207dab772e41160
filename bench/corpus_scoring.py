"""corpus.py's scoring: each tool's view read into ``Control``s (browserx: IDs in the text view,
roles and names from the json view, as tests/e2e/test_real_apps.py reads them; Playwright: the
lines of its aria snapshot), the page's expectations matched to them one to one, what a tool
printed instead of a missing one, and the records of what a page scored."""

from __future__ import annotations

import contextlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from harness import Timings, median_or_none
from tests.e2e.apps.corpus import Action, Expect, Page, match_expectations, norm_name

from browserx.views.text import TEXT_ROLES

# -- browserx's view: controls with IDs (as tests/e2e/test_real_apps.py reads them) ------------------

_TEXT_ROLE = {**{r: r for r in TEXT_ROLES.values()}, **TEXT_ROLES}  # Chrome's role or the text view's
ID_AT = re.compile(r"(?:^|(?<=[\s|]))\[(\d+)\] ")  # a control's "[ID] " in a text view line


def text_role(role: str) -> str:
    return _TEXT_ROLE.get(role, role)


@dataclass
class Control:
    key: str  # browserx: its ID; Playwright: its ref (or "line N" when the line has none)
    role: str
    name: str
    line: str  # the line the tool printed for it ("" when browserx's text view does not show it)
    lineno: int
    pointer: bool = False  # Playwright: [cursor=pointer]
    content: str = ""  # Playwright: the names and text of the lines nested under it


def json_nodes(view: dict[str, Any]) -> Iterator[dict[str, Any]]:
    stack = [view["page"]["body"]]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.get("children", [])))


def browserx_controls(text: str, view: dict[str, Any]) -> list[Control]:
    """Every control with an ID in document order: role and name from the json view, its line from
    the text view (only those the text view shows count as listed)."""
    lines: dict[int, tuple[str, int]] = {}
    for lineno, line in enumerate(text.splitlines()):
        for m in ID_AT.finditer(line):
            lines.setdefault(int(m.group(1)), (line.strip(), lineno))
    out = []
    for node in json_nodes(view):
        if "id" in node:
            line, lineno = lines.get(int(node["id"]), ("", -1))
            out.append(
                Control(str(node["id"]), str(node.get("role", "")), str(node.get("name", "")), line, lineno)
            )
    return out


def duplicate_ids(text: str, view: dict[str, Any]) -> list[str]:
    counts = Counter(int(m.group(1)) for line in text.splitlines() for m in ID_AT.finditer(line))
    found = [f"text view: [{i}] ×{n}" for i, n in counts.items() if n > 1]
    ids = Counter(int(node["id"]) for node in json_nodes(view) if "id" in node)
    return found + [f"json view: id {i} ×{n}" for i, n in ids.items() if n > 1]


def browserx_fits(expect: Expect, control: Control) -> bool:
    return (
        bool(control.line)
        and text_role(control.role) in {text_role(r) for r in expect.roles}
        and expect.matches_name(control.name)
    )


# -- Playwright's view: aria snapshot lines ----------------------------------------------------------

# ``- role "name" [attr] [ref=e12] [cursor=pointer]: text`` (the key single-quoted when YAML needs it).
_PW_KEY = re.compile(
    r'^(?P<role>[A-Za-z][\w-]*)(?: "(?P<name>(?:[^"\\]|\\.)*)")?(?P<attrs>(?: \[[^\]]*\])*)$'
)
# Chrome roles (as the corpus writes them) → what Playwright's aria snapshot calls them. Roles with no
# ARIA equivalent come out as ``generic``; browserx's ``clickable`` (no role, reacts to clicks) is a
# generic (or an icon ``img``) line that Playwright marks ``[cursor=pointer]``.
PW_ROLES: dict[str, tuple[tuple[str, bool], ...]] = {
    "clickable": (("generic", True), ("img", True)),
    "DisclosureTriangle": (("generic", False),),
    "LabelText": (("generic", False),),
    "label": (("generic", False),),
}


def _unquote_yaml(value: str) -> str:
    value = value.strip()
    if value.startswith('"'):
        with contextlib.suppress(ValueError):
            return str(json.loads(value))
    if value.startswith("'") and value.endswith("'") and len(value) >= 2:
        return value[1:-1].replace("''", "'")
    return value


def _split_key(body: str) -> tuple[str, str]:
    """A snapshot line's key (role, name, attributes) and its inline text after ``:``."""
    if body.startswith("'"):
        i, out = 1, []
        while i < len(body):
            if body[i] == "'":
                if body[i + 1 : i + 2] == "'":
                    out.append("'")
                    i += 2
                    continue
                break
            out.append(body[i])
            i += 1
        rest = body[i + 1 :]
        return "".join(out), _unquote_yaml(rest[1:]) if rest.startswith(":") else ""
    m = re.search(r":(?: |$)", body)
    if m is None:
        return body, ""
    return body[: m.start()], _unquote_yaml(body[m.end() :])


def playwright_controls(text: str) -> list[Control]:
    """Every element line of an aria snapshot, in document order (props like ``/url:`` left out). A
    generic's name is its own or, failing that, its inline text."""
    out = []
    open_: list[tuple[int, Control]] = []  # (indent, control) of the lines enclosing this one
    for lineno, raw in enumerate(text.splitlines()):
        stripped = raw.strip()
        if not stripped.startswith("- "):
            continue
        depth = len(raw) - len(raw.lstrip())
        while open_ and open_[-1][0] >= depth:
            open_.pop()
        key, inline = _split_key(stripped[2:])
        m = _PW_KEY.match(key)
        if m is None:  # a prop (``- /url: …``)
            continue
        name = m["name"]
        name = _unquote_yaml(f'"{name}"') if name is not None else ""
        words = " ".join(w for w in (name, inline) if w)
        for _, outer in open_:
            outer.content = f"{outer.content} {words}".strip()
        if m["role"] == "text":
            continue
        if not name and m["role"] == "generic":
            name = inline
        ref = re.search(r"\[ref=([^\]]+)\]", m["attrs"])
        pointer = "[cursor=pointer]" in m["attrs"]
        control = Control(ref[1] if ref else f"line {lineno + 1}", m["role"], name, stripped, lineno, pointer)
        control.content = inline if m["role"] != "generic" else ""
        out.append(control)
        open_.append((depth, control))
    return out


def has_ref(control: Control) -> bool:
    return not control.key.startswith("line ")


def pw_roles(expect: Expect) -> set[tuple[str, bool]]:
    return {pr for r in expect.roles for pr in PW_ROLES.get(r, ((r, False),))}


def playwright_fits(expect: Expect, control: Control, need_ref: bool = True) -> bool:
    if need_ref and not has_ref(control):
        return False
    roles = pw_roles(expect)
    role_ok = (control.role, False) in roles or (control.pointer and (control.role, True) in roles)
    return role_ok and expect.matches_name(control.name)


# -- matching expectations to controls ---------------------------------------------------------------


def match(
    expected: tuple[Expect, ...], controls: list[Control], fits: Callable[[Expect, Control], bool]
) -> dict[int, Control]:
    """As tests/e2e/test_real_apps.py matches (one control per expectation)."""
    return match_expectations(expected, controls, fits, lambda c: c.key)


def similar(expect: Expect, name: str) -> bool:
    want, have = norm_name(expect.name), norm_name(name)
    return bool(want and have) and (want in have or (len(have) >= max(4, len(want) // 3) and have in want))


def explain_browserx(
    expect: Expect, text: str, controls: list[Control], full: list[Control] | None
) -> list[str]:
    """What browserx printed instead of a missing expectation."""
    out: list[str] = []
    want = norm_name(expect.name)
    lines = text.splitlines()
    for c in controls:
        if expect.matches_name(c.name) and want and not browserx_fits(expect, c):
            out.append(
                f"same name as `{c.line}`"
                if c.line
                else f"json view has [{c.key}] {c.role} {c.name!r}, text view hides it"
            )
    for c in controls:
        if c.line and similar(expect, c.name) and not expect.matches_name(c.name):
            out.append(f"similar name: `{c.line}`")
    if want:
        out += [
            f"text without an ID: `{line.strip()}`"
            for line in lines
            if want in norm_name(line) and not ID_AT.search(line)
        ]
    if not out:
        out.append("nothing like it")
    if full is not None:
        in_full = [c for c in full if browserx_fits(expect, c)]
        out.append(
            f"whole-page view (`max_tokens=0`) lists it: `{in_full[0].line}`"
            if in_full
            else "not in the whole-page view either"
        )
    return out[:5]


def explain_playwright(expect: Expect, controls: list[Control]) -> list[str]:
    """What Playwright printed instead of a missing expectation (closest first)."""
    found: list[list[str]] = [[], [], [], []]
    want = norm_name(expect.name)
    unnamed = Expect(expect.role, "", expect.also)
    for c in controls:
        if playwright_fits(expect, c, need_ref=False):
            found[0].append(f"listed without a ref: `{c.line}`")
        elif not c.name and want and want in norm_name(c.content) and playwright_fits(unnamed, c, False):
            found[1].append(f"listed without a name: `{c.line}`, holding {c.content[:120]!r}")
        elif want and expect.matches_name(c.name):
            found[2].append(f"same name as `{c.line}`")
        elif similar(expect, c.name):
            found[3].append(f"similar name: `{c.line}`")
    return [line for bucket in found for line in bucket][:4] or ["nothing like it"]


# -- what a page scored -------------------------------------------------------------------------------------------


@dataclass
class ToolResult(Timings):
    runs_ms: list[float] = field(default_factory=list)
    warmup_ms: float | None = None
    text: str = ""
    tokens: int | None = None
    found: int | None = None
    missing: list[tuple[Expect, list[str]]] = field(default_factory=list)
    error: str | None = None
    splits: list[dict[str, float]] = field(default_factory=list)  # browserx: stats per run

    def split_median(self, key: str) -> float | None:
        return median_or_none(s[key] for s in self.splits if key in s)


@dataclass
class ActionRun:
    tool: str
    action: Action
    ok: bool
    detail: str = ""
    call_ms: float | None = None  # client-side time of the acting call(s); median over the rounds
    host_ms: float | None = None  # browserx: the result's duration_ms (median over the rounds)
    round_trips: int | None = None  # browserx: the result's round_trips
    rounds_ms: list[float] = field(default_factory=list)  # call_ms of each round, in order


@dataclass
class PageResult:
    page: Page
    url: str = ""
    error: str | None = None
    elements: int | None = None
    bx_elements: int | None = None  # browserx's own count (stats), frames included
    ids: int | None = None
    dups: list[str] = field(default_factory=list)
    tools: dict[str, ToolResult] = field(
        default_factory=lambda: {"browserx": ToolResult(), "playwright": ToolResult()}
    )
    actions: list[ActionRun] = field(default_factory=list)

    def verified(self, tool: str) -> tuple[int | None, int]:
        runs = [a for a in self.actions if a.tool == tool]
        return (sum(a.ok for a in runs) if runs else None), len(self.page.actions)

    @property
    def ratio(self) -> float | None:
        bx, pw = self.tools["browserx"].median, self.tools["playwright"].median
        return bx / pw if bx is not None and pw else None
