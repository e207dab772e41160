"""Names and roles of composite widgets as Chrome computes them (issue 21): multi-selects whose
chips are boxes of their own with a CSS separator, labels tied by label[for] and aria-labelledby
chains, paginator size selects, sliders with tick labels and thumbs, Swagger UI's OAuth scope
checkboxes, a carousel's image link, <summary>, format hints. The page is
tests/fixtures/pages/names-composite.html; Chrome's accessibility tree (read through Selenium's
own CDP connection) is the oracle for every control it exposes (tests/e2e/test_patterns.py's
comparison: role, name, states); what Chrome leaves out or unnamed is checked line by line.
"""

from __future__ import annotations

from typing import Any

from browserx import Client
from tests.e2e.harness import Browser
from tests.e2e.test_patterns import Observation, assert_clean, compare_with_chrome, go, lines_of, observe

__all__ = ["go"]  # the fixture, used by name

PAGE = "names-composite.html"


def line(obs: Observation, name: str, role: str | None = None) -> str:
    control = obs.one(name, role)
    found = lines_of(obs.text, control["id"])
    assert len(found) == 1, found
    return found[0].strip()


def test_composite_names_agree_with_chrome(browser: Browser, bx: Client, go: Any) -> None:
    obs = observe(bx, go(PAGE), PAGE)
    compare_with_chrome(obs, browser.driver)
    assert_clean(obs)


def test_multi_select_chips_are_set_apart_with_their_css_separator(bx: Client, go: Any) -> None:
    obs = observe(bx, go(PAGE), PAGE)
    # Chrome: "Categories 2 selected Electronics, Toys" (label tied through the button itself;
    # flex-item chips; "," from ::after) and "2 selected Acme , Globex" (inline-block tags,
    # ", " from the second tag's ::before).
    assert line(obs, "Categories 2 selected Electronics, Toys", "button").startswith("[")
    assert line(obs, "2 selected Acme , Globex", "button").startswith("[")


def test_slider_thumbs_are_sliders_named_by_their_label_with_their_value(bx: Client, go: Any) -> None:
    obs = observe(bx, go(PAGE), PAGE)
    # Quasar: role=slider on the root, tick labels inside; the caption above names it.
    assert line(obs, "Rating", "slider").endswith('slider Rating (value="3", name from nearby text)')
    # Vuetify: role=slider on the thumb, named by the label beside the track.
    assert line(obs, "Temperature", "slider").endswith('(value="-10", name from nearby text)')
    # MUI: the native range input is clipped inside the thumb, mark labels ("100%") come right
    # before the thumb: the thumb is the slider, named by the caption, not by the last mark.
    brightness = obs.one("Brightness", "slider")
    assert brightness["tag"] == "span" and brightness["value"] == "30", brightness
    assert not obs.named("100%"), [c for c in obs.controls if c.get("name") == "100%"]
    assert line(obs, "Volume", "slider").endswith('slider Volume (value="40")')


def test_swagger_scope_checkboxes_are_named_by_their_paragraphs(
    browser: Browser, bx: Client, go: Any
) -> None:
    obs = observe(bx, go(PAGE), PAGE)
    write = obs.one("write:pets", "checkbox")
    assert "checked" not in write and line(obs, "write:pets").endswith("checkbox write:pets")
    assert obs.one("read:pets read your pets", "checkbox").get("checked") is True
    result = bx.click(write["id"], tab=obs_tab(bx, browser))
    assert result["success"], result
    checked = browser.driver.execute_script(
        "return document.getElementById('write:pets-petstore_auth-checkbox-petstore_auth').checked"
    )
    assert checked is True
    again = observe(bx, obs_tab(bx, browser), PAGE)
    assert again.one("write:pets", "checkbox").get("checked") is True


def obs_tab(bx: Client, browser: Browser) -> int:
    url = browser.driver.current_url
    return next(int(t["tab"]) for t in bx.tabs() if t["url"] == url)


def test_carousel_image_link_is_a_link_named_by_its_image(browser: Browser, bx: Client, go: Any) -> None:
    tab = go(PAGE)
    obs = observe(bx, tab, PAGE)
    link = obs.one("Land's End in Cornwall", "link")
    assert line(obs, "Land's End in Cornwall").endswith("Land's End in Cornwall → #cornwall")
    assert not any(ln.strip().startswith("img Land's End") for ln in obs.text.splitlines()), obs.text
    result = bx.click(link["id"], tab=tab)
    assert result["success"], result
    assert browser.driver.current_url.endswith("#cornwall")


def test_format_hint_placeholder_is_a_fact_in_every_view(bx: Client, go: Any) -> None:
    tab = go(PAGE)
    obs = observe(bx, tab, PAGE)
    dob = obs.one("Date of birth", "textbox")
    assert dob.get("placeholder") == "YYYY-MM-DD", dob
    assert line(obs, "Date of birth").endswith('textbox Date of birth (placeholder="YYYY-MM-DD")')
    # A placeholder that is the name already says nothing more: no fact.
    phone = obs.one("Phone", "textbox")
    assert "placeholder" not in phone and "placeholder" not in line(obs, "Phone")
    semantic = bx.snapshot(tab=tab, format="semantic")["semantic"]
    by_id = {e["i"]: e for e in semantic["interactive_tree"]}
    assert by_id[dob["id"]].get("ph") == "YYYY-MM-DD" and "ph" not in by_id[phone["id"]]
    assert by_id[obs.one("Volume", "slider")["id"]].get("v") == "40"
