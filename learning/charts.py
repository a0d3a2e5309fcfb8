"""Page 5's charts: the loss, each target pair's curves, held-out accuracy next to simple rules, and the vectors turning
in one plane."""
import json

import altair as alt
import numpy as np
import pandas as pd

from kit.charts import COMPACT, HEAD_COLOURS, Titles, builder, described, label_expr, level_title, number_axis, when

ROLE_COLOURS = {"q": "#7b3294", "k": "#1b7837"}  # query purple, key green: apart from the agree/disagree colours
FRAME = "frame"
SHOWN = "shown_step"  # the training step the vector plane's slider picks


@builder("about_loss_curve")
def loss_curve(df: pd.DataFrame, titles: Titles, *, steps: int | None = None,
               description: str | None = None) -> alt.Chart:
    """The loss at every training step; the x axis spans all `steps` so a run drawn live grows across it."""
    x_scale = alt.Scale(domain=[0, steps]) if steps else alt.Undefined
    x_title, y_title = titles.x, titles.y
    return described(alt.Chart(df, title=titles.title).mark_line(color="#444").encode(
        x=alt.X("step:Q", title=x_title, scale=x_scale, axis=number_axis()),
        y=alt.Y("loss:Q", title=y_title, scale=alt.Scale(zero=False), axis=level_title(labelExpr=COMPACT)),
        tooltip=[alt.Tooltip("step:Q", title=x_title), alt.Tooltip("loss:Q", title=y_title, format=".4f")],
    ).properties(width="container", height=220), description)


@builder("about_pair_curves")
def pair_curves(df: pd.DataFrame, titles: Titles, *, marker: int | None = None, columns: int = 2,
                angles: bool = False, description: str | None = None) -> alt.Chart:
    """One line per target pair over the training steps; a dashed rule at step `marker`, where the order was reached."""
    # with `angles`, the values are cosines whose tooltip also gives the angle in degrees (field "angle")
    pairs = list(dict.fromkeys(df["pair"]))
    x_title, y_title, pair_title = titles.x, titles.y, titles["pair"]
    lines = alt.Chart(df, title=titles.title).mark_line().encode(
        x=alt.X("step:Q", title=x_title, axis=number_axis()),
        y=alt.Y("value:Q", title=y_title, axis=level_title(labelExpr=COMPACT)),
        color=alt.Color("pair:N", sort=pairs, title=pair_title, scale=alt.Scale(range=HEAD_COLOURS),
                        legend=alt.Legend(orient="bottom", columns=columns, labelLimit=260)),
        tooltip=[alt.Tooltip("pair:N", title=pair_title), alt.Tooltip("step:Q", title=x_title),
                 alt.Tooltip("value:Q", title=y_title, format=".4f"),
                 *([alt.Tooltip("angle:Q", title=titles["angle"], format=".0f")] if angles else [])],
    )
    if marker is None:
        return described(lines.properties(width="container", height=220), description)
    rule = alt.Chart(pd.DataFrame({"step": [marker], "label": [titles.get("marker", "")]})).mark_rule(
        color="#444", strokeDash=[4, 3]).encode(
        x=alt.X("step:Q"), tooltip=[alt.Tooltip("label:N", title=pair_title), alt.Tooltip("step:Q", title=x_title)])
    return described(alt.layer(lines, rule).properties(width="container", height=220), description)


