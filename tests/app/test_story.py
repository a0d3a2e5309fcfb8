"""The article's lesson on the default screen: learned weights on every page, said where they came from, shareable."""
import json
import re

import numpy as np
import pandas as pd
import pytest

from engine import corpus, treebank
from engine.attention import attend
from engine.fit import load_fit
from engine.pipeline import encode
from engine.relevance import length_angle
from kit.text import in_language, plain, t
from lesson.settings import DEFAULTS
from tests.apptest_helpers import PAGES, RANDOM_LAYERS, chart_data, charts, messages, open_layers, run_page, titled

ALL = [None, *PAGES]
STORY = [None, *PAGES[:5]]  # home and pages 1-5 share the article's sentence


def ok(at):
    assert not at.exception, [e.value for e in at.exception]
    return at


def cell(frame: pd.DataFrame, row: str, col: str) -> float:
    return float(frame.set_index(["row", "col"])["value"][row, col])


def milk_row(at, title) -> dict[str, float]:
    frame = titled(at, title)
    return {k: cell(frame, "milk", k) for k in ("drank", "cat", "black")}


def drank_cat_black(scores: dict[str, float]) -> bool:
    return scores["drank"] > scores["cat"] > scores["black"]


def q_dot_k(at) -> dict[str, float]:
    """milk's query row against each key row, from page 1's Q and K heatmaps."""
    def rows(title):
        frame = titled(at, title).pivot(index="row", columns="col", values="value")
        return frame
    q, k = rows(t("q_m")), rows(t("k_m"))
    return {w: float(q.loc["milk"] @ k.loc[w]) for w in ("drank", "cat", "black")}


ARTICLE_TOPS = {"the (1)": "cat", "black": "cat", "cat": "drank", "the (5)": "milk", "milk": "drank"}


def tops(at, title) -> dict[str, str]:
    """Each row's largest visible weight, as the heatmap draws it (hidden cells are not candidates)."""
    frame = titled(at, title)
    seen = frame[~frame["masked"]]
    return {row: cells.loc[cells["value"].idxmax(), "col"] for row, cells in seen.groupby("row")}


class TestTheDefaultScreenShowsTheArticle:
    def test_home_weights(self):
        at = ok(run_page())
        assert drank_cat_black(milk_row(at, t("weights_m_soft")))
        assert tops(at, t("weights_m_soft")).items() >= ARTICLE_TOPS.items()  # each word finds its own partner

    def test_page_1_queries_and_keys(self):
        assert drank_cat_black(q_dot_k(ok(run_page(PAGES[0]))))

    def test_page_2_factor_and_weights(self):
        at = ok(run_page(PAGES[1]))
        assert drank_cat_black(milk_row(at, t("factor_m")))
        assert drank_cat_black(milk_row(at, t("weights_m_soft")))
        assert tops(at, t("weights_m_soft")).items() >= ARTICLE_TOPS.items()

    def test_page_3_drank_above_black(self):
        at = ok(run_page(PAGES[2]))
        said = " ".join(m.value for m in at.markdown)
        dots = [float(m.replace("−", "-")) for m in re.findall(r"q·k = (−?[0-9.]+)", said)]  # the true minus sign
        assert dots[0] > dots[1]  # milk·drank, then milk·black

    def test_page_4_qk_verdict_and_ranking(self):
        at = ok(run_page(PAGES[3]))
        ranking = at.dataframe[0].value.set_index("word")["qk"]
        assert ranking["drank"] > ranking["cat"] > ranking["black"]
        assert any(m.value.startswith(t("measure_qk_scaled")) for m in at.success)

    def test_page_5_starts_from_the_learned_order(self):
        at = ok(run_page(PAGES[4]))
        start = titled(at, t("learn_start_title_sidebar", q="milk")).set_index("key")["score"]
        assert start["drank"] > start["cat"] > start["black"]

    @pytest.mark.parametrize("page", STORY)
    def test_one_sentence_box_with_one_label(self, page):
        at = ok(run_page(page))
        (box,) = at.sidebar.text_input
        assert box.key == "sentence" and box.label == t("sentence") and box.value == DEFAULTS.sentence

    def test_page_6_has_its_own_source_and_target_boxes(self):
        at = ok(run_page(PAGES[5]))
        assert [b.key for b in at.sidebar.text_input] == ["source_sentence"]
        assert at.sidebar.text_input[0].label == t("source_sentence") != t("sentence")
        assert at.text_input(key="target_sentence").label == t("target_sentence")


