"""Pure chart builders: long-form DataFrame and the chart's Titles -> alt.Chart. No streamlit here, and no language:
every word a chart shows that is not data comes in its Titles, which the view that draws it builds once.

Builders in DATA_FREE put no number, word or count from their frames into the spec: order comes from position or score
fields, heights from a step per word (_fit_width) or from the page (a chart as high as the page makes it has a
<builder>_height that says what its frames need), colour ranges, label sizes and number formats from expressions the
browser evaluates on the data as drawn. Their spec is then the same for every sentence, so the page builds it once and
the browser swaps the data of the chart it already drew."""
import json
import unicodedata
from dataclasses import dataclass

import altair as alt
import numpy as np
import pandas as pd

# Every colour of a mark reaches 3:1 against the white background (WCAG 1.4.11); tests/engine/test_palettes.py checks
# them.
AGREE = {"++": "#2166ac", "--": "#4393c3"}  # signs agree: blues, as positive values on every heatmap
DISAGREE = {"+-": "#d6604d", "-+": "#b2182b"}  # signs differ: reds, as negative values
GROUP_COLOURS = {**AGREE, **DISAGREE}
MASKED = "#d9d9d9"
GREY = "#767676"  # a baseline or "other" beside coloured marks: 4.5:1 on white
# Okabe–Ito's and Tol's colours, told apart under deuteranopia and protanopia too; the line view draws as many heads
# as there are colours, and says so
HEAD_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#882255", "#332288"]
# a cell's sign as a symbol, not told by colour alone (WCAG 1.4.1): a plus and a minus in Vega's unit square (-1 to 1),
# thin as a text glyph's strokes
PLUS, MINUS = "M-1,-0.12H-0.12V-1H0.12V-0.12H1V0.12H0.12V1H-0.12V0.12H-1Z", "M-1,-0.12H1V0.12H-1Z"
PICK = "pick"
MAX_ANNOTATED = 12  # columns up to which heatmap cells carry their numbers
ROW_STEP = 26  # pixels per heatmap row
BAR_STEP, LENGTH_STEP, STRIP_STEP = 26, 17, 30  # pixels a word of relevance bars, a bar of length bars, a strip
PLOT_HEIGHT = "childHeight"  # Vega-Lite's name for the plot height of a column's parts (_fit_width)
WIDTH = 640  # pixels: a chart's width where the page gives it none (a saved file); the page fits it to its column
KEY_COLUMNS = 8  # key words a row of the contributions' legend
LABEL_LIMIT = 100  # pixels a label may take before Vega cuts it short (Streamlit's theme)
DATA_FREE = frozenset({"heatmap", "weight_bars", "contribution_bars", "relevance_bars", "length_bars", "sign_strips",
                       "accuracy_curves", "room_bars"})
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


@dataclass(frozen=True, init=False)
class Titles:
    """Every word of a chart that is not its data: its title (None: the page writes it above the chart), its axes'
    titles, what its values are called (colour scale, tooltips), and the builder's own by name (`more`: "running",
    "rank", …; Titles(title, x, y, value, running="running sum")). The about_<builder> sentence a screen reader reads
    is filled in with them under the same names (fields)."""
    title: str | None
    x: str
    y: str
    value: str
    more: tuple[tuple[str, str], ...]

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
    """What a heatmap draws besides its colours: each cell's number (`annotate`), masked cells grey, the selected row
    outlined, and the ticks of an axis of dimensions (None: an axis of words, every one labelled)."""
    annotate: bool = True
    masked: bool = False
    outlined: bool = False
    x_ticks: tuple | None = None
    y_ticks: tuple | None = None


def dataset(i: int = 0) -> str:
    """The name a chart's i-th DataFrame travels under (render.vega_lite names them so); expressions read it by name."""
    return f"data-{i}"


def symmetric_domain(field: str) -> alt.ExprRef:
    """[-m, m] for m the largest |field| in the chart's first DataFrame (1 if all are 0), worked out in the browser."""
    lo_hi = f"extent(pluck(data('{dataset()}'), '{field}'))"
    m = f"(max(abs({lo_hi}[0]), abs({lo_hi}[1])) || 1)"
    return alt.ExprRef(f"[-{m}, {m}]")


def signed(field: str, title: str, **legend) -> alt.Color:
    """Diverging red-blue colour, blue positive and red negative, symmetric about zero: a weight of 0 is white, not the
    red end of an all-positive scale, and equal sizes look equally strong."""
    scale = alt.Scale(scheme="redblue", domainMid=0, domain=symmetric_domain(field))
    return alt.Color(f"{field}:Q", title=title, scale=scale, legend=_gradient(**legend))


def sequential(field: str, title: str, **legend) -> alt.Color:
    """White at 0 to dark blue at the chart's largest value (1 if all are 0): for weights, which are never negative."""
    top = f"(extent(pluck(data('{dataset()}'), '{field}'))[1] || 1)"
    scale = alt.Scale(scheme="blues", domain=alt.ExprRef(f"[0, {top}]"))
    return alt.Color(f"{field}:Q", title=title, scale=scale, legend=_gradient(**legend))


def _gradient(**kw) -> alt.Legend:
    """A colour bar at the right with compact numbers."""
    return alt.Legend(**{"orient": "right", "gradientLength": 120, "labelExpr": COMPACT, **kw})


def _number_axis(**kw) -> alt.Axis:
    """An axis of numbers, written compactly however large or small they get."""
    return alt.Axis(labelExpr=COMPACT, **kw)


def _level_title(orient: str = "left", **kw) -> alt.Axis:
    """A vertical axis with its title written level, above the axis, and not turned on its side: turned, Chinese
    titles read sideways."""
    return alt.Axis(orient=orient, titleAngle=0, titleAlign="right" if orient == "left" else "left",
                    titleBaseline="bottom", titleX=0, titleY=-8, **kw)


