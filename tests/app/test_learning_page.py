"""The Learning page: targets text <-> table <-> triples, the one 2-D projection, its charts, and the page itself."""
import json
import re
import threading
from dataclasses import replace

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from streamlit.testing.v1.element_tree import HeadingBase

from engine import corpus, training, treebank
from engine.attention import attend, score
from engine.pipeline import encode
from engine.projection import fit_plane, pair_cosines, project
from harness.apptest import as_it_ends
from tests.app.test_text import KEEP, visible_text
from tests.apptest_helpers import PAGES, chart_data, charts, messages, run_page
from ui import charts as builders
from ui import fair, tables, targets, weights
from ui.corpus_run import TRY
from ui.state import DEFAULTS
from ui.text import in_language, t

PAGE = "steps/5_Learning.py"
TOKENS = ["the", "black", "cat", "drank", "the", "milk"]
LABELS = ["the (1)", "black", "cat", "drank", "the (5)", "milk"]
DEFAULT_TRIPLES = [(5, 3, 1.0), (5, 2, 0.5), (5, 1, 0.0)]  # milk -> drank 1, cat 0.5, black 0


# --- targets: text <-> table <-> triples ---

def table(*rows) -> pd.DataFrame:
    return pd.DataFrame([list(r) for r in rows], columns=targets.COLUMNS, dtype=object)


def test_default_text_is_the_default_table():
    assert targets.parse_targets(DEFAULTS.targets).equals(
        table(("milk", "drank", "1"), ("milk", "cat", "0.5"), ("milk", "black", "0")))


@pytest.mark.parametrize("text", [DEFAULTS.targets, "the (1) milk 2; milk the (5) 0.25", "milk ? 1; ? ? ?",
                                  "milk drank high; cat milk -1"])
def test_text_round_trips_through_the_table(text):
    assert targets.format_targets(targets.parse_targets(text)) == text


def test_table_round_trips_through_the_text():
    edited = table(("milk", "the (5)", "1"), ("the (1)", "", "0.5"), ("", "", ""), ("cat", "milk", "x"))
    assert targets.parse_targets(targets.format_targets(edited)).equals(edited)


@pytest.mark.parametrize("text, rows", [
    ("  milk   drank 1 ;; milk cat .5; ", [("milk", "drank", "1"), ("milk", "cat", ".5")]),
    ("milk drank", [("milk", "drank", "")]),
    ("milk black cat 1", [("milk", "black cat", "1")]),
    ("the(5) milk 1", [("the(5)", "milk", "1")]),
    ("", []),
])
def test_parse_is_forgiving_and_keeps_what_was_written(text, rows):
    assert targets.parse_targets(text).equals(table(*rows))


def test_apply_edits_like_the_data_editor():
    base = targets.parse_targets(DEFAULTS.targets)
    edits = {"edited_rows": {1: {"target": "2"}, 0: {"key": None}}, "deleted_rows": [2],
             "added_rows": [{"query": "milk", "key": "the (5)", "target": 0.25}, {}]}
    assert targets.apply_edits(base, edits).equals(
        table(("milk", "", "1"), ("milk", "cat", "2"), ("milk", "the (5)", "0.25"), ("", "", "")))
    assert targets.apply_edits(base, {"edited_rows": {}, "added_rows": [], "deleted_rows": []}).equals(base)


def resolve(text):
    return targets.resolve(targets.parse_targets(text), TOKENS, LABELS)


def test_resolve_default_and_row_labels():
    assert resolve(DEFAULTS.targets) == (DEFAULT_TRIPLES, [])
    assert resolve("Milk The(5) 2; the (1) CAT 0.5; ? ? ?") == ([(5, 4, 2.0), (0, 2, 0.5)], [])


PROBLEMS = [
    ("milk mlik 1", "target_unknown", {"row": 1, "word": "mlik", "words": LABELS}),
    ("milk the 1", "target_ambiguous", {"row": 1, "word": "the", "labels": ["the (1)", "the (5)"]}),
    ("milk drank 1; MILK drank 0.5", "target_duplicate", {"row": 2, "first": 1, "q": "milk", "k": "drank"}),
    ("milk drank high", "target_not_number", {"row": 1, "value": "high"}),
    ("milk drank nan", "target_not_number", {"row": 1, "value": "nan"}),
    ("milk drank inf", "target_not_number", {"row": 1, "value": "inf"}),
    ("milk drank 1; milk cat -0.5", "target_negative", {"row": 2, "value": "-0.5"}),
    ("? drank 1", "target_no_query", {"row": 1}),
    ("milk ? 1", "target_no_key", {"row": 1}),
    ("milk drank", "target_no_value", {"row": 1}),
    ("", "targets_empty", {}),
    ("? ? ?", "targets_empty", {}),
    ("milk drank 0; milk cat 0", "target_all_zero", {"q": "milk"}),
]


