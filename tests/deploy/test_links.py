"""A link that cannot be read whole says so. A text longer than its box takes is cut to its limit, with a notice; a link
over Streamlit's limits (512 Ki characters or 1,000 parameters), which Streamlit hands the page empty, is sent on to
its settings (server/links.py), and the page says it was not read whole. Pure functions, then a real server in
Chromium."""
import socket
import time
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from playwright.sync_api import expect
from streamlit.runtime.state import query_params as streamlit_query

from kit import state
from kit.text import t
from lesson import settings
from server import links
from tests import browser_helpers as b
from tests.longest import longest

STORY = "The dog ate the bone"
CHINESE = "猫喝了牛奶。" * 400  # 2,400 characters, each three bytes in UTF-8
TRACKING = "&".join(f"utm_{i}=x" for i in range(1200))  # what a link may collect on its way: more than 1,000 fields

PACKET = 1448  # bytes of one TCP segment on an Ethernet path


def test_the_limits_checked_are_streamlits():
    assert links.MAX_CHARS == streamlit_query.CLIENT_STATE_QUERY_STRING_MAX_LENGTH
    assert links.MAX_FIELDS == streamlit_query.CLIENT_STATE_QUERY_STRING_MAX_FIELDS


@pytest.mark.parametrize("query, dropped", [
    ("", False), (urlencode({"sentence": STORY}), False), ("a=1&" * 999 + "a=1", False), ("a=1&" * 1000 + "a=1", True),
    ("sentence=" + "x" * (512 * 1024 - 9), False), ("sentence=" + "x" * (512 * 1024 - 8), True),
])
def test_unreadable_is_what_streamlit_drops(query, dropped):
    assert links.unreadable(query) == dropped
    assert (query != "" and streamlit_query.sanitize_query_string(query) == "") == dropped


def test_readable_keeps_the_last_value_of_each_setting_and_marks_the_link():
    pairs = [("sentence", "a"), ("utm_source", "x"), ("d_k", "8"), ("sentence", STORY), ("colour", "red")]
    assert settings.readable(pairs) == {"sentence": STORY, "d_k": "8", settings.UNREAD: "1"}


def test_readable_leaves_a_text_one_character_over_its_limit_so_the_cut_is_still_told():
    kept = settings.readable([("sentence", CHINESE), ("query", "x" * 100_000), ("d_k", "9" * 100_000)])
    assert state.length(kept["sentence"]) == state.MAX_TEXT + 1 and len(kept["query"]) == state.MAX_WORD + 1
    read, notices = settings.from_values({k: v for k, v in kept.items() if k != settings.UNREAD})
    assert read.sentence == CHINESE[:state.MAX_TEXT] and read.query == "x" * state.MAX_WORD
    assert {name: r.code for name, _, r in notices} == {"sentence": "cut", "query": "cut", "d_k": "whole"}


def test_what_readable_keeps_of_the_longest_link_is_read_by_streamlit():
    pairs = [(name, longest(name) * 50) for name in settings.NAMES] + parse_qsl(TRACKING)
    assert not links.unreadable(urlencode(settings.readable(pairs)))


@pytest.fixture
def page(chromium):
    page = b.new_page(chromium)
    yield page
    b.leave(page)


def warnings(page) -> str:
    return " ".join(page.locator("[data-testid=stAlertContentWarning]").all_inner_texts())


def test_a_text_longer_than_its_box_is_cut_to_its_limit_and_the_page_says_so(page, app_url):
    b.visit(page, f"{app_url}/?{urlencode({'sentence': CHINESE})}")
    assert b.sidebar_input(page).input_value() == CHINESE[:state.MAX_TEXT]
    said = warnings(page)
    assert t("url_cut_notice").split(":")[0] in said and t("url_cut", max=f"{state.MAX_TEXT:,}") in said
    assert dict(parse_qsl(urlsplit(page.url).query))["sentence"] == CHINESE[:state.MAX_TEXT]


def test_a_link_streamlit_would_drop_opens_its_settings_and_says_it_was_not_read_whole(page, app_url):
    b.visit(page, f"{app_url}/Factor_matrix?{urlencode({'sentence': STORY, 'd_k': '8'})}&{TRACKING}")
    assert t("url_unread") in warnings(page)
    assert b.sidebar_input(page).input_value() == STORY
    address = urlsplit(page.url)
    assert address.path == "/Factor_matrix" and dict(parse_qsl(address.query)) == {"sentence": STORY, "d_k": "8"}
    b.type_sentence(page, "The black cat drank the milk")
    # d_k 8 asks for a fit, whose notice looks at it every half second: the run counted may be that look's, so the
    # page's own run is waited for by what it draws
    unread = page.locator("[data-testid=stAlertContentWarning]", has_text=t("url_unread"))
    expect(unread, "the notice is for the link, not for every run after it").to_have_count(0, timeout=b.TIMEOUT_MS)


def test_the_longest_link_opens_served_directly_when_it_arrives_in_many_packets(app_url):
    host, port = urlsplit(app_url).hostname, urlsplit(app_url).port
    query = urlencode({name: longest(name) for name in settings.NAMES})
    request = (f"GET /?{query} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n").encode()
    with socket.create_connection((host, port), timeout=30) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for start in range(0, len(request), PACKET):  # as a network delivers it, not in one read as loopback does
            sock.sendall(request[start:start + PACKET])
            time.sleep(0.001)
        assert sock.recv(100).startswith(b"HTTP/1.1 200"), len(request)  # h11 alone answers 400 above 16 KiB
