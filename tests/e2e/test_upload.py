"""upload end to end, judged by what the page saw (its inputs' input/change events, the names
and sizes of the File objects it got): a plain file input, a hidden input behind a styled label,
and a button whose script opens a chooser from an input that is not in the page
(tests/fixtures/pages/upload.html). Files outside the allowed folder wait for the person's word in
the popup; bad paths fail before the page is touched."""

from __future__ import annotations

from pathlib import Path

import pytest

from browserx import Client
from browserx.errors import BadRequest, DeniedByUser, NotInteractable
from tests.e2e.harness import UPLOADS, Browser, Servers
from tests.e2e.helpers import id_of, js, open_page
from tests.e2e.test_asks import Popup, in_thread, popup  # noqa: F401  (the popup fixture)

NOTE, CV = UPLOADS / "note.txt", UPLOADS / "cv.txt"


def _sizes(*paths: Path) -> list[list[object]]:
    return [[p.name, p.stat().st_size] for p in paths]


def test_a_file_input_gets_the_file_and_fires_its_events(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("upload.html"))
    result = bx.upload(id_of(bx, tab, "Resume"), [str(NOTE)], tab=tab)
    got = js(browser, "window.got")
    assert [(g["input"], g["kind"], g["files"]) for g in got] == [
        ("resume", "input", _sizes(NOTE)),
        ("resume", "change", _sizes(NOTE)),
    ]
    assert result["files"] == [{"name": "note.txt", "size": NOTE.stat().st_size}]
    assert "A note" not in str(result)  # names and sizes only, never content


def test_a_hidden_input_behind_a_label_takes_several(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("upload.html"))
    bx.upload(id_of(bx, tab, "Add photos"), [str(NOTE), str(CV)], tab=tab)
    changes = [g for g in js(browser, "window.got") if g["kind"] == "change"]
    assert changes == [{"input": "photos", "kind": "change", "files": _sizes(NOTE, CV)}]


def test_a_chooser_opened_by_script_is_answered(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("upload.html"))
    result = bx.upload(id_of(bx, tab, "Attach a file"), [str(CV)], tab=tab)
    changes = [g for g in js(browser, "window.got") if g["kind"] == "change"]
    assert changes == [{"input": "picker", "kind": "change", "files": _sizes(CV)}]
    assert result["files"] == [{"name": "cv.txt", "size": CV.stat().st_size}]


def test_fill_puts_a_file_into_a_file_input_beside_the_text(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("upload.html"))
    result = bx.fill({id_of(bx, tab, "Name"): "Ann", id_of(bx, tab, "Resume"): str(CV)}, tab=tab)
    assert [f["action"] for f in result["fields"]] == ["type", "upload"]
    assert js(browser, "document.getElementById('applicant').value") == "Ann"
    assert [g["files"] for g in js(browser, "window.got") if g["kind"] == "change"] == [_sizes(CV)]


def test_a_submit_button_is_never_clicked_for_an_upload(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("upload.html"))
    with pytest.raises(NotInteractable, match="submits its form"):
        bx.upload(id_of(bx, tab, "Send"), [str(NOTE)], tab=tab)
    assert js(browser, "[window.sent, window.got]") == [False, []]


def test_bad_paths_fail_before_the_page_is_touched(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("upload.html"))
    resume = id_of(bx, tab, "Resume")
    cases = [
        ([str(UPLOADS / "missing.txt")], "No file at"),
        ([str(UPLOADS)], "is a folder"),
        (["note.txt"], "relative path"),
        ([str(NOTE), str(CV)], "takes one file"),  # a single-file input
    ]
    for paths, said in cases:
        with pytest.raises(BadRequest, match=said):
            bx.upload(resume, paths, tab=tab)
    assert js(browser, "window.got") == []


def test_files_outside_the_allowed_folders_wait_for_the_person(
    browser: Browser,
    bx: Client,
    servers: Servers,
    popup: Popup,  # noqa: F811
    tmp_path: Path,
) -> None:
    tab = open_page(browser, bx, servers.url("upload.html"))
    resume = id_of(bx, tab, "Resume")
    outside = tmp_path / "taxes.txt"
    outside.write_text("2025 return")
    # A link in the allowed folder is judged by where it leads: outside, so the person is asked.
    link = UPLOADS / "link-out.txt"
    link.symlink_to(outside)
    try:
        result = in_thread(lambda: bx.upload(resume, [str(link)], tab=tab))
        ask_id = popup.question("taxes.txt")
    finally:
        link.unlink()
    assert "11 bytes" in popup.shown()[0] and "127.0.0.1" in popup.shown()[0]
    assert js(browser, "window.got") == []  # nothing before the answer
    popup.press(ask_id, "Deny")
    with pytest.raises(DeniedByUser):
        result(30)
    assert js(browser, "window.got") == []
    result = in_thread(lambda: bx.upload(resume, [str(outside)], tab=tab))
    popup.press(popup.question("taxes.txt"), "Allow")
    assert result(30)["files"] == [{"name": "taxes.txt", "size": 11}]
    assert [g["files"] for g in js(browser, "window.got")] == [[["taxes.txt", 11]]] * 2
