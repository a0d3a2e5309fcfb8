"""Predict, then reveal: no answer on the page until the learner guesses; a challenge link carries no answer."""
import numpy as np
import pytest

from engine.relevance import winner
from harness.apptest import run_page
from tests.app import chart_data, messages
from ui.text import t

FACTOR, RELEVANCE = "pages/2_Factor_matrix.py", "pages/4_Relevance.py"


def guess_box(at):
    return next(r for r in at.radio if r.key.startswith("_guess_"))


@pytest.mark.parametrize("page", [FACTOR, RELEVANCE])
def test_the_answer_is_hidden_until_the_guess(page):
    at = run_page(page, {"predict": "1"})
    assert not at.exception
    assert not chart_data(at) and not at.dataframe and not at.success  # no weights, ranking or verdict yet
    assert t("predict_hidden") in messages(at)
    box = guess_box(at)
    assert box.label == t("predict_ask", q="milk") and box.value is None
    box.set_value("cat").run()
    assert chart_data(at)
    shown = messages(at) + " ".join(m.value for m in at.error)
    assert t("predict_wrong", guess="cat", k="drank") in shown
    assert "1 of 0" not in shown and t("predict_score", right=0, total=1) in " ".join(c.value for c in at.caption)


def test_a_right_guess_says_why_from_the_numbers(glove):
    at = run_page(FACTOR, {"predict": "1"})
    guess_box(at).set_value("drank").run()
    (said,) = [m.value for m in at.success if m.value.startswith(t("predict_right", k="drank"))]
    assert "wins on" in said
    assert t("predict_score", right=1, total=1) in " ".join(c.value for c in at.caption)


def test_a_challenge_link_carries_no_answer():
    at = run_page(RELEVANCE, {"predict": "1"})
    guess_box(at).set_value("drank").run()
    link = dict(at.query_params)
    assert link.get("predict") == "1" and "drank" not in "".join(link.values())
    fresh = run_page(RELEVANCE, link)  # a classmate opens the link: asked again
    assert not chart_data(fresh) and guess_box(fresh).value is None


def test_each_view_is_guessed_once_and_a_new_query_asks_again():
    at = run_page(FACTOR, {"predict": "1"})
    guess_box(at).set_value("drank").run()
    at.run()
    assert chart_data(at)  # still revealed
    at.selectbox(key="query").set_value("cat").run()
    assert not chart_data(at) and guess_box(at).label == t("predict_ask", q="cat")


@pytest.mark.parametrize("k_rows, why", [
    (np.array([[1.0, 0.0], [0.0, 3.0]]), "angle"),  # first: same direction, shorter
    (np.array([[2.0, 2.0], [1.0, 0.0]]), "length"),  # first: 45° off but long enough
])
def test_why_a_word_wins(k_rows, why):
    assert winner(np.array([1.0, 0.0]), k_rows) == (0, why)