def _word_labels(channel: str) -> dict:
    """Axis label settings that show every word (words are data: none may be dropped), on an x axis turned upright
    and smaller where the columns get narrow, as the browser finds them drawn."""
    if channel == "y":
        return {"labelOverlap": False}
    return {"labelOverlap": False, "labelFlush": False, "labelAngle": -90, "labelLimit": LABEL_LIMIT,
            "labelFontSize": alt.ExprRef(f"clamp(bandwidth('{channel}') - 1, 7, 11)")}


def _described(chart, description: str | None):
    """The chart with the sentence a screen reader reads for it, when there is one."""
    return chart if description is None else chart.properties(description=description)


def _when(channel, test: str, then, otherwise):
    """A value channel that is `then` where `test` holds, else `otherwise`: what alt.condition gives for two values,
    but typed, so encode() need not match a plain dict against the schema (that matching cost ~15 ms a channel)."""
    return channel(otherwise, condition={"test": test, "value": then})


def heatmap(df: pd.DataFrame, titles: Titles, *, cells: Cells | None = None, clickable: bool = False,
            height: int | None = None, weights: bool = False, description: str | None = None) -> alt.Chart:
    """Rows are words in table order (field r), columns likewise (c); signed values on a diverging scale (attention
    weights, never negative, with `weights` on a sequential one from 0), with what `cells` draws on them (the masked
    cells' label is titles' "masked"). An axis with ticks (of dimensions) labels those that fit, one without (of
    words) every label. `height` pixels high, else ROW_STEP pixels a row; as wide as the page's column (_fit_width)."""
    cells = cells or Cells()
    tooltip = [alt.Tooltip("row:N", title=titles.y), alt.Tooltip("col:N", title=titles.x),
               alt.Tooltip("value:Q", title=titles.value, format=".3f")]
    base = alt.Chart(df, title=titles.title).encode(
        x=alt.X(_band_field(df, "col"), title=titles.x, sort=alt.EncodingSortField("c", op="min"),
                axis=alt.Axis(**_band_labels("x", cells.x_ticks))),
        y=alt.Y(_band_field(df, "row"), title=titles.y, sort=alt.EncodingSortField("r", op="min"),
                axis=_level_title(**_band_labels("y", cells.y_ticks))),
        tooltip=tooltip,
    )
    colour = (sequential if weights else signed)("value", titles.value,
                                                 gradientLength=alt.ExprRef(f"clamp({PLOT_HEIGHT} - 20, 40, 120)"))
    masked = cells.masked
    rect = base.mark_rect().encode(color=alt.condition("datum.masked", alt.value(MASKED), colour) if masked else colour)
    if cells.outlined:
        rect = rect.encode(stroke=_when(alt.StrokeValue, "datum.selected", "black", None),
                           strokeWidth=_when(alt.StrokeWidthValue, "datum.selected", 2, 0))
    if clickable:
        rect = rect.add_params(alt.selection_point(name=PICK, fields=["row", "col"], on="click", clear=False))
    signs = [] if weights else [_cell_signs(base, "datum.strong", masked)]
    layers = [rect] + ([_cell_numbers(base, masked, titles.get("masked", "masked"))] if cells.annotate else signs)
    return _described(_fit_width(alt.layer(*layers).properties(height=height or alt.Step(ROW_STEP))), description)


def _fit_width(plot: alt.Chart | alt.LayerChart) -> alt.VConcatChart:
    """`plot` as wide as the page's column and as high as it says (a step a row: as high as its words): a column of
    one. Alone, a chart with a height of steps can fit only its width to the page, and Vega-Lite warns on every draw
    that it drops fitting the height; a height the page gave it would change with the number of words, and the browser
    would then lay the chart out and draw it twice on each such edit. A column's height is its parts', which Vega-Lite
    leaves alone, while fit-x makes the whole as wide as the page (Streamlit sets the part's width to the column's).
    Shared scales keep their names (x, y, color) for the expressions that read them."""
    return alt.vconcat(plot.properties(width=WIDTH)).resolve_scale(x="shared", y="shared", color="shared").properties(
        autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))


def _band_field(df: pd.DataFrame, field: str) -> str:
    """Dimensions (integers) as ordered labels, words as names."""
    return f"{field}:O" if pd.api.types.is_integer_dtype(df[field]) else f"{field}:N"


def _band_labels(channel: str, ticks: tuple | None) -> dict:
    """The given ticks, as many as fit; without ticks, every label: words are data, none may be dropped."""
    return _word_labels(channel) if ticks is None else {"values": list(ticks), "labelOverlap": True, "labelAngle": 0}


def _cell_numbers(base: alt.Chart, masked: bool, masked_label: str) -> alt.Chart:
    """Each cell's number, compact, dark or white to stand out from its colour, at a size its column fits. Hidden from
    screen readers, which read the cell itself."""
    number = alt.Text("label:N")
    return base.transform_joinaggregate(lo="min(value)", hi="max(value)").transform_calculate(label=CELL).mark_text(
        fontSize=alt.ExprRef("clamp(bandwidth('x') / 3.5, 7, 11)"), aria=False).encode(
        text=alt.condition("datum.masked", alt.value(masked_label), number) if masked else number,
        color=_when(alt.ColorValue, "datum.strong && !datum.masked" if masked else "datum.strong", "white", "#222"),
    )