@pytest.mark.parametrize("text, key, values", PROBLEMS)
def test_resolve_names_each_problem(text, key, values):
    _, problems = resolve(text)
    assert problems == [(key, values)]


def test_every_problem_has_a_message_in_both_languages():
    for key in {key for _, key, _ in PROBLEMS}:
        values = {"row": 2, "word": "mlik", "words": "“milk”", "labels": "“the (1)”", "value": "-1", "first": 1,
                  "q": "milk", "k": "drank"}
        with in_language("zh"):
            chinese = t(key, **values)
        assert t(key, **values) != chinese


# --- the one 2-D projection ---

def rotating(m=11, n=3, d=6):
    """Vectors that turn from axis 0 towards axis 1 over m snapshots, so no single snapshot spans both axes."""
    angle = np.linspace(0, np.pi / 2, m)[:, None, None]
    lengths = np.arange(1, n + 1)[None, :, None]
    out = np.zeros((m, n, d))
    out[..., :1], out[..., 1:2] = lengths * np.cos(angle), lengths * np.sin(angle)
    return out


def test_plane_is_fitted_once_over_every_snapshot():
    q = rotating()
    k = -0.5 * q
    plane = fit_plane(np.concatenate([q, k], axis=1))
    assert plane.basis.shape == (6, 2) and plane.kept == pytest.approx(1.0)
    np.testing.assert_allclose(plane.basis.T @ plane.basis, np.eye(2), atol=1e-12)
    q2, k2 = project(q, plane), project(k, plane)
    assert q2.shape == k2.shape == (11, 3, 2)
    # the vectors lie in the plane, so lengths and dot products survive the projection at every snapshot
    np.testing.assert_allclose(np.linalg.norm(q2, axis=-1), np.linalg.norm(q, axis=-1))
    np.testing.assert_allclose((q2 * k2).sum(-1), (q * k).sum(-1), atol=1e-12)
    # one snapshot alone spans a single axis: a fit to it loses what the later snapshots need
    first = fit_plane(q[0])
    assert np.linalg.norm(project(q[-1], first), axis=-1).max() < 1e-9


def test_plane_is_deterministic_and_ignores_the_sign_of_the_data():
    points = np.random.default_rng(3).normal(size=(4, 5, 7))
    a, b, flipped = fit_plane(points), fit_plane(points.copy()), fit_plane(-points)
    np.testing.assert_array_equal(a.basis, b.basis)
    np.testing.assert_allclose(a.basis, flipped.basis, atol=1e-12)
    assert 0 < a.kept < 1
    assert (a.basis[np.abs(a.basis).argmax(axis=0), [0, 1]] > 0).all()


@pytest.mark.parametrize("points, kept", [(np.zeros((3, 4)), 0.0), (np.array([[2.0], [-1.0]]), 1.0)])
def test_plane_of_degenerate_points_stays_finite(points, kept):
    plane = fit_plane(points)
    assert plane.basis.shape == (points.shape[1], 2) and np.isfinite(plane.basis).all()
    assert plane.kept == kept


def test_pair_cosines():
    q = np.array([[[1.0, 0.0], [0.0, 0.0]], [[1.0, 1.0], [0.0, 2.0]]])  # [m=2, n=2, d=2]
    k = np.array([[[0.0, 3.0], [2.0, 0.0]], [[1.0, 1.0], [0.0, -1.0]]])
    np.testing.assert_allclose(pair_cosines(q, k, [0, 0, 1], [1, 0, 1]),
                               [[1.0, 0.0, 0.0], [-1 / np.sqrt(2), 1.0, -1.0]])


# --- tables and charts ---

