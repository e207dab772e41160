"""Downloads end to end: an action that starts one lists it in its result, finished, and
`downloads` lists the tab's recent ones; judged by the files Chrome wrote into the person's
download folder (the harness sets it in Chrome's settings), never by browserx's word alone."""

from __future__ import annotations

import time
from pathlib import Path

from browserx import Client
from browserx.errors import BrowserxError
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import id_of, open_page
from tests.e2e.servers import PAGES


def _saved(folder: Path, name: str, timeout: float = 10.0) -> bytes:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (folder / name).exists():
            return (folder / name).read_bytes()
        time.sleep(0.1)
    raise AssertionError(f"{name} not in {folder}: {sorted(p.name for p in folder.glob('*'))}")


def test_a_download_is_reported_by_the_action_that_started_it(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    folder = browser.profile.parent / "downloads"
    tab = open_page(browser, bx, servers.url("downloads.html"))
    report = bx.click(id_of(bx, tab, "Download report"), tab=tab)
    assert _saved(folder, "report.html") == (PAGES / "hello.html").read_bytes()
    assert report["downloads"] == [
        {"name": "report.html", "url": servers.url("hello.html"), "state": "completed",
         "size": (PAGES / "hello.html").stat().st_size},
    ]  # fmt: skip
    export = bx.click(id_of(bx, tab, "Export CSV"), tab=tab)
    assert _saved(folder, "totals.csv") == b"name,total\nAnn,12\n"
    (made,) = export["downloads"]
    assert (made["name"], made["state"], made["size"]) == ("totals.csv", "completed", 18)
    assert made["url"].startswith("blob:")
    # The tab's list, newest first; an action that downloads nothing lists none.
    assert [d["name"] for d in bx.downloads(tab=tab)] == ["totals.csv", "report.html"]
    assert "downloads" not in bx.scroll(tab=tab)


def test_a_new_tab_lists_none_and_an_unknown_tab_fails(bx: Client, servers: Servers) -> None:
    tab = bx.new_tab(servers.url("hello.html"))["tab"]
    try:
        assert bx.downloads(tab=tab) == []
    finally:
        bx.close_tab(tab)
    try:
        bx.downloads(tab=10**9)
    except BrowserxError as exc:
        assert exc.code == "unknown_tab"
    else:
        raise AssertionError("an unknown tab must fail")
