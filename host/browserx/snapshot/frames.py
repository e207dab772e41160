"""Captured frames as plain data: what collector.js sends for a document (``RawFrame``), what
capture gathers around it for one frame (``FrameCapture``), the envelopes its reply comes in, and
how node keys are laid out. No I/O: capture (page/capture.py) fills these, the pipeline
(snapshot/merge.py, snapshot/pipeline.py) reads them, recordings (page/recording.py) store them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from browserx.errors import CdpError

# A node key is (document's key epoch << KEY_BITS) + the node's number in its document: keys per
# document before they would run into the next document's range.
KEY_BITS = 24
# Nodes (elements and text) the collector reads of one document, in document order; a page past it
# is cut there (RawFrame.cut). Ten times a big real page (a 20k-row grid): what lies further is an
# attack or a page no agent reads whole, and reading it whole took 40 s and 1.5 GB of the host's
# memory (a million elements).
MAX_PAGE_NODES = 200_000
CUT_NOTE = (  # what every view says of a snapshot with a cut document (SnapshotStats.cut_frames)
    f"page too large: browserx read its first {MAX_PAGE_NODES:,} nodes in document order and stopped; "
    "what follows them is in no view, query or action"
)


class RawFrame(msgspec.Struct, kw_only=True):
    """What collector.js returns for one document (or one closed shadow root). The collector
    sends the key, parent and tag columns compactly; ``normalized`` expands them (recorded
    payloads hold them expanded already)."""

    url: str
    title: str
    viewport: list[float]
    scroll: list[float]
    dpr: float
    docSize: list[float]
    noAi: bool
    key: list[int] = []
    parent: list[int] = []
    tag: list[str] = []
    box: list[float]  # x, y, w, h per node; text nodes have none unless textBoxes
    textBoxes: bool = True  # recorded payloads hold four zeros per text node too
    flags: list[int]
    text: dict[int, str]  # sparse: node index → text
    attrs: dict[int, dict[str, str]]
    state: dict[int, dict[str, Any]]
    suspects: int
    # Node indexes of custom elements that take focus and say no role (page/internals.py).
    internals: list[int] = []
    internalsSig: list[str] = []  # each one's attributes, as the collector saw them
    frameOwners: list[int]
    pruned: int
    optedOut: int = 0  # elements left out, with all they hold, because they said data-no-ai
    noAiBoxes: list[float] = []  # their boxes, x, y, w, h each, in this frame's viewport
    cut: bool = False  # the walk stopped at its node budget (collector.js MAX_NODES): more follows
    pageMs: float = 0.0  # the walk's time in the page (the rest of "collect" is transfer)
    # What covers the elements the collector hit-tested (flag F_HIT_TESTED), by whole key:
    # [the cover's key or 0, its tag#id.class]; the uncovered ones are not listed.
    hits: dict[int, tuple[int, str]] = {}
    hitTested: int = 0  # how many
    hitReused: int = 0  # of those, answered by the last walk's (nothing that could cover them moved)
    hitMs: float = 0.0  # of pageMs
    mutations: int = -1  # DOM changes the page watcher has counted in this document (-1: no watcher)
    # compact columns, as sent
    keyBase: int = 0  # keys count from it: the page keeps small numbers
    keyDeltas: list[int] = []  # step from the previous key; 0 = no key (text)
    parentDeltas: list[int] = []  # distance back to the parent (the root's points at -1)
    tagIds: list[int] = []
    tagNames: list[str] = []

    def normalized(self) -> RawFrame:
        """Expanded columns and whole keys everywhere a key is held (key column, frame owners,
        label targets)."""
        base = self.keyBase
        if self.tagNames:
            names = self.tagNames
            self.tag = [names[i] for i in self.tagIds]
            self.parent = [i - d for i, d in enumerate(self.parentDeltas)]
            keys: list[int] = []
            append = keys.append
            key = base
            for d in self.keyDeltas:
                if d:
                    key += d
                    append(key)
                else:
                    append(0)
            self.key = keys
            self.tagIds, self.tagNames, self.parentDeltas, self.keyDeltas = [], [], [], []
        elif base:
            self.key = [k + base if k else 0 for k in self.key]
        if base:
            self.frameOwners = [k + base for k in self.frameOwners]
            for state in self.state.values():
                control = state.get("control")
                if control:
                    state["control"] = control + base
            self.keyBase = 0
        return self


@dataclass
class FrameCapture:
    label: str  # short frame label used in NodeRef ("m" = main frame)
    session_id: str | None
    frame_id: str
    context_id: int
    raw: RawFrame
    closed_roots: list[tuple[int, RawFrame]] = field(default_factory=list)  # (host key, subtree)
    listeners: dict[int, frozenset[str]] = field(default_factory=dict)  # node key → event types
    parent_label: str | None = None
    owner_key: int | None = None  # key of the owning <iframe> in the parent frame
    timings: dict[str, float] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # extras that could not be captured
    settled: dict[str, Any] | None = None  # the page watcher's report, when asked for one
    # How its click listeners were listed (page/capture.py): the "whole" document through
    # DOMDebugger, or "dom-snapshot" (a listener-heavy document).
    listing: str = "whole"

    def drop_columns(self) -> None:
        """Free the per-node columns once the nodes are built (the nodes keep the attribute and
        state dicts): on a huge page they are tens of MB the rest of the build does not need."""
        for raw in (self.raw, *(r for _, r in self.closed_roots)):
            raw.key, raw.parent, raw.tag, raw.box, raw.flags = [], [], [], [], []
            raw.text, raw.attrs, raw.state = {}, {}, {}


class Collected(msgspec.Struct):
    """The collector's answer for a document: the frame, and the page watcher's report when the
    call let the page settle first."""

    frame: RawFrame
    settled: dict[str, Any] | None = None


def collector_output(value: Any, what: str) -> str:
    """The JSON text the collector returned (a page error is raised by page/page_call.py before
    this), or a CdpError saying there is none."""
    if not isinstance(value, str):
        raise CdpError(f"the snapshot collector returned no data ({what})")
    return value