def test_frames_are_long_form():
    loss = tables.loss_frame([3.0, 2.0], start=1)
    assert loss["step"].tolist() == [1, 2] and loss["loss"].tolist() == [3.0, 2.0]
    curves = tables.curves_frame(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), ["a → b", "a → c"], [0, 5, 10])
    assert curves["step"].tolist() == [0, 0, 5, 5, 10, 10] and curves["value"].tolist() == [1, 2, 3, 4, 5, 6]
    assert curves["pair"].tolist() == ["a → b", "a → c"] * 3
    q = rotating(m=4, n=3, d=2)
    frame = tables.plane_frame(q, -q, ["a", "b", "c"], np.array([0, 1, 2, 3]), ["a"], ["b", "c"])
    assert len(frame) == 2 * 4 * 3
    assert set(frame.loc[frame["focus"], "name"]) == {"q · a", "k · b", "k · c"}
    assert frame.groupby("role")["frame"].nunique().to_dict() == {"k": 4, "q": 4}


def test_labels_of_vectors_ending_close_together_are_kept_a_line_apart():
    q = np.array([[[1.0, 0.0], [0.5, 0.50], [0.5, 0.51], [0.0, -1.0]]])  # one snapshot: b and c end 0.01 apart
    df = tables.plane_frame(q, q, ["a", "b", "c", "d"], np.array([0]), ["a"], ["b", "c", "d"])
    gap = tables.LABEL_GAP * 1.51  # the plane spans 1.51 units (y from -1 to 0.51)
    shown = df[df["focus"]].sort_values("label_y")
    assert (np.diff(shown["label_y"]) >= gap - 1e-12).all()  # no two labels on one line
    assert (shown["label_y"] >= shown["y"]).all()  # each moved up, if at all
    far = df[df["name"].isin(["k · d", "q · a"])]
    assert (far["label_y"] == far["y"]).all()  # labels with room stay where their vector ends
    assert (df.loc[~df["focus"], "label_y"] == df.loc[~df["focus"], "y"]).all()


def test_training_tables_match_the_history():
    h = training.train(np.random.default_rng(0).normal(size=(4, 3)), [(0, 1, 1.0), (0, 2, 0.0)], steps=5)
    pairs = ["w0 → w1", "w0 → w2"]
    steps = tables.training_table(h, pairs)
    assert len(steps) == 6 * 2 and (steps.groupby("step")["loss"].first().to_numpy() == h.loss).all()
    np.testing.assert_array_equal(steps["score"].to_numpy().reshape(6, 2), h.scores)
    result = tables.targets_result(h, pairs).to_pandas()
    assert result["score_end"].tolist() == h.scores[-1].tolist() and result["goal_share"].tolist() == [1.0, 0.0]


def test_loss_curve_spans_every_step_while_drawn_live():
    spec = builders.loss_curve(tables.loss_frame([2.0, 1.0], start=1), builders.Titles("L", "step", "loss"),
                               steps=200).to_dict()
    assert spec["mark"]["type"] == "line" and spec["encoding"]["x"]["scale"]["domain"] == [0, 200]
    assert spec["encoding"]["tooltip"]


def test_pair_curves_mark_the_order_step():
    df = tables.curves_frame(np.ones((3, 2)), ["a → b", "a → c"])
    spec = builders.pair_curves(df, builders.Titles("S", "step", "score", pair="pair", marker="reached"),
                                marker=2).to_dict()
    lines, rule = spec["layer"]
    colour = lines["encoding"]["color"]
    assert colour["field"] == "pair" and colour["sort"] == ["a → b", "a → c"]
    assert rule["mark"]["type"] == "rule" and rule["mark"]["strokeDash"]
    plain = builders.pair_curves(df, builders.Titles("S", "step", "score", pair="pair")).to_dict()
    assert plain["mark"]["type"] == "line"


def plane_spec(q: np.ndarray, steps) -> dict:
    df = tables.plane_frame(q, -q, ["a", "b", "c"], np.asarray(steps), ["a"], ["b"])
    titles = builders.Titles("V", "1", "2", role="vector", word="word", step="step", slider="training step")
    return builders.vector_plane(df, titles, role_names={"q": "query", "k": "key"}, size=400).to_dict()


