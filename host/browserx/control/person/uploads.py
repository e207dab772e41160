"""Which local files an agent may put into a page (``upload``): the person's, so checked here
before the tab is touched. Each path must be absolute (or ``~/…``) and name a readable regular
file, links resolved; all of them together at most ``MAX_UPLOAD_BYTES``. Files under a folder the
person allowed (the config file's ``upload_folders``, the options page's, links resolved on both
sides) go without asking; any other file makes the person decide in browserx's popup, with every
file's name and size shown: Deny is ``denied_by_user``, silence ``no_answer``.

Only names and sizes are ever shown or returned, never a byte of a file."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from browserx.actions.navigation import current_url
from browserx.control.person.ask import asks_for
from browserx.control.schemas import UploadParams
from browserx.errors import BadRequest, DeniedByUser, NoAnswer
from browserx.tabs.tab import Tab

MAX_UPLOAD_BYTES = 512 * 1024 * 1024  # all files of one upload together
ASK_TIMEOUT_S = 120.0  # the person's time to decide


@dataclass(frozen=True)
class LocalFile:
    path: Path  # resolved: no link, no "..", absolute
    size: int

    @property
    def name(self) -> str:
        return self.path.name


def local_files(paths: Sequence[str]) -> list[LocalFile]:
    """The files ``paths`` name, checked; BadRequest naming the first that is not one."""
    files: list[LocalFile] = []
    for given in paths:
        if not given or "\x00" in given:
            raise BadRequest(f"{given!r} is no file path.")
        path = Path(given).expanduser()
        if not path.is_absolute():
            raise BadRequest(
                f"{given!r} is a relative path: give an absolute one (/home/ann/cv.pdf) or one under ~ "
                "(~/cv.pdf). The host does not share your working folder."
            )
        try:
            resolved = path.resolve(strict=True)
            info = resolved.stat()
        except (FileNotFoundError, NotADirectoryError):
            raise BadRequest(f"No file at {given}: check the path.", path=given) from None
        except OSError as exc:
            raise BadRequest(f"{given} cannot be read ({exc.strerror}).", path=given) from None
        if stat.S_ISDIR(info.st_mode):
            raise BadRequest(f"{given} is a folder: give the files in it, one path each.", path=given)
        if not stat.S_ISREG(info.st_mode):
            raise BadRequest(f"{given} is not a regular file (a device, a pipe or a socket).", path=given)
        if not os.access(resolved, os.R_OK):
            raise BadRequest(f"{given} cannot be read (no permission).", path=given)
        files.append(LocalFile(resolved, info.st_size))
    total = sum(f.size for f in files)
    if total > MAX_UPLOAD_BYTES:
        raise BadRequest(
            f"These files are {size_text(total)} together; one upload takes at most "
            f"{size_text(MAX_UPLOAD_BYTES)}. Upload fewer or smaller files."
        )
    return files


def allowed_folders(folders: Iterable[str]) -> list[Path]:
    """The person's folders, resolved (a folder that does not exist allows nothing)."""
    out: list[Path] = []
    for folder in folders:
        try:
            path = Path(folder).expanduser()
            if path.is_absolute():
                out.append(path.resolve(strict=True))
        except (OSError, RuntimeError):
            continue
    return out


def under(file: LocalFile, folders: Sequence[Path]) -> bool:
    return any(file.path.is_relative_to(folder) for folder in folders)


def size_text(size: int) -> str:
    """1.2 MB, 340 KB, 12 bytes."""
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}".replace(".0 ", " ")
    return f"{size} byte{'' if size == 1 else 's'}"


async def permit_upload(tab: Tab, p: UploadParams, folders: Iterable[str]) -> UploadParams:
    """``p`` with its paths checked and resolved, once the person's folders or the person allow
    every file; raises BadRequest, DeniedByUser or NoAnswer otherwise."""
    if not p.paths:
        raise BadRequest("Give at least one file path to upload.")
    files = local_files(p.paths)
    resolved = p.model_copy(update={"paths": [str(f.path) for f in files]})
    allowed = allowed_folders(folders)
    if all(under(f, allowed) for f in files):
        return resolved
    site = urlsplit(await current_url(tab)).hostname or "this page"
    listed = ", ".join(f"{f.name} ({size_text(f.size)})" for f in files)
    question = (
        f"Upload {len(files)} file{'' if len(files) == 1 else 's'} from this computer to {site}? {listed}"
    )
    try:
        answer = await asks_for(tab.session.conn).ask(
            "confirm", question, timeout_s=ASK_TIMEOUT_S, tab_id=tab.tab_id
        )
    except NoAnswer:
        raise NoAnswer(
            f"The person did not answer within {ASK_TIMEOUT_S:g} s whether you may upload {listed}; nothing "
            "was uploaded. Ask them (ask_user) or leave this step to them.",
            id=p.id,
        ) from None
    if answer.allowed is not True:
        raise DeniedByUser(
            f"The person denied uploading {listed} in browserx's popup; nothing was uploaded. Do not try "
            "it another way: ask them (ask_user) what to do instead.",
            id=p.id,
        )
    return resolved


__all__ = ["MAX_UPLOAD_BYTES", "LocalFile", "local_files", "permit_upload", "size_text"]
