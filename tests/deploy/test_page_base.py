"""The page's script that tells Streamlit's frontend where its server is (server/page_base.py), as pure functions and
as ASGI middleware around a stand-in app: put once into index.html and allowed by the policy, the length told, every
other answer as it came. tests/browser/test_deep_links.py opens the pages in Chromium, test_headers.py over HTTP."""
import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from kit import pages
from server import headers, page_base

NAMES = [p.url_path for p in pages.PAGES if p.url_path]
INDEX = page_base.streamlit_index()
SERVED = page_base.page(NAMES)
START = {"type": "http.response.start", "status": 200,
         "headers": [(b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(INDEX)).encode()),
                     (b"etag", b'"abc"'), (b"last-modified", b"Thu, 01 Jan 2026 00:00:00 GMT")]}


def body(data: bytes, more: bool = False) -> dict:
    """An ASGI body message."""
    return {"type": "http.response.body", "body": data, "more_body": more}


def request(path: str, method: str = "GET") -> dict:
    """An HTTP scope asking for `path` as a browser does, compressed and conditional."""
    return {"type": "http", "method": method, "path": path, "extensions": {"http.response.pathsend": {}},
            "headers": [(b"host", b"x"), (b"accept-encoding", b"gzip"), (b"if-none-match", b'"abc"')]}


def through(scope: dict, messages: list[dict]) -> tuple[dict, list[dict]]:
    """The scope a stand-in app answering `messages` is given, and what the browser is sent, through PageBase."""
    seen, sent = [], []

    async def app(scope, receive, send):
        seen.append(scope)
        for message in messages:
            await send(message)

    async def send(message):
        sent.append(message)

    with ThreadPoolExecutor(1) as thread:  # a thread of its own: Playwright's sync API may hold this one's loop
        thread.submit(asyncio.run, page_base.PageBase(app, NAMES)(scope, None, send)).result()
    return seen[0], sent


def test_the_script_goes_once_into_the_head_before_streamlit_s_module_and_the_policy_allows_it():
    script = b"<script>" + page_base.script(NAMES) + b"</script>"
    assert SERVED.count(script) == 1 and SERVED.replace(script + b"\n  ", b"") == INDEX
    assert SERVED.index(script) < SERVED.index(b"</head>") and SERVED.index(b'<script type="module"') < SERVED.index(
        script)  # a module runs once the document is parsed: after every classic script
    assert set(headers.script_hashes(SERVED)) == {*headers.script_hashes(INDEX), *headers.script_hashes(script)}
    assert len(headers.script_hashes(SERVED)) == len(headers.script_hashes(INDEX)) + 1


def test_the_script_names_every_page_but_the_root():
    code = page_base.script(NAMES).decode()
    assert all(f'"{name}"' in code for name in NAMES) and '""' not in code and "</" not in code


@pytest.mark.parametrize(("path", "asked"), [
    ("/", True), ("/Three_kinds", True), ("/app/", True), ("/app/Dot_product", True), ("/Three_kinds/", True),
    ("/app", False), ("/static/js/index.js", False), ("/_stcore/health", False), ("/Three_kinds/_stcore/health", False),
    ("/three_kinds", False), ("/_class/seat", False)])
def test_a_page_is_asked_for_at_the_root_or_at_a_page_s_name(path, asked):
    assert page_base.asks_for_page(path, frozenset(NAMES)) == asked


def test_a_page_request_is_passed_on_as_a_plain_get():
    plain = page_base.plain(request("/Three_kinds", "HEAD"))
    assert plain["method"] == "GET" and plain["headers"] == [(b"host", b"x")] and plain["extensions"] == {}


def test_the_index_is_answered_with_the_page_its_length_told_and_no_validators():
    for head in (False, True):
        start, *rest = page_base.answer([START, body(INDEX[:100], True), body(INDEX[100:])], INDEX, SERVED, head)
        assert dict(start["headers"]) == {b"content-type": b"text/html; charset=utf-8",
                                          b"content-length": str(len(SERVED)).encode()}
        assert b"".join(m["body"] for m in rest) == (b"" if head else SERVED)


def test_any_other_answer_to_a_page_request_is_sent_as_it_came():
    other = [START, body(b"<html>a component</html>")]
    assert page_base.answer(other, INDEX, SERVED, head=False) == other
    missing = [{**START, "status": 304}, body(b"")]
    assert page_base.answer(missing, INDEX, SERVED, head=False) == missing
    assert page_base.answer([START, body(b"abc")], INDEX, SERVED, head=True) == [START, {"type": "http.response.body",
                                                                                      "body": b""}]
    assert page_base.answer([], INDEX, SERVED, head=False) == []


def test_the_middleware_answers_a_page_with_the_script_and_leaves_everything_else_untouched():
    scope, sent = through(request("/Three_kinds"), [START, body(INDEX)])
    assert scope["method"] == "GET" and b"accept-encoding" not in dict(scope["headers"])
    assert sent[-1]["body"] == SERVED and (b"content-length", str(len(SERVED)).encode()) in sent[0]["headers"]
    asset = [START, body(b"console.log(1)", True), body(b"")]
    for path in ("/static/js/index.js", "/Three_kinds/_stcore/health"):
        asked = request(path)
        scope, sent = through(asked, asset)
        assert scope is asked and sent == asset, path
