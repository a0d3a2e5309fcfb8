"""Page 3's charts: the signs of q and two keys side by side (a pair's products are kit/products.py's, which page 5
draws too)."""
import altair as alt
import pandas as pd

from kit.charts import PLOT_HEIGHT, WIDTH, Titles, builder, cell_signs, fit_width, signed, symmetric_domain

STRIP_STEP = 30  # pixels a strip of signs


@builder("about_sign_strips", data_free=True)
def sign_strips(df: pd.DataFrame, titles: Titles, *, description: str | None = None) -> alt.VConcatChart:
    """Vectors as coloured strips, one above the other in table order (field v), dimension by dimension."""
    # so matching signs line up, each cell marked with its sign; titles' y names the vectors in tooltips, their axis
    # showing only their names; STRIP_STEP pixels a vector
    x_title, value_title, vector_title = titles.x, titles.value, titles.y
    base = alt.Chart(df).encode(
        x=alt.X("dim:O", title=x_title),
        y=alt.Y("vector:N", sort=alt.EncodingSortField("v", op="min"), title=vector_title,
                axis=alt.Axis(title=None, labelOverlap=False)),
        tooltip=[alt.Tooltip("vector:N", title=vector_title), alt.Tooltip("dim:O", title=x_title),
                 alt.Tooltip("value:Q", title=value_title, format=".3f")],
    )
    rect = base.mark_rect().encode(
        color=signed("value", value_title, gradientLength=alt.ExprRef(f"max({PLOT_HEIGHT}, 50)")))
    top = symmetric_domain("value").expr + "[1]"
    signs = cell_signs(base, f"abs(datum.value) > 0.6 * {top}")  # white on the darker cells, as heatmap numbers
    return fit_width(alt.LayerChart(layer=[rect, signs], height=alt.Step(STRIP_STEP), width=WIDTH), description,
                     title=titles.title)  # above the whole: the colour bar beside the strips stays in
