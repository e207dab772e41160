"""The oracle corpus: pages built with third-party UI libraries from npm and PyPI, the way their users
build them, served on 127.0.0.1 with no network. Chrome's accessibility tree is the oracle on each
(tests/e2e/test_oracle_corpus.py, scoring in oracle_join.py); nothing here is written by hand about
what a page should contain — only how to open it and when it is ready.

Static pages live in oracle/pages/*.html and load the libraries' own browser builds from
oracle/node_modules (`npm ci` of oracle/package-lock.json: UMD/IIFE bundles, or ES modules through
an import map). Svelte components (oracle/svelte/*.svelte) are compiled with the pinned
``svelte/compiler``, and the Angular app (oracle/angular/main.ts) is bundled by the pinned esbuild
(Angular compiled just in time in the browser), by node when the server starts. The Python data apps (oracle/py/*.py: Shiny,
NiceGUI, Dash) run from their own venv ``.venv-oracle`` (oracle/requirements.txt). All of it is
installed by scripts/setup-corpus.sh (`make corpus`).
"""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.apps.corpus import ROOT, Action, Expect, Step, free_port, process, static_server, temp_dir

HERE = Path(__file__).resolve().parent / "oracle"
PAGES_DIR = HERE / "pages"
NODE_MODULES = HERE / "node_modules"
VENV = ROOT / ".venv-oracle"

# A page is ready when the library rendered: no element still waiting to be upgraded, and the
# page's own readiness mark when it sets one (window.__ready, for pages that mount asynchronously).
READY = "document.readyState === 'complete' && window.__ready !== false"


@dataclass(frozen=True)
class OraclePage:
    library: str  # the component library / framework under test
    ecosystem: str  # React, Vue, Svelte, web components, jQuery, vanilla, Python
    name: str
    path: str
    widgets: str  # what the page holds (for the report)
    server: str = "static"
    ready: str = READY
    after: tuple[Step, ...] = ()  # run once ready: open a menu, a dialog, a listbox
    # Seconds to let animations end once ready and after `after`: the test waits at most this long,
    # until no animation runs (test_oracle_corpus.settle); the bench sleeps it.
    settle: float = 0.3
    # What a person would do there, each judged by the page's own state (the framework's model, the
    # widget's API, the element's checked / aria-selected / value); run by role and name after the
    # page was measured.
    actions: tuple[Action, ...] = ()

    @property
    def key(self) -> str:
        return f"{self.library}/{self.name}"


def click(selector: str, wait: str = "", timeout: float = 10.0) -> Step:
    """Click the first element matching ``selector`` (a real click event), then wait for ``wait``."""
    js = f"const el = document.querySelector({selector!r}); if (!el) throw new Error('no ' + {selector!r}); el.click();"
    return Step(js=js, wait=wait or None, timeout=timeout)


def js_step(body: str, wait: str = "", timeout: float = 10.0) -> Step:
    return Step(js=body, wait=wait or None, timeout=timeout)


P = OraclePage


def A(do: str, role: str, name: str, check: str, value: str = "", clear: bool = False) -> Action:
    """An action on the first control with Chrome's ``role`` and ``name``; ``check`` (an expression)
    must turn true within 5 s: the page's own state says it landed."""
    label = f"{do} {role} {name!r}" + (f" {value!r}" if value else "")
    return Action(label, do, Expect(role, name), check, value=value, clear=clear)


def vue(mount: str = "#app") -> str:
    """An expression: the Vue 3 root component's state (its data, as the page's template binds it)."""
    return f"document.querySelector({mount!r})._vnode.component.proxy"


def has(selector: str, text: str, attr: str = "", value: str = "true") -> str:
    """An expression: some element matching ``selector`` whose trimmed text is ``text`` (and whose
    ``attr`` is ``value``, when given)."""
    test = f" && e.getAttribute({attr!r}) === {value!r}" if attr else ""
    return f"[...document.querySelectorAll({selector!r})].some(e => e.textContent.trim() === {text!r}{test})"


