"""The real server in headless Chromium: every page draws, interactions change the view, the URL restores it."""
import re
import urllib.error
import urllib.request
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from playwright.sync_api import expect

from kit import pages
from kit.text import t
from tests import browser_helpers as b
from tests.minilm_model import require_model_for

FACTOR = "pages/2_Factor_matrix.py"
STORY = "The black cat drank the milk"  # the default
OTHER = "The ball is blue"
LONG = ("after the long winter rain a small black cat quietly drank warm fresh milk from my blue ceramic bowl near an "
        "old wooden kitchen table while two young children played happy music outside under bright sunny skies and")
HUGE_LAYERS = {"q_scale": 1000000, "k_scale": 1000000, "q_preset": "random", "k_preset": "random"}
HOSTILE = "<script>alert(1)</script> <img src=x onerror=alert(2)> milk **bold** [go](javascript:alert(3))"


def url_of(app_url: str, script: str, **query) -> str:
    """Address of a page script with URL parameters."""
    params = "&".join(f"{k}={quote(str(v))}" for k, v in query.items())
    return f"{app_url}/{b.url_path(script)}" + (f"?{params}" if params else "")


def params(page) -> dict[str, str]:
    """The current URL's parameters (last value of each)."""
    return {k: v[-1] for k, v in parse_qs(urlsplit(page.url).query, keep_blank_values=True).items()}


def check_every_tab(page, script: str, shot: str) -> None:
    """Each tab of the page: every chart visible there has drawn marks; no error, exception, NaN or infinity."""
    for tab in range(max(1, b.tabs(page).count())):
        if tab:
            b.open_tab(page, tab)
        shown = [chart for chart in b.drawn(page) if chart["visible"]]
        assert shown, f"{script} ({shot}, tab {tab + 1}) shows no chart"
        for i, chart in enumerate(shown):
            assert chart["kind"] in ("svg", "canvas") and chart["width"] > 0 and chart["height"] > 0, (
                script,
                tab,
                i,
                chart,
            )
            assert chart["kind"] == "canvas" or chart["marks"] > 0, (
                f"{script} ({shot}, tab {tab + 1}): chart {i} drew no marks"
            )
        assert b.problems(page) == [], f"{shot}, tab {tab + 1}"
        assert b.turned_titles(page) == [], f"{shot}, tab {tab + 1}: axis titles turned on their side"
        assert b.overflow(page) == [], f"{shot}, tab {tab + 1}: text past the window or out of its chart"
        b.screenshot(page, f"{shot}-tab{tab + 1}" if tab else shot)
    assert all(chart["kind"] for chart in b.drawn(page)), f"{script} has charts that never drew"
    if tab:
        b.open_tab(page, 0)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("script", b.SCRIPTS)
def test_every_page_draws_its_charts_without_errors(chromium, first_views, app_url, script, lang):
    require_model_for(script)
    page = b.first_view(first_views, chromium, b.address(app_url, script, lang))
    try:
        draws_its_charts(page, script, lang)
    finally:
        b.leave(page)


def draws_its_charts(page, script: str, lang: str) -> None:
    """Every tab of the page drew its charts, and so did the page's main action (training) if it has one."""
    name = (b.url_path(script) or "Home") + ("" if lang == "en" else f"-{lang}")
    check_every_tab(page, script, name)
    start = page.locator("[data-testid=stMain] [data-testid=stBaseButton-primary]")
    if start.count():  # a page's main action (training) draws more: check what it draws too
        b.rerun(page, start.first.click)
        b.fits_ended(page)  # the fit's results arrive in a run of their own
        check_every_tab(page, script, f"{name}-after-{start.first.inner_text().strip().split()[-1]}")
    assert page.dialogs == [] and page.errors == []  # no console error, no address answered with an HTTP error


def test_sidebar_links_reach_every_page(page, app_url):
    b.visit(page, app_url)
    hrefs = page.locator("[data-testid=stSidebar] [data-testid=stPageLink-NavLink]").evaluate_all(
        "links => links.map(a => new URL(a.href).pathname.replace(/^\\//, ''))")
    assert sorted(hrefs) == sorted(b.url_path(p.path) for p in pages.PAGES)