def _cell_signs(base: alt.Chart, strong: str, masked: bool = False) -> alt.Chart:
    """Each cell's sign, + or −, where its number is not written: a sign is readable without telling red from blue.
    Drawn as a filled plus or minus symbol (a path, which the browser draws faster than text), white where `strong`
    holds, else dark, to stand out from the cell; none at zero, in masked cells or in cells too narrow for it; hidden
    from screen readers, which read the cell's signed value."""
    shown = "datum.value != 0" + (" && !datum.masked" if masked else "")
    return base.transform_filter(shown).mark_point(
        filled=True, strokeWidth=0, size=alt.ExprRef("pow(clamp(bandwidth('x') / 2, 5, 7), 2)"),
        opacity=alt.ExprRef("bandwidth('x') >= 10 ? 1 : 0"), aria=False).encode(
        shape=_when(alt.ShapeValue, "datum.value > 0", PLUS, MINUS),
        color=_when(alt.ColorValue, strong, "white", "#222"))


def weight_bars(df: pd.DataFrame, titles: Titles, *, weights: bool = True,
                description: str | None = None) -> alt.Chart:
    """The query's weight on each key word, in sentence order (field k); sequential colours from 0 for softmax
    weights, diverging ones when the softmax is off and raw scores can be negative."""
    x_title, y_title = titles.x, titles.y
    return _described(alt.Chart(df, title=titles.title).mark_bar().encode(
        x=alt.X("key:N", sort=alt.EncodingSortField("k", op="min"), title=x_title, axis=alt.Axis(**_word_labels("x"))),
        y=alt.Y("weight:Q", title=y_title, axis=_level_title(labelExpr=COMPACT)),
        color=alt.condition("datum.masked", alt.value(MASKED), (sequential if weights else signed)("weight", y_title)),
        tooltip=[alt.Tooltip("key:N", title=x_title), alt.Tooltip("weight:Q", title=y_title, format=".4f")],
    ).properties(width="container", height=180), description)


def contribution_bars(df: pd.DataFrame, z_row: pd.DataFrame, titles: Titles, *,
                      description: str | None = None) -> alt.Chart:
    """Stacked weighted value rows per dimension in sentence order (field k), with the query's row of Z as ticks; as
    high as the page makes it (render.chart makes it contribution_bars_height). The key words of the largest weights
    (as many as HEAD_COLOURS) each have a colour, most weighted first in the legend; the others are grey together
    under titles' "other", so no two words share a colour however long the sentence. Titles also name the "key"
    word, the "z" row and the "weight"."""
    x_title, y_title, key_title, other_title = titles.x, titles.y, titles["key"], titles.get("other", "…")
    bars = alt.Chart(df, title=titles.title).transform_window(
        rank="dense_rank()", sort=[alt.SortField("weight", "descending"), alt.SortField("k")],
    ).transform_calculate(
        shown=f"datum.rank <= {len(HEAD_COLOURS)} ? datum.key : {json.dumps(other_title)}",
    ).mark_bar().encode(
        x=alt.X("dim:O", title=x_title),
        y=alt.Y("sum(contribution):Q", title=y_title, axis=_level_title(labelExpr=COMPACT)),
        color=alt.Color("shown:N", sort=alt.EncodingSortField("rank", op="min"), title=key_title,
                        scale=alt.Scale(range=[*HEAD_COLOURS, GREY]),  # no colour twice: the other words grey
                        legend=alt.Legend(orient="bottom", columns=KEY_COLUMNS, symbolLimit=0)),
        order=alt.Order("k:Q", title=key_title),  # titled as the key word: screen readers then read the word, not k
        tooltip=[alt.Tooltip("key:N", title=key_title), alt.Tooltip("dim:O", title=x_title),
                 alt.Tooltip("weight:Q", title=titles["weight"], format=".3f"),
                 alt.Tooltip("contribution:Q", title=y_title, format=".4f")],
    )
    ticks = alt.Chart(z_row).mark_tick(color="black", thickness=2, size=14).encode(
        x=alt.X("dim:O", title=x_title), y=alt.Y("z:Q", title=y_title),
        tooltip=[alt.Tooltip("dim:O", title=x_title), alt.Tooltip("z:Q", title=titles["z"], format=".4f")],
    )
    return _described(alt.layer(bars, ticks).properties(width="container", height="container"), description)


def contribution_bars_height(df: pd.DataFrame, z_row: pd.DataFrame) -> int:
    """The page height of contribution_bars: a 260-pixel plot, its title and axes, and a row of legend for every
    KEY_COLUMNS entries (a key word of field k each, up to HEAD_COLOURS, and one for the other words)."""
    return 380 + 20 * -(-min(df["k"].nunique(), len(HEAD_COLOURS) + 1) // KEY_COLUMNS)


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
                axis=_level_title(labelExpr=COMPACT)),
        color=alt.Color("group:N", title=group_title,
                        scale=alt.Scale(domain=list(GROUP_COLOURS), range=list(GROUP_COLOURS.values())),
                        legend=alt.Legend(labelExpr=_label_expr(group_names), orient="bottom", columns=2)),
        tooltip=[alt.Tooltip("dim:N", title=x_title), alt.Tooltip("group:N", title=group_title),
                 alt.Tooltip("product:Q", title=y_title, format=".4f"),
                 alt.Tooltip("running:Q", title=running_title, format=".4f")],
    )
    line = base.transform_calculate(line=json.dumps(running_title)).mark_line(
        color="#444", point=alt.OverlayMarkDef(size=12, color="#444")).encode(
        y=alt.Y("running:Q", title=running_title, scale=alt.Scale(domain=data_range("running"), nice=False),
                axis=_level_title("right", labelExpr=COMPACT, grid=False)),
        strokeDash=alt.StrokeDash("line:N", title=running_title, scale=alt.Scale(range=[[1, 0]]),
                                  legend=alt.Legend(title=None, orient="bottom", symbolType="stroke")),
        tooltip=[alt.Tooltip("dim:N", title=x_title), alt.Tooltip("running:Q", title=running_title, format=".4f")],
    )
    # Data on the layer, not on each mark: Altair then neither hashes nor deep-copies it once per mark.
    chart = alt.layer(bars, line, _running_end(base, x_title, running_title), data=df,
                      title=titles.title).resolve_scale(y="independent")
    return _described(chart.properties(width="container", height=260), description)


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


