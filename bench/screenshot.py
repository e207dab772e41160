"""Screenshot latency and the size of the hybrid view.

One headless Chromium with the browserx extension and host (bench/harness.py's ``start_browser``,
on its pages: the fixture pages and the generated ones of ``pages.generate``), measured through the
control socket as an agent calls it (client-side wall time, the round trip included):

* ``screenshot`` of the 20k-element generated page: viewport and full page, PNG and JPEG
  (quality 70), median of N runs after one warm-up;
* ``snapshot(format="hybrid")`` on a few fixture pages and the 20k page: the semantic JSON (chars
  and cl100k tokens, as the MCP server sends it), the JPEG (bytes, base64 chars, pixels and the
  ~w*h/750 tokens a vision model charges for it), the time the picture adds (host-side
  ``screenshot_ms``: the opt-out check of the frames, the capture and the hash; median of N + 1
  calls), and whether a call on the unchanged page sends the picture again (it should not).

    make bench-screenshot     # or: .venv/bin/python bench/screenshot.py [--runs N] [--size 20000]
"""

from __future__ import annotations

import base64
import json
import statistics
import sys
import time
from typing import Any, Literal

from adapters.browserx import BrowserxTool
from harness import VIEWPORT, arg_parser, comma_list, machine_info, running_browser, serve_pages, workdir

from browserx.views.tokens import count_tokens

HYBRID_PAGES = ("snap-controls.html", "act-controls.html", "realapp-react.html", "patterns.html")
SHOTS: tuple[tuple[Literal["viewport", "full_page"], Literal["png", "jpeg"]], ...] = (
    ("viewport", "png"),
    ("viewport", "jpeg"),
    ("full_page", "png"),
    ("full_page", "jpeg"),
)


def median_ms(call: Any, runs: int) -> tuple[float, dict[str, Any]]:
    result = call()  # warm-up
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        result = call()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), result


def bench_shots(bx: BrowserxTool, url: str, runs: int) -> list[str]:
    bx.navigate(url)
    client = bx.conn.client
    client.snapshot(tab=bx.tab)  # the page settled, the tab attached
    lines = ["| mode | format | median | image | bytes |", "|---|---|---|---|---|"]
    for mode, fmt in SHOTS:
        ms, shot = median_ms(lambda: client.screenshot(tab=bx.tab, mode=mode, format=fmt), runs)  # noqa: B023
        size = len(base64.b64decode(shot["data"]))
        lines.append(f"| {mode} | {fmt} | {ms:.0f} ms | {shot['width']}×{shot['height']} | {size:,} |")
    return lines


def bench_hybrid(bx: BrowserxTool, origin: str, pages: list[str], runs: int) -> list[str]:
    client = bx.conn.client
    lines = [
        "| page | semantic JSON | image (JPEG) | image tokens ≈ w·h/750 | total ≈ tokens | "
        "picture adds | again, unchanged |",
        "|---|---|---|---|---|---|---|",
    ]
    for page in pages:
        bx.navigate(f"{origin}/{page}")
        client.snapshot(tab=bx.tab)  # settled
        first = client.snapshot(tab=bx.tab, format="hybrid", stats=True)  # a new look: the picture is sent
        if first["screenshot"] is None:
            lines.append(f"| {page} | no picture: {first.get('screenshotNote') or 'same look as before'} |")
            continue
        # The picture is taken (and hashed) on every call; it is sent only when the hash changed.
        shot_ms = [float(first["stats"]["screenshot_ms"])]
        for _ in range(runs):
            again = client.snapshot(tab=bx.tab, format="hybrid", stats=True)
            shot_ms.append(float(again["stats"]["screenshot_ms"]))
        text = json.dumps(first["semantic"], ensure_ascii=False)  # what the MCP server sends as text
        tokens = count_tokens(text)
        data = base64.b64decode(first["screenshot"])
        w, h = first["screenshotSize"]
        image_tokens = round(w * h / 750)
        repeat = "picture null" if again["screenshot"] is None else "picture sent again"
        lines.append(
            f"| {page} | {len(text):,} chars, {tokens:,} tokens | {len(data):,} B "
            f"({len(first['screenshot']):,} base64), {w}×{h} | {image_tokens:,} | {tokens + image_tokens:,} | "
            f"{statistics.median(shot_ms):.0f} ms | {repeat} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = arg_parser(__doc__, 5, "runs per shot")
    parser.add_argument(
        "--size", type=int, default=20000, help="elements of the generated page (default 20000)"
    )
    parser.add_argument(
        "--pages",
        type=comma_list,
        default=HYBRID_PAGES,
        help=f"fixture pages for the hybrid sizes (default {','.join(HYBRID_PAGES)})",
    )
    args = parser.parse_args(argv)
    # Pages are loaded through the raw `cdp` method (as in run.py).
    with (
        workdir("browserx-bench-shot-", raw_cdp=True) as work,
        serve_pages(work, (args.size,)) as (origin, [generated]),
        running_browser(work) as browser,
    ):
        bx = BrowserxTool.connect()
        try:
            m = machine_info()
            print(
                f"# Screenshots: {browser.version}, headless, window {VIEWPORT[0]}×{VIEWPORT[1]}; "
                f"{m['nproc']} CPUs, {m['cpu']}\n"
            )
            print(f"## `screenshot` on the generated {args.size // 1000}k page, median of {args.runs}\n")
            print("\n".join(bench_shots(bx, f"{origin}/{generated}", args.runs)))
            print(f"\n## hybrid view (`snapshot format=hybrid`), picture time median of {args.runs}\n")
            print("\n".join(bench_hybrid(bx, origin, [*args.pages, generated], args.runs)))
        finally:
            bx.conn.client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