class TestTheBanner:
    @pytest.mark.parametrize("lang", ["en", "zh"])
    @pytest.mark.parametrize("page", ALL)
    def test_every_page_says_the_weights_were_learned_from_real_sentences(self, page, lang):
        at = ok(run_page(page, {"lang": lang}))
        head = load_fit(treebank.SHIPPED)
        sizes = {name: len(treebank.split(treebank.read(), name)) for name in ("train", "test")}
        with in_language(lang):
            plain = t("weights_plain", n=head.plain)
            expected = t("weights_trained", train=sizes["train"], test=sizes["test"], acc=head.test_accuracy[-1],
                         plain=plain)
        assert expected in [m.value for m in at.markdown]
        assert "7,479" in expected and "1,255" in expected and "49%" in expected and f"{head.plain:,}" in expected

    @pytest.mark.parametrize("choice, key", [("random", "weights_random"), ("identity", "weights_identity_cut")])
    def test_one_click_switches_both_layers(self, choice, key):
        at = ok(run_page(PAGES[1]))
        at.button_group(key="_qk_choice").set_value(choice)
        ok(at.run())
        assert at.query_params["q_preset"] == at.query_params["k_preset"] == choice
        expected = t(key, q=DEFAULTS.q_seed, k=DEFAULTS.k_seed, d=50, d_k=DEFAULTS.d_k)
        assert any(m.value == expected for m in at.markdown)

    def test_identity_with_full_d_k_says_it_keeps_every_dimension(self):
        at = ok(run_page(PAGES[1], {"q_preset": "identity", "k_preset": "identity", "d_k": "50"}))
        assert any(m.value == t("weights_identity") for m in at.markdown)

    def test_mixed_presets_name_each(self):
        at = ok(run_page(PAGES[1], {"k_preset": "random"}))
        assert any(m.value == t("weights_mixed", q=t("preset_trained"), k=t("preset_random")) for m in at.markdown)


class TestYourOwnRun:
    RECIPE = {"q_preset": "run", "k_preset": "run", "run_on": "templates", "run_steps": "60", "run_lr": "0.05",
              "run_seed": "3"}

    def test_a_recipe_link_reproduces_the_trained_weights(self, glove):
        at = ok(run_page(PAGES[1], self.RECIPE))
        fit = corpus.fit(glove, corpus.load(), steps=60, lr=0.05, seed=3)
        enc = encode(glove, DEFAULTS.sentence, position=DEFAULTS.position)
        factor = attend(enc.x, enc.x, fit.w_q, fit.w_k, np.eye(50)).factor
        shown = titled(at, t("factor_m"))
        i = enc.labels.index("milk")
        for j, word in enumerate(enc.labels):
            assert cell(shown, "milk", word) == pytest.approx(factor[i, j], abs=1e-9)
        assert any(m.value.startswith("**W_Q and W_K come from your training run**") and "60 steps" in m.value
                   for m in at.markdown)

    def test_choosing_an_upload_keeps_the_built_in_corpus_until_a_file_comes(self):
        at = ok(run_page(PAGES[4]))
        at.radio(key="_corpus_which").set_value("upload")
        ok(at.run())
        assert t("corpus_upload_none") in messages(at)


class TestLengthAndAngle:
    def test_page_1_lengths_and_what_follows(self, glove):
        at = ok(run_page(PAGES[0]))
        enc = encode(glove, DEFAULTS.sentence, position=DEFAULTS.position)
        word = np.linalg.norm(enc.embedding, axis=1).mean()
        pos = np.linalg.norm(enc.positional, axis=1).mean()
        note = t("lengths_note", p=DEFAULTS.position, word=word, pos=pos, ratio=pos / word, source="GloVe")
        assert any(m.value.startswith(note) and t("lengths_dominant") in m.value for m in at.markdown)
        (frame,) = [df for df in chart_data(at) if "length" in df]
        assert len(frame) == 2 * len(enc.labels)
        np.testing.assert_allclose(frame["length"][len(enc.labels):], np.linalg.norm(enc.positional, axis=1))

    @pytest.mark.parametrize("position, key", [("1", "lengths_comparable"), ("0", "lengths_off"),
                                               ("0.3", "lengths_small")])
    def test_page_1_position_weight_changes_the_verdict(self, position, key):
        """Random layers: the verdict is about the rows alone, and a learned head is fitted anew for each weight."""
        at = ok(run_page(PAGES[0], {"position": position, **RANDOM_LAYERS}))
        assert any(t(key) in m.value for m in at.markdown)

    @pytest.mark.parametrize("page", [PAGES[2], PAGES[3]])
    def test_the_words_name_what_decides_the_order(self, page):
        at = ok(run_page(page, {"q_preset": "random", "k_preset": "random"}))
        table = at.dataframe[-1].value if page == PAGES[2] else at.dataframe[1].value
        np.testing.assert_allclose(table["dot"], table["q_len"] * table["k_len"] * table["cos"], rtol=1e-9)
        rank = lambda col: list(table.sort_values(col, ascending=False, kind="stable")["word"])  # noqa: E731
        decides = "angle" if rank("cos") == rank("dot") else "length" if rank("k_len") == rank("dot") else "both"
        text = " ".join(m.value for m in at.markdown)
        top = table.sort_values("dot", ascending=False, kind="stable").iloc[0]
        said = t(f"la_{decides}", q="milk", k=plain(top["word"]), deg=top["angle"], len=top["k_len"], degs="", lens="")
        assert said.split("**")[1] in text and said.split("(")[0] in text  # the heading and the first key

    def test_length_angle_engine(self):
        la = length_angle(np.array([1.0, 0.0]), np.array([[3.0, 4.0], [1.0, 0.0], [0.0, 2.0]]))
        np.testing.assert_allclose(la.dot, [3.0, 1.0, 0.0])
        np.testing.assert_allclose(la.cos, [0.6, 1.0, 0.0])
        np.testing.assert_allclose(la.k_len, [5.0, 1.0, 2.0])
        assert la.decides == "both"  # cos says 2nd > 1st, |k| says 1st > 3rd > 2nd; q·k says 1st > 2nd > 3rd
        assert length_angle(np.array([1.0, 0.0]), np.array([[2.0, 0.0], [1.0, 1.0]])).decides == "angle"
        assert length_angle(np.array([1.0, 0.0]), np.array([[3.0, 3.0], [1.0, 0.0]])).decides == "length"


