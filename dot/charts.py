"""Page 3's charts: a (query, key) pair's products dimension by dimension, with their running sum, and the signs of q
and two keys side by side."""
import json

import altair as alt
import numpy as np
import pandas as pd

from kit.charts import (
    COMPACT,
    END_LABEL,
    GROUP_COLOURS,
    PLOT_HEIGHT,
    Titles,
    builder,
    cell_signs,
    dataset,
    described,
    fit_width,
    label_expr,
    level_title,
    signed,
    symmetric_domain,
)

STRIP_STEP = 30  # pixels a strip of signs


@builder("about_alignment_bars")
def alignment_bars(df: pd.DataFrame, titles: Titles, *, group_names: dict[str, str],
                   description: str | None = None) -> alt.Chart:
    """Per-dimension products q_i·k_i coloured by sign group (titles' "group", each named in `group_names`), and their
    running sum (titles' "running") as a line on its own axis at the right, both in the legend. The y ranges are the
    frame's product_lo … running_hi (with_alignment_domains: one scale for every chart shown together; without them
    the chart spans its own numbers), read in the browser, so a new sentence changes the chart's data and not its
    spec."""
    if "product_lo" not in df:
        (df,) = with_alignment_domains([df])
    x_title, y_title, group_title, running_title = titles.x, titles.y, titles["group"], titles["running"]
    base = alt.Chart().encode(x=alt.X("dim:N", sort=df["dim"].tolist(), title=x_title, axis=alt.Axis(labelAngle=-90)))
    bars = base.mark_bar().encode(
        y=alt.Y("product:Q", title=y_title, scale=alt.Scale(domain=data_range("product"), nice=False),
                axis=level_title(labelExpr=COMPACT)),
        color=alt.Color("group:N", title=group_title,
                        scale=alt.Scale(domain=list(GROUP_COLOURS), range=list(GROUP_COLOURS.values())),
                        legend=alt.Legend(labelExpr=label_expr(group_names), orient="bottom", columns=2)),
        tooltip=[alt.Tooltip("dim:N", title=x_title), alt.Tooltip("group:N", title=group_title),
                 alt.Tooltip("product:Q", title=y_title, format=".4f"),
                 alt.Tooltip("running:Q", title=running_title, format=".4f")],
    )
    line = base.transform_calculate(line=json.dumps(running_title)).mark_line(
        color="#444", point=alt.OverlayMarkDef(size=12, color="#444")).encode(
        y=alt.Y("running:Q", title=running_title, scale=alt.Scale(domain=data_range("running"), nice=False),
                axis=level_title("right", labelExpr=COMPACT, grid=False)),
        strokeDash=alt.StrokeDash("line:N", title=running_title, scale=alt.Scale(range=[[1, 0]]),
                                  legend=alt.Legend(title=None, orient="bottom", symbolType="stroke")),
        tooltip=[alt.Tooltip("dim:N", title=x_title), alt.Tooltip("running:Q", title=running_title, format=".4f")],
    )
    # Data on the layer, not on each mark: Altair then neither hashes nor deep-copies it once per mark.
    chart = alt.layer(bars, line, _running_end(base, x_title, running_title), data=df,
                      title=titles.title).resolve_scale(y="independent")
    return described(chart.properties(width="container", height=260), description)


def _running_end(base: alt.Chart, x_title: str, running_title: str) -> alt.Chart:
    """The running sum's last value (the dot product) written beside the line's last point, so it reads off without
    the axis: above the point in the lower half of the plot, below it in the upper half, ending at the point so it
    stays inside the plot. On the running sum's scale, without an axis of its own."""
    middle = "(datum.running_lo + datum.running_hi) / 2"
    gap = "(datum.running_hi - datum.running_lo) * 0.09"
    return base.transform_window(place="row_number()").transform_joinaggregate(points="count()").transform_filter(
        "datum.place == datum.points").transform_calculate(
        end=f"datum.running + ({gap}) * (datum.running > {middle} ? -1 : 1)", label=END_LABEL).mark_text(
        align="right", baseline="middle", fontSize=13, fontWeight="bold", color="#222").encode(
        y=alt.Y("end:Q", scale=alt.Scale(domain=data_range("running"), nice=False), axis=None),
        text=alt.Text("label:N"),
        tooltip=[alt.Tooltip("dim:N", title=x_title), alt.Tooltip("running:Q", title=running_title, format=".4f")])


def data_range(field: str) -> alt.ExprRef:
    """[lo, hi] from the columns <field>_lo and <field>_hi of the first row of the chart's first DataFrame."""
    first = f"data('{dataset()}')[0]"
    return alt.ExprRef(f"[{first}.{field}_lo, {first}.{field}_hi]")


def with_alignment_domains(frames: list[pd.DataFrame]) -> list[pd.DataFrame]:
    """The frames with their shared y ranges (alignment_domains) as columns product_lo, product_hi, running_lo and
    running_hi, which alignment_bars reads."""
    domain = alignment_domains(frames)
    ends = {f"{field}_{end}": domain[field][i] for field in domain for i, end in enumerate(("lo", "hi"))}
    return [df.assign(**ends) for df in frames]


def alignment_domains(frames: list[pd.DataFrame]) -> dict[str, list[float]]:
    """One y range for the products and one for the running sums of every frame, each holding zero, with zero at the
    same height on both: a bar and the line above that level are both positive."""
    values = {f: [df[f].to_numpy() for df in frames] for f in ("product", "running")}  # numpy: pandas' min is slow
    lo = {f: min(float(np.min(v, initial=0.0)) for v in vs) if vs else 0.0 for f, vs in values.items()}
    hi = {f: max(float(np.max(v, initial=0.0)) for v in vs) if vs else 0.0 for f, vs in values.items()}
    span = {f: (hi[f] - lo[f]) or 1.0 for f in lo}
    up, down = (max(share[f] / span[f] for f in span) for share in (hi, {f: -v for f, v in lo.items()}))
    if up + down == 0:  # every number is 0
        up = 1.0
    size = {f: max(hi[f] / up if up else 0.0, -lo[f] / down if down else 0.0) or 1.0 for f in span}
    return {f: [-down * size[f], up * size[f]] for f in span}


@builder("about_sign_strips", data_free=True)
def sign_strips(df: pd.DataFrame, titles: Titles, *, description: str | None = None) -> alt.Chart:
    """Vectors as coloured strips, one above the other in table order (field v, titles' y: its axis shows only their
    names), dimension by dimension, so matching signs line up, each cell marked with its sign; STRIP_STEP pixels a
    vector."""
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
    return described(fit_width(alt.layer(rect, signs, title=titles.title).properties(height=alt.Step(STRIP_STEP))),
                     description)