def tab_on(name: str) -> str:
    """An expression: the tab named ``name`` is the selected one (its aria-selected)."""
    return has("[role=tab]", name, "aria-selected")


def checked(selector: str) -> str:
    return f"document.querySelector({selector!r}).checked === true"


def shown(selector: str) -> str:
    """An expression: some element matching ``selector`` is rendered (has a box)."""
    return f"[...document.querySelectorAll({selector!r})].some(e => e.getClientRects().length > 0)"


def press(selector: str, text: str = "") -> str:
    """JS: a real-looking press (pointer + mouse events, then click) on the first element matching
    ``selector`` (whose text includes ``text``), for widgets that open on mousedown/pointerdown."""
    pick = f"[...document.querySelectorAll({selector!r})].find(e => e.textContent.includes({text!r}))"
    return (
        f"const el = {pick}; if (!el) throw new Error('no ' + {selector!r});"
        "const r = el.getBoundingClientRect(); const o = {bubbles: true, cancelable: true, composed: true, "
        "clientX: r.x + r.width / 2, clientY: r.y + r.height / 2, button: 0};"
        "for (const t of ['pointerdown', 'mousedown', 'pointerup', 'mouseup']) "
        "el.dispatchEvent(new (t.startsWith('pointer') ? PointerEvent : MouseEvent)(t, o)); el.click();"
    )