@builder("about_accuracy_curves", data_free=True)
def accuracy_curves(df: pd.DataFrame, levels: pd.DataFrame, titles: Titles, *, names: list[str],
                    steps: int | None = None, description: str | None = None) -> alt.LayerChart:
    """Accuracy (0 to 100 %) at every training step, a line per set of sentences, over dashed levels of simple rules."""
    # `names` in legend order: the first, the held-out one, bold and the others faint; levels labelled at the right;
    # the x axis spans all `steps` so a run drawn live grows across it
    x_scale = alt.Scale(domain=[0, steps]) if steps else alt.Undefined
    x_title, y_title, line_title = titles.x, titles.y, titles["line"]
    y = alt.Y("value:Q", title=y_title, scale=alt.Scale(domain=[0, 1]),
              axis=level_title(labelExpr=COMPACT, format="~%"))
    first = f"datum.line == {json.dumps(names[0] if names else '')}"
    lines = alt.Chart(df).mark_line().encode(
        x=alt.X("step:Q", title=x_title, scale=x_scale, axis=number_axis()), y=y,
        color=alt.Color("line:N", sort=names, title=line_title, scale=alt.Scale(domain=names, range=HEAD_COLOURS),
                        legend=alt.Legend(orient="bottom", labelLimit=260)),
        strokeWidth=when(alt.StrokeWidthValue, first, 2.5, 1.0),
        opacity=when(alt.OpacityValue, first, 1.0, 0.45),
        tooltip=[alt.Tooltip("line:N", title=line_title), alt.Tooltip("step:Q", title=x_title),
                 alt.Tooltip("value:Q", title=y_title, format=".1%")],
    )
    level = alt.Chart(levels).encode(y=y, tooltip=[alt.Tooltip("name:N", title=titles["level"]),
                                                   alt.Tooltip("value:Q", title=y_title, format=".1%")])
    rules = level.mark_rule(color="#555", strokeDash=[5, 4])
    labels = level.mark_text(align="right", baseline="top", dx=-4, dy=3, color="#444").encode(
        x=alt.value("width"), text=alt.Text("name:N"))  # under its line, where a run that beats the rule is not
    return described(alt.layer(rules, labels, lines, title=titles.title).properties(width="container", height=240),
                      description)  # the lines drawn last, over the levels


# The snapshot shown: the last one taken at or before the slider's step (field until: the next one's step).
AT_SHOWN = f"datum.step <= {SHOWN} && {SHOWN} < datum.until"


def _zero_lines(x_scale: alt.Scale, y_scale: alt.Scale, titles: Titles) -> tuple[alt.Chart, alt.Chart]:
    """The two axes through the origin: grey rules, passed over by a screen reader."""
    zero = alt.Chart(pd.DataFrame({"zero": [0.0]})).mark_rule(color="#bbb", aria=False)
    return (zero.encode(x=alt.X("zero:Q", scale=x_scale), tooltip=[alt.Tooltip("zero:Q", title=titles.x)]),
            zero.encode(y=alt.Y("zero:Q", scale=y_scale), tooltip=[alt.Tooltip("zero:Q", title=titles.y)]))


