# ruff: noqa: B023  (the checks are called at once, inside their loop iteration)
"""The tools beyond clicking and typing beside Playwright's equivalents, end to end from the client, on the same
pages of the same Chromium: drag (an HTML5 list and a pointer-event kanban), upload (a file input),
a JavaScript alert answered, a download, and the console read. ``--pause`` seconds between calls
(an agent's pace); every call is checked by the page's own state (or the file on disk).

Playwright dismisses every dialog of a page it is connected to that has no handler of its own,
so browserx is measured first with Playwright not connected, then Playwright on the same pages.

    .venv-bench/bin/python bench/tools.py [--runs 20] [--pause 1.0]
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from typing import Any

from harness import arg_parser, machine_info, running_browser, serve_pages, spread, workdir

from browserx import Client
from browserx.errors import DialogOpen

PAGE = (
    """<!doctype html><title>Tools</title>
<ul id="list">"""
    + "".join(f'<li draggable="true">Item {i}</li>' for i in range(4))
    + """</ul>
<div id="cols" style="display:flex;gap:20px">
 <div id="a" style="width:160px;min-height:80px;background:#eee"><div class="card" role="button"
  style="padding:8px;background:#ffd;touch-action:none">Card</div></div>
 <div id="b" style="width:160px;min-height:80px;background:#ddd"><div role="button" style="padding:8px">Target</div></div>
</div>
<p><label for="f">File</label> <input type="file" id="f"></p>
<p><button id="alert" onclick="alert('Saved'); window.alerted = (window.alerted || 0) + 1">Alert</button></p>
<p><a id="dl" href="tools.html" download="copy.html">Download</a></p>
<script>
const list = document.getElementById("list"); let dragging = null;
list.addEventListener("dragstart", (e) => { dragging = e.target; e.dataTransfer.setData("text/plain", "x"); });
list.addEventListener("dragover", (e) => e.preventDefault());
list.addEventListener("drop", (e) => { e.preventDefault(); const over = e.target.closest("li");
  if (over && dragging && over !== dragging) list.insertBefore(dragging, over.nextSibling); });
const card = document.querySelector(".card");
card.addEventListener("pointerdown", (d) => { card.setPointerCapture(d.pointerId);
  const up = (e) => { card.removeEventListener("pointerup", up);
    const col = document.elementsFromPoint(e.clientX, e.clientY).map((x) => x.closest("#a,#b")).find(Boolean);
    if (col) col.prepend(card); };
  card.addEventListener("pointerup", up); });
console.log("ready");
</script>"""
)
RESET = (
    "() => { const l = document.getElementById('list'); [...l.children].sort((x, y) => x.textContent"
    ".localeCompare(y.textContent)).forEach((c) => l.append(c)); document.getElementById('a')"
    ".prepend(document.querySelector('.card')); document.getElementById('f').value = ''; }"
)
ORDER = "() => [...document.querySelectorAll('#list li')].map((l) => l.textContent)"
Check = Callable[[], bool]


def _ids(bx: Client, tab: int) -> dict[str, int]:
    """ "role name" → ID, from a snapshot's text view."""
    found: dict[str, int] = {}
    for line in bx.snapshot(tab=tab, max_tokens=0)["text"].splitlines():
        if line.lstrip().startswith("[") and "]" in line:
            element_id, rest = line.lstrip()[1:].split("]", 1)
            found.setdefault(rest.strip(), int(element_id))
    if "Download → tools.html" not in found:
        raise RuntimeError(f"the page's controls are not as expected: {sorted(found)}")
    return found


def _timed(times: list[float], call: Callable[[], Any], check: Check, what: str) -> None:
    started = time.perf_counter()
    call()
    elapsed = (time.perf_counter() - started) * 1000
    deadline = time.monotonic() + 5
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: the page does not show it done")
        time.sleep(0.02)
    times.append(elapsed)


def run(runs: int, pause: float) -> dict[str, dict[str, list[float]]]:
    from playwright.sync_api import sync_playwright

    with workdir("browserx-tools-") as work:
        upload = work / "upload.txt"
        upload.write_text("bench\n", encoding="utf-8")
        config = work / "config.json"
        config.write_text(
            json.dumps({"upload_folders": [str(work)], "allow_raw_cdp": True}), encoding="utf-8"
        )
        os.environ["BROWSERX_CONFIG"] = str(config)
        with serve_pages(work, ()) as (origin, _), running_browser(work) as browser:
            (work / "pages" / "tools.html").write_text(PAGE, encoding="utf-8")
            url = f"{origin}/tools.html"
            with Client() as bx:  # browserx first, alone (see the docstring)
                tab = bx.tabs()[0]["tab"]
                bx.navigate(url, tab=tab)
                out = _browserx(bx, tab, _ids(bx, tab), runs, pause, str(upload))
            driver = sync_playwright().start()
            try:
                pw_browser = driver.chromium.connect_over_cdp(browser.cdp_endpoint)
                page = next(p for c in pw_browser.contexts for p in c.pages if p.url == url)
                for kind, ms in _playwright(page, page.evaluate, runs, pause, str(upload)).items():
                    out.setdefault(kind, {})["playwright"] = ms
            finally:
                driver.stop()
    return out


