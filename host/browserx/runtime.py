"""Where running hosts live: a per-user runtime dir holding, per host process, a control socket
``host-<pid>.sock`` (0600) and a discovery record ``host-<pid>.json``, and per browser a link
``browser-<browser pid>.sock`` to the socket of its current host (the extension restarts a host
that dies, on a new socket: the link follows it, so a pinned client stays with its browser); the
dir itself is 0700. Each host also logs to ``host-<pid>.log`` there; the logs of the last
KEEP_LOGS hosts that ended (a crashed one's included: that is what the log is for) stay, older
ones go when a host starts.

Which host a client talks to is never a guess: an explicit socket, else ``$BROWSERX_SOCKET``,
else the one live host; with several, ``ambiguous_host`` lists them and how to pick one."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from browserx.environment import environment
from browserx.errors import AmbiguousHost, NoHost

# How long a probe of a host's socket may take: connecting (is it listening?) and, to describe
# the hosts of an ambiguous_host error, asking for its tab count.
PROBE_TIMEOUT_S = 0.5
TABS_TIMEOUT_S = 1.0
# Logs of ended hosts kept for a post-mortem (the newest first); a running host's is never removed.
KEEP_LOGS = 5


class HostRecord(BaseModel):
    """The discovery record one host writes next to its socket."""

    pid: int = Field(description="Process id of the host.")
    socket: str = Field(description="Absolute path of its control socket.")
    started_at: float = Field(description="Unix time the host started.")
    version: str = Field(description="browserx version of the host.")
    browser: str | None = Field(default=None, description="User agent reported by the extension.")
    profile: str | None = Field(default=None, description="Browser user-data-dir, when known.")
    log: str | None = Field(default=None, description="Path of the host's log file.")
    browser_pid: int | None = Field(
        default=None, description="Process id of the browser that started the host."
    )

    def same_browser(self, other: HostRecord) -> bool:
        """Whether ``other`` serves the same browser (a host the extension restarted): the same
        browser process, or the same profile when both are known."""
        if self.browser_pid is not None and other.browser_pid is not None:
            return self.browser_pid == other.browser_pid
        return self.profile is not None and self.profile == other.profile


def runtime_dir() -> Path:
    explicit = environment().runtime_dir
    if explicit is not None:
        return explicit
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
    for suffix in (".json", ".sock", ".tmp"):
        with contextlib.suppress(FileNotFoundError):
            (runtime_dir() / f"host-{pid}{suffix}").unlink()


def browser_link(browser_pid: int) -> Path:
    """The path that names one browser's current host socket, whichever host that is."""
    return runtime_dir() / f"browser-{browser_pid}.sock"


def link_browser(record: HostRecord) -> Path | None:
    """Point the browser's link at this host's socket (atomically: a client never finds it
    missing while a restarted host takes over)."""
    if record.browser_pid is None:
        return None
    link = browser_link(record.browser_pid)
    tmp = link.with_name(f"{link.name}.{record.pid}.tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    os.symlink(record.socket, tmp)
    os.replace(tmp, link)
    return link


def unlink_browser(record: HostRecord) -> None:
    """Remove the browser's link if it still points at this host's socket."""
    if record.browser_pid is None:
        return
    link = browser_link(record.browser_pid)
    with contextlib.suppress(OSError):
        if os.readlink(link) == record.socket:
            link.unlink()


def listening(path: str, timeout: float = PROBE_TIMEOUT_S) -> bool:
    """Whether something accepts connections on the Unix socket ``path`` (a socket file left by a
    killed host refuses them). A probe that times out counts as listening: a busy host."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(timeout)
    try:
        probe.connect(path)
    except TimeoutError:
        return True
    except OSError:
        return False
    finally:
        probe.close()
    return True


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


_HOST_FILE = re.compile(r"host-(\d+)\.(json|sock|tmp)$")


def live_hosts() -> list[HostRecord]:
    """Records of hosts whose process is alive and whose socket accepts connections, newest
    first. Stale files are cleaned up on the way: records, sockets and half-written records of
    dead hosts, records whose socket is gone or refuses connections (a killed host whose pid was
    reused), and browser links to sockets that are gone."""
    records: list[HostRecord] = []
    directory = runtime_dir()
    if not directory.is_dir():
        return records
    for path in directory.glob("host-*.json"):
        try:
            record = HostRecord.model_validate_json(path.read_bytes())
        except (OSError, ValueError):
            continue
        if not alive(record.pid):
            remove_record(record.pid)
        elif listening(record.socket):
            records.append(record)
        elif path.name == f"host-{record.pid}.json":
            remove_record(record.pid)  # unreachable: a killed host whose pid another process took
    _sweep(directory)
    records.sort(key=lambda r: r.started_at, reverse=True)
    return records


def _sweep(directory: Path) -> None:
    """Remove host files (socket, half-written record) of dead processes, then the links left
    dangling (to those sockets, or to any other that went)."""
    paths = list(directory.iterdir())
    for path in paths:
        match = _HOST_FILE.match(path.name)
        if match is not None and match.group(2) != "json" and not alive(int(match.group(1))):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
    for path in paths:
        if path.name.startswith("browser-") and path.is_symlink() and not path.exists():
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


_HOST_LOG = re.compile(r"host-(\d+)\.log$")


def prune_logs(keep: int = KEEP_LOGS) -> list[Path]:
    """Remove the logs of ended hosts but the ``keep`` newest (by when they were last written);
    return what was removed. Logs of hosts still running stay whatever their age."""
    directory = runtime_dir()
    ended: list[tuple[float, Path]] = []
    for path in directory.glob("host-*.log") if directory.is_dir() else ():
        match = _HOST_LOG.match(path.name)
        if match is None or alive(int(match.group(1))):
            continue
        with contextlib.suppress(OSError):
            ended.append((path.stat().st_mtime, path))
    ended.sort(reverse=True)
    removed: list[Path] = []
    for _, path in ended[keep:]:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            removed.append(path)
    return removed


def _no_host() -> NoHost:
    return NoHost(
        f"No running browserx host found in {runtime_dir()}. Start a browser with the browserx "
        "extension (or `browserx launch`), and check `make install-host` was run."
    )


def discover_socket(explicit: str | None = None) -> str:
    """The control socket to talk to: explicit path, $BROWSERX_SOCKET, else the one live host.
    Several live hosts and none named: ``ambiguous_host`` (never a silent pick)."""
    if explicit:
        return explicit
    env = environment().socket
    if env is not None:
        return env
    return only_host().socket


def only_host() -> HostRecord:
    """The one live host; NoHost without one, AmbiguousHost with several."""
    hosts = live_hosts()
    if not hosts:
        raise _no_host()
    if len(hosts) > 1:
        raise ambiguous(hosts)
    return hosts[0]


def record_of(socket_path: str) -> HostRecord | None:
    """The live host serving ``socket_path`` (a host socket or a browser link), if known."""
    resolved = os.path.realpath(socket_path)
    for record in live_hosts():
        if os.path.realpath(record.socket) == resolved:
            return record
    return None


def successor(pinned: HostRecord) -> HostRecord | None:
    """The live host now serving ``pinned``'s browser (itself, or the one the extension started
    after it died); None when that browser has no host: never another browser's."""
    for record in live_hosts():
        if record.socket == pinned.socket or pinned.same_browser(record):
            return record
    return None


