"""Chart builders, checked through their Vega-Lite specs (chart.to_dict())."""
import functools
import importlib
import json
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
from engine.alignment import pair_alignment
from engine.relevance import row_lengths
from kinds import charts as kinds_charts
from kinds import tables as kinds_tables
from kit import charts, products, render, tables
from kit.text import LANGS, in_language
from learning import charts as learning_charts
from learning import tables as learning_tables
from real import charts as real_charts
from real import tables as real_tables
from rows import charts as rows_charts
from rows import tables as rows_tables
from tests.engine.test_transformer import head_grid

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
    return products.alignment_bars(products.alignment_frame(pa, by_size=by_size),
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
    "head_grid": head_grid,
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
    """kit/charts.py, kit/products.py (the chart pages 3 and 5 share) and every feature's charts.py: where builders
    live."""
    return [importlib.import_module(".".join(p.relative_to(ROOT).with_suffix("").parts))
            for p in sorted([*ROOT.glob("*/charts.py"), ROOT / "kit" / "products.py"])]


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
    "head_grid": (head_grid, lambda: head_grid(("today", "a", "dog", "sat", "down"), (5, 11))),
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
            over_the_plot = y["axis"]["orient"] == "right" or y["axis"]["titleX"] < 0  # above the labels, rightwards
            assert y["axis"]["titleAlign"] == ("left" if over_the_plot else "right")


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
