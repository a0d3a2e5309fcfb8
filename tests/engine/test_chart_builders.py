"""Each chart builder's own marks, checked through its Vega-Lite spec (chart.to_dict()): colours and their order, masked
and selected cells, heights and widths, legends, and the numbers and signs drawn."""
import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from dot import charts as dot_charts
from engine.alignment import GROUPS, pair_alignment
from kit import charts, narrow, products, render, tables
from learning import charts as learning_charts
from tests.engine.test_charts import (
    K_ROW,
    NAMES,
    Q_ROW,
    SAMPLES,
    alignment,
    centred_on_zero,
    heatmap,
    relevance,
    units,
    vector_plane,
)


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def test_group_colours_match_the_signed_scale():
    assert list(charts.GROUP_COLOURS) == list(GROUPS)
    assert all(b > r for r, _, b in map(rgb, charts.AGREE.values()))  # agree: blue, like positive cells
    assert all(r > b for r, _, b in map(rgb, charts.DISAGREE.values()))  # disagree: red, like negative cells
    assert not set(learning_charts.ROLE_COLOURS.values()) & set(charts.GROUP_COLOURS.values())


@pytest.mark.parametrize("by_size", [False, True])
def test_alignment_bars_group_colours_order_and_running_sum(by_size):
    spec = alignment(by_size).to_dict()
    (bar, bars), (line, lines), (text, _) = units(spec)
    assert (bar, line, text) == ("bar", "line", "text")
    colour = bars["color"]
    assert colour["field"] == "group" and colour["type"] == "nominal"
    assert colour["scale"] == {"domain": list(charts.GROUP_COLOURS), "range": list(charts.GROUP_COLOURS.values())}
    for g, shown in NAMES.items():
        assert f"datum.value == '{g}' ? '{shown}'" in colour["legend"]["labelExpr"]
    products = np.abs(Q_ROW * K_ROW)
    order = np.argsort(-products, kind="stable") + 1 if by_size else np.arange(1, 6)
    assert bars["x"]["sort"] == order.tolist() == lines["x"]["sort"]
    assert (bars["y"]["field"], lines["y"]["field"]) == ("product", "running")
    data = next(iter(spec["datasets"].values()))
    assert data[-1]["running"] == pytest.approx(float(Q_ROW @ K_ROW))


def test_heatmap_masked_cells_selected_row_and_numbers():
    spec = heatmap().to_dict()
    (rect, r), (text, t) = units(spec)
    assert (rect, text) == ("rect", "text")
    assert r["color"]["condition"] == {"test": "datum.masked", "value": charts.MASKED}
    assert centred_on_zero(r["color"]["scale"]) and "'value'" in r["color"]["scale"]["domain"]["expr"]
    assert r["stroke"]["condition"] == {"test": "datum.selected", "value": "black"}
    assert t["text"]["condition"] == {"test": "datum.masked", "value": "masked"}
    assert t["color"]["condition"] == {"test": "datum.strong && !datum.masked", "value": "white"}
    assert r["y"]["sort"] == {"field": "r", "op": "min"} and r["x"]["sort"] == {"field": "c", "op": "min"}
    assert "params" not in spec
    rows = next(iter(spec["datasets"].values()))
    assert [(row["row"], row["r"], row["col"], row["c"]) for row in rows[2:4]] == [
        ("milk", 0, "w2", 2),
        ("cat", 1, "w0", 0),
    ]
    assert [row["masked"] for row in rows] == [False, False, True, False, False, False]
    assert [row["selected"] for row in rows] == [False] * 3 + [True] * 3
    assert [row["strong"] for row in rows] == [True, False, False, False, True, True]  # |v| > 0.6 · 3: -2, 2, 3


def test_heatmap_without_mask_or_selection_has_no_conditions():
    (_, r), (_, t) = units(heatmap(masked=False, outlined=False).to_dict())
    assert "condition" not in r["color"] and "stroke" not in r and "strokeWidth" not in r
    assert t["text"] == {"field": "label", "type": "nominal"}  # the number, written by charts.CELL
    assert t["color"]["condition"]["test"] == "datum.strong"


