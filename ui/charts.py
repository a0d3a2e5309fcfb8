"""Pure chart builders: long-form DataFrame -> alt.Chart. No streamlit here."""
import altair as alt
import pandas as pd

AGREE = {"++": "#2166ac", "--": "#67a9cf"}  # signs agree: blues, as positive values on every heatmap
DISAGREE = {"+-": "#ef8a62", "-+": "#b2182b"}  # signs differ: reds, as negative values
GROUP_COLOURS = {**AGREE, **DISAGREE}
MASKED = "#d9d9d9"
PICK = "pick"
MAX_ANNOTATED = 12  # columns up to which heatmap cells carry their numbers


def signed(field: str, title: str) -> alt.Color:
    """Diverging red-blue colour centred on zero: blue positive, red negative."""
    return alt.Color(f"{field}:Q", title=title, scale=alt.Scale(scheme="redblue", domainMid=0),
                     legend=alt.Legend(orient="right", gradientLength=120))


def heatmap(df: pd.DataFrame, *, title: str, x_title: str, y_title: str, value_title: str,
            clickable: bool = False, height: int | None = None) -> alt.Chart:
    """Rows are words; signed values on a diverging scale; masked cells grey; the selected row outlined."""
    rows, cols = list(dict.fromkeys(df["row"])), list(dict.fromkeys(df["col"]))
    tooltip = [alt.Tooltip("row:N", title=y_title), alt.Tooltip("col:N", title=x_title),
               alt.Tooltip("value:Q", title=value_title, format=".3f")]
    base = alt.Chart(df, title=title).encode(
        x=alt.X("col:O" if pd.api.types.is_integer_dtype(df["col"]) else "col:N", sort=cols, title=x_title,
                axis=alt.Axis(labelAngle=0) if len(cols) <= MAX_ANNOTATED else alt.Axis(labelAngle=0, values=cols[4::5])),
        y=alt.Y("row:N", sort=rows, title=y_title, axis=alt.Axis(labelOverlap=False)),
        tooltip=tooltip,
    )
    colour = alt.condition("datum.masked", alt.value(MASKED), signed("value", value_title))
    rect = base.mark_rect().encode(
        color=colour,
        stroke=alt.condition("datum.selected", alt.value("black"), alt.value(None)),
        strokeWidth=alt.condition("datum.selected", alt.value(2), alt.value(0)),
    )
    if clickable:
        rect = rect.add_params(alt.selection_point(name=PICK, fields=["row", "col"], on="click", clear=False))
    layers = [rect]
    if len(cols) <= MAX_ANNOTATED:
        layers.append(base.mark_text(fontSize=11).encode(
            text=alt.condition("datum.masked", alt.value("masked"), alt.Text("value:Q", format=".2f")),
            color=alt.value("#222"),
        ))
    chart = alt.layer(*layers)
    return chart.properties(width="container", height=height or max(60, 26 * len(rows)))


def weight_bars(df: pd.DataFrame, *, title: str, x_title: str, y_title: str) -> alt.Chart:
    """The query's weight on each key word."""
    keys = list(dict.fromkeys(df["key"]))
    return alt.Chart(df, title=title).mark_bar().encode(
        x=alt.X("key:N", sort=keys, title=x_title, axis=alt.Axis(labelAngle=-45, labelOverlap=False)),
        y=alt.Y("weight:Q", title=y_title),
        color=alt.condition("datum.masked", alt.value(MASKED), signed("weight", y_title)),
        tooltip=[alt.Tooltip("key:N", title=x_title), alt.Tooltip("weight:Q", title=y_title, format=".4f")],
    ).properties(width="container", height=180)


def contribution_bars(df: pd.DataFrame, z_row: pd.DataFrame, *, title: str, x_title: str, y_title: str,
                      key_title: str, z_title: str, weight_title: str) -> alt.Chart:
    """Stacked weighted value rows per dimension, with the query's row of Z as black ticks."""
    keys = list(dict.fromkeys(df["key"]))
    bars = alt.Chart(df, title=title).mark_bar().encode(
        x=alt.X("dim:O", title=x_title),
        y=alt.Y("sum(contribution):Q", title=y_title),
        color=alt.Color("key:N", sort=keys, title=key_title, scale=alt.Scale(scheme="tableau10")),
        order=alt.Order("key_order:Q"),
        tooltip=[alt.Tooltip("key:N", title=key_title), alt.Tooltip("dim:O", title=x_title),
                 alt.Tooltip("weight:Q", title=weight_title, format=".3f"),
                 alt.Tooltip("contribution:Q", title=y_title, format=".4f")],
    ).transform_calculate(key_order=f"indexof({keys!r}, datum.key)")
    ticks = alt.Chart(z_row).mark_tick(color="black", thickness=2, size=14).encode(
        x=alt.X("dim:O"), y=alt.Y("z:Q"),
        tooltip=[alt.Tooltip("dim:O", title=x_title), alt.Tooltip("z:Q", title=z_title, format=".4f")],
    )
    return alt.layer(bars, ticks).properties(width="container", height=260)


