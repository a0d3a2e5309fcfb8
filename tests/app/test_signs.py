"""What the pages say about the sign of a score, each sentence checked against the numbers the page shows: each row's
cells above 0 (home and page 2), softmax's blindness to a number added to a whole row (page 2), one pair's sign
(page 3), and a row whose every score is below 0 (pages 3 and 4)."""
import numpy as np
import pytest

from engine.attention import attend, positive_keys
from engine.layers import preset
from engine.pipeline import encode
from engine.sources import load_glove
from kit.text import in_language, number, plain, t
from tests.apptest_helpers import run_page

FACTOR, DOT, RELEVANCE = "pages/2_Factor_matrix.py", "pages/3_Dot_product.py", "pages/4_Relevance.py"
BELOW = {"q_preset": "random", "q_seed": "3", "k_preset": "random"}  # every score of milk's row is below 0


def markdown(at) -> str:
    return " ".join(m.value for m in at.markdown)


@pytest.mark.parametrize("page", [None, FACTOR])
def test_each_row_lists_its_cells_above_0(page):
    at = run_page(page)
    assert not at.exception
    said = markdown(at)
    assert "**Cells above 0, row by row**" in said
    assert "“milk” → “drank”, “cat”" in said and "“black” → “cat”" in said  # highest first: each word's head


def below(glove):
    """The article's sentence through BELOW's weights: its labels and attention."""
    e = encode(glove, "The black cat drank the milk", position=2.0)
    return e.labels, attend(e.x, e.x, preset("random", 50, 16, seed=3), preset("random", 50, 16, seed=2), np.eye(50),
                            own=False)


def test_a_row_with_no_cell_above_0_is_named():
    labels, att = below(load_glove())
    none = [f"“{plain(labels[i])}”" for i, keys in enumerate(positive_keys(att.factor, att.mask)) if not keys]
    assert "“milk”" in none
    at = run_page(FACTOR, BELOW)
    assert not at.exception and t("signs_no_positive", words=t("list_sep").join(none)) in markdown(at)


def shift_table(at):
    """Page 2's table of one row's shift, its columns named by what they hold."""
    named = {t("key_word"): "key", t("qk_scaled"): "score", t("signs_shift_before"): "before",
             t("signs_shift_after"): "after"}
    (table,) = [x.value for x in at.table if t("signs_shift_before") in x.value.columns]
    return table.rename(columns=lambda c: named.get(c, "shifted"))


@pytest.mark.parametrize("c", [5.0, -17.5])
def test_a_number_added_to_a_row_moves_no_weight(c):
    at = run_page(FACTOR, {"shift": str(c)})
    assert not at.exception and at.slider(key="shift").value == c
    table = shift_table(at)
    np.testing.assert_allclose(table["shifted"], table["score"] + c)
    np.testing.assert_allclose(table["after"], table["before"], atol=1e-15)
    assert table["before"].sum() == pytest.approx(1.0) and list(table["key"])[:2] == ["the (1)", "black"]
    assert f"Adding {number(c, '+g')} to every score of “milk” moves none of its weights" in markdown(at)
    assert "The sign says whether a word is relevant at all" in " ".join(i.value for i in at.info)


def test_no_number_added_says_to_move_the_slider():
    at = run_page(FACTOR, {"shift": "0"})
    assert t("signs_shift_none", q="milk") in markdown(at)


def test_page_3_says_what_each_sign_means():
    at = run_page(DOT)
    said = markdown(at)
    assert t("signs_pair_above", q="milk", k="drank") in said and t("signs_pair_below", q="milk", k="black") in said
    assert t("signs_row_below", q="milk", top="drank") not in said


def test_page_3_says_when_the_sign_carries_no_lesson():
    labels, att = below(load_glove())
    row = att.factor[5, :5]
    top = labels[int(row.argmax())]
    assert row.max() < 0
    at = run_page(DOT, BELOW)
    said = markdown(at)
    assert t("signs_row_below", q="milk", top=top) in said and t("signs_pair_below", q="milk", k="drank") in said


def test_page_4_says_when_every_score_is_below_0():
    assert t("signs_row_below", q="milk", top="drank") not in markdown(run_page(RELEVANCE))
    at = run_page(RELEVANCE, BELOW)
    assert "Every score of “milk” is at most 0" in markdown(at)


def test_the_sign_sentences_in_chinese():
    at = run_page(DOT, {"lang": "zh"})
    with in_language("zh"):
        assert t("signs_pair_above", q="milk", k="drank") in markdown(at)
    at = run_page(FACTOR, {"lang": "zh"})
    with in_language("zh"):
        assert t("signs_shift_result", c=5.0, q="milk", moved=0.0).split("：")[0] in markdown(at)


@pytest.mark.parametrize("page", [None, FACTOR, "pages/6_Three_kinds.py"])
def test_what_hidden_own_cells_mean_names_the_weights_in_use(page):
    """Only the head learned from real sentences answers "which other word does this word belong to?"; under other
    weights the caption says which weights are in use."""
    said = " ".join(c.value for c in run_page(page).caption)
    assert t("own_hidden") in said
    for query, named in (({"q_preset": "random", "k_preset": "random"}, "W_Q, W_K: random (Gaussian)"),
                         ({"q_preset": "identity", "k_preset": "random"}, "W_Q, W_K: identity and random (Gaussian)")):
        said = " ".join(c.value for c in run_page(page, query).caption)
        assert "learned head" not in said and named in said
