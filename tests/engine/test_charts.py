"""Chart builders, checked through their Vega-Lite specs (chart.to_dict())."""
import functools
import importlib
import json
import math
import re
from pathlib import Path

import altair as alt
import numpy as np
import pandas as pd
import pytest

from classroom import charts as class_charts
from classroom import tables as class_tables
from dot import charts as dot_charts
from dot import tables as dot_tables
from engine.alignment import GROUPS, pair_alignment
from engine.relevance import row_lengths
from kinds import charts as kinds_charts
from kinds import tables as kinds_tables
from kit import charts, render, tables
from kit.text import LANGS, in_language
from learning import charts as learning_charts
from learning import tables as learning_tables
from real import charts as real_charts
from real import tables as real_tables
from rows import charts as rows_charts
from rows import tables as rows_tables

ROOT = Path(__file__).resolve().parents[2]
NAMES = {"++": "both +", "--": "both −", "+-": "q + k −", "-+": "q − k +"}
Q_ROW = np.array([0.5, -1.0, 2.0, -0.2, 0.1])
K_ROW = np.array([1.0, -0.5, -1.5, 0.4, 0.0])


def heatmap(n_cols=3, rows=("milk", "cat"), **kw):
    a = np.arange(len(rows) * n_cols, dtype=float).reshape(len(rows), n_cols) - 2
    mask = np.ones_like(a, dtype=bool)
    mask[0, -1] = False
    df = tables.matrix_long(a, list(rows), list(range(1, n_cols + 1)) if kw.pop("int_cols", False)
                            else [f"w{j}" for j in range(n_cols)], mask=mask, selected="cat")
    fields = ("annotate", "masked", "outlined", "x_ticks", "y_ticks")
    cells = {"masked": True, "outlined": True, **{k: kw.pop(k) for k in fields if k in kw}}
    return charts.heatmap(df, charts.Titles("F", "key", "query", "value"), cells=charts.Cells(**cells), **kw)


def alignment(by_size=False):
    pa = pair_alignment(Q_ROW, K_ROW)
    return dot_charts.alignment_bars(dot_tables.alignment_frame(pa, by_size=by_size),
                                 charts.Titles("products", "dim", "q·k", group="group", running="running"),
                                 group_names=NAMES)


def relevance():
    df = render.as_frame(tables.relevance_table({"dot": np.array([1.0, 3.0, -2.0])}, ["black", "drank", "cat"]))
    return charts.relevance_bars(df, charts.Titles("dot", "score", "word", rank="rank"))


def vector_plane():
    rows = [{"x": x, "y": y, "role": role, "word": w, "name": f"{role}·{w}", "step": 10 * f, learning_charts.FRAME: f,
             "focus": w == "milk"} for f in range(3) for role in "qk" for w, x, y in (("milk", 1.0 + f, -1.0),
                                                                                     ("drank", -0.5, 0.5 * f))]
    return learning_charts.vector_plane(pd.DataFrame(rows),
                               charts.Titles("vectors", "x", "y", role="role", word="word", step="step", slider="step"),
                               role_names={"q": "query", "k": "key"})


def attention_lines():
    w = np.array([[[0.7, 0.3], [0.4, 0.6]], [[1.0, 0.0], [0.2, 0.8]]])
    return kinds_charts.attention_lines(
        kinds_tables.attention_lines_frame(w, ["milk", "drank"], ["milk", "drank"], head_names=["Head 1", "Head 2"]),
        charts.Titles("lines", "key", "query", "weight", head="head"),
    )


