"""Swap or remove a word on the factor-matrix and relevance pages: the change after minus before, named, and kept in
the link."""
import numpy as np
import pytest

from engine.attention import attend
from engine.pipeline import encode
from engine.swap import biggest, change, swapped
from harness.apptest import run_page
from lesson.settings import DEFAULTS
from tests.app.test_story import titled
from tests.apptest_helpers import csv_keys

FACTOR, RELEVANCE = "pages/2_Factor_matrix.py", "pages/4_Relevance.py"


def test_swapped_and_change_by_hand():
    assert swapped(["the", "cat", "sat"], 1, "dog") == ["the", "dog", "sat"]
    assert swapped(["the", "cat", "sat"], 1, "") == ["the", "sat"]
    before = np.arange(9.0).reshape(3, 3)
    np.testing.assert_array_equal(change(before, np.zeros((2, 2)), 1, cols_too=True), -np.array([[0, 2], [6, 8.0]]))
    np.testing.assert_array_equal(change(before, before + 1, None, cols_too=True), np.ones((3, 3)))
    assert biggest(np.array([[0.1, -0.5], [0.2, 0.0]]), 2) == [(0, 1, -0.5), (1, 0, 0.2)]


def weights_of(kv, sentence, w):
    enc = encode(kv, sentence, position=DEFAULTS.position)
    return attend(enc.x, enc.x, *w, own=DEFAULTS.own).weights


@pytest.mark.parametrize("page", [FACTOR, RELEVANCE])
def test_swapping_milk_for_tea_shows_the_difference_the_engine_gives(glove, page):
    at = run_page(page, {"swap": "5:tea", "q_preset": "random", "k_preset": "random"})
    assert not at.exception
    delta = titled(at, "Change in the attention weights (after − before)")
    from engine.layers import preset
    w = [preset("random", 50, 16, seed=s) for s in (1, 2, 3)]
    expected = weights_of(glove, "the black cat drank the tea", w) - weights_of(glove, DEFAULTS.sentence, w)
    got = delta.pivot(index="r", columns="c", values="value").to_numpy()
    np.testing.assert_allclose(got, expected, atol=1e-12)
    said = " ".join(m.value for m in at.markdown)
    assert "With “milk” changed to “tea”" in said


def test_removing_a_word_compares_the_words_both_have(glove):
    at = run_page(FACTOR, {"swap": "1:"})
    assert not at.exception
    delta = titled(at, "Change in the attention weights (after − before)")
    assert sorted(set(delta["row"])) == sorted(["the (1)", "cat", "drank", "the (4)", "milk"])
    said = " ".join(m.value for m in at.markdown)
    assert "With “black” removed, the weights that moved most: “" in said and "—" not in said


@pytest.mark.parametrize("page", [FACTOR, RELEVANCE])
def test_the_link_keeps_the_swap_and_a_word_the_vectors_lack_is_said(page):
    at = run_page(page, {"swap": "5:qzxvbq"})
    assert not at.exception and any("“qzxvbq” is not in the vectors" in w.value for w in at.warning)
    at = run_page(page)
    assert not [w for w in at.text_input if w.key.startswith("_swap_")]  # closed: its pickers are not built
    at.session_state["swap_open"] = True  # as a click on it would
    at.run().text_input(key="_swap_new_milk").input("tea").run()
    assert at.query_params["swap"] == "5:tea"



@pytest.mark.parametrize("page", [FACTOR, RELEVANCE])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_changes_save_as_csv_from_their_charts_in_the_page_language(page, lang):
    at = run_page(page, {"swap": "5:tea", "lang": lang})
    assert {"dl_swap-weights", "dl_swap-Z"} <= set(csv_keys(at, lang))
