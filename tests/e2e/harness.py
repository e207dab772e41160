"""The end-to-end harness: Selenium-launched Chromium with the real extension loaded and the real
host registered in a throwaway profile (fixture servers: tests/e2e/servers.py)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service

from browserx.relay.protocol import TEST_ONLY_CDP
from browserx.runtime import HostRecord, wait_for_new_host
from browserx.setup.assets import EXTENSION_DIR
from browserx.setup.install import apply, default_plan
from browserx.setup.launch import browser_flags, find_browser
from tests.e2e.servers import PAGES, Servers, fixture_servers

__all__ = [
    "ARTIFACTS",
    "PAGES",
    "Browser",
    "Servers",
    "artifact",
    "browser_with_extension",
    "fixture_servers",
]

# What a run leaves for a look afterwards (the last browser's host and Chromium logs, the corpus
# reports and views): in the checkout, under pytest's own ignored cache dir, never in /tmp.
ARTIFACTS = Path(__file__).resolve().parents[2] / ".pytest_cache" / "browserx-e2e"
# The folder whose files the tests' host uploads without asking (its config's upload_folders).
UPLOADS = Path(__file__).resolve().parents[1] / "fixtures" / "uploads"


def artifact(name: str) -> Path:
    """The path of one artifact of the run (its folder made)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / name


@dataclass
class Browser:
    driver: webdriver.Chrome
    host: HostRecord
    runtime_dir: Path
    profile: Path


@contextlib.contextmanager
def browser_with_extension(
    headless: bool = True,
    timeout: float = 30.0,
    config: dict[str, object] | None = None,
    extension_version: str | None = None,
) -> Iterator[Browser]:
    """Chromium via the system chromedriver, with our extension and host; BROWSERX_RUNTIME_DIR is
    set in this process's environment so the host (a grandchild) and our clients agree."""
    root = Path(tempfile.mkdtemp(prefix="browserx-e2e-"))
    runtime = root / "run"
    profile = root / "profile"
    old_env = os.environ.get("BROWSERX_RUNTIME_DIR")
    os.environ["BROWSERX_RUNTIME_DIR"] = str(runtime)
    # The tests compare with Chrome's own view through the raw `cdp` method, which a host serves
    # only when its user's config opens it (browserx/settings.py): this host's config does.
    old_config = os.environ.get("BROWSERX_CONFIG")
    config_file = root / "config.json"
    config_file.write_text(
        json.dumps({"allow_raw_cdp": True, "upload_folders": [str(UPLOADS)], **(config or {})}),
        encoding="utf-8",
    )
    os.environ["BROWSERX_CONFIG"] = str(config_file)
    # The test-only CDP methods: the host's switch, and a copy of the extension that carries
    # allowlist-test.js (the shipped extension has no such file).
    old_test_cdp = os.environ.get("BROWSERX_TEST_CDP")
    os.environ["BROWSERX_TEST_CDP"] = "1"
    extension = root / "extension"
    shutil.copytree(EXTENSION_DIR, extension)
    if extension_version is not None:  # an extension of another version than the host
        manifest = json.loads((extension / "manifest.json").read_text(encoding="utf-8"))
        (extension / "manifest.json").write_text(json.dumps({**manifest, "version": extension_version}))
    (extension / "allowlist-test.js").write_text(
        "// written by tests/e2e/harness.py for the test suite's copy of the extension only\n"
        f"const CDP_TEST_ALLOWLIST = {json.dumps(sorted(TEST_ONLY_CDP))};\n",
        encoding="utf-8",
    )
    apply(default_plan(None, profile))
    options = webdriver.ChromeOptions()
    options.binary_location = find_browser()
    for flag in browser_flags(profile, headless, extension):
        options.add_argument(flag)
    # chromedriver would otherwise pass --disable-extensions and block our unpacked extension.
    options.add_experimental_option("excludeSwitches", ["disable-extensions", "enable-automation"])
    # The person's download folder, as Chrome's settings hold it: downloads land there, not in ~.
    options.add_experimental_option("prefs", {"download.default_directory": str(root / "downloads")})
    if os.environ.get("BROWSERX_E2E_NO_BFCACHE"):
        options.add_argument("--disable-features=BackForwardCache")
    # Chromium's own log (renderer crashes, CHECK failures) lands next to the host logs.
    options.add_argument("--enable-logging=stderr")
    driver: webdriver.Chrome | None = None
    failed = False
    try:
        driver, host = _start(options, root, runtime, timeout)
        yield Browser(driver, host, runtime, profile)
    except BaseException:
        failed = True
        raise
    finally:
        if driver is not None:
            driver.quit()
        for name, old in (
            ("BROWSERX_RUNTIME_DIR", old_env),
            ("BROWSERX_CONFIG", old_config),
            ("BROWSERX_TEST_CDP", old_test_cdp),
        ):
            if old is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = old
        # Keep the host and Chromium logs for post-mortems: the last browser's (each xdist worker's
        # own), and those of a browser whose test failed inside it under a name of their own (a
        # later browser of the worker would overwrite them).
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        _keep_logs(root, runtime, artifact(f"last-logs-{worker}" if worker else "last-logs"))
        if failed:
            _keep_logs(root, runtime, artifact(f"failed-logs-{root.name}"))
        shutil.rmtree(root, ignore_errors=True)