SAMPLES = {
    "heatmap": heatmap,
    "attention_lines": attention_lines,
    "weight_bars": lambda: charts.weight_bars(
        tables.weights_frame(np.array([0.7, 0.3, 0.0]), ["the", "ball", "blue"], np.array([True, True, False])),
        charts.Titles("w", "key", "weight"),
    ),
    "contribution_bars": lambda: charts.contribution_bars(
        tables.contributions(np.array([0.25, 0.75]), np.array([[1.0, -2.0], [0.5, 4.0]]), ["a", "b"]),
        pd.DataFrame({"dim": [1, 2], "z": [0.625, 2.5]}),
        charts.Titles("z", "dim", "w·v", key="key", z="z", weight="weight"),
    ),
    "alignment_bars": alignment,
    "sign_strips": lambda: dot_charts.sign_strips(
        render.as_frame(dot_tables.signs_table(np.stack([K_ROW, Q_ROW, -K_ROW]),
                                               ["k₁ · drank", "q · milk", "k₂ · black"])),
        charts.Titles("signs", "dim", "vector", "value"),
    ),
    "relevance_bars": relevance,
    "room_bars": lambda: class_charts.room_bars(
        class_tables.room_frame(["the", "black", "cat", "drank"], [0, 1, 3, 9], "drank"),
        charts.Titles("room", "key", "students", right="✓ the answer"),
    ),
    "loss_curve": lambda: learning_charts.loss_curve(
        pd.DataFrame({"step": [0, 1, 2], "loss": [1.0, 0.7, 0.5]}),
        charts.Titles("loss", "step", "loss"),
        steps=10,
    ),
    "pair_curves": lambda: learning_charts.pair_curves(
        pd.DataFrame(
            {"step": [0, 1, 0, 1], "pair": ["milk→drank"] * 2 + ["milk→cat"] * 2, "value": [0.1, 0.5, 0.2, 0.3]}
        ),
        charts.Titles("pairs", "step", "score", pair="pair", marker="order reached"),
        marker=1,
    ),
    "accuracy_curves": lambda: learning_charts.accuracy_curves(
        learning_tables.accuracy_frame([0, 1, 2], {"held-out": [0.1, 0.3, np.nan], "training": [0.2, 0.4, 0.5]}),
        learning_tables.levels_frame({"always the next word": 0.36, "raw cosine": 0.09}),
        charts.Titles("accuracy", "step", "accuracy", line="sentences", level="rule"),
        names=["held-out", "training"],
        steps=10,
    ),
    "vector_plane": vector_plane,
    "head_lines": lambda: real_charts.head_lines(
        real_tables.head_lines_frame(
            ["i", "met", "you", "."],
            ["nsubj", "root", "obj", "punct"],
            np.array([1, -1, 1, -1]),
            np.array([1, 2, 0, 2]),
            np.full((4, 4), 0.25),
            dict(zip(real_charts.LINE_KINDS, "grw", strict=False)),
        ),
        charts.Titles("heads", "key", "query", "weight", relation="relation", line="line"),
        line_names=list("grw"),
    ),
    "relation_accuracy": lambda: real_charts.relation_accuracy(
        real_tables.relation_bars_frame(
            real_tables.relations_table(
                ["det", "obj"],
                {"det": (10, 0.7), "obj": (4, 0.25)},
                {"det": (1, 0.6), "obj": (-2, 0.5)},
                {"det": "the → cat", "obj": "milk → drank"},
            ),
            ["head", "+k"],
        ),
        charts.Titles("relations", "share", "relation", series="who", count="words"),
        series=["head", "+k"],
    ),
    "length_bars": lambda: rows_charts.length_bars(
        render.as_frame(
            rows_tables.lengths_table(
                row_lengths(np.array([[3.0, 4.0], [1.0, 0.0]]), np.array([[0.0, 1.0], [0.6, 0.8]])),
                ["milk", "drank"],
                {"word": "GloVe", "position": "position"},
            )
        ),
        charts.Titles(None, "length", "word", part="row"),
    ),
}


def chart_modules() -> list:
    """kit/charts.py and every feature's charts.py: where builders live."""
    return [importlib.import_module(".".join(p.relative_to(ROOT).with_suffix("").parts))
            for p in sorted(ROOT.glob("*/charts.py"))]


BUILDERS = {b.name: (m, b) for m in chart_modules() for b in vars(m).values() if isinstance(b, charts.Builder)}
DATA_FREE = {name for name, (_, b) in BUILDERS.items() if b.data_free}