def test_vector_plane_scrubs_the_snapshots_on_fixed_square_axes():
    q = rotating(m=5, n=3, d=2) + [3.0, -1.0]
    df = tables.plane_frame(q, -q, ["a", "b", "c"], np.arange(0, 50, 10), ["a"], ["b"])
    spec = plane_spec(q, np.arange(0, 50, 10))
    (param,) = spec["params"]
    # the slider speaks in training steps, as the plot's "step 40" does, moving from snapshot to snapshot
    assert param["name"] == builders.SHOWN and param["value"] == 40
    assert param["bind"] == {"input": "range", "min": 0, "max": 40, "step": 10, "name": "training step"}
    text = json.dumps(spec)
    assert text.count(builders.AT_SHOWN) == 4  # arrows, points, labels, step caption
    domains = {ax: spec["layer"][3]["encoding"][ax]["scale"]["domain"] for ax in ("x", "y")}
    spans = [hi - lo for lo, hi in domains.values()]
    assert spans[0] == pytest.approx(spans[1])  # one unit is as long on both axes: angles look true
    for ax, (lo, hi) in domains.items():
        assert lo < min(0, df[ax].min()) and hi > max(0, df[ax].max())  # every frame and the origin fit
    assert spec["width"] == spec["height"] == 400 and "tooltip" in text


def test_a_step_between_uneven_snapshots_shows_the_one_taken_before_it():
    spec = plane_spec(rotating(m=4, n=3, d=2), [0, 3, 6, 8])  # a run stopped at step 8
    (param,) = spec["params"]
    assert param["bind"]["max"] == 8 and param["bind"]["step"] == 1  # every step, so each snapshot can be reached
    until = {row["step"]: row["until"] for rows in spec["datasets"].values() for row in rows if "until" in row}
    assert until == {0: 3, 3: 6, 6: 8, 8: 9}  # step 5 shows the snapshot of step 3; step 8, the last


# --- the page ---

def ok(at):
    assert not at.exception, [e.value for e in at.exception]
    return at


RANDOM_START = {"learn_start": "random"}  # the seeded random start these tests follow step by step


def trained(query=None):
    at = ok(run_page(PAGE, {**RANDOM_START, **(query or {})}))
    return ok(at.button(key="train").click().run())


def titled(at, title) -> pd.DataFrame:
    """The data of the one chart whose title is `title`."""
    wanted = f'"title": {json.dumps(title)}'
    (data,) = [df for spec, df in zip(charts(at), chart_data(at), strict=False) if wanted in json.dumps(spec)]
    return data


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
    assert sorted(start.index) == sorted(LABELS)
    assert start["drank"] > start["cat"] > start["black"]  # the learned weights in use already hold the order
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
                    fair.running.stop.wait(60)
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
                               on[t("learn_term_order")] + on[t("learn_term_sign", w=training.SIGN_WEIGHT)])


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
    step = fair.reads(treebank.LIVE.batch_words, weights.sizes("treebank")["held_out"])  # a minibatch, all held out
    bound = fair.max_steps(step, 50, DEFAULTS.d_k)
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
    banner = t("weights_run_treebank", train=2000, test=1255, acc=0.5, steps=40, lr=0.01, seed=3).split(" (")[0]
    assert any(m.value.startswith(banner) for m in at.markdown)
    ok(at.switch_page(PAGES[1]).run())
    here = factor_row(at)
    weights.FITTED.clear()  # a fresh server: nothing fitted yet
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
    df = tables.accuracy_frame([0, 1, 2], {"held-out": [0.2, np.nan, 0.4], "train": [0.1, 0.2, 0.3]})
    assert df["line"].tolist() == ["held-out", "held-out", "train", "train", "train"]
    levels = tables.levels_frame({"always the next word": 0.36, "cosine": np.nan})
    assert levels.to_dict("list") == {"name": ["always the next word"], "value": [0.36]}
    spec = builders.accuracy_curves(df, levels,
                                    builders.Titles("A", "step", "accuracy", line="sentences", level="rule"),
                                    names=["held-out", "train"], steps=300).to_dict()
    rules, labels, lines = spec["layer"]  # the lines drawn over the levels
    assert spec["title"] == "A"
    assert lines["encoding"]["x"]["scale"]["domain"] == [0, 300]
    assert lines["encoding"]["y"]["scale"]["domain"] == [0, 1] and lines["encoding"]["color"]["sort"] == ["held-out",
                                                                                                       "train"]
    assert rules["mark"]["strokeDash"] and labels["encoding"]["text"]["field"] == "name"
    assert "accuracy_curves" in builders.DATA_FREE
