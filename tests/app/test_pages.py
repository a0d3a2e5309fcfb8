"""Every page through Streamlit's AppTest: renders, reacts, restores from the URL, survives bad input."""
import json
import re

import numpy as np
import pyarrow as pa
import pytest

from engine.tokens import MAX_TOKENS
from kit.charts import PICK
from kit.text import number
from lesson.settings import DEFAULTS, parse
from tests.apptest_helpers import PAGES, RANDOM_LAYERS, chart_data, charts, messages, run_page
from tests.engine.test_charts import units
from tests.minilm_model import require_model_for

ALL = [None, *PAGES]  # None is the home page
SENTENCE_FIELDS = ("sentence", "source_sentence", "target_sentence")
WORD_FIELDS = ("query", "key", "key2", "dec_query", "cross_query", "real_key")
WIDGETS = ("text_input", "selectbox", "number_input", "toggle", "checkbox", "radio", "button_group", "slider",
           "select_slider", "text_area", "multiselect")
# Settings a page does not use: changing them must leave its numbers exactly as they were.
IGNORES = {
    "pages/1_Words_become_rows.py": {"scaled", "softmax"},
    "pages/3_Dot_product.py": {"scaled", "softmax"},
    "pages/4_Relevance.py": {"softmax"},
    "pages/5_Learning.py": {"scaled", "softmax"},
    "pages/7_Real_sentences.py": {"sentence"},  # it shows held-out treebank sentences, not the sidebar's
}
DOT, RELEVANCE = "pages/3_Dot_product.py", "pages/4_Relevance.py"
HEAD_PICKS = {"model_grid_pick", "model_parked_pick", "model_parked_word_pick"}  # page 8's charts that pick a head of
# the real model, not a word (tests/app/test_real_model.py)


def name(page):
    """Test id of a page."""
    return page or "home"


def widget(at, key):
    """The widget bound to `key` on the page (sidebar included), or None."""
    for kind in WIDGETS:
        try:
            return getattr(at, kind)(key=key)
        except KeyError:
            continue
    return None


def setting(at, key, value):
    """Set a setting as a visitor would: through its widget when the page shows one, else the session state."""
    w = widget(at, key)
    if w is None:
        at.session_state[key] = value
    else:
        w.set_value(value)
    return at


def current(at, key):
    """The value a setting shows on the page: its widget's value, else what the session keeps."""
    w = widget(at, key)
    return at.session_state[key] if w is None else w.value


def sentence_field(at) -> str:
    """The settings field of the sentence box in this page's sidebar."""
    return next(w.key for w in at.sidebar.text_input if w.key in SENTENCE_FIELDS)


def same(a, b) -> bool:
    """Two pages' chart data are identical, chart by chart."""
    return len(a) == len(b) and all(x.equals(y) for x, y in zip(a, b, strict=False))


def ok(at):
    """The run raised nothing; the AppTest, for chaining."""
    assert not at.exception, [e.value for e in at.exception]
    return at


def click(at, chart, row, col):
    """Run the page as after a click on cell (row, col) of a clickable heatmap.

    AppTest cannot click charts, so this sends the widget state a browser sends for that click (through AppTest's
    private _run), and the page's on_select callback runs exactly as in the app.
    """
    states = at._tree.get_widget_states()
    state = states.widgets.add()
    state.id = chart.proto.id
    state.string_value = json.dumps({"selection": {PICK: [{"row": row, "col": col}]}})
    return at._run(states)


def chart_by_key(at, key):
    """The chart element with this key."""
    return next(c for c in at.get("vega_lite_chart") if c.key == key)


def frame_of(at, key):
    """The data of the chart with this key."""
    return chart_data(at)[[c.key for c in at.get("vega_lite_chart")].index(key)]


# --- every page ---

@pytest.mark.parametrize("page", ALL, ids=name)
def test_renders_with_charts_by_default(page):
    require_model_for(page)
    at = ok(run_page(page))
    assert chart_data(at) and all(len(df) for df in chart_data(at))
    assert not at.error
    for chart in at.get("vega_lite_chart"):  # each dataset alone: stacking them would pad with NaN
        for d in chart.proto.datasets:
            numbers = pa.ipc.open_stream(d.data.data).read_pandas().select_dtypes("number").to_numpy(dtype=float)
            assert np.isfinite(numbers).all(), chart.key


