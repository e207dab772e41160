"""Chrome as the oracle for names and roles: for every fixture page, the (role, name) of each
control in our json view with a real ARIA interactive role must be one Chrome's own accessibility
tree (``Accessibility.getFullAXTree``) also has. Main frame only: Chrome's tree of a page does not
include its iframes' documents.

Names our label hunt found (json ``"name_from": "nearby text"``) are richer than Chrome's empty
names on purpose: they are left out of the ratio and listed in the report. Every disagreement is
printed and written to .pytest_cache/browserx-e2e/ax-oracle-report.txt; the floor is 98 % agreement.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from browserx import Client
from tests.e2e.harness import Browser, Servers, artifact
from tests.e2e.helpers import SNAPSHOT_PAGES, open_page

REPORT_PATH = artifact("ax-oracle-report.txt")
FLOOR = 0.98
ARIA_INTERACTIVE = frozenset(
    {"button", "link", "textbox", "checkbox", "radio", "combobox", "listbox", "searchbox", "spinbutton",
     "slider", "switch", "menuitem", "tab"}
)  # fmt: skip
PAGES = SNAPSHOT_PAGES


def _collapse(text: str) -> str:
    return " ".join(text.split())


def main_frame_controls(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Controls of the json view outside iframes (an iframe's content is another AX tree)."""
    if "id" in node:
        yield node
    if node.get("role") == "iframe":
        return
    for child in node.get("children", []):
        yield from main_frame_controls(child)


def chrome_roles_by_name(ax: dict[str, Any]) -> dict[str, set[str]]:
    """Every role Chrome gives to each non-empty name (to explain a disagreement)."""
    out: dict[str, set[str]] = {}
    for node in ax["nodes"]:
        name = _collapse(str((node.get("name") or {}).get("value") or ""))
        if name and not node.get("ignored"):
            out.setdefault(name, set()).add(str((node.get("role") or {}).get("value")))
    return out


def chrome_pairs(ax: dict[str, Any]) -> Counter[tuple[str, str]]:
    pairs: Counter[tuple[str, str]] = Counter()
    for node in ax["nodes"]:
        if node.get("ignored"):
            continue
        role = (node.get("role") or {}).get("value")
        if role in ARIA_INTERACTIVE:
            pairs[(role, _collapse(str((node.get("name") or {}).get("value") or "")))] += 1
    return pairs


def test_names_and_roles_agree_with_chrome_accessibility_tree(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    agree = 0
    compared = 0
    disagreements: list[str] = []
    hunted: list[str] = []
    per_page: list[str] = []
    only_chrome: list[str] = []  # recall side, informational (Chrome's inner parts of native widgets too)
    for page in PAGES:
        tab = open_page(browser, bx, servers.url(page))
        view = bx.snapshot(tab=tab, format="json")["json"]
        ax = bx.cdp("Accessibility.getFullAXTree", {}, tab=tab)
        theirs = chrome_pairs(ax)
        unmatched = Counter(theirs)
        ours = [c for c in main_frame_controls(view["page"]["body"]) if c["role"] in ARIA_INTERACTIVE]
        page_agree = page_total = 0
        pending: list[dict[str, Any]] = []
        for control in ours:
            key = (control["role"], control.get("name", ""))
            if control.get("name_from") == "nearby text":
                continue
            page_total += 1
            if unmatched[key] > 0:
                unmatched[key] -= 1
                page_agree += 1
            else:
                pending.append(control)
        for control in ours:
            if control.get("name_from") == "nearby text":
                same_role = sorted(n for (r, n), k in unmatched.items() if r == control["role"] and k > 0)
                hunted.append(
                    f"{page}: [{control['id']}] {control['role']} {control.get('name', '')!r} (nearby text); "
                    f"Chrome's unmatched {control['role']} names: {same_role}"
                )
        roles_by_name = chrome_roles_by_name(ax) if pending else {}
        for control in pending:
            same_role = sorted(n for (r, n), k in unmatched.items() if r == control["role"] and k > 0)
            elsewhere = sorted(roles_by_name.get(control.get("name", ""), set()))
            disagreements.append(
                f"{page}: [{control['id']}] ours {control['role']} {control.get('name', '')!r}; "
                f"Chrome's unmatched {control['role']} names: {same_role}; "
                f"Chrome's roles for that name: {elsewhere}"
            )
        for (role, name), left in sorted(unmatched.items()):
            if left > 0 and not any(c["role"] == role and c.get("name") == name for c in ours):
                hunted_here = (
                    role in {c["role"] for c in ours if c.get("name_from") == "nearby text"} and not name
                )
                if not hunted_here:
                    only_chrome.append(f"{page}: Chrome {role} {name!r} x{left}")
        agree += page_agree
        compared += page_total
        per_page.append(f"{page}: {page_agree}/{page_total} agree")

    ratio = agree / compared if compared else 0.0
    lines = [
        f"AX oracle: {agree}/{compared} agree = {ratio:.4f} (floor {FLOOR})",
        *per_page,
        "",
        f"disagreements ({len(disagreements)}):",
        *disagreements,
        "",
        f"label-hunted names, excluded from the ratio ({len(hunted)}):",
        *hunted,
        "",
        f"in Chrome's tree but not in our view, not asserted ({len(only_chrome)}):",
        *only_chrome,
    ]
    report = "\n".join(lines) + "\n"
    REPORT_PATH.write_text(report, encoding="utf-8")
    print("\n" + report)
    assert compared >= 60, f"too few controls compared: {compared}"
    assert ratio >= FLOOR, report
