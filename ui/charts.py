"""Pure chart builders: long-form DataFrame -> alt.Chart. No streamlit here.

Builders in DATA_FREE put no number, word or count from their frames into the spec: order comes from position fields,
heights from a step per row, colour ranges from an expression the browser evaluates on the data. Their spec is then
the same for every sentence, so the page builds it once and the browser swaps the data of the chart it already drew."""
import altair as alt
import pandas as pd

AGREE = {"++": "#2166ac", "--": "#67a9cf"}  # signs agree: blues, as positive values on every heatmap
DISAGREE = {"+-": "#ef8a62", "-+": "#b2182b"}  # signs differ: reds, as negative values
GROUP_COLOURS = {**AGREE, **DISAGREE}
MASKED = "#d9d9d9"
PICK = "pick"
MAX_ANNOTATED = 12  # columns up to which heatmap cells carry their numbers
ROW_STEP = 26  # pixels per heatmap row
DATA_FREE = frozenset({"heatmap", "weight_bars", "contribution_bars"})


def dataset(i: int = 0) -> str:
    """The name a chart's i-th DataFrame travels under (page.vega_lite names them so); expressions read it by name."""
    return f"data-{i}"


def symmetric_domain(field: str) -> alt.ExprRef:
    """[-m, m] for m the largest |field| in the chart's first DataFrame (1 if all are 0), worked out in the browser."""
    lo_hi = f"extent(pluck(data('{dataset()}'), '{field}'))"
    m = f"(max(abs({lo_hi}[0]), abs({lo_hi}[1])) || 1)"
    return alt.ExprRef(f"[-{m}, {m}]")


def signed(field: str, title: str) -> alt.Color:
    """Diverging red-blue colour, blue positive and red negative, symmetric about zero: a weight of 0 is white, not the
    red end of an all-positive scale, and equal sizes look equally strong."""
    scale = alt.Scale(scheme="redblue", domainMid=0, domain=symmetric_domain(field))
    return alt.Color(f"{field}:Q", title=title, scale=scale, legend=alt.Legend(orient="right", gradientLength=120))


def sequential(field: str, title: str) -> alt.Color:
    """White at 0 to dark blue at the chart's largest value (1 if all are 0): for weights, which are never negative."""
    top = f"(extent(pluck(data('{dataset()}'), '{field}'))[1] || 1)"
    scale = alt.Scale(scheme="blues", domain=alt.ExprRef(f"[0, {top}]"))
    return alt.Color(f"{field}:Q", title=title, scale=scale, legend=alt.Legend(orient="right", gradientLength=120))


def _when(channel, test: str, then, otherwise):
    """A value channel that is `then` where `test` holds, else `otherwise`: what alt.condition gives for two values,
    but typed, so encode() need not match a plain dict against the schema (that matching cost ~15 ms a channel)."""
    return channel(otherwise, condition={"test": test, "value": then})


def heatmap(df: pd.DataFrame, *, title: str, x_title: str, y_title: str, value_title: str,
            clickable: bool = False, annotate: bool = True, masked: bool = False, outlined: bool = False,
            x_ticks: list | None = None, y_ticks: list | None = None, height: int | None = None,
            masked_label: str = "masked", weights: bool = False) -> alt.Chart:
    """Rows are words in table order (field r), columns likewise (c); signed values on a diverging scale (attention
    weights, never negative, with `weights` on a sequential one from 0), with their numbers when `annotate`; with `masked`, masked cells grey; with `outlined`, the selected row outlined. Axes label
    the given ticks, else every label that fits. ROW_STEP pixels a row unless `height`."""
    def axis(ticks, **kw):
        return alt.Axis(values=ticks, **kw) if ticks else alt.Axis(labelOverlap=True, **kw)

    tooltip = [alt.Tooltip("row:N", title=y_title), alt.Tooltip("col:N", title=x_title),
               alt.Tooltip("value:Q", title=value_title, format=".3f")]
    base = alt.Chart(df, title=title).encode(
        x=alt.X("col:O" if pd.api.types.is_integer_dtype(df["col"]) else "col:N", title=x_title,
                sort=alt.EncodingSortField("c", op="min"), axis=axis(x_ticks, labelAngle=0)),
        y=alt.Y("row:O" if pd.api.types.is_integer_dtype(df["row"]) else "row:N", title=y_title,
                sort=alt.EncodingSortField("r", op="min"), axis=axis(y_ticks)),
        tooltip=tooltip,
    )
    colour = (sequential if weights else signed)("value", value_title).legend(
        orient="right", gradientLength=alt.ExprRef("clamp(height - 20, 40, 120)"))
    rect = base.mark_rect().encode(color=alt.condition("datum.masked", alt.value(MASKED), colour) if masked else colour)
    if outlined:
        rect = rect.encode(stroke=_when(alt.StrokeValue, "datum.selected", "black", None),
                           strokeWidth=_when(alt.StrokeWidthValue, "datum.selected", 2, 0))
    if clickable:
        rect = rect.add_params(alt.selection_point(name=PICK, fields=["row", "col"], on="click", clear=False))
    layers = [rect]
    if annotate:
        number = alt.Text("value:Q", format=".2f")
        layers.append(base.mark_text(fontSize=11).encode(
            text=alt.condition("datum.masked", alt.value(masked_label), number) if masked else number,
            color=_when(alt.ColorValue, "datum.strong && !datum.masked" if masked else "datum.strong", "white", "#222"),
        ))
    return alt.layer(*layers).properties(width="container", height=height or alt.Step(ROW_STEP))


