"""A small Shiny for Python app (sidebar layout, nav tabs, inputs, a table), served on 127.0.0.1:<argv[1]>."""

import sys

import uvicorn
from shiny import App, render, ui

ROWS = [{"city": c, "sales": 100 + 17 * i, "region": "North" if i % 2 else "South"} for i, c in
        enumerate(["Oslo", "Lyon", "Porto", "Graz", "Turin", "Ghent", "Bern", "Cork", "Split", "Riga", "Pula", "Bath"])]  # fmt: skip

app_ui = ui.page_sidebar(
    ui.sidebar(
        ui.input_select("region", "Region", ["All", "North", "South"]),
        ui.input_selectize("cities", "Cities", [r["city"] for r in ROWS], multiple=True, selected=["Oslo"]),
        ui.input_slider("min", "Minimum sales", 0, 400, 120),
        ui.input_date("since", "Since", value="2026-01-01"),
        ui.input_checkbox("targets", "Show targets", True),
        ui.input_switch("dark", "Dark mode"),
        ui.input_radio_buttons("unit", "Unit", ["EUR", "USD"], inline=True),
        ui.input_action_button("refresh", "Refresh"),
        title="Filters",
    ),
    ui.navset_tab(
        ui.nav_panel("Table", ui.output_ui("grid")),
        ui.nav_panel("Notes", ui.input_text_area("notes", "Notes"), ui.input_numeric("goal", "Goal", 10)),
        ui.nav_menu("More", ui.nav_panel("About", "About this app"), ui.nav_panel("Help", "Help")),
    ),
    ui.accordion(
        ui.accordion_panel("Method", "Sums per city."), ui.accordion_panel("Sources", "Made up."), open=False
    ),
    ui.download_button("dl", "Download CSV"),
    title="Sales dashboard",
)


def server(input, output, session):
    @render.ui
    def grid():
        rows = [r for r in ROWS if input.region() in ("All", r["region"]) and r["sales"] >= input.min()]
        return ui.tags.table(
            ui.tags.thead(ui.tags.tr(ui.tags.th("City"), ui.tags.th("Sales"), ui.tags.th(""))),
            ui.tags.tbody(
                *[
                    ui.tags.tr(
                        ui.tags.td(r["city"]),
                        ui.tags.td(r["sales"]),
                        ui.tags.td(ui.input_action_link(f"open_{r['city']}", "Open")),
                    )
                    for r in rows
                ]
            ),
            class_="table table-hover",
        )

    @render.download(filename="sales.csv")
    def dl():
        yield "city,sales\n"


app = App(app_ui, server)
if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
