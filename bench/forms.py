"""A whole form, as an agent fills it: a ten-field form (six text fields, a
textarea, a dropdown, a checkbox, a radio) filled by browserx's ``fill`` in one call, by the same
fields as ten single browserx calls (type/select/check), and by Playwright's ``fill``,
``select_option`` and ``check`` on the same page of the same Chromium (connected over CDP), the
three interleaved. Client-side wall time per whole form, ``--pause`` seconds between forms (an
agent's pace); each round checks the page's own state afterwards (every value is there).

    .venv-bench/bin/python bench/forms.py [--runs 20] [--pause 1.0]
"""

from __future__ import annotations

import time
from typing import Any

from harness import arg_parser, machine_info, spread
from one_page import one_page

from browserx import Client

TEXTS = ("First name", "Last name", "Email", "Phone", "Street", "City")
PAGE = (
    "<!doctype html><title>Form</title><form onsubmit='return false'>"
    + "".join(f"<label for='f{i}'>{n}</label> <input id='f{i}' name='f{i}'><br>" for i, n in enumerate(TEXTS))
    + "<label for='notes'>Notes</label> <textarea id='notes' name='notes'></textarea><br>"
    "<label for='country'>Country</label> <select id='country' name='country'><option>France</option>"
    "<option>Italy</option><option>Spain</option></select><br>"
    "<input type='checkbox' id='news' name='news'> <label for='news'>Newsletter</label>"
    "<input type='radio' id='std' name='ship' value='std'> <label for='std'>Standard</label>"
    "<input type='radio' id='exp' name='ship' value='exp'> <label for='exp'>Express</label>"
    "</form>"
)
READ_BACK = (
    "() => { const f = document.forms[0]; return [...Array(6).keys()].map(i => f['f' + i].value)"
    ".concat([f.notes.value, f.country.value, f.news.checked, f.ship.value]); }"
)
RESET = "() => document.forms[0].reset()"


def _values(round_no: int) -> dict[str, Any]:
    out: dict[str, Any] = {name: f"{name} {round_no}" for name in TEXTS}
    out.update({"Notes": f"note {round_no}", "Country": "Italy", "Newsletter": True, "Express": True})
    return out


def _expected(values: dict[str, Any]) -> list[Any]:
    return [values[n] for n in TEXTS] + [values["Notes"], "Italy", True, "exp"]


def _ids(bx: Client, tab: int) -> dict[str, int]:
    found: dict[str, int] = {}
    for line in bx.snapshot(tab=tab, max_tokens=0)["text"].splitlines():
        for name in (*TEXTS, "Notes", "Country", "Newsletter", "Express"):
            if f" {name}" in line and "[" in line and name not in found:
                found[name] = int(line.split("[", 1)[1].split("]", 1)[0])
    return found


def run(runs: int, pause: float) -> dict[str, list[float]]:
    with one_page("browserx-forms-", "form.html", PAGE) as on:
        bx, tab, page = on.bx, on.tab, on.page
        ids = _ids(bx, tab)
        times: dict[str, list[float]] = {
            "browserx fill": [],
            "browserx single calls": [],
            "playwright": [],
        }
        for round_no in range(runs + 2):  # two rounds to warm up, not counted
            for kind in times:
                page.evaluate(RESET)
                values = _values(round_no)
                time.sleep(pause)
                started = time.perf_counter()
                if kind == "browserx fill":
                    bx.fill([{"id": ids[n], "value": v} for n, v in values.items()], tab=tab)
                elif kind == "browserx single calls":
                    for name, value in values.items():
                        if isinstance(value, bool):
                            bx.check(ids[name], value, tab=tab)
                        elif name == "Country":
                            bx.select(ids[name], value, tab=tab)
                        else:
                            bx.type_text(ids[name], value, clear=True, blur=True, tab=tab)
                else:
                    for name, value in values.items():
                        field = page.get_by_label(name, exact=True)
                        if isinstance(value, bool):
                            field.check()
                        elif name == "Country":
                            field.select_option(label=value)
                        else:
                            field.fill(value)
                elapsed = (time.perf_counter() - started) * 1000
                state = page.evaluate(READ_BACK)
                if state != _expected(values):
                    raise RuntimeError(f"{kind} left the form as {state}, not {_expected(values)}")
                if round_no >= 2:
                    times[kind].append(elapsed)
    return times


def main() -> None:
    parser = arg_parser(__doc__, 20, "forms per way")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between forms (default 1.0)")
    args = parser.parse_args()
    times = run(args.runs, args.pause)
    print(f"# A ten-field form, client wall time per form (ms), {args.runs} forms, {args.pause} s apart")
    print(", ".join(f"{k}: {v}" for k, v in machine_info().items()))
    for kind, ms in times.items():
        print(f"{kind:24} {spread(ms)}")


if __name__ == "__main__":
    main()
