"""What every chart shares, and the builders several features draw: long-form DataFrame and the chart's Titles ->
alt.Chart. No streamlit here, and no language: every word a chart shows that is not data comes in its Titles, which
the view that draws it builds once.

A builder is a function marked with @builder: the catalogue key of the sentence a screen reader reads for it, whether
it is data-free, and for a chart as high as the page makes it, what its frames need. A data-free builder puts no
number, word or count from its frames into the spec: order comes from position or score fields, heights from a step
per word (fit_width) or from the page, colour ranges, label sizes and number formats from expressions the browser
evaluates on the data as drawn. Its spec is then the same for every sentence, so the page builds it once and the
browser swaps the data of the chart it already drew. A feature's own builders live in its folder (dot/charts.py, …)."""
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import altair as alt
import pandas as pd

from kit.narrow import columns

# Every colour of a mark reaches 3:1 against white (WCAG 1.4.11), as tests/engine/test_palettes.py checks.
AGREE = {"++": "#2166ac", "--": "#4393c3"}  # signs agree: blues, as positive values on every heatmap
DISAGREE = {"+-": "#d6604d", "-+": "#b2182b"}  # signs differ: reds, as negative values
GROUP_COLOURS = {**AGREE, **DISAGREE}
MASKED = "#d9d9d9"
GREY = "#767676"  # a baseline or "other" beside coloured marks: 4.5:1 on white
# Okabe–Ito's and Tol's, told apart under deuteranopia and protanopia; the line view draws as many heads, and says so
HEAD_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#882255", "#332288"]
# a cell's sign as a symbol, not told by colour alone (WCAG 1.4.1): a plus and a minus in Vega's unit square (-1 to 1),
# thin as a text glyph's strokes
PLUS, MINUS = "M-1,-0.12H-0.12V-1H0.12V-0.12H1V0.12H0.12V1H-0.12V0.12H-1Z", "M-1,-0.12H1V0.12H-1Z"
PICK = "pick"
MAX_ANNOTATED = 12  # columns up to which heatmap cells carry their numbers
ROW_STEP = 26  # pixels per heatmap row
BAR_STEP = 26  # pixels a word of relevance bars
PLOT_HEIGHT = "childHeight"  # Vega-Lite's name for the plot height of a column's parts (fit_width)
WIDTH = 640  # pixels: a chart's width where the page gives it none (a saved file); the page fits it to its column
KEY_COLUMNS = 8  # key words a row of the contributions' legend where the chart's box holds them (columns)
LABEL_LIMIT = 100  # pixels a label may take before Vega cuts it short (Streamlit's theme)
# Cells above which a heatmap of dimensions is drawn on a canvas: an SVG keeps a node or two per cell, which the
# browser lays out and updates on every redraw (a 50 × 16 weight heatmap about 1,700); a canvas keeps none, while the
# chart's accessible name, tooltips, save menu and "Show data" table stay. A heatmap of words by words, which a learner
# clicks and a screen reader reads cell by cell, stays SVG up to the cells where Streamlit itself would go to canvas.
CANVAS_CELLS, CANVAS_WORD_CELLS = 60, 2000
# Numbers from 1,000 up (a layer scale of 1e6 gives 7,860,448,186,139) and below 0.001 in 3 significant digits, big
# ones with an SI suffix (7.86T), small ones as powers of ten; the rest as Vega writes them.
COMPACT = ("abs(datum.value) >= 1000 ? format(datum.value, '.3~s') : "
           "datum.value != 0 && abs(datum.value) < 0.001 ? format(datum.value, '.3~e') : datum.label")
# A heatmap cell's number in two decimals; one that two decimals would write as 0.00 reads "≈ 0", unless every number
# of the chart is that small (a tiny layer scale): then in powers of ten. Reads the chart's extent, field lo and hi.
CELL = ("abs(datum.value) >= 1000 ? format(datum.value, '.3~s') : "
        "datum.value == 0 || abs(datum.value) >= 0.005 ? format(datum.value, '.2f') : "
        "max(abs(datum.lo), abs(datum.hi)) >= 0.005 ? '≈ 0' : format(datum.value, '.1~e')")
# The running sum's last value, as the dot product is written beside the chart: two decimals, big ones compact.
END_LABEL = "abs(datum.running) >= 1000 ? format(datum.running, '.3~s') : format(datum.running, '.2f')"


