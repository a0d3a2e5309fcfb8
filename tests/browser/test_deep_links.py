"""A page opened at its own address, as a shared link opens it: the frontend finds its server at once (the page's
script, server/page_base.py), so no request answers 404 and nothing reaches the console, and the page shown is the one
asked for, its query kept. The script's base for a path under a prefix, evaluated in Chromium."""
import json
from urllib.parse import parse_qsl, urlsplit

import pytest

from kit.text import in_language, t
from lesson import pages
from server import page_base
from tests import browser_helpers as b

NAMES = [p.url_path for p in pages.PAGES if p.url_path]
LINKS = [("home", ""), ("kinds", "?lang=zh"), ("dot", "?sentence=the+cat+sat")]


def base(chromium_page, path: str) -> str:
    """The base path the page's script finds for a location's path."""
    return chromium_page.evaluate(f"({page_base.BASE})({json.dumps(path)}, {json.dumps(NAMES)})")


@pytest.mark.parametrize(("name", "query"), LINKS)
def test_a_deep_link_opens_its_page_with_no_404_and_nothing_in_the_console(page, app_url, name, query):
    asked = pages.page(name)
    failed: list[str] = []
    record = lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}")  # noqa: E731
    page.on("response", record)
    try:
        b.visit(page, f"{app_url}/{asked.url_path}{query}")
    finally:
        page.remove_listener("response", record)
    with in_language("zh" if "lang=zh" in query else "en"):
        title = t(asked.title)
    assert failed == [] and page.console == [], (failed, page.console)
    assert page.locator("[data-testid=stMain] h1").first.inner_text() == title
    shown = urlsplit(page.url)
    assert shown.path == f"/{asked.url_path}" and set(parse_qsl(query[1:])) <= set(parse_qsl(shown.query))
    assert b.problems(page) == []


def test_the_base_is_the_address_less_a_page_s_name_under_any_prefix(page, app_url):
    page.goto(f"{app_url}/_stcore/health")  # a page of the app's origin, with nothing of the app running
    found = {path: base(page, path) for path in
             ("/", "/Three_kinds", "/app", "/app/", "/app/Three_kinds", "/a/b/Dot_product", "/a/Nope", "/%E0")}
    assert found == {"/": "/", "/Three_kinds": "/", "/app": "/app/", "/app/": "/app/", "/app/Three_kinds": "/app/",
                     "/a/b/Dot_product": "/a/b/", "/a/Nope": "/a/Nope/", "/%E0": "/%E0/"}
