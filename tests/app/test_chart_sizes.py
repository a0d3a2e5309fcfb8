"""Charts as the pages draw them, for every input: every word labelled up to the longest sentence, numbers short at
any layer scale, a level title and a sentence for screen readers in every language, one scale for charts compared
side by side, and a sum check that says how close it is."""
import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from engine.tokens import MAX_TOKENS
from kit import charts as builders
from tests.apptest_helpers import chart_data, charts, csv_keys, messages, run_page

FACTOR = "pages/2_Factor_matrix.py"
LONGEST = ("after the long winter rain a small black cat quietly drank warm fresh milk from my blue ceramic bowl near "
           "an old wooden kitchen table while two young children played happy music outside under bright sunny skies "
           "and their tired grandmother slowly read yesterday's local newspaper beside her favourite garden window "
           "watching colourful birds eat seeds every morning before breakfast today at home")
HUGE_LAYERS = {"q_scale": "1000000", "k_scale": "1000000", "q_preset": "random", "k_preset": "random"}
CJK = re.compile(r"[\u4e00-\u9fff]")
# a data field's name leaking into a sentence; the k of the symbol q·k is the score's own name
FIELD_NAMES = re.compile(r"(?<!·)\b(k|r|c|col|row|dim|running|vector|value|label|line|key|weight|contribution)\b")


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def heatmaps(at: AppTest) -> list[dict]:
    """The specs of the page's heatmaps' plots (two layers: cells and maybe their numbers, with a colour bar), each the
    one part of a column as wide as the page."""
    plots = [spec["vconcat"][0] for spec in charts(at) if len(spec.get("vconcat", ())) == 1]
    return [plot for plot in plots if plot["layer"][0]["mark"]["type"] == "rect"]


def test_the_longest_sentence_labels_every_word_on_every_heatmap():
    at = ok(run_page(FACTOR, {"sentence": LONGEST}))
    factor, weights, z = heatmaps(at)
    for spec in (factor, weights):
        x, y = spec["layer"][0]["encoding"]["x"], spec["layer"][0]["encoding"]["y"]
        assert x["axis"]["labelOverlap"] is False and x["axis"]["labelAngle"] == -90 and "values" not in x["axis"]
        assert y["axis"]["labelOverlap"] is False and "values" not in y["axis"]
        assert spec["height"] == {"step": builders.ROW_STEP}  # as high as its 64 rows need
    dims = z["layer"][0]["encoding"]["x"]["axis"]  # dimensions may be thinned to as many as fit
    assert dims["values"] == list(range(1, 17)) and dims["labelOverlap"] is True
    words = LONGEST.replace("'s", " 's").split()
    assert len(words) == MAX_TOKENS
    rows = [
        df["r"].nunique()
        for spec, df in zip(charts(at), chart_data(at), strict=False)
        if len(spec.get("vconcat", ())) == 1
    ]
    assert rows[:2] == [MAX_TOKENS, MAX_TOKENS]  # the factor and weights heatmaps: ROW_STEP pixels for each word


def test_a_huge_layer_scale_keeps_numbers_short_and_the_sum_check_relative():
    at = ok(run_page(FACTOR, {**HUGE_LAYERS, "v_scale": "1000000"}))
    factor = heatmaps(at)[0]
    rect, numbers = factor["layer"]
    assert rect["encoding"]["color"]["legend"]["labelExpr"] == builders.COMPACT
    assert numbers["transform"][-1] == {"calculate": builders.CELL, "as": "label"}
    (check,) = [m.value for m in at.success if "add up" in m.value]
    assert int(re.search(r"agree in their first (\d+) digits", check).group(1)) >= 12


def sum_check_app(off: float):
    """contribution_view for one query whose row of Z is off by `off` times its largest number."""
    import numpy as np

    from engine.attention import attend
    from kit import views

    rng = np.random.default_rng(0)
    x, w = rng.normal(size=(3, 4)) * 1e6, np.eye(4)
    att = attend(x, x, w, w, w)
    att.z[2] += off * np.abs(att.z[2]).max()
    views.contribution_view(att, 2, "c", ["a", "b", "c"], softmax=True)


