"""Draw docs/popup.png, the README's picture of the popup: a real Chromium with the extension and
host (the e2e harness), a short scripted session on the bundled demo page, then the popup opened
as a page of its own and captured by Selenium at the size Chrome gives a toolbar popup.

    .venv/bin/python scripts/popup_picture.py [--out docs/popup.png]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.harness import browser_with_extension  # noqa: E402
from tests.e2e.helpers import open_page  # noqa: E402
from tests.e2e.servers import fixture_servers  # noqa: E402

from browserx import Client  # noqa: E402
from browserx.relay.protocol import EXTENSION_ID  # noqa: E402

DEMO = ROOT / "demo"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "popup.png"))
    args = parser.parse_args()
    with fixture_servers(DEMO) as servers, browser_with_extension() as browser, Client() as bx:
        tab = open_page(browser, bx, servers.url("shop.html"))
        view = bx.snapshot(tab=tab, format="json")["json"]["page"]["body"]
        ids = _ids(view)
        bx.type_text(ids["Email"], "ada@example.com", tab=tab)
        bx.check(ids["Weekly digest"], tab=tab)
        bx.click(ids["Subscribe"], tab=tab)
        d = browser.driver
        d.switch_to.new_window("tab")
        d.set_window_size(420, 720)
        d.get(f"chrome-extension://{EXTENSION_ID}/popup.html?tab={tab}")
        time.sleep(1.0)  # the popup reads the worker's state
        body = d.find_element("tag name", "body")
        body.screenshot(args.out)
    print(args.out)


def _ids(node: dict[str, object]) -> dict[str, int]:
    out: dict[str, int] = {}
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n.get("id"), int) and isinstance(n.get("name"), str):
            out.setdefault(str(n["name"]), int(n["id"]))  # type: ignore[call-overload]
        children = n.get("children")
        if isinstance(children, list):
            stack.extend(c for c in children if isinstance(c, dict))
    return out


if __name__ == "__main__":
    main()
