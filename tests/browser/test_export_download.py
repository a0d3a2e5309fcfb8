"""A chart saved from the page's menu in Chromium: the browser downloads a named SVG that opens."""
from kit.text import t
from tests import browser_helpers as b
from tests.app.test_export import text_of


def test_the_browser_downloads_a_named_svg_that_opens(chromium, app_url, tmp_path):
    page = b.new_page(chromium)
    try:
        b.visit(page, f"{app_url}/{b.url_path('pages/2_Factor_matrix.py')}")
        page.get_by_role("button", name=t("save_charts"), exact=True).click()  # the page's one menu, above its charts
        page.get_by_role("button", name=t("save_svg"), exact=True).nth(1).wait_for()
        with page.expect_download(timeout=b.TIMEOUT_MS) as saved:
            page.get_by_role("button", name=t("save_svg"), exact=True).nth(1).click()  # the second chart's
        assert saved.value.suggested_filename == "factor-weights-the-black-cat-drank-the-milk.svg"
        path = tmp_path / saved.value.suggested_filename
        saved.value.save_as(path)
        assert "milk" in text_of(path.read_bytes())
        assert b.problems(page) == []
    finally:
        b.leave(page)
