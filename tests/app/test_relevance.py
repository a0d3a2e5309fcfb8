"""Page 4 in AppTest: the verdicts follow the numbers, the takeaway's GloVe figures, scaling, the expected order read as
written, and Chinese."""
import numpy as np
import pytest

from kit.text import in_language, t
from lesson.settings import DEFAULTS
from tests.app.test_pages import RELEVANCE, ok, widget
from tests.apptest_helpers import chart_data, messages, run_page

MEASURES = ("dot", "cosine", "qk")


def verdicts(at) -> dict[str, bool]:
    """measure -> met, read from the page's success and warning boxes (English)."""
    names = {"dot": t("measure_dot", source="GloVe"), "cosine": t("measure_cosine", source="GloVe"),
             "qk": t("measure_qk_scaled" if widget(at, "scaled").value else "measure_qk")}
    out = {}
    for m, shown in names.items():
        for box, met in ((at.success, True), (at.warning, False)):
            for msg in box:
                if msg.value.startswith(shown + ":"):
                    assert m not in out, f"two verdicts for {m}"
                    out[m] = met
    return out


def holds(ranking, column, order) -> bool:
    """The ranking table's scores in `column` strictly fall along `order`."""
    scores = ranking.set_index("word")[column]
    return all(scores[a] > scores[b] for a, b in zip(order, order[1:], strict=False))


RANDOM = {"q_preset": "random", "k_preset": "random"}
VIEWS = [{}, {**RANDOM, "q_seed": "3"}, {**RANDOM, "q_seed": "4", "k_seed": "5"},
         {"q_preset": "identity", "k_preset": "identity", "position": "0"}, {"expected": "black > cat"},
         {"expected": "the (1) > drank > cat", "scaled": "0"}, {"query": "cat", "expected": "milk > drank"}]


@pytest.mark.parametrize("query", VIEWS)
def test_relevance_verdicts_follow_the_numbers(query):
    at = ok(run_page(RELEVANCE, query))
    ranking = at.dataframe[0].value
    order = [w.strip() for w in query.get("expected", DEFAULTS.expected).split(">")]
    found = verdicts(at)
    assert set(found) == set(MEASURES)
    for m in MEASURES:
        assert found[m] == holds(ranking, m, order), m
        assert (ranking[f"{m}_rank"] == ranking[m].rank(ascending=False, method="min")).all()


def test_relevance_real_glove_numbers_behind_the_takeaway():
    """Raw GloVe puts drank first but black above cat; cosine gets the whole order; identity layers keep GloVe."""
    at = ok(run_page(RELEVANCE))
    ranking = at.dataframe[0].value.set_index("word")
    assert ranking["dot"].idxmax() == "drank" and ranking.loc["black", "dot"] > ranking.loc["cat", "dot"]
    assert verdicts(at)["cosine"] and not verdicts(at)["dot"]
    identity = ok(run_page(RELEVANCE, {"q_preset": "identity", "k_preset": "identity", "position": "0",
                                       "d_k": "50", "scaled": "0"})).dataframe[0].value
    assert np.allclose(identity["qk"], identity["dot"], atol=1e-4)


def test_relevance_scaling_divides_qk_by_root_dk():
    on = ok(run_page(RELEVANCE)).dataframe[0].value
    off = ok(run_page(RELEVANCE, {"scaled": "0"})).dataframe[0].value
    assert np.allclose(off["qk"], on["qk"] * np.sqrt(DEFAULTS.d_k))
    assert (off["dot"] == on["dot"]).all() and (off["qk_rank"] == on["qk_rank"]).all()


@pytest.mark.parametrize("text, words", [
    ("drank cat", ["“>”"]), ("drank >", ["“>”"]), ("drank", ["“>”"]),
    ("drank > dog", ["“dog”", "“black”", "“cat”"]), ("drank > milk", ["“milk”", "query word"]),
    ("drank > drank", ["“drank”", "more than once"]), ("the > cat", ["“the (1)”", "“the (5)”"]),
])
def test_relevance_bad_expected_order_says_what_is_wrong(text, words):
    at = ok(run_page(RELEVANCE))
    ok(widget(at, "expected").input(text).run())
    shown = messages(at)
    assert all(w in shown for w in words), shown
    assert not verdicts(at)
    assert chart_data(at) and at.dataframe  # the scores are still shown


def test_relevance_expected_order_accepts_row_labels_and_case():
    at = ok(run_page(RELEVANCE, {"expected": "The (5) > DRANK"}))
    assert set(verdicts(at)) == set(MEASURES)
    assert widget(at, "expected").value == "The (5) > DRANK"


def test_relevance_needs_two_words():
    at = ok(run_page(RELEVANCE, {"sentence": "milk"}))
    assert t("need_two_words") in messages(at)
    assert not chart_data(at)


def test_relevance_chinese_verdicts():
    at = ok(run_page(RELEVANCE, {"lang": "zh"}))
    (missed,) = at.warning
    with in_language("zh"):
        for measure in ("measure_cosine", "measure_qk_scaled"):
            assert any(m.value.startswith(t(measure, source="GloVe")) for m in at.success)
        assert missed.value.startswith(t("measure_dot", source="GloVe"))