def alignment_bars(df: pd.DataFrame, *, title: str, x_title: str, y_title: str, group_title: str,
                   group_names: dict[str, str], running_title: str) -> alt.Chart:
    """Per-dimension products q_i·k_i coloured by sign group, with the running sum as a line."""
    order = df["dim"].astype(str).tolist()
    x = alt.X("dim:N", sort=order, title=x_title, axis=alt.Axis(labelAngle=-90))
    bars = alt.Chart(df, title=title).mark_bar().encode(
        x=x,
        y=alt.Y("product:Q", title=y_title),
        color=alt.Color("group:N", title=group_title,
                        scale=alt.Scale(domain=list(GROUP_COLOURS), range=list(GROUP_COLOURS.values())),
                        legend=alt.Legend(labelExpr=_label_expr(group_names), orient="bottom", columns=2)),
        tooltip=[alt.Tooltip("dim:N", title=x_title), alt.Tooltip("group:N", title=group_title),
                 alt.Tooltip("product:Q", title=y_title, format=".4f"),
                 alt.Tooltip("running:Q", title=running_title, format=".4f")],
    )
    line = alt.Chart(df).mark_line(color="#444", point=alt.OverlayMarkDef(size=12, color="#444")).encode(
        x=x, y=alt.Y("running:Q"),
        tooltip=[alt.Tooltip("dim:N", title=x_title), alt.Tooltip("running:Q", title=running_title, format=".4f")],
    )
    return alt.layer(bars, line).transform_calculate(dim="toString(datum.dim)").properties(width="container", height=260)


def sign_strips(df: pd.DataFrame, *, title: str, x_title: str, value_title: str, vector_title: str) -> alt.Chart:
    """Two vectors as coloured strips, dimension by dimension, so matching signs line up."""
    return alt.Chart(df, title=title).mark_rect().encode(
        x=alt.X("dim:O", title=x_title),
        y=alt.Y("vector:N", sort=list(dict.fromkeys(df["vector"])), title=None),
        color=signed("value", value_title),
        tooltip=[alt.Tooltip("vector:N", title=vector_title), alt.Tooltip("dim:O", title=x_title),
                 alt.Tooltip("value:Q", title=value_title, format=".3f")],
    ).properties(width="container", height=70)


def relevance_bars(df: pd.DataFrame, *, title: str, x_title: str, y_title: str, rank_title: str) -> alt.Chart:
    """One measure's scores for the query as horizontal bars, most relevant on top, with each bar's number."""
    order = df.sort_values("score", ascending=False, kind="stable")["key"].tolist()
    tooltip = [alt.Tooltip("key:N", title=y_title), alt.Tooltip("score:Q", title=x_title, format=".4f"),
               alt.Tooltip("rank:O", title=rank_title)]
    base = alt.Chart(df, title=title).encode(y=alt.Y("key:N", sort=order, title=y_title, axis=alt.Axis(labelOverlap=False)),
                                             tooltip=tooltip)
    bars = base.mark_bar().encode(x=alt.X("score:Q", title=x_title), color=signed("score", x_title).legend(None))
    labels = base.mark_text(align="left", dx=3, fontSize=11, color="#222").encode(
        x=alt.X("max_zero:Q", title=x_title), text=alt.Text("score:Q", format=".2f"))
    return (alt.layer(bars, labels).transform_calculate(max_zero="max(datum.score, 0)")
            .properties(width="container", height=max(60, 26 * len(order))))


def _label_expr(names: dict[str, str]) -> str:
    """A Vega expression mapping legend values to their display names."""
    cases = " : ".join(f"datum.value == {k!r} ? {v!r}" for k, v in names.items())
    return f"{cases} : datum.value"