def builders() -> list[str]:
    """Every chart builder (@charts.builder) in kit/charts.py and the features' charts.py."""
    return list(BUILDERS)


def units(spec: dict, inherited: dict | None = None):
    """Every single-mark view of a spec, with the encodings it inherits from enclosing layers."""
    encoding = {**(inherited or {}), **spec.get("encoding", {})}
    if "mark" in spec:
        yield spec["mark"]["type"] if isinstance(spec["mark"], dict) else spec["mark"], encoding
    for key in ("layer", "hconcat", "vconcat", "concat"):
        for child in spec.get(key, []):
            yield from units(child, encoding)
    if "spec" in spec:
        yield from units(spec["spec"], encoding)


def field_defs(encoding: dict):
    """(channel, definition) for every channel that reads a data field, conditions and tooltip lists included."""
    for channel, value in encoding.items():
        for d in value if isinstance(value, list) else [value]:
            if isinstance(d, dict):
                if "field" in d:
                    yield channel, d
                if isinstance(d.get("condition"), dict) and "field" in d["condition"]:
                    yield channel, d["condition"]


def test_every_builder_has_a_sample():
    assert sorted(builders()) == sorted(SAMPLES)


@pytest.mark.parametrize("name", SAMPLES)
def test_every_mark_has_a_titled_tooltip(name):
    for mark, encoding in units(SAMPLES[name]().to_dict()):
        tips = encoding.get("tooltip")
        assert tips, f"{name}: a {mark} mark has no tooltip"
        for tip in tips if isinstance(tips, list) else [tips]:
            assert tip.get("field") and tip.get("type"), f"{name}: {mark} tooltip {tip}"


@pytest.mark.parametrize("name", SAMPLES)
def test_every_field_has_an_explicit_type(name):
    for mark, encoding in units(SAMPLES[name]().to_dict()):
        for channel, d in field_defs(encoding):
            if channel not in ("x2", "y2"):  # secondary channels take the type of x and y
                assert d.get("type") in ("quantitative", "nominal", "ordinal", "temporal"), f"{name} {mark}.{channel}"


@pytest.mark.parametrize("name", SAMPLES)
def test_signed_colours_are_diverging_and_centred_on_zero(name):
    for _, encoding in units(SAMPLES[name]().to_dict()):
        colour = encoding.get("color", {})
        if colour.get("type") == "quantitative":
            assert centred_on_zero(colour["scale"]) or from_zero(colour["scale"]), name


def from_zero(scale: dict) -> bool:
    """A sequential scale from white at 0, for values that are never negative."""
    return scale["scheme"] == "blues" and scale["domain"]["expr"].startswith("[0, ")


@pytest.mark.parametrize("make", [
    lambda: heatmap_of(np.array([[0.7, 0.3], [0.1, 0.9]]), weights=True),
    lambda: charts.weight_bars(tables.weights_frame(np.array([0.7, 0.3]), ["a", "b"]), charts.Titles("w", "k", "w")),
])
def test_attention_weights_use_a_sequential_scale_from_zero(make):
    colours = [e["color"] for _, e in units(make().to_dict()) if e.get("color", {}).get("type") == "quantitative"]
    colours += [e["color"]["condition"] for _, e in units(make().to_dict())
                if isinstance(e.get("color", {}).get("condition"), dict)]
    scales = [c["scale"] for c in colours if "scale" in c]
    assert scales and all(from_zero(sc) for sc in scales)


def heatmap_of(a, **options):
    return charts.heatmap(tables.matrix_long(a, ["a", "b"], ["a", "b"]), charts.Titles("w", "k", "q", "w"), **options)


