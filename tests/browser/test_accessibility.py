"""Accessibility in the real app: axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules on every page in both languages, and
the main path by keyboard alone with the focus visible."""
import tomllib
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from kit import pages
from kit.text import in_language, t
from tests import browser_helpers as b

WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
THREE_KINDS = "pages/6_Three_kinds.py"
THEME = tomllib.loads((Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml").read_text())["theme"]


def violations(page) -> list[str]:
    """Every WCAG A and AA violation axe-core finds on the page as drawn, one line per element: rule, impact, the
    element's selector and what is wrong with it."""
    found = Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG}, "resultTypes": ["violations"]})
    return [f"{v['id']} ({v['impact']}) {' > '.join(map(str, n['target']))}: "
            f"{n['failureSummary'].splitlines()[-1].strip()} [{n['html'][:120]}]"
            for v in found.response["violations"] for n in v["nodes"]]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("script", [p.path for p in pages.PAGES])
def test_every_page_has_no_wcag_violations(chromium, first_views, app_url, script, lang):
    page = b.first_view(first_views, chromium, b.address(app_url, script, lang), read_only=True)
    found = violations(page)
    assert found == [], f"{script} ({lang}): {len(found)} violations\n" + "\n".join(found)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_three_kinds_with_its_tabs_and_line_view_open_has_no_wcag_violations(page, app_url, lang):
    with in_language(lang):
        b.visit(page, b.address(app_url, THREE_KINDS, lang) + "&heads=2")
        b.rerun(page, lambda: page.locator("[data-testid=stExpander] summary", has_text=t("lines_expander")).click())
        found = []
        for tab in range(b.tabs(page).count()):
            b.open_tab(page, tab)
            found += [f"tab {tab + 1}: {v}" for v in violations(page)]
        assert found == [], f"{THREE_KINDS} ({lang}): {len(found)} violations\n" + "\n".join(found)


FOCUSED = """() => { const e = document.activeElement;
  return {tag: e.tagName.toLowerCase(), type: e.type || '', role: e.getAttribute('role') || '',
          name: e.getAttribute('aria-label') || e.innerText?.trim().slice(0, 80) || '',
          widget: ['stTextInput', 'stSelectbox', 'stRadio', 'stPopover']
                    .find(w => e.closest(`[data-testid=${w}]`)) || ''}; }"""
# Focus is visible when the focused element, or the box drawn around it (up to three levels up), has an outline or a
# shadow, or a border in the theme's primary colour (Streamlit's text boxes).
FOCUS_SHOWN = """primary => { const e = document.activeElement;
  for (let n = e, i = 0; n && i < 4; n = n.parentElement, i++) {
    const s = getComputedStyle(n);
    if (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) return true;
    if (s.boxShadow && s.boxShadow !== 'none') return true;
    if (s.borderStyle !== 'none' && parseFloat(s.borderWidth) > 0 && s.borderColor === primary) return true;
  }
  return false; }"""
PRIMARY = "rgb({}, {}, {})".format(*(int(THEME["primaryColor"][i:i + 2], 16) for i in (1, 3, 5)))


def tab_to(page, wanted, limit: int = 80) -> dict:
    """Press Tab until the focused element is `wanted` (a test on FOCUSED's answer); that answer, with the focus
    seen."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = page.evaluate(FOCUSED)
        if wanted(now):
            assert page.evaluate(FOCUS_SHOWN, PRIMARY), f"focus on {now} is not visible"
            return now
    raise AssertionError(f"{limit} Tab presses never reached the element; the last was {page.evaluate(FOCUSED)}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_main_path_works_by_keyboard_alone_with_the_focus_visible(page, app_url, lang):
    """A teacher's predict-first link: type a sentence, choose the query word, answer the question, open the save
    menu, by keys only."""
    with in_language(lang):
        b.visit(page, b.address(app_url, "pages/2_Factor_matrix.py", lang) + "&predict=1")
        tab_to(page, lambda f: f["tag"] == "input" and f["widget"] == "stTextInput")
        page.keyboard.press("ControlOrMeta+A")
        page.keyboard.type("The black cat drank the warm milk")
        b.rerun(page, lambda: page.keyboard.press("Enter"))
        assert b.sidebar_input(page).input_value() == "The black cat drank the warm milk"
        tab_to(page, lambda f: f["role"] == "combobox" and t("query") in f["name"])
        page.keyboard.type("cat")  # another word than the page's default query, milk
        b.rerun(page, lambda: page.keyboard.press("Enter"))
        assert b.widget_values(page)[t("query")] == "cat"
        tab_to(page, lambda f: f["type"] == "radio")
        page.keyboard.press("Space")  # chooses an option; only Check commits the guess
        tab_to(page, lambda f: f["tag"] == "button" and t("predict_check") in f["name"])
        b.rerun(page, lambda: page.keyboard.press("Enter"))
        answer = page.locator("[data-testid=stAlertContentSuccess], [data-testid=stAlertContentWarning]")
        assert answer.count() >= 1, "answering gave no verdict"
        tab_to(page, lambda f: f["tag"] == "button" and t("save_charts") in f["name"])
        page.keyboard.press("Enter")
        page.locator("[data-testid=stPopoverBody]").wait_for(state="visible")
        assert b.problems(page) == []
