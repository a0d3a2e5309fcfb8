"""bench/floor/frame_app.py, the reference bench.browser times every page against: the dashboard's own frame around one
heatmap of the sentence's rows, and nothing else. If the frame changes, the reference changes with it."""
from streamlit.testing.v1 import AppTest

from harness.apptest import ROOT
from kit.pages import PAGES
from kit.text import t
from tests.apptest_helpers import chart_data

FLOOR = ROOT / "bench" / "floor" / "frame_app.py"


def test_the_floor_page_is_the_frame_and_one_heatmap_that_follows_the_sentence():
    at = AppTest.from_file(str(FLOOR), default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [x.value for x in at.title] == [t("learn_title")]  # the frame of a story page
    assert len(at.sidebar.get("page_link")) == len(PAGES) and at.sidebar.text_input(key="sentence")
    before = chart_data(at)
    assert len(before) == 1 and len(at.get("vega_lite_chart")) == 1
    at.sidebar.text_input(key="sentence").set_value("today " + at.sidebar.text_input(key="sentence").value).run()
    assert not at.exception
    after = chart_data(at)
    assert len(after) == 1 and not after[0].equals(before[0])  # one more word: one more row of the heatmap


PART = ROOT / "bench" / "floor" / "part_app.py"


def test_the_part_floor_is_the_frame_and_a_word_that_outlines_its_row_with_the_chart_s_spec_unchanged():
    """bench/floor/part_app.py, the reference bench.browser times the pages' own controls against: picking another
    word changes the chart's data (the outlined row) and not its spec, so the browser redraws it in place."""
    at = AppTest.from_file(str(PART), default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [x.value for x in at.title] == [t("learn_title")]
    assert at.selectbox(key="query").value == "milk"
    spec, before = at.get("vega_lite_chart")[0].proto.spec, chart_data(at)
    at.selectbox(key="query").set_value("cat").run()
    assert not at.exception
    after = chart_data(at)
    assert len(after) == 1 and at.get("vega_lite_chart")[0].proto.spec == spec
    assert not after[0].equals(before[0])  # the outline moved from milk's row to cat's
