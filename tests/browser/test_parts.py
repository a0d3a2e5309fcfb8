"""A page's own controls run its part alone (lesson/frame.py, part), in Chromium: on each page of the story from 2 to 8,
a change to one of them brings the browser the elements of that part only (each carries the part's fragment id: the
sidebar, the banner and the page's other charts stay as they were), the address bar follows the change, and nothing
goes to the console. The sentence, which the whole page needs, still runs it whole."""
from urllib.parse import parse_qs, urlparse

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from kit.text import in_language, t
from tests import browser_helpers as b
from tests.minilm_model import require_model_for

TWO_QUERIES = "targets=milk+drank+1%3B+milk+black+0%3B+cat+drank+1%3B+cat+milk+0&steps=40"


def pick(label: str, option: str):
    """A selectbox's option picked."""
    return lambda page: b.choose(page, label, option)


def trained(page) -> None:
    """Page 5's Train pressed and its results drawn: only then is there a word to follow."""
    b.rerun(page, page.get_by_role("button", name="Train", exact=True).click)
    b.fits_ended(page)


def another_sentence(page) -> None:
    b.rerun(page, page.get_by_role("button", name="Another held-out sentence").click)


# page, what the link adds, what is done first, the page-local change, and the URL parameter it must leave
CONTROLS = {
    "factor": ("pages/2_Factor_matrix.py", "", None, pick("Query word", "cat"), ("query", "cat")),
    "factor scaled": ("pages/2_Factor_matrix.py", "", None,
                      lambda page: b.rerun(page, page.get_by_text("Divide by √d_k").click), ("scaled", "0")),
    "dot": ("pages/3_Dot_product.py", "", None, pick("Key word", "cat"), ("key", "cat")),
    "relevance": ("pages/4_Relevance.py", "", None, pick("Query word", "black"), ("query", "black")),
    "learning": ("pages/5_Learning.py", f"&{TWO_QUERIES}", trained, pick("Query word", "milk"), ("query", "milk")),
    "kinds tab": ("pages/6_Three_kinds.py", "", None, lambda page: b.open_tab(page, 1), ("tab", "dec")),
    "kinds heads": ("pages/6_Three_kinds.py", "", None, pick("Heads", "2"), ("heads", "2")),
    "real": ("pages/7_Real_sentences.py", "", None, another_sentence, ("real", None)),
    "model": ("pages/8_Real_model.py", "", None, pick("Head shown large", "L1-H1"), ("model_head", "L1-H1")),
}


def listen(page) -> list:
    """The messages the server sends the page from now on, decoded."""
    got: list = []

    def on_socket(ws):
        ws.on("framereceived", lambda data: isinstance(data, bytes) and got.append(ForwardMsg.FromString(data)))
    page.on("websocket", on_socket)
    page.got = got
    page.stop_listening = lambda: page.remove_listener("websocket", on_socket)
    return got


def fragments(messages: list) -> list[str]:
    """The fragment id of every element the messages draw ('' for one drawn by the whole page's run)."""
    return [m.delta.fragment_id for m in messages if m.WhichOneof("type") == "delta"]


def parameter(url: str, name: str) -> str | None:
    return parse_qs(urlparse(url).query).get(name, [None])[-1]


@pytest.mark.parametrize("name", list(CONTROLS))
def test_a_pages_own_control_runs_its_part_alone(page, app_url, name):
    script, extra, first, change, (field, value) = CONTROLS[name]
    require_model_for(script)
    got = listen(page)
    try:
        b.visit(page, b.address(app_url, script, "en") + extra)
        if first is not None:
            first(page)
        before = parameter(page.url, field)
        got.clear()
        change(page)
        drawn = fragments(got)
        assert drawn and len(set(drawn)) == 1 and drawn[0], f"{len(drawn)} elements, fragments {set(drawn)}"
        now = parameter(page.url, field)
        assert now == value if value is not None else now not in (None, before), page.url
        assert b.problems(page) == []
    finally:
        page.stop_listening()


def test_the_word_page_5_follows_runs_what_follows_it_and_not_the_curves_of_all_targets(page, app_url):
    """Picking the word the results follow redraws that word's charts (its products before and after, its plane), not
    the loss, scores and weights curves of every target, which no word changes."""
    got = listen(page)
    try:
        b.visit(page, b.address(app_url, "pages/5_Learning.py", "en") + f"&{TWO_QUERIES}")
        trained(page)
        got.clear()
        pick("Query word", "milk")(page)
        charts = [m.delta.new_element.vega_lite_chart.spec for m in got
                  if m.WhichOneof("type") == "delta" and m.delta.new_element.WhichOneof("type") == "vega_lite_chart"]
        assert len(charts) >= 5 and any(t("learn_plane_chart") in spec for spec in charts)
        for curve in ("learn_loss_title", "learn_scores_title", "learn_weights_title"):
            assert not any(t(curve) in spec for spec in charts), curve
    finally:
        page.stop_listening()


def test_the_sentence_still_runs_the_whole_page(page, app_url):
    got = listen(page)
    try:
        b.visit(page, b.address(app_url, "pages/3_Dot_product.py", "en"))
        got.clear()
        b.type_sentence(page, "The black cat drank the cold milk")
        drawn = fragments(got)
        assert "" in drawn and any(drawn), set(drawn)  # the frame by the page's run, its part inside it
        assert parameter(page.url, "sentence") == "The black cat drank the cold milk"
    finally:
        page.stop_listening()


def test_the_save_menu_lists_what_a_part_drew(page, app_url):
    """Opened after a part's own run, the save menu lists every chart on the page as the part last drew it."""
    b.visit(page, b.address(app_url, "pages/3_Dot_product.py", "en"))
    b.choose(page, "Key word", "cat")
    b.rerun(page, page.get_by_role("button", name="Save charts", exact=True).click)
    menu = page.locator("[data-testid=stPopoverBody]")
    menu.get_by_role("button", name="SVG · sharp at any size", exact=True).first.wait_for()
    assert menu.get_by_role("button", name="SVG · sharp at any size", exact=True).count() == b.charts(page).count()
    assert "“milk” · “cat”: q_i × k_i per dimension" in menu.inner_text()
    assert b.problems(page) == []


def test_a_parts_own_run_speaks_the_pages_language(page, app_url):
    """A part's own run starts in a thread of its own: its words are the visitor's language all the same."""
    with in_language("zh"):
        b.visit(page, b.address(app_url, "pages/3_Dot_product.py", "zh"))
        b.choose(page, t("key"), "cat")
        shown = page.locator("[data-testid=stMain]").inner_text()
        assert t("products_title", q="milk", k="cat") in shown and t("la_title", q="milk") in shown
        assert b.problems(page) == []