PAGES: tuple[OraclePage, ...] = (
    # vanilla / CSS frameworks
    P("bootstrap", "vanilla", "form", "/pages/bootstrap-form.html",
      "navbar, dropdown toggle, tabs, form controls, switch, radio button group, accordion, pagination, toast",
      actions=(A("check", "switch", "Beta features", checked("#beta")),
              A("click", "tab", "Notifications", "document.getElementById('notify').classList.contains('active')"),)),
    P("bootstrap", "vanilla", "modal", "/pages/bootstrap-form.html", "the same page with its modal open",
      after=(click("[data-bs-target='#confirm']", "!!document.querySelector('#confirm.show')"),), settle=0.6),
    P("bootstrap", "vanilla", "dropdown", "/pages/bootstrap-form.html", "the navbar dropdown open",
      after=(click(".dropdown-toggle", "!!document.querySelector('.dropdown-menu.show')"),)),
    P("uikit", "vanilla", "editor", "/pages/uikit.html",
      "navbar with hover dropdown, tabs/switcher, form, accordion, table with icon links, pagination, slider carousel",
      actions=(A("check", "radio", "Private", "document.querySelectorAll('input[name=vis]')[1].checked"),
              A("click", "tab", "Settings", "document.querySelector('[uk-tab] > .uk-active').textContent === 'Settings'"),)),
    P("uikit", "vanilla", "modal", "/pages/uikit.html", "the publish modal open",
      after=(js_step("UIkit.modal('#publish').show();", shown("#publish.uk-open .uk-modal-dialog")),), settle=0.6),
    P("uikit", "vanilla", "dropdown", "/pages/uikit.html", "the click dropdown open",
      after=(js_step("UIkit.dropdown(document.querySelector('[uk-dropdown]')).show();", shown(".uk-dropdown.uk-open")),)),
    P("splide", "vanilla", "carousels", "/pages/splide.html",
      "carousels: image links, arrows, pagination dots, thumbnail navigation, a looping autoplay slider",
      ready=f"{READY} && !!document.querySelector('.splide.is-initialized .splide__arrow')",
      actions=(A("click", "button", "Next slide", "main.index > 0"),)),
    P("flatpickr", "vanilla", "pickers", "/pages/flatpickr.html", "date, range, time and alt-input pickers; an inline calendar",
      ready=f"{READY} && !!document.querySelector('.flatpickr-calendar.inline')",
      actions=(A("click", "clickable", "December 12, 2026", "document.querySelector('#inline')._flatpickr.selectedDates[0]?.getDate() === 12"),)),
    P("flatpickr", "vanilla", "open", "/pages/flatpickr.html", "the departure calendar open",
      ready=f"{READY} && !!document.querySelector('.flatpickr-calendar.inline')",
      after=(js_step("document.querySelector('#dep')._flatpickr.open();", shown(".flatpickr-calendar.open")),)),
    P("choices", "vanilla", "selects", "/pages/choices.html", "single and multiple selects, a tag input, with remove buttons",
      ready=f"{READY} && document.querySelectorAll('.choices').length === 4",
      actions=(A("type", "textbox", "Job title", "document.getElementById('title').value === 'Data engineer'", "Data engineer"),)),
    P("choices", "vanilla", "open", "/pages/choices.html", "the city dropdown open with its search box",
      ready=f"{READY} && document.querySelectorAll('.choices').length === 4",
      after=(js_step("window.cityChoices.showDropdown();", shown(".choices.is-open .choices__list--dropdown")),)),
    P("tom-select", "vanilla", "selects", "/pages/tom-select.html", "single, multiple (remove buttons), creatable tags, grouped",
      ready=f"{READY} && document.querySelectorAll('.ts-wrapper').length === 4",
      actions=(A("select", "combobox", "Carrier", "document.getElementById('carrier').value === 'dhl'", "DHL"),
              A("check", "checkbox", "Insured", checked("#ins")),)),
    P("tom-select", "vanilla", "open", "/pages/tom-select.html", "the grouped destination dropdown open",
      ready=f"{READY} && document.querySelectorAll('.ts-wrapper').length === 4",
      after=(js_step("window.dest.open();", shown(".ts-dropdown .option")),)),
    P("nouislider", "vanilla", "sliders", "/pages/nouislider.html", "range slider with two handles and tooltips, stepped, vertical, disabled",
      ready=f"{READY} && document.querySelectorAll('.noUi-target').length === 4",
      actions=(A("check", "checkbox", "Garage", "document.querySelectorAll('input[type=checkbox]')[1].checked"),)),
    # jQuery
    P("jquery-ui", "jQuery", "booking", "/pages/jquery-ui.html",
      "tabs, autocomplete, datepickers (one inline), selectmenu, spinner, range slider, checkboxradio, buttons, accordion, menu",
      ready=f"{READY} && !!document.querySelector('.ui-tabs-nav') && !!document.querySelector('#inline .ui-datepicker-calendar')",
      actions=(A("check", "checkbox", "Breakfast", checked("#x1")),
              A("click", "tab", "Guest", "$('#tabs').tabs('option', 'active') === 1"),)),
    P("jquery-ui", "jQuery", "dialog", "/pages/jquery-ui.html", "the modal dialog open (button pane)",
      ready=f"{READY} && !!document.querySelector('.ui-tabs-nav')",
      after=(js_step("$('#dlg').dialog('open');", shown(".ui-dialog")),)),
    P("jquery-ui", "jQuery", "selectmenu", "/pages/jquery-ui.html", "the room type selectmenu open",
      ready=f"{READY} && !!document.querySelector('.ui-tabs-nav')",
      after=(js_step("$('#roomtype').selectmenu('open');", shown(".ui-selectmenu-menu.ui-selectmenu-open li")),)),
    # Alpine.js
    P("alpine", "Alpine.js", "inbox", "/pages/alpine.html",
      "app shell (html/body overflow hidden, inner-scrolling main), 40 rows with hover-revealed actions, tabs, folder links",
      ready=f"{READY} && document.querySelectorAll('.msg').length === 40",
      actions=(A("click", "tab", "Social", "Alpine.$data(document.querySelector('[x-data]')).tab === 'Social'"),)),
    P("alpine", "Alpine.js", "compose", "/pages/alpine.html", "the compose dialog and the profile menu open",
      ready=f"{READY} && document.querySelectorAll('.msg').length === 40",
      after=(click("nav button", shown("[role=dialog]")), click("header button[aria-haspopup]", shown("[role=menu]")))),
    # Vue 3
    P("element-plus", "Vue", "orders", "/pages/element-plus.html",
      "side menu, tabs, form (select, multi-select, date picker, switch, input number, slider, radios, checkboxes), table with selection and row buttons, pagination",
      actions=(A("type", "textbox", "Customer", f"{vue()}.form.customer === 'Grace Hopper'", "Grace Hopper"),
              A("click", "tab", "Returns", f"{vue()}.tab === 'returns'"),)),
    P("element-plus", "Vue", "select-open", "/pages/element-plus.html", "the region select open",
      after=(click(".region-select .el-select__wrapper", shown(".el-select-dropdown__item")),), settle=0.5),
    P("element-plus", "Vue", "dialog", "/pages/element-plus.html", "the preview dialog open",
      after=(js_step(press("button", "Preview"), shown(".el-dialog")),), settle=0.5),
    P("naive-ui", "Vue", "settings", "/pages/naive-ui.html",
      "sider menu, tabs, multi-select, page-size select, time picker, date picker, slider with marks, input number, switch, data table with selection, dropdown, collapse",
      actions=(A("check", "checkbox", "SMS", f"{vue()}.channels.includes('sms')"),
              A("type", "textbox", "Filter runs", f"{vue()}.q === 'loss'", "loss"),)),
    P("naive-ui", "Vue", "select-open", "/pages/naive-ui.html", "the category multi-select open",
      after=(click(".n-base-selection", shown(".n-base-select-option")),), settle=0.5),
    P("vuetify", "Vue", "inventory", "/pages/vuetify.html",
      "app bar, navigation drawer, inner-scrolling main, tabs, text fields, select, autocomplete, checkbox, switch, slider, radios, data table with selection, expansion panels, menu, pagination",
      actions=(A("type", "textbox", "Product name", f"{vue()}.name.endsWith(' XL')", " XL"),
              A("click", "tab", "Orders", f"{vue()}.tab === 'two'"),)),
    P("vuetify", "Vue", "menu-open", "/pages/vuetify.html", "the options menu open",
      after=(js_step(press("button", "Options"), shown(".v-overlay--active .v-list-item")),), settle=0.6),
    P("quasar", "Vue", "helpdesk", "/pages/quasar.html",
      "layout (header, drawer, page container scrolling inside), tabs, selects, date popup button, toggle, checkbox, option group, slider, table with selection, expansion item",
      actions=(A("type", "textbox", "Subject", f"{vue('#q-app')}.subject.endsWith('refund')", "refund"),
              A("click", "tab", "Closed", f"{vue('#q-app')}.tab === 'closed'"),)),
    P("quasar", "Vue", "select-open", "/pages/quasar.html", "the priority select open",
      after=(js_step(press(".q-select", "Priority"), shown(".q-menu .q-item")),), settle=0.6),
    # React 18
    P("antd", "React", "projects", "/pages/antd.html",
      "sider menu, breadcrumb, tabs, form (multi-select, searchable select, cascader, date and time pickers, input number, slider, switch, radios, rate, checkbox), dropdown, table with selection, sort and filter, pagination, collapse",
      actions=(A("click", "switch", "Public:", "document.querySelector('button.ant-switch').getAttribute('aria-checked') === 'true'"),
              A("click", "tab", "All projects", has(".ant-tabs-tab-active", "All projects")),)),
    P("antd", "React", "select-open", "/pages/antd.html", "the team multi-select open",
      after=(js_step(press(".ant-select-selector", ""), shown(".ant-select-item-option")),), settle=0.6),
    P("antd", "React", "modal", "/pages/antd.html", "the preview modal open",
      after=(js_step(press("button", "Preview"), shown(".ant-modal")),), settle=0.8),
    P("mui", "React", "checkout", "/pages/mui.html",
      "app bar, tabs, text fields, select, autocompletes, radio group, checkboxes, switch, slider with marks, button group, toggle buttons, rating, accordion, list with secondary actions, chips, pagination",
      actions=(A("click", "tab", "Payment", tab_on("Payment")),
              A("select", "combobox", "Country", "document.querySelector('.MuiSelect-nativeInput').value === 'de'", "Germany"),)),
    P("mui", "React", "select-open", "/pages/mui.html", "the country select open (a menu listbox in a portal)",
      after=(js_step(press("[role=combobox]", "France"), shown("[role=listbox] [role=option]")),), settle=0.6),
    P("mui", "React", "dialog", "/pages/mui.html", "the confirm dialog open",
      after=(js_step(press("button", "Place order"), shown("[role=dialog]")),), settle=0.6),
    P("react-bootstrap", "React", "team", "/pages/react-bootstrap.html",
      "navbar with dropdown, tabs, input group, table with row checkboxes and hover-revealed row actions, pagination, accordion, dropdown, toggle buttons",
      actions=(A("check", "checkbox", "Select Ana", "document.querySelector('[aria-label=\"Select Ana\"]').checked"),
              A("click", "tab", "Invite", tab_on("Invite")),)),
    P("react-bootstrap", "React", "offcanvas", "/pages/react-bootstrap.html", "the filters offcanvas open",
      after=(js_step(press("button", "Filters"), shown(".offcanvas.show")),), settle=0.6),
    # web components
    P("ionic", "web components", "trips", "/pages/ionic.html",
      "ion-app shell (inner-scrolling ion-content), menu button, segment, searchbar, inputs, select, toggle, checkbox, range, radios, textarea, datetime button, accordions, sliding items, tab bar",
      ready=f"{READY} && !!document.querySelector('ion-range.hydrated')",
      actions=(A("check", "checkbox", "Travel insurance", "[...document.querySelectorAll('ion-checkbox')].find(c => c.textContent.includes('Travel insurance')).checked"),
              A("click", "tab", "Past", "document.querySelector('ion-segment').value === 'past'"),)),
    P("fluent", "web components", "meeting", "/pages/fluent.html",
      "fluent-tabs, text and number fields, select, combobox, checkbox, switch, radio group, slider, buttons, anchor, accordion, menu, data grid, tree view",
      actions=(A("check", "switch", "Private", checked("fluent-switch")),
              A("click", "tab", "People", "document.querySelector('fluent-tabs').activeid === 't-people'"),)),
    P("fluent", "web components", "dialog", "/pages/fluent.html", "the modal dialog open",
      after=(js_step("document.getElementById('dlg').hidden = false;", "!document.getElementById('dlg').hidden"),), settle=0.5),
    P("material-web", "web components", "preferences", "/pages/material-web.html",
      "md tabs, text fields, selects, checkboxes, switches, radios, sliders (one range), buttons, chips, list items (closed shadow-free lit components)",
      actions=(A("check", "radio", "Cozy", checked("md-radio[value='2']")),
              A("click", "tab", "Privacy", "document.querySelector('md-tabs').activeTabIndex === 1"),)),
    P("material-web", "web components", "menu-open", "/pages/material-web.html", "the menu open",
      after=(js_step("document.getElementById('menu').open = true;", "document.getElementById('menu').open"),), settle=0.6),
    P("material-web", "web components", "dialog", "/pages/material-web.html", "the dialog open",
      after=(js_step("document.getElementById('dlg').show();", "document.getElementById('dlg').open"),), settle=0.8),
    # data grids
    P("ag-grid", "vanilla", "fleet", "/pages/ag-grid.html",
      "500 rows, virtualised; sortable headers with filter menus, row selection checkboxes, a button per row, pagination with page size select",
      actions=(A("click", "button", "Service", "!!window.last"),
              A("type", "textbox", "Quick filter", "api.getDisplayedRowCount() < 500", "Golf"),)),
    P("tabulator", "vanilla", "staff", "/pages/tabulator.html",
      "row selection, header filters (input, list), editors, star and progress formatters, delete buttons, pagination with size select; a virtual-DOM table of 2000 rows",
      actions=(A("select", "combobox", "Page Size", "t.getPageSize() === 25", "25"),
              A("check", "checkbox", "Select Row", "t.getSelectedRows().length > 0"),)),
    P("handsontable", "vanilla", "budget", "/pages/handsontable.html",
      "spreadsheet with dropdown, numeric, checkbox and date columns, column dropdown menus, sorting",
      ready=f"{READY} && !!document.querySelector('.handsontable td')",
      actions=(A("check", "checkbox", "Unchecked", "hot.getDataAtCell(1, 3) === true"),)),
    P("gridjs", "vanilla", "customers", "/pages/gridjs.html", "search, sortable headers, pagination, a button per row",
      ready=f"{READY} && !!document.querySelector('.gridjs-tbody td')",
      actions=(A("click", "button", "Next", "document.querySelector('.gridjs-currentPage').textContent === '2'"),
              A("click", "button", "Edit", "!!window.last"),)),
    # Svelte 4 (compiled at start)
    P("svelte", "Svelte", "board", "/pages/svelte.html?c=Board",
      "kanban board: cards clickable as a whole, hover-revealed card tools, tabs", server="svelte",
      actions=(A("click", "tab", "Attendees", tab_on("Attendees")),)),
    P("svelte", "Svelte", "virtual-list", "/pages/svelte.html?c=Board",
      "a hand-made virtualised list of 1000 rows in a scroll box", server="svelte",
      after=(js_step("[...document.querySelectorAll('[role=tab]')][1].click();", "!!document.querySelector('.viewport .row')"),)),
    P("svelte", "Svelte", "settings", "/pages/svelte.html?c=Settings",
      "app shell (body overflow hidden, inner-scrolling main), custom listbox select, hidden-input checkboxes, ARIA slider, disclosure", server="svelte",
      actions=(A("check", "checkbox", "Push", "document.querySelectorAll('label.check input')[1].checked"),)),
    P("svelte", "Svelte", "listbox-open", "/pages/svelte.html?c=Settings", "the custom plan listbox open", server="svelte",
      after=(click("button.select", shown("[role=listbox]")),)),
    # Angular (bundled at start)
    P("angular-material", "Angular", "orders", "/pages/angular.html",
      "toolbar with menu button, sidenav nav list, tabs, form fields (input, select, autocomplete, datepicker), checkboxes, slide toggle, radio group, slider, buttons, table with sort headers, row buttons and paginator, expansion panels",
      server="angular",
      actions=(A("select", "combobox", "Country", "orderForm.value.country === 'de'", "Germany"),
              A("check", "checkbox", "Gift wrap", "orderForm.value.gift === true"),)),
    P("angular-material", "Angular", "select-open", "/pages/angular.html", "the country select open (options in a CDK overlay)",
      server="angular", after=(js_step(press("mat-select", "France"), shown(".mat-mdc-select-panel mat-option")),), settle=0.6),
    P("angular-material", "Angular", "menu-open", "/pages/angular.html", "the account menu open",
      server="angular", after=(js_step(press("button", "Account"), shown(".mat-mdc-menu-panel .mat-mdc-menu-item")),), settle=0.6),
    P("angular-material", "Angular", "dialog", "/pages/angular.html", "the confirm dialog open",
      server="angular", after=(js_step(press("button", "Place order"), shown("mat-dialog-container")),), settle=0.8),
    # Python data apps
    P("shiny", "Python", "dashboard", "/", "page_sidebar: selects, selectize, slider, date, checkbox, switch, radios, action button, nav tabs with a menu, table of action links, accordion",
      server="shiny", ready=f"{READY} && !!document.querySelector('#grid table') && !!document.querySelector('.irs')",
      actions=(A("check", "switch", "Dark mode", "Shiny.shinyapp.$inputValues['dark'] === true || Shiny.shinyapp.$inputValues['dark:shiny.switch'] === true"),
              A("click", "tab", "Notes", "document.querySelector('.nav-link.active[data-value=Notes]') !== null"),)),
    P("nicegui", "Python", "lab", "/", "header, drawer links, menu, tabs, inputs, selects, number, slider, checkbox, switch, radio, date, table with selection, expansion",
      server="nicegui", ready=f"{READY} && !!document.querySelector('.q-table tbody tr')",
      actions=(A("check", "switch", "Live view", "[...document.querySelectorAll('.q-toggle')].some(e => e.textContent.includes('Live view') && e.getAttribute('aria-checked') === 'true')"),
              A("click", "tab", "Results", has(".q-tab--active", "Results")),)),
    P("nicegui", "Python", "dialog", "/", "the start dialog open", server="nicegui",
      ready=f"{READY} && !!document.querySelector('.q-table tbody tr')",
      after=(js_step(press("button", "Start run"), shown(".q-dialog")),), settle=0.6),
    P("dash", "Python", "explorer", "/", "dropdowns (single, multi), range slider, slider, date picker, checklist, radio items, input, tabs, DataTable with selection, sort and filter",
      server="dash", ready=f"{READY} && !!document.querySelector('.dash-spreadsheet td')",
      actions=(A("click", "radio", "Line", checked("#kind input[value=Line]")),
              A("click", "button", "Apply", "document.getElementById('out').textContent === 'Applied 1 times'"),)),
)  # fmt: skip


