"""run.py's records: what one tool gave on one page (``Result``, from the adapters' ``Sample``s)
and what was measured on one page (``PageReport``). Data only: measure.py fills them, scoring.py
and report.py read them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adapters import Sample
from adapters.browser_use import BROWSER_USE_THRESHOLD_PX
from harness import VIEWPORT, Timings, median_or_none

from browserx.views.tokens import count_tokens


@dataclass
class Result(Timings):
    """One tool on one page: every measured run, the last output's size and any error."""

    tool: str
    runs_ms: list[float] = field(default_factory=list)
    tokens: int | None = None
    interactive: int | None = None
    extra: dict[str, list[float]] = field(default_factory=dict)
    warmup_ms: float | None = None
    error: str | None = None  # why the tool was given up on for this page
    failures: list[str] = field(default_factory=list)  # failed runs (not in runs_ms)
    text: str = field(default="", repr=False)  # the last output
    names: list[str] = field(default_factory=list, repr=False)  # its interactive elements' names
    controls: list[str] = field(default_factory=list, repr=False)  # the ones compared with browserx
    others: list[str] = field(default_factory=list, repr=False)

    def add(self, sample: Sample) -> None:
        self.runs_ms.append(sample.ms)
        self.text = sample.text
        self.names = sample.names
        self.controls = sample.names if sample.controls is None else sample.controls
        self.others = sample.others
        self.interactive = len(sample.names)
        for key, value in sample.extra.items():
            self.extra.setdefault(key, []).append(value)

    def finish(self) -> None:
        """Count the tokens of the last output (once: at 50k that takes a while)."""
        self.tokens = count_tokens(self.text) if self.runs_ms else None

    def extra_median(self, key: str) -> float | None:
        return median_or_none(self.extra.get(key, ()))


@dataclass
class PageReport:
    name: str
    url: str
    size: int | None  # requested element count for generated pages
    elements: int | None = None  # what browserx counted (elements, incl. shadow roots and frames)
    doc_height: int | None = None
    results: dict[str, Result] = field(default_factory=dict)
    rss_max_mb: float | None = None
    notes: list[str] = field(default_factory=list)
    views: dict[str, Any] = field(default_factory=dict)  # browserx's other views (view_checks)

    @property
    def fits_browser_use_window(self) -> bool:
        return self.doc_height is not None and self.doc_height <= VIEWPORT[1] + BROWSER_USE_THRESHOLD_PX