@dataclass(frozen=True)
class Builder:
    """A chart builder (frames, Titles and options in, an Altair chart out) with what the page needs to know of it."""
    build: Callable[..., alt.TopLevelMixin]
    about: str  # the catalogue key of what a screen reader reads for it, filled in with its titles
    data_free: bool = False  # its spec holds nothing from its frames
    height: Callable[..., int] | None = None  # for a chart as high as the page makes it: the pixels its frames need

    @property
    def name(self) -> str:
        """The builder's name: file names of saved charts fall back on it."""
        return self.build.__name__

    def __call__(self, *frames, **options) -> alt.TopLevelMixin:
        return self.build(*frames, **options)


def builder(about: str, *, data_free: bool = False,
            height: Callable[..., int] | None = None) -> Callable[[Callable[..., alt.TopLevelMixin]], Builder]:
    """Mark a function as a chart builder (Builder says what each argument means)."""
    return lambda build: Builder(build, about, data_free, height)


@dataclass(frozen=True, init=False)
class Titles:
    """Every word of a chart that is not its data: title, axis titles, what its values are called, the builder's own."""
    # The about_<builder> sentence a screen reader reads is filled in with them under the same names (fields).
    title: str | None  # None: the page writes it above the chart
    x: str
    y: str
    value: str  # what its values are called: colour scale, tooltips
    more: tuple[tuple[str, str], ...]  # the builder's own by name: Titles(title, x, y, value, running="running sum")

    def __init__(self, title: str | None, x: str = "", y: str = "", value: str = "", **more: str):
        for name, given in (("title", title), ("x", x), ("y", y), ("value", value), ("more", tuple(more.items()))):
            object.__setattr__(self, name, given)

    def __getitem__(self, name: str) -> str:
        """The builder's own title `name`."""
        return dict(self.more)[name]

    def get(self, name: str, default: str) -> str:
        """The builder's own title `name`, or `default` where none was given."""
        return dict(self.more).get(name, default)

    def fields(self) -> dict[str, str]:
        """Every title given, by name."""
        named = {"title": self.title, "x": self.x, "y": self.y, "value": self.value, **dict(self.more)}
        return {name: text for name, text in named.items() if text is not None}


@dataclass(frozen=True)
class Cells:
    """What a heatmap draws besides its colours: cell numbers, grey masked cells, the selected row's outline, ticks."""
    # x_ticks, y_ticks: the ticks of an axis of dimensions; None: an axis of words, every one labelled
    annotate: bool = True
    masked: bool = False
    outlined: bool = False
    x_ticks: tuple | None = None
    y_ticks: tuple | None = None


def on_canvas(rows: list, cols: list) -> bool:
    """Whether a heatmap of these row and column labels is drawn on a canvas rather than as SVG."""
    # integer labels are dimensions: see CANVAS_CELLS for why the two limits differ
    dims = any(isinstance(x, int) for x in (*rows[:1], *cols[:1]))
    return len(rows) * len(cols) > (CANVAS_CELLS if dims else CANVAS_WORD_CELLS)


def dataset(i: int = 0) -> str:
    """The name a chart's i-th DataFrame travels under (render.vega_lite names them so); expressions read it by name."""
    return f"data-{i}"


def symmetric_domain(field: str) -> alt.ExprRef:
    """[-m, m] for m the largest |field| in the chart's first DataFrame (1 if all are 0), worked out in the browser."""
    lo_hi = f"extent(pluck(data('{dataset()}'), '{field}'))"
    m = f"(max(abs({lo_hi}[0]), abs({lo_hi}[1])) || 1)"
    return alt.ExprRef(f"[-{m}, {m}]")


def signed(field: str, title: str, **legend) -> alt.Color:
    """Diverging red-blue colour, blue positive and red negative, symmetric about zero."""
    # symmetric: a weight of 0 is white, not the red end of an all-positive scale, and equal sizes look equally strong
    scale = alt.Scale(scheme="redblue", domainMid=0, domain=symmetric_domain(field))
    return alt.Color(f"{field}:Q", title=title, scale=scale, legend=gradient(**legend))


def sequential(field: str, title: str, **legend) -> alt.Color:
    """White at 0 to dark blue at the chart's largest value (1 if all are 0): for weights, which are never negative."""
    top = f"(extent(pluck(data('{dataset()}'), '{field}'))[1] || 1)"
    scale = alt.Scale(scheme="blues", domain=alt.ExprRef(f"[0, {top}]"))
    return alt.Color(f"{field}:Q", title=title, scale=scale, legend=gradient(**legend))