def pin_hint(record: HostRecord) -> str:
    """The socket path to pin a client to ``record``'s browser: its browser link when it has one
    (it survives host restarts), else its socket."""
    if record.browser_pid is not None:
        link = browser_link(record.browser_pid)
        if os.path.realpath(link) == os.path.realpath(record.socket):
            return str(link)
    return record.socket


def browser_name(user_agent: str | None) -> str:
    """A short browser name and version from a user agent ("Chrome 156", "Edge 140")."""
    if not user_agent:
        return "browser not yet known"
    for token, name in (("Edg/", "Edge"), ("OPR/", "Opera"), ("HeadlessChrome/", "Headless Chrome"),
                        ("Chrome/", "Chrome"), ("Chromium/", "Chromium")):  # fmt: skip
        match = re.search(re.escape(token) + r"(\d+)", user_agent)
        if match:
            return f"{name} {match.group(1)}"
    return user_agent[:60]


def tab_count(socket_path: str, timeout: float = TABS_TIMEOUT_S) -> int | None:
    """How many tabs the host's browser has (its ``tabs`` method), or None when it does not
    answer within ``timeout``."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(timeout)
    try:
        conn.connect(socket_path)
        conn.sendall(b'{"id": 1, "method": "tabs", "params": {}}\n')
        with conn.makefile("rb") as answers:
            reply: Any = json.loads(answers.readline(1 << 22) or b"null")
        tabs = reply["result"]["tabs"] if isinstance(reply, dict) and reply.get("ok") else None
        return len(tabs) if isinstance(tabs, list) else None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    finally:
        conn.close()


def describe(record: HostRecord, tabs: int | None) -> dict[str, Any]:
    return {
        "pid": record.pid, "browser": browser_name(record.browser), "browser_pid": record.browser_pid,
        "profile": record.profile, "tabs": tabs, "socket": pin_hint(record),
    }  # fmt: skip


def ambiguous(hosts: list[HostRecord]) -> AmbiguousHost:
    """The error for several live hosts: each one (browser, profile, pid, tabs) and how to pick."""
    described = [describe(h, tab_count(h.socket)) for h in hosts]
    lines = []
    for d in described:
        tabs = "tabs unknown" if d["tabs"] is None else f"{d['tabs']} tab{'' if d['tabs'] == 1 else 's'}"
        lines.append(
            f"  - {d['browser']}, profile {d['profile'] or 'default (not given on its command line)'}, "
            f"host pid {d['pid']}, {tabs}: --socket {d['socket']}"
        )
    return AmbiguousHost(
        f"{len(hosts)} browserx hosts are running (one per browser) and no socket was named, so "
        "browserx will not guess which browser to act in:\n" + "\n".join(lines) + "\n"
        "Pick one: pass `--socket PATH` (the CLI, `browserx mcp`), `Client(socket_path=PATH)`, or "
        "`export BROWSERX_SOCKET=PATH` for every call.",
        hosts=described,
    )


def wait_for_new_host(since: float, timeout: float, profile: str | None = None) -> HostRecord | None:
    """Poll until a host started after ``since`` (for ``profile``, when given) shows up."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for record in live_hosts():
            if record.started_at >= since and (profile is None or record.profile in (None, profile)):
                return record
        time.sleep(0.1)
    return None
