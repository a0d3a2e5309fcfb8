"""The Learning page: targets text <-> table <-> triples, the one 2-D projection, its charts, and the page itself."""
import json
import re
import threading
from dataclasses import replace

import numpy as np
import pyarrow as pa
import pytest

from engine import objective, training, treebank
from engine.pipeline import encode
from fits import queue
from harness.apptest import as_it_ends
from kit.text import t
from lesson.settings import DEFAULTS
from tests.app.test_text import KEEP, visible_text
from tests.apptest_helpers import charts, messages, run_page, titled
from tests.engine.test_learning import DEFAULT_TRIPLES, LABELS

PAGE = "pages/5_Learning.py"


# --- targets: text <-> table <-> triples ---


# --- the one 2-D projection ---


# --- tables and charts ---


# --- the page ---

def ok(at):
    assert not at.exception, [e.value for e in at.exception]
    return at


RANDOM_START = {"learn_start": "random"}  # the seeded random start these tests follow step by step


def trained(query=None):
    at = ok(run_page(PAGE, {**RANDOM_START, **(query or {})}))
    return ok(at.button(key="train").click().run())


def loss_shown(at) -> list[float]:
    terms = titled(at, t("learn_loss_title"))
    return terms[terms["pair"] == t("learn_term_total")]["value"].tolist()


def order_verdict(at, kind="success"):
    """The one message of `kind` about the target order (the other says whether the signs came out right)."""
    (verdict,) = [m for m in getattr(at, kind) if "target order" in m.value or "目标顺序" in m.value]
    return verdict


def test_page_runs_by_default_and_shows_where_training_starts():
    at = ok(run_page(PAGE))
    assert t("learn_not_trained") in messages(at) and not at.error
    assert not at.button(key="train").disabled
    start = titled(at, t("learn_start_title_sidebar", q="milk")).set_index("key")["score"]
    assert sorted(start.index) == sorted(set(LABELS) - {"milk"})  # its own cell is hidden here as everywhere else
    assert start["drank"] > start["cat"] > start["black"]  # the learned weights in use already hold the order
    shown = titled(ok(run_page(PAGE, {"own": "1"})), t("learn_start_title_sidebar", q="milk"))
    assert sorted(shown["key"]) == sorted(LABELS)  # a word that may attend to itself shows its own score
    assert "already holds" in " ".join(m.value for m in at.markdown)
    at = ok(run_page(PAGE, RANDOM_START))
    titled(at, t("learn_start_title_random", q="milk", seed=0))
    assert "does not hold" in " ".join(m.value for m in at.markdown)


def test_train_reaches_the_target_order_and_draws_every_chart():
    at = trained()
    verdict, signs = at.success
    assert re.search(r"reached at step \d+", verdict.value) and "end of training (step 200)" in verdict.value
    assert re.search(r"signs were right from step \d+ on", signs.value) and signs.value.count("✓") == 3
    assert not at.warning and t("learn_not_trained") not in messages(at)
    assert len(loss_shown(at)) == 201
    for title in ("learn_scores_title", "learn_weights_title", "learn_cosine_title", "learn_plane_chart"):
        titled(at, t(title))
    for key in ("drank", "black"):
        titled(at, t("learn_before", q="milk", k=key))
        titled(at, t("learn_after", step=200, q="milk", k=key))
    for chart in at.get("vega_lite_chart"):  # every number drawn is finite
        for d in chart.proto.datasets:
            numbers = pa.ipc.open_stream(d.data.data).read_pandas().select_dtypes("number").to_numpy(dtype=float)
            assert np.isfinite(numbers).all()
    (summary,) = [d.value for d in at.dataframe if "share" in d.value]
    assert summary["share"].to_numpy() == pytest.approx([2 / 3, 1 / 3, 0], abs=0.02)
    from tests.apptest_helpers import open_menus
    saves = [b.key for b in open_menus(at).get("download_button") if b.key.startswith("_save_")]
    assert "_save_learn-plane-the-black-cat-drank-the-milk.svg" in saves  # the plane, drawn by Altair, saves too
    assert len(saves) == 2 * len(at.get("vega_lite_chart"))  # every chart: SVG and PNG


