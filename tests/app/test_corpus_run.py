"""Page 5's corpus run in AppTest: the treebank's real sentences, the template sentences or the learner's CSV, held-out
accuracy beside the simple rules, Stop, and the run's weights used on every page."""
import json
import re
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1.element_tree import HeadingBase

from engine import corpus, treebank
from engine.attention import attend, score
from engine.pipeline import encode
from fits import cache, queue, recipe
from kit.charts import Titles
from kit.text import in_language, t
from learning import charts as builders
from learning.corpus_run import TRY
from learning.tables import (
    accuracy_frame,
    levels_frame,
)
from lesson.settings import DEFAULTS
from tests.app.test_learning_page import LIVE_40, PAGE, RANDOM_START, Held, ok, stopped_at_the_step, titled
from tests.app.test_text import KEEP, visible_text
from tests.apptest_helpers import PAGES, chart_data, charts, messages, run_page


def accuracy_curves(at) -> pd.DataFrame:
    """The data of the held-out accuracy chart (lines and levels stacked)."""
    (data,) = [df for df in chart_data(at) if {"line", "name"} <= set(df)]
    return data


def corpus_trained(query=None, which=None):
    at = ok(run_page(PAGE, {"run_steps": "40", **(query or {})}))
    if which:
        at.radio(key="_corpus_which").set_value(which)
        ok(at.run())
    return ok(at.button(key="corpus_train").click().run())


def factor_row(at, word="milk") -> dict[str, float]:
    with in_language(at.query_params.get("lang", "en")):
        frame = titled(at, t("factor_m"))
    return frame[frame["row"] == word].set_index("col")["value"].to_dict()


def test_corpus_section_offers_three_corpora_and_numbers_the_sections_without_gaps():
    at = ok(run_page(PAGE))
    radio = at.radio(key="_corpus_which")
    assert radio.value == "treebank" and radio.options == [t(f"corpus_choice_{c}") for c in ("treebank", "templates",
                                                                                            "upload")]
    numbers = [int(h.value.split(" · ")[0]) for h in [*at.subheader, *at.header] if " · " in h.value]
    assert sorted(numbers) == [1, 2, 3, 4]
    intro = " ".join(m.value for m in at.markdown)
    assert "the first 2,000 of the treebank's 7,479 training sentences" in intro and "**belongs to**" in intro
    assert "1,255 held-out sentences that training never used" in intro
    step = queue.reads(treebank.LIVE.batch_words, recipe.sizes("treebank")["held_out"])  # a minibatch, all held out
    bound = queue.max_steps(step, 50, DEFAULTS.d_k)
    assert at.number_input(key="run_steps").max == bound >= treebank.LIVE.steps


def in_page_order(block):
    """Every element under `block`, top to bottom."""
    yield block
    for i in sorted(getattr(block, "children", {})):
        yield from in_page_order(block.children[i])