def chart_places(at) -> list[tuple[int, ...]]:
    """Where each chart stands in the page: the path of child indices from the main area down to it."""
    found = []

    def walk(node, path: tuple[int, ...]) -> None:
        for i, child in getattr(node, "children", {}).items():
            if getattr(child, "type", "") == "vega_lite_chart":
                found.append((*path, i))
            walk(child, (*path, i))
    walk(at.main, ())
    return found


@pytest.mark.parametrize("page", ALL, ids=name)
def test_a_word_added_to_the_sentence_leaves_every_chart_in_its_place(page):
    """The browser updates a chart in place only when the chart keeps its place in the page; an element that comes or
    goes above it makes the browser build it anew, which took page 4's edit from 0.21 to 0.29 s."""
    require_model_for(page)
    story = DEFAULTS.sentence
    before, after = (chart_places(ok(run_page(page, {"sentence": x}))) for x in (story, f"today {story}"))
    assert before and before == after


@pytest.mark.parametrize("key, value", [("sentence", "A dog chased the red ball"), ("q_preset", "identity"),
                                        ("k_preset", "random"), ("position", 0.6), ("scaled", False),
                                        ("softmax", False)])
@pytest.mark.parametrize("page", ALL, ids=name)
def test_settings_change_the_numbers_shown(page, key, value):
    require_model_for(page)
    at = ok(run_page(page))
    before = chart_data(at)
    if key == "sentence":
        key = sentence_field(at)
    ok(setting(at, key, value).run())
    after = chart_data(at)
    assert after
    if key in IGNORES.get(page, ()):
        assert same(before, after), f"{key} should not change {name(page)}"
    else:
        assert not same(before, after), f"{key} did not change the numbers on {name(page)}"


URL = {
    "q_preset": "random",
    "q_seed": "7",
    "k_preset": "rotation",
    "d_k": "8",
    "position": "0",
    "scaled": "0",
    "softmax": "0",
    "lang": "zh",
    "source": "glove50k",
}


@pytest.mark.parametrize("page", ALL, ids=name)
def test_url_restores_the_settings(page):
    from_url = ok(run_page(page, URL))
    by_hand = ok(run_page(page))
    for key, raw in URL.items():
        setting(by_hand, key, parse(key, raw))
    ok(by_hand.run())
    for key, raw in URL.items():
        assert current(from_url, key) == parse(key, raw) == current(by_hand, key), key
    assert same(chart_data(from_url), chart_data(by_hand))
    assert URL.items() <= from_url.query_params.items()
    assert URL.items() <= by_hand.query_params.items()


@pytest.mark.parametrize("page", ALL, ids=name)
def test_settings_survive_switching_pages(page):
    there = ALL[(ALL.index(page) + 1) % len(ALL)]
    require_model_for(there)
    at = ok(run_page(page, RANDOM_LAYERS))  # d_k 8 of random layers: nothing to fit
    sentence = sentence_field(at)
    setting(at, "q_seed", 7)
    setting(at, "d_k", 8)
    setting(at, sentence, "The cat drank the milk")
    ok(at.run())
    ok(at.switch_page(there or "pages/0_Home.py").run())
    assert current(at, "q_seed") == 7 and current(at, "d_k") == 8
    assert at.session_state[sentence] == "The cat drank the milk"
    assert {"q_seed": "7", "d_k": "8", sentence: "The cat drank the milk"}.items() <= at.query_params.items()
    assert chart_data(at)
    fresh = ok(run_page(there, dict(at.query_params)))  # the address bar alone reproduces the view
    assert same(chart_data(fresh), chart_data(at))


BAD_SENTENCES = {  # name: (text, words the message must contain; None: rows are drawn and no message is needed)
    "empty": ("", ["Type a sentence"]),
    "blank": ("   ", ["Type a sentence"]),
    "100 words": (" ".join(["milk"] * 100), ["100 tokens", f"at most {MAX_TOKENS}"]),
    "typo": ("The black cat drank the mlik", ["mlik", "milk"]),
    "emoji": ("The cat 🐱 drank the milk 🥛", ["🐱", "🥛"]),
    "chinese": ("猫喝了牛奶", ["猫喝了牛奶", "vocabulary"]),
    "only unknown": ("xqzt vvbnm", ["xqzt", "nothing to show"]),
    "html": ("<b>milk</b> <script>alert(1)</script>", None),
}


