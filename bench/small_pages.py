"""Small pages at an agent's pace: browserx's ``snapshot`` (the default text view, client wall time)
beside Playwright's ``ariaSnapshot`` of the body, on real third-party pages of fewer than 500
elements: the MiniWoB++ task pages (PyPI's ``miniwob``, its ``html/`` folder, pinned in
bench/requirements.in), served locally and opened in one headless Chromium that both drive
(Playwright connected over CDP, the same tab). Each page is opened once and its task started as
MiniWoB++'s own environment starts it (``Math.seedrandom``, then ``core.startEpisodeReal()``; the
episode made an hour long so that it does not end mid-measure: its countdown still changes the page
every second, as it does for an agent). Then, after one round not counted, ``--runs`` rounds of one
call each, the two interleaved (which goes first alternates), with a random ``--think`` of seconds
before every call (an agent reads a view before it asks for the next one).

Reported: per page its elements, each tool's median and the ratio browserx / Playwright; overall,
the median of the per-page medians of each and their ratio. ``--stats`` asks browserx for its own
breakdown as well (capture, settle wait, build, view; the option costs a little) and reports its
medians and how often a snapshot waited for the page.

    .venv-bench/bin/python bench/small_pages.py [--runs 30] [--think 0.2-0.5] [--every 4] [--pages a,b]
"""

from __future__ import annotations

import contextlib
import random
import re
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import (
    arg_parser,
    comma_list,
    fixture_servers,
    machine_info,
    running_browser,
    spread,
    version_of,
    workdir,
)

from browserx import Client

MAX_ELEMENTS = 500  # a small page, as the target says
START = (
    "seed => { Math.seedrandom(seed); core.EPISODE_MAX_TIME = 3600e3; core.startEpisodeReal();"
    " return [document.querySelectorAll('*').length, core.getUtterance()]; }"
)
WAYS = ("browserx", "playwright")


def task_pages() -> tuple[Path, list[str]]:
    """MiniWoB++'s html folder and its task pages' names (sorted)."""
    import miniwob  # the bench venv's (bench/requirements.in)

    html = Path(miniwob.__file__).resolve().parent / "html"
    return html, sorted(p.name for p in (html / "miniwob").glob("*.html"))


@dataclass
class PageResult:
    name: str
    elements: int
    ms: dict[str, list[float]] = field(default_factory=lambda: {w: [] for w in WAYS})
    stats: list[dict[str, Any]] = field(default_factory=list)  # browserx's, with --stats
    seen: bool = True  # both tools' output shows the task's instruction

    def median(self, way: str) -> float:
        return statistics.median(self.ms[way])

    @property
    def ratio(self) -> float:
        return self.median("browserx") / self.median("playwright")


@contextlib.contextmanager
def _browser() -> Iterator[tuple[str, Any, Client]]:
    """The task pages served, one Chromium, Playwright's page on its first tab and a browserx client."""
    from playwright.sync_api import sync_playwright

    html, _ = task_pages()
    with (
        workdir("browserx-small-") as work,
        fixture_servers(html) as servers,
        running_browser(work) as browser,
    ):
        driver = sync_playwright().start()
        try:
            page = driver.chromium.connect_over_cdp(browser.cdp_endpoint).contexts[0].pages[0]
            with Client() as bx:
                yield servers.origin, page, bx
        finally:
            driver.stop()


def _words(text: str) -> str:
    """The text's words, one space apart (quoting and punctuation as either tool writes them aside)."""
    return " ".join(re.findall(r"\w+", text))


def measure_page(
    name: str, origin: str, page: Any, bx: Client, runs: int, think: tuple[float, float], rng: random.Random,
    stats: bool,
) -> PageResult:  # fmt: skip
    url = f"{origin}/miniwob/{name}"
    page.goto(url)
    elements, utterance = page.evaluate(START, 1)
    tab = next(t["tab"] for t in bx.tabs() if t["url"] == url)
    result = PageResult(name, elements)
    outputs: dict[str, str] = {}
    calls: dict[str, Callable[[], Any]] = {
        "browserx": lambda: outputs.__setitem__("browserx", _snapshot(bx, tab, stats, result)),
        "playwright": lambda: outputs.__setitem__("playwright", page.locator("body").aria_snapshot()),
    }
    for round_no in range(runs + 1):  # the first round warms up, not counted
        for way in WAYS if round_no % 2 else WAYS[::-1]:
            time.sleep(rng.uniform(*think))
            started = time.perf_counter()
            calls[way]()
            if round_no:
                result.ms[way].append((time.perf_counter() - started) * 1000)
    if stats:
        result.stats = result.stats[1:]  # the warm-up round's
    probe = " ".join(_words(utterance).split()[:6])
    result.seen = all(probe in _words(text) for text in outputs.values())
    return result


