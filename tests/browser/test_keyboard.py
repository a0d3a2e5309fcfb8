"""The dashboard with the keyboard alone: moving between a guess's options commits nothing, Enter or Space on its
Check button does and keeps the focus there; a sentence edit, a page switch, a query pick and a guess in a row."""
import pytest

from kit.text import in_language, t
from tests import browser_helpers as b
from tests.browser.test_browser import url_of

ASKING = ["pages/2_Factor_matrix.py", "pages/6_Three_kinds.py", "pages/7_Real_sentences.py"]  # one word to guess
SCORE = "[data-testid=stMain] [data-testid=stCaptionContainer]"


def focused(page) -> dict:
    """What has the keyboard's focus: its tag, role, text, and whether it sits in a guess's form."""
    return page.evaluate("""() => { const e = document.activeElement;
      const text = (e.querySelector('[data-testid=stMarkdownContainer]') || e).innerText || '';
      return {tag: e.tagName, role: e.getAttribute('role') || e.type || '', text: text.trim(),
              inGuess: !!e.closest('[data-testid=stForm]')}; }""")


def hidden(page) -> bool:
    return page.get_by_text(t("predict_hidden"), exact=True).count() == 1


def check_button(page):
    return page.locator("[data-testid=stMain] [data-testid=stForm]").get_by_role("button", name=t("predict_check"))


@pytest.mark.parametrize("script", ASKING)
def test_arrow_keys_move_the_choice_and_only_check_commits_it(page, app_url, script):
    b.visit(page, url_of(app_url, script, predict=1))
    first = page.locator("[data-testid=stMain] [data-testid=stForm] [role=radiogroup] input").first
    first.focus()
    for key in ("ArrowRight", "ArrowRight", "ArrowLeft"):
        page.keyboard.press(key)
    page.wait_for_timeout(600)  # a run, had one started, would have redrawn by now
    assert hidden(page) and page.evaluate("window.__runs") == 1 and focused(page)["inGuess"]
    page.keyboard.press("Tab")
    assert focused(page)["text"] == t("predict_check")
    b.rerun(page, lambda: page.keyboard.press("Space"))
    scored = [t("predict_score", right=right, total=1) for right in (0, 1)]
    assert not hidden(page) and any(text in scored for text in page.locator(SCORE).all_inner_texts())
    assert focused(page) == {**focused(page), "text": t("predict_check"), "inGuess": True}  # focus stays put
    assert b.problems(page) == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_order_is_put_together_with_the_keyboard_and_checked_with_enter(page, app_url, lang):
    with in_language(lang):
        b.visit(page, url_of(app_url, "pages/4_Relevance.py", predict=1, lang=lang))
        box = page.locator("[data-testid=stMain] [data-testid=stForm] [data-testid=stMultiSelect] input").first
        box.focus()
        for _ in range(3):
            page.keyboard.press("ArrowDown")
            page.keyboard.press("Enter")  # picks the option under the cursor, submits nothing
        page.keyboard.press("Escape")
        page.wait_for_timeout(600)
        assert hidden(page) and page.evaluate("window.__runs") == 1
        check_button(page).focus()
        b.rerun(page, lambda: page.keyboard.press("Enter"))
        assert not hidden(page) and focused(page)["text"] == t("predict_check")
        assert b.problems(page) == []


def test_a_lesson_with_the_keyboard_alone(page, app_url):
    """A sentence typed, the factor matrix page opened from the sidebar, a query word picked and a guess checked,
    each with keys only (focus() places the cursor where a visitor's Tab would bring it)."""
    b.visit(page, app_url)
    box = b.sidebar_input(page)
    box.focus()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("The dog chased the red ball")
    b.rerun(page, lambda: page.keyboard.press("Enter"))
    assert "sentence=The+dog+chased+the+red+ball" in page.url
    link = page.locator("[data-testid=stSidebar]").get_by_role("link", name=t("nav_factor"))
    link.focus()
    b.rerun(page, lambda: page.keyboard.press("Enter"))
    assert "/Factor_matrix" in page.url
    query = b.combobox(page, t("query"))
    query.focus()
    page.keyboard.type("dog")
    b.rerun(page, lambda: page.keyboard.press("Enter"))
    assert b.widget_values(page)[t("query")] == "dog"
    predict = page.locator("[data-testid=stMain] [data-testid=stCheckbox]").filter(has_text=t("predict"))
    predict.locator("input").focus()
    b.rerun(page, lambda: page.keyboard.press("Space"))
    page.locator("[data-testid=stMain] [data-testid=stForm] [role=radiogroup] input").first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Tab")
    b.rerun(page, lambda: page.keyboard.press("Enter"))
    assert not hidden(page) and focused(page)["text"] == t("predict_check")
    assert b.problems(page) == []
