"""The article's lesson on the default screen: learned weights on every page, said where they came from, shareable."""
import json
import re

import numpy as np
import pandas as pd
import pytest

from engine import corpus
from engine.attention import attend
from engine.pipeline import encode
from engine.relevance import length_angle
from tests.app import PAGES, chart_data, charts, messages, open_layers, run_page
from ui.state import DEFAULTS
from ui.text import t

ALL = [None, *PAGES]
STORY = [None, *PAGES[:5]]  # home and pages 1-5 share the article's sentence


def ok(at):
    assert not at.exception, [e.value for e in at.exception]
    return at


def titled(at, title) -> pd.DataFrame:
    """The data of the one chart whose spec has this title."""
    wanted = f'"title": {json.dumps(title, ensure_ascii=False)}'
    (data,) = [df for spec, df in zip(charts(at), chart_data(at)) if wanted in json.dumps(spec, ensure_ascii=False)]
    return data


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


class TestTheDefaultScreenShowsTheArticle:
    def test_home_weights(self):
        assert drank_cat_black(milk_row(ok(run_page()), t("weights_m_soft")))

    def test_page_1_queries_and_keys(self):
        assert drank_cat_black(q_dot_k(ok(run_page(PAGES[0]))))

    def test_page_2_factor_and_weights(self):
        at = ok(run_page(PAGES[1]))
        assert drank_cat_black(milk_row(at, t("factor_m")))
        assert drank_cat_black(milk_row(at, t("weights_m_soft")))

    def test_page_3_drank_above_black(self):
        at = ok(run_page(PAGES[2]))
        dots = [float(m) for m in re.findall(r"q·k = (-?[0-9.]+)", " ".join(m.value for m in at.markdown))]
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
    @pytest.mark.parametrize("lang, start", [("en", "**W_Q and W_K were learned**"), ("zh", "**W_Q 和 W_K 是学出来的**")])
    @pytest.mark.parametrize("page", ALL)
    def test_every_page_says_the_weights_were_learned(self, page, lang, start):
        at = ok(run_page(page, {"lang": lang}))
        (banner,) = [m.value for m in at.markdown if m.value.startswith(start)]
        fit = corpus.fit(*self.glove_and_corpus())
        assert f"{fit.test_accuracy[-1]:.0%}" in banner

    @staticmethod
    def glove_and_corpus():
        from ui.sidebar import glove
        return glove(), corpus.load()

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
    RECIPE = {"q_preset": "run", "k_preset": "run", "run_steps": "60", "run_lr": "0.05", "run_seed": "3"}

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

    def test_train_on_the_corpus_then_use_the_weights_everywhere(self):
        at = ok(run_page(PAGES[4], {"run_steps": "40"}))
        ok(at.button(key="corpus_train").click().run())
        (done,) = [m.value for m in at.success if "held-out pairs" in m.value]
        assert "After 40 steps" in done
        curves = titled(at, t("corpus_accuracy_title"))
        assert set(curves["pair"]) == {t("corpus_train_split"), t("corpus_test_split")} and len(curves) == 82
        ok(at.button(key="corpus_use").click().run())
        assert {"q_preset": "run", "k_preset": "run", "run_steps": "40"}.items() <= at.query_params.items()
        assert t("corpus_in_use") in messages(at) + " ".join(m.value for m in at.success)
        ok(at.switch_page(PAGES[1]).run())
        shared = ok(run_page(PAGES[1], dict(at.query_params)))
        assert milk_row(shared, t("factor_m")) == milk_row(at, t("factor_m"))
        assert any("your training run" in m.value for m in shared.markdown)

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
        assert any(m.value.startswith(note) and t("lengths_small") in m.value for m in at.markdown)
        (frame,) = [df for df in chart_data(at) if "length" in df]
        assert len(frame) == 2 * len(enc.labels)
        np.testing.assert_allclose(frame["length"][len(enc.labels):], np.linalg.norm(enc.positional, axis=1))

    @pytest.mark.parametrize("position", ["1", "0"])
    def test_page_1_position_weight_changes_the_verdict(self, position):
        at = ok(run_page(PAGES[0], {"position": position}))
        key = "lengths_comparable" if position == "1" else "lengths_off"
        assert any(t(key) in m.value for m in at.markdown)

    @pytest.mark.parametrize("page", [PAGES[2], PAGES[3]])
    def test_the_words_name_what_decides_the_order(self, page):
        at = ok(run_page(page, {"q_preset": "random", "k_preset": "random"}))
        table = at.dataframe[-1].value if page == PAGES[2] else at.dataframe[1].value
        np.testing.assert_allclose(table["dot"], table["q_len"] * table["k_len"] * table["cos"], rtol=1e-9)
        rank = lambda col: list(table.sort_values(col, ascending=False, kind="stable")["word"])  # noqa: E731
        decides = "angle" if rank("cos") == rank("dot") else "length" if rank("k_len") == rank("dot") else "both"
        text = " ".join(m.value for m in at.markdown)
        assert t(f"la_{decides}", q="milk", order="", cos_order="", len_order="").split("**")[1] in text

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
                                "fbclid": "abc"}))
    assert at.sidebar.text_input(key="sentence").value == "The cat drank the milk"
    assert "utm_source" not in messages(at) and "fbclid" not in messages(at)
    assert at.query_params["position"] == "0"


def test_stopping_a_corpus_fit_keeps_the_steps_reached(monkeypatch, glove):
    """A click on Stop ends the script at its next call; the next run keeps the fit up to the step reached."""
    import streamlit as st
    real, done = corpus.fit, []

    def fit(*args, callback=None, **kwargs):
        def report(step, *values):
            out = callback(step, *values)
            if step == 25 and not done:
                done.append(step)
                st.stop()
            return out
        return real(*args, callback=report if callback else None, **kwargs)
    monkeypatch.setattr(corpus, "fit", fit)
    at = ok(run_page(PAGES[4]))
    ok(at.button(key="corpus_train").click().run())  # the run that Stop interrupts
    ok(at.run())  # the run the click starts
    assert "stopped at step 25 of 400" in " ".join(w.value for w in at.warning)
    monkeypatch.undo()
    whole = corpus.fit(glove, corpus.load(), steps=400)
    curves = titled(at, t("corpus_accuracy_title"))
    held = curves[curves["pair"] == t("corpus_test_split")]["value"].to_numpy()
    np.testing.assert_allclose(held, whole.test_accuracy[:26])


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
    from tests.app import uploader
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
