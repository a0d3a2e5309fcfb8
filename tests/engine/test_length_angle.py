"""What the length-and-angle sentences say, picked from the numbers: the angles and lengths named, and alignment
claimed only as far as the angle allows (pages 3, 4 and 5)."""
from types import SimpleNamespace

import numpy as np
import pytest

from engine.relevance import FAR, NEAR, degrees, length_angle, others_span, parallel
from kit.text import in_language, t
from kit.views import decides_text, span
from learning.views import came_from


def at(deg: float, length: float = 1.0) -> list[float]:
    """A 2-D key of this length at `deg` degrees from the query [1, 0]."""
    return [length * np.cos(np.radians(deg)), length * np.sin(np.radians(deg))]


Q = np.array([1.0, 0.0])


@pytest.mark.parametrize("deg, said", [(0, "aligned"), (NEAR, "aligned"), (45, "between"), (FAR, "between"),
                                       (61, "far"), (84, "far"), (89.9, "far"), (90, "past"), (150, "past")])
def test_how_near_parallel_an_angle_is(deg, said):
    assert parallel(deg) == said


def test_the_others_span_leaves_the_first_out():
    assert others_span([3.0, 9.0, 1.0, 5.0], 1) == (1.0, 5.0)
    assert span(np.array([84.2, 88.4, 97.1]), 0, "{:.0f}°") == "88°–97°"
    assert span(np.array([84.2, 109.0]), 0, "{:.0f}°") == "109°"  # one other key: one angle, not a range


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_angle_deciding_far_from_parallel_says_so_with_the_angles(lang):
    """The story's default head in miniature: the first key is the closest, at 84°, the others 88°–97°."""
    keys = ["drank", "cat", "black"]
    la = length_angle(Q, np.array([at(84), at(88), at(97)]))
    assert la.decides == "angle"
    with in_language(lang):
        said = decides_text(la, "milk", keys)
        assert said.startswith(t("la_angle", q="milk", k="drank", deg=84, degs="88°–97°"))
        assert t("la_far", q="milk", k="drank", deg=84, cos=la.cos[0]) in said
        assert "84°" in said and "88°–97°" in said
        assert t("la_aligned", q="milk", k="drank", deg=84, cos=la.cos[0]) not in said


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_only_a_small_angle_is_called_aligned(lang):
    la = length_angle(Q, np.array([at(20), at(50)]))
    with in_language(lang):
        said = decides_text(la, "milk", ["drank", "cat"])
        assert t("la_aligned", q="milk", k="drank", deg=20, cos=la.cos[0]) in said
        assert t("la_far", q="milk", k="drank", deg=20, cos=la.cos[0]) not in said
        between = decides_text(length_angle(Q, np.array([at(45), at(70)])), "milk", ["drank", "cat"])
        assert between == t("la_angle", q="milk", k="drank", deg=45, degs="70°")  # nothing said of parallel


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_length_deciding_names_the_lengths(lang):
    """The longer key wins though the other points closer: the sentence says the length decided, with |k|."""
    la = length_angle(Q, np.array([at(70, 10.0), at(40, 1.0), at(50, 2.0)]))
    assert la.decides == "length" and la.cos[1] > la.cos[0]
    with in_language(lang):
        said = decides_text(la, "milk", ["drank", "cat", "black"])
        assert said.startswith(t("la_length", k="drank", len=10.0, lens="1.00–2.00", deg=70, degs="40°–50°"))
        assert "|k| = 10.00" in said and t("la_far", q="milk", k="drank", deg=70, cos=la.cos[0]) in said
        assert said.startswith(f"**{t('la_length', k='', len=0, lens='', deg=0, degs='').split('**')[1]}**")


def test_both_and_past_ninety():
    la = length_angle(Q, np.array([at(100, 1.0), at(120, 1.0)]))
    said = decides_text(la, "milk", ["drank", "cat"])
    assert t("la_past", q="milk", k="drank", deg=100, cos=la.cos[0]) in said and "aligned" not in said
    both = length_angle(Q, np.array([[3.0, 4.0], [1.0, 0.0], [0.0, 2.0]]))  # |k| 5, 1, 2; cos θ 0.6, 1, 0
    assert both.decides == "both"
    assert decides_text(both, "milk", ["a", "b", "c"]).startswith("**Length and angle decide together.**")
    assert decides_text(length_angle(Q, np.array([at(30)])), "milk", ["a"]) == t("la_tie")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_after_training_the_reason_uses_the_angles_measured(lang):
    """Page 5's verdict: the keys by angle with their degrees, by length with |k|, and the winner's distance from
    parallel."""
    q = np.array([[[0.0, 0.0], Q]])  # [snapshots, n, d]: word 1 is the query
    k = np.array([[[0.0, 0.0], [0.0, 0.0], at(70, 10.0), at(40, 1.0)]])
    h = SimpleNamespace(q=q, k=k, targets=[(1, 2, 1.0), (1, 3, 0.0)])
    labels = ["the", "milk", "drank", "cat"]
    with in_language(lang):
        said = came_from(h, labels, cosine=False)
        angles = t("list_sep").join(["“cat” 40°", "“drank” 70°"])
        lengths = t("list_sep").join(["“drank” 10.00", "“cat” 1.00"])
        assert t("learn_came_length", q="milk", angles=angles, lengths=lengths) in said
        assert t("la_far", q="milk", k="drank", deg=70, cos=np.cos(np.radians(70))) in said
        turned = came_from(h, labels, cosine=True)  # directions only: the score is τ·cos θ, so "cat" comes first
        assert turned == "\n\n" + t("learn_came_angle", q="milk", angles=angles)  # at 40°: neither aligned nor far


def test_degrees_in_the_sentences_are_those_of_the_table():
    la = length_angle(Q, np.array([at(83.55), at(89.43)]))
    assert f"{degrees(la.cos)[0]:.0f}°" == "84°" and "84°" in decides_text(la, "milk", ["drank", "cat"])
