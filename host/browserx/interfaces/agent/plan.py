"""The backend's plan in ``browserx agent``'s step log: an answer may carry ``plan`` (``{steps:
[{id, index, description, status}], currentStepIndex}``), ``currentStep`` / ``currentStepIndex``
(zero-based; ``currentStep`` may also be the step itself, ``{index, description}``),
``totalSteps``, ``status`` and ``sessionId``. An answer that names the current step without the
plan gets its description from the last plan shown. They only inform the person watching the run
(docs/DESIGN.md, "The backend loop"), so anything malformed in them is skipped, never an error:
the loop goes on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from browserx.errors import clip
from browserx.interfaces.agent.backend import InteractData

MAX_STEPS_LISTED = 20
MAX_DESCRIPTION = 160


@dataclass(frozen=True)
class PlanStep:
    description: str
    status: str  # pending | active | completed | failed, or what the backend says ("" if none)


@dataclass(frozen=True)
class PlanView:
    steps: tuple[PlanStep, ...]
    current: int | None  # zero-based
    total: int | None
    status: str | None
    description: str | None = None  # the current step's, when the answer gave it without a plan

    def current_line(self) -> str | None:
        """``plan step 3 of 4 (executing): Click search`` (None without a current step)."""
        if self.current is None:
            return None
        total = self.total if self.total is not None else len(self.steps) or None
        where = f"plan step {self.current + 1}" + (f" of {total}" if total else "")
        if self.status:
            where += f" ({self.status})"
        if 0 <= self.current < len(self.steps):
            where += f": {self.steps[self.current].description}"
        elif self.description:
            where += f": {self.description}"
        return where

    def listing(self) -> list[str]:
        """The plan, one line a step, the current one marked."""
        lines = [f"plan ({len(self.steps)} step{'' if len(self.steps) == 1 else 's'}):"]
        for n, step in enumerate(self.steps[:MAX_STEPS_LISTED]):
            mark = "→" if n == self.current else " "
            status = f"[{step.status}] " if step.status else ""
            lines.append(f"  {mark} {n + 1}. {status}{step.description}")
        if len(self.steps) > MAX_STEPS_LISTED:
            lines.append(f"    … {len(self.steps) - MAX_STEPS_LISTED} more")
        return lines


def plan_of(data: InteractData) -> PlanView | None:
    """What an answer says about the plan, or None when it says nothing."""
    raw = data.plan if isinstance(data.plan, Mapping) else {}
    listed = raw.get("steps")
    steps = tuple(_step(s) for s in listed if isinstance(s, Mapping)) if isinstance(listed, list) else ()
    current = _index(raw.get("currentStepIndex"))
    given = data.currentStep if isinstance(data.currentStep, Mapping) else None  # the step itself
    for alternative in (data.currentStepIndex, data.currentStep, given and given.get("index")):
        if current is None:
            current = _index(alternative)
    described = _step(given).description if given and (given.get("description") or given.get("id")) else None
    total = _index(data.totalSteps)
    if not steps and current is None and total is None:
        return None
    status = data.status.strip() if isinstance(data.status, str) and data.status.strip() else None
    return PlanView(steps, current, total, status, described)


def _step(raw: Mapping[str, Any]) -> PlanStep:
    text = " ".join(str(raw.get("description") or raw.get("id") or "").split())
    status = raw.get("status")
    return PlanStep(clip(text, MAX_DESCRIPTION) or "(no description)", str(status) if status else "")


def _index(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value >= 0:
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


@dataclass
class PlanLog:
    """What the step log has shown of the plan and the session, so that it says each once: the
    whole plan when its steps are new, the current step on every answer that names one (described
    from the last plan shown when the answer has none of its own), the session when it is new."""

    shown_steps: tuple[str, ...] = ()
    session: str | None = None

    def update(self, data: InteractData, session: str | None) -> list[str]:
        """The log lines this answer adds (without the ``step N:`` prefix); ``session``: the
        backend's session as of this answer (a negotiation answer may have given it)."""
        out: list[str] = []
        if session and session != self.session:
            out.append(f"session {clip(session, 80)}" + (" (new)" if self.session else ""))
            self.session = session
        plan = plan_of(data)
        if plan is not None:
            described = tuple(s.description for s in plan.steps)
            if described and described != self.shown_steps:
                out += plan.listing()
                self.shown_steps = described
            elif not described and plan.description is None and self._same_length(plan.total):
                # no plan of its own: the current step of the plan shown last
                plan = replace(plan, steps=tuple(PlanStep(d, "") for d in self.shown_steps))
            line = plan.current_line()
            if line:
                out.append(line)
        return out

    def _same_length(self, total: int | None) -> bool:
        """A plan was shown, and ``total`` (when given) is its length: still that plan."""
        return bool(self.shown_steps) and total in (None, len(self.shown_steps))


__all__ = ["PlanLog", "PlanStep", "PlanView", "plan_of"]
