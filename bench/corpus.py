"""browserx vs Playwright on the real-app corpus (tests/e2e/apps/corpus.py): Django admin, Swagger UI,
Redoc, Datasette, MkDocs Material, JupyterLab and Shoelace, served locally.

One headless Chromium (bench/harness.py's ``start_browser``: system binary, browserx extension and host,
a CDP port) is shared: Playwright attaches over CDP and drives the corpus' steps (``page.goto``,
``page.evaluate``); browserx observes and acts on the same tab through its control socket.
Per page and tool:

* found: the page's hand-written expectations (``Expect`` role + name) listed as something to act
  on — browserx: a control with an ID, that role and name (the matching tests/e2e/test_real_apps.py
  does); Playwright: an ``aria_snapshot(mode="ai")`` line with a ``[ref=…]``, that role and name;
* tokens of the whole view (browserx's default text view, Playwright's snapshot), cl100k_base;
* snapshot latency, interleaved runs after a warm-up each: ``Client.snapshot`` client-side (the full
  round trip through the control socket), ``page.aria_snapshot(mode="ai")``;
* actions: each page's actions from a freshly opened page per tool (target found in the tool's own
  view, acted on by ID / aria ref), verified by the action's ``check`` on the page's own state;
* the page's element count and no duplicate IDs in browserx's text or json view.

The report goes to docs/CORPUS.md and the summary table to stdout.

    make bench-corpus     # or: .venv-bench/bin/python bench/corpus.py [--runs N] [--apps redoc,shoelace]
"""

# This file is the command line and the run over the apps. The rooms: harness.py (work dir,
# browser + host, run facts), corpus_session.py (the shared tab, measuring a page),
# corpus_actions.py (acting and verifying), corpus_scoring.py (reading views, matching
# expectations, the records), corpus_report.py (the summary and docs/CORPUS.md).

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from corpus_actions import run_actions
from corpus_report import REPORT, SUMMARY_HEADER, action_kinds, floor_rows, summary_line, write_report
from corpus_scoring import PageResult
from corpus_session import Session, measure
from harness import arg_parser, comma_list, end_facts, run_facts, running_browser, short_error, workdir
from tests.e2e.apps.corpus import APPS, App

from browserx import _native


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = arg_parser(__doc__, 7, "snapshot runs per tool and page")
    parser.add_argument("--apps", type=comma_list, default=(), help="only these apps, comma-separated")
    parser.add_argument("--pages", type=comma_list, default=(), help="only these pages (name or app/name)")
    parser.add_argument("--no-actions", action="store_true", help="skip the actions")
    parser.add_argument(
        "--action-rounds",
        type=int,
        default=3,
        help="times each tool does a page's actions, each on the page opened afresh (default 3)",
    )
    parser.add_argument("--dump", type=Path, help="write each tool's last view per page to this dir")
    parser.add_argument(
        "--no-report", action="store_true", help=f"print the table only, do not write {REPORT.name}"
    )
    return parser.parse_args(argv)


def bench(args: argparse.Namespace, work: Path, env: dict[str, Any]) -> list[PageResult]:
    results: list[PageResult] = []
    apps = [a for a in APPS if not args.apps or a.name in args.apps]
    with running_browser(work) as browser:
        env["chromium"] = browser.version
        session = Session(browser, args.dump)
        try:
            for app in apps:
                results += bench_app(session, app, args)
        finally:
            session.close()
    return results


def bench_app(s: Session, app: App, args: argparse.Namespace) -> list[PageResult]:
    results = [
        PageResult(p) for p in app.pages if not args.pages or p.name in args.pages or p.key in args.pages
    ]
    if not results:
        return []
    t0 = time.monotonic()
    print(f"== {app.name}: starting", flush=True)
    try:
        server = app.serve()
        base = server.__enter__()
    except Exception as exc:
        for res in results:
            res.error = f"the app did not start: {short_error(exc)}"
        print(f"   {results[0].error}", flush=True)
        return results
    try:
        print(f"   up in {time.monotonic() - t0:.1f} s at {base}", flush=True)
        for res in results:
            t1 = time.monotonic()
            try:
                measure(s, res.page, base, res, args.runs)
                if res.page.actions and not args.no_actions:
                    run_actions(s, res.page, base, res, args.action_rounds)
            except Exception as exc:
                res.error = f"page failed: {short_error(exc)}"
            print(summary_line(res) + f"  ({time.monotonic() - t1:.0f} s)", flush=True)
    finally:
        try:
            server.__exit__(None, None, None)
        except Exception as exc:
            print(f"   stopping {app.name}: {short_error(exc)}", flush=True)
    return results


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    env = run_facts("bench/corpus.py", argv)
    env["native"] = (
        "compiled with mypyc (`make native`)"
        if _native.up_to_date() and _native.compiled_modules()
        else "plain Python (no current `make native` build)"
    )
    with workdir("browserx-corpus-bench-") as work:
        results = bench(args, work, env)
    end_facts(env)
    print("\n" + "\n".join([SUMMARY_HEADER, *(summary_line(r) for r in results)]))
    print("\n".join(["", *floor_rows(results)[2:]]))
    print("\n".join(["", *action_kinds(results)]))
    print(f"total {env['elapsed_s']:.0f} s")
    if not args.no_report:
        write_report(results, env, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
