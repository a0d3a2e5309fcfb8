"""Pages 3, 4 and 5 say how near parallel q and k are only as far as the angles shown allow: on the default head, q of
“milk” points closer to k of “drank” than to any other key, but far from parallel; after training, the page says
which of length and angle decided, as its table does."""
import numpy as np
import pandas as pd
import pytest

from engine.relevance import FAR, decider
from kit.text import in_language, t
from kit.views import span
from tests.apptest_helpers import run_page

DOT, RELEVANCE, LEARNING = "pages/3_Dot_product.py", "pages/4_Relevance.py", "pages/5_Learning.py"


def ok(at):
    assert not at.exception, [e.value for e in at.exception]
    return at


def opened(page: str, lang: str, query: dict | None = None):
    return ok(run_page(page, {"lang": lang, **(query or {})}))


def length_angle_table(at) -> pd.DataFrame:
    """The length-and-angle view's table: one row per key, by its columns."""
    (table,) = [d.value for d in at.dataframe if {"k_len", "cos", "angle"} <= set(d.value.columns)]
    return table.reset_index(drop=True)


def decides_said(at) -> str:
    """The paragraph under the length-and-angle table."""
    heads = [t(key, q="", k="", deg=0, len=0, degs="", lens="").split("**")[1] for key in ("la_angle", "la_length",
                                                                                        "la_both")]
    (said,) = [m.value for m in at.markdown if any(m.value.startswith(f"**{head}**") for head in heads)]
    return said


def first_and_others(table: pd.DataFrame) -> tuple[int, np.ndarray]:
    """The key first by q·k, and every key's angle."""
    return int(table["dot"].to_numpy().argmax()), table["angle"].to_numpy()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", [DOT, RELEVANCE])
def test_the_default_head_is_closest_to_drank_but_far_from_parallel(page, lang):
    with in_language(lang):
        at = opened(page, lang)
        table = length_angle_table(at)
        top, deg = first_and_others(table)
        assert table["word"][top] == "drank" and deg[top] == deg.min() and deg[top] > FAR
        said = decides_said(at)
        cos = table["cos"][top]
        assert said.startswith(t("la_angle", q="milk", k="drank", deg=deg[top], degs=span(deg, top, "{:.0f}°")))
        assert f"{deg[top]:.0f}°" in said and t("la_far", q="milk", k="drank", deg=deg[top], cos=cos) in said
        assert t("la_aligned", q="milk", k="drank", deg=deg[top], cos=cos) not in said
        assert ("close to aligned" if lang == "en" else "接近对齐") not in said


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_takeaway_gives_the_raw_angles(lang):
    with in_language(lang):
        at = opened(RELEVANCE, lang)
        (ranking,) = [d.value for d in at.dataframe if "cosine" in d.value.columns]
        deg = np.degrees(np.arccos(ranking["cosine"].to_numpy()))
        top = list(ranking["word"]).index("drank")
        said = " ".join(m.value for m in at.markdown)
        assert t("relevance_takeaway", deg=deg[top], degs=span(deg, top, "{:.0f}°")) in said


KEYS = {"angle": ("la_angle", "learn_came_angle"), "length": ("la_length", "learn_came_length"),
        "both": ("la_both", "learn_came_both")}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_learning_says_training_turns_vectors_and_what_decided(lang):
    """Before training: directions only can only turn vectors. After training from the learned head, the sentences
    say which of length and angle put the keys in q·k's order, as the table's numbers decide it, with its angles and
    lengths."""
    with in_language(lang):
        at = opened(LEARNING, lang)
        assert at.toggle(key="cosine").proto.help == t("learn_directions_help")
        said = " ".join(m.value for m in at.markdown)
        assert t("learn_intro") in said and ("into line" not in said and "转到对齐" not in said)
        at = ok(at.button(key="train").click().run())
        table = length_angle_table(at)
        top, deg = first_and_others(table)
        lengths = table["k_len"].to_numpy()
        decides = decider(table["dot"].to_numpy(), lengths, table["cos"].to_numpy())
        assert table["word"][top] == "drank" and decides in KEYS
        head, verdict_key = KEYS[decides]
        said = t(head, q="milk", k="drank", len=lengths[top], lens=span(lengths, top, "{:.2f}"), deg=deg[top],
                 degs=span(deg, top, "{:.0f}°"))
        assert decides_said(at).startswith(said)
        verdict = " ".join(m.value for m in at.success)
        rows = list(zip(table["word"], deg, lengths, strict=True))
        by_angle = t("list_sep").join(f"“{w}” {d:.0f}°" for w, d, _ in sorted(rows, key=lambda row: row[1]))
        by_length = t("list_sep").join(f"“{w}” {n:.2f}" for w, _, n in sorted(rows, key=lambda row: -row[2]))
        assert t(verdict_key, q="milk", angles=by_angle, lengths=by_length) in verdict
