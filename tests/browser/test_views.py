"""The story's views in a real browser: the defaults show what the article says, a phone edits the sentence on the page,
predict first and the challenge link, a swapped word, the line view's hover."""

import pytest

from tests import browser_helpers as b
from tests.browser.test_browser import FACTOR, milk_weights, url_of


def test_home_and_page_3_show_the_article_with_the_defaults(page, app_url):
    b.visit(page, app_url)
    assert page.get_by_text("W_Q and W_K were learned").count() == 1
    row = milk_weights(page)
    assert row["drank"] > row["cat"] > row["black"]
    b.screenshot(page, "story-home")
    b.visit(page, url_of(app_url, "pages/3_Dot_product.py"))
    assert page.get_by_text("W_Q and W_K were learned").count() == 1
    assert page.get_by_text("The angle decides.").count() == 1
    assert b.problems(page) == []
    b.screenshot(page, "story-dot-product")


def test_on_a_phone_the_sentence_is_edited_on_the_page(chromium, app_url):
    phone = b.new_page(chromium)
    phone.set_viewport_size({"width": 390, "height": 844})
    try:
        b.visit(phone, app_url)
        here = phone.locator("[data-testid=stMain] .st-key-_sentence_here input")
        assert here.is_visible() and phone.locator("[data-testid=stSidebar][data-collapsed=true]").count() == 1
        b.rerun(phone, lambda: (here.fill("The ball is blue"), here.press("Enter")))
        assert "sentence=The+ball+is+blue" in phone.url
        b.screenshot(phone, "phone-390")
        phone.set_viewport_size({"width": 1400, "height": 900})  # the sidebar's box is in sight: the page's is hidden
        assert here.is_hidden() and phone.locator("[data-testid=stSidebar] input[type=text]").first.is_visible()
    finally:
        b.leave(phone)


def test_a_challenge_link_opens_with_the_answer_hidden(page, app_url):
    b.visit(page, url_of(app_url, "pages/2_Factor_matrix.py", predict=1))
    assert page.get_by_text("The numbers stay hidden until you guess.").count() == 1
    assert not [chart for chart in b.drawn(page) if chart["visible"]]
    page.get_by_text("drank", exact=True).click()  # a choice alone commits nothing
    assert page.get_by_text("The numbers stay hidden until you guess.").count() == 1
    b.rerun(page, lambda: page.get_by_role("button", name="Check").click())
    assert page.get_by_text("Right: “drank” gets the most attention.").count() == 1
    assert [chart for chart in b.drawn(page) if chart["visible"]]


def test_the_relevance_page_asks_for_an_order_first_in_chinese(page, app_url):
    b.visit(page, url_of(app_url, "pages/4_Relevance.py", predict=1, lang="zh"))
    assert page.get_by_text("在你做出猜测之前，数字都是隐藏的。").count() == 1
    assert not [chart for chart in b.drawn(page) if chart["visible"]]
    b.screenshot(page, "predict-relevance-zh-asked")
    box = page.locator("[data-testid=stMain] [data-testid=stMultiSelect] input").first
    for word in ("drank", "cat", "black"):
        box.click()
        page.get_by_role("option", name=word, exact=True).click()
    page.keyboard.press("Escape")
    b.rerun(page, lambda: page.get_by_role("button", name="核对").click())
    assert page.get_by_text("猜对了：“drank” 得到的注意力最多。", exact=False).count() == 1
    assert page.get_by_text("3 对词中有 3 对先后一致", exact=False).count() == 1
    assert [chart for chart in b.drawn(page) if chart["visible"]] and b.problems(page) == []
    b.screenshot(page, "predict-relevance-zh-revealed")


