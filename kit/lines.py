"""What every line view shares (pages 6 and 7): its two columns of words, the word under the pointer, their width."""
import unicodedata

import altair as alt
import pandas as pd

from kit.charts import LABEL_LIMIT, when

HOVER = "hover_query"  # the query word under the pointer (by position, as words repeat): its lines and heatmap row
HOVER_KEY = "hover_key"  # the key word under the pointer: the lines into it and its heatmap column
LINE_STEP = 18  # pixels per word down the line view: 64 words stay legible
LINES_WIDTH = 200  # pixels between the query column and the key column
HOVERED = {"and": [{"param": HOVER}, {"param": HOVER_KEY}]}  # of the hovered query and key; all, while none is


def hover(name: str, field: str, views: list[str]) -> alt.TopLevelSelectionParameter:
    """The mark under the pointer in any of `views`, by `field`; none once the pointer leaves it."""
    # set on the whole chart with its views named: Altair, lifting a param added to several views, warns, and adds
    # sibling layers
    return alt.TopLevelSelectionParameter(name=name, views=views, select=alt.PointSelectionConfig(
        type="point", fields=[field], on="pointerover", clear="pointerout"))


def word_column(df: pd.DataFrame, field: str, position: str, title: str, y: alt.Scale, rows: int,
                 step: int = LINE_STEP, font: int = 12) -> alt.Chart:
    """Each word of one column once, at its position beside the lines, under its title; larger while hovered."""
    # query words to the left of the lines, key words to their right; the title runs to the right, over the lines, clear
    # of the heatmaps' titles; the column's other words grey while one is hovered
    param, left = (HOVER if field == "query" else HOVER_KEY), field == "query"
    width = label_width(df[field], font)
    chart = alt.Chart(name=f"{field}_words", title=alt.TitleParams(title, anchor="start"))
    return chart.transform_aggregate(groupby=[field, position]).mark_text(
        align="right" if left else "left", baseline="middle", limit=LABEL_LIMIT).encode(
        x=alt.XValue(width if left else 0), y=alt.Y(f"{position}:Q", scale=y, axis=None),
        text=alt.Text(f"{field}:N", title=title),
        size=when(alt.SizeValue, {"param": param, "empty": False}, font + 2, font),
        color=when(alt.ColorValue, {"param": param}, "#222", "#aaa"),
        tooltip=[alt.Tooltip(f"{field}:N", title=title)],
    ).properties(width=width, height=step * rows)


def count(df: pd.DataFrame, position: str) -> int:
    """How many words a column of positions spans (at least 1)."""
    return int(df[position].max()) + 1 if len(df) else 1


def label_width(words: pd.Series, font: int = 12) -> int:
    """Pixels a column of words takes at the hovered size of a `font`-pixel text, at most LABEL_LIMIT (scaled)."""
    # room for the longest word; a Chinese character takes two letters' room
    wide = max((sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in str(w)) for w in words.unique()),
               default=1)
    return min(LABEL_LIMIT * font // 12, (8 * wide + 4) * font // 12)
