"""The line view: the table of lines, the chart built from it (through its Vega-Lite spec), and the view on a page."""
import json

import altair as alt
import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from engine.attention import attend, causal_mask
from kinds import lines
from kinds.charts import HEATMAPS_WIDTH, attention_lines
from kinds.tables import attention_lines_frame
from kit import charts, render
from kit.lines import HOVER, HOVER_KEY, HOVERED, LINE_STEP
from kit.text import in_language
from tests.apptest_helpers import chart_data, csv_keys
from tests.apptest_helpers import charts as page_charts

WORDS = ["the (1)", "black", "cat", "drank", "the (5)", "milk"]
TITLES = {"titles": charts.Titles("lines", "key word", "query word", "weight", head="head")}


def attention(heads=1, causal=False, softmax=True, n=None):
    n = len(WORDS) if n is None else n
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 12))
    return attend(x, x, *(rng.normal(size=(12, 12)) for _ in range(3)), heads=heads, causal=causal, softmax=softmax)


def frame(heads=1, causal=False, softmax=True, n=None):
    n = len(WORDS) if n is None else n
    att = attention(heads, causal, softmax, n)
    labels = WORDS if n == len(WORDS) else [f"w{i}" for i in range(n)]
    names = [f"Head {h + 1}" for h in range(heads)] if heads > 1 else None
    return attention_lines_frame(att.weights, labels, labels, att.mask, names, softmax=softmax)


def spec_of(df, **options):
    return attention_lines(df, **{**TITLES, **options}).to_dict()  # validated against the schema


def views(spec: dict, found: dict | None = None) -> dict[str, dict]:
    """Every single-mark view of a spec by name (or by its place when unnamed), left to right, top to bottom."""
    found = {} if found is None else found
    if "mark" in spec:
        found[spec.get("name", f"unnamed {len(found)}")] = spec
    for key in ("hconcat", "vconcat", "concat", "layer"):
        for child in spec.get(key, []):
            views(child, found)
    return found


def marks(spec: dict, kind: str) -> list[dict]:
    return [v for v in views(spec).values() if v["mark"]["type"] == kind]


def test_the_frame_has_a_row_per_pair_with_its_weight_as_opacity():
    att = attention()
    df = attention_lines_frame(att.weights, WORDS, WORDS)
    assert len(df) == len(WORDS) ** 2 and set(df["head"]) == {"1"} and set(df["h"]) == {0}
    assert np.allclose(df["opacity"], df["weight"])  # softmax weights are opacities as they are
    assert np.allclose(df["weight"], att.weights.ravel())
    row = df[(df["q_pos"] == 4) & (df["k_pos"] == 0)].iloc[0]  # the second "the" to the first: told apart by position
    assert (row["query"], row["key"], row["weight"]) == ("the (5)", "the (1)", att.weights[4, 0])


def test_masked_pairs_get_no_row():
    df = frame(causal=True)
    n = len(WORDS)
    assert len(df) == n * (n + 1) // 2
    assert (df["k_pos"] <= df["q_pos"]).all()
    assert not df.isna().any().any()


