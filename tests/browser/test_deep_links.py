"""The page's script (server/page_base.py) tells the frontend its server's base: the address less a last segment that
names a page, under any prefix, evaluated in Chromium. Every page opened at its own address, with no 404 and nothing
in the console, is tests/browser/test_fit.py's."""
import json

from kit import pages
from server import page_base

NAMES = [p.url_path for p in pages.PAGES if p.url_path]


def base(chromium_page, path: str) -> str:
    """The base path the page's script finds for a location's path."""
    return chromium_page.evaluate(f"({page_base.BASE})({json.dumps(path)}, {json.dumps(NAMES)})")


def test_the_base_is_the_address_less_a_page_s_name_under_any_prefix(page, app_url):
    page.goto(f"{app_url}/_stcore/health")  # a page of the app's origin, with nothing of the app running
    found = {path: base(page, path) for path in
             ("/", "/Three_kinds", "/app", "/app/", "/app/Three_kinds", "/a/b/Dot_product", "/a/Nope", "/%E0")}
    assert found == {"/": "/", "/Three_kinds": "/", "/app": "/app/", "/app/": "/app/", "/app/Three_kinds": "/app/",
                     "/a/b/Dot_product": "/a/b/", "/a/Nope": "/a/Nope/", "/%E0": "/%E0/"}