FIRST_NAVIGATION_S = 15.0
PAGE_LOAD_S = 300.0  # chromedriver's default
START_TRIES = 3


def _start(
    options: webdriver.ChromeOptions, root: Path, runtime: Path, timeout: float
) -> tuple[webdriver.Chrome, HostRecord]:
    """Chromium started through chromedriver, its host connected and its first navigation made. With
    the extension's network rules (declarativeNetRequest) a new browser may start its first
    navigation late or lose it, and then no navigation of that browser completes (docs/DESIGN.md,
    facts checked in Chromium; setup/launch.py opens its page again through browserx for it): a
    test's first driver.get waited out chromedriver's 300 s. So one throwaway navigation first, to
    a port nothing listens on (the request only has to go out; the refusal comes at once), and a
    browser that hangs on it is stopped and started again."""
    for attempt in range(START_TRIES):
        started = time.time()
        log = root / ("chromium.log" if attempt == 0 else f"chromium-{attempt}.log")
        service = Service(shutil.which("chromedriver") or "chromedriver", log_output=str(log))
        driver = webdriver.Chrome(options=options, service=service)
        try:
            host = wait_for_new_host(started, timeout)
            if host is None:
                raise RuntimeError(f"no browserx host connected within {timeout} s (runtime dir {runtime})")
            if _first_navigation(driver):
                return driver, host
        except BaseException:
            driver.quit()
            raise
        driver.quit()
    raise RuntimeError(f"no first navigation completed in {START_TRIES} browsers (logs: {root})")


def _first_navigation(driver: webdriver.Chrome) -> bool:
    """Whether a navigation of the new browser completes (then its tab is blank again)."""
    driver.set_page_load_timeout(FIRST_NAVIGATION_S)
    try:
        try:
            driver.get("http://127.0.0.1:9/")
        except TimeoutException:
            return False
        except WebDriverException:
            pass  # net::ERR_CONNECTION_REFUSED: it went out
        driver.get("about:blank")  # the tab as tests expect a new browser's
        return True
    finally:
        with contextlib.suppress(WebDriverException):
            driver.set_page_load_timeout(PAGE_LOAD_S)


def _keep_logs(root: Path, runtime: Path, keep: Path) -> None:
    shutil.rmtree(keep, ignore_errors=True)
    keep.mkdir(parents=True, exist_ok=True)
    for log in [*runtime.glob("host-*.log"), *root.glob("chromium*.log")]:
        if log.exists():
            shutil.copy(log, keep / log.name)
