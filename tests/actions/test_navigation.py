"""Navigating (actions/navigation.py) a tab over a recorded page (tests/actions/acting.py): the URL
sent (a bare host is a web site), the new document awaited (committed, then loaded), what the
result says of where the tab went (never a secret of the URL), history at its ends, and waiting
for text to appear or go."""

from __future__ import annotations

from typing import Any

from browserx.actions import navigation
from browserx.actions.result import ActionResult
from tests.actions.acting import Acting, ActingPage, PageError, act
from tests.fakes import emit


def page() -> ActingPage:
    """A tab whose navigations commit and load at once (unless a test says otherwise)."""
    p = ActingPage("snap-controls")
    p.on(navigation.READY_STATE_JS, "complete")
    return p


def navigating(
    p: ActingPage, action: Any, *args: Any, **options: Any
) -> tuple[ActionResult, list[dict[str, Any]]]:
    """Run ``action(tab, *args)``; what the page was asked to navigate to, and the result."""
    sent: list[dict[str, Any]] = []

    async def body(acting: Acting) -> ActionResult:
        def goes(params: dict[str, Any], same_document: bool = False) -> dict[str, Any]:
            sent.append(params)
            url = params.get("url", "http://127.0.0.1:34659/next.html")
            p.frame["url"] = url
            if same_document:
                emit(acting.tab, "Page.navigatedWithinDocument", {"frameId": "F", "url": url})
                return {"frameId": "F"}
            emit(acting.tab, "Page.frameNavigated", {"frame": {"id": "F", "url": url}})
            return {"frameId": "F", "loaderId": "L2"}

        p.commands.setdefault("Page.navigate", goes)
        p.commands.setdefault("Page.navigateToHistoryEntry", goes)
        p.commands.setdefault("Page.reload", goes)
        return await action(acting.tab, *args, **options)  # type: ignore[no-any-return]

    return act(p, body), sent


def test_navigate_sends_the_url_waits_for_the_page_and_says_where_the_tab_is() -> None:
    p = page()
    result, sent = navigating(p, navigation.navigate, "http://127.0.0.1:34659/next.html?token=s3cr3t&q=1")
    assert result.success and result.action == "navigate"
    assert sent == [{"url": "http://127.0.0.1:34659/next.html?token=s3cr3t&q=1"}]
    assert result.changes.navigated is True
    assert result.changes.new_url is not None and "s3cr3t" not in result.changes.new_url
    assert result.changes.new_url.startswith("http://127.0.0.1:34659/next.html?token=")
    assert p.calls_to(navigation.READY_STATE_JS)  # loaded, not only committed


def test_a_bare_host_is_a_web_site_and_an_empty_url_is_refused() -> None:
    _, sent = navigating(page(), navigation.navigate, "example.com/path")
    assert sent == [{"url": "https://example.com/path"}]
    _, sent = navigating(page(), navigation.navigate, "localhost:8000")
    assert sent == [{"url": "https://localhost:8000"}]
    result, sent = navigating(page(), navigation.navigate, "   ")
    assert result.error is not None and result.error.code == "bad_request" and sent == []


def test_a_failed_navigation_says_why_without_the_urls_secret() -> None:
    p = page()
    p.commands["Page.navigate"] = lambda params: {"frameId": "F", "errorText": "net::ERR_NAME_NOT_RESOLVED"}
    result, _ = navigating(p, navigation.navigate, "https://nowhere.invalid/reset?token=s3cr3t")
    assert not result.success and result.error is not None and result.error.code == "navigation_failed"
    assert "net::ERR_NAME_NOT_RESOLVED" in result.error.message and "s3cr3t" not in result.error.message


def test_a_navigation_that_never_commits_times_out() -> None:
    p = page()
    p.commands["Page.navigate"] = lambda params: {"frameId": "F", "loaderId": "L2"}  # and nothing happens
    result, _ = navigating(p, navigation.navigate, "http://127.0.0.1:34659/slow", timeout=0.2)
    assert not result.success and result.error is not None and result.error.code == "action_timeout"
    assert "did not start a new page within 0.2 s" in result.error.message


