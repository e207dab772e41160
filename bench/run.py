"""browserx vs browser-use vs Playwright: snapshot latency, tokens and interactive coverage.

One headless Chromium (system binary) runs with the browserx extension and host and a CDP port,
so all three tools observe the SAME tab of the SAME browser:

* browserx: ``Client.snapshot(stats=True)`` through the control socket (text view), as an agent
  calls it, and "browserx full" with ``max_tokens=0`` (the whole page, no token budget);
* browser-use: its ``DomService.get_serialized_dom_tree()`` + ``llm_representation()`` (DOM
  extraction and serialization only: no LLM, no screenshot);
* Playwright: ``page.aria_snapshot(mode="ai")`` over ``connect_over_cdp`` (whole page).

Runs are interleaved (browserx, browserx full, browser-use, Playwright, ...) after one warm-up each.
Tokens are cl100k_base (browserx.views.tokens). The report goes to docs/BENCHMARKS.md.

    make bench            # or: .venv-bench/bin/python bench/run.py [--runs N] [--sizes 1000,5000]
"""

# This file is the command line only. The rooms: harness.py (work dir, browser + host, host RSS,
# run facts), pages.py (the page set), adapters/ (one per compared tool), measure.py (the runs),
# results.py (the records), scoring.py (coverage, floors), report.py (docs/BENCHMARKS.md).

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from adapters import OTHERS
from adapters.browser_use import quiet_environment
from harness import arg_parser, comma_ints, comma_list, end_facts, run_facts, workdir
from measure import run_all
from report import write_report

FIXTURE_PAGES = ("snap-controls.html", "snap-js.html", "snap-layout.html")
SIZES = (1000, 5000, 20000, 50000)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = arg_parser(__doc__, 5, "runs per tool and page")
    parser.add_argument(
        "--slow-runs", type=int, default=3, help="runs for a tool whose first run took > 30 s (default 3)"
    )
    parser.add_argument(
        "--sizes",
        type=comma_ints,
        default=SIZES,
        help="generated page sizes, comma-separated (default 1000,5000,20000,50000)",
    )
    parser.add_argument(
        "--fixtures",
        type=comma_list,
        default=FIXTURE_PAGES,
        help=f"fixture pages, comma-separated (default {','.join(FIXTURE_PAGES)})",
    )
    parser.add_argument(
        "--tools",
        type=comma_list,
        default=OTHERS,
        help="comparison tools to run besides browserx (default browser-use,playwright)",
    )
    parser.add_argument("--dump", type=Path, help="write each tool's last output per page to this dir")
    parser.add_argument("--verbose", action="store_true", help="print tracebacks of tool failures")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    env_info = run_facts("bench/run.py", argv)
    env_info["tool_errors"] = {}
    # The bench loads and measures pages through the raw `cdp` method: opened for this host only.
    with workdir("browserx-bench-", raw_cdp=True) as work:
        quiet_environment(work)
        pages = asyncio.run(run_all(args, work, env_info))
        end_facts(env_info)
        write_report(pages, env_info, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