def weight_bars(df: pd.DataFrame, *, title: str | None, x_title: str, y_title: str, weights: bool = True) -> alt.Chart:
    """The query's weight on each key word, in sentence order (field k); sequential colours from 0 for softmax
    weights, diverging ones when the softmax is off and raw scores can be negative."""
    return alt.Chart(df, title=title).mark_bar().encode(
        x=alt.X("key:N", sort=alt.EncodingSortField("k", op="min"), title=x_title,
                axis=alt.Axis(labelAngle=-45, labelOverlap=False)),
        y=alt.Y("weight:Q", title=y_title),
        color=alt.condition("datum.masked", alt.value(MASKED), (sequential if weights else signed)("weight", y_title)),
        tooltip=[alt.Tooltip("key:N", title=x_title), alt.Tooltip("weight:Q", title=y_title, format=".4f")],
    ).properties(width="container", height=180)


def contribution_bars(df: pd.DataFrame, z_row: pd.DataFrame, *, title: str | None, x_title: str, y_title: str,
                      key_title: str, z_title: str, weight_title: str) -> alt.Chart:
    """Stacked weighted value rows per dimension in sentence order (field k), with the query's row of Z as ticks."""
    bars = alt.Chart(df, title=title).mark_bar().encode(
        x=alt.X("dim:O", title=x_title),
        y=alt.Y("sum(contribution):Q", title=y_title),
        color=alt.Color("key:N", sort=alt.EncodingSortField("k", op="min"), title=key_title,
                        scale=alt.Scale(scheme="tableau10")),
        order=alt.Order("k:Q"),
        tooltip=[alt.Tooltip("key:N", title=key_title), alt.Tooltip("dim:O", title=x_title),
                 alt.Tooltip("weight:Q", title=weight_title, format=".3f"),
                 alt.Tooltip("contribution:Q", title=y_title, format=".4f")],
    )
    ticks = alt.Chart(z_row).mark_tick(color="black", thickness=2, size=14).encode(
        x=alt.X("dim:O"), y=alt.Y("z:Q"),
        tooltip=[alt.Tooltip("dim:O", title=x_title), alt.Tooltip("z:Q", title=z_title, format=".4f")],
    )
    return alt.layer(bars, ticks).properties(width="container", height=260)


def alignment_bars(df: pd.DataFrame, *, title: str, x_title: str, y_title: str, group_title: str,
                   group_names: dict[str, str], running_title: str) -> alt.Chart:
    """Per-dimension products q_i·k_i coloured by sign group, with the running sum as a line."""
    base = alt.Chart().encode(x=alt.X("dim:N", sort=df["dim"].tolist(), title=x_title, axis=alt.Axis(labelAngle=-90)))
    bars = base.mark_bar().encode(
        y=alt.Y("product:Q", title=y_title),
        color=alt.Color("group:N", title=group_title,
                        scale=alt.Scale(domain=list(GROUP_COLOURS), range=list(GROUP_COLOURS.values())),
                        legend=alt.Legend(labelExpr=_label_expr(group_names), orient="bottom", columns=2)),
        tooltip=[alt.Tooltip("dim:N", title=x_title), alt.Tooltip("group:N", title=group_title),
                 alt.Tooltip("product:Q", title=y_title, format=".4f"),
                 alt.Tooltip("running:Q", title=running_title, format=".4f")],
    )
    line = base.mark_line(color="#444", point=alt.OverlayMarkDef(size=12, color="#444")).encode(
        y=alt.Y("running:Q"),
        tooltip=[alt.Tooltip("dim:N", title=x_title), alt.Tooltip("running:Q", title=running_title, format=".4f")],
    )
    # Data on the layer, not on each mark: Altair then neither hashes nor deep-copies it once per mark.
    return alt.layer(bars, line, data=df, title=title).properties(width="container", height=260)


