"""``browserx agent``: the backend loop (docs/DESIGN.md). Observe the tab (the semantic view), ``POST
{backend}/api/agent/interact`` with the page and the last outcome, run the ``action`` it answers with (the
grammar of interfaces/grammar.py), report how it went in the next request; until ``finish()``
(exit 0) or ``fail()`` (exit 1). Errors and running out of steps exit 2.

- Answers: ``{"success": true, "data": {...}}`` or the bare ``{"thought", "action", ...}``
  (backend.parse_response). A ``taskId`` in any answer — a ``needs_context`` one included —
  is sent on every later request (the negotiation retry included) until another answer carries
  a new one; so is a ``sessionId``. The answer's ``plan`` (its steps, the current one, how many)
  and a new session go to the step log: interfaces/agent/plan.py.
- The request body: interfaces/agent/request.py (pure functions of the observation and the last
  outcome), checked against the contract (interfaces/agent/backend.py) before it is sent.
- ``needs_user_input`` (``status``, ``userQuestion``, no action): the question goes to the
  person in browserx's popup (the ``ask_user`` tool, up to ``--ask-timeout`` seconds); the next
  request (a fresh observation) carries their answer as ``userInput``; no answer ends the run
  (exit 2, ``no_answer``).
- Negotiation: an answer asking for more context is retried with what it asked for,
  at most ``MAX_NEGOTIATION_ROUNDS`` times a step; a view that lists no element is sent with the
  skeleton HTML (the page's HTML whole when the skeleton is empty) and a screenshot instead:
  interfaces/agent/negotiation.py.
- Running the answer's action, and finding a stale element again by its ``selectorPath``:
  interfaces/agent/act.py; its ``expectedOutcome`` as the action's ``expect``:
  interfaces/agent/expect.py.

This module is the loop and the command (``cli_main``).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from browserx.control.schemas import MAX_ASK_TIMEOUT_S
from browserx.errors import BrowserxError, clip
from browserx.interfaces.agent.act import Ending, act
from browserx.interfaces.agent.backend import AgentError, Backend, parse_header
from browserx.interfaces.agent.negotiation import (
    MAX_NEGOTIATION_ROUNDS,
    Log,
    empty_tree_fallback,
    gather_artifacts,
    needs_of,
)
from browserx.interfaces.agent.plan import PlanLog
from browserx.interfaces.agent.request import ActionOutcome, Observation, build_request

if TYPE_CHECKING:
    from browserx.control.client import Client

DEFAULT_MAX_STEPS = 25
DEFAULT_ASK_TIMEOUT_S = 300.0


def observe(client: Client, tab: int | None, include_values: bool = False) -> Observation:
    """The semantic view of ``tab`` (None: the tab the host picks), and which tab that is."""
    snap = client.snapshot(tab=tab, format="semantic", include_values=include_values)
    return Observation(int(snap["tab"]), dict(snap["semantic"]))


# -- the loop -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class AgentRun:
    code: int  # 0 finish(), 1 fail(), 2 error or out of steps
    message: str  # the final line
    steps: int
    task_id: str | None
    session_id: str | None = None  # the backend's last sessionId
    reason: str | None = None  # finish()'s or fail()'s reason, or what went wrong (exit 2)

    @property
    def outcome(self) -> str:
        """finished (finish()), failed (fail()) or error (an error, or out of steps: exit 2)."""
        return {0: "finished", 1: "failed"}.get(self.code, "error")

    def to_json(self) -> dict[str, Any]:
        """The final line as ``browserx agent --json`` prints it."""
        return {"outcome": self.outcome, "steps": self.steps, "reason": self.reason,
                "task_id": self.task_id, "session_id": self.session_id}  # fmt: skip


def run_agent(
    client: Client,
    backend: Backend,
    task: str,
    *,
    tab: int | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    include_values: bool = False,
    ask_timeout: float = DEFAULT_ASK_TIMEOUT_S,
    log: Log = lambda line: print(line, file=sys.stderr, flush=True),
) -> AgentRun:
    """Observe → interact (→ negotiate) → act, until finish()/fail() or ``max_steps``."""
    task_id: str | None = None
    session_id: str | None = None  # the backend's, echoed on every later request as the task id is
    plan_log = PlanLog()
    last: ActionOutcome | None = None
    shot_hash: str | None = None
    user_input: str | None = None  # the person's answer to the last needs_user_input, sent once
    step = 0
    try:
        for step in range(1, max_steps + 1):
            obs = observe(client, tab, include_values)
            if tab is None:
                log(f"tab {obs.tab}: {clip(obs.url, 120)}")
            tab = obs.tab  # pinned: later actions go to this tab whatever gets focus
            body = build_request(task, obs, task_id=task_id, session_id=session_id, last=last)
            shot_hash = empty_tree_fallback(client, tab, body, shot_hash, log, prefix=f"step {step}: ")
            if user_input is not None:
                body["userInput"], user_input = user_input, None
            data = backend.interact(body)
            task_id, session_id = data.taskId or task_id, data.sessionId or session_id
            rounds = 0
            while data.negotiating:
                rounds += 1
                if rounds > MAX_NEGOTIATION_ROUNDS:
                    raise AgentError(f"the backend asked for more context {rounds} times in a row")
                needs = needs_of(data)
                if not needs.names():
                    raise AgentError(
                        f"the backend answered {data.status or data.action!r} but asked for nothing"
                    )
                why = f" ({_line(data.reason, 160)})" if data.reason else ""
                log(f"step {step}: {data.status or data.action}{why}: sending {', '.join(needs.names())}")
                artifacts, shot_hash = gather_artifacts(client, tab, needs, shot_hash, log)
                echo = {"taskId": task_id, "sessionId": session_id}
                retry = {**body, **{k: v for k, v in echo.items() if v}, **artifacts}
                data = backend.interact(retry)
                task_id, session_id = data.taskId or task_id, data.sessionId or session_id
            for line in plan_log.update(data, session_id):
                log(f"step {step}: {line}")
            if data.thought:
                log(f"step {step}: thought: {_line(data.thought, 300)}")
            if data.needs_user_input:
                log(
                    f"step {step}: needs_user_input: asking the person in the browserx popup: {_line(data.question, 300)}"
                )
                user_input = str(client.ask_user(data.question, timeout_s=ask_timeout)["answer"])
                log(f"step {step}: the person answered ({len(user_input)} characters)")
                last = None  # reported in this step's request already
                continue
            log(f"step {step}: action: {_line(data.action or '', 300)}")
            outcome = act(client, tab, data, obs.url)
            if isinstance(outcome, Ending):
                verb = "finished" if outcome.success else "failed"
                said = _line(outcome.reason, 300) if outcome.reason else None
                steps = f"{step} step{'' if step == 1 else 's'}"
                message = f"{verb} after {steps}" + (f": {said}" if said else "")
                return AgentRun(0 if outcome.success else 1, message, step, task_id, session_id, said)
            log(f"step {step}: outcome: {_line(outcome.summary(), 400)}")
            outcome.tree_before = list(obs.page.get("interactive_tree") or [])
            last = outcome
    except AgentError as exc:
        return AgentRun(2, f"error at step {step}: {exc}", step, task_id, session_id, str(exc))
    except BrowserxError as exc:
        why = f"browserx {exc.code}: {clip(exc.message, 400)}"
        return AgentRun(2, f"error at step {step}: {why}", step, task_id, session_id, why)
    why = f"no finish() or fail() within {max_steps} steps (--max-steps)"
    return AgentRun(2, f"stopped: {why}", step, task_id, session_id, why)


def _line(text: str | None, limit: int) -> str:
    return clip(" ".join((text or "").split()), limit)


# -- the command ------------------------------------------------------------------------------


def cli_main(args: argparse.Namespace) -> int:
    """``browserx agent``: the step log on stderr, the final line on stdout (with ``--json`` as an
    object: ``outcome`` finished, failed or error, ``steps``, ``reason``, ``task_id``,
    ``session_id``); exit 0/1/2."""
    from browserx.control.client import Client

    if args.max_steps < 1 or args.timeout <= 0 or not 0 < args.ask_timeout <= MAX_ASK_TIMEOUT_S:
        print(
            "browserx agent: --max-steps must be at least 1, --timeout positive and --ask-timeout in "
            f"(0, {MAX_ASK_TIMEOUT_S:g}]",
            file=sys.stderr,
        )
        return 2
    try:
        headers = [parse_header(spec) for spec in args.header or []]
        backend = Backend(args.backend, headers, timeout=args.timeout)
    except AgentError as exc:
        print(f"browserx agent: {exc}", file=sys.stderr)
        return 2
    scrub = backend.secrets.scrub

    def log(line: str) -> None:
        print(scrub(line), file=sys.stderr, flush=True)

    with backend:
        if backend.plain_remote:
            log(
                "warning: plain http:// to another machine: the page state and the headers travel unencrypted"
            )
        log(f"backend: POST {backend.shown_url}")
        try:
            with Client(args.socket) as bx:
                run = run_agent(bx, backend, args.task, tab=args.tab, max_steps=args.max_steps,
                                include_values=args.include_values, ask_timeout=args.ask_timeout,
                                log=log)  # fmt: skip
        except BrowserxError as exc:  # no host to connect to
            why = f"browserx {exc.code}: {exc.message}"
            run = AgentRun(2, f"error: {why}", 0, None, reason=why)
    if getattr(args, "json", False):
        from browserx.interfaces.cli_tools import print_json

        print_json({k: scrub(v) if isinstance(v, str) else v for k, v in run.to_json().items()})
    else:
        print(scrub(run.message), flush=True)
    return run.code


__all__ = ["DEFAULT_ASK_TIMEOUT_S", "DEFAULT_MAX_STEPS", "AgentRun", "cli_main", "observe", "run_agent"]
