"""Soak: observe–act cycles on the fixture pages through the real pipe (Selenium-launched
Chromium, the browserx extension, the real host, the control socket), as an agent works.

Each cycle takes a snapshot (json view) and acts on an ID from it — a click, typing into a text
field, or a scroll — choosing with a seeded random generator; now and then it reopens a page
(the next one of the rotation). At the end it prints the cycles run, the errors (every failed
snapshot or action), the host's RSS (VmRSS of /proc/<host pid>/status) and its drift, and exits
non-zero when a floor is missed: any error, fewer cycles than asked, or drift above the limit.

An action that browserx refuses for a reason the view could not show is a refusal, printed
but not an error: `occluded` for an element the view listed out of view (scrolled into view, it
landed under a fixed banner). The same refusal for an element the view showed in view and
uncovered is an error.

The drift is measured from the host's RSS after a warm-up (one visit to each page: the first
snapshots load the tokenizer, compile the collector and fill caches once for the host's life) to
its RSS at the end; the RSS at launch is printed too.

    python scripts/soak.py [--cycles 1000] [--max-drift 0.10] [--seed 0] [--reopen-every 20]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.harness import PAGES, browser_with_extension, fixture_servers  # noqa: E402

from browserx import Client  # noqa: E402
from browserx.errors import BrowserxError, Occluded  # noqa: E402

# Pages whose controls stay on the fixture site and raise no modal dialogs (alert/confirm would
# block the page: no agent clicks through one of those here).
SOAK_PAGES = [
    "act-controls.html",
    "view-form.html",
    "act-scroll.html",
    "snap-controls.html",
    "act-shadow.html",
    "patterns.html",
    "realapp-react.html",
    "snap-layout.html",
    "realapp-custom-controls.html",
    "patterns-menus.html",
    "act-frames.html",
    "snap-js.html",
]
CLICKABLE = {
    "button", "link", "checkbox", "radio", "switch", "tab", "clickable", "menuitem", "menuitemcheckbox",
    "menuitemradio", "option", "treeitem", "DisclosureTriangle", "combobox", "gridcell", "row",
    "columnheader", "spinbutton", "slider",
}  # fmt: skip
TYPEABLE = {"textbox", "searchbox"}
PLAIN_TYPES = {None, "email", "search", "tel", "url", "password", "text"}
TEXT_FOR_TYPE = {
    "email": ["ada@example.com", "grace@example.org"],
    "tel": ["+44 20 7946 0000", "555-0100"],
    "url": ["https://example.com/", "https://example.org/a?b=c"],
}
WORDS = ["hello", "Ada Lovelace", "tea", "42 Main St", "naïve café", "日本", "x" * 60, ""]


@dataclass
class Soak:
    cycles: int = 0
    actions: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    reopened: int = 0
    navigations: int = 0
    rss: list[tuple[int, int]] = field(default_factory=list)  # (cycle, bytes)


def host_rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


def mb(n: int) -> str:
    return f"{n / 2**20:.1f} MB"


def controls(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every node with an ID in a json view, in document order."""
    out: list[dict[str, Any]] = []
    stack = [body]
    while stack:
        node = stack.pop()
        if "id" in node:
            out.append(node)
        stack.extend(reversed(node.get("children", [])))
    return out


def usable(node: dict[str, Any]) -> bool:
    """What the view says a person could act on now: enabled, not covered."""
    return not node.get("disabled") and not node.get("covered") and not node.get("readonly")


def stays_on_site(node: dict[str, Any], page_url: str) -> bool:
    """A link that leads to another fixture page (or within this one), never off the site."""
    href = node.get("href")
    if href is None:
        return node.get("role") != "link"
    target = urlsplit(urljoin(page_url, href))
    here = urlsplit(page_url)
    if (target.scheme, target.netloc) != (here.scheme, here.netloc):
        return False
    path = target.path.lstrip("/")
    return path == here.path.lstrip("/") or (path in SOAK_PAGES and (PAGES / path).is_file())


def choose(
    rng: random.Random, nodes: list[dict[str, Any]], page_url: str
) -> tuple[str, dict[str, Any] | None]:
    clickable = [n for n in nodes if n.get("role") in CLICKABLE and usable(n) and stays_on_site(n, page_url)]
    typeable = [n for n in nodes if n.get("role") in TYPEABLE and usable(n) and n.get("type") in PLAIN_TYPES]
    scrollable = [n for n in nodes if n.get("role") == "scrollable" and not n.get("covered")]
    roll = rng.random()
    if roll < 0.45 and clickable:
        return "click", rng.choice(clickable)
    if roll < 0.8 and typeable:
        return "type", rng.choice(typeable)
    if scrollable and rng.random() < 0.5:
        return "scroll", rng.choice(scrollable)
    return "scroll", None


def act(bx: Client, rng: random.Random, kind: str, node: dict[str, Any] | None) -> dict[str, Any]:
    if kind == "click":
        assert node is not None
        return bx.click(int(node["id"]))
    if kind == "type":
        assert node is not None
        text = rng.choice(TEXT_FOR_TYPE.get(str(node.get("type")), WORDS))
        return bx.type_text(int(node["id"]), text, clear=rng.random() < 0.7)
    direction = rng.choice(["down", "down", "up"])
    amount: str | float = rng.choice(["page", 200.0, 600.0])
    return bx.scroll(int(node["id"]) if node is not None else None, direction=direction, amount=amount)