def sign_strips(df: pd.DataFrame, titles: Titles, *, description: str | None = None) -> alt.Chart:
    """Vectors as coloured strips, one above the other in table order (field v, titles' y: its axis shows only their
    names), dimension by dimension, so matching signs line up, each cell marked with its sign; STRIP_STEP
    pixels a vector."""
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
    signs = _cell_signs(base, f"abs(datum.value) > 0.6 * {top}")  # white on the darker cells, as heatmap numbers
    return _described(_fit_width(alt.layer(rect, signs, title=titles.title).properties(height=alt.Step(STRIP_STEP))),
                      description)


def relevance_bars(df: pd.DataFrame, titles: Titles, *, description: str | None = None) -> alt.Chart:
    """One measure's scores for the query as horizontal bars, the most relevant word on top (equal scores in sentence
    order), BAR_STEP pixels a word; the tooltip names each word's "rank"."""
    x_title, y_title = titles.x, titles.y
    return _described(_fit_width(alt.Chart(df, title=titles.title).mark_bar().encode(
        y=alt.Y("key:N", sort=alt.EncodingSortField("score", op="max", order="descending"), title=y_title,
                axis=alt.Axis(title=None, labelOverlap=False)),
        x=alt.X("score:Q", title=x_title, axis=_number_axis()),
        color=signed("score", x_title).legend(None),
        tooltip=[alt.Tooltip("key:N", title=y_title), alt.Tooltip("score:Q", title=x_title, format=".4f"),
                 alt.Tooltip("rank:O", title=titles["rank"])],
    ).properties(height=alt.Step(BAR_STEP))), description)


ROLE_COLOURS = {"q": "#7b3294", "k": "#1b7837"}  # query purple, key green: apart from the agree/disagree colours
FRAME = "frame"
SHOWN = "shown_step"  # the training step the vector plane's slider picks


def loss_curve(df: pd.DataFrame, titles: Titles, *, steps: int | None = None,
               description: str | None = None) -> alt.Chart:
    """The loss at every training step; the x axis spans all `steps` so a run drawn live grows across it."""
    x_scale = alt.Scale(domain=[0, steps]) if steps else alt.Undefined
    x_title, y_title = titles.x, titles.y
    return _described(alt.Chart(df, title=titles.title).mark_line(color="#444").encode(
        x=alt.X("step:Q", title=x_title, scale=x_scale, axis=_number_axis()),
        y=alt.Y("loss:Q", title=y_title, scale=alt.Scale(zero=False), axis=_level_title(labelExpr=COMPACT)),
        tooltip=[alt.Tooltip("step:Q", title=x_title), alt.Tooltip("loss:Q", title=y_title, format=".4f")],
    ).properties(width="container", height=220), description)


def pair_curves(df: pd.DataFrame, titles: Titles, *, marker: int | None = None, columns: int = 2,
                description: str | None = None) -> alt.Chart:
    """One line per target pair (titles' "pair") over the training steps, named in a legend of `columns` columns; a
    dashed rule at step `marker`, where the target order was reached (titles' "marker")."""
    pairs = list(dict.fromkeys(df["pair"]))
    x_title, y_title, pair_title = titles.x, titles.y, titles["pair"]
    lines = alt.Chart(df, title=titles.title).mark_line().encode(
        x=alt.X("step:Q", title=x_title, axis=_number_axis()),
        y=alt.Y("value:Q", title=y_title, axis=_level_title(labelExpr=COMPACT)),
        color=alt.Color("pair:N", sort=pairs, title=pair_title, scale=alt.Scale(range=HEAD_COLOURS),
                        legend=alt.Legend(orient="bottom", columns=columns, labelLimit=260)),
        tooltip=[alt.Tooltip("pair:N", title=pair_title), alt.Tooltip("step:Q", title=x_title),
                 alt.Tooltip("value:Q", title=y_title, format=".4f")],
    )
    if marker is None:
        return _described(lines.properties(width="container", height=220), description)
    rule = alt.Chart(pd.DataFrame({"step": [marker], "label": [titles.get("marker", "")]})).mark_rule(
        color="#444", strokeDash=[4, 3]).encode(
        x=alt.X("step:Q"), tooltip=[alt.Tooltip("label:N", title=pair_title), alt.Tooltip("step:Q", title=x_title)])
    return _described(alt.layer(lines, rule).properties(width="container", height=220), description)


def accuracy_curves(df: pd.DataFrame, levels: pd.DataFrame, titles: Titles, *, names: list[str],
                    steps: int | None = None, description: str | None = None) -> alt.LayerChart:
    """Accuracy (0 to 100 %) at every training step, one line per set of sentences (titles' "line": `names`, in legend
    order; the first, the held-out one, bold and the others faint), over a dashed level for each simple rule (titles'
    "level"), labelled at the right; the x axis spans all `steps` so a run drawn live grows across it."""
    x_scale = alt.Scale(domain=[0, steps]) if steps else alt.Undefined
    x_title, y_title, line_title = titles.x, titles.y, titles["line"]
    y = alt.Y("value:Q", title=y_title, scale=alt.Scale(domain=[0, 1]),
              axis=_level_title(labelExpr=COMPACT, format="~%"))
    first = f"datum.line == {json.dumps(names[0] if names else '')}"
    lines = alt.Chart(df).mark_line().encode(
        x=alt.X("step:Q", title=x_title, scale=x_scale, axis=_number_axis()), y=y,
        color=alt.Color("line:N", sort=names, title=line_title, scale=alt.Scale(domain=names, range=HEAD_COLOURS),
                        legend=alt.Legend(orient="bottom", labelLimit=260)),
        strokeWidth=_when(alt.StrokeWidthValue, first, 2.5, 1.0),
        opacity=_when(alt.OpacityValue, first, 1.0, 0.45),
        tooltip=[alt.Tooltip("line:N", title=line_title), alt.Tooltip("step:Q", title=x_title),
                 alt.Tooltip("value:Q", title=y_title, format=".1%")],
    )
    level = alt.Chart(levels).encode(y=y, tooltip=[alt.Tooltip("name:N", title=titles["level"]),
                                                   alt.Tooltip("value:Q", title=y_title, format=".1%")])
    rules = level.mark_rule(color="#555", strokeDash=[5, 4])
    labels = level.mark_text(align="right", baseline="top", dx=-4, dy=3, color="#444").encode(
        x=alt.value("width"), text=alt.Text("name:N"))  # under its line, where a run that beats the rule is not
    return _described(alt.layer(rules, labels, lines, title=titles.title).properties(width="container", height=240),
                      description)  # the lines drawn last, over the levels


