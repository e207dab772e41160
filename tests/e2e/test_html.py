"""The ``html`` tool end to end: skeleton and full HTML of real pages carry the IDs the text view
shows, stay within ``max_chars``, never hold a password, leave opted-out frames out and refuse
opted-out pages; the CLI prints the HTML."""

from __future__ import annotations

import re
import time

import pytest

from browserx import Client
from browserx.errors import BrowserxError
from browserx.views.text import parse_controls
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import open_page, run_cli

DATA_ID = re.compile(r'<(\w+) data-id="(\d+)"')


def ids_in(html: str) -> list[int]:
    return [int(m.group(2)) for m in DATA_ID.finditer(html)]


def test_skeleton_and_full_html_carry_the_ids_of_the_text_view(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("snap-controls.html"))
    controls = parse_controls(bx.snapshot(tab=tab, max_tokens=0)["text"])
    skeleton = bx.html(tab=tab)
    assert skeleton["mode"] == "skeleton" and skeleton["url"].endswith("snap-controls.html")
    assert skeleton["chars"] == len(skeleton["html"]) < 2000 and not skeleton["truncated"]
    found = ids_in(skeleton["html"])
    assert sorted(found) == sorted(controls) and skeleton["elements"] == len(found)
    by_name = {name: element_id for element_id, (_, name) in controls.items()}
    assert f'<button data-id="{by_name["Save draft"]}" type="button">Save draft</button>' in skeleton["html"]
    assert f'<a data-id="{by_name["Terms of service"]}" href="/terms.html">' in skeleton["html"]
    # The states the text view shows, and the page's own id (for selectors).
    assert (
        f'<button data-id="{by_name["Delete account"]}" type="button" disabled>Delete account</button>'
        in skeleton["html"]
    )
    assert (
        f'<input data-id="{by_name["Subscribe to newsletter"]}" type="checkbox" checked' in skeleton["html"]
    )
    assert f'<input data-id="{by_name["Full name"]}" id="fullname" type="text"' in skeleton["html"]
    assert "class=" not in skeleton["html"] and "style=" not in skeleton["html"]

    full = bx.html(tab=tab, mode="full")
    assert full["chars"] > skeleton["chars"] and not full["truncated"]
    assert sorted(ids_in(full["html"])) == sorted(controls)  # nothing repeated enough to shorten here
    assert "Every kind of native and custom control" in full["html"]  # the page's text too
    assert "<script" not in full["html"]
    assert f'<select data-id="{by_name["Country"]}" id="country"' in full["html"]
    # The IDs stay the tab's: a snapshot after the html tool shows the same ones.
    assert parse_controls(bx.snapshot(tab=tab, max_tokens=0)["text"]) == controls


def test_max_chars_cuts_the_html_cleanly(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("snap-layout.html"))
    whole = bx.html(tab=tab, mode="full")
    assert "more <button> like the above" in whole["html"]  # the scroller's 30 rows, templatized
    cut = bx.html(tab=tab, mode="full", max_chars=400)
    assert cut["truncated"] and len(cut["html"]) <= 400 and cut["chars"] == len(cut["html"])
    assert "max_chars" in cut["note"] and cut["html"].endswith("</body>")
    assert cut["elements"] == len(ids_in(cut["html"])) < whole["elements"]
    with pytest.raises(BrowserxError) as bad:
        bx.html(tab=tab, max_chars=500_000)
    assert bad.value.code == "bad_request"


def test_no_password_ever_and_form_values_only_when_asked(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("snap-values.html"))
    browser.driver.find_element("id", "typed-secret").send_keys("typed-Pa55word")
    for mode in ("skeleton", "full"):
        plain = bx.html(tab=tab, mode=mode)["html"]
        valued = bx.html(tab=tab, mode=mode, include_values=True)["html"]
        for html in (plain, valued):
            assert "hunter2" not in html and "Sup3rSecret" not in html and "Pa55word" not in html
            assert "4111" not in html and "123-45-6789" not in html
        assert "Jane Q Public" not in plain and "Jane Q Public" in valued
        assert "[card number]" in valued and "[ssn]" in valued and "••••" in valued


def test_an_opted_out_page_is_refused(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("snap-noai.html"))
    for mode in ("skeleton", "full"):
        with pytest.raises(BrowserxError) as refused:
            bx.html(tab=tab, mode=mode)
        assert refused.value.code == "page_opted_out"
        assert "Transfer" not in refused.value.message


@pytest.mark.parametrize("where", ["same", "cross"])
def test_an_opted_out_frame_is_left_out(browser: Browser, bx: Client, servers: Servers, where: str) -> None:
    tab = open_page(browser, bx, servers.url(f"shot-frames.html?{where}"))
    time.sleep(0.5)  # the frame loads
    full = bx.html(tab=tab, mode="full")["html"]
    assert "Page with a frame" in full and "<iframe" in full
    assert "Private frame" not in full
    assert "Private frame" not in bx.html(tab=tab)["html"]
    assert "Private frame" not in bx.snapshot(tab=tab)["text"]  # nor in the text view (same snapshot)


def test_the_cli_prints_the_html(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("snap-controls.html"))
    done = run_cli("html", "--tab", str(tab), "--mode", "skeleton")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("<h1>Controls fixture</h1>\n") and 'data-id="' in done.stdout
    cut = run_cli("html", "--tab", str(tab), "--mode", "full", "--max-chars", "300")
    assert cut.returncode == 0 and len(cut.stdout) <= 301 and "max_chars" in cut.stderr
