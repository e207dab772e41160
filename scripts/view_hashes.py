"""Hash every view of recorded pages, to show a change to the host left them bit-identical.

Each recording (capture payloads saved by scripts/record_payloads.py) is built into a snapshot
and rendered as text, json and semantic, whole and with a few options (a small token budget, a
query, viewport only, boxes); one SHA-256 per page and view. Save the output before a change and
compare after it:

    .venv/bin/python scripts/view_hashes.py [RECORDINGS_DIR ...] > before.txt
    .venv/bin/python scripts/view_hashes.py [RECORDINGS_DIR ...] --check before.txt
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path

from browserx.page.recording import load_recording
from browserx.snapshot.ids import IdAllocator
from browserx.snapshot.pipeline import finish, prepare
from browserx.views.build import build_view
from browserx.views.events import EventSummary
from browserx.views.options import ViewOptions

TIMING = re.compile(r'"extractionTimeMs":\s*[0-9.]+,?')
ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "tests" / "snapshot" / "recordings"
VARIANTS: dict[str, dict[str, object]] = {
    "whole": {"max_tokens": 0},
    "default": {},
    "budget300": {"max_tokens": 300},
    "query": {"query": "search submit email"},
    "viewport": {"viewport_only": True, "boxes": True},
}


def hashes(path: Path) -> dict[str, str]:
    snap = finish(prepare(load_recording(path)), IdAllocator(), {}, tab_id=1, include_values=False)
    events = EventSummary((), False, False, 0.0)
    out: dict[str, str] = {}
    for fmt in ("text", "json", "semantic"):
        for name, options in VARIANTS.items():
            view = build_view(snap, ViewOptions(format=fmt, **options), events=events)  # type: ignore[arg-type]
            payload = view.payload if isinstance(view.payload, str) else repr(view.payload)
            payload = TIMING.sub("", payload)  # how long it took is not what it shows
            out[f"{fmt}/{name}"] = hashlib.sha256(payload.encode()).hexdigest()[:16]
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("dirs", nargs="*", type=Path, default=[DEFAULT])
    parser.add_argument("--check", type=Path, help="compare with a saved output; exit 1 on any difference")
    args = parser.parse_args(argv)
    lines = []
    for directory in args.dirs:
        for path in sorted(directory.glob("*.json")):
            for key, digest in hashes(path).items():
                lines.append(f"{path.stem} {key} {digest}")
    if args.check is None:
        print("\n".join(lines))
        return 0
    saved = set(args.check.read_text().splitlines())
    differ = [line for line in lines if line not in saved]
    print(f"{len(lines)} views, {len(lines) - len(differ)} identical, {len(differ)} differ")
    for line in differ:
        print("  differs:", line)
    return 1 if differ or len(saved) != len(lines) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