@pytest.mark.parametrize("case", BAD_SENTENCES)
@pytest.mark.parametrize("page", ALL, ids=name)
def test_bad_sentences_give_messages_not_exceptions(page, case):
    require_model_for(page)
    text, expected = BAD_SENTENCES[case]
    at = ok(run_page(page))
    before = chart_data(at)
    ok(setting(at, sentence_field(at), text).run())
    shown = messages(at)
    if "sentence" in IGNORES.get(page, ()):  # the sidebar's sentence is not this page's: nothing changes
        assert same(before, chart_data(at)) and not shown
    elif expected is None:  # tags are words and punctuation like any other: drawn as text, never as HTML
        words = " ".join(str(v) for df in chart_data(at) for col in df.columns for v in df[col])
        words += " ".join(str(o) for box in at.main.selectbox for o in box.options)  # word pickers
        assert "script" in words and "milk" in words
        assert not any(getattr(m.proto, "allow_html", False) for m in at.markdown)
    else:
        assert all(word in shown for word in expected), shown


@pytest.mark.parametrize("page", ALL, ids=name)
def test_bad_url_values_show_a_notice_and_use_defaults(page):
    require_model_for(page)
    at = ok(run_page(page, {"d_k": "abc", "lang": "fr", "colour": "red", "q_seed": "5"}))
    notice = " ".join(w.value for w in at.warning)
    for part in ("d_k=abc", "lang=fr", "colour=red"):
        assert part in notice
    assert current(at, "d_k") == DEFAULTS.d_k and current(at, "lang") == "en" and current(at, "q_seed") == 5
    assert at.query_params.get("q_seed") == "5"
    assert not {"d_k", "lang", "colour"} & set(at.query_params)
    assert chart_data(at)
    ok(at.run())
    assert "d_k=abc" not in " ".join(w.value for w in at.warning)  # said once, then the view is clean


@pytest.mark.parametrize("page", ALL, ids=name)
def test_picking_a_word_moves_the_highlight(page):
    """Clickable heatmaps choose their row word; word selectors change the numbers shown."""
    at = ok(run_page(page))
    for chart in [c for c in at.get("vega_lite_chart") if PICK in c.proto.selection_mode and c.key not in HEAD_PICKS]:
        df = frame_of(at, chart.key)
        was = set(df.loc[df["selected"], "row"])
        row = next(r for r in df["row"] if r not in was)
        ok(click(at, chart_by_key(at, chart.key), row, df["col"].iloc[0]))
        df = frame_of(at, chart.key)
        assert set(df.loc[df["selected"], "row"]) == {row}, chart.key
    for key in WORD_FIELDS:
        box = widget(at, key)
        if box is None or len(box.options) < 2:
            continue
        before = chart_data(at)
        choice = next(o for o in box.options if o != box.value)
        ok(box.select(choice).run())
        assert widget(at, key).value == choice
        assert not same(before, chart_data(at)), key


# --- page 2: the factor matrix ---

def test_factor_contributions_add_up_to_z():
    at = ok(run_page("pages/2_Factor_matrix.py", {"q_seed": "5"}))
    (check,) = [m.value for m in at.success if "add up" in m.value]
    assert int(re.search(r"agree in their first (\d+) digits", check).group(1)) >= 9


# --- page 3: why a dot product measures relevance ---

def dots_shown(at) -> list[float]:
    """The dot products the page states, left column first."""
    said = " ".join(m.value for m in at.markdown)
    return [float(m.replace("−", "-")) for m in re.findall(r"q·k = (−?[0-9.]+)", said)]  # the true minus sign


@pytest.mark.parametrize("query", [{}, {"pair_rows": "embedding"}, {"sort": "size", "q_seed": "9"},
                                   {"query": "cat", "key": "the (1)", "key2": "milk", "q_preset": "identity"}])
def test_dot_group_sums_equal_the_dot_product_shown(query):
    at = ok(run_page(DOT, query))
    dots = dots_shown(at)
    groups = [d.value for d in at.dataframe][:2]  # the third table splits the scores into length and angle
    products = [df for df in chart_data(at) if "product" in df]
    assert len(dots) == len(groups) == len(products) == 2
    d = 50 if query.get("pair_rows") == "embedding" else DEFAULTS.d_k
    (strips,) = [df for df in chart_data(at) if "vector" in df]
    assert len(strips) == 3 * d and strips["vector"].nunique() == 3
    for dot, table, prod, check in zip(dots, groups, products, at.success, strict=False):
        assert table["sum"].sum() == pytest.approx(dot, abs=6e-5)
        assert table["dimensions"].sum() == d == len(prod)
        assert prod["product"].sum() == pytest.approx(dot, abs=6e-5)
        assert prod["running"].iloc[-1] == pytest.approx(prod["product"].sum())
        assert number(dot, ".4f") in check.value
        agree = table.loc[table["group"].str.contains(r"\(\+,\+\)|\(−,−\)"), "sum"]
        assert (agree >= 0).all() and (table["sum"].drop(agree.index) <= 0).all()
    if query.get("sort") == "size":
        for prod in products:
            assert (np.diff(np.abs(prod["product"].to_numpy())) <= 0).all()