def test_the_start_shown_is_where_training_starts(glove):
    at = trained()
    start = titled(at, t("learn_start_title_random", q="milk", seed=0))
    shown = start.set_index("key")["score"]
    enc = encode(glove, DEFAULTS.sentence, position=DEFAULTS.position)
    h = training.train(enc.embedding, DEFAULT_TRIPLES, d_k=DEFAULTS.d_k, positional=enc.positional)
    assert [shown[k] for k in ("drank", "cat", "black")] == pytest.approx(h.scores[0], abs=1e-9)
    assert loss_shown(at) == pytest.approx(h.loss.tolist(), abs=1e-12)


@pytest.mark.parametrize("key, value", [("train_seed", 1), ("lr", 0.05), ("steps", 120)])
def test_changing_a_setting_changes_the_run(key, value):
    at = trained()
    before = loss_shown(at)
    at.number_input(key=key).set_value(value)
    ok(at.run())
    assert "settings have changed since" in " ".join(c.value for c in at.caption)
    assert loss_shown(at) == before  # the last run stays until Train is pressed
    ok(at.button(key="train").click().run())
    assert loss_shown(at) != before
    assert "settings have changed since" not in " ".join(c.value for c in at.caption)


class Held:
    """The calls of a fit function, the first of them held in the queue's worker at step n until Stop is pressed."""

    def __init__(self, monkeypatch, module, name: str, n: int):
        self.calls, self.reached, real = [], threading.Event(), getattr(module, name)

        def held(*args, callback=None, **kwargs):
            self.calls.append(threading.current_thread().name)

            def report(step, *values):
                if step == n and len(self.calls) == 1:
                    self.reached.set()
                    queue.running.stop.wait(60)
                return callback(step, *values)
            return real(*args, callback=report if callback else None, **kwargs)
        monkeypatch.setattr(module, name, held)


def stopped_at_the_step(at, held: Held, start: str, stop: str):
    """Press `start`, see the waiting notice with Stop while the fit is held, then press Stop."""
    with as_it_ends():
        ok(at.button(key=start).click().run())  # the page's run ends at once: the fit is the queue's
        assert at.button(key=stop).label == t("learn_stop")
        assert held.reached.wait(60)
        ok(at.run())  # as the notice's next look does
        assert at.button(key=stop).label == t("learn_stop") and at.get("progress")  # how far it got, and Stop
    return ok(at.button(key=stop).click().run())


def test_stop_keeps_the_steps_reached_without_running_them_again(monkeypatch, glove):
    held = Held(monkeypatch, training, "train", 30)
    at = stopped_at_the_step(ok(run_page(PAGE, RANDOM_START)), held, "train", "stop")
    assert held.calls == ["fits"]  # once, in the queue's worker: no second run up to the step reached
    assert "stopped at step 30 of 200" in " ".join(w.value for w in at.warning)
    assert "until training was stopped (step 30)" in order_verdict(at).value
    monkeypatch.undo()  # the same settings run to the end: the kept steps are exactly its first 31
    enc = encode(glove, DEFAULTS.sentence, position=DEFAULTS.position)
    h = training.train(enc.embedding, DEFAULT_TRIPLES, d_k=DEFAULTS.d_k, positional=enc.positional)
    assert loss_shown(at) == pytest.approx(h.loss[:31].tolist(), abs=1e-12)
    assert t("learn_after", step=30, q="milk", k="drank") in json.dumps(charts(at), ensure_ascii=False)


def test_the_sign_term_and_its_weight():
    """From the learned head the signs hold at once; with the sign term off the page says nothing asked for them, and
    the loss is the cross-entropy alone."""
    at = ok(run_page(PAGE))
    at = ok(at.button(key="train").click().run())
    assert "signs were right from the start" in " ".join(m.value for m in at.success)
    off = trained({"sign_weight": "0"})
    assert "sign term is off" in " ".join(m.value for m in off.warning)
    terms = titled(off, t("learn_loss_title"))
    sign = terms[terms["pair"] == t("learn_term_sign", w=0)]["value"]
    assert len(sign) == 201 and not sign.any()
    on = titled(trained(), t("learn_loss_title")).pivot(index="step", columns="pair", values="value")
    np.testing.assert_allclose(on[t("learn_term_total")],
                               on[t("learn_term_order")] + on[t("learn_term_sign", w=objective.SIGN_WEIGHT)])