def sign_strips(df: pd.DataFrame, *, title: str, x_title: str, value_title: str, vector_title: str) -> alt.Chart:
    """Vectors as coloured strips, one above the other, dimension by dimension, so matching signs line up."""
    vectors = list(dict.fromkeys(df["vector"]))
    height = max(50, 30 * len(vectors))
    return alt.Chart(df, title=title).mark_rect().encode(
        x=alt.X("dim:O", title=x_title),
        y=alt.Y("vector:N", sort=vectors, title=None, axis=alt.Axis(labelOverlap=False)),
        color=signed("value", value_title).legend(orient="right", gradientLength=height),
        tooltip=[alt.Tooltip("vector:N", title=vector_title), alt.Tooltip("dim:O", title=x_title),
                 alt.Tooltip("value:Q", title=value_title, format=".3f")],
    ).properties(width="container", height=height)


def relevance_bars(df: pd.DataFrame, *, title: str, x_title: str, y_title: str, rank_title: str) -> alt.Chart:
    """One measure's scores for the query as horizontal bars, the most relevant word on top."""
    order = df.sort_values("score", ascending=False, kind="stable")["key"].tolist()
    return alt.Chart(df, title=title).mark_bar().encode(
        y=alt.Y("key:N", sort=order, title=None, axis=alt.Axis(labelOverlap=False)),
        x=alt.X("score:Q", title=x_title),
        color=signed("score", x_title).legend(None),
        tooltip=[alt.Tooltip("key:N", title=y_title), alt.Tooltip("score:Q", title=x_title, format=".4f"),
                 alt.Tooltip("rank:O", title=rank_title)],
    ).properties(width="container", height=max(60, 26 * len(order)))


ROLE_COLOURS = {"q": "#7b3294", "k": "#1b7837"}  # query purple, key green: apart from the agree/disagree colours
FRAME = "frame"


def loss_curve(df: pd.DataFrame, *, title: str, x_title: str, y_title: str, steps: int | None = None) -> alt.Chart:
    """The loss at every training step; the x axis spans all `steps` so a run drawn live grows across it."""
    x_scale = alt.Scale(domain=[0, steps]) if steps else alt.Undefined
    return alt.Chart(df, title=title).mark_line(color="#444").encode(
        x=alt.X("step:Q", title=x_title, scale=x_scale),
        y=alt.Y("loss:Q", title=y_title, scale=alt.Scale(zero=False)),
        tooltip=[alt.Tooltip("step:Q", title=x_title), alt.Tooltip("loss:Q", title=y_title, format=".4f")],
    ).properties(width="container", height=220)


def pair_curves(df: pd.DataFrame, *, title: str, x_title: str, y_title: str, pair_title: str,
                marker: int | None = None, marker_title: str = "") -> alt.Chart:
    """One line per target pair over the training steps; a dashed rule where the target order was reached."""
    pairs = list(dict.fromkeys(df["pair"]))
    lines = alt.Chart(df, title=title).mark_line().encode(
        x=alt.X("step:Q", title=x_title),
        y=alt.Y("value:Q", title=y_title),
        color=alt.Color("pair:N", sort=pairs, title=pair_title, scale=alt.Scale(scheme="tableau10"),
                        legend=alt.Legend(orient="bottom", columns=2, labelLimit=260)),
        tooltip=[alt.Tooltip("pair:N", title=pair_title), alt.Tooltip("step:Q", title=x_title),
                 alt.Tooltip("value:Q", title=y_title, format=".4f")],
    )
    if marker is None:
        return lines.properties(width="container", height=220)
    rule = alt.Chart(pd.DataFrame({"step": [marker], "label": [marker_title]})).mark_rule(
        color="#444", strokeDash=[4, 3]).encode(
        x=alt.X("step:Q"), tooltip=[alt.Tooltip("label:N", title=pair_title), alt.Tooltip("step:Q", title=x_title)])
    return alt.layer(lines, rule).properties(width="container", height=220)


