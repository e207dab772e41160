"""Real third-party web UIs, installed from PyPI and npm (scripts/setup-corpus.sh) and served on
127.0.0.1 with no network: Django admin, Swagger UI, Redoc, Datasette, MkDocs Material, JupyterLab
and a Shoelace web-components page.

``APPS`` is the registry the end-to-end test (tests/e2e/test_real_apps.py) and any benchmark
iterate: each :class:`App` has a server (a context manager yielding its base URL) and its pages;
each :class:`Page` has a path, setup steps, a readiness condition and its expectations — the
controls a person would use there, as (role, name) the way Chrome's accessibility tree gives them,
written by hand from the apps' own templates and DOM — plus a few actions whose effect is checked
through the page's own state.

Every step, condition and check is plain JavaScript, so any driver can run them (Selenium's
``execute_script``, CDP ``Runtime.evaluate``, Playwright's ``page.evaluate``): ``Step.js`` is a
function body (it may ``return``); ``Page.ready``, ``Step.wait``, ``Action.before`` and
``Action.check`` are expressions. :func:`run_steps` runs steps with any object
that has ``goto(url)`` and ``run(body) -> value``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Protocol, TypeVar

C = TypeVar("C")
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
APPS_VENV = ROOT / ".venv-apps"
NODE_MODULES = HERE / "node_modules"
STATIC = HERE / "static"


_ZERO_WIDTH = re.compile("[\u200b-\u200d\u2060\ufeff\u00ad]")
_EDGES = re.compile(r"^[\W_]+|[\W_]+$")


def norm_name(name: str) -> str:
    """A name as compared: zero-width characters dropped, white space collapsed, case folded,
    icon glyphs and punctuation at either end ignored ("↓ By category", "— 200 OK", "Add ▼")."""
    text = " ".join(_ZERO_WIDTH.sub("", name).split()).casefold()
    return _EDGES.sub("", text) or text


# -- the registry's types -------------------------------------------------------------------------


@dataclass(frozen=True)
class Expect:
    """One control a person would use: Chrome's accessibility role and name (``clickable`` for an
    element without a role that reacts to clicks). ``also``: other roles that are just as right
    (a clickable heading listed as ``clickable``). ``why``: what makes it hard."""

    role: str
    name: str
    also: tuple[str, ...] = ()
    why: str = ""
    aka: tuple[str, ...] = ()  # other names that are just as right
    pattern: str = ""  # or: a regular expression the whole (normalized) name matches

    @property
    def roles(self) -> tuple[str, ...]:
        return (self.role, *self.also)

    def matches_name(self, name: str) -> bool:
        if not self.name and not self.aka and not self.pattern:
            return True  # Chrome leaves it unnamed: any name will do
        have = norm_name(name)
        if any(have == norm_name(n) for n in (self.name, *self.aka)):
            return True
        return bool(self.pattern) and re.fullmatch(self.pattern, have, re.I) is not None

    def __str__(self) -> str:
        return f"{self.role} {self.name!r}"


@dataclass(frozen=True)
class Step:
    """Open ``goto`` (a path on the app), run ``js`` (a function body), or wait until ``wait`` (an
    expression) is truthy."""

    goto: str | None = None
    js: str | None = None
    wait: str | None = None
    timeout: float = 15.0


@dataclass(frozen=True)
class Action:
    """Act on ``target`` (found by role and name in the view) and check the page's own state:
    ``before`` must be truthy before the action, ``check`` within ``timeout`` after it.
    ``do`` is click, type (``value`` typed), select (``value`` = the option's text) or check.
    ``target`` is the first control in the view (document order) that matches it."""

    label: str
    do: str
    target: Expect
    check: str
    before: str = "true"
    value: str = ""
    clear: bool = False  # type: replace what the field holds
    timeout: float = 5.0

    def run_by_id(self, bx: Any, element_id: int, tab: int) -> Any:
        """Do it with browserx (``bx``: a Client) on the element of that ID; the action's result."""
        if self.do == "click":
            return bx.click(element_id, tab=tab)
        if self.do == "type":
            return bx.type_text(element_id, self.value, tab=tab, clear=self.clear)
        if self.do == "select":
            return bx.select(element_id, self.value, tab=tab)
        if self.do == "check":
            return bx.check(element_id, True, tab=tab)
        raise ValueError(f"unknown action {self.do!r}")


@dataclass(frozen=True)
class Page:
    app: str
    name: str
    path: str
    expect: tuple[Expect, ...]
    actions: tuple[Action, ...] = ()
    setup: tuple[Step, ...] = ()  # run before the page is opened (log in, clear stored state)
    ready: str = "document.readyState === 'complete'"  # the page has rendered what is expected
    after: tuple[Step, ...] = ()  # run once it is ready (open a dialog)
    teardown: tuple[Step, ...] = ()  # run after the actions (let the page be left without a prompt)
    ready_timeout: float = 30.0

    @property
    def key(self) -> str:
        return f"{self.app}/{self.name}"

    def opening(self) -> tuple[Step, ...]:
        """Every step that opens the page: setup, the page itself, its readiness, after."""
        return (*self.setup, Step(goto=self.path, wait=self.ready, timeout=self.ready_timeout), *self.after)


@dataclass(frozen=True)
class App:
    name: str
    stack: str
    serve: Callable[[], contextlib.AbstractContextManager[str]]
    pages: tuple[Page, ...] = field(default_factory=tuple)


class Driver(Protocol):
    def goto(self, url: str) -> None: ...

    def run(self, body: str) -> Any: ...


def run_steps(driver: Driver, base: str, steps: tuple[Step, ...]) -> None:
    for step in steps:
        if step.goto is not None:
            driver.goto(base + step.goto)
        if step.js is not None:
            driver.run(step.js)
        if step.wait is not None:
            wait_for(driver, step.wait, step.timeout)


# How often wait_for looks again (each look a script in the page, ~10 ms): a wait ends up to this
# much after its condition came true, and the oracle corpus alone waits some 150 times.
POLL_S = 0.025


def wait_for(driver: Driver, expression: str, timeout: float) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = driver.run(f"return ({expression});")
        except Exception:  # the page navigated under us: try again
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"not true within {timeout} s: {expression}")
        time.sleep(POLL_S)


