"""Clients that ask for a lot and never read: the host drops them after a bound, serves everyone
else meanwhile, and gives the memory back (real host, real browser, raw control sockets)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from pathlib import Path

from browserx import Client
from browserx.control.server import WRITE_STALL_S
from tests.e2e.harness import Servers, browser_with_extension
from tests.e2e.helpers import open_page

STALLERS = 4
REQUESTS_PER_STALLER = 4  # pipelined, none of their answers ever read
ROWS = int(os.environ.get("BROWSERX_SLOW_ROWS", "8000"))  # fault-huge.html: ~1 kB of page per row


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _stall(path: str, tab: int) -> socket.socket:
    """A connection that asks for the big page's whole json view, several times, and never reads."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(path)
    for i in range(REQUESTS_PER_STALLER):
        params = {"tab": tab, "format": "json", "max_tokens": 0, "wait_stable": False}
        sock.sendall(json.dumps({"id": i, "method": "snapshot", "params": params}).encode() + b"\n")
    return sock


def _dropped(sock: socket.socket) -> bool:
    """Whether the host closed this connection, found without reading from it: an empty line
    (which the host skips) cannot be written to a closed connection."""
    try:
        sock.send(b"\n", socket.MSG_DONTWAIT)
    except BlockingIOError:
        return False
    except OSError:  # EPIPE, ECONNRESET
        return True
    return False


def test_clients_that_never_read_are_dropped_others_stay_served_and_memory_comes_back(
    servers: Servers,
) -> None:
    with browser_with_extension() as b, Client() as bx:
        driver = b.driver
        big = open_page(b, bx, servers.url("fault-huge.html") + f"?rows={ROWS}")
        driver.switch_to.new_window("tab")
        small = open_page(b, bx, servers.url("hello.html"))
        assert "Hello fixture" in bx.snapshot(tab=small)["text"]
        pid = b.host.pid
        rss_start = _rss_mb(pid)

        started = time.monotonic()
        stallers = [_stall(bx.socket_path, big) for _ in range(STALLERS)]
        try:
            latencies: list[float] = []
            rss_peak = rss_start
            # While the stallers' big snapshots are built and their answers pile up, another
            # client's small snapshots answer promptly, again and again.
            while time.monotonic() - started < WRITE_STALL_S + 5:
                t0 = time.monotonic()
                assert "Hello fixture" in bx.snapshot(tab=small)["text"]
                latencies.append(time.monotonic() - t0)
                rss_peak = max(rss_peak, _rss_mb(pid))
                time.sleep(0.5)
            # Every staller is dropped within the bound (plus the builds ahead of it).
            deadline = time.monotonic() + 60
            while not all(_dropped(s) for s in stallers) and time.monotonic() < deadline:
                rss_peak = max(rss_peak, _rss_mb(pid))
                time.sleep(0.5)
            dropped_after = time.monotonic() - started
            alive = sum(not _dropped(s) for s in stallers)
            print(
                f"rss start {rss_start:.0f} MB, peak {rss_peak:.0f} MB, now {_rss_mb(pid):.0f} MB; "
                f"latencies {[round(x, 2) for x in latencies]}; {alive} stallers still connected "
                f"after {dropped_after:.1f} s"
            )
            assert not alive, "a client that never reads was not dropped"
        finally:
            for s in stallers:
                with contextlib.suppress(OSError):
                    s.close()
        # Memory comes back (the host trims once the last big answer is gone).
        deadline = time.monotonic() + 10
        while (rss_end := _rss_mb(pid)) - rss_start >= 100 and time.monotonic() < deadline:
            time.sleep(0.5)
        report = (
            f"rows={ROWS} rss start {rss_start:.0f} MB, peak {rss_peak:.0f} MB, end {rss_end:.0f} MB; "
            f"small snapshot latencies max {max(latencies):.2f} s over {len(latencies)}; "
            f"stallers dropped after {dropped_after:.1f} s"
        )
        print(report)
        assert max(latencies) < 5, report
        assert rss_end - rss_start < 100, report
        # Each drop is logged, with what it threw away.
        drops = [
            json.loads(line)
            for log in b.runtime_dir.glob("host-*.log")
            for line in log.read_text().splitlines()
            if '"client_dropped"' in line
        ]
        assert len(drops) == STALLERS and all(d["reason"] == "not reading" for d in drops), drops
        print("drops:", [(d["unsent"], d["inflight"]) for d in drops])
        # The host still serves, the big page included.
        assert bx.status()["extension_connected"]
        assert "Top button" in bx.snapshot(tab=big, max_tokens=500)["text"]
