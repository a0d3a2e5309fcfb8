"""Causal, cross and multi-head attention against plain loops, and the three-kinds page that shows them."""

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from engine.attention import causal_mask, own_mask
from kinds.views import PREFIX
from kit.text import t
from tests.apptest_helpers import RANDOM_LAYERS, charts, csv_keys, messages, open_layers, run_page

PAGE = "pages/6_Three_kinds.py"
ENC, DEC, CROSS = range(3)  # tab order on the page
SLICES = {"enc_heads": "slices"}  # the encoder's heads as slices of the one head (its default: the learned heads)


# --- the page ---

def open_tab(at, tab: int):
    """Switch the page to one tab (only the open tab is computed and drawn) and rerun it, if it is not open yet."""
    label = at.tabs[tab].label
    if at.session_state["kinds_tab"] != label:
        at.session_state["kinds_tab"] = label
        at.run()
    return at


def tab_charts(at, tab: int) -> list[pd.DataFrame]:
    """The data of every chart in one tab, in page order, with that tab open."""
    open_tab(at, tab)
    out = []
    for c in at.tabs[tab].get("vega_lite_chart"):
        parts = [pa.ipc.open_stream(d.data.data).read_pandas() for d in c.proto.datasets]
        out.append(pd.concat(parts, ignore_index=True))
    return out


def grid(df: pd.DataFrame) -> pd.DataFrame:
    """A heatmap's long data back to a [row × col] table of values, in drawing order."""
    return df.pivot(index="row", columns="col", values="value").loc[df["row"].unique(), df["col"].unique()]


def page_text(at) -> str:
    return " ".join(m.value for m in at.markdown) + " " + messages(at)


def no_errors(at):
    assert not at.exception, [e.value for e in at.exception]


@pytest.fixture
def default_page():
    return run_page(PAGE)


def open_lines(at):
    """Open the line view of every kind (built only while open; it stays open across the tabs)."""
    for prefix in PREFIX.values():
        at.session_state[f"{prefix}lines_open"] = True
    return at.run()