def section_numbers(at) -> list[int]:
    """The numbers of the page's numbered section titles, top to bottom."""
    titles = [node.value for node in in_page_order(at.main) if isinstance(node, HeadingBase)]
    return [int(title.split(" · ")[0]) for title in titles if re.match(r"\d+ · ", title)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_sections_are_numbered_one_by_one_before_and_after_training(lang):
    at = ok(run_page(PAGE, {**RANDOM_START, "lang": lang, "run_steps": "40"}))
    assert section_numbers(at) == [1, 2, 3, 4]
    ok(at.button(key="train").click().run())
    assert section_numbers(at) == [1, 2, 3, 4]
    (plane,) = [spec for spec in charts(at) if builders.SHOWN in json.dumps(spec)]
    (param,) = plane["params"]
    with in_language(lang):  # the slider says steps, as the plot's "step 200" does
        assert param["bind"]["max"] == 200 and param["bind"]["name"] == t("learn_slider", m=200)
    ok(at.button(key="corpus_train").click().run())
    assert section_numbers(at) == [1, 2, 3, 4]


@pytest.mark.slow  # the live run's whole recipe
def test_the_default_treebank_run_beats_the_simple_rules_on_held_out_sentences():
    at = ok(run_page(PAGE))
    ok(at.button(key="corpus_train").click().run())
    (done,) = [m.value for m in at.success]
    acc = float(re.search(r"\*\*([\d.]+)% of the time\*\*", done).group(1)) / 100
    assert "After 300 steps on 2,000 sentences" in done and acc >= 0.40
    curves = accuracy_curves(at)
    held = curves[curves["line"] == t("corpus_test_split")]
    assert held["step"].tolist() == list(range(301))  # measured at every step
    assert held["value"].iloc[-1] == pytest.approx(acc, abs=0.0005)
    levels = curves[curves["line"].isna()].set_index("name")["value"]
    assert acc > levels[t("corpus_ref_offset", offset=t("corpus_offset_next"))] > levels[t("corpus_ref_cosine")]
    tops = next(m.value for m in at.markdown if m.value.startswith("With these weights"))
    assert "“old” → “fisherman”" in tops and "“fisherman” → “mended”" in tops  # each word finds its own partner


def test_a_treebank_run_is_the_engines_fit_with_the_baselines_beside_it(glove):
    at = corpus_trained()
    fit = treebank.fit(glove, treebank.read(), LIVE_40)
    curves = accuracy_curves(at)
    held = curves[curves["line"] == t("corpus_test_split")]["value"].to_numpy()
    np.testing.assert_allclose(held, fit.test_accuracy)
    for name, values in (("positive", fit.test_positive), ("negative", fit.test_negative)):  # the signs beside it
        np.testing.assert_allclose(curves[curves["line"] == t(f"corpus_signs_treebank_{name}")]["value"], values)
    assert titled(at, t("corpus_loss_title"))["loss"].tolist() == pytest.approx(fit.loss.tolist())
    test = treebank.split(treebank.read(), "test")
    b = treebank.batch(glove, test, 0.0)
    offset, by_offset = treebank.best_offset(b)
    by_cosine = treebank.accuracy(b, score(b.x, b.x, cosine=True))
    levels = curves[curves["line"].isna()].set_index("name")["value"].to_dict()
    assert offset == 1 and levels == pytest.approx({t("corpus_ref_offset", offset=t("corpus_offset_next")): by_offset,
                                                   t("corpus_ref_cosine"): by_cosine})
    (done,) = [m.value for m in at.success]
    assert f"{fit.test_accuracy[-1]:.1%} of the time" in done and f"gets {by_offset:.1%}" in done


def test_stop_ends_a_treebank_run_early_and_keeps_the_steps_reached(monkeypatch, glove):
    held = Held(monkeypatch, treebank, "fit", 25)
    at = stopped_at_the_step(ok(run_page(PAGE, {"run_steps": "60"})), held, "corpus_train", "corpus_stop")
    assert held.calls == ["fits"]  # once, in the queue's worker: no second run up to the step reached
    assert "stopped at step 25 of 60" in " ".join(w.value for w in at.warning)
    monkeypatch.undo()
    whole = treebank.fit(glove, treebank.read(), replace(treebank.LIVE, steps=60))
    curves = accuracy_curves(at)
    np.testing.assert_allclose(curves[curves["line"] == t("corpus_test_split")]["value"], whole.test_accuracy[:26])
    assert t("corpus_share_stopped") in " ".join(c.value for c in at.caption)
    assert not [b for b in at.button if b.key == "corpus_use"]  # a link could not give these weights


def test_use_on_every_page_puts_the_recipe_in_the_url_and_a_fresh_session_rederives_it(glove):
    at = corpus_trained({"run_seed": "3"})
    ok(at.button(key="corpus_use").click().run())
    assert {"q_preset": "run", "k_preset": "run", "run_steps": "40", "run_seed": "3"}.items() <= \
        at.query_params.items()
    assert t("corpus_in_use") in " ".join(m.value for m in at.success)
    banner = t("weights_run_treebank", train=2000, test=1255, acc=0.5, steps=40, lr=0.01, seed=3,
               plain="").split(" (")[0]
    assert any(m.value.startswith(banner) for m in at.markdown)
    ok(at.switch_page(PAGES[1]).run())
    here = factor_row(at)
    cache.FITTED.clear()  # a fresh server: nothing fitted yet
    fresh = ok(run_page(PAGES[1], dict(at.query_params)))
    assert factor_row(fresh) == pytest.approx(here, abs=1e-9)
    fit = treebank.fit(glove, treebank.read(), replace(LIVE_40, seed=3))
    enc = encode(glove, DEFAULTS.sentence, position=DEFAULTS.position)
    factor = attend(enc.x, enc.x, fit.w_q, fit.w_k, np.eye(50)).factor[enc.labels.index("milk")]
    assert [here[w] for w in enc.labels] == pytest.approx(factor, abs=1e-9)


def test_template_sentences_still_train_and_can_be_used(glove):
    at = corpus_trained(which="templates")
    (done,) = [m.value for m in at.success]
    fit = corpus.fit(glove, corpus.load(), steps=40, lr=DEFAULTS.run_lr)
    assert "After 40 steps" in done and f"{fit.test_accuracy[-1]:.0%} of the held-out pairs" in done
    curves = accuracy_curves(at)
    assert set(curves["line"].dropna()) == {t("corpus_train_split"), t("corpus_test_split"),
                                            t("corpus_signs_positive"), t("corpus_signs_negative")}
    assert curves["name"].dropna().tolist() == [t("corpus_ref_cosine")]  # no offset rule for labelled pairs
    ok(at.button(key="corpus_use").click().run())
    assert at.query_params["run_on"] == "templates" and at.query_params["q_preset"] == "run"
    assert any(m.value.startswith("**W_Q and W_K come from your training run** on the template sentences")
               for m in at.markdown)


UPLOAD = (b"sentence,query,targets,split\n"
          b"The black cat drank the milk,milk,drank=1; cat=0.5; black=0,train\n"
          b"A small dog ate a bone,bone,ate=1; dog=0.5; small=0,train\n"
          b"The old man read the paper,paper,read=1; man=0.5; old=0,test\n")


def test_an_uploaded_corpus_trains_but_stays_on_the_page():
    at = ok(run_page(PAGE, {"run_steps": "20"}))
    at.radio(key="_corpus_which").set_value("upload")
    ok(at.run())
    assert t("corpus_upload_none") in messages(at) and not [b for b in at.button if b.key == "corpus_train"]
    corpus_uploader(at).set_value(("mine.csv", UPLOAD, "text/csv"))
    ok(at.run())
    assert t("corpus_loaded", name="mine.csv", n=3) in " ".join(c.value for c in at.caption)
    ok(at.button(key="corpus_train").click().run())
    assert any("After 20 steps" in m.value for m in at.success)
    assert t("corpus_share_upload") in " ".join(c.value for c in at.caption)
    corpus_uploader(at).set_value(("bad.csv", b"sentence,query\n", "text/csv"))
    ok(at.run())
    assert "could not be used" in messages(at)


def test_a_corpus_file_over_the_limit_is_refused_by_its_size_unread_once_and_let_go(monkeypatch):
    from engine import corpus
    reads = []
    monkeypatch.setattr(corpus, "load", lambda *a, **k: reads.append(a) or [])
    at = ok(run_page(PAGE))
    at.radio(key="_corpus_which").set_value("upload")
    ok(at.run())
    corpus_uploader(at).set_value(("big.csv", b"x" * (corpus.MAX_BYTES + 1), "text/csv"))
    ok(at.run())
    assert "could not be used" in messages(at) and "2,097,152" in messages(at) and reads == []
    assert corpus_uploader(at).value is None  # read once, then a new, empty uploader: Streamlit lets go of the file
    ok(at.run())
    assert reads == []


def corpus_uploader(at):
    """Page 5's corpus uploader (a fresh one after every upload, so its key changes)."""
    return next(u for u in at.file_uploader if u.key.startswith("corpus_file"))


def test_changed_choices_mark_the_last_run_as_stale():
    at = corpus_trained()
    at.radio(key="_corpus_which").set_value("templates")
    ok(at.run())
    assert "the choices have changed since" in " ".join(c.value for c in at.caption)
    assert not [b for b in at.button if b.key == "corpus_use"]


def test_corpus_section_in_chinese_has_no_english_explanations():
    at = corpus_trained({"lang": "zh"})
    assert any("每个词最大的注意力权重落在它所属的词上" in m.value for m in at.success)
    words = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", visible_text(at))} - KEEP - set(TRY.lower().split())
    assert not words, sorted(words)  # the sentence to try is data, in any language


def test_accuracy_curves_spec_draws_levels_and_no_missing_steps():
    df = accuracy_frame([0, 1, 2], {"held-out": [0.2, np.nan, 0.4], "train": [0.1, 0.2, 0.3]})
    assert df["line"].tolist() == ["held-out", "held-out", "train", "train", "train"]
    levels = levels_frame({"always the next word": 0.36, "cosine": np.nan})
    assert levels.to_dict("list") == {"name": ["always the next word"], "value": [0.36]}
    spec = builders.accuracy_curves(df, levels,
                                    Titles("A", "step", "accuracy", line="sentences", level="rule"),
                                    names=["held-out", "train"], steps=300).to_dict()
    rules, labels, lines = spec["layer"]  # the lines drawn over the levels
    assert spec["title"] == "A"
    assert lines["encoding"]["x"]["scale"]["domain"] == [0, 300]
    assert lines["encoding"]["y"]["scale"]["domain"] == [0, 1] and lines["encoding"]["color"]["sort"] == ["held-out",
                                                                                                       "train"]
    assert rules["mark"]["strokeDash"] and labels["encoding"]["text"]["field"] == "name"
    assert builders.accuracy_curves.data_free
