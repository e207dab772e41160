"""Element ID → a live element handle (CDP objectId) in browserx's isolated world of its frame.

Order: the ID must have been issued (else UnknownElement); its frame session and document must
still be the ones it was issued in; the world's key map must still hold a connected element of
the same tag. Otherwise the element is gone: take a fresh snapshot and heal only to the one
element that is provably the same control (actions/matching.py: same document, tag, role and name,
same chain of dialog/form/landmark/row ancestors, same heading and text before it, same rank among
equals, and the only such candidate); the result says ``recovered_from``. Anything else raises
StaleElement (``stale_id``), whose message and ``details.candidates`` list the elements with that
role and name now on the page, with their new IDs and context, so the agent chooses — never
browserx.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from browserx import page_js
from browserx.actions.matching import best_match, line, lookalikes
from browserx.errors import (
    PAGE_CALL_ERRORS,
    BrowserxError,
    CdpError,
    DuplicateId,
    PageOptedOut,
    StaleElement,
    UnknownElement,
)
from browserx.page.page_call import answer, call_request, missing, page_call
from browserx.page.worlds import isolated_world
from browserx.page_js import Snippet
from browserx.relay.cdp_types import CallFunctionOnResult
from browserx.relay.protocol import Gate
from browserx.snapshot.classify import is_interactive
from browserx.snapshot.context import describe
from browserx.snapshot.model import NodeRef
from browserx.tabs.memory import Fingerprint
from browserx.tabs.snapshots import take_snapshot
from browserx.tabs.tab import Tab

RESOLVE_JS = page_js.load("browserx.actions", "resolve.js")
OBJECT_GROUP = "browserx-act"


@dataclass(slots=True)
class Target:
    """A resolved element: where it lives and a handle to it."""

    element_id: int
    ref: NodeRef
    session_id: str | None  # CDP session of its frame (None = the tab's main target)
    context_id: int  # browserx isolated world in that session
    object_id: str
    fingerprint: Fingerprint | None
    recovered_from: int | None = None
    # What ``resolve(..., early=...)`` ran on the element in the lookup's own round trip (None
    # when it did not: healed, or not asked).
    early: Any = None
    # The answers of ``resolve(..., then=...)``'s steps, in order: a page function's value, a
    # command's result, or the error (CdpError "skipped" when the early function did not say go);
    # empty when they were not sent (healed, not asked, or an extension that cannot hold them).
    then: list[Any] = field(default_factory=list)

    @property
    def world(self) -> tuple[str | None, int]:
        """The world its handle lives in: browserx's, of its frame's document."""
        return (self.session_id, self.context_id)

    def sentence(self) -> str:
        """describe(), capitalised to start a sentence."""
        return _cap(self.describe())

    def describe(self) -> str:
        return describe_id(self.element_id, self.fingerprint)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def describe_id(element_id: int, fp: Fingerprint | None) -> str:
    """ "element 12 (button 'Save')": an ID with what it named."""
    if fp is None:
        return f"element {element_id}"
    what = fp.role or fp.tag
    return f"element {element_id} ({what} {fp.name!r})" if fp.name else f"element {element_id} ({what})"


def _description_tag(description: str) -> str:
    # RemoteObject.description of an element starts with its tag: "button#save.primary".
    return description.split("#", 1)[0].split(".", 1)[0].lower()


async def call_on(tab: Tab, target: Target, js: Snippet, *args: Any) -> Any:
    """Run a function on the resolved element (``this``) with JSON arguments; its value back (a
    promise's, once it settles). A page error is a PageScriptError: each caller says what it means.
    The element lives in browserx's world, which keeps the page library."""
    return await page_call(
        tab.session, js, *args, this=target.object_id, session_id=target.session_id, await_promise=True
    )


# A function of the page run beside the lookup: its declaration (``function(key, ...args)``: it finds
# the element by its key itself, with ``by_key``), and its JSON arguments.
Early = tuple[Snippet, tuple[Any, ...]]
# A step sent in the lookup's burst behind the early function and issued only once that answered
# ``{go: true}`` (the extension holds it: relay/protocol.py's Gate), one trip to the host fewer: a
# ``by_key`` page function with its arguments, or a CDP command (method, params) as it is.
Then = Early | tuple[str, dict[str, Any]]
GO = ("result", "value", "go")  # where the early function's answer says go


def by_key(js: Snippet) -> Snippet:
    """``js`` (a function called on the element) as a function of the element's key, run in its
    world beside the lookup: the same element resolve.js finds, or nothing (null) when that is gone
    or opted out, so it never touches another."""
    return js.keyed()


async def _lookup(
    tab: Tab,
    element_id: int,
    ref: NodeRef,
    fp: Fingerprint | None,
    early: Early | None = None,
    then: Sequence[Then] = (),
) -> Target | None:
    """The live element an ID names, or None when it is gone (never a different element)."""
    session_id = tab.session.session_of(ref.frame)
    if ref.frame != "m" and (session_id is None or session_id not in tab.session.sessions):
        return None  # that frame's session is gone (frame removed or navigated cross-site)
    try:
        world = await isolated_world(tab.capture, session_id)
    except PAGE_CALL_ERRORS:
        return None  # the frame went away
    if fp is not None and fp.context_id is not None and world[1] != fp.context_id:
        return None  # another document: the node the ID named is not on the page any more
    try:
        return await _lookup_in(tab, element_id, ref, fp, (session_id, world[1]), early, then, whole=False)
    except _StubMissed:  # the world lacks the page library: the lookup installs it, then all runs
        return await _lookup_in(tab, element_id, ref, fp, (session_id, world[1]), early, then, whole=True)


class _StubMissed(Exception):
    """The lookup's burst found the world without the page library; nothing ran."""


async def _lookup_in(
    tab: Tab,
    element_id: int,
    ref: NodeRef,
    fp: Fingerprint | None,
    where: tuple[str | None, int],
    early: Early | None,
    then: Sequence[Then],
    whole: bool,
) -> Target | None:
    session_id, ctx = where
    steps = list(then) if early is not None else []  # sent behind the early one

    def request(js: Snippet, *args: Any, **how: Any) -> tuple[str, dict[str, Any]]:
        return call_request(js, *args, world=ctx, **how)

    # ``whole``: the lookup installs the library, and the renderer runs the calls behind it after it.
    # Without, a world that turns out to lack the library fails the whole burst before anything in
    # it acts (an early function may act: select's sets the value), and it is sent again whole.
    lookup = request(RESOLVE_JS, ref.key, by_value=False, group=OBJECT_GROUP, whole=whole)
    early_value: Any = None
    then_values: list[Any] = []
    went = False  # steps behind the early function were let go: the element has been acted on
    try:
        answers: list[Any]
        if early is None:
            answers = [await tab.session.cdp(*lookup, session_id=session_id, result_type=dict)]
        else:  # one round trip for both (and the steps behind them): the renderer runs them in order
            js, args = early
            requests = [lookup, request(js, ref.key, *args, await_promise=True)]
            requests += [
                request(step[0], ref.key, *step[1], await_promise=True) if isinstance(step[0], Snippet) else step
                for step in steps
            ]  # fmt: skip
            answers = await tab.session.cdp_batch(
                requests, session_id, gates={i: Gate(1, GO) for i in range(2, len(requests))}
            )
        page_answers = [reply for reply, step in zip(answers, [None, None, *steps], strict=False)
                        if step is None or isinstance(step[0], Snippet)]  # fmt: skip
        if not whole and any(missing(reply) for reply in page_answers):
            early_ran = early is not None and not missing(answers[1])
            if early_ran or any(not isinstance(reply, BaseException) for reply in answers[2:]):
                raise _acted_unconfirmed(element_id)  # something of it ran: never twice
            raise _StubMissed
        if early is not None:
            early_value = _page_value(early[0], answers[1])
            then_values = [_step_value(step, a) for step, a in zip(steps, answers[2:], strict=True)]
            went = bool(steps) and isinstance(early_value, dict) and early_value.get("go") is True
        reply = _call_result(answers[0])
    except CdpError as exc:
        if went:
            raise _acted_unconfirmed(element_id) from exc
        return None  # "Cannot find context": the document went away (or an answer Chrome never sends)
    # resolve.js threw: a PageScriptError, not "the element is gone".
    obj = answer(RESOLVE_JS, reply)
    if obj.value == "no-ai":
        raise PageOptedOut(
            "This element (or the part of the page or frame it is in) opted out of AI agents "
            "(data-no-ai); browserx will not act on it. Ask the user to do this step themselves.",
            id=element_id,
        )
    object_id = obj.objectId
    if not object_id or obj.subtype != "node":
        return None
    if fp is not None and _description_tag(obj.description or "") != fp.tag:
        if went:
            raise _acted_unconfirmed(element_id)
        return None
    return Target(element_id, ref, session_id, ctx, object_id, fp, early=early_value, then=then_values)


def _acted_unconfirmed(element_id: int) -> StaleElement:
    """The steps behind the early function went (the element it found by the ID's key took them),
    but the lookup beside it could not confirm the element: never heal onto another one and act
    twice (both find the element by the same key in the same world, so this is not expected)."""
    return StaleElement(
        f"Element {element_id} was acted on, but browserx could not confirm it was the element the "
        "ID named (the page changed as it acted). Take a new snapshot and check the page.",
        id=element_id,
    )


def _call_result(reply: dict[str, Any] | BaseException) -> CallFunctionOnResult:
    """A batch's Runtime.callFunctionOn answer as its result (its error raised)."""
    if isinstance(reply, BaseException):
        raise reply
    try:
        return msgspec.convert(reply, CallFunctionOnResult)
    except msgspec.ValidationError as exc:
        raise CdpError(f"CDP error (Runtime.callFunctionOn): unexpected result shape: {exc}") from None


def _page_value(js: Snippet, reply: dict[str, Any] | BaseException) -> Any:
    """A page function's value from its batch answer: None when its command failed (not run), its
    own throw raised as PageScriptError."""
    if isinstance(reply, BaseException):
        return None
    return answer(js, _call_result(reply)).value


def _step_value(step: Then, reply: dict[str, Any] | BaseException) -> Any:
    """A ``then`` step's answer: a page function's value, a command's result, or the error (a
    page function's throw as PageScriptError): the caller decides what each means."""
    if isinstance(reply, BaseException) or not isinstance(step[0], Snippet):
        return reply
    try:
        return _page_value(step[0], reply)
    except BrowserxError as exc:
        return exc


async def resolve(
    tab: Tab, element_id: int, heal: bool = True, *, early: Early | None = None, then: Sequence[Then] = ()
) -> Target:
    """The live element ``element_id`` names (healed onto the same control when re-created), or
    StaleElement / UnknownElement / PageOptedOut. ``early``: a ``by_key`` function run beside the
    lookup, its value in ``Target.early``; ``then``: steps issued behind it once it said go, their
    answers in ``Target.then`` (none when healed)."""
    ref = tab.ids.ref_of.get(element_id)
    if ref is None and tab.ids.from_before(element_id):
        raise StaleElement(
            f"ID {element_id} is from before the browserx host restarted; it names nothing now. Take a "
            "new snapshot and use its IDs.",
            id=element_id,
        )
    if ref is None and tab.ids.issued(element_id):
        raise StaleElement(
            f"ID {element_id} is from a page this tab has since left. Take a new snapshot and use its IDs.",
            id=element_id,
        )
    if ref is None:
        raise UnknownElement(
            f"No element with ID {element_id} was ever shown for this tab. Take a snapshot and use one of "
            "its IDs.",
            id=element_id,
        )
    shown = tab.snapshot.by_id.get(element_id) if tab.snapshot is not None else None
    if shown is not None and shown.ref != ref:
        # The newest view showed another node under this ID: never act on either.
        raise DuplicateId(f"ID {element_id} names {ref} but the newest view showed {shown.ref} under it")
    fp = tab.recall(element_id)
    found = await _lookup(tab, element_id, ref, fp, early, then)
    if found is not None:
        if found.session_id is None:  # resolve.js found it only after checking its document's opt-out
            tab.session.page_readable = True
        return found
    others: list[Fingerprint] = []
    if heal and fp is not None:
        healed, others = await _heal(tab, element_id, fp)
        if healed is not None:
            return healed
    raise _stale(element_id, fp, others)


def _stale(element_id: int, fp: Fingerprint | None, others: list[Fingerprint]) -> StaleElement:
    """stale_id naming what the agent may have meant, each with its new ID and where it is."""
    was = _cap(describe_id(element_id, fp)) + (describe(fp.context) if fp is not None else "")
    if not others:
        return StaleElement(
            f"{was} is no longer on the page (it changed since the snapshot), and no element that is "
            "provably the same control replaced it. Take a new snapshot and use its IDs.",
            id=element_id,
        )
    listed = "\n".join(f"  {line(c)}" for c in others)
    return StaleElement(
        f"{was} is no longer on the page (it changed since the snapshot). Elements with the same role "
        f"and name are now elsewhere, and browserx will not guess which one you meant:\n{listed}\n"
        "Check where each is (take a new snapshot if unsure) and act on the one you mean by its ID.",
        id=element_id,
        candidates=[{"id": c.element_id, "role": c.role, "name": c.name, "context": line(c)} for c in others],
    )


async def _heal(tab: Tab, element_id: int, old: Fingerprint) -> tuple[Target | None, list[Fingerprint]]:
    """The target healed to (or None) and the lookalikes of ``old`` on the page now."""
    snap = await take_snapshot(tab)
    # The allocator may already have given the old ID back to the re-created node.
    candidates: list[Fingerprint] = []
    for new_id, node in snap.by_id.items():
        if not is_interactive(node):
            continue
        fp = tab.recall(new_id)
        if fp is not None:
            candidates.append(fp)
    match = best_match(old, candidates)
    others = lookalikes(old, candidates)
    if match is None:
        return None, others
    new_ref = tab.ids.ref_of.get(match.element_id)
    if new_ref is None:
        return None, others
    target = await _lookup(tab, match.element_id, new_ref, match)
    if target is not None:
        target.recovered_from = element_id
    return target, others