def test_heatmap_labels_given_ticks_of_dimensions_and_every_word():
    ((_, r), _) = units(heatmap(annotate=False, int_cols=True, x_ticks=(5, 10)).to_dict())
    assert r["x"]["axis"]["values"] == [5, 10]
    assert "values" not in r["y"]["axis"] and r["y"]["axis"]["labelOverlap"] is False


def test_clickable_heatmap_has_the_pick_selection():
    spec = heatmap(clickable=True).to_dict()
    (param,) = spec["params"]
    assert param["name"] == charts.PICK
    assert param["select"] == {"type": "point", "clear": False, "fields": ["row", "col"], "on": "click"}
    assert param["views"] == [spec["vconcat"][0]["layer"][0]["name"]]


def test_heatmap_thins_overlapping_dimension_labels_but_keeps_every_word():
    n = charts.MAX_ANNOTATED + 1
    spec = heatmap(n_cols=n, int_cols=True, annotate=False, x_ticks=tuple(range(1, n + 1))).to_dict()
    ((rect, r), _) = units(spec)
    assert rect == "rect"
    assert r["x"]["axis"]["labelOverlap"] is True and r["y"]["axis"]["labelOverlap"] is False


def test_heatmap_integer_columns_are_ordinal():
    df = pd.DataFrame({"row": ["a", "a"], "col": [1, 2], "value": [1.0, -1.0], "masked": False, "selected": False})
    ((_, r), _) = units(charts.heatmap(df, charts.Titles("", "dim", "", "")).to_dict())
    assert r["x"]["type"] == "ordinal"


def test_heatmap_height_grows_with_rows_unless_given():
    (plot,) = heatmap().to_dict()["vconcat"]
    assert plot["height"] == {"step": charts.ROW_STEP}  # a step a row: the spec holds no count of rows
    (fixed,) = heatmap(height=300).to_dict()["vconcat"]
    assert fixed["height"] == 300
    legend = units(heatmap().to_dict()).__next__()[1]["color"]["legend"]
    # no taller than the plot (a column's part's height), within reason
    assert legend["gradientLength"] == {"expr": "clamp(childHeight - 20, 40, 120)"}
    assert charts.PLOT_HEIGHT == "childHeight"


def test_weight_bars_grey_out_masked_keys():
    ((bar, e),) = units(SAMPLES["weight_bars"]().to_dict())
    assert bar == "bar"
    assert e["color"]["condition"] == {"test": "datum.masked", "value": charts.MASKED}
    assert e["x"]["sort"] == {"field": "k", "op": "min"}


def test_contribution_bars_stack_in_key_order_with_z_ticks():
    spec = SAMPLES["contribution_bars"]().to_dict()
    (bar, bars), (tick, ticks) = units(spec)
    assert (bar, tick) == ("bar", "tick")
    assert bars["color"]["sort"] == {"field": "rank", "op": "min"} and bars["order"]["field"] == "k"
    assert {k: bars["y"][k] for k in ("aggregate", "field", "title", "type")} == {
        "aggregate": "sum", "field": "contribution", "title": "w·v", "type": "quantitative"}
    assert ticks["y"]["field"] == "z"


def test_sign_strips_keep_the_vectors_in_order():
    chart = SAMPLES["sign_strips"]()
    spec = chart.to_dict()
    ((rect, e), _) = units(spec)
    assert rect == "rect"
    assert e["y"]["sort"] == {"field": "v", "op": "min"}  # k₁ · drank, q · milk, k₂ · black: their data's order
    assert centred_on_zero(e["color"]["scale"])
    strip = dot_charts.STRIP_STEP
    assert spec["vconcat"][0]["height"] == {"step": strip} and strip == 30  # 3 strips: 90
    assert e["color"]["legend"]["gradientLength"] == {"expr": "max(childHeight, 50)"}  # as high as the strips
    rows = next(iter(spec["datasets"].values()))
    assert [(r["vector"], r["v"], r["dim"], r["value"]) for r in rows[5:7]] == [("q · milk", 1, 1, 0.5),
                                                                                ("q · milk", 1, 2, -1.0)]
    assert [rows[i]["vector"] for i in (0, 5, 10)] == ["k₁ · drank", "q · milk", "k₂ · black"]


