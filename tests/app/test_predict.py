"""Predict, then reveal: no answer on the page until the learner guesses; a challenge link carries no answer."""
from urllib.parse import parse_qs, urlparse

import numpy as np
import pytest

from engine.relevance import pairs_in_order, winner
from harness.apptest import run_page
from kit.text import t
from tests.apptest_helpers import chart_data, check, messages

FACTOR, RELEVANCE, KINDS = "pages/2_Factor_matrix.py", "pages/4_Relevance.py", "pages/6_Three_kinds.py"


def guess_box(at):
    return next(r for r in at.radio if r.key.startswith("_guess_"))


def order_box(at):
    return next(m for m in at.multiselect if m.key.startswith("_guess_"))


def revealed(at) -> str:
    return " ".join(m.value for m in (*at.success, *at.warning))


def score(at) -> str:
    return " ".join(c.value for c in at.caption)


def hidden(at) -> bool:
    """Nothing that gives the answer away: no chart, table or verdict, and the page says why."""
    return (not chart_data(at) and not at.dataframe and not at.success
            and t("predict_hidden") in messages(at))


def test_the_factor_page_hides_the_answer_until_the_guess():
    at = run_page(FACTOR, {"predict": "1"})
    assert not at.exception and hidden(at)
    box = guess_box(at)
    assert box.label == t("predict_ask", q="milk") and box.value is None
    box.set_value("cat").run()
    assert hidden(at)  # a choice alone commits nothing: the arrow keys move it
    guess_box(at).set_value("cat")
    check(at)
    assert chart_data(at)
    assert t("predict_wrong", guess="cat", k="drank") in revealed(at)
    assert "1 of 0" not in revealed(at) and t("predict_score", right=0, total=1) in score(at)


def test_the_relevance_page_asks_for_an_order_and_scores_its_pairs():
    at = run_page(RELEVANCE, {"predict": "1"})
    assert not at.exception and hidden(at)
    assert "expected" not in [x.key for x in at.text_input]  # the expected order would be a hint
    box = order_box(at)
    assert box.label == t("predict_order_ask", q="milk", m=3) and box.max_selections == 3
    box.set_value(["drank", "black"]).run()
    assert hidden(at)  # two of three: still hidden
    order_box(at).set_value(["drank", "black", "cat"])
    check(at)
    assert chart_data(at) and at.dataframe and at.text_input(key="expected").value == "drank > cat > black"
    said = revealed(at)
    assert said.startswith(t("predict_right", k="drank"))
    assert t("predict_order_said", guess="“drank” > “black” > “cat”", order="“drank” > “cat” > “black”", agree=2,
             pairs=3) in said


@pytest.mark.parametrize("tab", ["enc", "dec", "cross"])
def test_each_kind_of_attention_hides_its_answer_until_the_guess(tab):
    at = run_page(KINDS, {"predict": "1", "tab": tab})
    assert not at.exception and hidden(at)
    box = guess_box(at)
    box.set_value(box.options[0])
    check(at)
    assert chart_data(at) and (at.success or at.warning)


@pytest.mark.parametrize("own", [False, True])
def test_the_masked_decoder_asks_only_about_words_its_query_may_see(own):
    at = run_page(KINDS, {"predict": "1", "tab": "dec", "own": str(int(own))})
    q = at.selectbox(key="dec_query").value
    labels = list(at.selectbox(key="dec_query").options)
    assert guess_box(at).options == labels[:labels.index(q) + own]  # "es" sees "la", "bola" (and itself if it may)


def test_a_right_guess_says_why_from_the_numbers(glove):
    at = run_page(FACTOR, {"predict": "1"})
    guess_box(at).set_value("drank")
    check(at)
    (said,) = [m.value for m in at.success if m.value.startswith(t("predict_right", k="drank"))]
    assert "wins on" in said
    assert t("predict_score", right=1, total=1) in score(at)


def test_a_challenge_link_carries_no_answer():
    at = run_page(RELEVANCE, {"predict": "1"})
    order_box(at).set_value(["drank", "cat", "black"])
    check(at)
    link = dict(at.query_params)
    assert link.get("predict") == "1" and "drank" not in "".join(link.values())
    fresh = run_page(RELEVANCE, link)  # a classmate opens the link: asked again
    assert hidden(fresh) and order_box(fresh).value == []


@pytest.mark.parametrize("page", [FACTOR, RELEVANCE, KINDS])
def test_a_teacher_copies_a_challenge_link_from_the_answer_shown(page):
    at = run_page(page, {"q_seed": "7"})
    assert chart_data(at) and not at.sidebar.code  # the answer is on screen; the link is built only when opened
    at.session_state["challenge_open"] = True
    (link,) = at.run().sidebar.code
    shared = {k: v[0] for k, v in parse_qs(urlparse(link.value).query).items()}
    assert shared == {**dict(at.query_params), "predict": "1"}
    assert hidden(run_page(page, shared))


def test_pages_without_a_question_offer_no_challenge_link():
    at = run_page("pages/3_Dot_product.py")
    at.session_state["challenge_open"] = True  # as if opened: there is no such popover here to build a link
    assert not at.run().exception and not at.sidebar.code


def test_each_view_is_guessed_once_and_a_new_query_asks_again():
    at = run_page(FACTOR, {"predict": "1"})
    guess_box(at).set_value("drank")
    check(at)
    at.run()
    assert chart_data(at)  # still revealed
    at.selectbox(key="query").set_value("cat").run()
    assert not chart_data(at) and guess_box(at).label == t("predict_ask", q="cat")
    at.selectbox(key="query").set_value("milk").run()
    box = guess_box(at)  # back to the view guessed: the guess stays on screen, fixed, and the answer shown
    assert chart_data(at) and box.value == "drank" and box.disabled


@pytest.mark.parametrize("k_rows, why", [
    (np.array([[1.0, 0.0], [0.0, 3.0]]), "angle"),  # first: same direction, shorter
    (np.array([[2.0, 2.0], [1.0, 0.0]]), "length"),  # first: 45° off but long enough
])
def test_why_a_word_wins(k_rows, why):
    assert winner(np.array([1.0, 0.0]), k_rows) == (0, why)


def test_pairs_in_order_counts_the_pairs_the_values_agree_with():
    values = np.array([0.1, 0.9, 0.5])
    assert pairs_in_order([1, 2, 0], values) == (3, 3)
    assert pairs_in_order([1, 0, 2], values) == (2, 3)
    assert pairs_in_order([0, 2, 1], values) == (0, 3)
    assert pairs_in_order([2], values) == (0, 0)