@pytest.mark.parametrize("off, holds", [(0.0, True), (1e-9, False)])
def test_the_sum_check_says_truthfully_whether_the_contributions_add_up(off, holds):
    at = ok(AppTest.from_function(sum_check_app, args=(off,), default_timeout=60).run())
    if holds:
        assert at.success[0].value.startswith("Check: the contributions add up to row “c” of Z. The two agree in")
        assert not re.search(r"\de-\d|relative", at.success[0].value)  # said without powers of ten or jargon
    else:
        assert not at.success and "agree only in their first 8 digits" in messages(at)


def pair_app():
    """Two (query, key) pairs drawn side by side on shared scales, as page 3 draws them."""
    import numpy as np
    import streamlit as st

    from dot.views import pair_products
    from engine.alignment import pair_alignment

    q = np.array([0.5, -1.0, 2.0, -0.2, 0.1])
    pairs = [pair_alignment(q, k) for k in (np.array([1.0, -0.5, -1.5, 0.4, 0.0]), np.array([3.0, 2.0, 4.0, 0.1, 1.0]))]
    pair_products(pairs, "milk", ["drank", "black"], by_size=False, fields=["key", "key2"], wheres=st.columns(2))


def test_pairs_side_by_side_share_their_scales_and_the_running_sum_has_its_own_axis():
    at = ok(AppTest.from_function(pair_app, default_timeout=60).run())
    first, second = charts(at)
    for spec in (first, second):
        bars, line, end = spec["layer"]
        assert "resolve" not in spec and "strokeDash" in line["encoding"]
        assert bars["encoding"]["y"]["scale"] == line["encoding"]["y"]["scale"] == end["encoding"]["y"]["scale"]
    domains = [[layer["encoding"]["y"]["scale"]["domain"] for layer in spec["layer"]] for spec in (first, second)]
    assert domains[0] == domains[1]
    ranges = [df[["y_lo", "y_hi"]].drop_duplicates() for df in chart_data(at)]
    assert all(len(r) == 1 for r in ranges) and ranges[0].equals(ranges[1])  # one range for both, in their data


def y_axes(spec) -> list[dict]:
    """Every y axis definition in a spec, layers included."""
    found = []
    if isinstance(spec, dict):
        y = spec.get("encoding", {}).get("y", {})
        if isinstance(y.get("axis"), dict):
            found.append({"title": y.get("title"), **y["axis"]})
        for value in spec.values():
            found += y_axes(value)
    elif isinstance(spec, list):
        for value in spec:
            found += y_axes(value)
    return found


def test_chinese_pages_draw_level_titles_and_describe_charts_in_chinese():
    at = ok(run_page(FACTOR, {"lang": "zh"}))
    specs = charts(at)
    assert len(specs) == 5
    for spec in specs:
        assert CJK.search(spec["description"]) and not FIELD_NAMES.search(spec["description"]), spec["description"]
        titled = [axis for axis in y_axes(spec) if axis.get("title", axis["title"]) is not None]
        assert titled and all(axis["titleAngle"] == 0 for axis in titled), json.dumps(spec, ensure_ascii=False)[:300]


def test_chinese_csv_buttons_are_labelled_in_chinese_without_stray_space():
    at = ok(run_page("pages/1_Words_become_rows.py", {"lang": "zh"}))
    assert "dl_x" in csv_keys(at, "zh")  # the input rows' numbers, in their chart's save menu
    labels = [b.label for b in at.get("download_button")]
    assert labels and all(not re.search(r"\s（|）\s|^\s|\s$", label) for label in labels), labels
    at = ok(run_page("pages/4_Relevance.py", {"lang": "zh"}))  # a table's own download, outside any chart
    labels = [b.label for b in at.get("download_button") if b.label.endswith("（CSV）")]
    assert labels and all(re.fullmatch(r"下载\S.*（CSV）", label) for label in labels), labels