def match_expectations(
    expected: tuple[Expect, ...],
    controls: list[C],
    fits: Callable[[Expect, C], bool],
    key: Callable[[C], Hashable],
) -> dict[int, C]:
    """A maximum matching of expectations (by index) to distinct controls (Kuhn's algorithm), so a
    name expected twice must be listed twice; named expectations first, unnamed ones ("any name")
    take what is left. Shared by the e2e test and the benchmark (each with its own controls)."""
    candidates = [[c for c in controls if fits(e, c)] for e in expected]
    owner: dict[Hashable, int] = {}  # control key → expectation index

    def augment(i: int, seen: set[Hashable]) -> bool:
        for control in candidates[i]:
            k = key(control)
            if k in seen:
                continue
            seen.add(k)
            if k not in owner or augment(owner[k], seen):
                owner[k] = i
                return True
        return False

    for i in sorted(range(len(expected)), key=lambda i: not (expected[i].name or expected[i].aka)):
        augment(i, set())
    by_key = {key(c): c for c in controls}
    return {i: by_key[k] for k, i in owner.items()}


# -- serving -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(url: str, timeout: float, proc: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as reply:
                if reply.status < 500:
                    return
        except urllib.error.HTTPError as e:
            if e.code < 500:
                return
        except OSError:
            pass
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode} before answering {url}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"{url} did not answer within {timeout} s")
        time.sleep(0.1)


def app_bin(name: str) -> str:
    path = APPS_VENV / "bin" / name
    if not path.exists():
        raise RuntimeError(f"{path} is missing: run `make corpus` (scripts/setup-corpus.sh)")
    return str(path)


@contextlib.contextmanager
def process(cmd: list[str], probe: str, *, cwd: Path, env: dict[str, str] | None = None,
            timeout: float = 60.0) -> Iterator[subprocess.Popen[bytes]]:  # fmt: skip
    """Start a server in its own process group, wait until ``probe`` answers, and stop the group
    (the server and its children: kernels, workers) afterwards by its PID."""
    log = open(cwd / "server.log", "wb")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(
        cmd, cwd=cwd, env={**os.environ, **(env or {})}, stdout=log, stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        try:
            wait_http(probe, timeout, proc)
        except Exception as e:
            log.flush()
            tail = (cwd / "server.log").read_text(errors="replace")[-3000:]
            raise RuntimeError(f"{cmd[0]}: {e}\n{tail}") from e
        yield proc
    finally:
        # Its children too, by PID: some start their own session (Jupyter's kernels).
        children = descendants(proc.pid)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError, PermissionError):  # what outlived the leader
            os.killpg(proc.pid, signal.SIGKILL)
        for pid in children:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        log.close()


def descendants(pid: int) -> list[int]:
    """Every living descendant of ``pid`` (Linux /proc), children first."""
    parent_of: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parent_of[int(stat.parent.name)] = int(fields[1])
    out: list[int] = []
    frontier = [pid]
    while frontier:
        kids = [child for child, parent in parent_of.items() if parent in frontier]
        out += kids
        frontier = kids
    return out


class _StaticHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


@contextlib.contextmanager
def static_server(mounts: dict[str, Path]) -> Iterator[str]:
    """A plain http.server thread serving each folder under its URL prefix (``/node_modules`` →
    tests/e2e/apps/node_modules); the base URL is yielded."""
    ordered = sorted(((p.rstrip("/"), f) for p, f in mounts.items()), key=lambda kv: -len(kv[0]))

    class Mounted(_StaticHandler):
        def translate_path(self, path: str) -> str:
            clean = path.split("?", 1)[0].split("#", 1)[0]
            for stem, folder in ordered:
                if not stem or clean == stem or clean.startswith(stem + "/"):
                    self.directory = str(folder)
                    return super().translate_path(clean[len(stem) :] or "/")
            return "/nonexistent"

    if not NODE_MODULES.exists() and any(f == NODE_MODULES for f in mounts.values()):
        raise RuntimeError(f"{NODE_MODULES} is missing: run `make corpus` (scripts/setup-corpus.sh)")
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Mounted, directory=str(HERE)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def temp_dir(prefix: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix=f"browserx-corpus-{prefix}-", ignore_cleanup_errors=True) as d:
        yield Path(d)


# -- the apps' servers ------------------------------------------------------------------------------


@contextlib.contextmanager
def serve_static() -> Iterator[str]:
    """Swagger UI, Redoc and the Shoelace page: static files next to the npm packages."""
    with static_server({"/static": STATIC, "/node_modules": NODE_MODULES}) as base:
        yield base


@contextlib.contextmanager
def serve_django() -> Iterator[str]:
    """tests/e2e/apps/django_site: migrate a fresh sqlite db, seed it, ``runserver``."""
    with temp_dir("django") as tmp:
        port = free_port()
        cmd = [app_bin("python"), str(HERE / "django_site" / "serve.py"), str(tmp), str(port)]
        base = f"http://127.0.0.1:{port}"
        with process(cmd, f"{base}/admin/login/", cwd=tmp):
            yield base