def test_typing_a_sentence_redraws_every_chart(page, app_url):
    b.visit(page, app_url)
    before = list(zip(b.marks(page), b.pictures(page), strict=True))  # a chart on a canvas has no marks to read
    assert not any("ball" in label for chart, _ in before for label in chart)
    b.type_sentence(page, OTHER)
    after = list(zip(b.marks(page), b.pictures(page), strict=True))
    assert len(after) == len(before)
    assert all(a != c for a, c in zip(after, before, strict=False)), "some chart did not change with the sentence"
    factor = next(chart for chart, _ in after if any("key word: ball" in label for label in chart))
    assert any("query word: blue" in label for label in factor)
    assert params(page)["sentence"] == OTHER
    assert b.problems(page) == []


def test_layer_preset_and_seed_change_the_numbers(page, app_url):
    b.visit(page, url_of(app_url, FACTOR))
    b.open_layers(page)
    start = b.marks(page)
    b.choose(page, "W_Q preset", "random rotation")
    rotated = b.marks(page)
    assert rotated[0] != start[0], "the factor matrix ignored the W_Q preset"
    assert params(page)["q_preset"] == "rotation"
    b.set_number(page, "W_Q seed", 42)
    reseeded = b.marks(page)
    assert reseeded[0] != rotated[0], "the factor matrix ignored the W_Q seed"
    assert params(page)["q_seed"] == "42" and b.number_input(page, "W_Q seed").input_value() == "42"
    assert b.problems(page) == []


def test_clicking_a_factor_cell_chooses_the_query_word(page, app_url):
    b.visit(page, url_of(app_url, FACTOR, sentence=STORY))
    query = b.combobox(page, "Query word")
    assert query.input_value() == "milk"
    factor = b.charts(page).filter(has_text="Factor matrix")
    b.click_mark(page, factor.first, "query word: cat;")
    assert query.input_value() == "cat"
    assert params(page)["query"] == "cat"
    assert page.get_by_text("How much “cat” attends to each word").count() == 1
    assert b.problems(page) == []


