"""Recorded captures: a host started to record saves what it captured, and it loads back the same."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from browserx.page.capture_state import CaptureState
from browserx.page.recording import load_recording, recorded
from browserx.snapshot.frames import FrameCapture
from browserx.snapshot.stability import SettleOptions

RECORDINGS = Path(__file__).parent.parent / "snapshot" / "recordings"


def test_a_recording_capture_saves_each_capture_under_the_pages_path_and_returns_it(tmp_path: Path) -> None:
    frames = load_recording(RECORDINGS / "hello.json")
    calls: list[tuple[Any, bool, SettleOptions | None]] = []

    async def capture(
        state: CaptureState, include_values: bool = False, settle: SettleOptions | None = None
    ) -> list[FrameCapture]:
        calls.append((state, include_values, settle))
        return frames

    settle = SettleOptions(quiet_ms=300)
    capture_and_save = recorded(capture, tmp_path / "out")
    got = asyncio.run(capture_and_save("state", True, settle))  # type: ignore[arg-type]
    assert got is frames
    assert calls == [("state", True, settle)]
    (saved,) = (tmp_path / "out").glob("*.json")
    assert saved.name == "hello-html.json"
    assert load_recording(saved) == frames