# The snapshot shown: the last one taken at or before the slider's step (field until: the next one's step).
AT_SHOWN = f"datum.step <= {SHOWN} && {SHOWN} < datum.until"


def vector_plane(df: pd.DataFrame, titles: Titles, *, role_names: dict[str, str], size: int = 440,
                 description: str | None = None) -> alt.Chart:
    """Query and key vectors as arrows from the origin at the step a slider (titles' "slider") picks, in steps of the
    snapshots' spacing (between two, the earlier), the highlighted ones labelled and trailed by their path; titles'
    "role" (each in `role_names`), "word" and "step" too. One range on both axes: angles look true, frames compare."""
    frame, df = _step_slider(df, titles["slider"])
    role_title, word_title, step_title = (titles[name] for name in ("role", "word", "step"))
    (x_scale, y_scale), roles = _square_scales(df), list(ROLE_COLOURS)
    tooltip = [alt.Tooltip("word:N", title=word_title), alt.Tooltip("role_name:N", title=role_title),
               alt.Tooltip("step:Q", title=step_title), alt.Tooltip("x:Q", title=titles.x, format=".3f"),
               alt.Tooltip("y:Q", title=titles.y, format=".3f")]
    # Colour and shape tell the role together: one legend, so the two legends' settings cannot conflict.
    legend = alt.Legend(labelExpr=_label_expr(role_names), orient="bottom", symbolOpacity=1)
    base = alt.Chart(df).transform_calculate(
        role_name=f"{_label_expr(role_names).replace('datum.value', 'datum.role')}", origin="0",
    ).encode(
        x=alt.X("x:Q", scale=x_scale, title=titles.x, axis=_number_axis()),
        y=alt.Y("y:Q", scale=y_scale, title=titles.y, axis=_level_title(labelExpr=COMPACT)),
        color=alt.Color("role:N", title=role_title, scale=alt.Scale(domain=roles, range=list(ROLE_COLOURS.values())),
                        legend=legend),
        tooltip=tooltip,
    )
    now = base.transform_filter(AT_SHOWN)
    zero = alt.Chart(pd.DataFrame({"zero": [0.0]})).mark_rule(color="#bbb", aria=False)
    axes = zero.encode(x=alt.X("zero:Q", scale=x_scale), tooltip=[alt.Tooltip("zero:Q", title=titles.x)])
    axes_y = zero.encode(y=alt.Y("zero:Q", scale=y_scale), tooltip=[alt.Tooltip("zero:Q", title=titles.y)])
    trails = base.transform_filter("datum.focus").mark_line(opacity=0.35, strokeDash=[2, 2]).encode(
        detail=alt.Detail("name:N", title=word_title), order=alt.Order("step:Q", title=step_title))
    arrows = now.mark_rule().encode(
        x2=alt.X2("origin:Q"), y2=alt.Y2("origin:Q"),
        strokeWidth=_when(alt.StrokeWidthValue, "datum.focus", 2.5, 1),
        opacity=_when(alt.OpacityValue, "datum.focus", 0.9, 0.25))
    points = now.mark_point(filled=True).encode(
        shape=alt.Shape("role:N", title=role_title, scale=alt.Scale(domain=roles, range=["circle", "square"]),
                        legend=legend),
        size=_when(alt.SizeValue, "datum.focus", 110, 35), opacity=_when(alt.OpacityValue, "datum.focus", 1.0, 0.35))
    labels = now.transform_filter("datum.focus").mark_text(align="left", dx=7, dy=-7, fontSize=12).encode(
        y=alt.Y("label_y:Q", scale=y_scale), text=alt.Text("name:N", title=word_title))
    chart = alt.layer(axes, axes_y, trails, arrows, points, labels, _step_label(df, step_title), title=titles.title)
    return _described(chart.add_params(frame).properties(width=size, height=size), description)


def _step_slider(df: pd.DataFrame, label: str) -> tuple[alt.Parameter, pd.DataFrame]:
    """The slider over training steps (in steps of the snapshots' common spacing), and the frames with the step at
    which each is followed by the next (field until)."""
    steps = df.groupby(FRAME)["step"].first().sort_index()
    last, every = int(steps.iloc[-1]), max(1, int(np.gcd.reduce(np.diff(steps.to_numpy(dtype=int)), initial=0)))
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


def _label_expr(names: dict[str, str]) -> str:
    """A Vega expression mapping legend values to their display names."""
    cases = " : ".join(f"datum.value == {k!r} ? {v!r}" for k, v in names.items())
    return f"{cases} : datum.value"


