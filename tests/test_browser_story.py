"""In the real browser, the default screen teaches the article; a phone can edit the sentence; a challenge hides."""
from tests import browser as b
from tests.test_browser import app_url, chromium, page, url_of  # noqa: F401 (fixtures shared with the browser tests)

DOT = "pages/3_Dot_product.py"


def milk_weights(page) -> dict[str, float]:
    """milk's row of the home page's attention weights, read off the marks' accessible labels."""
    weights = next(chart for chart in b.marks(page) if any("key word: drank; query word: milk" in m for m in chart))
    row = {}
    for label in weights:
        fields = dict(part.split(": ", 1) for part in label.split("; ") if ": " in part)
        if fields.get("query word") == "milk" and "value" in fields:
            row[fields["key word"]] = float(fields["value"].replace("−", "-"))
    return row


def test_home_and_page_3_show_the_article_with_the_defaults(page, app_url):
    b.visit(page, app_url)
    assert page.get_by_text("W_Q and W_K were learned").count() == 1
    row = milk_weights(page)
    assert row["drank"] > row["cat"] > row["black"]
    b.screenshot(page, "story-home")
    b.visit(page, url_of(app_url, DOT))
    assert page.get_by_text("W_Q and W_K were learned").count() == 1
    assert page.get_by_text("The angle decides.").count() == 1
    assert b.problems(page) == []
    b.screenshot(page, "story-dot-product")


def test_on_a_phone_the_sentence_is_edited_on_the_page(chromium, app_url):
    phone = b.new_page(chromium)
    phone.set_viewport_size({"width": 390, "height": 844})
    try:
        b.visit(phone, app_url)
        here = phone.locator("[data-testid=stMain] .st-key-narrow-sentence input")
        assert here.is_visible() and phone.locator("[data-testid=stSidebar][data-collapsed=true]").count() == 1
        b.rerun(phone, lambda: (here.fill("The ball is blue"), here.press("Enter")))
        assert "sentence=The+ball+is+blue" in phone.url
        b.screenshot(phone, "phone-390")
    finally:
        phone.context.close()


def test_a_challenge_link_opens_with_the_answer_hidden(page, app_url):
    b.visit(page, url_of(app_url, "pages/2_Factor_matrix.py", predict=1))
    assert page.get_by_text("The numbers stay hidden until you guess.").count() == 1
    assert not [chart for chart in b.drawn(page) if chart["visible"]]
    b.rerun(page, lambda: page.get_by_text("drank", exact=True).click())
    assert page.get_by_text("Right: “drank” gets the most attention.").count() == 1
    assert [chart for chart in b.drawn(page) if chart["visible"]]