def test_every_head_gets_its_rows_and_its_name():
    att = attention(heads=3, causal=True)
    df = attention_lines_frame(att.weights, WORDS, WORDS, att.mask, ["A", "B", "C"])
    n = len(WORDS)
    assert df.groupby("head").size().to_dict() == {name: n * (n + 1) // 2 for name in "ABC"}
    assert (df.groupby("head")["h"].first() == [0, 1, 2]).all()
    for h in range(3):
        part = df[df["h"] == h]
        assert np.allclose(part["weight"], att.weights[h][causal_mask(n, n)])


def test_raw_scores_draw_their_size_against_the_largest():
    df = frame(softmax=False)
    largest = np.abs(df["weight"]).max()
    assert (df["weight"] < 0).any()
    assert np.allclose(df["opacity"], np.abs(df["weight"]) / largest) and df["opacity"].max() == 1.0
    zeros = attention_lines_frame(np.zeros((2, 2)), ["a", "b"], ["a", "b"], softmax=False)
    assert (zeros["opacity"] == 0).all()  # all-zero scores: clear lines, no NaN


def test_one_rule_per_row_as_opaque_as_the_weight():
    df = frame(causal=True)
    spec = spec_of(df)
    (rule,) = marks(spec, "rule")
    assert {next(iter(t)) for t in rule.get("transform", [])} == {"calculate"}  # no filter, no aggregate: a rule a row
    (data,) = spec["datasets"].values()
    assert len(data) == len(df) == len(WORDS) * (len(WORDS) + 1) // 2  # masked pairs drew no line
    opacity = rule["encoding"]["opacity"]
    assert opacity["condition"]["field"] == "opacity" and opacity["condition"]["scale"] is None  # the value itself
    assert opacity["condition"]["test"] == HOVERED and opacity["value"] < 0.02  # the rest fade out
    assert [r["opacity"] for r in data] == pytest.approx([r["weight"] for r in data])


def test_hover_is_one_param_shared_by_the_heatmaps_and_the_lines():
    spec = spec_of(frame(heads=3))
    params = {p["name"]: p for p in spec["params"]}
    hover, key = params[HOVER], params[HOVER_KEY]
    assert hover["select"] == {"type": "point", "fields": ["q_pos"], "on": "pointerover", "clear": "pointerout"}
    assert key["select"]["fields"] == ["k_pos"]
    named = views(spec)
    maps = [name for name, v in named.items() if v["mark"]["type"] == "rect"]
    assert len(maps) == 3 and hover["views"] == maps + ["query_words"] and key["views"] == ["key_words"]
    assert named["query_words"]["mark"]["type"] == "text" and named["key_words"]["mark"]["type"] == "text"
    for name in maps:  # the hovered query's row outlined in every heatmap
        assert json.dumps(HOVERED) in json.dumps(named[name]["encoding"]["stroke"])
    assert json.dumps(HOVERED) in json.dumps(named["lines"]["encoding"]["opacity"])


def test_each_head_has_its_colour():
    spec = spec_of(frame(heads=3))
    stroke = views(spec)["lines"]["encoding"]["stroke"]
    assert (stroke["field"], stroke["type"]) == ("head", "nominal")
    assert stroke["scale"] == {"domain": ["Head 1", "Head 2", "Head 3"], "range": charts.HEAD_COLOURS}
    assert stroke["legend"]["symbolOpacity"] == 1  # not the faded lines' opacity
    titles = [v["title"]["color"] for v in marks(spec, "rect")]
    assert titles == charts.HEAD_COLOURS[:3]  # each heatmap titled in its head's colour
    assert views(spec_of(frame()))["lines"]["encoding"]["stroke"]["legend"] is None  # one head: no legend


def test_rows_line_up_and_grow_with_the_words():
    for n, per_word in ((6, 30), (64, LINE_STEP)):
        spec = spec_of(frame(n=n))
        named = views(spec)
        assert spec["bounds"] == "flush"  # parts aligned by plot area: heatmap row i level with query word i
        heights = {named[v]["height"] for v in ("heatmap_0", "query_words", "lines", "key_words")}
        assert heights == {per_word * n}
        assert named["query_words"]["encoding"]["y"]["scale"]["domain"] == [-0.5, n - 0.5]
        assert named["heatmap_0"]["encoding"]["y"]["scale"] == {"paddingInner": 0, "paddingOuter": 0}


def test_a_short_sentence_gives_each_word_room_and_a_long_one_stays_compact():
    for n, per_word in ((2, 30), (4, 30), (6, 30), (12, 20), (64, 18)):
        named = views(spec_of(frame(n=n)))
        for view in ("heatmap_0", "query_words", "lines", "key_words"):
            assert named[view]["height"] == per_word * n  # a hovered word's 14-pixel label and its lines, well apart
    assert views(spec_of(frame(n=4)))["lines"]["height"] >= 120  # not 4 words in 72 pixels


def test_many_heads_wrap_below_the_lines():
    spec = spec_of(frame(heads=6, n=20))
    top, *below = spec["vconcat"]
    assert [v.get("name") for v in top["hconcat"]][-3:] == ["query_words", "lines", "key_words"]
    assert below and len(marks(spec, "rect")) == 6
    assert len(spec["params"][0]["views"]) == 7
    for m in marks(spec, "rect"):
        assert m["width"] <= HEATMAPS_WIDTH and m["encoding"]["x"]["axis"]["labelFontSize"] >= 7


def test_raw_scores_are_diverging_and_negative_ones_dashed():
    spec = spec_of(frame(softmax=False), weights=False)
    (rect,) = marks(spec, "rect")
    assert rect["encoding"]["color"]["scale"]["scheme"] == "redblue"
    assert views(spec)["lines"]["encoding"]["strokeDash"]["condition"] == {"test": "datum.weight < 0",
                                                                           "value": [4, 3]}
    soft = marks(spec_of(frame()), "rect")[0]["encoding"]["color"]["scale"]
    assert soft["scheme"] == "blues" and soft["domain"]["expr"].startswith("[0, ")


def test_masked_cells_show_the_grey_background():
    (rect,) = marks(spec_of(frame(causal=True)), "rect")
    assert rect["view"] == {"fill": charts.MASKED}


def test_the_page_draws_it_at_the_height_of_its_content():
    df = frame(heads=2)
    spec, height = render.spec_of(attention_lines, df, **TITLES)
    assert height is None and render.page_height(attention_lines, spec, height, (df,)) == "content"
    assert list(spec["datasets"]) == [charts.dataset()] and spec["data"] == {"name": charts.dataset()}
    assert spec["autosize"] == {"type": "pad"}  # not Streamlit's "fit", which a chart of charts cannot do


def test_the_caption_says_what_the_view_shows():
    assert "opaque as its weight" in lines.caption(1, 1, masked=False, softmax=True)
    raw = lines.caption(12, 10, masked=True, softmax=False)
    assert "dashed" in raw and "12 heads" in raw and "first 10" in raw and "Masked" in raw
    with in_language("zh"):
        assert "虚线" in lines.caption(2, 2, masked=True, softmax=False)


def line_app(n, heads, causal):
    import numpy as np

    from engine.attention import attend
    from kinds import lines
    from kit import render

    render.name_files("kinds", "the cat drank milk", render.save_menu())  # the save menu, as frame.context opens it
    rng = np.random.default_rng(1)
    x = rng.normal(size=(n, 20))
    att = attend(x, x, *(rng.normal(size=(20, 20)) for _ in range(3)), causal=causal, heads=heads)
    words = ["the", "cat", "drank", "milk"] if n == 4 else [f"w{i}" for i in range(n)]
    lines.line_view(att, words, words, softmax=True, key="dec-")


def test_the_view_draws_the_lines_on_a_page():
    at = AppTest.from_function(line_app, args=(4, 2, True), default_timeout=60).run()
    assert not at.exception
    (data,) = chart_data(at)
    assert len(data) == 2 * (4 * 5 // 2)  # two heads, the causal pairs only
    assert set(data["head"]) == {"Head 1", "Head 2"} and set(data["query"]) == {"the", "cat", "drank", "milk"}
    (spec,) = page_charts(at)
    assert spec["hconcat"] and {p["name"] for p in spec["params"]} == {HOVER, HOVER_KEY}
    assert "Hover a query word" in at.caption[0].value and "2 heads" in at.caption[0].value
    assert spec["description"].startswith("Attention as lines")
    assert csv_keys(at) == ["dl_dec-lines"]  # the lines' weights as CSV, in the page's save menu


def test_a_long_sentence_draws_as_many_heads_as_stay_smooth():
    at = AppTest.from_function(line_app, args=(64, 10, False), default_timeout=60).run()
    assert not at.exception
    (data,) = chart_data(at)
    shown = lines.MAX_LINES // 64 ** 2
    assert data["h"].nunique() == shown == 2 and len(data) == shown * 64 ** 2
    assert "The first 2 of the 10 heads are drawn" in at.caption[0].value


def test_every_spec_is_valid_vega_lite():
    for df, options in ((frame(), {}), (frame(heads=3, causal=True), {}), (frame(softmax=False), {"weights": False}),
                        (frame(heads=6, n=20), {})):
        chart = attention_lines(df, **TITLES, **options)
        assert isinstance(chart, (alt.HConcatChart, alt.VConcatChart))
        chart.to_dict(validate=True)
