"""Where running hosts live: a per-user runtime dir holding, per host process, a control socket
``host-<pid>.sock`` (0600) and a discovery record ``host-<pid>.json``; the dir itself is 0700."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

from pydantic import BaseModel, Field

from browserx.errors import NoHost


class HostRecord(BaseModel):
    """The discovery record one host writes next to its socket."""

    pid: int = Field(description="Process id of the host.")
    socket: str = Field(description="Absolute path of its control socket.")
    started_at: float = Field(description="Unix time the host started.")
    version: str = Field(description="browserx version of the host.")
    browser: str | None = Field(default=None, description="User agent reported by the extension.")
    profile: str | None = Field(default=None, description="Browser user-data-dir, when known.")
    log: str | None = Field(default=None, description="Path of the host's log file.")


def runtime_dir() -> Path:
    explicit = os.environ.get("BROWSERX_RUNTIME_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg:
        return Path(xdg) / "browserx"
    return Path.home() / ".browserx" / "run"


def ensure_runtime_dir() -> Path:
    path = runtime_dir()
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path


def write_record(record: HostRecord) -> Path:
    path = runtime_dir() / f"host-{record.pid}.json"
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(record.model_dump_json())
    os.replace(tmp, path)
    return path


def remove_record(pid: int) -> None:
    for suffix in (".json", ".sock"):
        with contextlib.suppress(FileNotFoundError):
            (runtime_dir() / f"host-{pid}{suffix}").unlink()


def alive(pid: int) -> bool:
    """Whether a process runs (one that exited but was not yet collected by its parent does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True  # no /proc (macOS): kill(0) said it is there


def live_hosts() -> list[HostRecord]:
    """Records of hosts whose process is alive and whose socket exists, newest first.
    Records of dead hosts are cleaned up on the way."""
    records: list[HostRecord] = []
    directory = runtime_dir()
    if not directory.is_dir():
        return records
    for path in directory.glob("host-*.json"):
        try:
            record = HostRecord.model_validate_json(path.read_bytes())
        except (OSError, ValueError):
            continue
        if alive(record.pid) and Path(record.socket).exists():
            records.append(record)
        elif not alive(record.pid):
            remove_record(record.pid)
    records.sort(key=lambda r: r.started_at, reverse=True)
    return records


def discover_socket(explicit: str | None = None) -> str:
    """The control socket to talk to: explicit path, $BROWSERX_SOCKET, else the newest live host."""
    if explicit:
        return explicit
    env = os.environ.get("BROWSERX_SOCKET")
    if env:
        return env
    hosts = live_hosts()
    if not hosts:
        raise NoHost(
            f"No running browserx host found in {runtime_dir()}. Start a browser with the browserx "
            "extension (or `browserx launch`), and check `make install-host` was run."
        )
    return hosts[0].socket


def wait_for_new_host(since: float, timeout: float, profile: str | None = None) -> HostRecord | None:
    """Poll until a host started after ``since`` (for ``profile``, when given) shows up."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for record in live_hosts():
            if record.started_at >= since and (profile is None or record.profile in (None, profile)):
                return record
        time.sleep(0.1)
    return None