def gradient(**kw) -> alt.Legend:
    """A colour bar at the right with compact numbers."""
    return alt.Legend(**{"orient": "right", "gradientLength": 120, "labelExpr": COMPACT, **kw})


def number_axis(**kw) -> alt.Axis:
    """An axis of numbers, written compactly however large or small they get."""
    return alt.Axis(labelExpr=COMPACT, **kw)


def level_title(orient: Literal["left", "right"] = "left", **kw) -> alt.Axis:
    """A vertical axis with its title written level above it, not turned on its side."""
    # turned, Chinese titles read sideways
    return alt.Axis(**{"orient": orient, "titleAngle": 0, "titleAlign": "right" if orient == "left" else "left",
                       "titleBaseline": "bottom", "titleX": 0, "titleY": -8, **kw})


def word_labels(channel: str) -> dict:
    """Axis label settings that show every word; an x axis's turned upright, smaller as its columns narrow."""
    # words are data: none may be dropped; the size follows the band width as the browser draws it
    if channel == "y":
        return {"labelOverlap": False}
    return {"labelOverlap": False, "labelFlush": False, "labelAngle": -90, "labelLimit": LABEL_LIMIT,
            "labelFontSize": alt.ExprRef(f"clamp(bandwidth('{channel}') - 1, 7, 11)")}


def described(chart, description: str | None):
    """The chart with the sentence a screen reader reads for it, when there is one."""
    return chart if description is None else chart.properties(description=description)


def when(channel, test: str | dict, then, otherwise):
    """A value channel that is `then` where `test` holds, else `otherwise`: alt.condition for two values, typed."""
    # typed, so encode() need not match a plain dict against the schema (that matching cost ~15 ms a channel)
    return channel(otherwise, condition={"test": test, "value": then})


@builder("about_heatmap", data_free=True)
def heatmap(df: pd.DataFrame, titles: Titles, *, cells: Cells | None = None, clickable: bool = False,
            height: int | None = None, weights: bool = False, canvas: bool | None = None,
            description: str | None = None) -> alt.VConcatChart:
    """A heatmap of `df` (rows r, columns c, in table order) with what `cells` draws on it, as wide as the page."""
    # `weights`: attention weights, never negative, on a sequential scale from 0; else signed values on a diverging one
    # `canvas` None leaves canvas or SVG to Streamlit (kit.views passes on_canvas)
    cells = cells or Cells()
    tooltip = [alt.Tooltip("row:N", title=titles.y), alt.Tooltip("col:N", title=titles.x),
               alt.Tooltip("value:Q", title=titles.value, format=".3f")]
    base = alt.Chart(df).encode(
        x=alt.X(_band_field(df, "col"), title=titles.x, sort=alt.EncodingSortField("c", op="min"),
                axis=alt.Axis(**_band_labels("x", cells.x_ticks))),
        y=alt.Y(_band_field(df, "row"), title=titles.y, sort=alt.EncodingSortField("r", op="min"),
                axis=level_title(**_band_labels("y", cells.y_ticks))),
        tooltip=tooltip,
    )
    colour = (sequential if weights else signed)("value", titles.value,
                                                 gradientLength=alt.ExprRef(f"clamp({PLOT_HEIGHT} - 20, 40, 120)"))
    masked = cells.masked
    # on a canvas no screen reader reaches a cell, yet Vega would write each cell's description on every redraw
    rect = (base.mark_rect(aria=False) if canvas else base.mark_rect()).encode(
        color=alt.condition("datum.masked", alt.value(MASKED), colour) if masked else colour)
    if cells.outlined:
        rect = rect.encode(stroke=when(alt.StrokeValue, "datum.selected", "black", None),
                           strokeWidth=when(alt.StrokeWidthValue, "datum.selected", 2, 0))
    if clickable:  # the view named, as Altair would name it view_<n>, n counting every chart the process built
        rect = rect.properties(name="cells").add_params(
            alt.selection_point(name=PICK, fields=["row", "col"], on="click", clear=False))
    signs = [] if weights else [cell_signs(base, "datum.strong", masked)]
    layers = [rect] + ([_cell_numbers(base, masked, titles.get("masked", "masked"))] if cells.annotate else signs)
    top = {} if canvas is None else {"usermeta": {"embedOptions": {"renderer": "canvas" if canvas else "svg"}}}
    plot = alt.LayerChart(layer=layers, height=height or alt.Step(ROW_STEP), width=WIDTH)
    return fit_width(plot, description, title=titles.title, **top)  # above the whole: a colour bar beside it stays in