def test_clicking_a_factor_cell_drawn_on_a_canvas_chooses_the_query_word(page, app_url):
    words = LONG.split() + "under the old tree where ten quiet birds sang all day".split()
    assert len(words) ** 2 > 2000  # the factor matrix past charts.CANVAS_WORD_CELLS: drawn on a canvas
    b.visit(page, url_of(app_url, FACTOR, sentence=" ".join(words)))
    factor = b.charts(page).first.locator("canvas")
    query = b.combobox(page, "Query word")
    before = query.input_value()
    factor.scroll_into_view_if_needed()
    box = factor.bounding_box()
    b.rerun(page, lambda: page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
    assert query.input_value() != before and query.input_value().split(" (")[0] in words
    assert params(page)["query"] == query.input_value()
    assert b.problems(page) == []


def test_settings_survive_every_page_switch_and_each_address_restores_its_page(chromium, page, app_url):
    b.visit(page, app_url)
    b.type_sentence(page, OTHER)
    b.open_layers(page)
    b.set_number(page, "W_V seed", 77)
    links = page.locator("[data-testid=stSidebar] [data-testid=stPageLink-NavLink]")
    names = links.all_inner_texts()
    other = b.new_page(chromium)
    try:
        for name in names[1:] + names[:1]:
            b.rerun(page, lambda name=name: links.filter(has_text=name).first.click())
            got = params(page)
            assert (got.get("sentence"), got.get("v_seed")) == (OTHER, "77"), (
                f"page '{name}' lost the settings: {page.url}"
            )
            if name == t(pages.page("class").nav):  # the class page shows none of the story's controls
                assert b.problems(page) == []
                assert page.locator("[data-testid=stSidebar] [data-testid=stExpander]").count() == 0
                continue
            b.open_layers(page)
            assert b.number_input(page, "W_V seed").input_value() == "77", f"page '{name}' reset the W_V seed"
            assert b.problems(page) == [], name
            b.visit(other, page.url)  # the settings came from the session; the address alone must give the same view
            b.open_layers(other)
            assert b.widget_values(other) == b.widget_values(page), f"page '{name}' from its address alone"
            assert b.marks(other) == b.marks(page), f"page '{name}' from its address alone draws other numbers"
    finally:
        b.leave(other)
    assert urlsplit(page.url).path == "/"
    assert b.sidebar_input(page).input_value() == OTHER


def sorted_marks(page) -> list[list[str]]:
    """Each chart's marks by their labels: a chart updated in place may keep a zero-width bar (a hidden own cell's
    contribution) at another place in the document than one drawn afresh."""
    return [sorted(chart) for chart in b.data_marks(page)]


def test_copied_url_restores_the_same_view(chromium, page, app_url):
    b.visit(page, url_of(app_url, FACTOR))
    b.type_sentence(page, "The cat drank the milk")
    b.open_layers(page)
    b.choose(page, "W_Q preset", "random rotation")
    b.set_number(page, "W_Q seed", 123)
    b.click_mark(page, b.charts(page).filter(has_text="Factor matrix").first, "query word: drank;")
    b.rerun(
        page,
        lambda: page.locator("[data-testid=stCheckbox]").filter(has_text="Divide by √d_k").locator("label").click(),
    )
    view = (page.url, b.widget_values(page), sorted_marks(page))
    assert view[1]["Query word"] == "drank" and params(page)["scaled"] == "0"

    other = b.new_page(chromium)
    try:
        b.visit(other, page.url)
        b.open_layers(other)
        assert (other.url, b.widget_values(other), sorted_marks(other)) == view
        assert b.problems(other) == [] and other.get_by_text("Some settings in the link").count() == 0
    finally:
        b.leave(other)


def test_every_word_of_a_long_sentence_is_labelled_legibly(page, app_url):
    words = LONG.split()
    assert len(words) == 38
    b.visit(page, url_of(app_url, FACTOR, sentence=LONG))
    factor, weights, bars = b.axes(page)[:3]
    for name, chart in (("factor", factor), ("weights", weights), ("weight bars", bars)):
        x = next(axis for axis in chart if axis["aria"].startswith("X-axis"))
        assert [label["text"] for label in x["labels"]] == words, f"{name}: a word went unlabelled"
        sizes = [label["size"] for label in x["labels"]]
        gaps = [right["x"] - left["x"] for left, right in zip(x["labels"], x["labels"][1:], strict=False)]
        assert min(sizes) >= 7 and min(gaps) >= 0.9 * max(sizes), f"{name}: labels drawn over each other"
    for name, chart in (("factor", factor), ("weights", weights)):
        y = next(axis for axis in chart if axis["aria"].startswith("Y-axis"))
        assert [label["text"] for label in y["labels"]] == words, name
    assert b.problems(page) == []


def test_numbers_stay_short_at_a_huge_layer_scale(page, app_url):
    b.visit(page, url_of(app_url, FACTOR, sentence=STORY, **HUGE_LAYERS))
    factor = b.charts(page).filter(has_text="Factor matrix").first
    legend = b.legend_labels(factor)
    assert legend and all(len(label) <= 6 for label in legend), legend  # 3.64T, not 3,640,000,000,000
    numbers, too_wide = b.cells_holding_their_numbers(factor)
    assert numbers == 36 and too_wide == 0
    assert page.get_by_text("add up to row “milk” of Z. The two agree in their first").count() == 1
    assert b.problems(page) == []


def test_every_chart_can_be_saved_as_png(page, app_url):
    b.visit(page, url_of(app_url, FACTOR))
    save = page.get_by_role("button", name="Download as PNG")  # each chart's toolbar has it once its view is ready
    expect(save).to_have_count(b.charts(page).count(), timeout=b.TIMEOUT_MS)
    b.charts(page).last.hover()
    with page.expect_download(timeout=b.TIMEOUT_MS) as saved:
        save.last.click()
    assert saved.value.suggested_filename.endswith("_chart.png")  # Streamlit's own name: the app cannot set it


def test_typed_html_is_shown_as_text_and_never_runs(page, app_url):
    b.visit(page, url_of(app_url, FACTOR))
    b.type_sentence(page, HOSTILE)
    # an injected <img onerror> would fire once its image has failed to load: wait until every image has
    page.wait_for_function("() => [...document.images].every(i => i.complete)", timeout=b.TIMEOUT_MS)
    assert page.dialogs == []
    assert b.sidebar_input(page).input_value() == HOSTILE
    injected = page.evaluate("""() => ({
      scripts: [...document.querySelectorAll('script')].filter(s => s.textContent.includes('alert(')).length,
      images: document.querySelectorAll('img[src=x], [onerror]').length,
      links: document.querySelectorAll('a[href^="javascript:" i]').length,
      bold: [...document.querySelectorAll('[data-testid=stMain] strong')].filter(e => e.textContent === 'bold').length,
    })""")
    assert injected == {"scripts": 0, "images": 0, "links": 0, "bold": 0}
    assert "milk" in " ".join(b.marks(page)[0])
    assert b.problems(page) == []


@pytest.mark.parametrize("query", [
    {"source": "../../etc/passwd"},
    {"source": "/etc/passwd", "sentence": STORY},
    {"lang": "<img src=x onerror=alert(1)>"},
    {"<script>alert(1)</script>": "[go](javascript:alert(2))"},
], ids=["relative-path", "absolute-path", "html-value", "html-key"])
def test_hostile_url_values_are_refused_with_a_notice(page, app_url, query):
    b.visit(page, url_of(app_url, "pages/0_Home.py", **query))
    notice = page.locator("[data-testid=stAlertContentWarning]").filter(has_text="Some settings in the link")
    expect(notice).to_have_count(1, timeout=b.TIMEOUT_MS)
    key = next(iter(query))
    assert f"{key}=" in notice.inner_text()
    assert page.dialogs == []
    assert (
        page.evaluate("() => document.querySelectorAll('img[src=x], [onerror], a[href^=\"javascript:\" i]').length")
        == 0
    )
    assert key not in params(page), "a refused value stayed in the address bar"
    assert b.drawn(page) and b.problems(page) == []


def test_running_server_refuses_an_upload_without_the_xsrf_token(app_url):
    request = urllib.request.Request(
        f"{app_url}/_stcore/upload_file/some-session/some-file",
        method="PUT",
        data=b'--x\r\nContent-Disposition: form-data; name="file"; filename="v.txt"\r\n\r\nmilk 1 2\r\n--x--\r\n',
        headers={"Content-Type": "multipart/form-data; boundary=x"},
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=60)
    assert refused.value.code == 403 and b"XSRF" in refused.value.read()


# --- the default screen teaches the article; a phone edits the sentence; a challenge link hides the answer ---


def milk_weights(page) -> dict[str, float]:
    """milk's row of the home page's attention weights, read off the marks' accessible labels."""
    return weight_rows(page, 1)["milk"]


def weight_rows(page, nth: int) -> dict[str, dict[str, float]]:
    """Every row of the nth heatmap over the story's words (home and page 2: 0 is the factor matrix, whose cells are
    q·k, 1 the weights), read off the marks' accessible labels."""
    heatmaps = [chart for chart in b.marks(page) if any("key word: drank; query word: milk" in m for m in chart)]
    value = t("qk_raw") if nth == 0 else t("weight")
    rows = {}
    for label in heatmaps[nth]:
        fields = dict(part.split(": ", 1) for part in label.split("; ") if ": " in part)
        if value in fields and "query word" in fields:
            rows.setdefault(fields["query word"], {})[fields["key word"]] = float(fields[value].replace("−", "-"))
    return rows


HEADS = {"the (1)": "cat", "black": "cat", "cat": "drank", "the (5)": "milk", "milk": "drank"}


@pytest.mark.parametrize("script", ["pages/0_Home.py", FACTOR])
def test_each_word_finds_the_word_it_belongs_to_on_the_default_heatmaps(page, app_url, script):
    """The weights put each word's most on its head, and the factor matrix's signs say it: the head's cell is above 0
    and milk's row reads drank > 0 > black."""
    b.visit(page, url_of(app_url, script))
    factor, rows = weight_rows(page, 0), weight_rows(page, 1)
    tops = {query: max(row, key=row.get) for query, row in rows.items()}
    assert tops.items() >= HEADS.items()
    assert rows["milk"]["drank"] > rows["milk"]["cat"] > rows["milk"]["black"]
    assert all(factor[word][head] > 0 for word, head in HEADS.items())
    assert factor["milk"]["drank"] > 0 > factor["milk"]["black"]
    assert b.problems(page) == []


NUMBER = re.compile(r"[−-]?\d+(?:\.\d+)?")  # a running sum's value, not the legend's name for the line


def running_sums(page) -> list[float]:
    """Page 3: where each pair's running sum ends (its dot product), pair by pair, read off the marks' labels."""
    ends = []
    for chart in b.marks(page):
        points = [dict(part.split(": ", 1) for part in label.split("; ") if ": " in part) for label in chart]
        sums = [(int(p["dimension"]), float(p["running sum"].replace("−", "-"))) for p in points
                if NUMBER.fullmatch(p.get("running sum", "")) and p.get("dimension", "").isdigit()]
        if sums:
            ends.append(max(sums)[1])
    return ends


def test_page_3_reads_the_sign_as_the_article_does(page, app_url):
    """By default milk · drank ends above 0 and milk · black below, and the words beside each say so."""
    b.visit(page, url_of(app_url, "pages/3_Dot_product.py"))
    drank, black = running_sums(page)
    assert drank > 0 > black
    assert page.get_by_text("by its sign, “drank” is relevant to “milk”").count() == 1
    assert page.get_by_text("by its sign, “black” is not relevant to “milk”").count() == 1
    assert b.problems(page) == []