class TestPage:
    def test_three_kinds_render(self, default_page):
        at = open_lines(default_page)
        no_errors(at)
        assert [tab.label for tab in at.tabs] == ["Encoder self-attention", "Decoder self-attention",
                                                   "Encoder–decoder attention"]
        src, tgt = ["the", "ball", "is", "blue"], ["la", "bola", "es", "azul"]
        for tab, (rows, cols) in zip((ENC, DEC, CROSS), ((src, src), (tgt, tgt), (tgt, src)), strict=False):
            factor, weights, bars, contrib, z, lines = tab_charts(at, tab)[:6]  # the encoder's learned heads after
            assert len(at.success) == 1  # the open kind's sum check
            assert not any(at.tabs[other].children for other in range(3) if other != tab)  # hidden tabs: not built
            assert grid(factor).shape == grid(weights).shape == (len(rows), len(cols))
            assert list(grid(factor).index) == rows and list(grid(factor).columns) == cols
            assert list(z["row"].unique()) == rows and z["col"].nunique() == 16  # one Z row per query word
            assert bars["key"].tolist() == cols
            assert contrib["key"].dropna().unique().tolist() == cols
            seen = weights[~weights["masked"]]  # the line view: a line per pair the query sees, as opaque as its weight
            assert len(lines) == len(seen) and set(lines["key"]) == set(seen["col"])
            np.testing.assert_allclose(lines.sort_values(["q_pos", "k_pos"])["weight"], seen["value"], atol=1e-12)
            np.testing.assert_array_equal(lines["opacity"], lines["weight"])

    def test_cross_attention_is_not_either_self_attention(self, default_page):
        enc, dec, cross = (grid(tab_charts(default_page, tab)[1]).to_numpy() for tab in (ENC, DEC, CROSS))
        assert not np.allclose(cross, enc) and not np.allclose(cross, dec)
        np.testing.assert_allclose(cross.sum(axis=1), 1.0, atol=1e-9)

    def test_causal_mask_flags_cells_and_switching_it_off_shows_them(self, default_page):
        at = default_page
        later = ~np.tril(np.ones((4, 4), dtype=bool)).ravel()
        own = np.eye(4, dtype=bool).ravel()  # each word's own cell is hidden by default (the first word keeps its own)
        hidden = ~own_mask(causal_mask(4, 4)).ravel()
        factor, weights = tab_charts(at, DEC)[:2]
        assert weights["masked"].to_numpy().tolist() == hidden.tolist()
        assert factor["masked"].to_numpy().tolist() == hidden.tolist()
        assert (weights.loc[weights["masked"], "value"] == 0).all()
        assert "The mask hides “azul” from “es”" in messages(at)
        assert all(df["masked"].tolist() == own.tolist() for df in tab_charts(at, ENC)[:2])
        assert not any(df["masked"].any() for df in tab_charts(at, CROSS)[:2])  # no word of its own to hide

        open_tab(at, DEC).toggle(key="causal").set_value(False).run()
        no_errors(at)
        factor_off, weights_off = tab_charts(at, DEC)[:2]
        assert weights_off["masked"].tolist() == own.tolist() and factor_off["masked"].tolist() == own.tolist()
        assert (weights_off.loc[later, "value"] > 0).all()
        np.testing.assert_allclose(factor_off["value"], factor["value"])  # Q·Kᵀ itself is unchanged
        assert "Mask off: “es” now puts" in messages(at)

    @pytest.mark.parametrize("own", [False, True], ids=["own hidden", "own shown"])
    def test_each_tab_says_what_its_mask_shows(self, own):
        """The words above the heatmaps agree with their grey cells: a word's own cell hidden or not, and a masked
        decoder's first word, which has nothing before it, keeping its own cell (all its weight on itself)."""
        at = run_page(PAGE, {"own": "1" if own else "0"})
        hidden = {}
        for tab, name in ((ENC, "enc"), (DEC, "dec")):
            weights = tab_charts(at, tab)[1]
            hidden[name] = np.diagonal(grid(weights.assign(value=weights["masked"])).to_numpy().astype(bool))
            intro = at.tabs[tab].markdown[0].value
            assert intro == t(f"{name}_intro" if own else f"{name}_intro_own_hidden")
        assert not hidden["enc"].any() and not hidden["dec"].any() if own else (
            hidden["enc"].all() and hidden["dec"][1:].all() and not hidden["dec"][0])
        assert grid(tab_charts(at, DEC)[1]).iloc[0, 0] == pytest.approx(1.0)  # "la" sees only itself either way
        assert at.toggle(key="causal").label == t("causal") and "itself" not in t("causal")

    def test_heads_switch_draws_one_grid_per_kind_and_changes_z(self):
        at = run_page(PAGE, SLICES)
        assert all(len(tab_charts(at, tab)) == 5 for tab in range(3))  # the line view is closed
        open_lines(at)
        assert all(len(tab_charts(at, tab)) == 6 for tab in range(3))  # the attention view, then the line view
        single_z = [tab_charts(at, tab)[4] for tab in range(3)]
        at.selectbox(key="heads").set_value(4).run()
        no_errors(at)
        for tab, z in zip(range(3), single_z, strict=False):
            charts = tab_charts(at, tab)
            assert len(charts) == 5 + 1 + 4 + 1  # the attention view, the line view, 4 head heatmaps, Z of the heads
            heads = [grid(df).to_numpy() for df in charts[6:10]]
            for w in heads:
                np.testing.assert_allclose(w.sum(axis=1), 1.0, atol=1e-9)
            assert not all(np.allclose(heads[0], w) for w in heads[1:])
            lines = charts[5]  # a colour per head, each head's lines its heatmap's weights
            for h, df in enumerate(charts[6:10]):
                own = lines[lines["h"] == h].sort_values(["q_pos", "k_pos"])
                np.testing.assert_allclose(own["weight"], df.loc[~df["masked"], "value"], atol=1e-12)
            z_heads = charts[10]
            assert grid(z_heads).shape == grid(z).shape
            assert not np.allclose(z_heads["value"], z["value"])
        masked = tab_charts(at, DEC)[6:10]
        assert all(df["masked"].sum() == 6 + 3 for df in masked)  # later words, and the own cells but the first
        assert len(tab_charts(at, DEC)[5]) == 4 * (16 - 9)  # no line for a masked pair
        for tab, q in ((ENC, "blue"), (DEC, "es"), (CROSS, "es")):
            focus = [m.value for m in open_tab(at, tab).markdown if m.value.startswith("For “")]
            assert len(focus) == 1 and focus[0].startswith(f"For “{q}”")

    def test_heads_that_do_not_divide_d_k_fall_back_to_one(self):
        at = run_page(PAGE, {"heads": "3"})
        no_errors(at)
        assert "3 heads cannot split d_k = 16" in messages(at)
        assert at.selectbox(key="heads").value == 1
        assert at.selectbox(key="heads").options == ["1", "2", "4", "8", "16"]
        at = run_page(PAGE, {"heads": "4", **RANDOM_LAYERS, **SLICES})  # d_k 6: nothing to fit
        assert len(tab_charts(open_layers(at), ENC)) == 5 + 4 + 1
        at.sidebar.number_input(key="d_k").set_value(6).run()
        no_errors(at)
        assert "4 heads cannot split d_k = 6" in messages(at)
        assert at.selectbox(key="heads").options == ["1", "2", "3", "6"] and at.selectbox(key="heads").value == 1
        assert len(tab_charts(at, ENC)) == 5

    def test_each_kind_keeps_its_own_query_word(self):
        at = open_tab(run_page(PAGE), DEC)
        at.selectbox(key="dec_query").set_value("la").run()
        no_errors(at)
        assert tab_charts(at, DEC)[2]["weight"].tolist()[1:] == [0, 0, 0]  # "la" sees only itself
        assert "“la” is the last" not in messages(at) and "from “la”" in messages(at)
        for tab, field, q in ((ENC, "query", "blue"), (CROSS, "cross_query", "es"), (DEC, "dec_query", "la")):
            open_tab(at, tab)
            assert at.selectbox(key=field).value == q and f"row “{q}” of Z" in at.success[0].value

    @pytest.mark.parametrize("n_s, n_t", [(1, 1), (1, 2), (2, 1), (2, 64), (64, 2), (64, 64)])
    def test_lengths(self, n_s, n_t):
        source, target = " ".join(["ball", "blue"] * 32), " ".join(["bola", "azul"] * 32)
        at = run_page(PAGE, {"source_sentence": " ".join(source.split()[:n_s]),
                             "target_sentence": " ".join(target.split()[:n_t])})
        no_errors(open_lines(at))
        for tab, (rows, cols) in zip((ENC, DEC, CROSS), ((n_s, n_s), (n_t, n_t), (n_t, n_s)), strict=False):
            factor, weights, bars, contrib, z, lines = tab_charts(at, tab)[:6]
            assert not at.error and len(at.success) == 1
            assert grid(factor).shape == (rows, cols) and len(bars) == cols and z["row"].nunique() == rows
            assert len(lines) == (~weights["masked"]).sum()  # a line per pair seen, up to 64 words
            assert np.isfinite(factor["value"]).all() and np.isfinite(z["value"]).all()

    @pytest.mark.parametrize("field, kept", [("source_sentence", DEC), ("target_sentence", ENC)])
    def test_65_tokens_is_a_message_and_the_other_sentence_still_works(self, field, kept):
        at = run_page(PAGE, {field: " ".join(["blue"] * 65)})
        no_errors(at)
        assert "65 tokens" in messages(at) and "at most 64" in messages(at)
        assert len(tab_charts(at, kept)) == 5 + (kept == ENC)  # the encoder's learned heads
        assert len(tab_charts(at, CROSS)) == 0 and "needs" in messages(at)

    def test_unknown_target_word_gets_suggestions_and_the_rest_renders(self):
        at = run_page(PAGE, {"target_sentence": "La bolaa es azul"})
        no_errors(at)
        assert "“bolaa” (did you mean" in messages(at) and "“bola”" in messages(at)
        assert all(len(tab_charts(at, tab)) == 5 + (tab == ENC) and len(at.success) == 1 for tab in (ENC, DEC, CROSS))
        assert list(grid(tab_charts(at, CROSS)[0]).index) == ["la", "es", "azul"]

    def test_typing_a_target_sentence_redraws_decoder_and_cross(self):
        at = run_page(PAGE)
        at.text_input(key="target_sentence").set_value("La bola").run()
        no_errors(at)
        assert grid(tab_charts(at, DEC)[0]).shape == (2, 2) and grid(tab_charts(at, CROSS)[0]).shape == (2, 4)
        assert grid(tab_charts(at, ENC)[0]).shape == (4, 4)
        assert at.query_params.get("target_sentence") == "La bola"

    def test_empty_or_unknown_target_keeps_the_encoder(self):
        for target in ("", "qqqzx"):
            at = run_page(PAGE, {"target_sentence": target})
            no_errors(at)
            assert len(tab_charts(at, ENC)) == 6 and not tab_charts(at, DEC) and not tab_charts(at, CROSS)

    def test_neighbours_table_lists_the_target_words(self, default_page):
        table = open_tab(default_page, CROSS).tabs[CROSS].dataframe[0].value
        assert table.iloc[:, 0].tolist() == ["la", "bola", "es", "azul"]
        assert table.iloc[:, 2].tolist()[1] in ("the", "ball", "is", "blue")

    @pytest.mark.parametrize("query", [{"q_scale": "1000000", "k_scale": "1000000", "v_scale": "1000000"},
                                       {"softmax": "0", "scaled": "0", "causal": "0"}])
    def test_extreme_settings_draw_only_finite_numbers(self, query):
        at = run_page(PAGE, {**query, "heads": "4"})
        no_errors(at)
        drawn = [df[c].dropna() for tab in range(3) for df in tab_charts(at, tab)
                 for c in ("value", "weight", "contribution", "z") if c in df]
        assert len(drawn) > 30 and all(np.isfinite(v).all() for v in drawn)

    def test_the_open_tab_stays_open_when_the_language_changes(self):
        at = open_tab(run_page(PAGE), DEC)
        at.session_state["lang"] = "zh"
        no_errors(at.run())
        assert at.session_state["kinds_tab"] == "解码器自注意力" and len(at.tabs[DEC].get("vega_lite_chart")) == 5
        assert not at.tabs[ENC].children and not at.tabs[CROSS].children

    def test_chinese(self):
        at = run_page(PAGE, {"lang": "zh", "heads": "2"})
        no_errors(at)
        assert [tab.label for tab in at.tabs] == ["编码器自注意力", "解码器自注意力", "编码器–解码器注意力"]
        assert any(m.value.startswith("对 “es” 来说") for m in open_tab(at, DEC).markdown)
        spec = str(charts(at))
        assert "遮住" in spec and "'masked'" not in spec  # the masked cells' label follows the language


