"""What every action returns: a structured, LLM-readable account of what happened — observed,
not guessed (DOM mutations counted by a MutationObserver, navigation seen in Page events)."""

from __future__ import annotations

import time
from typing import Any

from pydantic import BaseModel, Field, PrivateAttr

from browserx.errors import BrowserxError


class ActionErrorInfo(BaseModel):
    code: str = Field(description="Stable error code, e.g. 'occluded', 'stale_id'.")
    message: str = Field(description="What went wrong and what to do next, written for an LLM.")
    details: dict[str, Any] | None = Field(
        default=None, description="Structured extras (e.g. covering element)."
    )


class ScrollInfo(BaseModel):
    before: tuple[float, float] = Field(description="(x, y) scroll position before.")
    after: tuple[float, float] = Field(description="(x, y) scroll position after.")
    remaining: dict[str, float] = Field(
        description="Pixels left to scroll in each direction (up/down/left/right); down≈0 means the end."
    )
    target: str = Field(description="'page', or the scrolled container's description.")


class Changes(BaseModel):
    navigated: bool = Field(default=False, description="The top-level page navigated (new document or URL).")
    new_url: str | None = Field(default=None, description="URL after the action, when it changed.")
    dom_mutations: int | None = Field(
        default=None, description="DOM mutations observed during the action (None: page was replaced)."
    )
    scroll_changed: bool = Field(default=False, description="A scroll position changed.")
    value_changed: bool = Field(default=False, description="The target's value changed.")
    new_value: str | None = Field(
        default=None,
        description="The target's value after the action, only with include_values (masked; passwords: never).",
    )
    value_length: int | None = Field(
        default=None, description="Length of the value (reported for passwords)."
    )
    checked: bool | None = Field(default=None, description="Checked/selected state after check().")
    selected: str | None = Field(default=None, description="Label of the option selected by select().")
    scroll: ScrollInfo | None = Field(default=None, description="Scroll positions, for scroll().")
    focused: bool | None = Field(default=None, description="Whether the target has focus afterwards.")


class PageState(BaseModel):
    """The page as the verification last saw it."""

    url: str | None = Field(default=None, description="The URL (secrets masked).")
    url_changed: bool = Field(default=False, description="The URL changed during the action.")
    dom_changed: bool = Field(default=False, description="The DOM changed (or the page was replaced).")
    recent_mutations: list[str] = Field(
        default_factory=list,
        description="What the page showed or took away meanwhile, in words (messages, toasts, alerts).",
    )


class Verification(BaseModel):
    """Whether the outcome the caller expected (``expect``) came about (docs/DESIGN.md, "Verification")."""

    passed: bool = Field(description="The expected outcome held within the timeout.")
    expected: str = Field(description="The expectation, in words.")
    actual: str = Field(description="What was observed instead (or as well), in words.")
    errors_detected: list[str] = Field(
        default_factory=list, description="Error messages the page showed during the action (toasts, alerts)."
    )
    success_messages: list[str] = Field(
        default_factory=list, description="Success messages the page showed during the action."
    )
    feedback: str = Field(description="One line for the LLM: what held or not, and what to do next.")
    confidence: float = Field(
        default=1.0,
        ge=0,
        le=1,
        description="How far the verdict can be trusted, 0-1: lower when the page's messages contradict "
        "it or it rests on 'something changed' alone (docs/DESIGN.md, Verification).",
    )
    page_state: PageState | None = Field(default=None, description="The page as last seen.")


class RequestFact(BaseModel):
    method: str = Field(description="HTTP method.")
    url: str = Field(description="URL without credentials, fragment or secret-looking query values.")
    type: str = Field(description="XHR or Fetch.")
    status: int | None = Field(default=None, description="HTTP status, when a response came.")
    failed: bool = Field(default=False, description="The request failed (network error, blocked, cancelled).")
    error: str | None = Field(default=None, description="Why it failed (net::ERR_...).")
    pending: bool = Field(default=False, description="Still running when the action's result was made.")