def test_relevance_bars_put_the_most_relevant_word_on_top():
    spec = relevance().to_dict()
    ((bar, bars),) = units(spec)
    assert bar == "bar"
    # the words by score, highest on top: drank (3), black (1), cat (-2), the order read from the data
    assert bars["y"]["sort"] == {"field": "score", "op": "max", "order": "descending"}
    rows = next(iter(spec["datasets"].values()))
    assert [r["key"] for r in sorted(rows, key=lambda r: -r["score"])] == ["drank", "black", "cat"]
    assert (bars["x"]["field"], bars["y"]["field"]) == ("score", "key")
    assert bars["color"]["legend"] is None and bars["color"]["scale"]["domainMid"] == 0
    assert spec["vconcat"][0]["height"] == {"step": charts.BAR_STEP} and charts.BAR_STEP == 26  # 3 words: 3 × 26
    assert [tip["field"] for tip in bars["tooltip"]] == ["key", "score", "rank"]


def test_heatmap_shows_every_word_upright_at_a_size_its_columns_fit():
    ((_, r), (_, t)) = units(heatmap().to_dict())
    x, y = r["x"]["axis"], r["y"]["axis"]
    assert (x["labelOverlap"], x["labelAngle"], x["labelLimit"]) == (False, -90, charts.LABEL_LIMIT)
    assert x["labelFontSize"] == {"expr": "clamp(bandwidth('x') - 1, 7, 11)"}  # smaller as columns narrow, not below 7
    assert y["labelOverlap"] is False and "values" not in x and "values" not in y
    assert t["text"]["field"] == "label"
    numbers = heatmap().to_dict()["vconcat"][0]["layer"][1]
    assert numbers["transform"][-1] == {"calculate": charts.CELL, "as": "label"}
    assert numbers["mark"]["fontSize"] == {"expr": "clamp(bandwidth('x') / 3.5, 7, 11)"}
    assert numbers["mark"]["aria"] is False  # screen readers read the cell, not its number twice


def test_heatmaps_fit_the_page_width_in_a_column_of_one_and_contributions_the_height_the_page_gives_them():
    """Alone, a chart with a height of steps makes Vega-Lite warn on every draw that it drops fitting the height. A
    heatmap is a column of one: its own height (a step a row), the page's width (fit-x, shared scales under their
    own names). Contributions are as high as the page makes them: the height their key words' legend needs."""
    spec = heatmap().to_dict()
    assert "height" not in spec and "width" not in spec and len(spec["vconcat"]) == 1
    assert spec["autosize"] == {"type": "fit-x", "contains": "padding"}
    assert spec["resolve"] == {"scale": {"x": "shared", "y": "shared", "color": "shared"}}
    assert spec["vconcat"][0]["width"] == charts.WIDTH  # Streamlit sets a column's parts as wide as the page
    assert SAMPLES["contribution_bars"]().to_dict()["height"] == "container"
    few, many = (tables.contributions(np.ones(n) / n, np.ones((n, 4)), [f"w{i}" for i in range(n)]) for n in (6, 64))
    z = pd.DataFrame({"dim": [1, 2, 3, 4], "z": [1.0] * 4})
    assert charts.contribution_bars_height(many, z) == charts.contribution_bars_height(few, z)  # one row of legend
    legend = units(SAMPLES["contribution_bars"]().to_dict()).__next__()[1]["color"]["legend"]
    assert legend == {"orient": "bottom", "columns": narrow.columns(charts.KEY_COLUMNS, 85).to_dict(),
                      "symbolLimit": 0}  # every entry shown, as many a row as the box holds


def test_alignment_running_sum_shares_the_bars_axis_and_has_a_legend_entry():
    spec = alignment().to_dict()
    (_, bars), (_, line), (_, end) = units(spec)
    # one axis, the bars': no layer says axis=None (a layer's null axis hides the one the layers share, as Chromium
    # showed), and every layer names it alike, so that Vega-Lite merges no other title into it
    assert "resolve" not in spec and "axis" not in line["y"] and "axis" not in end["y"]
    assert bars["y"]["title"] == line["y"]["title"] == end["y"]["title"]
    assert bars["y"]["title"].endswith("running") and bars["y"]["scale"] == line["y"]["scale"] == end["y"]["scale"]
    assert line["strokeDash"]["field"] == "line" and line["strokeDash"]["legend"]["symbolType"] == "stroke"
    assert spec["layer"][1]["transform"] == [{"calculate": '"running"', "as": "line"}]  # the legend says "running"
    assert bars["y"]["scale"]["nice"] is False


