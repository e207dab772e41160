"""Putting local files into a page (the ``upload`` tool), as a person's choice in a file dialog
would: the input's files set by the browser (``DOM.setFileInputFiles``), which fires the page's
``input`` and ``change`` events itself.

A file input is set at once. Anything else (a styled label over a hidden input, a button whose
script opens a chooser from an input that is not even in the page) is clicked for real with the
file chooser intercepted (``Page.setInterceptFileChooserDialog``): no dialog of the operating
system opens, and the chooser's own input is answered. The paths were checked, and allowed by
the person, before the tab was touched (control/person/uploads.py).

Chrome lets an extension's debugger set files only when the person allowed the extension access
to file URLs (chrome://extensions → Details; an unpacked extension has it): otherwise it answers
"Not allowed", which becomes ``files_not_allowed`` with that fix.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

from browserx import page_js
from browserx.actions.pointer import click_target
from browserx.actions.resolve import OBJECT_GROUP, Target, call_on, resolve
from browserx.actions.result import ActionResult, UploadedFile
from browserx.actions.runner import ActionContext, perform
from browserx.errors import BadRequest, BrowserxError, CdpError, FilesNotAllowed, NotInteractable
from browserx.expectations import Expect
from browserx.page.page_call import page_call
from browserx.relay.awaited import first_event
from browserx.relay.cdp_types import FileChooserOpened, ResolveNodeResult
from browserx.relay.protocol import decode_raw
from browserx.tabs.tab import Tab

PROBE_JS = page_js.load("browserx.actions", "upload_probe.js")
FILES_JS = page_js.load("browserx.actions", "upload_files.js")
CHOOSER_OPENED = "Page.fileChooserOpened"
CHOOSER_WAIT_S = 2.0  # for the chooser a click opens (a page's script may open it a moment later)


async def upload(
    tab: Tab, element_id: int, paths: Sequence[str], *, expect: Expect | None = None
) -> ActionResult:
    async def body(ctx: ActionContext) -> None:
        target = await resolve(tab, element_id)
        await ctx.adopt(target)
        kind = await call_on(tab, target, PROBE_JS)
        if isinstance(kind, dict) and kind.get("file"):
            if kind.get("disabled"):
                raise NotInteractable(
                    f"{target.sentence()} is disabled: it takes no files now.", id=element_id
                )
            if len(paths) > 1 and not kind.get("multiple"):
                raise _one_only(target, len(paths))
            await _set_files(tab, target.session_id, list(paths), objectId=target.object_id)
            held = await call_on(tab, target, FILES_JS)
        elif isinstance(kind, dict) and kind.get("submits"):
            raise NotInteractable(
                f"{target.sentence()} submits its form: clicking it would send the form, not open a file "
                "dialog. Give the ID of the file input, or of the button that opens the file dialog.",
                id=element_id,
            )
        else:
            held = await _through_chooser(ctx, target, list(paths))
        ctx.result.files = [UploadedFile(name=str(f["name"]), size=int(f["size"])) for f in held or ()]

    return await perform(tab, "upload", element_id, body, expect, resolves_first=True)


def _one_only(target: Target, count: int) -> BadRequest:
    return BadRequest(
        f"{target.sentence()} takes one file (no `multiple`), and {count} were given: upload one.",
        id=target.element_id,
    )


async def _set_files(tab: Tab, session_id: str | None, paths: list[str], **node: Any) -> None:
    try:
        await tab.session.cdp("DOM.setFileInputFiles", {"files": paths, **node}, session_id=session_id)
    except CdpError as exc:
        if "Not allowed" not in exc.message:
            raise
        raise FilesNotAllowed(
            "Chrome will not hand local files to pages for browserx: its extension has no access to file "
            'URLs. Ask the person to turn on "Allow access to file URLs" for browserx in '
            "chrome://extensions (Details), or to choose the file themselves.",
        ) from None


async def _through_chooser(ctx: ActionContext, target: Target, paths: list[str]) -> Any:
    """Click the target with the chooser intercepted; answer the chooser it opens with ``paths``;
    the names and sizes its input holds then."""
    tab, sid = ctx.tab, target.session_id
    with first_event(tab.session, CHOOSER_OPENED, sid) as opened:
        try:
            await tab.session.cdp("Page.setInterceptFileChooserDialog", {"enabled": True}, session_id=sid)
            await click_target(ctx, target)
            try:
                chooser = decode_raw(await asyncio.wait_for(opened, CHOOSER_WAIT_S), FileChooserOpened)
            except TimeoutError:
                raise NotInteractable(
                    f"{target.sentence()} is no file input, and clicking it opened no file chooser. Give "
                    "the ID of the file input or of the button that opens the file dialog.",
                    id=target.element_id,
                ) from None
            if not chooser.backendNodeId:
                raise NotInteractable(f"The file chooser {target.describe()} opened has no input to fill.")
            if len(paths) > 1 and chooser.mode != "selectMultiple":
                raise _one_only(target, len(paths))
            await _set_files(tab, sid, paths, backendNodeId=chooser.backendNodeId)
            resolved = await tab.session.cdp(
                "DOM.resolveNode",
                {
                    "backendNodeId": chooser.backendNodeId,
                    "executionContextId": target.context_id,
                    "objectGroup": OBJECT_GROUP,
                },
                session_id=sid,
                result_type=ResolveNodeResult,
            )
            return await page_call(tab.session, FILES_JS, this=resolved.object.objectId, session_id=sid)
        finally:
            with contextlib.suppress(BrowserxError):
                await tab.session.cdp(
                    "Page.setInterceptFileChooserDialog", {"enabled": False}, session_id=sid
                )


__all__ = ["upload"]