# -- servers ------------------------------------------------------------------------------------------


@contextlib.contextmanager
def serve_static() -> Iterator[str]:
    if not NODE_MODULES.exists():
        raise RuntimeError(f"{NODE_MODULES} is missing: run `make corpus` (scripts/setup-corpus.sh)")
    with static_server({"/pages": PAGES_DIR, "/node_modules": NODE_MODULES}) as base:
        yield base


def venv_bin(name: str) -> str:
    path = VENV / "bin" / name
    if not path.exists():
        raise RuntimeError(f"{path} is missing: run `make corpus` (scripts/setup-corpus.sh)")
    return str(path)


@contextlib.contextmanager
def serve_python(script: str, probe: str = "/") -> Iterator[str]:
    """oracle/py/<script> with the port as its argument."""
    with temp_dir(script.removesuffix(".py")) as tmp:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        # Not PYTEST_CURRENT_TEST: NiceGUI switches to its test mode under pytest.
        cmd = ["env", "-u", "PYTEST_CURRENT_TEST", venv_bin("python"), str(HERE / "py" / script), str(port)]
        with process(cmd, base + probe, cwd=tmp, env={"MPLBACKEND": "Agg"}, timeout=90):
            yield base


@contextlib.contextmanager
def serve_built(name: str) -> Iterator[str]:
    """oracle/<name>/build.cjs run by node with the pinned compiler or bundler (Svelte's compiler,
    esbuild for Angular) into a temporary folder served at /<name>-build, beside the static pages."""
    with temp_dir(name) as tmp:
        subprocess.run(
            ["node", str(HERE / name / "build.cjs"), str(tmp)],
            check=True,
            capture_output=True,
            timeout=120,
        )
        with static_server(
            {"/pages": PAGES_DIR, "/node_modules": NODE_MODULES, f"/{name}-build": tmp}
        ) as base:
            yield base


SERVERS: dict[str, Callable[[], contextlib.AbstractContextManager[str]]] = {
    "static": serve_static,
    "svelte": lambda: serve_built("svelte"),
    "angular": lambda: serve_built("angular"),
    "shiny": lambda: serve_python("shiny_app.py"),
    "nicegui": lambda: serve_python("nicegui_app.py"),
    "dash": lambda: serve_python("dash_app.py"),
}