def vector_plane(df: pd.DataFrame, *, title: str, x_title: str, y_title: str, role_title: str,
                 role_names: dict[str, str], word_title: str, step_title: str, slider_label: str,
                 size: int = 440) -> alt.Chart:
    """Query and key vectors as arrows from the origin at the snapshot a slider picks, the highlighted ones labelled and
    trailed by their path. Both axes share one fixed range, so angles look true and frames compare."""
    last = int(df[FRAME].max())
    frame = alt.param(name=FRAME, value=last, bind=alt.binding_range(min=0, max=last, step=1, name=slider_label))
    # every frame and the origin in view, one span on both axes, and room on the right for the labels
    lo = [min(0.0, float(df[c].min())) for c in ("x", "y")]
    hi = [max(0.0, float(df[c].max())) for c in ("x", "y")]
    span = max(hi[0] - lo[0], hi[1] - lo[1], 1e-9)
    mid = [(lo[0] + hi[0]) / 2 + 0.1 * span, (lo[1] + hi[1]) / 2]
    x_scale, y_scale = (alt.Scale(domain=[c - 0.65 * span, c + 0.65 * span], nice=False) for c in mid)
    roles = list(ROLE_COLOURS)
    tooltip = [alt.Tooltip("word:N", title=word_title), alt.Tooltip("role_name:N", title=role_title),
               alt.Tooltip("step:Q", title=step_title), alt.Tooltip("x:Q", title=x_title, format=".3f"),
               alt.Tooltip("y:Q", title=y_title, format=".3f")]
    base = alt.Chart(df).transform_calculate(
        role_name=f"{_label_expr(role_names).replace('datum.value', 'datum.role')}", origin="0",
    ).encode(
        x=alt.X("x:Q", scale=x_scale, title=x_title), y=alt.Y("y:Q", scale=y_scale, title=y_title),
        color=alt.Color("role:N", title=role_title, scale=alt.Scale(domain=roles, range=list(ROLE_COLOURS.values())),
                        legend=alt.Legend(labelExpr=_label_expr(role_names), orient="bottom", symbolOpacity=1)),
        tooltip=tooltip,
    )
    now = base.transform_filter(f"datum.{FRAME} == {FRAME}")
    zero = alt.Chart(pd.DataFrame({"zero": [0.0]})).mark_rule(color="#bbb")
    axes = zero.encode(x=alt.X("zero:Q", scale=x_scale), tooltip=[alt.Tooltip("zero:Q", title=x_title)])
    axes_y = zero.encode(y=alt.Y("zero:Q", scale=y_scale), tooltip=[alt.Tooltip("zero:Q", title=y_title)])
    trails = base.transform_filter("datum.focus").mark_line(opacity=0.35, strokeDash=[2, 2]).encode(
        detail="name:N", order="step:Q")
    arrows = now.mark_rule().encode(
        x2=alt.X2("origin:Q"), y2=alt.Y2("origin:Q"),
        strokeWidth=_when(alt.StrokeWidthValue, "datum.focus", 2.5, 1),
        opacity=_when(alt.OpacityValue, "datum.focus", 0.9, 0.25))
    points = now.mark_point(filled=True).encode(
        shape=alt.Shape("role:N", scale=alt.Scale(domain=roles, range=["circle", "square"]), legend=None),
        size=_when(alt.SizeValue, "datum.focus", 110, 35),
        opacity=_when(alt.OpacityValue, "datum.focus", 1.0, 0.35))
    labels = now.transform_filter("datum.focus").mark_text(align="left", dx=7, dy=-7, fontSize=12).encode(text="name:N")
    step = alt.Chart(df).transform_filter(f"datum.{FRAME} == {FRAME}").transform_aggregate(
        step="max(step)").transform_calculate(label=f"{step_title!r} + ' ' + datum.step").mark_text(
        align="left", baseline="top", fontSize=13, fontWeight="bold", color="#222").encode(
        x=alt.XValue(6), y=alt.YValue(6), text="label:N", tooltip=[alt.Tooltip("step:Q", title=step_title)])
    return (alt.layer(axes, axes_y, trails, arrows, points, labels, step, title=title).add_params(frame)
            .properties(width=size, height=size))


def _label_expr(names: dict[str, str]) -> str:
    """A Vega expression mapping legend values to their display names."""
    cases = " : ".join(f"datum.value == {k!r} ? {v!r}" for k, v in names.items())
    return f"{cases} : datum.value"


def length_bars(df: pd.DataFrame, *, title: str | None, x_title: str, y_title: str, part_title: str) -> alt.Chart:
    """Each word's GloVe row length beside its positional row length, words in sentence order."""
    return alt.Chart(df, title=alt.Undefined if title is None else title).mark_bar().encode(
        y=alt.Y("row:N", sort=alt.EncodingSortField("r", op="min"), title=None),
        yOffset=alt.YOffset("part:N"),
        x=alt.X("length:Q", title=x_title),
        color=alt.Color("part:N", title=part_title, scale=alt.Scale(range=["#2166ac", "#999999"]),
                        legend=alt.Legend(orient="bottom")),
        tooltip=[alt.Tooltip("row:N", title=y_title), alt.Tooltip("part:N", title=part_title),
                 alt.Tooltip("length:Q", title=x_title, format=".3f")],
    ).properties(width="container", height=max(60, 17 * len(df)))
