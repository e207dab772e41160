"""Plain actions and snapshots at an agent's pace: on a plain page, a snapshot after thinking, then
click, type, select and check, each cold (the first of its kind on a freshly loaded document) and
warm (the same again on that document), browserx's client time beside Playwright's on the same
page of the same Chromium (connected over CDP), the two interleaved round by round (which goes
first alternates). Between calls the agent thinks for a random 1–3 s (``--think``, seeded): what a
speed mechanism buys has to show at this pace, not only in a tight loop. Every action is checked
by the page's own state; Playwright's snapshot is ``ariaSnapshot`` of the body.

    .venv-bench/bin/python bench/pacing.py [--runs 30] [--think 1-3] [--seed 1]
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from harness import arg_parser, machine_info, spread
from one_page import one_page

from browserx import Client

PAGE = """<!doctype html><title>Plain</title>
<p><button id="b" onclick="window.pressed = (window.pressed || 0) + 1">Press</button></p>
<p><label for="t">Name</label> <input id="t"></p>
<p><label for="s">Size</label> <select id="s"><option>Small</option><option>Medium</option>
<option>Large</option></select></p>
<p><input type="checkbox" id="c"> <label for="c">Gift wrap</label></p>
<p>Some text about the shop, as plain pages have.</p>"""
STATE = "() => [window.pressed || 0, t.value, s.value, c.checked]"
ACTIONS = ("click", "type", "select", "check")
WAYS = ("browserx", "playwright")
Check = Callable[[list[Any]], bool]


def _think(rng: random.Random, think: tuple[float, float]) -> None:
    time.sleep(rng.uniform(*think))


def _timed(call: Callable[[], Any]) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def _ids(view: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for line in view.splitlines():
        for key, name in (("click", "Press"), ("type", "Name"), ("select", "Size"), ("check", "Gift wrap")):
            if name in line and "[" in line and key not in found:
                found[key] = int(line.split("[", 1)[1].split("]", 1)[0])
    return found


def _steps(way: str, bx: Client, tab: int, page: Any, ids: dict[str, int], n: int) -> dict[str, Any]:
    """The call of each action for ``way`` in round ``n`` and pass ``warm`` (0 or 1)."""
    text, size, wrap = f"Ann {n}", ("Medium", "Large")[n % 2], n % 2 == 0
    if way == "browserx":
        calls: dict[str, Callable[[], Any]] = {
            "click": lambda: bx.click(ids["click"], tab=tab),
            "type": lambda: bx.type_text(ids["type"], text, clear=True, tab=tab),
            "select": lambda: bx.select(ids["select"], size, tab=tab),
            "check": lambda: bx.check(ids["check"], wrap, tab=tab),
        }
    else:
        calls = {
            "click": lambda: page.click("#b"),
            "type": lambda: page.fill("#t", text),
            "select": lambda: page.select_option("#s", label=size),
            "check": lambda: page.set_checked("#c", wrap),
        }
    checks: dict[str, Check] = {
        "click": lambda s: s[0] >= 1,
        "type": lambda s: s[1] == text,
        "select": lambda s: s[2] == size,
        "check": lambda s: s[3] is wrap,
    }
    return {"calls": calls, "checks": checks}


def run(runs: int, think: tuple[float, float], seed: int) -> dict[str, dict[str, list[float]]]:
    rng = random.Random(seed)
    times: dict[str, dict[str, list[float]]] = {}
    with one_page("browserx-pacing-", "plain.html", PAGE) as on:
        for round_no in range(runs + 1):  # the first round warms up, not counted
            order = WAYS if round_no % 2 else WAYS[::-1]
            for way in order:
                for kind, ms in _round(way, on.bx, on.tab, on.page, on.url, rng, think, round_no).items():
                    if round_no:
                        times.setdefault(kind, {}).setdefault(way, []).append(ms)
    return times


def _round(
    way: str,
    bx: Client,
    tab: int,
    page: Any,
    url: str,
    rng: random.Random,
    think: tuple[float, float],
    n: int,
) -> dict[str, float]:
    """One way's round on a freshly loaded document: a snapshot, each action cold, then warm."""
    page.goto(url)  # the same load for both ways, not timed
    out: dict[str, float] = {}
    _think(rng, think)
    if way == "browserx":
        view: dict[str, Any] = {}
        out["snapshot"] = _timed(lambda: view.update(bx.snapshot(tab=tab)))
        ids = _ids(view["text"])
    else:
        out["snapshot"] = _timed(lambda: page.locator("body").aria_snapshot())
        ids = {}
    steps = _steps(way, bx, tab, page, ids, n)
    for warm in ("cold", "warm"):
        for kind in ACTIONS:
            _think(rng, think)
            out[f"{kind} {warm}"] = _timed(steps["calls"][kind])
            state = page.evaluate(STATE)
            if not steps["checks"][kind](state):
                raise RuntimeError(f"{way} {kind} ({warm}) left the page as {state}")
    return out


def _range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    return float(low), float(high or low)


def main() -> None:
    parser = arg_parser(__doc__, 30, "rounds per way")
    parser.add_argument(
        "--think", type=_range, default=(1.0, 3.0), help="seconds between calls, LOW-HIGH (1-3)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the think times' random seed (default 1)")
    args = parser.parse_args()
    results = run(args.runs, args.think, args.seed)
    low, high = args.think
    print(
        f"# Plain actions and snapshots, client wall time per call (ms), {args.runs} rounds, {low}-{high} s apart"
    )
    print(", ".join(f"{k}: {v}" for k, v in machine_info().items()))
    for kind, ways in results.items():
        for way, ms in ways.items():
            print(f"{kind:12} {way:10} {spread(ms)}")


if __name__ == "__main__":
    main()