def test_dot_product_is_the_factor_matrix_cell():
    sentence = "The black cat drank the milk"
    at = ok(run_page(DOT))
    assert (widget(at, "query").value, widget(at, "key").value, widget(at, "key2").value) == ("milk", "drank", "black")
    dots = dots_shown(at)
    factor = ok(run_page("pages/2_Factor_matrix.py", {"sentence": sentence}))
    cells = frame_of(factor, "factor_pick").set_index(["row", "col"])["value"]
    assert dots == pytest.approx([cells["milk", "drank"], cells["milk", "black"]], abs=6e-5)


def test_dot_falls_back_to_words_of_the_sentence():
    at = ok(run_page(DOT, {"sentence": "The ball is blue"}))
    q, k, k2 = (widget(at, f).value for f in ("query", "key", "key2"))
    assert q == "blue" and k != q and k2 != q
    dots = dots_shown(at)
    assert dots[0] >= dots[1]  # the first key is the best-scoring other word, the second the worst


def test_one_word_sentence_on_page_3_says_two_words_are_needed():
    at = ok(run_page(DOT, {"sentence": "milk"}))
    assert widget(at, "key") is None and not dots_shown(at)
    assert "at least two words" in messages(at)


def test_dot_word_choices_survive_a_visit_elsewhere():
    at = ok(run_page(DOT))
    widget(at, "key").select("cat")
    widget(at, "sort").set_value("size")
    ok(at.run())
    ok(at.switch_page(RELEVANCE).run())
    ok(at.switch_page(DOT).run())
    assert widget(at, "key").value == "cat" and widget(at, "sort").value == "size"
    assert {"key": "cat", "sort": "size"}.items() <= at.query_params.items()


def test_dot_clearing_a_segmented_control_falls_back_to_its_default():
    at = ok(run_page(DOT, {"sort": "size", "pair_rows": "embedding"}))
    widget(at, "sort").set_value(None)
    widget(at, "pair_rows").set_value(None)
    ok(at.run())
    assert (widget(at, "sort").value, widget(at, "pair_rows").value) == ("dimension", "qk")
    assert len(dots_shown(at)) == 2


# --- page 4: relevance between words ---


@pytest.mark.parametrize("page", ALL, ids=name)
def test_every_mark_drawn_has_a_tooltip_and_signed_colours_centre_on_zero(page):
    for spec in charts(ok(run_page(page))):
        for mark, encoding in units(spec):
            assert encoding.get("tooltip"), f"{name(page)}: a {mark} mark without tooltip in “{spec.get('title')}”"
            colour = encoding.get("color", {})
            if colour.get("type") == "quantitative":
                scale = colour["scale"]
                assert scale.get("domainMid") == 0 or scale["domain"]["expr"].startswith("[0, "), spec.get("title")


@pytest.mark.parametrize("page", ALL, ids=name)
def test_copy_link_holds_the_view_once_opened(page):
    from urllib.parse import parse_qs, urlparse
    at = ok(run_page(page, {"q_seed": "7", "lang": "zh", "sentence": "The cat drank the milk"}))
    assert not at.code  # built only while the popover is open
    at.session_state["link_open"] = True
    (link,) = ok(at.run()).sidebar.code
    shared = parse_qs(urlparse(link.value).query)
    assert {k: v[0] for k, v in shared.items()} == dict(at.query_params) and shared["q_seed"] == ["7"]
    fresh = ok(run_page(page, {k: v[0] for k, v in shared.items()}))  # the link alone reproduces the view
    assert same(chart_data(fresh), chart_data(at))


def test_layer_controls_stay_open_or_closed_across_page_switches():
    from tests.apptest_helpers import open_layers
    at = open_layers(run_page(None))
    assert at.sidebar.number_input(key="q_seed")
    ok(at.switch_page("pages/2_Factor_matrix.py").run())
    assert at.sidebar.number_input(key="q_seed").value == DEFAULTS.q_seed  # still open, still bound
    at.session_state["layers_open"] = False  # closed by the learner
    ok(at.run())
    assert not at.sidebar.number_input
    ok(at.switch_page("pages/0_Home.py").run())
    assert not at.sidebar.number_input
