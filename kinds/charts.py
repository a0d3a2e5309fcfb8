"""Page 6's line view (bertviz's head view): a weights heatmap per head beside lines from each query word to each key
word it sees."""
import altair as alt
import pandas as pd

from kit.charts import HEAD_COLOURS, MASKED, Titles, builder, described, sequential, signed, when, word_labels
from kit.lines import HOVER, HOVER_KEY, HOVERED, LINE_STEP, LINES_WIDTH, count, hover, word_column

LINES_HEIGHT = 240  # pixels a short sentence's line view takes at least, up to WIDE_STEP a word
WIDE_STEP = 30  # pixels per word of a short sentence: its words, and the lines between them, well apart
HEATMAPS_WIDTH = 420  # pixels the heatmaps' cells share in a row before the heads wrap to a new row
MIN_CELL = 8  # pixels a heatmap column takes at least: its key word then stays 7 pixels high
FADED = 0.1  # the opacity of the lines of words not hovered, times one over the words in a column: faded together,
ANY_HOVERED = {"or": [{"param": HOVER, "empty": False}, {"param": HOVER_KEY, "empty": False}]}  # something is hovered


@builder("about_attention_lines")
def attention_lines(df: pd.DataFrame, titles: Titles, *, weights: bool = True,
                    description: str | None = None) -> alt.HConcatChart | alt.VConcatChart:
    """BertViz's line view: a weights heatmap per head, then a line from each query word to each key word it sees."""
    # df: a row per line, with query/q_pos, key/k_pos, head/h, weight and opacity; a negative score's line is dashed
    # hovering a query word or a heatmap cell isolates that query's lines and outlines its row; a key word, the lines
    # into it and its column
    heads = list(dict.fromkeys(df.sort_values("h", kind="stable")["head"]))
    step = _word_step(max(count(df, "q_pos"), count(df, "k_pos")))
    maps, per_row = _head_heatmaps(df, heads, titles, weights=weights, step=step)
    hovers = [hover(HOVER, "q_pos", [m.name for m in maps] + ["query_words"]),
             hover(HOVER_KEY, "k_pos", ["key_words"])]
    # Flush bounds: views line up by plot area alone, so each heatmap's row i sits level with query word i.
    top = alt.hconcat(*maps[:per_row], *_line_columns(df, heads, titles, step=step), bounds="flush", spacing=8)
    if len(maps) <= per_row:
        chart = top.properties(data=df, title=titles.title, params=hovers)
    else:
        below = [alt.hconcat(*maps[i:i + per_row], spacing=8) for i in range(per_row, len(maps), per_row)]
        chart = alt.vconcat(top, *below, data=df, title=titles.title, params=hovers, spacing=16)
    # Streamlit's theme asks every chart to fit the page's width; a chart of charts cannot (Vega-Lite warns).
    return described(chart.properties(autosize=alt.AutoSizeParams(type="pad")), description)