@pytest.mark.parametrize("name", SAMPLES)
def test_charts_have_a_plot_height_and_finite_json_data(name):
    chart = SAMPLES[name]()
    # a fixed height (render.chart adds room for axes), a step a row, or as high as the page makes it (render.chart
    # gives it the height its rows need); a chart of charts has none of its own, and its parts each one of those
    parts = getattr(chart, "hconcat", None) or getattr(chart, "vconcat", None) or [chart]
    for part in parts:
        height = part.height
        assert ((isinstance(height, int) and height > 0) or height == "container"
                or height.to_dict()["step"] in (charts.ROW_STEP, charts.BAR_STEP, rows_charts.LENGTH_STEP,
                                                dot_charts.STRIP_STEP, real_charts.RELATION_STEP))
    spec = chart.to_dict()
    text = json.dumps(spec, allow_nan=False)  # raises on NaN or infinity anywhere in the spec or its data
    assert spec["datasets"] and text


def centred_on_zero(scale: dict) -> bool:
    """Red-blue with white at zero, and a domain symmetric about zero."""
    return scale["scheme"] == "redblue" and scale["domainMid"] == 0 and is_symmetric(scale["domain"]["expr"])


def is_symmetric(expr: str) -> bool:
    """'[-m, m]' for one expression m."""
    inner = expr[1:-1]
    half = inner.index(", (")
    return expr[0] == "[" and expr[-1] == "]" and inner[:half] == "-" + inner[half + 2:]


def test_signed_scale_is_symmetric_over_the_field_in_the_first_dataset():
    c = charts.signed("w", "w").to_dict()
    m = "(max(abs(extent(pluck(data('data-0'), 'w'))[0]), abs(extent(pluck(data('data-0'), 'w'))[1])) || 1)"
    assert c["scale"] == {"scheme": "redblue", "domainMid": 0, "domain": {"expr": f"[-{m}, {m}]"}}
    assert charts.dataset() == "data-0" and charts.dataset(2) == "data-2"


def test_signed_scale_blue_positive_red_negative():
    c = charts.signed("value", "v").to_dict()
    assert (c["field"], c["type"], c["scale"]["scheme"]) == ("value", "quantitative", "redblue")


def spec_without_data(chart) -> tuple[str, list]:
    """The spec as the page sends it, without its datasets; and the datasets' rows."""
    from kit import render
    frames = {}
    spec = render.named_data(chart, frames).to_dict(validate=True, context={"top_level": False})
    return json.dumps(spec, sort_keys=True), [df.to_dict("records") for df in frames.values()]


DIFFERENT_INPUTS = {  # two inputs per data-free builder: other words, lengths and values
    "heatmap": (lambda: heatmap(), lambda: heatmap(rows=("today", "the", "cat", "sat"))),
    "weight_bars": (SAMPLES["weight_bars"], lambda: charts.weight_bars(
        tables.weights_frame(np.array([0.1, 0.2, 0.3, 0.4]), ["a", "cat", "sat", "down"]),
        charts.Titles("w", "key", "weight"))),
    "contribution_bars": (SAMPLES["contribution_bars"], lambda: charts.contribution_bars(
        tables.contributions(np.array([0.5, 0.3, 0.2]), -np.ones((3, 4)), ["x", "y", "z"]),
        pd.DataFrame({"dim": [1, 2, 3, 4], "z": [-1.0] * 4}),
        charts.Titles("z", "dim", "w·v", key="key", z="z", weight="weight"))),
    "sign_strips": (SAMPLES["sign_strips"], lambda: dot_charts.sign_strips(
        render.as_frame(dot_tables.signs_table(np.ones((2, 3)), ["k · cat", "q · sat"])),
        charts.Titles("signs", "dim", "vector", "value"))),
    "relevance_bars": (relevance, lambda: charts.relevance_bars(
        render.as_frame(tables.relevance_table({"dot": np.array([0.5, -3.0, 2.0, 1.0])}, ["today", "a", "cat", "sat"])),
        charts.Titles("dot", "score", "word", rank="rank"))),
    "length_bars": (SAMPLES["length_bars"], lambda: rows_charts.length_bars(
        render.as_frame(rows_tables.lengths_table(row_lengths(np.ones((3, 2)), np.zeros((3, 2))), ["x", "y", "z"],
                                             {"word": "GloVe", "position": "position"})),
        charts.Titles(None, "length", "word", part="row"))),
    "accuracy_curves": (SAMPLES["accuracy_curves"], lambda: learning_charts.accuracy_curves(
        learning_tables.accuracy_frame([0, 1, 2, 3], {"held-out": [0.3, 0.4, 0.45, 0.5], "training": [0.2] * 4}),
        learning_tables.levels_frame({"always the word before": 0.2, "raw cosine": 0.1}),
        charts.Titles("accuracy", "step", "accuracy", line="sentences", level="rule"),
        names=["held-out", "training"], steps=10)),
    "room_bars": (SAMPLES["room_bars"], lambda: class_charts.room_bars(
        class_tables.room_frame(["a", "dog", "barked", "loudly", "today"], [2, 0, 5, 1, 0], None),
        charts.Titles("room", "key", "students", right="✓ the answer"))),
}


