"""A small NiceGUI app (Vue + Quasar under the hood, driven over a websocket): header, drawer, tabs,
inputs, a table with selection, an expansion and a dialog; served on 127.0.0.1:<argv[1]>."""

import sys

from nicegui import app, ui

ROWS = [{"id": i, "name": n, "age": 20 + 3 * i} for i, n in enumerate(["Alice", "Bob", "Carol", "Dan", "Eve", "Finn", "Gus", "Hal"])]  # fmt: skip


@ui.page("/")
def index() -> None:
    with ui.header().classes("items-center"):
        ui.button("Menu", on_click=lambda: drawer.toggle()).props("flat color=white")
        ui.label("Lab console").classes("text-h6")
        ui.space()
        with ui.button("Account").props("flat color=white"), ui.menu():
            ui.menu_item("Profile")
            ui.menu_item("Sign out")
    with ui.left_drawer() as drawer:
        ui.link("Experiments", "#experiments")
        ui.link("Samples", "#samples")
        ui.link("Reports", "#reports")
    with ui.tabs() as tabs:
        ui.tab("Setup")
        ui.tab("Results")
    with ui.tab_panels(tabs, value="Setup").classes("w-full"), ui.tab_panel("Setup"):
        ui.input("Experiment name", value="Growth curve")
        ui.select(["Petri", "Flask", "Plate"], label="Vessel", value="Flask").classes("w-64")
        ui.select(["E. coli", "Yeast", "Algae"], label="Organisms", multiple=True, value=["Yeast"]).classes(
            "w-64"
        )
        ui.number("Temperature", value=37)
        ui.label("Stirring speed")
        ui.slider(min=0, max=1000, value=300).classes("w-64")
        ui.checkbox("Log to file", value=True)
        ui.switch("Live view")
        ui.radio(["Manual", "Scheduled"], value="Manual").props("inline")
        ui.date(value="2026-12-01")
        with ui.row():
            ui.button("Start run", on_click=lambda: dialog.open())
            ui.button("Reset").props("outline")
    with ui.expansion("Calibration"):
        ui.label("Last calibrated yesterday.")
    ui.table(columns=[{"name": "name", "label": "Name", "field": "name", "sortable": True},
                      {"name": "age", "label": "Age", "field": "age", "sortable": True}],
             rows=ROWS, row_key="id", selection="multiple", pagination=5)  # fmt: skip
    with ui.dialog() as dialog, ui.card():
        ui.label("Start the run now?")
        ui.checkbox("Email me when done")
        with ui.row():
            ui.button("Cancel", on_click=dialog.close)
            ui.button("Start", on_click=dialog.close)


app.native.start_args = {}
ui.run(
    host="127.0.0.1",
    port=int(sys.argv[1]),
    show=False,
    reload=False,
    title="Lab console",
    show_welcome_message=False,
)
