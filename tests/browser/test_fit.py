"""Every page fits a phone (390 × 844) and a laptop (1440 × 900) in both languages: nothing runs past the window's
right edge or out of its chart, no label is cut short, and the browser meets no error (no console error, no address
answered with an HTTP error, such as a deep link's probe for the server's base path). The story's pages on a laptop
are checked where each of their tabs is drawn (test_browser.check_every_tab); the others here."""
import pytest

from lesson import pages
from tests import browser_helpers as b
from tests.minilm_model import require_model_for

SHOWN = {"pages/2_Factor_matrix.py", "pages/3_Dot_product.py", "pages/4_Relevance.py", "pages/5_Learning.py",
         "pages/8_Real_model.py"}  # pages whose phone screenshots a reviewer reads


SCREENS = [("390", script) for script in (p.path for p in pages.PAGES)] + [
    ("1440", p.path) for p in pages.PAGES if p not in pages.STEPS]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("width", "script"), SCREENS)
def test_every_page_fits_the_window(chromium, app_url, width, script, lang):
    require_model_for(script)
    page = b.new_page(chromium, viewport=b.PHONE if width == "390" else b.VIEWPORT)
    try:
        b.visit(page, b.address(app_url, script, lang))
        assert b.overflow(page) == []
        assert page.errors == [] and b.problems(page) == []
        if width == "390":
            assert page.locator("[data-testid=stSidebar][data-collapsed=true]").count() == 1, "the sidebar covers it"
        if script in SHOWN or script not in b.SCRIPTS:
            b.screenshot(page, f"{b.url_path(script) or 'Home'}-{width}{'' if lang == 'en' else '-' + lang}")
    finally:
        b.leave(page)
