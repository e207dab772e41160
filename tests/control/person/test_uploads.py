"""control/person/uploads.py: which paths an upload takes, checked before any page is touched."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from browserx.control.person.uploads import LocalFile, allowed_folders, local_files, size_text, under
from browserx.errors import BadRequest


def test_files_are_resolved_and_measured(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello")
    (tmp_path / "link.txt").symlink_to(tmp_path / "a.txt")
    files = local_files([str(tmp_path / "a.txt"), str(tmp_path / "link.txt")])
    assert files == [LocalFile(tmp_path.resolve() / "a.txt", 5)] * 2
    assert files[0].name == "a.txt"


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("", "no file path"),
        ("rel/a.txt", "relative path"),
        ("/nope/none.txt", "No file at"),
        ("\x00", "no file"),
    ],
)
def test_bad_paths_say_what_is_wrong(given: str, said: str) -> None:
    with pytest.raises(BadRequest, match=said):
        local_files([given])


def test_folders_devices_and_unreadable_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(BadRequest, match="is a folder"):
        local_files([str(tmp_path)])
    with pytest.raises(BadRequest, match="not a regular file"):
        local_files(["/dev/null"])
    locked = tmp_path / "locked.txt"
    locked.write_text("x")
    locked.chmod(0)
    try:
        if not os.access(locked, os.R_OK):  # (root reads it anyway)
            with pytest.raises(BadRequest, match="no permission"):
                local_files([str(locked)])
    finally:
        locked.chmod(0o600)


def test_allowed_folders_judge_where_links_lead(tmp_path: Path) -> None:
    inside, outside = tmp_path / "in", tmp_path / "out"
    inside.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("s")
    (inside / "ok.txt").write_text("o")
    (inside / "escape.txt").symlink_to(outside / "secret.txt")
    folders = allowed_folders([str(inside), "relative/folder", str(tmp_path / "missing")])
    assert folders == [inside.resolve()]
    ok, escape = local_files([str(inside / "ok.txt"), str(inside / "escape.txt")])
    assert under(ok, folders) and not under(escape, folders)
    # a sibling whose name starts the same is not inside
    (tmp_path / "in2").mkdir()
    (tmp_path / "in2" / "x.txt").write_text("x")
    assert not under(local_files([str(tmp_path / "in2" / "x.txt")])[0], folders)


def test_sizes_read_as_people_write_them() -> None:
    assert [size_text(n) for n in (1, 12, 2048, 1536 * 1024, 3 << 30)] == [
        "1 byte", "12 bytes", "2 KB", "1.5 MB", "3 GB",
    ]  # fmt: skip