def test_alignment_charts_side_by_side_share_one_axis_holding_zero():
    """Bars and the running sum on one scale, the same for charts shown together: a point and a bar at one height are
    one number."""
    frames = [products.alignment_frame(pair_alignment(q, k)) for q, k in ((Q_ROW, K_ROW), (Q_ROW, -3 * K_ROW))]
    lo, hi = products.alignment_domain(frames)
    every = np.concatenate([df[f].to_numpy() for df in frames for f in ("product", "running")])
    assert lo == min(0.0, every.min()) and hi == max(0.0, every.max())
    shown = products.with_alignment_domains(frames)
    for df in shown:
        spec = products.alignment_bars(df, charts.Titles("p", "d", "q·k", group="g", running="running"),
                                         group_names=NAMES).to_dict()
        assert "resolve" not in spec
        first = f"data('{charts.dataset()}')[0]"
        scales = [e["y"]["scale"] for _, e in units(spec)]
        assert all(scale == {"domain": {"expr": f"[{first}.y_lo, {first}.y_hi]"}, "nice": False} for scale in scales)
        assert (df["y_lo"] == lo).all() and (df["y_hi"] == hi).all()
    assert products.alignment_domain([frames[0] * 0]) == (0.0, 1.0)


def test_vector_plane_colour_and_shape_share_one_legend():
    """Two legends for one field with different settings make Vega-Lite warn of conflicting legend properties."""
    encodings = [e for _, e in units(vector_plane().to_dict())]
    legends = [(e[c]["title"], json.dumps(e[c]["legend"], sort_keys=True))
               for e in encodings for c in ("color", "shape") if c in e and "field" in e[c]]
    assert len(legends) >= 2 and len(set(legends)) == 1 and '"null"' not in legends[0][1]


def drawn_texts(builder: charts.Builder, *frames, **options) -> list[str]:
    """Every text the chart draws, as vl-convert draws it from the spec a saved file holds."""
    import vl_convert

    svg = vl_convert.vegalite_to_svg(render.export_spec(builder, *frames, **options), allowed_base_urls=[])
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def test_the_running_sum_ends_in_the_dot_product_written_beside_its_last_point():
    for by_size in (False, True):
        pair = pair_alignment(Q_ROW, K_ROW)
        texts = drawn_texts(products.alignment_bars, products.alignment_frame(pair, by_size=by_size),
                            titles=charts.Titles("p", "dim", "q·k", group="g", running="running"), group_names=NAMES)
        assert f"{pair.dot:.2f}".replace("-", "−") in texts  # −2.08, which no axis tick says


def test_heatmap_cells_write_tiny_numbers_as_about_zero_not_powers_of_ten():
    df = tables.matrix_long(np.array([[-5.4e-4, 0.3], [0.0, -0.12]]), ["a", "b"], ["a", "b"])
    texts = drawn_texts(charts.heatmap, df, titles=charts.Titles("d", "k", "q", "v"))
    assert {"≈ 0", "0.30", "0.00", "−0.12"} <= set(texts) and not any("e-" in x for x in texts)
    tiny = tables.matrix_long(np.array([[-5.4e-4, 3e-4], [0.0, -1.2e-3]]), ["a", "b"], ["a", "b"])
    texts = drawn_texts(charts.heatmap, tiny, titles=charts.Titles("d", "k", "q", "v"))
    assert "−5.4e-4" in texts and "≈ 0" not in texts  # every number that small (a tiny layer scale): still told apart


def signs_shown(spec: dict) -> list[dict]:
    """The symbol layers of a spec that mark each cell's sign: their filter, shapes and aria flag."""
    found = []
    for view in [spec, *spec.get("vconcat", [])]:
        for layer in view.get("layer", []):
            shape = layer.get("encoding", {}).get("shape", {})
            if shape.get("condition", {}).get("value") == charts.PLUS:
                found.append({"filter": [t["filter"] for t in layer.get("transform", []) if "filter" in t],
                              "test": shape["condition"]["test"], "otherwise": shape["value"],
                              "aria": layer["mark"].get("aria")})
    return found