def _snapshot(bx: Client, tab: int, stats: bool, result: PageResult) -> str:
    view = bx.snapshot(tab=tab, stats=stats)
    if stats:
        result.stats.append(view["stats"])
    return str(view["text"])


def run(
    names: list[str], runs: int, think: tuple[float, float], seed: int, stats: bool
) -> tuple[list[PageResult], list[str]]:
    rng = random.Random(seed)
    results: list[PageResult] = []
    skipped: list[str] = []
    with _browser() as (origin, page, bx):
        for name in names:
            result = measure_page(name, origin, page, bx, runs, think, rng, stats)
            if result.elements >= MAX_ELEMENTS:
                skipped.append(f"{name} ({result.elements} elements)")
                continue
            results.append(result)
            print(_row(result), flush=True)
    return results, skipped


def _row(r: PageResult) -> str:
    flag = "" if r.seen else "  (instruction not found in an output)"
    waits = [f"{s['stability']['waited_ms']:.0f}" for s in r.stats if s["stability"]["waited_ms"] >= 1]
    if waits:
        flag += f"  browserx waited for the page: {', '.join(waits)} ms"
    return (
        f"{r.name:36} {r.elements:4}  {r.median('browserx'):7.1f}  {r.median('playwright'):7.1f}"
        f"  {r.ratio:5.2f}{flag}"
    )


def _stat(snapshots: list[dict[str, Any]], key: str) -> float:
    return statistics.median(float(s.get(key) or 0) for s in snapshots)


def summary(results: list[PageResult], stats: bool) -> list[str]:
    bx = statistics.median(r.median("browserx") for r in results)
    pw = statistics.median(r.median("playwright") for r in results)
    ratios = sorted(r.ratio for r in results)
    lines = [
        f"pages {len(results)}; median of the per-page medians: browserx {bx:.1f} ms, Playwright {pw:.1f} ms,"
        f" ratio {bx / pw:.2f}",
        f"per-page ratio: median {statistics.median(ratios):.2f}, min {ratios[0]:.2f}, max {ratios[-1]:.2f};"
        f" browserx no slower on {sum(x <= 1 for x in ratios)} of {len(ratios)} pages",
    ]
    for way in WAYS:
        lines.append(f"every call, {way:10} {spread([ms for r in results for ms in r.ms[way]])}")
    if stats:
        every = [s for r in results for s in r.stats]
        waited = [s["stability"]["waited_ms"] for s in every]
        lines.append(
            "browserx's own medians (ms): "
            + ", ".join(
                f"{k} {_stat(every, k):.1f}" for k in ("capture_ms", "build_ms", "view_ms", "settle_ms")
            )
            + f"; waited for the page in {sum(w >= 1 for w in waited)} of {len(waited)} snapshots"
            + f" (longest {max(waited):.0f} ms)"
        )
    return lines


def _range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    return float(low), float(high or low)


def main() -> None:
    parser = arg_parser(__doc__, 30, "rounds per page (one call of each tool a round)")
    parser.add_argument(
        "--think", type=_range, default=(0.2, 0.5), help="seconds before each call, LOW-HIGH (0.2-0.5)"
    )
    parser.add_argument(
        "--every", type=int, default=4, help="every Nth task page, sorted by name (4: 33 pages)"
    )
    parser.add_argument("--pages", type=comma_list, default=(), help="these task pages instead (file names)")
    parser.add_argument("--seed", type=int, default=1, help="the think times' random seed (default 1)")
    parser.add_argument("--stats", action="store_true", help="also browserx's own breakdown (stats=True)")
    args = parser.parse_args()
    _, every = task_pages()
    names = list(args.pages) or every[:: max(1, args.every)]
    low, high = args.think
    print(
        f"# Small pages: snapshot (browserx, text view) vs ariaSnapshot (Playwright {version_of('playwright')}),"
        f" client wall time (ms), MiniWoB++ {version_of('miniwob')}, {args.runs} rounds a page,"
        f" {low}-{high} s before each call"
    )
    print(", ".join(f"{k}: {v}" for k, v in machine_info().items()))
    print(f"{'page':36} {'elts':>4}  {'browserx':>7}  {'Playwr.':>7}  ratio")
    results, skipped = run(names, args.runs, args.think, args.seed, args.stats)
    for line in summary(results, args.stats):
        print(line)
    if skipped:
        print(f"skipped ({MAX_ELEMENTS} elements or more): {', '.join(skipped)}")


if __name__ == "__main__":
    main()