def length_bars(df: pd.DataFrame, titles: Titles, *, description: str | None = None) -> alt.Chart:
    """Each word's GloVe row length beside its positional row length (titles' "part"), words in sentence order,
    LENGTH_STEP pixels a bar (Vega-Lite's step is the offset's where there is one)."""
    title, x_title, y_title, part_title = titles.title, titles.x, titles.y, titles["part"]
    return _described(_fit_width(alt.Chart(df, title=alt.Undefined if title is None else title).mark_bar().encode(
        y=alt.Y("row:N", sort=alt.EncodingSortField("r", op="min"), title=y_title,
                axis=alt.Axis(title=None, labelOverlap=False)),
        yOffset=alt.YOffset("part:N", title=part_title),
        x=alt.X("length:Q", title=x_title, axis=_number_axis()),
        color=alt.Color("part:N", title=part_title, scale=alt.Scale(range=[AGREE["++"], GREY]),
                        legend=alt.Legend(orient="bottom")),
        tooltip=[alt.Tooltip("row:N", title=y_title), alt.Tooltip("part:N", title=part_title),
                 alt.Tooltip("length:Q", title=x_title, format=".3f")],
    ).properties(height=alt.Step(LENGTH_STEP))), description)


HOVER = "hover_query"  # the query word under the pointer (by position, as words repeat): its lines and heatmap row
HOVER_KEY = "hover_key"  # the key word under the pointer: the lines into it and its heatmap column
LINE_STEP = 18  # pixels per word down the line view: 64 words stay legible
LINES_HEIGHT = 240  # pixels a short sentence's line view takes at least, up to WIDE_STEP a word
WIDE_STEP = 30  # pixels per word of a short sentence: its words, and the lines between them, well apart
LINES_WIDTH = 200  # pixels between the query column and the key column
HEATMAPS_WIDTH = 420  # pixels the heatmaps' cells share in a row before the heads wrap to a new row
MIN_CELL = 8  # pixels a heatmap column takes at least: its key word then stays 7 pixels high
FADED = 0.1  # the opacity of the lines of words not hovered, times one over the words in a column: faded together,
# a sentence's many lines stay a faint haze
HOVERED = {"and": [{"param": HOVER}, {"param": HOVER_KEY}]}  # of the hovered query and key; all, while none is
ANY_HOVERED = {"or": [{"param": HOVER, "empty": False}, {"param": HOVER_KEY, "empty": False}]}  # something is hovered


def attention_lines(df: pd.DataFrame, titles: Titles, *, weights: bool = True,
                    description: str | None = None) -> alt.HConcatChart | alt.VConcatChart:
    """BertViz's line view: a weights heatmap per head, then query words (field query, position q_pos) level with
    its rows, key words (key, k_pos) to the right, and a line from each query to each key it sees (a row of df) in
    its head's colour (h, head), as opaque as field opacity, dashed for a negative score. Hovering a query word or a
    heatmap cell isolates that query's lines and outlines its row; hovering a key word, the lines into it and its
    column. Sequential heatmap colours from 0 with `weights` (softmax), diverging ones for raw scores. Heatmaps that
    do not fit beside the lines (HEATMAPS_WIDTH) wrap to rows below them. Titles name the "head" too."""
    heads = list(dict.fromkeys(df.sort_values("h", kind="stable")["head"]))
    step = _word_step(max(_count(df, "q_pos"), _count(df, "k_pos")))
    maps, per_row = _head_heatmaps(df, heads, titles, weights=weights, step=step)
    hover = [_hover(HOVER, "q_pos", [m.name for m in maps] + ["query_words"]),
             _hover(HOVER_KEY, "k_pos", ["key_words"])]
    # Flush bounds: views line up by plot area alone, so each heatmap's row i sits level with query word i.
    top = alt.hconcat(*maps[:per_row], *_line_columns(df, heads, titles, step=step), bounds="flush", spacing=8)
    if len(maps) <= per_row:
        chart = top.properties(data=df, title=titles.title, params=hover)
    else:
        below = [alt.hconcat(*maps[i:i + per_row], spacing=8) for i in range(per_row, len(maps), per_row)]
        chart = alt.vconcat(top, *below, data=df, title=titles.title, params=hover, spacing=16)
    # Streamlit's theme asks every chart to fit the page's width; a chart of charts cannot (Vega-Lite warns).
    return _described(chart.properties(autosize=alt.AutoSizeParams(type="pad")), description)


def _word_step(rows: int) -> int:
    """Pixels per word down the line view: LINE_STEP for a long sentence, more (up to WIDE_STEP) for a short one,
    whose view then stays LINES_HEIGHT high."""
    return max(LINE_STEP, min(WIDE_STEP, LINES_HEIGHT // rows))


def _hover(name: str, field: str, views: list[str]) -> alt.TopLevelSelectionParameter:
    """The mark under the pointer in any of `views`, by `field`; none once the pointer leaves it. Set on the whole
    chart with its views named: Altair, lifting a param added to several views, warns, and adds sibling layers."""
    return alt.TopLevelSelectionParameter(name=name, views=views, select=alt.PointSelectionConfig(
        type="point", fields=[field], on="pointerover", clear="pointerout"))


def _head_heatmaps(df: pd.DataFrame, heads: list[str], titles: Titles, *, weights: bool,
                   step: int) -> tuple[list[alt.Chart], int]:
    """One weights heatmap per head (field h), rows `step` high to sit level with the query words, masked pairs
    grey, the hovered query's row (or key's column) outlined; and how many fit side by side in HEATMAPS_WIDTH. The
    first of each row names its query words, but for a lone heatmap, whose rows meet the query words beside it. Key
    words as large as the columns fit: bandwidth('x') names no scale in a chart of charts."""
    n_q, n_k = _count(df, "q_pos"), _count(df, "k_pos")
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
                    axis=alt.Axis(**{**_word_labels("x"), "labelFontSize": min(11, cell - 1)})),
            y=alt.Y("query:N", sort=alt.EncodingSortField("q_pos", op="min"), title=y_title, scale=tight,
                    axis=alt.Axis(title=None, labelFlush=False, **_word_labels("y")) if labelled else None),
            color=colour,
            stroke=_when(alt.StrokeValue, outlined, "#222", None),
            strokeWidth=_when(alt.StrokeWidthValue, outlined, 1.5, 0),
            tooltip=[alt.Tooltip("head:N", title=head_title), alt.Tooltip("query:N", title=y_title),
                     alt.Tooltip("key:N", title=x_title), alt.Tooltip("weight:Q", title=value_title, format=".3f")],
        ).properties(width=cell * n_k, height=step * n_q,
                     view=alt.ViewBackground(fill=MASKED)))  # masked pairs have no cell: grey shows through
    return maps, per_row