def fit_width(plot: alt.Chart | alt.LayerChart | alt.FacetChart, description: str | None = None,
              **top) -> alt.VConcatChart:
    """`plot` in a column of one: as wide as the page's column and as high as it says (a step a row)."""
    # Alone, a chart with a height of steps can fit only its width to the page, and Vega-Lite warns on every draw that
    # it drops fitting the height; a height the page gave it would change with the number of words, and the browser
    # would then lay the chart out and draw it twice on each such edit. A column's height is its parts', which Vega-Lite
    # leaves alone, while fit-x makes the whole as wide as the page (Streamlit sets the part's width to the column's).
    # Shared scales keep their names (x, y, color) for the expressions that read them.
    # `description` and `top` are given at once: each .properties() on a chart of charts copies it deeply, its parts
    # over again (a third of the home page's first run); a plot built with its width is not copied either.
    if description is not None:
        top["description"] = description
    return alt.VConcatChart(vconcat=[plot if plot.width == WIDTH else plot.properties(width=WIDTH)],
                            resolve=alt.Resolve(scale=alt.ScaleResolveMap(x="shared", y="shared", color="shared")),
                            autosize=alt.AutoSizeParams(type="fit-x", contains="padding"), **top)


def _band_field(df: pd.DataFrame, field: str) -> str:
    """Dimensions (integers) as ordered labels, words as names."""
    return f"{field}:O" if pd.api.types.is_integer_dtype(df[field]) else f"{field}:N"


def _band_labels(channel: str, ticks: tuple | None) -> dict:
    """The given ticks, as many as fit; without ticks, every label: words are data, none may be dropped."""
    return word_labels(channel) if ticks is None else {"values": list(ticks), "labelOverlap": True, "labelAngle": 0}


def _cell_numbers(base: alt.Chart, masked: bool, masked_label: str) -> alt.Chart:
    """Each cell's number, compact, dark or white against its colour, at a size its column fits."""
    # hidden from screen readers, which read the cell itself
    number = alt.Text("label:N")
    return base.transform_joinaggregate(lo="min(value)", hi="max(value)").transform_calculate(label=CELL).mark_text(
        fontSize=alt.ExprRef("clamp(bandwidth('x') / 3.5, 7, 11)"), aria=False).encode(
        text=alt.condition("datum.masked", alt.value(masked_label), number) if masked else number,
        color=when(alt.ColorValue, "datum.strong && !datum.masked" if masked else "datum.strong", "white", "#222"),
    )


def cell_signs(base: alt.Chart, strong: str, masked: bool = False) -> alt.Chart:
    """Each cell's sign, + or −, where its number is not written, as a filled plus or minus symbol."""
    # A sign is readable without telling red from blue; a path draws faster than text. None at zero, in masked cells or
    # in cells too narrow for it; hidden from screen readers, which read the cell's signed value.
    shown = "datum.value != 0" + (" && !datum.masked" if masked else "")
    return base.transform_filter(shown).mark_point(
        filled=True, strokeWidth=0, size=alt.ExprRef("pow(clamp(bandwidth('x') / 2, 5, 7), 2)"),
        opacity=alt.ExprRef("bandwidth('x') >= 10 ? 1 : 0"), aria=False).encode(
        shape=when(alt.ShapeValue, "datum.value > 0", PLUS, MINUS),
        color=when(alt.ColorValue, strong, "white", "#222"))


@builder("about_weight_bars", data_free=True)
def weight_bars(df: pd.DataFrame, titles: Titles, *, weights: bool = True,
                description: str | None = None) -> alt.Chart:
    """The query's weight on each key word as bars, in sentence order (field k)."""
    # sequential colours from 0 for softmax weights; diverging when the softmax is off and raw scores can be negative
    x_title, y_title = titles.x, titles.y
    return described(alt.Chart(df, title=titles.title).mark_bar().encode(
        x=alt.X("key:N", sort=alt.EncodingSortField("k", op="min"), title=x_title, axis=alt.Axis(**word_labels("x"))),
        y=alt.Y("weight:Q", title=y_title, axis=level_title(labelExpr=COMPACT)),
        color=alt.condition("datum.masked", alt.value(MASKED), (sequential if weights else signed)("weight", y_title)),
        tooltip=[alt.Tooltip("key:N", title=x_title), alt.Tooltip("weight:Q", title=y_title, format=".4f")],
    ).properties(width="container", height=180), description)


