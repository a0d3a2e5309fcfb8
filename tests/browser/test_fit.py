"""Every page, opened at its own address as a shared link opens it, fits a phone (390 × 844) in both languages: nothing
runs past the window's right edge or out of its chart, no label is cut short, the page asked for is the page shown
with its query kept, and the browser meets no error and logs nothing (no console message, no address answered with an
HTTP error, such as the frontend's probe of /<page>/_stcore/health for its server's base, server/page_base.py). On a
laptop (1440 × 900) the story pages are checked where each of their tabs is drawn (test_browser.check_every_tab) and
the class page in a class (test_class_room)."""
from urllib.parse import parse_qsl, urlsplit

import pytest

from kit import pages
from kit.text import in_language, t
from tests import browser_helpers as b
from tests.minilm_model import require_model_for

SHOWN = {"pages/2_Factor_matrix.py", "pages/3_Dot_product.py", "pages/4_Relevance.py", "pages/5_Learning.py",
         "pages/8_Real_model.py", "pages/9_Class.py"}  # pages whose phone screenshots a reviewer reads


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("script", [p.path for p in pages.PAGES])
def test_every_page_fits_a_phone_from_its_own_address(chromium, app_url, script, lang):
    require_model_for(script)
    page = b.new_page(chromium, viewport=b.PHONE)
    try:
        b.visit(page, b.address(app_url, script, lang))
        assert b.overflow(page) == []
        assert page.errors == [] and page.console == [] and b.problems(page) == []
        assert page.locator("[data-testid=stSidebar][data-collapsed=true]").count() == 1, "the sidebar covers it"
        asked = next(p for p in pages.PAGES if p.path == script)
        with in_language(lang):
            assert page.locator("[data-testid=stMain] h1").first.inner_text() == t(asked.title)
        shown = urlsplit(page.url)
        assert shown.path == f"/{asked.url_path}" and dict(parse_qsl(shown.query)).get("lang", "en") == lang
        if script in SHOWN:
            b.screenshot(page, f"{b.url_path(script) or 'Home'}-390{'' if lang == 'en' else '-' + lang}")
    finally:
        b.leave(page)
