"""Page 7's charts: one sentence's heads as lines (each word to the word it belongs to and to the word it attends to
most), and the head's accuracy per relation next to the best fixed offset."""
import altair as alt
import pandas as pd

from kit.charts import (
    AGREE,
    DISAGREE,
    GREY,
    HEAD_COLOURS,
    Titles,
    builder,
    described,
    fit_width,
    level_title,
    number_axis,
    when,
)
from kit.lines import HOVER, HOVER_KEY, HOVERED, count, hover, label_width, word_column
from kit.narrow import columns, on_narrow

LINE_KINDS = ("gold", "right", "wrong")  # a word's line to its head, and to its top key when right or wrong
LINE_COLOURS = ["#555555", AGREE["++"], DISAGREE["-+"]]  # grey, then the blue and red of agree and disagree
LINE_DASHES = [[1, 0], [1, 0], [5, 3]]  # wrong also dashed: not by colour alone
LINE_SHIFT = 0.14  # of a row: a head's line runs just above the word's row, its top key's just below
# read from the back of a room: words 15 px, a row 26 px, the lines 520 px wide (the chart about 850 px of a 1440 px
# screen's 1,040 px of page)
FONT, STEP, WIDTH = 15, 26, 520


@builder("about_head_lines")
def head_lines(df: pd.DataFrame, titles: Titles, *, line_names: list[str],
               description: str | None = None) -> alt.HConcatChart:
    """The line view of one sentence's heads (head_lines_frame): each word's relation, ✓ or ✗, and its two lines."""
    # a word's lines go to the word it belongs to and to the word it attends to most (LINE_KINDS, shown as
    # `line_names`; wrong ones dashed); ✓ blue, ✗ red; hovering a word keeps its lines, as in attention_lines
    rows = count(df, "q_pos")
    x_title, y_title, value_title = titles.x, titles.y, titles.value
    relation_title, line_title = titles["relation"], titles["line"]
    y = alt.Scale(domain=[-0.5, rows - 0.5], reverse=True, nice=False, zero=False)
    words = "datum.kind == 'word'"
    legend = alt.Legend(orient="bottom", direction="vertical", symbolType="stroke", symbolStrokeWidth=3, labelLimit=0,
                        labelFontSize=FONT - 1, titleFontSize=FONT - 1)  # below: the lines take the width
    lines = alt.Chart(name="lines").transform_filter(f"!({words})").transform_calculate(
        shift=f"datum.kind == 'gold' ? {-LINE_SHIFT} : {LINE_SHIFT}",
        y0="datum.q_pos + datum.shift", y1="datum.k_pos + datum.shift",
    ).mark_rule(strokeWidth=2.5).encode(
        x=alt.XValue(0), x2=alt.X2Value("width"),
        y=alt.Y("y0:Q", scale=y, axis=None), y2=alt.Y2("y1:Q"),
        stroke=alt.Stroke("line:N", title=line_title, scale=alt.Scale(domain=line_names, range=LINE_COLOURS),
                          legend=legend),
        strokeDash=alt.StrokeDash("line:N", title=line_title, scale=alt.Scale(domain=line_names, range=LINE_DASHES),
                                  legend=legend),  # one legend: colour and dash together
        opacity=when(alt.OpacityValue, HOVERED, 0.85, 0.08),
        tooltip=[alt.Tooltip("line:N", title=line_title), alt.Tooltip("query:N", title=y_title),
                 alt.Tooltip("key:N", title=x_title), alt.Tooltip("relation:N", title=relation_title),
                 alt.Tooltip("weight:Q", title=value_title, format=".3f")],
    ).properties(width=WIDTH, height=STEP * rows)
    relation = _relation_column(df, relation_title, y_title, y, rows)
    marks = _right_marks(line_title, y_title, y, rows)
    hovers = [hover(HOVER, "q_pos", ["query_words"]), hover(HOVER_KEY, "k_pos", ["key_words"])]
    chart = alt.hconcat(relation, word_column(df, "query", "q_pos", y_title, y, rows, STEP, FONT), marks, lines,
                        word_column(df, "key", "k_pos", x_title, y, rows, STEP, FONT), bounds="flush", spacing=6)
    chart = chart.properties(data=df, title=alt.TitleParams(titles.title, limit=0),  # not cut at the first part
                             params=hovers, autosize=alt.AutoSizeParams(type="pad"))
    return described(chart, description)