class TestFactorPageAfterRefactor:
    def test_page_two_draws_the_same_block(self):
        at = run_page("pages/2_Factor_matrix.py", {"sentence": "The ball is blue"})
        no_errors(at)
        assert len(at.success) == 1
        assert at.success[0].value.startswith("Check: the contributions add up to row “blue”")
        factor, weights, bars, contrib, z = (pd.concat([pa.ipc.open_stream(d.data.data).read_pandas()
                                                        for d in c.proto.datasets]) for c in at.get("vega_lite_chart"))
        assert grid(factor).shape == (4, 4) and factor["masked"].tolist() == np.eye(4, dtype=bool).ravel().tolist()
        np.testing.assert_allclose(grid(weights).to_numpy().sum(axis=1), 1.0, atol=1e-9)
        assert not at.get("download_button")  # every download sits in a menu that builds its buttons once opened
        assert csv_keys(at) == ["dl_factor", "dl_weights", "dl_Z"]
        assert [b.key for b in at.get("download_button") if b.key.startswith("dl_reproduce")] == [
            "dl_reproduce_script", "dl_reproduce_notebook"]
        at.selectbox(key="query").set_value("ball").run()
        no_errors(at)
        assert "row “ball” of Z" in at.success[0].value
        at.toggle(key="softmax").set_value(False).run()
        no_errors(at)
        assert "row “ball” of Z" in at.success[0].value