def test_layer_controls_offer_the_learned_presets_and_the_position_weight():
    at = ok(open_layers(run_page(PAGES[0])))
    assert at.sidebar.selectbox(key="q_preset").value == "trained"
    assert t("preset_run") in at.sidebar.selectbox(key="q_preset").options
    assert t("preset_trained") not in at.sidebar.selectbox(key="v_preset").options
    assert at.sidebar.slider(key="position").value == DEFAULTS.position
    assert at.sidebar.number_input(key="q_seed").disabled


def test_old_links_still_open_the_same_view():
    at = ok(run_page(PAGES[1], {"pair_sentence": "The cat drank the milk", "positional": "0", "utm_source": "x",
                                "fbclid": "abc", **RANDOM_LAYERS}))  # no head to fit at position 0: not about one
    assert at.sidebar.text_input(key="sentence").value == "The cat drank the milk"
    assert "utm_source" not in messages(at) and "fbclid" not in messages(at)
    assert at.query_params["position"] == "0"


def test_the_sentence_can_be_edited_on_the_page_where_the_sidebar_is_closed():
    at = ok(run_page(PAGES[1]))
    here = at.text_input(key="_sentence_here")
    assert here.value == DEFAULTS.sentence and here.label == t("sentence")
    here.input("The dog ate the bone").run()
    assert at.sidebar.text_input(key="sentence").value == "The dog ate the bone"
    assert at.query_params["sentence"] == "The dog ate the bone"
    at.sidebar.text_input(key="sentence").input("The cat sat").run()
    assert at.text_input(key="_sentence_here").value == "The cat sat"


@pytest.mark.parametrize("locale, lang", [("zh-CN", "zh"), ("en-GB", "en"), ("fr-FR", "en")])
def test_the_language_follows_the_browser_unless_the_link_says(monkeypatch, locale, lang):
    import streamlit as st
    monkeypatch.setattr(type(st.context), "locale", property(lambda self: locale))
    at = ok(run_page(PAGES[1]))
    assert at.session_state["lang"] == lang
    assert ok(run_page(PAGES[1], {"lang": "en"})).session_state["lang"] == "en"


def test_words_name_the_vectors_in_use(glove):
    """With uploaded vectors no sentence speaks of GloVe, and every number quoted is the upload's."""
    from tests.apptest_helpers import uploader
    words = ["the", "black", "cat", "drank", "milk"]
    text = "\n".join(w + " " + " ".join(f"{x:.4f}" for x in glove[w] * -1) for w in words).encode()
    for page, expect in ((PAGES[0], t("embedding", source=t("short_upload"))),
                         (PAGES[3], t("measure_dot", source=t("short_upload")))):
        at = ok(run_page(page, {"source": "upload"}))
        uploader(at).set_value([("mine.txt", text, "text/plain")])
        ok(at.run())
        shown = " ".join(m.value for m in at.markdown) + json.dumps(charts(at), ensure_ascii=False) + messages(at)
        assert expect in shown
        assert "GloVe" not in " ".join(m.value for m in at.markdown if "About the Spanish" not in m.value)
