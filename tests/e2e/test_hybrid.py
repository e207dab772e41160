"""The hybrid view end to end (docs/DESIGN.md, "Views"): the semantic view plus a JPEG of the viewport at most
1024 px wide and its perceptual hash; the picture is null while the hash stays the one last sent
for the tab, and is sent again once the page looks different; pages with an opted-out frame get
no picture; the CLI prints the semantic JSON and writes the picture only to --out."""

from __future__ import annotations

import base64
import io
import json
import re
import time
from pathlib import Path

from PIL import Image

from browserx import Client
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import open_page, run_cli

BLOCK_JS = (
    "document.body.insertAdjacentHTML('afterbegin', "
    "'<div style=\"height: 240px; background: linear-gradient(90deg, #000, #f40)\">Banner</div>')"
)


def jpeg(result: dict[str, object]) -> Image.Image:
    image = Image.open(io.BytesIO(base64.b64decode(str(result["screenshot"]))))
    image.load()
    assert image.format == "JPEG" and [image.width, image.height] == result["screenshotSize"]
    return image


def test_hybrid_sends_the_picture_once_per_look_of_the_page(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("act-controls.html"))
    bx.snapshot(tab=tab)  # attached first: the debugging banner takes its share of the window
    first = bx.snapshot(tab=tab, format="hybrid")
    assert first["format"] == "hybrid" and first["screenshotFormat"] == "jpeg"
    assert re.fullmatch(r"[0-9a-f]{16}", first["screenshotHash"])
    image = jpeg(first)
    viewport = browser.driver.execute_script("return [innerWidth, innerHeight]")
    assert image.width == min(1024, viewport[0]) and image.width <= 1024
    assert abs(image.height - viewport[1] * image.width / viewport[0]) <= 1

    again = bx.snapshot(tab=tab, format="hybrid")  # nothing changed: no picture, the same hash
    assert again["screenshot"] is None and again["screenshotHash"] == first["screenshotHash"]
    semantic = bx.snapshot(tab=tab, format="semantic")["semantic"]
    assert again["semantic"]["interactive_tree"] == semantic["interactive_tree"]
    assert any(n.get("n") == "Increment" for n in semantic["interactive_tree"])

    browser.driver.execute_script(BLOCK_JS)
    changed = bx.snapshot(tab=tab, format="hybrid")
    assert changed["screenshot"] is not None and changed["screenshotHash"] != first["screenshotHash"]
    jpeg(changed)


def test_no_picture_of_a_page_with_an_opted_out_frame(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("shot-frames.html?cross"))
    time.sleep(0.5)  # the frame loads
    result = bx.snapshot(tab=tab, format="hybrid")
    assert result["screenshot"] is None and result["screenshotHash"] is None
    assert "opted out" in result["screenshotNote"]
    assert result["semantic"]["interactive_tree"] is not None  # the view itself is served


def test_the_cli_prints_the_semantic_json_and_writes_the_picture_to_out(
    browser: Browser, bx: Client, servers: Servers, tmp_path: Path
) -> None:
    tab = open_page(browser, bx, servers.url("hello.html"))
    bx.snapshot(tab=tab)
    browser.driver.execute_script(BLOCK_JS)  # a look of the page no hybrid view has sent yet
    out = tmp_path / "view.jpg"
    done = run_cli("snapshot", "--tab", str(tab), "--format", "hybrid", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "interactive_tree" in json.loads(done.stdout) and len(done.stdout) < 20_000
    assert f"written to {out}" in done.stderr
    with Image.open(out) as written:
        assert written.format == "JPEG" and written.width <= 1024
    again = run_cli("snapshot", "--tab", str(tab), "--format", "hybrid")
    assert again.returncode == 0 and "unchanged" in again.stderr
    # Unchanged, the host sends only the hash; --out gets the picture all the same.
    second = tmp_path / "again.jpg"
    kept = run_cli("snapshot", "--tab", str(tab), "--format", "hybrid", "--out", str(second))
    assert kept.returncode == 0 and f"written to {second}" in kept.stderr and "taken again" in kept.stderr
    with Image.open(second) as written:
        assert written.format == "JPEG" and written.width <= 1024