class TestSharedTab:
    def test_a_link_opens_the_tab_it_names(self):
        at = run_page(PAGE, {"tab": "dec"})
        no_errors(at)
        assert at.session_state["kinds_tab"] == at.tabs[DEC].label and at.tabs[DEC].children
        assert not at.tabs[ENC].children

    def test_opening_a_tab_puts_it_in_the_link(self):
        at = run_page(PAGE)
        open_tab(at, CROSS)
        no_errors(at)
        assert at.query_params["tab"] == "cross"
        fresh = run_page(PAGE, dict(at.query_params))
        assert fresh.session_state["kinds_tab"] == fresh.tabs[CROSS].label


def test_the_glove_note_computes_its_numbers_and_names_its_source(glove):
    at = open_tab(run_page(PAGE), CROSS)
    (note,) = [m.value for m in at.info if m.value.startswith("**About the Spanish words.**")]
    assert f"is {glove.similarity('bola', 'ball'):.2f}, of “azul” and “blue” {glove.similarity('azul', 'blue'):.2f}" \
        in note and "In GloVe" in note
    other = open_tab(run_page(PAGE, {"source": "upload"}), CROSS)  # another source: GloVe's story is not told
    assert not [m for m in other.info if m.value.startswith("**About the Spanish words.**")]

