"""Every agent tool, every format and mode: the calls a promise must hold for (the all-tools tests:
test_opt_out_every_tool.py; the secrets test reuses them).

``calls_for_every_tool`` walks ``AGENT_TOOLS`` (the list is iterated, not copied): a tool with no
recipe here raises, so a tool is covered the day it is declared or its test fails. Each recipe's
params are checked against the tool's own params model. ``run_calls`` sends them over the real
control socket and answers each result or error as JSON text, ready to be searched.

``tab``: calls of tools whose params take an optional ``tab`` carry none (``run_calls`` adds the
tab under test); the tools that need one carry ``TAB`` (the tab under test) or ``NEW_TAB`` (the
tab the ``new_tab`` call opened). Calls that leave or let go of the page come last
(``LEAVES_PAGE``, in that order), so a caller can check the page's state before them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from browserx import Client
from browserx.control.tools import AGENT_TOOLS
from browserx.errors import BrowserxError
from tests.e2e.harness import UPLOADS

TAB = "<the tab under test>"
NEW_TAB = "<the tab new_tab opened>"
# Run last, in this order: they leave the page, open or close tabs, or let the tab go.
UPLOAD_FILE = UPLOADS / "note.txt"
LEAVES_PAGE = ("navigate", "back", "forward", "reload", "new_tab", "close_tab", "activate_tab", "release_tab")

Params = dict[str, Any]
# How long a recipe's expectation waits to hold (3 s unless given). Those the tests make fail (text
# that never appears) wait it out, then answer what happened instead: the answer is what the
# all-tools tests search, the wait no part of it. Half a second still looks at the page at least
# once (each look a snapshot; several on a small page); 3 s cost those tests a minute and a half.
EXPECT_S = 0.5
Recipe = Callable[[Sequence[int], tuple[float, float], str, str], list[Params]]


def _snapshot(ids: Sequence[int], point: tuple[float, float], url: str, text: str) -> list[Params]:
    out: list[Params] = []
    for fmt in ("text", "json", "semantic", "hybrid"):
        out.append({"format": fmt})
        out.append({"format": fmt, "include_values": True, "boxes": True, "stats": True, "max_tokens": 0})
        out.append({"format": fmt, "since_last": True})
    out += [
        {"viewport_only": True, "include_values": True},
        {"query": text, "include_values": True},
        {"filter": "div", "include_values": True},
        {"format": "semantic", "viewport_only": True, "max_elements": 5},
        {"max_depth": 3, "network_idle": True},
    ]
    return out


def _expect(condition: Params) -> Params:
    return {**condition, "timeout": EXPECT_S}


def _each(**extra: Any) -> Recipe:
    return lambda ids, point, url, text: [{"id": i, **{k: v for k, v in extra.items()}} for i in ids]


def _click(ids: Sequence[int], point: tuple[float, float], url: str, text: str) -> list[Params]:
    appears = _expect({"element_appears": {"text": text}})
    either = _expect(
        {"any_of": [{"element_appears": {"text": text}}, {"element_appears": {"role": "alert"}}]}
    )
    return [{"id": i, "force": True} for i in ids] + [
        {"id": i, "expect": appears} for i in ids
    ] + [{"id": i, "expect": either} for i in ids[:3]]  # fmt: skip


def _type(ids: Sequence[int], point: tuple[float, float], url: str, text: str) -> list[Params]:
    return [{"id": i, "text": text, "include_values": True} for i in ids] + [
        {"id": i, "text": text, "clear": True, "per_char": True, "expect": _expect({"value_changes": True})}
        for i in ids[:3]
    ]


def _fill(ids: Sequence[int], point: tuple[float, float], url: str, text: str) -> list[Params]:
    # Each field alone with text (typed or chosen), then all of them at once as toggles.
    together = [
        {"fields": [{"id": i, "value": True} for i in ids], "expect": _expect({"value_changes": True})}
    ]
    return [{"fields": [{"id": i, "value": text}]} for i in ids] + (together if ids else [])


def _key(ids: Sequence[int], point: tuple[float, float], url: str, text: str) -> list[Params]:
    # Without an ID the key goes to whatever has focus: the first call, before anything moves it.
    return [{"key": "a"}, {"key": "Tab"}] + [{"key": "Enter", "id": i} for i in ids]


def _scroll(ids: Sequence[int], point: tuple[float, float], url: str, text: str) -> list[Params]:
    out: list[Params] = [{"direction": "down", "amount": 40}, {"direction": "up", "amount": "page"}]
    return (
        out
        + [{"id": i, "amount": 20} for i in ids]
        + [{"to_id": i} for i in ids]
        + [{"direction": "up", "amount": "page"}]  # back where the points were measured
    )


def _point(extra: Params) -> Recipe:
    return lambda ids, point, url, text: [
        {"x": point[0], "y": point[1], **extra},
        {"x": point[0], "y": point[1], "expect": _expect({"element_appears": {"text": text}}), **extra},
    ]


def _screenshot(ids: Sequence[int], point: tuple[float, float], url: str, text: str) -> list[Params]:
    out: list[Params] = [
        {},
        {"marks": True},
        {"mode": "full_page"},
        {"mode": "full_page", "marks": True, "format": "jpeg"},
        {"format": "jpeg", "max_width": 320},
        {"show_effects": True},
    ]
    return out + [{"mode": "element", "id": i} for i in ids]


def _drag(ids: Sequence[int], point: tuple[float, float], url: str, text: str) -> list[Params]:
    """Each element onto the next, and the first onto the point."""
    pairs = [{"id": a, "to_id": b} for a, b in zip(ids, [*ids[1:], *ids[:1]], strict=True) if a != b]
    return pairs + [{"id": i, "x": point[0], "y": point[1]} for i in ids[:1]]


RECIPES: dict[str, Recipe] = {
    "tabs": lambda ids, point, url, text: [{}],
    "snapshot": _snapshot,
    "click": _click,
    "type": _type,
    "key": _key,
    "scroll": _scroll,
    "select": lambda ids, point, url, text: [{"id": i, "value": text, "include_values": True} for i in ids],
    "check": _each(),
    "fill": _fill,
    "hover": _each(force=True),
    "drag": _drag,
    # A file of the folder the tests' config allows (harness.py); the first element only: any other
    # kind is clicked, and waited for to open a file chooser.
    "upload": lambda ids, point, url, text: [{"id": i, "paths": [str(UPLOAD_FILE)]} for i in ids[:1]],
    "click_at": _point({}),
    "hover_at": _point({}),
    "wait": lambda ids, point, url, text: [{"text": text, "timeout": 0.3}, {"gone": text, "timeout": 0.3}],
    # A page with no dialog open answers no_dialog (test_dialogs.py opens them).
    "dialog": lambda ids, point, url, text: [{"action": "dismiss"}, {"action": "accept", "text": text}],
    "screenshot": _screenshot,
    "downloads": lambda ids, point, url, text: [{}],
    "console": lambda ids, point, url, text: [{}, {"level": "error", "limit": 5}],
    "html": lambda ids, point, url, text: [
        {"mode": m, "include_values": v} for m in ("skeleton", "full") for v in (False, True)
    ],
    "navigate": lambda ids, point, url, text: [{"url": url}],
    "back": lambda ids, point, url, text: [{}],
    "forward": lambda ids, point, url, text: [{}],
    "reload": lambda ids, point, url, text: [{}],
    "new_tab": lambda ids, point, url, text: [{"url": url}],
    "close_tab": lambda ids, point, url, text: [{"tab": NEW_TAB}],
    "activate_tab": lambda ids, point, url, text: [{"tab": TAB}],
    "release_tab": lambda ids, point, url, text: [{"tab": TAB}],
    # Names no tab and reads no page: nobody answers in the tests, so it ends no_answer at once.
    "ask_user": lambda ids, point, url, text: [
        {"question": "Which one?", "choices": ["A", "B"], "timeout_s": 0.3}
    ],
}


def calls_for_every_tool(
    ids: Sequence[int], point: tuple[float, float], url: str, text: str = "x"
) -> list[tuple[str, dict[str, Any]]]:
    """(tool name, params) for every agent tool in every format and mode: each action on each of
    ``ids``, the point tools at ``point``, navigation to ``url``, ``text`` as typed text, query,
    option and expected text. Raises KeyError for a tool without a recipe."""
    staying: list[tuple[str, Params]] = []
    leaving: dict[str, list[tuple[str, Params]]] = {name: [] for name in LEAVES_PAGE}
    for tool in AGENT_TOOLS:
        recipe = RECIPES.get(tool.name)
        if recipe is None:
            raise KeyError(f"no recipe for the agent tool {tool.name!r}: add one to tests/e2e/every_tool.py")
        for params in recipe(ids, point, url, text):
            _check_params(tool.params, tool.name, params)
            leaving.get(tool.name, staying).append((tool.name, params))
    return staying + [call for name in LEAVES_PAGE for call in leaving[name]]


def _check_params(model: Any, name: str, params: Params) -> None:
    """A recipe speaks its tool's params (the sentinels standing for tab ids)."""
    probe = {k: (1 if v in (TAB, NEW_TAB) else v) for k, v in params.items()}
    if "tab" in model.model_fields and "tab" not in probe and model.model_fields["tab"].is_required():
        raise AssertionError(f"{name} needs a tab: its recipe must give TAB or NEW_TAB")
    model.model_validate(probe)