def _relation_column(df: pd.DataFrame, relation_title: str, y_title: str, y: alt.Scale, rows: int) -> alt.Chart:
    """Each word's relation, right-aligned in italics left of the word (head_lines)."""
    return alt.Chart(name="relations", title=alt.TitleParams(relation_title, anchor="end")).transform_filter(
        "datum.kind == 'word'").mark_text(align="right", baseline="middle", color=GREY, fontStyle="italic",
                                          fontSize=FONT - 1).encode(
        x=alt.XValue(label_width(df["relation"], FONT) - 4), y=alt.Y("q_pos:Q", scale=y, axis=None),
        text=alt.Text("relation:N", title=relation_title),
        tooltip=[alt.Tooltip("query:N", title=y_title), alt.Tooltip("relation:N", title=relation_title)],
    ).properties(width=label_width(df["relation"], FONT), height=STEP * rows)


def _right_marks(line_title: str, y_title: str, y: alt.Scale, rows: int) -> alt.Chart:
    """✓ (blue) or ✗ (red) right of each word: whether it attends most to the word it belongs to (head_lines)."""
    return alt.Chart(name="marks").transform_filter("datum.kind == 'word' && datum.mark != ''").mark_text(
        baseline="middle", fontSize=FONT + 1, fontWeight="bold").encode(
        x=alt.XValue(9), y=alt.Y("q_pos:Q", scale=y, axis=None), text=alt.Text("mark:N", title=line_title),
        color=when(alt.ColorValue, "datum.right", LINE_COLOURS[1], LINE_COLOURS[2]),
        tooltip=[alt.Tooltip("query:N", title=y_title), alt.Tooltip("mark:N", title=line_title)],
    ).properties(width=18, height=STEP * rows)


RELATION_STEP = 36  # pixels a relation: its two bars
# a relation's label, "det · a determiner → its noun (the → cat)", as its name alone ("det") in a box too narrow for
# both the words and the bars; the tooltip keeps the words
SHORT_RELATION = on_narrow("split(datum.label, ' · ')[0]", "datum.label")
SERIES_COLOURS = [HEAD_COLOURS[0], GREY]  # the head as in the line view, the baseline grey


@builder("about_relation_accuracy")
def relation_accuracy(df: pd.DataFrame, titles: Titles, *, series: list[str],
                      description: str | None = None) -> alt.VConcatChart:
    """Per relation, two bars: the head's share right and the best fixed offset's, each share written at its end."""
    # df: label in order r, series in order s (named `series`), accuracy, text, and the words' count for the tooltip
    x_title, y_title, series_title = titles.x, titles.y, titles["series"]
    base = alt.Chart(df).encode(
        y=alt.Y("label:N", sort=alt.EncodingSortField("r", op="min"), title=y_title,
                axis=level_title(labelLimit=320, labelOverlap=False, labelExpr=SHORT_RELATION)),
        yOffset=alt.YOffset("series:N", sort=series, scale=alt.Scale(domain=series, paddingOuter=0.15)),
        x=alt.X("accuracy:Q", title=x_title, scale=alt.Scale(domain=[0, 1.25]),  # room for a share's words
                axis=number_axis(format="%", values=[0, 0.25, 0.5, 0.75, 1])),
        tooltip=[alt.Tooltip("label:N", title=y_title), alt.Tooltip("series:N", title=series_title),
                 alt.Tooltip("accuracy:Q", title=x_title, format=".1%"),
                 alt.Tooltip("count:Q", title=titles["count"], format=",")],
    )
    bars = base.mark_bar().encode(color=alt.Color("series:N", title=series_title,
                                                  legend=alt.Legend(orient="top", columns=columns(2, 200)),
                                                  scale=alt.Scale(domain=series, range=SERIES_COLOURS)))
    text = base.mark_text(align="left", dx=3, baseline="middle", fontSize=10, color="#333").encode(
        text=alt.Text("text:N", title=x_title))
    step = alt.Step(RELATION_STEP, **{"for": "position"})  # a relation's band, not each bar's
    chart = fit_width((bars + text).properties(height=step)).properties(title=titles.title)  # above the legend
    return described(chart, description)
