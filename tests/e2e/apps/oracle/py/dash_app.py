"""A small Dash app (React components from dash's own bundles, Flask server): dropdowns, a range
slider, a date picker, checklist, radio items, tabs, a DataTable; served on 127.0.0.1:<argv[1]>."""

import sys

from dash import Dash, Input, Output, dash_table, dcc, html

ROWS = [{"country": c, "pop": 5 + 3 * i, "continent": "Europe" if i % 2 else "Asia"} for i, c in
        enumerate(["Norway", "Japan", "Spain", "Korea", "Italy", "India", "Chile", "Nepal", "Peru", "Laos", "Mali", "Oman"])]  # fmt: skip

app = Dash(__name__, title="Population explorer")
app.layout = html.Div(
    [
        html.H1("Population explorer"),
        html.Label("Continent", htmlFor="continent"),
        dcc.Dropdown(["Europe", "Asia", "Africa"], "Europe", id="continent"),
        html.Label("Countries"),
        dcc.Dropdown([r["country"] for r in ROWS], ["Norway", "Spain"], multi=True, id="countries"),
        html.Label("Population range"),
        dcc.RangeSlider(0, 50, 5, value=[5, 30], id="range"),
        html.Label("Year"),
        dcc.Slider(1990, 2030, 10, value=2020, id="year"),
        dcc.DatePickerSingle(id="day", date="2026-12-01"),
        dcc.Checklist(["Log scale", "Show labels"], ["Show labels"], id="opts", inline=True),
        dcc.RadioItems(["Bar", "Line"], "Bar", id="kind", inline=True),
        dcc.Input(id="search", type="text", placeholder="Search countries"),
        html.Button("Apply", id="apply", n_clicks=0),
        dcc.Tabs(
            id="tabs",
            value="table",
            children=[
                dcc.Tab(
                    label="Table",
                    value="table",
                    children=[
                        dash_table.DataTable(
                            ROWS,
                            [{"name": k, "id": k} for k in ("country", "pop", "continent")],
                            sort_action="native",
                            filter_action="native",
                            row_selectable="multi",
                            page_size=6,
                            id="table",
                        ),
                    ],
                ),
                dcc.Tab(label="About", value="about", children=[html.P("Made-up numbers.")]),
            ],
        ),
        html.Div(id="out"),
        html.A("Source", href="#source"),
    ]
)


@app.callback(Output("out", "children"), Input("apply", "n_clicks"))
def applied(n: int) -> str:
    return f"Applied {n} times"


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(sys.argv[1]), debug=False)