def run_calls(client: Client, calls: Sequence[tuple[str, Params]], tab: int) -> list[tuple[str, Params, str]]:
    """Send each call for ``tab``; answer (name, params as sent, the result or error as JSON)."""
    by_name = {t.name: t for t in AGENT_TOOLS}
    new_tab: int | None = None
    out: list[tuple[str, Params, str]] = []
    for name, params in calls:
        sent = dict(params)
        for key, value in sent.items():
            if value == TAB:
                sent[key] = tab
            elif value == NEW_TAB:
                sent[key] = new_tab
        if "tab" in by_name[name].params.model_fields and "tab" not in sent:
            sent["tab"] = tab
        if sent.get("tab", 0) is None:
            continue  # new_tab failed: nothing to close
        try:
            result: Any = client.call(name, **sent)
            answer = json.dumps(result, default=str, ensure_ascii=False)
            if name == "new_tab" and isinstance(result, dict):
                new_tab = result["tab"]
        except BrowserxError as exc:
            answer = json.dumps(
                {"error": exc.code, "message": exc.message, "details": exc.details},
                default=str,
                ensure_ascii=False,
            )
        out.append((name, sent, answer))
    return out


__all__ = ["EXPECT_S", "LEAVES_PAGE", "NEW_TAB", "RECIPES", "TAB", "calls_for_every_tool", "run_calls"]