def test_stop_mechanism_without_the_page():
    """What the page relies on: a run told to stop at step n equals the first n steps of the whole run."""
    x = np.random.default_rng(1).normal(size=(5, 4))
    whole = training.train(x, [(0, 1, 1.0), (0, 2, 0.0)], steps=50)
    part = training.train(x, [(0, 1, 1.0), (0, 2, 0.0)], steps=50, callback=lambda step, _: step < 20)
    assert part.stopped and part.steps == 20
    np.testing.assert_array_equal(part.loss, whole.loss[:21])
    np.testing.assert_array_equal(part.scores, whole.scores[:21])


BAD = {
    "unknown word": ("milk mlik 1", "“mlik” is not a word of this sentence", "“mlik” 不是这句话里的词"),
    "duplicate pair": ("milk drank 1; milk drank 0.5", "Row 2 gives the pair “milk” → “drank” a second",
                       "每一对只能有一个目标值"),
    "not a number": ("milk drank lots; milk cat 0", "the target “lots” is not a number", "“lots” 不是数字"),
    "negative": ("milk drank 1; milk cat -2", "the target -2 is negative", "目标值 -2 是负数"),
    "empty": ("", "Add at least one target", "请至少添加一个目标"),
    "ambiguous": ("milk the 1", "write “the (1)”, “the (5)”", "“the (1)”、“the (5)”"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_targets_say_what_is_wrong_and_keep_the_last_run(case):
    text, english, chinese = BAD[case]
    at = trained()
    before = loss_shown(at)
    at.session_state["targets"] = text
    ok(at.run())
    assert english in messages(at)
    assert at.button(key="train").disabled
    assert t("learn_kept_result") in " ".join(c.value for c in at.caption)
    assert loss_shown(at) == before and at.success  # the verdict and charts of the last run stay
    assert at.query_params.get("targets") == text  # the URL carries the targets as typed
    zh = ok(run_page(PAGE, {"lang": "zh", "targets": text, **RANDOM_START}))
    assert chinese in messages(zh) and zh.button(key="train").disabled


def test_targets_from_the_url_train_on_repeated_words():
    at = trained({"sentence": "the cat saw the dog", "targets": "the (4) dog 1; the (4) cat 0; dog saw 1"})
    assert not at.warning and "until the end of training (step 200)" in order_verdict(at).value
    assert t("learn_start_title_random", q="the (4)", seed=0) in json.dumps(charts(at), ensure_ascii=False)
    assert at.selectbox(key="query").options == ["the (4)", "dog"]  # two query words: choose which one to follow


def test_w_v_note_and_learning_w_v_alone_changes_nothing():
    at = trained({"learn": "w_v"})
    assert t("learn_wv_note") in messages(at)
    assert len(set(loss_shown(at))) == 1
    assert "not reached" in order_verdict(at, "error").value


@pytest.mark.parametrize("learn, message", [("", "learn_choose"), ("w_q,bias", "learn_unknown_param")])
def test_bad_choice_of_parameters(learn, message):
    at = ok(run_page(PAGE, {"learn": learn}))
    shown = messages(at)
    assert t(message, names="“bias”") in shown
    assert at.button(key="train").disabled == (learn == "")


def test_learning_embeddings_moves_them():
    at = trained({"learn": "x", "steps": "50"})
    assert "reached at step" in order_verdict(at).value and len(loss_shown(at)) == 51


def test_trained_page_in_chinese_has_no_english_explanations():
    at = trained({"lang": "zh"})
    assert "达到了目标顺序" in order_verdict(at).value
    words = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", visible_text(at))} - KEEP
    assert not words, sorted(words)


# --- the corpus section: one head trained live on real sentences, the template sentences, or an upload ---

LIVE_40 = replace(treebank.LIVE, steps=40)  # the live recipe, shorter: what the tests below train
