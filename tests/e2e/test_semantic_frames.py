"""Every element in a frame carries its frame in the semantic view (``f``), same-site frames
too, on real Chromium: the page's own elements none, a same-origin frame's ``s1``, a cross-site
frame's its session label ``f1``; browserx agent's request numbers them."""

from __future__ import annotations

import time

from browserx import Client
from browserx.interfaces.agent.request import Observation, build_request
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import open_page


def test_elements_in_every_frame_carry_their_frame(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("snap-frames.html"))
    deadline = time.monotonic() + 10
    while True:  # the cross-site frame attaches a moment after the page
        view = bx.snapshot(tab=tab, format="semantic")["semantic"]
        by_name = {e.get("n"): e for e in view["interactive_tree"]}
        if "Cross-site frame button" in by_name or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert "f" not in by_name["Main frame button"]
    assert by_name["Same-origin frame button"]["f"] == "s1"
    cross = by_name["Cross-site frame button"]["f"]
    assert cross.startswith("f") and cross[1:].isdigit()
    body = build_request("t", Observation(tab, view))
    frames = {n["n"]: n.get("f") for n in body["interactiveTree"]}
    assert frames["Main frame button"] is None
    assert frames["Same-origin frame button"] == 1001
    assert frames["Cross-site frame button"] == int(cross[1:])
