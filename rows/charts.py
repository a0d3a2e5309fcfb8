"""Page 1's chart: each word's row length and its position's, side by side."""
import altair as alt
import pandas as pd

from kit.charts import AGREE, GREY, Titles, builder, described, fit_width, number_axis

LENGTH_STEP = 17  # pixels a bar


@builder("about_length_bars", data_free=True)
def length_bars(df: pd.DataFrame, titles: Titles, *, description: str | None = None) -> alt.Chart:
    """Each word's GloVe row length beside its positional row length (titles' "part"), in sentence order."""
    # LENGTH_STEP pixels a bar: Vega-Lite's step is the offset's where there is one
    title, x_title, y_title, part_title = titles.title, titles.x, titles.y, titles["part"]
    return described(fit_width(alt.Chart(df, title=alt.Undefined if title is None else title).mark_bar().encode(
        y=alt.Y("row:N", sort=alt.EncodingSortField("r", op="min"), title=y_title,
                axis=alt.Axis(title=None, labelOverlap=False)),
        yOffset=alt.YOffset("part:N", title=part_title),
        x=alt.X("length:Q", title=x_title, axis=number_axis()),
        color=alt.Color("part:N", title=part_title, scale=alt.Scale(range=[AGREE["++"], GREY]),
                        legend=alt.Legend(orient="bottom")),
        tooltip=[alt.Tooltip("row:N", title=y_title), alt.Tooltip("part:N", title=part_title),
                 alt.Tooltip("length:Q", title=x_title, format=".3f")],
    ).properties(height=alt.Step(LENGTH_STEP))), description)
