"""Every score on pages 2 to 5 says what it is: a header, axis, legend or tooltip over q·k/√d_k names it q·k/√d_k,
one over q·k itself names it q·k and claims no scaling, in both languages. Which quantity a column holds is read from
its numbers, not from its name, so a misnamed one fails."""
import json
import re

import numpy as np
import pytest

from kit.text import in_language, t
from tests.apptest_helpers import chart_data, charts, check, run_page

FACTOR, DOT, RELEVANCE, LEARNING = ("pages/2_Factor_matrix.py", "pages/3_Dot_product.py", "pages/4_Relevance.py",
                                    "pages/5_Learning.py")
SETTINGS = {"scaled": {}, "unscaled": {"scaled": "false", "softmax": "false"}}
# what each page must show under each settings: the test is empty without them
# (training always divides by √d_k, whatever page 2's switch says)
EXPECTED = {("scaled", FACTOR): {"raw", "scaled"}, ("scaled", DOT): {"raw"}, ("scaled", RELEVANCE): {"raw", "scaled"},
            ("scaled", LEARNING): {"scaled"}, ("unscaled", FACTOR): {"raw"}, ("unscaled", DOT): {"raw"},
            ("unscaled", RELEVANCE): {"raw"}, ("unscaled", LEARNING): {"scaled"}}


def encodings(spec, found: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Every (field, title) of a Vega-Lite spec's encodings, tooltips too; a field without a title is shown by its
    field name."""
    if isinstance(spec, list):
        for part in spec:
            encodings(part, found)
    elif isinstance(spec, dict):
        for key, value in spec.items():
            if key == "encoding":
                for channel in value.values():
                    for one in channel if isinstance(channel, list) else [channel]:
                        if isinstance(one, dict) and isinstance(one.get("field"), str):
                            found.append((one["field"], one.get("title", one["field"])))
                        encodings(one, found)
            else:
                encodings(value, found)
    return found


def shown(at) -> list[tuple[str, np.ndarray]]:
    """Every name a learner reads over numbers on the page, with those numbers: each chart's encoded fields, each
    data frame's columns (their labels) and each static table's columns."""
    out = []
    for spec, data in zip(charts(at), chart_data(at), strict=True):
        out += [(title, data[field].to_numpy()) for field, title in encodings(spec, [])
                if field in data and data[field].dtype.kind == "f"]
    for frame in at.dataframe:
        labels, data = json.loads(frame.proto.columns), frame.value
        out += [(labels.get(c, {}).get("label", c), data[c].to_numpy()) for c in data if data[c].dtype.kind == "f"]
    for table in at.table:
        data = table.value
        out += [(str(c), data[c].to_numpy()) for c in data if data[c].dtype.kind == "f"]
    return out


def among(values: np.ndarray, reference: np.ndarray) -> bool:
    """Whether every number is one of the reference numbers (to rounding), with at least two different ones."""
    v = values[np.isfinite(values)]
    if len(np.unique(v.round(9))) < 2:
        return False
    return bool(np.all(np.isclose(v[:, None], reference[None, :], rtol=1e-9, atol=1e-12).any(axis=1)))


def kinds(at, raw: np.ndarray, root_d_k: float) -> list[tuple[str, str]]:
    """(kind, name) of every shown column that holds q·k ('raw') or q·k/√d_k ('scaled') and nothing else."""
    found = []
    for name, values in shown(at):
        is_raw, is_scaled = among(values, raw), among(values, raw / root_d_k)
        if is_raw != is_scaled:
            found.append(("raw" if is_raw else "scaled", name))
    return found


def factor_chart(at):
    """The data of page 2's factor matrix F = Q·Kᵀ, one row per cell, as its heatmap holds it."""
    return next(d for s, d in zip(charts(at), chart_data(at), strict=True)
                if t("factor_m") in json.dumps(s, ensure_ascii=False))


def factor_cells(at) -> np.ndarray:
    """Every cell of page 2's factor matrix."""
    return factor_chart(at)["value"].to_numpy()


def root_d_k(at) -> float:
    """√d_k as page 2 divides by it: its shift table's second column over the factor matrix's cells of the query's
    row (the query is the sentence's last word, "milk")."""
    table = at.table[0].value
    key, score = table.columns[0], table.columns[1]
    data = factor_chart(at)
    row = data[data["row"] == "milk"].set_index("col")["value"]
    ratios = row[table[key]].to_numpy() / table[score].to_numpy()
    assert np.allclose(ratios, ratios[0]) and ratios[0] > 1
    return float(ratios[0])


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("setting", list(SETTINGS))
def test_every_score_says_whether_it_is_divided_by_root_d_k(lang, setting):
    query = {"lang": lang, **SETTINGS[setting]}
    with in_language(lang):
        factor = run_page(FACTOR, {"lang": lang})
        raw, root = factor_cells(factor), root_d_k(factor)
        scaled_name, raw_name = t("qk_scaled"), t("qk_raw")
        assert abs(root - 4.0) < 1e-9  # d_k = 16 by default: milk · drank is 3.17 in F, 0.7922 once scaled
        for page in (FACTOR, DOT, RELEVANCE, LEARNING):
            found = kinds(run_page(page, query), raw, root)
            assert {kind for kind, _ in found} >= EXPECTED[setting, page], (page, found)
            for kind, name in found:
                if kind == "scaled":
                    assert scaled_name in name, (page, name)
                else:
                    assert raw_name in name and "√" not in name, (page, name)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_training_tables_scores_say_they_are_scaled(lang):
    with in_language(lang):
        raw, root = factor_cells(factor := run_page(FACTOR, {"lang": lang})), root_d_k(factor)
        at = run_page(LEARNING, {"lang": lang, "steps": "20"})
        at = at.button(key="train").click().run()
        assert not at.exception
        found = kinds(at, raw, root)
        start = t("learn_score_start", score=t("learn_score"))
        assert ("scaled", start) in found  # the run starts from the weights in use: their q·k/√d_k
        assert all(t("qk_scaled") in name for kind, name in found if kind == "scaled"), found
        assert all("√" not in name for kind, name in found if kind == "raw"), found
        turning = [(spec, data) for spec, data in zip(charts(at), chart_data(at), strict=True)
                   if ("angle", t("learn_angle")) in encodings(spec, [])]  # the cosines per step, and their angles
        assert len(turning) == 1
        cosines = turning[0][1].dropna(subset=["angle"])  # the marker's rule has no angle
        assert len(cosines) and np.allclose(np.cos(np.radians(cosines["angle"])), cosines["value"])


def test_the_angle_stands_next_to_its_cosine():
    at = run_page(DOT)
    table = at.dataframe[-1]
    labels, data = json.loads(table.proto.columns), table.value
    assert [labels[c]["label"] for c in ("cos", "angle")] == ["cos θ", "θ"] and labels["angle"]["type_config"][
        "format"].endswith("°")
    assert np.allclose(np.cos(np.radians(data["angle"])), data["cos"])
    assert list(labels).index("angle") == list(labels).index("cos") + 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_reveal_says_the_angle_in_degrees_next_to_its_cosine(lang):
    at = run_page(FACTOR, {"lang": lang, "predict": "1"})
    next(r for r in at.radio if r.key.startswith("_guess_")).set_value("cat")
    at = check(at)
    said = " ".join(m.value for m in (*at.success, *at.warning))
    found = re.search(r"(-?\d\.\d\d)[,，(（ ]*θ = (\d+)°", said)
    assert found, said
    cos, deg = float(found[1]), int(found[2])
    assert abs(np.degrees(np.arccos(cos)) - deg) <= 1, said
