"""Recorded captures: what capture gathered for a page, saved as JSON and loaded back, so unit
tests and scripts/view_hashes.py build snapshots from real payloads without a browser.

Not on the production path: scripts/record_payloads.py starts a host with BROWSERX_RECORD_DIR
set, and only then does the host (host.py, once at start) wrap capture with ``recorded``.
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

from browserx.page.capture import CaptureTab
from browserx.page.capture_state import CaptureState
from browserx.snapshot.frames import FrameCapture
from browserx.snapshot.stability import SettleOptions


def save_recording(directory: Path, frames: list[FrameCapture]) -> Path:
    """Save what was captured, named after the page's path."""
    directory.mkdir(parents=True, exist_ok=True)
    slug = re.sub(r"[^A-Za-z0-9]+", "-", frames[0].raw.url.split("://", 1)[-1].split("/", 1)[-1]).strip("-")
    path = directory / f"{slug or 'page'}.json"
    path.write_bytes(msgspec.json.encode(frames))
    return path


def load_recording(path: Path) -> list[FrameCapture]:
    return msgspec.json.decode(path.read_bytes(), type=list[FrameCapture])


def recorded(capture: CaptureTab, directory: Path) -> CaptureTab:
    """``capture`` (page/capture.py's capture_tab), saving every capture into ``directory``."""

    async def capture_and_save(
        state: CaptureState, include_values: bool = False, settle: SettleOptions | None = None
    ) -> list[FrameCapture]:
        frames = await capture(state, include_values, settle)
        save_recording(directory, frames)
        return frames

    return capture_and_save