def _browserx(
    bx: Client, tab: int, ids: dict[str, int], runs: int, pause: float, upload: str
) -> dict[str, dict[str, list[float]]]:
    times: dict[str, list[float]] = {
        k: [] for k in ("drag html5", "drag pointer", "upload", "dialog", "download", "console")
    }
    cdp = bx.cdp

    def page(expression: str) -> Any:
        answer = cdp("Runtime.evaluate", {"expression": f"({expression})()", "returnByValue": True}, tab=tab)
        return answer["result"].get("value")

    downloaded: list[Any] = []

    def answered_alert() -> None:
        try:
            bx.click(ids["button Alert"], tab=tab)
        except DialogOpen:
            bx.dialog("accept", tab=tab)

    for round_no in range(runs + 2):
        page(RESET)
        keep = times if round_no >= 2 else {k: [] for k in times}
        alerted = page("() => window.alerted || 0")
        calls: list[tuple[str, Callable[[], Any], Check]] = [
            ("drag html5", lambda: bx.drag(ids["listitem Item 0"], ids["listitem Item 2"], tab=tab),
             lambda: page(ORDER)[2] == "Item 0"),
            ("drag pointer", lambda: bx.drag(ids["button Card"], ids["button Target"], tab=tab),
             lambda: page("() => document.querySelector('.card').parentElement.id") == "b"),
            ("upload", lambda: bx.upload(ids["button File (type=file)"], [upload], tab=tab),
             lambda: page("() => document.getElementById('f').files.length") == 1),
            ("dialog", answered_alert, lambda: page("() => window.alerted || 0") == alerted + 1),
            ("download", lambda: downloaded.append(bx.click(ids["Download → tools.html"], tab=tab)),
             lambda: downloaded[-1]["downloads"][0]["state"] == "completed"),
            ("console", lambda: bx.console(tab=tab), lambda: True),
        ]  # fmt: skip
        for kind, call, check in calls:
            time.sleep(pause)
            _timed(keep[kind], call, check, f"browserx {kind}")
    return {k: {"browserx": v} for k, v in times.items()}


def _playwright(page: Any, state: Any, runs: int, pause: float, upload: str) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {
        k: [] for k in ("drag html5", "drag pointer", "upload", "dialog", "download", "console")
    }

    def alert() -> None:
        page.once("dialog", lambda d: d.accept())
        page.click("#alert")

    def download() -> None:
        with page.expect_download() as info:
            page.click("#dl")
        info.value.path()  # until it is saved

    for round_no in range(runs + 2):
        state(RESET)
        keep = times if round_no >= 2 else {k: [] for k in times}
        alerted = state("() => window.alerted || 0")
        calls: list[tuple[str, Callable[[], Any], Check]] = [
            ("drag html5", lambda: page.locator("#list li", has_text="Item 0").drag_to(
                page.locator("#list li", has_text="Item 2")), lambda: state(ORDER)[2] == "Item 0"),
            ("drag pointer", lambda: page.locator(".card").drag_to(page.get_by_text("Target")),
             lambda: state("() => document.querySelector('.card').parentElement.id") == "b"),
            ("upload", lambda: page.set_input_files("#f", upload),
             lambda: state("() => document.getElementById('f').files.length") == 1),
            ("dialog", alert, lambda: state("() => window.alerted || 0") == alerted + 1),
            ("download", download, lambda: True),
            ("console", page.console_messages, lambda: True),
        ]  # fmt: skip
        for kind, call, check in calls:
            time.sleep(pause)
            _timed(keep[kind], call, check, f"playwright {kind}")
    return times


def main() -> None:
    parser = arg_parser(__doc__, 20, "calls per tool and way")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between calls (default 1.0)")
    args = parser.parse_args()
    results = run(args.runs, args.pause)
    print(f"# Tools end to end, client wall time per call (ms), {args.runs} calls each, {args.pause} s apart")
    print(", ".join(f"{k}: {v}" for k, v in machine_info().items()))
    for kind, ways in results.items():
        for way, ms in ways.items():
            print(f"{kind:13} {way:10} {spread(ms)}")


if __name__ == "__main__":
    main()