def _word_step(rows: int) -> int:
    """Pixels per word down the line view: LINE_STEP for a long sentence, up to WIDE_STEP for a short one."""
    # a short sentence's view then stays LINES_HEIGHT high
    return max(LINE_STEP, min(WIDE_STEP, LINES_HEIGHT // rows))


def _head_heatmaps(df: pd.DataFrame, heads: list[str], titles: Titles, *, weights: bool,
                   step: int) -> tuple[list[alt.Chart], int]:
    """One weights heatmap per head (field h), and how many fit side by side in HEATMAPS_WIDTH."""
    # rows `step` high to sit level with the query words; the hovered query's row (or key's column) outlined
    # key words as large as the columns fit: bandwidth('x') names no scale in a chart of charts
    n_q = count(df, "q_pos")
    n_k = count(df, "k_pos")
    x_title, y_title, value_title, head_title = titles.x, titles.y, titles.value, titles["head"]
    per_row = max(1, min(len(heads), HEATMAPS_WIDTH // (n_k * MIN_CELL)))
    cell = max(MIN_CELL, min(step, HEATMAPS_WIDTH // (n_k * per_row)))
    tight = alt.Scale(paddingInner=0, paddingOuter=0)
    colour = (sequential if weights else signed)("weight", value_title, gradientLength=120)
    outlined = {"and": [ANY_HOVERED, HOVERED]}
    maps = []
    for i, name in enumerate(heads):
        labelled = i % per_row == 0 and (i > 0 or len(heads) > 1)  # a lone heatmap's rows meet the query words
        head = alt.TitleParams(name, color=HEAD_COLOURS[i % len(HEAD_COLOURS)]) if len(heads) > 1 else value_title
        maps.append(alt.Chart(name=f"heatmap_{i}", title=head).transform_filter(f"datum.h == {i}").mark_rect().encode(
            x=alt.X("key:N", sort=alt.EncodingSortField("k_pos", op="min"), title=x_title, scale=tight,
                    axis=alt.Axis(**{**word_labels("x"), "labelFontSize": min(11, cell - 1)})),
            y=alt.Y("query:N", sort=alt.EncodingSortField("q_pos", op="min"), title=y_title, scale=tight,
                    axis=alt.Axis(title=None, labelFlush=False, **word_labels("y")) if labelled else None),
            color=colour,
            stroke=when(alt.StrokeValue, outlined, "#222", None),
            strokeWidth=when(alt.StrokeWidthValue, outlined, 1.5, 0),
            tooltip=[alt.Tooltip("head:N", title=head_title), alt.Tooltip("query:N", title=y_title),
                     alt.Tooltip("key:N", title=x_title), alt.Tooltip("weight:Q", title=value_title, format=".3f")],
        ).properties(width=cell * n_k, height=step * n_q,
                     view=alt.ViewBackground(fill=MASKED)))  # masked pairs have no cell: grey shows through
    return maps, per_row


def _line_columns(df: pd.DataFrame, heads: list[str], titles: Titles, *, step: int) -> list[alt.Chart]:
    """Query words, a line for every row of df, and key words, `step` pixels a word, as three plain views."""
    # plain views, not layers: Altair renames layers in a concat, and the hover params list these names
    # each head's lines run a little apart, so heads drawn over each other stay visible
    rows = max(count(df, "q_pos"), count(df, "k_pos"))
    x_title, y_title, value_title, head_title = titles.x, titles.y, titles.value, titles["head"]
    y = alt.Scale(domain=[-0.5, rows - 0.5], reverse=True, nice=False, zero=False)  # row i at i + ½ steps down
    spread = 0.6 / len(heads)
    middle = (len(heads) - 1) / 2
    lines = alt.Chart(name="lines").transform_calculate(
        y0=f"datum.q_pos + {spread} * (datum.h - {middle})", y1=f"datum.k_pos + {spread} * (datum.h - {middle})",
    ).mark_rule().encode(
        x=alt.XValue(0), x2=alt.X2Value("width"),
        y=alt.Y("y0:Q", scale=y, axis=None), y2=alt.Y2("y1:Q"),
        stroke=alt.Stroke("head:N", title=head_title, scale=alt.Scale(domain=heads, range=HEAD_COLOURS),
                          legend=alt.Legend(orient="right", symbolType="stroke", symbolOpacity=1,
                                            symbolStrokeWidth=3) if len(heads) > 1 else None),
        opacity=alt.OpacityValue(FADED / rows, condition={"test": HOVERED, "field": "opacity", "type": "quantitative",
                                                          "scale": None, "legend": None}),
        strokeWidth=when(alt.StrokeWidthValue, ANY_HOVERED, 3, 2),  # the few lines left stand out
        strokeDash=when(alt.StrokeDashValue, "datum.weight < 0", [4, 3], [1, 0]),
        tooltip=[alt.Tooltip("head:N", title=head_title), alt.Tooltip("query:N", title=y_title),
                 alt.Tooltip("key:N", title=x_title), alt.Tooltip("weight:Q", title=value_title, format=".3f")],
    ).properties(width=LINES_WIDTH, height=step * rows)
    return [word_column(df, "query", "q_pos", y_title, y, rows, step), lines,
            word_column(df, "key", "k_pos", x_title, y, rows, step)]