def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    soak = Soak()
    started = time.monotonic()
    with fixture_servers() as servers, browser_with_extension(headless=True) as browser:
        pid = browser.host.pid
        rss_launch = host_rss(pid)
        # The browser starts on one of its own pages, which no debugger may attach to.
        browser.driver.get(servers.url(SOAK_PAGES[0]))
        with Client(browser.host.socket, timeout=60) as bx:
            page_index = 0

            def reopen() -> str:
                nonlocal page_index
                url = servers.url(SOAK_PAGES[page_index % len(SOAK_PAGES)])
                page_index += 1
                bx.navigate(url)
                return url

            def cycle(url: str, counted: bool) -> None:
                view = bx.snapshot(format="json", max_tokens=0)
                page_url = view["json"]["page"]["context"].get("url") or url
                kind, node = choose(rng, controls(view["json"]["page"]["body"]), page_url)
                try:
                    result = act(bx, rng, kind, node)
                except Occluded as exc:
                    if node is None or "position" not in node:
                        raise  # the view showed it in view and uncovered: the view was wrong
                    soak.refusals.append(f"cycle {soak.cycles} on {url}: {exc.message[:200]}")
                    return
                if counted:
                    soak.actions[kind] += 1
                    if result.get("changes", {}).get("navigated"):
                        soak.navigations += 1

            # Warm-up: every page once (not counted; its RSS is the baseline of the drift).
            for _ in SOAK_PAGES:
                url = reopen()
                try:
                    cycle(url, counted=False)
                except BrowserxError as exc:
                    soak.errors.append(f"warm-up on {url}: {exc.code}: {exc.message}")
            page_index = 0
            rss_warm = host_rss(pid)
            soak.rss.append((0, rss_warm))
            url = reopen()
            soak.reopened += 1
            while soak.cycles < args.cycles:
                if soak.cycles and soak.cycles % args.reopen_every == 0:
                    url = reopen()
                    soak.reopened += 1
                try:
                    cycle(url, counted=True)
                except BrowserxError as exc:
                    soak.errors.append(f"cycle {soak.cycles} on {url}: {exc.code}: {exc.message[:300]}")
                    url = reopen()  # start the next cycle from a known page
                    soak.reopened += 1
                soak.cycles += 1
                if soak.cycles % 50 == 0:
                    soak.rss.append((soak.cycles, host_rss(pid)))
                    if args.progress:
                        print(
                            f"  {soak.cycles:>5} cycles  {len(soak.errors)} errors  host RSS "
                            f"{mb(soak.rss[-1][1])}  {time.monotonic() - started:.0f} s",
                            flush=True,
                        )
            time.sleep(1.0)  # let the host's deferred collection run
            rss_end = host_rss(pid)
            status = bx.status()
    elapsed = time.monotonic() - started
    drift = (rss_end - rss_warm) / rss_warm
    peak = max(r for _, r in [*soak.rss, (0, rss_end)])
    ok_cycles = soak.cycles >= args.cycles
    ok_errors = not soak.errors
    ok_drift = drift <= args.max_drift
    report = {
        "cycles": soak.cycles,
        "errors": len(soak.errors),
        "refusals": len(soak.refusals),
        "actions": dict(soak.actions),
        "reopened_pages": soak.reopened,
        "navigations_by_clicks": soak.navigations,
        "host_pid": pid,
        "host_rss_at_launch_mb": round(rss_launch / 2**20, 1),
        "host_rss_start_mb": round(rss_warm / 2**20, 1),
        "host_rss_end_mb": round(rss_end / 2**20, 1),
        "host_rss_peak_sampled_mb": round(peak / 2**20, 1),
        "drift": round(drift, 4),
        "compiled": status.get("compiled"),
        "seconds": round(elapsed, 1),
    }
    print(f"soak: {soak.cycles} observe-act cycles on {len(SOAK_PAGES)} fixture pages in {elapsed:.0f} s")
    print(f"  actions: {', '.join(f'{k} {v}' for k, v in sorted(soak.actions.items()))}; "
          f"pages reopened {soak.reopened}, navigations by clicks {soak.navigations}")  # fmt: skip
    print(f"  errors: {len(soak.errors)}")
    for line in soak.errors[:20]:
        print(f"    {line}")
    print(f"  refusals the view could not foresee (not errors): {len(soak.refusals)}")
    for line in soak.refusals[:5]:
        print(f"    {line}")
    print(
        f"  host RSS: {mb(rss_launch)} at launch, {mb(rss_warm)} at start (after warm-up), "
        f"{mb(rss_end)} at end, peak sampled {mb(peak)}; drift {drift:+.1%} (limit {args.max_drift:.0%})"
    )
    print("  RSS every 50 cycles: " + " ".join(mb(r).removesuffix(" MB") for _, r in soak.rss))
    verdicts = [
        ("cycles", ok_cycles, f">= {args.cycles}"),
        ("errors", ok_errors, "0"),
        ("drift", ok_drift, f"<= {args.max_drift:.0%}"),
    ]
    print("  floors: " + ", ".join(f"{n} {want}: {'ok' if ok else 'MISSED'}" for n, ok, want in verdicts))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0 if all(ok for _, ok, _ in verdicts) else 1


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cycles", type=int, default=1000, help="observe-act cycles to run (1000)")
    parser.add_argument("--max-drift", type=float, default=0.10, help="host RSS drift allowed (0.10 = 10 %%)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the action choices")
    parser.add_argument("--reopen-every", type=int, default=20, help="reopen a page every N cycles")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--quiet", dest="progress", action="store_false", help="no progress lines")
    return run(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
