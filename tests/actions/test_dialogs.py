"""The dialog tool's answer (actions/dialogs.py) over a real TabSession and a fake connection: only
the dialog the person was asked about is accepted, a page not known to be readable is not answered,
and a dialog that closed unseen frees the tab."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from browserx.actions.dialogs import answer_dialog
from browserx.errors import CdpError, DialogOpen, NoDialog, PageOptedOut
from browserx.relay.protocol import Inbound
from browserx.relay.session import TabSession
from tests.fakes import FakeConnection

FIRST = b'{"type": "confirm", "message": "Keep going?"}'
SECOND = b'{"type": "confirm", "message": "Pay 900 dollars?"}'
HISTORY = {"currentIndex": 0, "entries": [{"id": 1, "url": "https://a.test/"}]}


def _tab(gone: bool = False) -> tuple[Any, FakeConnection]:
    def answer(method: str, params: Any, sid: str | None) -> Any:
        if method == "Page.handleJavaScriptDialog" and gone:
            raise CdpError("CDP error (Page.handleJavaScriptDialog): No dialog is showing")
        return HISTORY if method == "Page.getNavigationHistory" else {}

    conn = FakeConnection(answer)
    session = TabSession(7, conn)  # type: ignore[arg-type]
    tab = SimpleNamespace(tab_id=7, session=session, invalidate=lambda why: None)
    asyncio.run(session.ensure_attached())
    session.page_readable = True
    return tab, conn


def _event(tab: Any, method: str, params: bytes = b"{}") -> None:
    tab.session.handle_event(Inbound(type="event", tabId=7, method=method, params=params))  # type: ignore[arg-type]


def _answered(conn: FakeConnection) -> list[dict[str, Any]]:
    return [p for m, p in conn.sent if m == "Page.handleJavaScriptDialog"]


def test_only_the_dialog_the_person_was_asked_about_is_accepted() -> None:
    tab, conn = _tab()
    _event(tab, "Page.javascriptDialogOpening", FIRST)
    asked = tab.session.dialog
    _event(tab, "Page.javascriptDialogClosed")  # another call answered it meanwhile,
    _event(tab, "Page.javascriptDialogOpening", SECOND)  # and the page asked to pay
    with pytest.raises(DialogOpen, match="Pay 900"):
        asyncio.run(answer_dialog(tab, True, None, expected=asked))
    with pytest.raises(DialogOpen):  # asked about none: the one open now is not the one
        asyncio.run(answer_dialog(tab, True, None, expected=None))
    assert _answered(conn) == []
    result = asyncio.run(answer_dialog(tab, True, None, expected=tab.session.dialog))
    assert result["handled"] == {"type": "confirm", "message": "Pay 900 dollars?"}
    assert _answered(conn) == [{"accept": True}]


@pytest.mark.parametrize(("readable", "refused"), [(False, PageOptedOut), (None, DialogOpen)])
def test_a_page_not_known_to_be_readable_is_not_answered(readable: bool | None, refused: type) -> None:
    tab, conn = _tab()
    tab.session.page_readable = readable
    _event(tab, "Page.javascriptDialogOpening", FIRST)
    with pytest.raises(refused) as caught:
        asyncio.run(answer_dialog(tab, False, None))
    assert "Keep going" not in str(caught.value.to_dict())
    assert _answered(conn) == []


def test_a_dialog_that_closed_unseen_frees_the_tab() -> None:
    tab, _ = _tab(gone=True)
    _event(tab, "Page.javascriptDialogOpening", FIRST)
    with pytest.raises(NoDialog, match="gone"):
        asyncio.run(answer_dialog(tab, True, None))
    assert tab.session.dialog is None
    asyncio.run(tab.session.cdp("Runtime.evaluate"))  # the tab serves again
