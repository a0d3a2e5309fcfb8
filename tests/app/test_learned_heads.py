"""Page 6's four learned heads (engine/specialists.py) on the encoder's tab: each head's weights and lines on the
source sentence, named by what it learned, the sentences that say from their numbers where each head sends each word
(on the learner's sentence and the article's), and the slices of one head one click away, said for what they are."""
import numpy as np
import pandas as pd

from engine import specialists
from engine.pipeline import encode
from heldout.heads import POSITION, SHORT, applies
from kinds import learned
from kit.text import in_language, plain, t
from tests.app.test_three_kinds import CROSS, DEC, ENC, PAGE, no_errors, open_tab, tab_charts
from tests.apptest_helpers import chart_titles, charts, run_page, titled


def learned_lines(at) -> pd.DataFrame:
    """The data of the encoder's learned-heads view (its heatmaps and lines), with the encoder open."""
    open_tab(at, ENC)
    return titled(at, t("kinds_learned_chart"))


def markdown_text(at) -> str:
    return " ".join(m.value for m in at.markdown)


def article_numbers(kv) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The article's sentence through the learned heads, computed here: its labels, the heads' scores [H, n, n] and
    each head's pick among the other words [H, n]."""
    enc = encode(kv, learned.ARTICLE, position=POSITION)
    s = specialists.head_scores(specialists.load(), enc.x)
    return enc.labels, s, specialists.sentence_picks(s)


class TestLearnedHeads:
    def test_the_encoder_shows_the_four_learned_heads_on_the_source_sentence(self, glove):
        at = run_page(PAGE)
        no_errors(at)
        heads = specialists.load()
        assert at.button_group(key="enc_heads").value == "learned" and "enc_heads" not in at.query_params
        lines = learned_lines(at)
        names = [t(SHORT[n]) for n in heads.names]
        assert names == ["modifier head", "subject head", "object head", "conjunct head"]
        assert list(dict.fromkeys(lines.sort_values("h")["head"])) == names
        enc = encode(glove, "The ball is blue", position=POSITION)
        att = learned.heads_attention(enc.x, scale=True, softmax=True, own=False)
        for h in range(len(names)):  # each head's weights: its own W_Q, W_K on the page's words, own cells hidden
            own = lines[lines["h"] == h].sort_values(["q_pos", "k_pos"])
            np.testing.assert_allclose(own["weight"], att.weights[h][att.mask], atol=1e-12)
            np.testing.assert_allclose(own.groupby("q_pos")["weight"].sum(), 1.0, atol=1e-9)
        assert not np.allclose(att.weights[0], att.weights[2])  # the heads differ
        text = markdown_text(at)
        assert "finds a noun's modifiers" in text and "finds a verb's object" in text
        assert t("kinds_slices_note") not in [c.value for c in at.caption]

    def test_what_each_head_does_is_said_from_its_numbers(self, glove):
        """The sentence under the charts says each head's strongest pair of two different words and its score: here on
        the article's sentence typed as the source."""
        at = run_page(PAGE, {"source_sentence": learned.ARTICLE})
        no_errors(at)
        labels, s, _ = article_numbers(glove)
        text = markdown_text(at)
        for h, name in enumerate(specialists.load().names):
            hidden = np.where(np.eye(len(labels), dtype=bool), -np.inf, s[h])
            i, j = np.unravel_index(int(hidden.argmax()), hidden.shape)
            assert s[h, i, j] > 0  # on the article's sentence every head has a pair above 0
            pair = f"“{plain(labels[i])}” → “{plain(labels[j])}” ({s[h, i, j]:.2f})"
            assert f"the {t(SHORT[name])} {pair}" in text
        assert "black” → “cat”" in text and "milk” → “drank”" in text

    def test_the_articles_pairs_are_said_from_the_heads_numbers(self, glove):
        """On the article's sentence the object (or subject) head sends milk to drank, the modifier head black to cat,
        and the subject head cat to drank: what the page says, and what the numbers give when asked on their own."""
        labels, s, picks = article_numbers(glove)
        heads = specialists.load()
        text = markdown_text(run_page(PAGE))
        for q, k, by in (("milk", "drank", ("object", "subject")), ("black", "cat", ("modifiers",)),
                         ("cat", "drank", ("subject",))):
            i, j = labels.index(q), labels.index(k)
            sending = [h for h in range(len(heads.names)) if picks[h, i] == j and s[h, i, j] > 0]
            best = max(sending, key=lambda h: s[h, i, j])
            assert heads.names[best] in by, (q, k, heads.names[best])
            assert (f"the {t(SHORT[heads.names[best]])} sends “{q}” to “{k}” (q·k/√d_k = {s[best, i, j]:.2f})"
                    in text)
        assert "no head sends" not in text

    def test_slices_of_one_head_are_one_click_away_and_said_for_what_they_are(self):
        at = run_page(PAGE, {"heads": "2"})
        at.button_group(key="enc_heads").set_value("slices").run()
        no_errors(at)
        assert at.query_params["enc_heads"] == "slices"
        assert len(tab_charts(at, ENC)) == 5 + 2 + 1  # the attention view, a heatmap per slice, Z of the slices
        assert t("kinds_slices_note") in [c.value for c in at.caption]
        assert not [spec for spec in charts(at) if t("kinds_learned_chart") in chart_titles(spec)]
        fresh = run_page(PAGE, dict(at.query_params))  # the link keeps the choice
        assert fresh.button_group(key="enc_heads").value == "slices" and len(tab_charts(fresh, ENC)) == 8
        at.button_group(key="enc_heads").set_value("learned").run()
        no_errors(at)
        assert len(learned_lines(at)) and "enc_heads" not in at.query_params

    def test_the_decoder_and_cross_attention_say_where_the_learned_heads_are(self):
        at = run_page(PAGE, {"heads": "2"})
        for tab in (DEC, CROSS):
            open_tab(at, tab)
            assert t("kinds_learned_elsewhere") in [c.value for c in at.caption]
            assert t("kinds_slices_note") in [c.value for c in at.caption]

    def test_the_learned_heads_read_only_the_glove_they_were_fitted_on(self, glove, make_kv):
        from vectors.chosen import Source
        assert applies(Source("glove", len(glove), 50)) and applies(Source("glove50k", 50_000, 50))
        small = make_kv({w: np.ones(4) for w in ("the", "ball")})
        assert not applies(Source("upload", len(small), small.vector_size))

    def test_in_chinese(self):
        at = run_page(PAGE, {"lang": "zh"})
        no_errors(at)
        with in_language("zh"):
            lines = learned_lines(at)
            names = [t(SHORT[n]) for n in specialists.load().names]
            assert list(dict.fromkeys(lines.sort_values("h")["head"])) == names and "修饰语头" in names
            assert any(m.value.startswith("**在这个句子上**") for m in at.markdown)
            assert t("kinds_heads_learned") in at.button_group(key="enc_heads").options
