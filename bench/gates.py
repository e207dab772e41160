"""What the site guard costs a plain click, a plain type and a snapshot (issue 34).

With site rules in force, every call that touches a tab first has the extension put the rules in
the browser's network layer (control/person/site_guard.py, extension/site_guard.js): one more round trip
and a declarativeNetRequest update before its work. This measures it as an agent sees it:
client-side wall time of ``click`` on a button, ``type`` into a field and ``snapshot`` (the round
trip included), at an agent's pace (``--pause`` seconds between calls, so the rules have lapsed before
each call and every one pays for putting them back), with the rules off (no site rule) and on
(one blocked site), each in a fresh headless Chromium; the two alternate ``--rounds`` times so
drift in the machine's load falls on both.

    .venv/bin/python bench/gates.py [--runs 30] [--pause 1.0] [--rounds 2]
"""

from __future__ import annotations

import json
import os
import statistics
import time

from harness import arg_parser, machine_info, running_browser, serve_pages, workdir

from browserx import Client

PAGE = """<!doctype html><title>Gates</title>
<button onclick="document.title = 'pressed ' + (++window.n || (window.n = 1))">Add one</button>
<input aria-label="Note">
"""
KINDS = ("click", "type", "snapshot")
RULES = {"off": {}, "on": {"site_rules": {"mode": "all", "blocked": ["blocked.example"]}}}


def _ids(bx: Client, tab: int) -> tuple[int, int]:
    text = bx.snapshot(tab=tab)["text"]
    ids = {}
    for line in text.splitlines():
        for name in ("Add one", "Note"):
            if name in line and "[" in line:
                ids[name] = int(line.split("[", 1)[1].split("]", 1)[0])
    return ids["Add one"], ids["Note"]


def measure(mode: str, runs: int, pause: float) -> dict[str, list[float]]:
    """Wall times (ms) of ``runs`` calls of each kind in a fresh browser with the rules ``mode``."""
    with workdir("browserx-gates-") as work:
        config = work / "config.json"
        config.write_text(json.dumps(RULES[mode]), encoding="utf-8")
        os.environ["BROWSERX_CONFIG"] = str(config)
        with serve_pages(work, ()) as (origin, _), running_browser(work):
            (work / "pages" / "gates.html").write_text(PAGE, encoding="utf-8")
            with Client() as bx:
                tab = bx.new_tab(url=f"{origin}/gates.html")["tab"]
                button, field = _ids(bx, tab)
                for _ in range(3):  # warm: the page's world, the kept functions
                    bx.click(button, tab=tab)
                    bx.type_text(field, "abc", clear=True, tab=tab)
                out: dict[str, list[float]] = {kind: [] for kind in KINDS}
                for _ in range(runs):
                    time.sleep(pause)
                    started = time.perf_counter()
                    bx.click(button, tab=tab)
                    out["click"].append((time.perf_counter() - started) * 1000)
                    time.sleep(pause)
                    started = time.perf_counter()
                    bx.type_text(field, "abc", clear=True, tab=tab)
                    out["type"].append((time.perf_counter() - started) * 1000)
                    time.sleep(pause)
                    started = time.perf_counter()
                    bx.snapshot(tab=tab)
                    out["snapshot"].append((time.perf_counter() - started) * 1000)
                return out


def main(argv: list[str] | None = None) -> int:
    parser = arg_parser(__doc__, 30, "actions of each kind per mode and round")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between calls (an agent's pace)")
    parser.add_argument("--rounds", type=int, default=2, help="times the two modes alternate")
    args = parser.parse_args(argv)
    times: dict[str, dict[str, list[float]]] = {m: {kind: [] for kind in KINDS} for m in RULES}
    for _ in range(args.rounds):
        for mode in RULES:
            for kind, values in measure(mode, args.runs, args.pause).items():
                times[mode][kind] += values
    facts = machine_info()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"# site guard cost — {time.strftime('%Y-%m-%d %H:%M')}, {facts['nproc']} x {facts['cpu']}, load {load}"
    )
    print(f"{args.rounds} rounds x {args.runs} actions per kind and mode, {args.pause} s between calls\n")
    print("| action | rules off: median (p90) ms | rules on: median (p90) ms | cost of the guard (median) |")
    print("|---|---|---|---|")
    for kind in KINDS:
        cells = []
        for mode in RULES:
            values = sorted(times[mode][kind])
            p90 = values[int(len(values) * 0.9) - 1]
            cells.append(f"{statistics.median(values):.1f} ({p90:.1f})")
        cost = statistics.median(times["on"][kind]) - statistics.median(times["off"][kind])
        print(f"| {kind} | {cells[0]} | {cells[1]} | {cost:+.1f} ms |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
