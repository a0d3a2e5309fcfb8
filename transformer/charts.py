"""Page 8's chart: every head of every layer of the real model as one grid of small word-level heatmaps."""
import altair as alt
import pandas as pd

from kit.charts import PICK, WIDTH, Titles, builder, fit_width, sequential, when
from kit.narrow import on_narrow

GRID_HEIGHT = 600  # pixels for 6 layers: a head's box about 100 pixels high, as wide as a twelfth of the page
NAME_SIZE = 11
# a head's name in its box: "L3-H2", or "H2" where twelve boxes share a phone's width (its row is its layer, from 1 at
# the top, as the page says; the tooltip and the heads' list name it whole)
SHORT_NAME = on_narrow("replace(datum.head, /^L[0-9]+-/, '')", "datum.head")
# Each mark as it comes: no description for a screen reader (on a canvas none reaches a mark; the chart keeps its
# accessible name) and no check that its numbers are valid (they always are), both an expression per cell that Vega
# interprets on every redraw under the site's policy
QUIET = {"aria": False, "invalid": None}


@builder("about_head_grid", data_free=True)
def head_grid(boxes: pd.DataFrame, cells: pd.DataFrame, titles: Titles, *,
              description: str | None = None) -> alt.VConcatChart:
    """tables.grid_table drawn: a box per head, named atop, framed while picked, its cells coloured by weight from 0."""
    # boxes span x0–x1 × y0–y1 in head and layer units (12 × 6): heads read left to right, layers top to bottom;
    # clicking a box or a cell selects its head (PICK, by head)
    # drawn on a canvas: a long sentence has tens of thousands of cells, which an SVG draws too slowly (see QUIET)
    x = alt.Scale(domain=[0, 12], nice=False, zero=False)
    y = alt.Scale(domain=[0, 6], nice=False, zero=False, reverse=True)
    head = alt.Tooltip("head:N", title=titles["head"])
    about = [head, alt.Tooltip("parked:Q", title=titles["parked"], format=".0%"),
             alt.Tooltip("held:Q", title=titles["held"], format=".1%")]
    place = {"x": alt.X("x0:Q", scale=x, axis=None), "x2": alt.X2("x1:Q"),
             "y": alt.Y("y0:Q", scale=y, axis=None), "y2": alt.Y2("y1:Q")}
    framed = alt.Chart(boxes, name="grid_boxes").mark_rect(fill="white", **QUIET).encode(
        **place, stroke=when(alt.StrokeValue, "datum.picked", "#222222", "#bbbbbb"),
        strokeWidth=when(alt.StrokeWidthValue, "datum.picked", 3, 1), tooltip=about).add_params(
        alt.selection_point(name=PICK, fields=["head"], on="click", clear=False))  # the layers share one scope: a
    # click on a cell or a name selects too (a second layer's param would duplicate its signals)
    weights = alt.Chart(cells, name="grid_cells").mark_rect(**QUIET).encode(
        **place, color=sequential("weight", titles.value, gradientLength=160),
        tooltip=[head, alt.Tooltip("query:N", title=titles["query"]), alt.Tooltip("key:N", title=titles["key"]),
                 alt.Tooltip("weight:Q", title=titles.value, format=".3f")])
    names = alt.Chart(boxes, name="grid_names").mark_text(
        baseline="middle", fontSize=NAME_SIZE, text=alt.ExprRef(SHORT_NAME), **QUIET).encode(
        x=alt.X("middle:Q", scale=x, axis=None), y=alt.Y("band:Q", scale=y, axis=None),
        color=when(alt.ColorValue, "datum.picked", "#000000", "#555555"), tooltip=about)
    plot = alt.LayerChart(layer=[framed, weights, names], height=GRID_HEIGHT, width=WIDTH)
    top = {"usermeta": {"embedOptions": {"renderer": "canvas"}}} | ({} if titles.title is None else
                                                                    {"title": titles.title})
    return fit_width(plot, description, **top)