def _line_columns(df: pd.DataFrame, heads: list[str], titles: Titles, *, step: int) -> list[alt.Chart]:
    """Query words, a line for every row of df, key words, `step` pixels a word: three plain views (not layers, whose
    names Altair changes in a concat; the hover params list these names). Each head's lines run a little apart, so
    heads drawn over each other stay visible."""
    rows = max(_count(df, "q_pos"), _count(df, "k_pos"))
    x_title, y_title, value_title, head_title = titles.x, titles.y, titles.value, titles["head"]
    y = alt.Scale(domain=[-0.5, rows - 0.5], reverse=True, nice=False, zero=False)  # row i at i + ½ steps down
    spread, middle = 0.6 / len(heads), (len(heads) - 1) / 2
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
        strokeWidth=_when(alt.StrokeWidthValue, ANY_HOVERED, 3, 2),  # the few lines left stand out
        strokeDash=_when(alt.StrokeDashValue, "datum.weight < 0", [4, 3], [1, 0]),
        tooltip=[alt.Tooltip("head:N", title=head_title), alt.Tooltip("query:N", title=y_title),
                 alt.Tooltip("key:N", title=x_title), alt.Tooltip("weight:Q", title=value_title, format=".3f")],
    ).properties(width=LINES_WIDTH, height=step * rows)
    return [_word_column(df, "query", "q_pos", y_title, y, rows, step), lines,
            _word_column(df, "key", "k_pos", x_title, y, rows, step)]


def _word_column(df: pd.DataFrame, field: str, position: str, title: str, y: alt.Scale, rows: int,
                 step: int = LINE_STEP) -> alt.Chart:
    """Each word of one column once, at its position, `step` pixels a word, beside the lines (query words to their left,
    key words to their right), under its title, which runs to the right (over the lines, clear of the heatmaps'
    titles); larger while hovered, the others of its column grey."""
    param, width, left = (HOVER if field == "query" else HOVER_KEY), _label_width(df[field]), field == "query"
    chart = alt.Chart(name=f"{field}_words", title=alt.TitleParams(title, anchor="start"))
    return chart.transform_aggregate(groupby=[field, position]).mark_text(
        align="right" if left else "left", baseline="middle", limit=LABEL_LIMIT).encode(
        x=alt.XValue(width if left else 0), y=alt.Y(f"{position}:Q", scale=y, axis=None),
        text=alt.Text(f"{field}:N", title=title),
        size=_when(alt.SizeValue, {"param": param, "empty": False}, 14, 12),
        color=_when(alt.ColorValue, {"param": param}, "#222", "#aaa"),
        tooltip=[alt.Tooltip(f"{field}:N", title=title)],
    ).properties(width=width, height=step * rows)


def _count(df: pd.DataFrame, position: str) -> int:
    """How many words a column of positions spans (at least 1)."""
    return int(df[position].max()) + 1 if len(df) else 1


def _label_width(words: pd.Series) -> int:
    """Pixels a column of words takes at the largest (hovered) size: room for the longest, up to LABEL_LIMIT; a
    Chinese character takes two letters' room."""
    wide = max((sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in str(w)) for w in words.unique()),
               default=1)
    return min(LABEL_LIMIT, 8 * wide + 4)


LINE_KINDS = ("gold", "right", "wrong")  # a word's line to its head, and to its top key when right or wrong
LINE_COLOURS = ["#555555", AGREE["++"], DISAGREE["-+"]]  # grey, then the blue and red of agree and disagree
LINE_DASHES = [[1, 0], [1, 0], [5, 3]]  # wrong also dashed: not by colour alone
LINE_SHIFT = 0.14  # of a row: a head's line runs just above the word's row, its top key's just below


def head_lines(df: pd.DataFrame, titles: Titles, *, line_names: list[str],
               description: str | None = None) -> alt.HConcatChart:
    """The line view of one sentence's heads (tables.head_lines_frame): each word's relation, the word (field query,
    position q_pos), ✓ or ✗ (mark, blue where right, red where not), then a line to the word it belongs to and one
    to the word it attends to most (kinds LINE_KINDS, shown as `line_names`; wrong ones dashed), key words (key,
    k_pos) to the right. Hovering a word keeps its lines, as in attention_lines. Titles name the "relation" and the
    "line" too."""
    rows = _count(df, "q_pos")
    x_title, y_title, value_title = titles.x, titles.y, titles.value
    relation_title, line_title = titles["relation"], titles["line"]
    y = alt.Scale(domain=[-0.5, rows - 0.5], reverse=True, nice=False, zero=False)
    words = "datum.kind == 'word'"
    legend = alt.Legend(orient="right", symbolType="stroke", symbolStrokeWidth=3, labelLimit=0)
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
        opacity=_when(alt.OpacityValue, HOVERED, 0.85, 0.08),
        tooltip=[alt.Tooltip("line:N", title=line_title), alt.Tooltip("query:N", title=y_title),
                 alt.Tooltip("key:N", title=x_title), alt.Tooltip("relation:N", title=relation_title),
                 alt.Tooltip("weight:Q", title=value_title, format=".3f")],
    ).properties(width=LINES_WIDTH, height=LINE_STEP * rows)
    relation = _relation_column(df, relation_title, y_title, y, rows)
    marks = _right_marks(line_title, y_title, y, rows)
    hover = [_hover(HOVER, "q_pos", ["query_words"]), _hover(HOVER_KEY, "k_pos", ["key_words"])]
    chart = alt.hconcat(relation, _word_column(df, "query", "q_pos", y_title, y, rows), marks, lines,
                        _word_column(df, "key", "k_pos", x_title, y, rows), bounds="flush", spacing=6)
    chart = chart.properties(data=df, title=titles.title, params=hover, autosize=alt.AutoSizeParams(type="pad"))
    return _described(chart, description)