@builder("about_vector_plane")
def vector_plane(df: pd.DataFrame, titles: Titles, *, role_names: dict[str, str], size: int = 440,
                 description: str | None = None) -> alt.Chart:
    """Query and key vectors as arrows from the origin at the slider's step, highlighted ones labelled and trailed."""
    # the slider moves by the snapshots' spacing and, between two, shows the earlier; one range on both axes, so that
    # angles look true and frames compare
    frame, df = _step_slider(df, titles["slider"])
    role_title, word_title, step_title = (titles[name] for name in ("role", "word", "step"))
    x_scale, y_scale = _square_scales(df)
    roles = list(ROLE_COLOURS)
    tooltip = [alt.Tooltip("word:N", title=word_title), alt.Tooltip("role_name:N", title=role_title),
               alt.Tooltip("step:Q", title=step_title), alt.Tooltip("x:Q", title=titles.x, format=".3f"),
               alt.Tooltip("y:Q", title=titles.y, format=".3f")]
    # Colour and shape tell the role together: one legend, so the two legends' settings cannot conflict.
    legend = alt.Legend(labelExpr=label_expr(role_names), orient="bottom", symbolOpacity=1)
    base = alt.Chart(df).transform_calculate(
        role_name=f"{label_expr(role_names).replace('datum.value', 'datum.role')}", origin="0",
    ).encode(
        x=alt.X("x:Q", scale=x_scale, title=titles.x, axis=number_axis()),
        y=alt.Y("y:Q", scale=y_scale, title=titles.y, axis=level_title(labelExpr=COMPACT)),
        color=alt.Color("role:N", title=role_title, scale=alt.Scale(domain=roles, range=list(ROLE_COLOURS.values())),
                        legend=legend),
        tooltip=tooltip,
    )
    now = base.transform_filter(AT_SHOWN)
    axes, axes_y = _zero_lines(x_scale, y_scale, titles)
    trails = base.transform_filter("datum.focus").mark_line(opacity=0.35, strokeDash=[2, 2]).encode(
        detail=alt.Detail("name:N", title=word_title), order=alt.Order("step:Q", title=step_title))
    arrows = now.mark_rule().encode(
        x2=alt.X2("origin:Q"), y2=alt.Y2("origin:Q"),
        strokeWidth=when(alt.StrokeWidthValue, "datum.focus", 2.5, 1),
        opacity=when(alt.OpacityValue, "datum.focus", 0.9, 0.25))
    points = now.mark_point(filled=True).encode(
        shape=alt.Shape("role:N", title=role_title, scale=alt.Scale(domain=roles, range=["circle", "square"]),
                        legend=legend),
        size=when(alt.SizeValue, "datum.focus", 110, 35), opacity=when(alt.OpacityValue, "datum.focus", 1.0, 0.35))
    labels = now.transform_filter("datum.focus").mark_text(align="left", dx=7, dy=-7, fontSize=12).encode(
        y=alt.Y("label_y:Q", scale=y_scale), text=alt.Text("name:N", title=word_title))
    chart = alt.layer(axes, axes_y, trails, arrows, points, labels, _step_label(df, step_title), title=titles.title)
    return described(chart.add_params(frame).properties(width=size, height=size), description)


def _step_slider(df: pd.DataFrame, label: str) -> tuple[alt.Parameter, pd.DataFrame]:
    """The slider over training steps, and the frames with the step at which each is followed by the next (until)."""
    # it moves by the snapshots' common spacing
    steps = df.groupby(FRAME)["step"].first().sort_index()
    last = int(steps.iloc[-1])
    every = max(1, int(np.gcd.reduce(np.diff(steps.to_numpy(dtype=int)), initial=0)))
    frame = alt.param(name=SHOWN, value=last, bind=alt.binding_range(min=0, max=last, step=every, name=label))
    return frame, df.assign(until=df[FRAME].map(steps.shift(-1, fill_value=last + 1)))


def _step_label(df: pd.DataFrame, step_title: str) -> alt.Chart:
    """'step 120' in the plane's top left corner: the training step of the snapshot shown."""
    return alt.Chart(df).transform_filter(AT_SHOWN).transform_aggregate(
        step="max(step)").transform_calculate(label=f"{json.dumps(step_title)} + ' ' + datum.step").mark_text(
        align="left", baseline="top", fontSize=13, fontWeight="bold", color="#222").encode(
        x=alt.XValue(6), y=alt.YValue(6), text=alt.Text("label:N", title=step_title),
        tooltip=[alt.Tooltip("step:Q", title=step_title)])


def _square_scales(df: pd.DataFrame) -> tuple[alt.Scale, alt.Scale]:
    """Every frame and the origin in view, one span on both axes, and room on the right for the labels."""
    lo = [min(0.0, float(df[c].min())) for c in ("x", "y")]
    hi = [max(0.0, float(df[c].max())) for c in ("x", "y")]
    span = max(hi[0] - lo[0], hi[1] - lo[1], 1e-9)
    mid = [(lo[0] + hi[0]) / 2 + 0.1 * span, (lo[1] + hi[1]) / 2]
    x_scale, y_scale = (alt.Scale(domain=[c - 0.65 * span, c + 0.65 * span], nice=False) for c in mid)
    return x_scale, y_scale