def test_every_data_free_builder_is_checked():
    assert set(DIFFERENT_INPUTS) == DATA_FREE


@pytest.mark.parametrize("name", sorted(DATA_FREE))
def test_data_free_specs_hold_no_data(name):
    (spec_a, data_a), (spec_b, data_b) = (spec_without_data(make()) for make in DIFFERENT_INPUTS[name])
    assert data_a != data_b
    assert spec_a == spec_b  # the page may build it once and send only new data


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


def test_tables_feeding_the_charts_hold_no_nan():
    frames = [dot_tables.alignment_frame(pair_alignment(Q_ROW, K_ROW), by_size=True),
              render.as_frame(tables.relevance_table({"a": np.array([1.0, 1.0, 0.5])}, ["x", "y", "z"]))]
    for df in frames:
        assert not df.isna().any().any()
    assert tables.relevance_table({"a": np.array([1.0, 1.0, 0.5])}, ["x", "y", "z"])["rank"].to_pylist() == [1, 1, 3]
    assert all(math.isfinite(v) for v in frames[0]["running"])


def test_builders_return_altair_charts():
    for name, make in SAMPLES.items():
        assert isinstance(make(), (alt.Chart, alt.LayerChart, alt.HConcatChart, alt.VConcatChart)), name


def axis_defs(spec: dict, channel: str) -> list[dict]:
    """Every field definition of `channel` in the spec's marks that says how its axis looks."""
    return [e[channel] for _, e in units(spec) if isinstance(e.get(channel), dict) and "field" in e[channel]
            and isinstance(e[channel].get("axis"), dict)]


@pytest.mark.parametrize("name", SAMPLES)
def test_vertical_axis_titles_read_level(name):
    """Turned on its side, as Vega turns y titles, a Chinese title reads sideways: each is level, above its axis."""
    for y in axis_defs(SAMPLES[name]().to_dict(), "y"):
        if y["axis"].get("title", y.get("title")) is not None:
            assert (y["axis"]["titleAngle"], y["axis"]["titleBaseline"], y["axis"]["titleY"]) == (0, "bottom", -8)
            assert y["axis"]["titleAlign"] == ("left" if y["axis"]["orient"] == "right" else "right")


@pytest.mark.parametrize("name", SAMPLES)
def test_numbers_on_axes_and_legends_are_compact(name):
    """A layer scale of 1e6 must not write 7,860,448,186,139 on an axis or a colour bar."""
    spec = SAMPLES[name]().to_dict()
    for channel in ("x", "y"):
        for d in axis_defs(spec, channel):
            if d["type"] == "quantitative":
                assert d["axis"]["labelExpr"] == charts.COMPACT, (name, channel)
    for _, e in units(spec):
        colour = e.get("color", {})
        colour = colour.get("condition", colour) if "field" not in colour else colour
        if colour.get("type") == "quantitative" and colour.get("legend") is not None:
            assert colour["legend"]["labelExpr"] == charts.COMPACT, name


