"""Class mode's chart: how the room answered."""
import json

import altair as alt
import pandas as pd

from kit.charts import AGREE, BAR_STEP, GREY, WIDTH, Titles, builder, fit_width, number_axis


@builder("about_room_bars", data_free=True)
def room_bars(df: pd.DataFrame, titles: Titles, *, description: str | None = None) -> alt.VConcatChart:
    """How many students put each key first, one bar a key in the question's order, the revealed answer marked."""
    # df: key, k (its place in the question), students (the count), right (the revealed answer); the right bar is blue
    # and also says "right" in words, not by colour alone
    y = alt.Y("key:N", sort=alt.EncodingSortField("k", op="min"), title=titles.x,
              axis=alt.Axis(title=None, labelOverlap=False))
    tooltip = [alt.Tooltip("key:N", title=titles.x), alt.Tooltip("students:Q", title=titles.y)]
    base = alt.Chart(df).encode(y=y, x=alt.X("students:Q", title=titles.y, axis=number_axis(tickMinStep=1)),
                                tooltip=tooltip)
    bars = base.mark_bar().encode(color=alt.condition("datum.right", alt.value(AGREE["++"]), alt.value(GREY)))
    counts = base.mark_text(align="left", dx=4).encode(text=alt.Text("label:N")).transform_calculate(
        label=f"datum.students + (datum.right ? '  ' + {json.dumps(titles['right'])} : '')")
    return fit_width(alt.LayerChart(layer=[bars, counts], title=titles.title, height=alt.Step(BAR_STEP), width=WIDTH),
                     description)