def _relation_column(df: pd.DataFrame, relation_title: str, y_title: str, y: alt.Scale, rows: int) -> alt.Chart:
    """Each word's relation, right-aligned in italics left of the word (head_lines)."""
    return alt.Chart(name="relations", title=alt.TitleParams(relation_title, anchor="end")).transform_filter(
        "datum.kind == 'word'").mark_text(align="right", baseline="middle", color=GREY, fontStyle="italic").encode(
        x=alt.XValue(_label_width(df["relation"]) - 4), y=alt.Y("q_pos:Q", scale=y, axis=None),
        text=alt.Text("relation:N", title=relation_title),
        tooltip=[alt.Tooltip("query:N", title=y_title), alt.Tooltip("relation:N", title=relation_title)],
    ).properties(width=_label_width(df["relation"]), height=LINE_STEP * rows)


def _right_marks(line_title: str, y_title: str, y: alt.Scale, rows: int) -> alt.Chart:
    """✓ (blue) or ✗ (red) right of each word: whether it attends most to the word it belongs to (head_lines)."""
    return alt.Chart(name="marks").transform_filter("datum.kind == 'word' && datum.mark != ''").mark_text(
        baseline="middle", fontSize=14, fontWeight="bold").encode(
        x=alt.XValue(8), y=alt.Y("q_pos:Q", scale=y, axis=None), text=alt.Text("mark:N", title=line_title),
        color=_when(alt.ColorValue, "datum.right", LINE_COLOURS[1], LINE_COLOURS[2]),
        tooltip=[alt.Tooltip("query:N", title=y_title), alt.Tooltip("mark:N", title=line_title)],
    ).properties(width=16, height=LINE_STEP * rows)


RELATION_STEP = 36  # pixels a relation: its two bars
SERIES_COLOURS = [HEAD_COLOURS[0], GREY]  # the head as in the line view, the baseline grey


def relation_accuracy(df: pd.DataFrame, titles: Titles, *, series: list[str],
                      description: str | None = None) -> alt.VConcatChart:
    """Per relation (label, in order r), two bars side by side: the head's share right and the best fixed offset's
    (series, in order s, named `series` under titles' "series"), each with its share written at its end (text); the
    tooltip gives the "count" of words."""
    x_title, y_title, series_title = titles.x, titles.y, titles["series"]
    base = alt.Chart(df).encode(
        y=alt.Y("label:N", sort=alt.EncodingSortField("r", op="min"), title=y_title,
                axis=_level_title(labelLimit=320, labelOverlap=False)),
        yOffset=alt.YOffset("series:N", sort=series, scale=alt.Scale(domain=series, paddingOuter=0.15)),
        x=alt.X("accuracy:Q", title=x_title, scale=alt.Scale(domain=[0, 1]), axis=_number_axis(format="%")),
        tooltip=[alt.Tooltip("label:N", title=y_title), alt.Tooltip("series:N", title=series_title),
                 alt.Tooltip("accuracy:Q", title=x_title, format=".1%"),
                 alt.Tooltip("count:Q", title=titles["count"], format=",")],
    )
    bars = base.mark_bar().encode(color=alt.Color("series:N", title=series_title, legend=alt.Legend(orient="top"),
                                                  scale=alt.Scale(domain=series, range=SERIES_COLOURS)))
    text = base.mark_text(align="left", dx=3, baseline="middle", fontSize=10, color="#333").encode(
        text=alt.Text("text:N", title=x_title))
    step = alt.Step(RELATION_STEP, **{"for": "position"})  # a relation's band, not each bar's
    chart = _fit_width((bars + text).properties(height=step)).properties(title=titles.title)  # above the legend
    return _described(chart, description)


def room_bars(df: pd.DataFrame, titles: Titles, *, description: str | None = None) -> alt.Chart:
    """How many students put each key first (students), one bar a key in the question's order (k), each with its
    count; the revealed answer (right) in blue and marked in words ("right"), not by colour alone."""
    y = alt.Y("key:N", sort=alt.EncodingSortField("k", op="min"), title=titles.x,
              axis=alt.Axis(title=None, labelOverlap=False))
    tooltip = [alt.Tooltip("key:N", title=titles.x), alt.Tooltip("students:Q", title=titles.y)]
    base = alt.Chart(df).encode(y=y, x=alt.X("students:Q", title=titles.y, axis=_number_axis(tickMinStep=1)),
                                tooltip=tooltip)
    bars = base.mark_bar().encode(color=alt.condition("datum.right", alt.value(AGREE["++"]), alt.value(GREY)))
    counts = base.mark_text(align="left", dx=4).encode(text=alt.Text("label:N")).transform_calculate(
        label=f"datum.students + (datum.right ? '  ' + {json.dumps(titles['right'])} : '')")
    return _described(_fit_width(alt.layer(bars, counts, title=titles.title).properties(height=alt.Step(BAR_STEP))),
                      description)
