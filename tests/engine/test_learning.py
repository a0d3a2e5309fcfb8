"""Page 5's parts as pure functions: the targets' text, table and problems, the plane the vectors turn in, the tables
and charts of a run."""
import json

import numpy as np
import pandas as pd
import pytest

from engine import training
from engine.projection import fit_plane, pair_cosines, project
from kit.charts import Titles
from kit.text import in_language, t
from learning import charts as builders
from learning import targets
from learning.tables import (
    LABEL_GAP,
    curves_frame,
    loss_frame,
    plane_frame,
    targets_result,
    training_table,
)
from lesson.settings import DEFAULTS

TOKENS = ["the", "black", "cat", "drank", "the", "milk"]
LABELS = ["the (1)", "black", "cat", "drank", "the (5)", "milk"]
DEFAULT_TRIPLES = [(5, 3, 1.0), (5, 2, 0.5), (5, 1, 0.0)]  # milk -> drank 1, cat 0.5, black 0


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


def test_frames_are_long_form():
    loss = loss_frame([3.0, 2.0], start=1)
    assert loss["step"].tolist() == [1, 2] and loss["loss"].tolist() == [3.0, 2.0]
    curves = curves_frame(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), ["a → b", "a → c"], [0, 5, 10])
    assert curves["step"].tolist() == [0, 0, 5, 5, 10, 10] and curves["value"].tolist() == [1, 2, 3, 4, 5, 6]
    assert curves["pair"].tolist() == ["a → b", "a → c"] * 3
    q = rotating(m=4, n=3, d=2)
    frame = plane_frame(q, -q, ["a", "b", "c"], np.array([0, 1, 2, 3]), ["a"], ["b", "c"])
    assert len(frame) == 2 * 4 * 3
    assert set(frame.loc[frame["focus"], "name"]) == {"q · a", "k · b", "k · c"}
    assert frame.groupby("role")["frame"].nunique().to_dict() == {"k": 4, "q": 4}


def test_labels_of_vectors_ending_close_together_are_kept_a_line_apart():
    q = np.array([[[1.0, 0.0], [0.5, 0.50], [0.5, 0.51], [0.0, -1.0]]])  # one snapshot: b and c end 0.01 apart
    df = plane_frame(q, q, ["a", "b", "c", "d"], np.array([0]), ["a"], ["b", "c", "d"])
    gap = LABEL_GAP * 1.51  # the plane spans 1.51 units (y from -1 to 0.51)
    shown = df[df["focus"]].sort_values("label_y")
    assert (np.diff(shown["label_y"]) >= gap - 1e-12).all()  # no two labels on one line
    assert (shown["label_y"] >= shown["y"]).all()  # each moved up, if at all
    far = df[df["name"].isin(["k · d", "q · a"])]
    assert (far["label_y"] == far["y"]).all()  # labels with room stay where their vector ends
    assert (df.loc[~df["focus"], "label_y"] == df.loc[~df["focus"], "y"]).all()


def test_training_tables_match_the_history():
    h = training.train(np.random.default_rng(0).normal(size=(4, 3)), [(0, 1, 1.0), (0, 2, 0.0)], steps=5)
    pairs = ["w0 → w1", "w0 → w2"]
    steps = training_table(h, pairs)
    assert len(steps) == 6 * 2 and (steps.groupby("step")["loss"].first().to_numpy() == h.loss).all()
    np.testing.assert_array_equal(steps["score"].to_numpy().reshape(6, 2), h.scores)
    result = targets_result(h, pairs).to_pandas()
    assert result["score_end"].tolist() == h.scores[-1].tolist() and result["goal_share"].tolist() == [1.0, 0.0]


def test_loss_curve_spans_every_step_while_drawn_live():
    spec = builders.loss_curve(loss_frame([2.0, 1.0], start=1), Titles("L", "step", "loss"),
                               steps=200).to_dict()
    assert spec["mark"]["type"] == "line" and spec["encoding"]["x"]["scale"]["domain"] == [0, 200]
    assert spec["encoding"]["tooltip"]


def test_pair_curves_mark_the_order_step():
    df = curves_frame(np.ones((3, 2)), ["a → b", "a → c"])
    spec = builders.pair_curves(df, Titles("S", "step", "score", pair="pair", marker="reached"),
                                marker=2).to_dict()
    lines, rule = spec["layer"]
    colour = lines["encoding"]["color"]
    assert colour["field"] == "pair" and colour["sort"] == ["a → b", "a → c"]
    assert rule["mark"]["type"] == "rule" and rule["mark"]["strokeDash"]
    plain = builders.pair_curves(df, Titles("S", "step", "score", pair="pair")).to_dict()
    assert plain["mark"]["type"] == "line"


def plane_spec(q: np.ndarray, steps) -> dict:
    df = plane_frame(q, -q, ["a", "b", "c"], np.asarray(steps), ["a"], ["b"])
    titles = Titles("V", "1", "2", role="vector", word="word", step="step", slider="training step")
    return builders.vector_plane(df, titles, role_names={"q": "query", "k": "key"}, size=400).to_dict()


def test_vector_plane_scrubs_the_snapshots_on_fixed_square_axes():
    q = rotating(m=5, n=3, d=2) + [3.0, -1.0]
    df = plane_frame(q, -q, ["a", "b", "c"], np.arange(0, 50, 10), ["a"], ["b"])
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