class NetworkFacts(BaseModel):
    """Requests the page made while the action ran and settled: observed only then (no standing
    capture), without bodies or headers."""

    requests: int = Field(description="Requests started (all kinds: documents, scripts, images, XHR/fetch).")
    finished: int = Field(description="Of those, finished with a response.")
    failed: int = Field(description="Of those, failed.")
    xhr: list[RequestFact] = Field(default_factory=list, description="The XHR/fetch calls (at most 20).")


class HitElement(BaseModel):
    """What is at a viewport point (click_at/hover_at): the element a person's pointer would reach."""

    id: int | None = Field(
        default=None, description="Its ID (or its nearest ancestor's) in this tab's snapshots."
    )
    description: str = Field(description="Tag, id and classes (button#save.primary), and its text.")
    frame: str = Field(default="m", description="The frame it is in: m = the page itself, f1... = iframes.")


class DragOutcome(BaseModel):
    """What a drag did to the element it dragged (drag), read from the page before and after."""

    to: str = Field(description="What it was dropped on: an element's ID and name, or what is at the point.")
    html5: bool = Field(
        description="The page began an HTML5 drag (a draggable element) and got its drop; False: the "
        "pointer moves alone did it (pointer-based libraries)."
    )
    moved: bool = Field(
        description="The dragged element changed place: its container, its rank or its position."
    )
    index: tuple[int, int] | None = Field(
        default=None, description="Its rank among its container's elements, before and after (from 0)."
    )
    container_changed: bool = Field(default=False, description="It is in another container now.")
    container: str | None = Field(default=None, description="Its container after the drop, when it changed.")
    shift: tuple[float, float] = Field(
        default=(0.0, 0.0), description="How far its centre moved on screen (x, y, CSS pixels)."
    )
    gone: bool = Field(
        default=False, description="It left the page (the drop removed it, or the page drew it anew)."
    )


class UploadedFile(BaseModel):
    name: str = Field(description="The file's name (no folder).")
    size: int = Field(description="Its size in bytes.")


class ActionResult(BaseModel):
    success: bool = Field(description="Whether the action was carried out.")
    error: ActionErrorInfo | None = Field(default=None, description="Why it failed, when it did.")
    action: str = Field(description="click, type, key, scroll, select, check, hover, navigate, ...")
    id: int | None = Field(default=None, description="Element ID acted on (the healed one if recovered).")
    duration_ms: float = Field(default=0.0, description="Wall time of the action, settle time included.")
    round_trips: int = Field(
        default=0,
        description="Round trips to the page the action took, observation included (CDP commands sent while "
        "none of the tab's was waiting for its answer).",
    )
    changes: Changes = Field(default_factory=Changes, description="What the action observably changed.")
    recovered_from: int | None = Field(
        default=None, description="Old element ID, when the element had been re-rendered and was found again."
    )
    point: tuple[float, float] | None = Field(default=None, description="Top-level viewport point used.")
    hit: HitElement | None = Field(
        default=None, description="The element at the point, for click_at/hover_at."
    )
    drag: DragOutcome | None = Field(default=None, description="What the drop changed, for drag.")
    files: list[UploadedFile] | None = Field(
        default=None, description="The files the page's input holds now, for upload (names and sizes only)."
    )
    network: NetworkFacts | None = Field(
        default=None,
        description="Requests made while the action ran and settled (did Submit send anything?).",
    )
    verification: Verification | None = Field(
        default=None, description="Whether the `expect`ed outcome held (only when `expect` was given)."
    )
    timestamp: float = Field(default_factory=time.time, description="Unix time the action finished.")
    _exc: BrowserxError | None = PrivateAttr(default=None)

    def raise_for_error(self) -> ActionResult:
        """Raise the original BrowserxError of a failed action (control API style)."""
        if self._exc is not None:
            raise self._exc
        return self
