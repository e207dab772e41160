"""Python's cyclic garbage collector around big snapshots.

A 50k-element page makes a few hundred thousand objects at once, and nodes link parent ↔ children,
so they form reference cycles. Left to itself the collector rescans them again and again while
they are built and for as long as they live (about half of a big snapshot's host time). So:

- builds run with the collector paused (``paused_gc``), and what they leave alive is frozen
  (``gc.freeze``) before the collector resumes: otherwise the first allocation after it resumes
  scans every object the build made (they are all still "young"), ~10 % of a snapshot's time;
- once a snapshot is in place, everything alive is frozen too: never rescanned;
- a snapshot that is replaced is torn down by breaking its cycles (``DomSnapshot.release``),
  so reference counting frees it at once, frozen or not;
- every ``FULL_COLLECT_EVERY`` snapshots, shortly after the reply is sent, the freeze is lifted
  and a full collection picks up whatever other cyclic garbage was frozen meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
from collections.abc import Callable, Iterator

FULL_COLLECT_EVERY = 32  # snapshots
COLLECT_DELAY = 0.05  # seconds after a snapshot was placed: its reply is on its way by then

_depth = 0
_placed = 0
_pending: asyncio.TimerHandle | None = None


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Run a CPU-bound build without cyclic collections (nesting allowed); freeze what it leaves
    alive (cyclic garbage among it waits for the next full collection)."""
    global _depth
    was_enabled = gc.isenabled() if _depth == 0 else False
    _depth += 1
    gc.disable()
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0 and was_enabled:
            gc.freeze()
            gc.enable()


def snapshot_placed() -> None:
    """A new snapshot is in place (and the old one released): freeze what is alive now, and now
    and then schedule a full collection off the request's critical path."""
    global _placed, _pending
    gc.freeze()
    _placed += 1
    if _placed % FULL_COLLECT_EVERY or _pending is not None:
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        full_collect()
        return
    _pending = loop.call_later(COLLECT_DELAY, full_collect)


def full_collect() -> None:
    global _pending
    _pending = None
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def _libc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL("libc.so.6").malloc_trim  # glibc's name on Linux
    except (OSError, AttributeError):  # not glibc
        return None
    return trim


_trim = _libc_trim()


def return_freed_memory() -> None:
    """Hand memory freed by a torn-down snapshot back to the OS (glibc keeps it otherwise)."""
    if _trim is not None:
        _trim(0)
