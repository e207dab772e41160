"""No answer grows with what a page controls (real browser, extension and host): a page whose
title, a control's name, a text, an option, a field's value, a link's address and a tooltip are each
a megabyte long. Every agent tool, in every format and mode, answers within a bound that does not
depend on them (before: a 1 MB title gave a 2 MB snapshot despite max_tokens 6000). Left out: the
answers that carry a picture, and snapshots asked for with no budget (``max_tokens`` 0)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from browserx import Client
from browserx.control.tools import TOOLS_BY_NAME
from tests.e2e.every_tool import calls_for_every_tool, run_calls
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import id_of, tab_of_its_own

# Far above any answer of this small page, far below the megabyte its strings hold.
BOUND = 64 * 1024


@pytest.fixture
def own_tab(browser: Browser, bx: Client, servers: Servers) -> Iterator[int]:
    """The page in a tab of its own, closed afterwards: its megabyte-long address in the shared
    tab's history would ride along every later Page.getNavigationHistory of the session's tests
    (the whole e2e run took three times as long)."""
    with tab_of_its_own(browser, bx, servers.url("hostile-sizes.html")) as tab:
        yield tab


def test_no_answer_of_any_tool_grows_with_the_pages_strings(
    bx: Client, servers: Servers, own_tab: int
) -> None:
    tab = own_tab
    ids = [id_of(bx, tab, name) for name in ("Field", "Pick", "Far")]  # Far: to a megabyte-long address
    calls = [
        (name, params)
        for name, params in calls_for_every_tool(
            ids, (30.0, 30.0), servers.url("hostile-sizes.html"), "Short"
        )
        # A picture's size is its pixels' (screenshot, hybrid's JPEG); max_tokens 0 asks for no budget.
        if not TOOLS_BY_NAME[name].binary
        and params.get("format") != "hybrid"
        and params.get("max_tokens") != 0
    ]
    answers = run_calls(bx, calls, tab)
    # The host held for minutes on the address (redaction's patterns were quadratic): timeouts then.
    broken = [(n, a[:120]) for n, _, a in answers if any(f'"{c}"' in a for c in ("timeout", "internal"))]
    assert not broken, broken
    sizes = sorted(((len(answer), name, str(params)[:80]) for name, params, answer in answers), reverse=True)
    assert sizes[0][0] < BOUND, f"largest answers: {sizes[:3]}"
    assert {name for _, name, _ in sizes} >= {"snapshot", "html", "type", "select", "click", "tabs", "dialog"}
