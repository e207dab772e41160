"""How the bench reports print numbers and facts, and how they are written (docs/BENCHMARKS.md by
report.py, docs/CORPUS.md by corpus_report.py)."""

from __future__ import annotations

import platform
from pathlib import Path
from typing import Any


def fmt_ms(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f}"


def fmt_ratio(num: float | None, den: float | None, digits: int = 1) -> str:
    if num is None or den is None or den == 0:
        return "—"
    return f"{num / den:.{digits}f}×"


def load(avg: tuple[float, float, float]) -> str:
    return "/".join(f"{x:.1f}" for x in avg)


def cell(text: str) -> str:
    """Text for a table cell or a list item on one line."""
    return text.replace("|", "\\|").replace("\n", " ")


def machine_line(m: dict[str, Any]) -> str:
    """The setup section's machine item, from ``harness.machine_info``."""
    return (
        f"- Machine: {m['nproc']} CPUs ({m['cpu']}), {m['ram']} RAM, Linux {m['kernel']}, "
        f"Python {platform.python_version()}."
    )


def write_markdown(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    print(f"report written to {path}", flush=True)