def test_the_masked_decoder_is_guessed_among_the_words_it_may_see(page, app_url):
    b.visit(page, url_of(app_url, "pages/6_Three_kinds.py", predict=1, tab="dec"))
    guess = page.locator("[data-testid=stMain] [data-testid=stRadio]").filter(has_text="attend to most")
    assert guess.get_by_role("radio").count() == 2  # "la" and "bola": the mask hides "azul", and "es" its own cell
    assert not [chart for chart in b.drawn(page) if chart["visible"]]
    guess.get_by_text("la", exact=True).click()
    b.rerun(page, lambda: page.get_by_role("button", name="Check").click())
    assert page.get_by_text("you guessed “la”", exact=False).count() + page.get_by_text(
        "Right: “la”", exact=False).count() == 1
    assert [chart for chart in b.drawn(page) if chart["visible"]] and b.problems(page) == []
    b.screenshot(page, "predict-kinds-decoder")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_teacher_copies_a_challenge_link_and_a_student_opens_it(chromium, page, app_url, lang):
    from kit.text import in_language, t
    with in_language(lang):
        b.visit(page, url_of(app_url, FACTOR, query="cat", lang=lang))
        assert [chart for chart in b.drawn(page) if chart["visible"]]  # the teacher sees the answer
        b.rerun(page, lambda: page.get_by_role("button", name=t("copy_challenge")).click())
        link = page.locator("[data-testid=stPopoverBody] code").inner_text().strip()
        assert "predict=1" in link and "query=cat" in link
        b.screenshot(page, f"challenge-link-{lang}")
        student = b.new_page(chromium)
        try:
            b.visit(student, link)
            assert student.get_by_text(t("predict_ask", q="cat")).count() == 1
            assert not [chart for chart in b.drawn(student) if chart["visible"]]
        finally:
            b.leave(student)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_swapping_a_word_on_the_relevance_page_shows_what_moved(page, app_url, lang):
    from kit.text import in_language, t
    with in_language(lang):
        b.visit(page, url_of(app_url, "pages/4_Relevance.py", lang=lang))
        before = len(b.drawn(page))
        page.get_by_text(t("swap_title")).click()
        box = page.get_by_role("textbox", name=t("swap_new"))
        b.rerun(page, lambda: (box.fill("tea"), box.press("Enter")))
        assert "swap=5%3Atea" in page.url or "swap=5:tea" in page.url
        said = t("swap_said", old="milk", new="tea")  # up to the items named
        assert len(b.drawn(page)) == before + 2 and page.get_by_text(said, exact=False).count()
        assert b.problems(page) == []
        b.screenshot(page, f"swap-relevance-{lang}")


ISOLATED = """([c, query, rows]) => {
  const lines = [...c.querySelectorAll('[aria-roledescription="rule mark"]')];
  return lines.length > 0 && lines.every(line => {
    const label = line.getAttribute('aria-label'), shown = +line.getAttribute('opacity');
    const weight = +/opacity: ([-\\d.e]+)/.exec(label)[1];
    return label.includes(query) ? Math.abs(shown - weight) < 1e-6 : shown <= 0.1 / rows + 1e-9;
  });
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hovering_a_word_in_the_line_view_isolates_its_lines(page, app_url, lang):
    from kit.text import in_language, t
    with in_language(lang):
        b.visit(page, url_of(app_url, "pages/6_Three_kinds.py", heads=2, lang=lang))
        b.rerun(page, lambda: page.locator("[data-testid=stExpander] summary", has_text=t("lines_expander")).click())
        chart = b.charts(page).filter(has_text=t("lines_title"))
        lines = chart.locator('[aria-roledescription="rule mark"]')
        assert lines.count() == 2 * 4 * 3  # two heads, four query words, the three other words each
        query = f"{t('query_word')}: ball;"
        handle = chart.element_handle()
        assert not page.evaluate(ISOLATED, [handle, query, 4])  # nothing hovered: every line as opaque as its weight
        chart.scroll_into_view_if_needed()
        words = chart.locator('[aria-roledescription="text mark"]', has_text="ball")
        box = min((words.nth(i).bounding_box() for i in range(words.count())), key=lambda box: box["x"])  # query column
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function(ISOLATED, arg=[handle, query, 4], timeout=b.TIMEOUT_MS, polling=100)
        assert b.problems(page) == []
        b.screenshot(page, f"lines-hover-{lang}")


def test_page_7_line_view_reads_from_the_back_of_a_room(page, app_url):
    """At 1440 pixels the line view takes most of the page's width, and its words are at least 14 pixels high."""
    page.set_viewport_size({"width": 1440, "height": 900})
    b.visit(page, url_of(app_url, "pages/7_Real_sentences.py"))
    sizes = page.evaluate("""() => {
      const main = document.querySelector('[data-testid=stMainBlockContainer]').getBoundingClientRect().width;
      const chart = [...document.querySelectorAll('[data-testid=stVegaLiteChart]')]
        .find(c => c.querySelectorAll('.mark-text text').length > 20);
      const svg = chart.querySelector('svg');
      const words = [...svg.querySelectorAll('.mark-text text')].map(t => parseFloat(getComputedStyle(t).fontSize));
      const legend = [...svg.querySelectorAll('.role-legend text')];
      const right = Math.max(...legend.map(t => t.getBoundingClientRect().right));
      return {main, width: svg.getBoundingClientRect().width, smallest: Math.min(...words),
              legend_past: right - chart.getBoundingClientRect().right};
    }""")
    assert sizes["width"] >= 0.7 * sizes["main"] and sizes["smallest"] >= 14, sizes
    assert sizes["legend_past"] <= 0, sizes  # the legend's words all inside the chart, none cut off at its edge
    assert b.problems(page) == []