ZOO = [
    # name, species, enclosure, age, weight_kg
    ("Ada", "Penguin", "Polar", 4, 5.2), ("Bo", "Penguin", "Polar", 7, 6.1),
    ("Cleo", "Otter", "River", 3, 9.8), ("Dex", "Otter", "River", 5, 11.0),
    ("Echo", "Red panda", "Forest", 6, 4.9), ("Fig", "Red panda", "Forest", 2, 4.1),
    ("Gus", "Capybara", "River", 8, 48.0), ("Hana", "Capybara", "River", 1, 21.5),
    ("Iris", "Snow leopard", "Mountain", 9, 41.0), ("Jun", "Penguin", "Polar", 2, 4.0),
    ("Kai", "Otter", "River", 10, 10.3), ("Lumi", "Snow leopard", "Mountain", 4, 38.2),
]  # fmt: skip


def make_zoo_db(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("create table keepers (id integer primary key, name text not null, shift text)")
        db.executemany("insert into keepers (name, shift) values (?, ?)",
                       [("Mira", "early"), ("Tom", "late"), ("Sven", "early")])  # fmt: skip
        db.execute(
            "create table animals (id integer primary key, name text not null, species text, "
            "enclosure text, age integer, weight_kg real, keeper_id integer references keepers(id))"
        )
        db.executemany(
            "insert into animals (name, species, enclosure, age, weight_kg, keeper_id) values (?, ?, ?, ?, ?, ?)",
            [(*row, 1 + i % 3) for i, row in enumerate(ZOO)],
        )
        db.commit()


@contextlib.contextmanager
def serve_datasette() -> Iterator[str]:
    """Datasette on a small sqlite db made here (two tables, a foreign key, default facets)."""
    with temp_dir("datasette") as tmp:
        make_zoo_db(tmp / "zoo.db")
        metadata = {
            "title": "Zoo data",
            "databases": {"zoo": {"tables": {"animals": {"facets": ["species", "enclosure"]}}}},
        }
        (tmp / "metadata.json").write_text(json.dumps(metadata), encoding="utf-8")
        port = free_port()
        cmd = [app_bin("datasette"), "serve", str(tmp / "zoo.db"), "--host", "127.0.0.1", "--port", str(port),
               "--metadata", str(tmp / "metadata.json"), "--setting", "default_page_size", "20"]  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        with process(cmd, f"{base}/-/versions.json", cwd=tmp):
            yield base


@contextlib.contextmanager
def serve_mkdocs() -> Iterator[str]:
    """tests/e2e/apps/mkdocs_site built with MkDocs Material into a temp dir, served statically."""
    with temp_dir("mkdocs") as tmp:
        subprocess.run(
            [app_bin("mkdocs"), "build", "-q", "-f", str(HERE / "mkdocs_site" / "mkdocs.yml"), "-d", str(tmp / "site")],
            check=True, capture_output=True, timeout=120, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        )  # fmt: skip
        with static_server({"/": tmp / "site"}) as base:
            yield base


@contextlib.contextmanager
def serve_jupyterlab() -> Iterator[str]:
    """JupyterLab with no token or password, its own config/data/runtime dirs in a temp dir and
    nothing that reaches the network (no news, no update checks)."""
    with temp_dir("jupyter") as tmp:
        root = tmp / "notebooks"
        root.mkdir()
        (root / "data").mkdir()
        (root / "notes.md").write_text("# Notes\n\nHello from the corpus.\n", encoding="utf-8")
        (root / "analysis.ipynb").write_text(json.dumps({
            "cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# Analysis"]},
                      {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                       "source": ["print(6 * 7)"]}],
            "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}), encoding="utf-8")  # fmt: skip
        env = {
            "JUPYTER_CONFIG_DIR": str(tmp / "config"),
            "JUPYTER_DATA_DIR": str(tmp / "data"),
            "JUPYTER_RUNTIME_DIR": str(tmp / "runtime"),
            "JUPYTERLAB_SETTINGS_DIR": str(tmp / "settings"),
            "JUPYTERLAB_WORKSPACES_DIR": str(tmp / "workspaces"),
            "IPYTHONDIR": str(tmp / "ipython"),
            "JUPYTER_PLATFORM_DIRS": "1",
        }
        # The news toast ("Would you like to receive official Jupyter news?") is answered: no.
        settings = tmp / "settings" / "@jupyterlab" / "apputils-extension"
        settings.mkdir(parents=True)
        (settings / "notification.jupyterlab-settings").write_text(
            json.dumps({"fetchNews": "false", "checkForUpdates": False}), encoding="utf-8"
        )
        port = free_port()
        cmd = [
            app_bin("jupyter"), "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
            "--ServerApp.token=", "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True",
            f"--ServerApp.root_dir={root}", "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--ServerApp.port_retries=0", "--LabApp.extension_manager=readonly",
            *(["--allow-root"] if os.geteuid() == 0 else []),
        ]  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        with process(cmd, f"{base}/api/status", cwd=tmp, env=env, timeout=90):
            yield base


# -- the apps, their pages and expectations -------------------------------------------------------
#
# Written by hand from each app's templates, DOM and a screenshot (roles and names checked against
# Chrome's accessibility tree): what a person sees and would use. Names compare case-insensitively
# (Chrome applies text-transform), with white space collapsed, zero-width characters dropped and
# icon glyphs / punctuation at either end ignored. ``Expect(role, "")`` is a control Chrome leaves
# unnamed: any name is accepted. ``aka``: other names that are just as right; ``pattern``: a
# regular expression the whole name may match instead.


def E(
    role: str, name: str, *also: str, aka: tuple[str, ...] = (), pattern: str = "", why: str = ""
) -> Expect:
    return Expect(role, name, also, why, aka, pattern)


# Django admin (server-rendered HTML, a little vanilla JS) ----------------------------------------

DJANGO_USER, DJANGO_PASSWORD = "admin", "corpus-pass-123"  # django_site/serve.py
_DJANGO_FORGET = "localStorage.clear(); sessionStorage.clear();"  # theme, sidebar filter, sidebar state
DJANGO_LOGIN = (
    Step(
        goto="/admin/login/",
        js=_DJANGO_FORGET
        + f"""
        const user = document.querySelector('#id_username');
        if (user) {{
          user.value = {DJANGO_USER!r};
          document.querySelector('#id_password').value = {DJANGO_PASSWORD!r};
          document.querySelector('#login-form').submit();
        }}""",
        wait="location.pathname === '/admin/' && document.readyState === 'complete'",
    ),
)
DJANGO_LOGOUT = (
    Step(
        goto="/admin/login/",
        js=_DJANGO_FORGET + "const form = document.querySelector('#logout-form'); if (form) form.submit();",
        wait="!document.querySelector('#logout-form') && document.readyState === 'complete'",
    ),
)
THEME_TOGGLE = E("button", "Toggle theme (current theme: auto)",
                 why="icon button named only by visually hidden text (.visually-hidden span)")  # fmt: skip
NAV_FILTER = E(
    "searchbox", "Filter navigation items", why="aria-label; placeholder 'Start typing to filter…'"
)
_HEADER = (E("link", "View site"), E("link", "Change password"), E("button", "Log out"), THEME_TOGGLE)
_SIDEBAR = (
    E("button", "Toggle navigation", why="the « strip left of the sidebar: aria-label, no text"),
    NAV_FILTER,
)
_NAV_ROWS_SHOWN = (
    "[...document.querySelectorAll('#nav-sidebar th[scope=row] a')]"
    ".filter(a => a.closest('tr').style.display !== 'none').map(a => a.textContent.trim()).join(',')"
)

DJANGO = App(
    "django-admin",
    "Django 5.2 admin: server-rendered forms and tables, vanilla JS widgets",
    serve_django,
    (
        Page(
            "django-admin", "login", "/admin/login/",
            setup=DJANGO_LOGOUT,
            expect=(
                E("link", "Django administration"), THEME_TOGGLE,
                E("textbox", "Username:"), E("textbox", "Password:"), E("button", "Log in"),
            ),
        ),
        Page(
            "django-admin", "index", "/admin/",
            setup=DJANGO_LOGIN,
            expect=(
                E("link", "Django administration"), *_HEADER,
                E("link", "Authentication and Authorization", why="the app's caption is a link"),
                E("link", "Groups"), E("link", "Users"), E("link", "Shop"),
                E("link", "Categories"), E("link", "Products"), E("link", "Tags"),
                *[E("link", "Add", why="one per model row, icon + text")] * 5,
                *[E("link", "Change")] * 5,
            ),
            actions=(
                Action("toggle the colour theme", "click", THEME_TOGGLE,
                       before="document.documentElement.dataset.theme === 'auto'",
                       check="document.documentElement.dataset.theme !== 'auto'"),
            ),
        ),
        Page(
            "django-admin", "changelist", "/admin/shop/product/",
            setup=DJANGO_LOGIN,
            expect=(
                *_HEADER, *_SIDEBAR,
                E("link", "Home"), E("link", "Shop"), E("link", "Add product", why="'ADD PRODUCT' via text-transform"),
                E("textbox", "Search", why="input#searchbar labelled by the search icon's alt text"),
                E("button", "Search"), E("combobox", "Action:"), E("button", "Go"),
                E("checkbox", "Select all objects on this page for an action", why="aria-label, no visible text"),
                E("link", "Name", why="sortable column header"), E("link", "Price"), E("link", "In stock"),
                E("checkbox", "Select this object for an action - Sencha"),
                E("link", "Sencha"), E("link", "Matcha"),
                E("DisclosureTriangle", "By category", why="<details><summary> filter; '↓' comes from CSS"),
                E("DisclosureTriangle", "By in stock"),
                E("link", "Teaware"), E("link", "Yes"), E("link", "No"),
            ),
            actions=(
                Action("filter the sidebar to Products", "type", NAV_FILTER, value="prod",
                       before=f"{_NAV_ROWS_SHOWN} === 'Groups,Users,Categories,Products,Tags'",
                       check=f"{_NAV_ROWS_SHOWN} === 'Products'"),
            ),
        ),
        Page(
            "django-admin", "user-change", "/admin/auth/user/2/change/",
            setup=DJANGO_LOGIN,
            expect=(
                NAV_FILTER, E("link", "Users"),
                E("textbox", "Username:"), E("link", "Reset password"),
                E("textbox", "First name:"), E("textbox", "Email address:"),
                E("checkbox", "Active"), E("checkbox", "Staff status"), E("checkbox", "Superuser status"),
                E("listbox", 'Available groups Choose groups by selecting them and then select the "Choose" arrow button.',
                  aka=("Available groups",), why="filter_horizontal: a <select multiple> built by SelectFilter2.js"),
                E("option", "Editors", why="an option of a <select multiple>: a person clicks it"),
                E("option", "Support"), E("option", "Warehouse"),
                E("option", "Administration | log entry | Can add log entry"),
                E("textbox", "Type into this box to filter down the list of available groups.",
                  why="named by an aria-label on an icon span inside its <label>; placeholder 'Filter'"),
                E("button", "Choose all groups"),
                E("button", "Choose selected groups", why="arrow icon button, its text hidden by text-indent"),
                E("button", "Remove selected groups"),
                E("link", "Add another group", why="the green + icon link, named by its title"),
                E("link", "Today"), E("link", "Now"),
                E("button", "Save"), E("button", "Save and continue editing"), E("link", "Delete"),
            ),
            actions=(
                Action("pick the group Support", "click", E("option", "Support"),
                       before="document.querySelector('#id_groups_from').selectedOptions.length === 0",
                       check="[...document.querySelector('#id_groups_from').selectedOptions].map(o => o.text).join() === 'Support'"),
                Action("move it to the chosen groups", "click", E("button", "Choose selected groups"),
                       check="[...document.querySelector('#id_groups_to').options].some(o => o.text === 'Support')"),
            ),
        ),
    ),
)  # fmt: skip


# Swagger UI (React) ------------------------------------------------------------------------------


def _swagger_op(method: str, path: str, summary: str) -> Expect:
    wbr = path.replace("/", " /").lstrip()  # Chrome reads each <wbr> in the path as a space
    return E("button", f"{method} {path} {summary}", aka=(f"{method} {wbr} {summary}",),
             why="operation row: button.opblock-summary-control (method, path, summary)")  # fmt: skip


def _swagger_tag(tag: str, description: str) -> Expect:
    return E("heading", f"{tag} {description} Collapse operation", "clickable", "button",
             aka=(f"{tag} {description}", tag),
             why="tag header: an <h3> with a React onClick (no role, no tabindex; the handler is on the root)")  # fmt: skip


SWAGGER = App(
    "swagger-ui",
    "Swagger UI 5 (React 18) on a local OpenAPI 3 spec",
    serve_static,
    (
        Page(
            "swagger-ui", "petstore", "/static/swagger.html",
            ready="document.querySelectorAll('.opblock').length === 9",
            expect=(
                E("button", "Explore"), E("button", "Switch to dark mode", why="icon button: aria-label"),
                E("link", "/static/petstore.json"),
                E("combobox", "Servers", aka=("",), why="<select> inside a <label> that holds no text; 'Servers' is a sibling span"),
                _swagger_tag("pet", "Everything about your pets"),
                _swagger_tag("store", "Access to petstore orders"),
                _swagger_tag("user", "Operations about user"),
                *[E("button", "Collapse operation", why="chevron icon button: title only")] * 3,
                _swagger_op("PUT", "/pet", "Update an existing pet"),
                _swagger_op("POST", "/pet", "Add a new pet to the store"),
                _swagger_op("GET", "/pet/findByStatus", "Finds pets by status"),
                _swagger_op("GET", "/pet/{petId}", "Find pet by ID"),
                _swagger_op("DELETE", "/pet/{petId}", "Deletes a pet"),
                _swagger_op("GET", "/store/inventory", "Returns pet inventories by status"),
                _swagger_op("POST", "/store/order", "Place an order for a pet"),
                _swagger_op("GET", "/user/login", "Logs user into the system"),
                _swagger_op("GET", "/user/{username}", "Get user by user name"),
                E("button", "Schemas"), E("button", "Pet", why="model toggle"), E("button", "Order"),
            ),
            actions=(
                Action("expand GET /pet/findByStatus", "click", _swagger_op("GET", "/pet/findByStatus", "Finds pets by status"),
                       before="!document.querySelector('#operations-pet-findPetsByStatus .opblock-body')",
                       check="!!document.querySelector('#operations-pet-findPetsByStatus .opblock-body')"),
                Action("try it out", "click", E("button", "Try it out"),
                       check="!!document.querySelector('#operations-pet-findPetsByStatus .execute')"),
                Action("collapse the store tag by its header", "click", _swagger_tag("store", "Access to petstore orders"),
                       before="!!document.querySelector('#operations-store-getInventory')",
                       check="!document.querySelector('#operations-store-getInventory')"),
            ),
        ),
    ),
)  # fmt: skip


# Redoc (React, styled-components) ------------------------------------------------------------

REDOC = App(
    "redoc",
    "Redoc 2.5 standalone bundle (React, styled-components, perfect-scrollbar)",
    serve_static,
    (
        Page(
            "redoc", "petstore", "/static/redoc.html",
            ready="!!document.querySelector('li[data-item-id=\"tag/pet\"]') && !!document.querySelector('.api-content h2')",
            expect=(
                E("textbox", "Search", aka=("Search...",)),
                E("menuitem", "pet", why="<li role=menuitem> holding a <label> with the click handler"),
                E("menuitem", "store"), E("menuitem", "user"),
                E("link", "Download"), E("link", "API docs by Redocly", aka=("redocly logo API docs by Redocly",),
                  why="the logo's alt is part of the name once the image has loaded (as Chrome names it)"),
                E("button", "PUT /pet", why="right-panel endpoint dropdown"), E("button", "POST /pet"),
                E("tab", "Payload"), E("button", "Copy"), E("button", "Expand all"), E("button", "Collapse all"),
                E("button", "expand category", why="schema property toggle: aria-label"),
                E("button", "200 successful operation", why="response toggle; the name starts with a '—' glyph"),
            ),
            actions=(
                Action("open the pet section in the menu", "click", E("menuitem", "pet"),
                       before="document.querySelector('li[data-item-id=\"tag/pet\"]').getAttribute('aria-expanded') !== 'true'",
                       check="document.querySelector('li[data-item-id=\"tag/pet\"]').getAttribute('aria-expanded') === 'true'"),
                Action("jump to Finds pets by status", "click", E("menuitem", "Finds pets by status"),
                       check="location.hash === '#tag/pet/operation/findPetsByStatus'"),
                Action("search for order", "type", E("textbox", "Search", aka=("Search...",)), value="order",
                       check="document.querySelectorAll('[data-role=\"search:results\"] li').length > 0"),
            ),
        ),
    ),
)  # fmt: skip


# Shoelace (Lit web components: the real controls sit in shadow roots) ------------------------------

_SHOELACE_READY = (
    "document.querySelectorAll(':not(:defined)').length === 0 && "
    "!!document.querySelector('sl-tab-group').shadowRoot && "
    "!!document.querySelector('sl-select').shadowRoot?.querySelector('[part~=combobox]')"
)
SHOELACE = App(
    "shoelace",
    "Shoelace 2.20 web components (Lit, open shadow roots, form-associated custom elements)",
    serve_static,
    (
        Page(
            "shoelace", "settings", "/static/shoelace.html",
            ready=_SHOELACE_READY,
            expect=(
                E("tab", "Profile", why="<sl-tab>: role=tab on the host element"), E("tab", "Notifications"), E("tab", "Billing"),
                E("textbox", "Display name", why="<input> in sl-input's shadow root, labelled by a <label> in it"),
                E("combobox", "Language", why="sl-select: a div role=combobox in the shadow root"),
                E("radio", "Free", why="<sl-radio>: role=radio on the host"), E("radio", "Pro"), E("radio", "Team"),
                E("checkbox", "Subscribe to the newsletter", why="<input type=checkbox> hidden in the shadow root; the slot text names it"),
                E("switch", "Dark mode", why="<input role=switch> in the shadow root"),
                E("button", "Save changes"), E("button", "Delete account"),
                E("button", "Advanced settings", why="sl-icon-button: label attribute → aria-label inside"),
                E("button", "Privacy details", why="sl-details summary: div role=button in the shadow root"),
            ),
            actions=(
                Action("subscribe to the newsletter", "check", E("checkbox", "Subscribe to the newsletter"),
                       before="document.getElementById('newsletter').checked === false",
                       check="document.getElementById('newsletter').checked === true"),
                Action("pick Deutsch", "select", E("combobox", "Language"), value="Deutsch",
                       before="document.getElementById('language').value === 'en'",
                       check="document.getElementById('language').value === 'de'"),
                Action("open the Notifications tab", "click", E("tab", "Notifications"),
                       check="document.querySelector('sl-tab-panel[name=notifications]').active === true"),
            ),
        ),
        Page(
            "shoelace", "dialog", "/static/shoelace.html",
            ready=_SHOELACE_READY,
            after=(Step(js="document.getElementById('confirm').show();",
                        wait="document.getElementById('confirm').open && document.getElementById('confirm')"
                             ".shadowRoot.querySelector('[part~=panel]').getAnimations().length === 0"),),
            expect=(
                E("button", "Cancel"), E("button", "Delete"),
                E("button", "Close", why="the dialog's sl-icon-button (x), label 'Close'"),
            ),
            actions=(
                Action("cancel the dialog", "click", E("button", "Cancel"),
                       check="document.getElementById('confirm').open === false"),
            ),
        ),
    ),
)  # fmt: skip


# Datasette (server-rendered, a little JS: column menus, CodeMirror 5 SQL editor) ----------------

_QUERY = "new URLSearchParams(location.search)"
DATASETTE = App(
    "datasette",
    "Datasette 0.65 (Jinja templates, vanilla JS column menus, CodeMirror 5)",
    serve_datasette,
    (
        Page(
            "datasette", "table", "/zoo/animals",
            expect=(
                E("link", "home"), E("link", "zoo"),
                E("combobox", "", why="unlabelled <select name=_filter_column>"),
                E("combobox", "", why="unlabelled <select name=_filter_op>"),
                E("textbox", "", why="unlabelled filter value <input>"),
                E("button", "Apply"),
                E("link", "View and edit SQL"), E("link", "json"), E("link", "CSV"), E("link", "advanced"),
                E("link", "age", why="suggested facet"), E("link", "keeper_id"),
                E("link", "Otter", why="facet value"), E("link", "Penguin"), E("link", "Snow leopard"),
                E("link", "River"), E("link", "Mountain"),
                E("link", "id ▼", aka=("id",), why="sort link in the column header"),
                E("link", "name"), E("link", "species"), E("link", "weight_kg"),
                E("clickable", "", why="column actions: an <svg> gear with a JS click listener, no name"),
                E("link", "1", why="primary key link of row 1"), E("link", "Mira", why="foreign key label link"),
                E("button", "Export CSV"),
            ),
            actions=(
                Action("sort by name", "click", E("link", "name"),
                       check=f"{_QUERY}.get('_sort') === 'name'"),
                Action("open a column's actions menu (the gear)", "click", E("clickable", ""),
                       before="document.querySelector('.dropdown-menu').style.display === 'none'",
                       check="document.querySelector('.dropdown-menu').style.display === 'block'"),
            ),
        ),
        Page(
            "datasette", "database", "/zoo",
            ready="!!document.querySelector('.CodeMirror')",
            expect=(
                E("link", "home"),
                E("textbox", "", "clickable",
                  why="CodeMirror 5: keys go to a hidden 3 px textarea in a 0 px tall box; a person clicks the code"),
                E("button", "Format SQL"), E("button", "Run SQL"),
                E("link", "animals"), E("link", "keepers"), E("link", "Datasette"),
            ),
            actions=(
                Action("write a query", "type", E("textbox", "", "clickable"), value="select name from keepers", clear=True,
                       check="document.querySelector('.CodeMirror').CodeMirror.getValue() === 'select name from keepers'"),
                Action("run it", "click", E("button", "Run SQL"),
                       before=f"!{_QUERY}.has('sql')", check=f"{_QUERY}.has('sql')"),
            ),
        ),
    ),
)  # fmt: skip


# MkDocs Material (static site; CSS-only widgets on hidden inputs) ---------------------------------

_MKDOCS_FORGET = (Step(goto="/404.html", js="localStorage.clear(); sessionStorage.clear();"),)
PALETTE = E("LabelText", "Switch to dark mode", "clickable", "button", "radio", "label",
            why="palette toggle: a <label title=…> for a hidden radio (the radio's own aria-label names the other scheme)")  # fmt: skip
SEARCH = E("textbox", "Search", "searchbox", "combobox")
_MKDOCS_HEADER = (
    E("link", "Teapot Docs", why="logo link: aria-label"),
    PALETTE,
    SEARCH,
    E("link", "Home"),
    E("link", "Guide"),
    E("link", "Reference"),
)


def _content_tab(name: str) -> Expect:
    return E("radio", name, "tab", "link", "LabelText", "label", "clickable",
             why="content tab: a <label> (holding an <a tabindex=-1>) for a hidden radio")  # fmt: skip


MKDOCS = App(
    "mkdocs-material",
    "MkDocs Material 9 (static HTML, CSS widgets on hidden inputs, a search web worker)",
    serve_mkdocs,
    (
        Page(
            "mkdocs-material", "home", "/",
            setup=_MKDOCS_FORGET,
            expect=(
                *_MKDOCS_HEADER,
                E("link", "Quick start", why="table of contents"),
                E("link", "installation guide"), E("link", "reference"),
                E("button", "Copy to clipboard", why="code copy button: title only"),
                E("link", "Next: Installation", aka=("Next Installation",)), E("link", "Material for MkDocs"),
            ),
            actions=(
                Action("switch to dark mode", "click", PALETTE,
                       before="document.body.getAttribute('data-md-color-scheme') === 'default'",
                       check="document.body.getAttribute('data-md-color-scheme') === 'slate'"),
                Action("search for brew", "type", SEARCH, value="brew",
                       check="document.querySelectorAll('.md-search-result__item').length > 0"),
            ),
        ),
        Page(
            "mkdocs-material", "install", "/guide/install/",
            setup=_MKDOCS_FORGET,
            expect=(
                *_MKDOCS_HEADER,
                E("link", "Installation"), E("link", "Brewing"),
                _content_tab("pip"), _content_tab("conda"), _content_tab("From source"),
                E("button", "Copy to clipboard"),
                E("DisclosureTriangle", "Which Python versions are supported?", why="<details><summary> admonition"),
                E("DisclosureTriangle", "Can I use it offline?"),
                E("link", "Previous: Home", aka=("Previous Home",)), E("link", "Next: Brewing", aka=("Next Brewing",)),
            ),
            actions=(
                Action("show the conda tab", "click", _content_tab("conda"),
                       before="document.getElementById('__tabbed_1_1').checked",
                       check="document.getElementById('__tabbed_1_2').checked"),
                Action("open a collapsed admonition", "click", E("DisclosureTriangle", "Can I use it offline?"),
                       check="[...document.querySelectorAll('details')].find(d => d.textContent.includes('offline')).open"),
            ),
        ),
    ),
)  # fmt: skip


# JupyterLab (Lumino: html/body 0 px tall, overflow hidden, an absolutely positioned shell) ----------

_JUPYTER_TOOLBAR = (
    E("button", "New Launcher (Ctrl+Shift+L)", why="file browser toolbar: the blue + (title and label)"),
    E("button", "New Folder", why="icon button named by its title"),
    E("button", "Upload Files"),
    E("button", "Refresh the file browser."),
    E("button", "Toggle File Filter"),
)
_FILE_ITEM = ("listitem", "clickable", "option", "row", "treeitem")


def _file(name: str) -> Expect:
    return E(_FILE_ITEM[0], name, *_FILE_ITEM[1:], pattern=rf"(name: )?{re.escape(name)}\b.*",
             why="file browser item (double-click opens it); Chrome names it by its title 'Name: … Modified: …'")  # fmt: skip


_MENU_OPEN = "[...document.querySelectorAll('.lm-Menu')].some(m => m.textContent.includes('New Launcher'))"
# Lumino's menu bar opens a menu on pointerdown at the item (hit-tested by coordinates).
_OPEN_FILE_MENU = """
const item = [...document.querySelectorAll('.lm-MenuBar-item')].find(e => e.textContent.trim() === 'File');
const box = item.getBoundingClientRect();
item.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true, cancelable: true, button: 0,
  clientX: box.x + box.width / 2, clientY: box.y + box.height / 2}));
"""


def _submenu(label: str) -> Expect:
    return E("menuitem", label, "listitem", "clickable",
             why="submenu item: an <li tabindex=0 aria-haspopup> with no role (Chrome: listitem) in a Lumino "
                 "menu attached to <body> (0 px tall, overflow hidden)")  # fmt: skip


def _menu_item(label: str, shortcut: str = "", why: str = "") -> Expect:
    # Chrome's name runs the label and the shortcut together ("Save Ctrl+S").
    return E("menuitem", label, aka=(f"{label} {shortcut}",) if shortcut else (), why=why)


JUPYTERLAB = App(
    "jupyterlab",
    "JupyterLab 4.6 (Lumino widgets, React components, CodeMirror 6)",
    serve_jupyterlab,
    (
        Page(
            "jupyterlab", "launcher", "/lab?reset",
            ready="document.querySelectorAll('.jp-LauncherCard').length >= 6 && !!document.querySelector('.jp-DirListing-item')",
            ready_timeout=60,
            expect=(
                *[E("menuitem", m, why="Lumino menubar: li role=menuitem") for m in
                  ("File", "Edit", "View", "Run", "Kernel", "Tabs", "Settings", "Help")],
                E("tab", "File Browser (Ctrl+Shift+F)", why="left sidebar icon tab: title only"),
                E("tab", "Running Terminals and Kernels"), E("tab", "Table of Contents"), E("tab", "Extension Manager"),
                *_JUPYTER_TOOLBAR,
                E("button", "Python 3 (ipykernel)", aka=("Python 3 (ipykernel) Python 3 (ipykernel)",),
                  why="launcher card: div role=button with a title and a label"),
                E("button", "Terminal"), E("button", "Text File"), E("button", "Markdown File"),
                E("tab", "Launcher", why="main area tab (Lumino TabBar)"),
                _file("analysis.ipynb"), _file("notes.md"),
                E("clickable", "Name", "columnheader", "button",
                  why="file list sort header: a div; Lumino listens for clicks on the whole listing's root"),
            ),
            actions=(
                Action("open the table of contents", "click", E("tab", "Table of Contents"),
                       check="!!document.querySelector('.jp-TableOfContents') && "
                             "document.querySelector('.jp-TableOfContents').offsetParent !== null"),
                Action("open the File menu", "click", E("menuitem", "File"),
                       before=f"!({_MENU_OPEN})", check=_MENU_OPEN),
            ),
        ),
        Page(
            "jupyterlab", "file-menu", "/lab?reset",
            ready="document.querySelectorAll('.jp-LauncherCard').length >= 6 && !!document.querySelector('.jp-DirListing-item')",
            ready_timeout=60,
            after=(Step(js=_OPEN_FILE_MENU, wait=_MENU_OPEN),),
            expect=(
                E("menuitem", "File", why="its menu is open"), E("menuitem", "Edit"),
                _submenu("New"),
                _menu_item("New Launcher", "Ctrl+Shift+L"),
                _menu_item("Open from Path…"), _menu_item("Open from URL…"),
                _submenu("Open Recent"),
                _menu_item("Close All Tabs"),
                _menu_item("Save", "Ctrl+S", why="disabled: no document open"),
                _submenu("Save and Export Notebook As"),
                _submenu("Workspaces"),
                _menu_item("Log Out"), _menu_item("Shut Down"),
            ),
            actions=(
                Action("open the New submenu", "click", _submenu("New"),
                       check="[...document.querySelectorAll('.lm-Menu')].some(m => m.textContent.includes('Markdown File'))"),
            ),
        ),
        Page(
            "jupyterlab", "notebook", "/lab/tree/analysis.ipynb?reset",
            ready="document.querySelectorAll('.jp-Notebook .jp-Cell').length === 2 && "
                  "!!document.querySelector('.jp-Notebook .jp-CodeCell .cm-content') && "
                  "!!document.querySelector('.jp-NotebookPanel-toolbar [data-jp-item-name=cellType] select') && "
                  "document.querySelector('.jp-NotebookPanel-toolbar [data-jp-item-name=kernelName]')"
                  ".textContent.includes('Python 3') && "
                  "[...document.querySelectorAll('.jp-StatusBar-TextItem')].some(e => e.textContent.includes('| Idle'))",
            ready_timeout=60,
            teardown=(Step(js="window.addEventListener('beforeunload', e => e.stopImmediatePropagation(), true);"),),
            expect=(
                E("menuitem", "File"), E("menuitem", "Edit"), E("menuitem", "Run"), E("menuitem", "Kernel"),
                E("tab", "analysis.ipynb"),
                E("button", "Save and create checkpoint (Ctrl+S)", why="notebook toolbar: icon buttons named by title"),
                E("button", "Insert a cell below (B)"), E("button", "Cut this cell (X)"), E("button", "Copy this cell (C)"),
                E("button", "Paste this cell from the clipboard (V)"), E("button", "Run this cell and advance (Shift+Enter)"),
                E("button", "Interrupt the kernel"), E("button", "Restart the kernel"),
                E("button", "Restart the kernel and run all cells"),
                E("combobox", "Cell type", why="<select aria-label='Cell type'>"),
                E("button", "Python 3 (ipykernel)", why="kernel name: switches the kernel"),
                E("button", "Click to add a cell.", why="the footer under the last cell"),
                E("textbox", "", why="the code cell's CodeMirror 6 editor (contenteditable, role=textbox, unnamed)"),
                E("button", "Move this cell down (Ctrl+Shift+Down)", why="active cell's toolbar"),
                E("button", "Delete the cell"),
            ),
            actions=(
                Action("turn the markdown cell into code", "select", E("combobox", "Cell type"), value="Code",
                       before="document.querySelectorAll('.jp-Notebook .jp-CodeCell').length === 1",
                       check="document.querySelectorAll('.jp-Notebook .jp-CodeCell').length === 2"),
                Action("insert a cell", "click", E("button", "Insert a cell below (B)"),
                       check="document.querySelectorAll('.jp-Notebook .jp-Cell').length === 3"),
            ),
        ),
    ),
)  # fmt: skip


APPS: tuple[App, ...] = (DJANGO, SWAGGER, REDOC, DATASETTE, MKDOCS, JUPYTERLAB, SHOELACE)
PAGES: tuple[Page, ...] = tuple(page for app in APPS for page in app.pages)


def app_of(page: Page) -> App:
    return next(app for app in APPS if app.name == page.app)
