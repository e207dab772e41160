"""The person's pages of the extension (options, popup) driven as a person would, for the
end-to-end tests of their controls (the ``pages`` fixture: conftest.py)."""

from __future__ import annotations

import time
from typing import Any

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

from browserx.relay.protocol import EXTENSION_ID
from tests.e2e.helpers import ExtensionTab

POPUP = f"chrome-extension://{EXTENSION_ID}/popup.html"
OPTIONS = f"chrome-extension://{EXTENSION_ID}/options.html"
DEFAULTS = {
    "stopped": False,
    "siteMode": "all",
    "blockedSites": [],
    "allowedSites": [],
    "tabSharing": False,
    "confirmSensitive": False,
}


class Pages(ExtensionTab):
    """An extension page (options or popup) beside the web page under test."""

    def open(self, url: str) -> None:
        with self.inside():
            self.driver.get(url)
            self.wait_for(lambda: self.driver.execute_script("return document.readyState") == "complete")

    def wait_for(self, check: Any, timeout: float = 5.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = check()
            if value or time.monotonic() > deadline:
                return value
            time.sleep(0.05)

    def reset(self) -> None:
        self.open(OPTIONS)
        self.chrome(
            "await chrome.storage.local.set(a[0]); await chrome.storage.session.set({sharedTabs: [], activity: []});",
            DEFAULTS,
        )

    def text(self, css: str) -> str:
        found = self.texts(css)
        return found[0] if found else ""

    def texts(self, css: str) -> list[str]:
        """The texts of what ``css`` finds (read again if the page re-rendered it meanwhile)."""
        with self.inside():
            for attempt in range(5):
                try:
                    return [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, css)]
                except StaleElementReferenceException:
                    if attempt == 4:
                        raise
            raise AssertionError("unreachable")

    def click(self, css: str) -> None:
        """Click the element ``css`` finds, found again if the page re-rendered it between the
        lookup and the click (the popup redraws its sections when the host's notices arrive)."""
        with self.inside():
            for attempt in range(5):
                self.wait_for(lambda: self.driver.find_elements(By.CSS_SELECTOR, css))
                try:
                    self.driver.find_element(By.CSS_SELECTOR, css).click()
                    return
                except StaleElementReferenceException:
                    if attempt == 4:
                        raise

    def debugger_on(self, tab: int) -> bool:
        """Whether browserx's extension holds a debugger session on the tab (Chrome's own answer:
        a second attach by the same extension is refused while one is held)."""
        held = self.chrome(
            "try { await chrome.debugger.attach({tabId: a[0]}, '1.3'); } catch (e) { return String(e.message || e); }"
            "await chrome.debugger.detach({tabId: a[0]}); return 'free';",
            tab,
        )
        assert held == "free" or "already attached" in held, held
        return bool(held != "free")


def save_options(
    pages: Pages, blocked: str = "", mode: str = "all", allowed: str = "", sharing: bool = False
) -> None:
    """Fill the options page as a person would, and Save."""
    pages.open(OPTIONS)
    d = pages.driver
    with pages.inside():
        for field, text in (("blockedSites", blocked), ("allowedSites", allowed)):
            box = d.find_element(By.ID, field)
            box.clear()
            if text:
                box.send_keys(text)
        d.find_element(By.CSS_SELECTOR, f'input[name="siteMode"][value="{mode}"]').click()
        if d.find_element(By.ID, "tabSharing").is_selected() != sharing:
            d.find_element(By.ID, "tabSharing").click()
        d.find_element(By.ID, "save").click()
    assert pages.wait_for(lambda: "Saved" in pages.text("#saved"))