def bars(path: str) -> list[tuple[float, float, float, float]]:
    """The corners' extent of each straight stroke of a symbol path drawn of H and V moves: (x0, x1, y0, y1) of the
    whole shape, for a plus or a minus, as a check on what the path draws."""
    xs = [float(v) for v in re.findall(r"[MH](-?[\d.]+)", path)]
    ys = [float(v) for v in re.findall(r"[,V](-?[\d.]+)", path)]
    return [(min(xs), max(xs), min(ys), max(ys))]


@pytest.mark.parametrize("make", [
    lambda: SAMPLES["sign_strips"]().to_dict(),
    lambda: heatmap(n_cols=charts.MAX_ANNOTATED + 1, annotate=False, masked=False).to_dict(),
    lambda: heatmap(n_cols=charts.MAX_ANNOTATED + 1, annotate=False).to_dict(),
])
def test_signed_cells_without_numbers_mark_their_sign(make):
    """WCAG 1.4.1: the sign of a product or weight is not told by red and blue alone: a plus on positive cells, a minus
    on negative ones, nothing at zero."""
    (sign,) = signs_shown(make())
    assert sign["test"] == "datum.value > 0" and sign["otherwise"] == charts.MINUS
    assert any("datum.value != 0" in f for f in sign["filter"])
    assert sign["aria"] is False  # screen readers read the cell's signed value once
    assert bars(charts.PLUS) == [(-1, 1, -1, 1)]  # a plus reaches all four sides of its square
    assert bars(charts.MINUS)[0][:2] == (-1, 1) and max(map(abs, bars(charts.MINUS)[0][2:])) < 0.3  # a minus: flat


def test_weight_heatmaps_and_annotated_ones_write_no_extra_signs():
    assert signs_shown(heatmap(annotate=False, weights=True).to_dict()) == []  # weights are never negative
    assert signs_shown(heatmap().to_dict()) == []  # the numbers carry their sign


def test_contribution_legend_gives_no_colour_twice_however_many_words():
    """42 key words: the six most weighted each have a colour of their own, most weighted first; the rest are grey
    together, named once. Drawn by vl-convert, as a saved chart."""
    n = 42
    df = tables.contributions(np.ones(n) / n + np.arange(n) * 1e-4, np.ones((n, 2)), [f"w{i}" for i in range(n)])
    z = pd.DataFrame({"dim": [1, 2], "z": [1.0, 1.0]})
    options = {"titles": charts.Titles("z", "dim", "w·v", key="key", z="z", weight="weight", other="other words")}
    svg = render.saved("svg", charts.contribution_bars, (df, z), options).decode()
    legend = re.findall(r'role-legend-symbol.*?fill="(#[0-9a-f]+)".*?role-legend-label.*?>([^<]*)</text>', svg, re.S)
    top = [f"w{i}" for i in range(n - 1, n - 1 - len(charts.HEAD_COLOURS), -1)]
    assert legend == list(zip([*charts.HEAD_COLOURS, charts.GREY], [*top, "other words"], strict=False))


def test_tables_feeding_the_charts_hold_no_nan():
    frames = [products.alignment_frame(pair_alignment(Q_ROW, K_ROW), by_size=True),
              render.as_frame(tables.relevance_table({"a": np.array([1.0, 1.0, 0.5])}, ["x", "y", "z"]))]
    for df in frames:
        assert not df.isna().any().any()
    assert tables.relevance_table({"a": np.array([1.0, 1.0, 0.5])}, ["x", "y", "z"])["rank"].to_pylist() == [1, 1, 3]
    assert all(math.isfinite(v) for v in frames[0]["running"])


def test_compact_numbers_switch_to_three_digits_past_a_thousand_and_below_a_thousandth():
    assert "abs(datum.value) >= 1000 ? format(datum.value, '.3~s')" in charts.COMPACT
    assert "abs(datum.value) < 0.001 ? format(datum.value, '.3~e')" in charts.COMPACT
    assert charts.COMPACT.endswith(": datum.label")  # everything in between as Vega writes it
    assert charts.CELL.startswith("abs(datum.value) >= 1000 ? format(datum.value, '.3~s')")
