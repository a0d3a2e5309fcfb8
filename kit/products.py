"""A (query, key) pair's products dimension by dimension, coloured by sign group, with their running sum: the table,
the chart and the groups' names, drawn by page 3 for the learner's pair and by page 5 for a pair before and after
training."""
import json

import altair as alt
import numpy as np
import pandas as pd

from engine.alignment import PairAlignment
from kit.charts import COMPACT, END_LABEL, GROUP_COLOURS, Titles, builder, dataset, described, label_expr, level_title
from kit.narrow import columns
from kit.tables import dims
from kit.text import t

GROUPS = {"++": "group_++", "--": "group_--", "+-": "group_+-", "-+": "group_-+"}  # engine.alignment.GROUPS' names


def group_names() -> dict[str, str]:
    """The four sign groups' names."""
    return {g: t(GROUPS[g]) for g in GROUPS}


def alignment_frame(pair: PairAlignment, by_size: bool = False) -> pd.DataFrame:
    """Per-dimension products with sign group and running sum, in dimension order or largest |product| first."""
    order = np.argsort(-np.abs(pair.products), kind="stable") if by_size else np.arange(len(pair.products))
    return pd.DataFrame({
        "dim": np.asarray(dims(len(pair.products)))[order],
        "rank": np.arange(1, len(order) + 1),
        "product": pair.products[order],
        "group": pair.groups[order],
        "running": np.cumsum(pair.products[order]),
    })



# alignment_bars' page height: a 260-pixel plot, its title, the running sum's key above and the axis below, and the
# sign groups' key in one column of four, as a phone shows it (a wider box shows two columns, the plot takes the rest)
BARS_HEIGHT = 260 + 210


@builder("about_alignment_bars", height=lambda *frames: BARS_HEIGHT)
def alignment_bars(df: pd.DataFrame, titles: Titles, *, group_names: dict[str, str],
                   description: str | None = None) -> alt.Chart:
    """Per-dimension products q_i·k_i coloured by sign group, and their running sum as a line, on one y axis."""
    # bars and line share the legend and the y axis, so a bar and a point at the same height are the same number
    # The y range is the frame's y_lo … y_hi (with_alignment_domains: one range for every chart shown together; without
    # them the chart spans its own numbers), read in the browser, so a new sentence changes the chart's data and not its
    # spec.
    if "y_lo" not in df:
        (df,) = with_alignment_domains([df])
    x_title, y_title, group_title, running_title = titles.x, titles.y, titles["group"], titles["running"]
    base = alt.Chart().encode(x=alt.X("dim:N", sort=df["dim"].tolist(), title=x_title, axis=alt.Axis(labelAngle=-90)))
    scale = alt.Scale(domain=data_range("y"), nice=False)
    bars = base.mark_bar().encode(
        y=alt.Y("product:Q", title=f"{y_title} · {running_title}", scale=scale,
                axis=level_title(labelExpr=COMPACT, titleAlign="left", titleX=-24)),  # over the plot: no width taken
        color=alt.Color("group:N", title=group_title,
                        scale=alt.Scale(domain=list(GROUP_COLOURS), range=list(GROUP_COLOURS.values())),
                        legend=alt.Legend(labelExpr=label_expr(group_names), orient="bottom", columns=columns(2, 320))),
        tooltip=[alt.Tooltip("dim:N", title=x_title), alt.Tooltip("group:N", title=group_title),
                 alt.Tooltip("product:Q", title=y_title, format=".4f"),
                 alt.Tooltip("running:Q", title=running_title, format=".4f")],
    )
    line = base.transform_calculate(line=json.dumps(running_title)).mark_line(
        color="#444", point=alt.OverlayMarkDef(size=12, color="#444")).encode(
        y=alt.Y("running:Q", scale=scale, title=f"{y_title} · {running_title}"),
        strokeDash=alt.StrokeDash("line:N", title=running_title, scale=alt.Scale(range=[[1, 0]]),
                                  # above the plot: beside the sign groups below, it ran past a narrow chart's edge
                                  legend=alt.Legend(title=None, orient="top", symbolType="stroke")),
        tooltip=[alt.Tooltip("dim:N", title=x_title), alt.Tooltip("running:Q", title=running_title, format=".4f")],
    )
    # Data on the layer, not on each mark: Altair then neither hashes nor deep-copies it once per mark.
    axis_title = f"{y_title} · {running_title}"  # the one y axis, of bars and line alike
    chart = alt.layer(bars, line, _running_end(base, x_title, running_title, scale, axis_title), data=df,
                      title=titles.title)
    return described(chart.properties(width="container", height="container"), description)


def _running_end(base: alt.Chart, x_title: str, running_title: str, scale: alt.Scale, axis_title: str) -> alt.Chart:
    """The running sum's last value (the dot product) written beside the line's last point."""
    # so it reads off without the axis: above the point in the plot's lower half, below it in the upper half, ending at
    # the point so it stays inside the plot
    middle = "(datum.y_lo + datum.y_hi) / 2"
    gap = "(datum.y_hi - datum.y_lo) * 0.09"
    return base.transform_window(place="row_number()").transform_joinaggregate(points="count()").transform_filter(
        "datum.place == datum.points").transform_calculate(
        end=f"datum.running + ({gap}) * (datum.running > {middle} ? -1 : 1)", label=END_LABEL).mark_text(
        align="right", baseline="middle", fontSize=13, fontWeight="bold", color="#222").encode(
        y=alt.Y("end:Q", scale=scale, title=axis_title),  # no axis of its own: axis=None would hide the shared one
        text=alt.Text("label:N"),
        tooltip=[alt.Tooltip("dim:N", title=x_title), alt.Tooltip("running:Q", title=running_title, format=".4f")])


def data_range(field: str) -> alt.ExprRef:
    """[lo, hi] from the columns <field>_lo and <field>_hi of the first row of the chart's first DataFrame."""
    first = f"data('{dataset()}')[0]"
    return alt.ExprRef(f"[{first}.{field}_lo, {first}.{field}_hi]")


def with_alignment_domains(frames: list[pd.DataFrame]) -> list[pd.DataFrame]:
    """The frames with their shared y range (alignment_domain) as columns y_lo and y_hi, which alignment_bars reads."""
    lo, hi = alignment_domain(frames)
    return [df.assign(y_lo=lo, y_hi=hi) for df in frames]


def alignment_domain(frames: list[pd.DataFrame]) -> tuple[float, float]:
    """One y range for the products and the running sums of every frame, holding zero ((0, 1) when all are 0)."""
    values = [df[f].to_numpy() for df in frames for f in ("product", "running")]  # numpy: pandas' min is slow
    lo = min((float(np.min(v, initial=0.0)) for v in values), default=0.0)
    hi = max((float(np.max(v, initial=0.0)) for v in values), default=0.0)
    return (lo, hi) if hi > lo else (0.0, 1.0)