def test_compact_numbers_switch_to_three_digits_past_a_thousand_and_below_a_thousandth():
    assert "abs(datum.value) >= 1000 ? format(datum.value, '.3~s')" in charts.COMPACT
    assert "abs(datum.value) < 0.001 ? format(datum.value, '.3~e')" in charts.COMPACT
    assert charts.COMPACT.endswith(": datum.label")  # everything in between as Vega writes it
    assert charts.CELL.startswith("abs(datum.value) >= 1000 ? format(datum.value, '.3~s')")


@pytest.mark.parametrize("name", SAMPLES)
def test_every_builder_takes_a_description_for_screen_readers(name, monkeypatch):
    module, builder = BUILDERS[name]
    monkeypatch.setattr(module, name, functools.partial(builder, description="What it shows."))
    assert SAMPLES[name]().to_dict()["description"] == "What it shows."


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", SAMPLES)
def test_every_chart_has_a_sentence_in_every_language(name, lang, monkeypatch):
    given = []  # the Titles the sample draws with, each title then written as <its name>
    monkeypatch.setattr(BUILDERS[name][0], name, lambda *args, **kw: given.extend(
        a for a in (*args, *kw.values()) if isinstance(a, charts.Titles)))
    SAMPLES[name]()
    (titles,) = given
    marked = charts.Titles(None if titles.title is None else "<title>", "<x>", "<y>", "<value>",
                           **{n: f"<{n}>" for n, _ in titles.more})
    with in_language(lang):
        said = render.describe(BUILDERS[name][1], marked)
    assert "<x>" in said and not re.search(r"[{}]", said)


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
    assert legend == {"orient": "bottom", "columns": charts.KEY_COLUMNS, "symbolLimit": 0}  # every entry shown


def test_alignment_running_sum_has_its_own_axis_and_a_legend_entry():
    spec = alignment().to_dict()
    (_, bars), (_, line), _ = units(spec)
    assert spec["resolve"] == {"scale": {"y": "independent"}}
    assert line["y"]["axis"]["orient"] == "right" and line["y"]["title"] == "running"
    assert line["strokeDash"]["field"] == "line" and line["strokeDash"]["legend"]["symbolType"] == "stroke"
    assert spec["layer"][1]["transform"] == [{"calculate": '"running"', "as": "line"}]  # the legend says "running"
    assert bars["y"]["scale"]["nice"] is False and line["y"]["scale"]["nice"] is False


def test_alignment_charts_side_by_side_share_scales_with_zero_level():
    frames = [dot_tables.alignment_frame(pair_alignment(q, k)) for q, k in ((Q_ROW, K_ROW), (Q_ROW, -3 * K_ROW))]
    domain = dot_charts.alignment_domains(frames)
    for field in ("product", "running"):
        lo, hi = domain[field]
        assert lo <= min(df[field].min() for df in frames) and hi >= max(df[field].max() for df in frames)
    (p_lo, p_hi), (r_lo, r_hi) = domain["product"], domain["running"]
    assert -p_lo / (p_hi - p_lo) == pytest.approx(-r_lo / (r_hi - r_lo))  # zero at one height on both axes
    shown = dot_charts.with_alignment_domains(frames)
    charts_ = [dot_charts.alignment_bars(df, charts.Titles("p", "d", "q·k", group="g", running="running"),
                                     group_names=NAMES).to_dict() for df in shown]
    for spec, df in zip(charts_, shown, strict=False):
        (_, bars), (_, line), _ = units(spec)
        for field, scale in (("product", bars["y"]["scale"]), ("running", line["y"]["scale"])):
            first = f"data('{charts.dataset()}')[0]"
            assert scale["domain"] == {"expr": f"[{first}.{field}_lo, {first}.{field}_hi]"}  # read from the data
            assert (df[f"{field}_lo"] == domain[field][0]).all() and (df[f"{field}_hi"] == domain[field][1]).all()
    assert dot_charts.alignment_domains([frames[0] * 0]) == {"product": [0.0, 1.0], "running": [0.0, 1.0]}


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
        texts = drawn_texts(dot_charts.alignment_bars, dot_tables.alignment_frame(pair, by_size=by_size),
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
