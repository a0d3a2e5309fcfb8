"""Page 4's ranking table fits a phone's width, and its length-and-angle text stays short with many words."""
import json

import pytest

from kit import views
from kit.text import in_language, t
from tests.apptest_helpers import PAGES, messages, run_page

RELEVANCE = PAGES[3]
MANY = " ".join(["the black cat drank the milk and the small dog ate the bread while the old man read"] * 2)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_ranking_table_has_short_column_names_and_a_caption_naming_them(lang):
    with in_language(lang):
        at = run_page(RELEVANCE, {"lang": lang})
        assert not at.exception
        ranking = at.dataframe[0]
        shown = [c["label"] for c in json.loads(ranking.proto.columns).values() if not c.get("hidden")]
        assert shown[0] == t("word") and len(shown) == 7
        # seven columns fit 390 pixels: short names; Q·K's is its score's own name, no wider than its numbers
        assert shown[5] == t("qk_scaled"), shown
        assert all(len(label) <= 3 for label in shown[1:5] + shown[6:]), shown
        legend = [c.value for c in at.caption if t("measure_cosine", source="GloVe") in c.value]
        assert legend and t("measure_qk_scaled") in legend[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_length_and_angle_text_is_a_short_verdict_and_three_short_orders(lang):
    at = run_page(RELEVANCE, {"lang": lang, "sentence": MANY})
    assert not at.exception
    verdict = [m.value for m in at.markdown if "|k|" in m.value]
    orders = [m.value for m in at.markdown if m.value.startswith("- ")]
    assert orders, messages(at)
    lines = orders[0].split("\n\n")[0].splitlines()
    assert len(lines) == 3 and all(line.count(" > ") == views.ORDER_SHOWN for line in lines)  # five keys and "…"
    assert all(len(m) < 400 for m in verdict + orders)