def contribution_bars_height(df: pd.DataFrame, z_row: pd.DataFrame) -> int:
    """The page height of contribution_bars: a 260-pixel plot, its title and axes, and its legend."""
    # a legend row for every half KEY_COLUMNS entries, as a phone shows them: a key word of field k each, up to
    # HEAD_COLOURS, and the others
    return 380 + 20 * -(-min(df["k"].nunique(), len(HEAD_COLOURS) + 1) // (KEY_COLUMNS // 2))


@builder("about_contribution_bars", data_free=True, height=contribution_bars_height)
def contribution_bars(df: pd.DataFrame, z_row: pd.DataFrame, titles: Titles, *,
                      description: str | None = None) -> alt.Chart:
    """Stacked weighted value rows per dimension in sentence order (field k), with the query's Z row as ticks."""
    # As high as the page makes it (render.chart gives it contribution_bars_height). The key words of the largest
    # weights (as many as HEAD_COLOURS) each have a colour, most weighted first in the legend; the others are grey
    # together under titles' "other", so no two words share a colour however long the sentence.
    x_title, y_title, key_title, other_title = titles.x, titles.y, titles["key"], titles.get("other", "…")
    bars = alt.Chart(df, title=titles.title).transform_window(
        rank="dense_rank()", sort=[alt.SortField("weight", "descending"), alt.SortField("k")],
    ).transform_calculate(
        shown=f"datum.rank <= {len(HEAD_COLOURS)} ? datum.key : {json.dumps(other_title)}",
    ).mark_bar().encode(
        x=alt.X("dim:O", title=x_title),
        y=alt.Y("sum(contribution):Q", title=y_title, axis=level_title(labelExpr=COMPACT)),
        color=alt.Color("shown:N", sort=alt.EncodingSortField("rank", op="min"), title=key_title,
                        scale=alt.Scale(range=[*HEAD_COLOURS, GREY]),  # no colour twice: the other words grey
                        legend=alt.Legend(orient="bottom", columns=columns(KEY_COLUMNS, 85), symbolLimit=0)),
        order=alt.Order("k:Q", title=key_title),  # titled as the key word: screen readers then read the word, not k
        tooltip=[alt.Tooltip("key:N", title=key_title), alt.Tooltip("dim:O", title=x_title),
                 alt.Tooltip("weight:Q", title=titles["weight"], format=".3f"),
                 alt.Tooltip("contribution:Q", title=y_title, format=".4f")],
    )
    ticks = alt.Chart(z_row).mark_tick(color="black", thickness=2, size=14).encode(
        x=alt.X("dim:O", title=x_title), y=alt.Y("z:Q", title=y_title),
        tooltip=[alt.Tooltip("dim:O", title=x_title), alt.Tooltip("z:Q", title=titles["z"], format=".4f")],
    )
    return described(alt.layer(bars, ticks).properties(width="container", height="container"), description)


@builder("about_relevance_bars", data_free=True)
def relevance_bars(df: pd.DataFrame, titles: Titles, *, description: str | None = None) -> alt.VConcatChart:
    """One measure's scores for the query as horizontal bars, the most relevant word on top."""
    # equal scores stay in sentence order; BAR_STEP pixels a word
    x_title, y_title = titles.x, titles.y
    return fit_width(alt.Chart(df, title=titles.title).mark_bar().encode(
        y=alt.Y("key:N", sort=alt.EncodingSortField("score", op="max", order="descending"), title=y_title,
                axis=alt.Axis(title=None, labelOverlap=False)),
        x=alt.X("score:Q", title=x_title, axis=number_axis()),
        color=signed("score", x_title).legend(None),
        tooltip=[alt.Tooltip("key:N", title=y_title), alt.Tooltip("score:Q", title=x_title, format=".4f"),
                 alt.Tooltip("rank:O", title=titles["rank"])],
    ).properties(height=alt.Step(BAR_STEP), width=WIDTH), description)


def label_expr(names: dict[str, str]) -> str:
    """A Vega expression mapping legend values to their display names."""
    cases = " : ".join(f"datum.value == {k!r} ? {v!r}" for k, v in names.items())
    return f"{cases} : datum.value"
