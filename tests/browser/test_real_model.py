"""Page 8 in headless Chromium: on the article's sentence and on a 25-word held-out treebank sentence, in both
languages, the grid of heads draws on a canvas beside the other charts, each tab under it shows its charts or its table
and goes into the address bar, with no error box and nothing in the console; a click on a head in the grid shows it
large."""
import pytest

from tests import browser_helpers as b
from tests.minilm_model import require_model

PAGE = "pages/8_Real_model.py"
FALLUJAH = "weblog-juancole.com_juancole_20030914114200_ENG_20030914_114200-0003"  # 25 words
SENTENCES = {"article": "", "treebank": f"&model_sentence=treebank&real={FALLUJAH}"}


@pytest.fixture(autouse=True)
def fetched():
    require_model()


def grid(page):
    """The grid of every head: the chart drawn on a canvas."""
    return b.charts(page).filter(has=page.locator("canvas")).first


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("which", list(SENTENCES))
def test_the_page_draws_every_chart_with_nothing_in_the_console(page, app_url, which, lang):
    b.visit(page, b.address(app_url, PAGE, lang) + SENTENCES[which])
    # the tabs under the grid, in turn: the head large beside ours, the word-by-word table, the maps of what the
    # heads park on [CLS] and [SEP], the comparison over every held-out sentence (text only)
    for tab, (charts, tables, view) in enumerate(((3, 0, "large"), (1, 1, "finders"), (3, 0, "parked"),
                                                   (1, 0, "compare"))):
        b.open_tab(page, tab)
        shown = b.drawn(page)
        assert [c["kind"] for c in shown].count("canvas") == 1 and len(shown) == charts, view
        for chart in shown:
            assert chart["width"] > 200 and chart["height"] > 100, chart
            assert chart["kind"] == "canvas" or chart["marks"] > 0, chart
        assert page.locator("[data-testid=stDataFrame]").count() == tables, view
        assert b.problems(page) == []
        assert page.locator("[data-testid=stAlertContainer]").count() == 0
        assert tab == 0 or f"model_view={view}" in page.url
        if tab < 2:
            b.screenshot(page, f"Real_model-{which}-{lang}-{view}")
    assert page.console == [] and page.errors == []


def test_a_click_on_a_head_in_the_grid_shows_it_large(page, app_url):
    b.visit(page, b.address(app_url, PAGE, "en"))
    canvas = grid(page).locator("canvas")
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()  # layer 1's first head: the top left twelfth of the plot's width, a sixth of its height
    b.rerun(page, lambda: page.mouse.click(box["x"] + 40, box["y"] + 55))
    assert page.get_by_text("L1-H1 beside our head").count() == 1
    assert b.problems(page) == [] and page.console == [] and page.errors == []