def test_a_same_document_navigation_commits_without_a_load() -> None:
    p = page()
    p.on(navigation.READY_STATE_JS, "loading")  # it would never load: not asked
    outcome: dict[str, Any] = {}

    async def body(acting: Acting) -> ActionResult:
        def within(params: dict[str, Any]) -> dict[str, Any]:
            emit(acting.tab, "Page.navigatedWithinDocument", {"frameId": "F", "url": params["url"]})
            p.frame["url"] = params["url"]
            return {"frameId": "F"}  # no loaderId: the same document

        p.commands["Page.navigate"] = within
        outcome["trips"] = acting.tab.session.round_trips
        return await navigation.navigate(acting.tab, "http://127.0.0.1:34659/snap-controls.html#part")

    result = act(p, body)
    assert result.success and result.changes.navigated is True
    assert p.calls_to(navigation.READY_STATE_JS) == []


def history(current: int) -> dict[str, Any]:
    return {"currentIndex": current, "entries": [{"id": 10 + i, "url": f"http://127.0.0.1/{i}", "title": "",
                                                  "userTypedURL": "", "transitionType": "link"} for i in range(3)]}  # fmt: skip


def in_history(current: int) -> ActingPage:
    p = page()
    p.commands["Page.getNavigationHistory"] = lambda params: history(current)
    return p


def test_back_and_forward_go_one_entry_and_stop_at_the_ends() -> None:
    result, sent = navigating(in_history(1), navigation.back)
    assert result.success and result.action == "back" and sent == [{"entryId": 10}]
    assert result.changes.navigated is True
    result, sent = navigating(in_history(1), navigation.forward)
    assert result.success and sent == [{"entryId": 12}]
    result, sent = navigating(in_history(0), navigation.back)
    assert result.error is not None and result.error.code == "navigation_failed" and sent == []
    assert "no previous page" in result.error.message
    result, sent = navigating(in_history(2), navigation.forward)
    assert result.error is not None and "no next page" in result.error.message and sent == []


def test_reload_asks_for_the_cache_as_told() -> None:
    result, sent = navigating(page(), navigation.reload, ignore_cache=True)
    assert result.success and result.action == "reload" and sent == [{"ignoreCache": True}]


# -- wait -------------------------------------------------------------------------------------------------


def waiting(p: ActingPage, **options: Any) -> ActionResult:
    async def body(acting: Acting) -> ActionResult:
        return await navigation.wait_for(acting.tab, **options)

    return act(p, body)


def test_wait_returns_once_the_text_shows_and_the_other_is_gone() -> None:
    p = page()
    answers = [[False, True], [False, True], [True, True]]
    p.on(navigation.WAIT_JS, lambda args: answers.pop(0) if len(answers) > 1 else answers[0])
    result = waiting(p, text="Saved", gone="Saving…")
    assert result.success and result.action == "wait"
    asked = p.calls_to(navigation.WAIT_JS)
    assert len(asked) == 3 and all(args in ([], ["Saved", "Saving…"]) for args in asked)


def test_wait_times_out_saying_what_it_waited_for() -> None:
    p = page()
    p.on(navigation.WAIT_JS, [False, False])
    result = waiting(p, text="Saved", gone="Saving…", timeout=0.2)
    assert not result.success and result.error is not None and result.error.code == "action_timeout"
    assert "text 'Saved' to appear and text 'Saving…' to disappear" in result.error.message
    result = waiting(page())
    assert result.error is not None and result.error.code == "bad_request"


def test_a_page_that_breaks_the_wait_fails_it_naming_the_snippet() -> None:
    p = page()
    p.on(navigation.WAIT_JS, PageError("TypeError: innerText is not a string"))
    result = waiting(p, text="Saved", timeout=5)
    assert not result.success and result.error is not None and result.error.code == "page_script_error"
    assert "actions/navigation_wait.js" in result.error.message
