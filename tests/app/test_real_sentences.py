"""Page 7, real sentences: the engine's helpers on hand-made sentences, then the page in AppTest on the real GloVe and
the shipped head: it renders in both languages, draws a sentence at random or by a word, keeps it in the URL, hides
its answer until guessed, and states numbers the engine gives when asked on its own."""
import json

import numpy as np
import pandas as pd
import pytest

from engine import minilm_treebank, treebank
from engine.attention import attend, top_keys
from engine.fit import load_fit
from engine.pipeline import encode
from engine.positional import WEIGHT
from heldout import sentences
from kit.text import in_language, t
from real.settings import held_out_ids
from tests.apptest_helpers import (
    RANDOM_LAYERS,
    chart_data,
    chart_titles,
    charts,
    check,
    deferred,
    messages,
    open_menus,
    run_page,
)

PAGE = "pages/7_Real_sentences.py"


def ok(at):
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def sentence(tokens: str, heads: str, relations: str, sent_id: str = "s") -> treebank.Sentence:
    return treebank.Sentence("test", sent_id, tuple(tokens.split()), tuple(map(int, heads.split())),
                             tuple(relations.split()))


# --- engine ---

CAT = sentence("the black cat drank the milk .", "3 3 4 0 6 4 4", "det amod nsubj root det obj punct")
DOG = sentence("a dog saw the cat", "2 3 0 5 3", "det nsubj root det obj", "dog")


@pytest.fixture
def small(make_kv):
    words = ["the", "black", "cat", "drank", "milk", ".", "a", "dog", "saw"]
    rng = np.random.default_rng(0)
    return make_kv({w: rng.normal(size=4) for w in words})


def test_gold_heads_skip_the_root_and_punctuation():
    assert treebank.gold(CAT).tolist() == [2, 2, 3, -1, 5, 3, -1]
    assert treebank.short("nsubj:pass") == "nsubj" and treebank.short("nmod:poss") == "nmod:poss"


def test_sentences_containing_every_word_asked_for():
    assert treebank.containing([CAT, DOG], ["cat"]) == [CAT, DOG]
    assert treebank.containing([CAT, DOG], ["the", "dog"]) == [DOG]
    assert treebank.containing([CAT, DOG], ["zebra"]) == []


def test_best_offset_per_relation_by_hand(small):
    b = treebank.batch(small, [CAT, DOG], 0.0)
    found = treebank.best_offsets(b)
    # det: the→cat (+2), the→milk (+1), a→dog (+1), the→cat (+1): +1 gets 3 of 4
    # nsubj: cat→drank (+1), dog→saw (+1); obj: milk→drank (-2), cat→saw (-2); amod: black→cat (+1)
    assert found == {"det": (1, 0.75), "nsubj": (1, 1.0), "obj": (-2, 1.0), "amod": (1, 1.0)}
    for rel, (offset, acc) in found.items():  # the same as trying every offset on its own
        per = {o: treebank.by_relation(b, treebank.offset_pick(b, o))[rel][1] for o in range(-5, 6) if o}
        assert acc == max(per.values()) == per[offset]


def test_top_key_may_include_the_word_itself_only_when_asked(small):
    b = treebank.batch(small, [CAT], 0.0)
    s = np.zeros((1, 7, 7))
    s[0, np.arange(7), np.arange(7)] = 5.0  # every word scores itself highest
    s[0, :, 0] = 1.0
    assert (treebank.top_key(b, s, own=True)[0] == np.arange(7)).all()
    others = treebank.top_key(b, s)[0]
    assert others[0] != 0 and (others[1:] == 0).all()


def test_top_keys_of_one_sentence_match_the_batch(small):
    w = np.random.default_rng(1).normal(size=(4, 3))
    b = treebank.batch(small, [CAT], WEIGHT)
    enc = encode(small, " ".join(CAT.tokens), position=WEIGHT)
    att = attend(enc.x, enc.x, w, w[:, ::-1], w, own=False)
    np.testing.assert_allclose(enc.x, b.x[0])
    assert (top_keys(att) == treebank.top_key(b, treebank.scores(b, w, w[:, ::-1])[2])[0]).all()


# --- the page ---

def spec_of(at, builder_title: str) -> tuple[dict, object]:
    """The spec and data of the one chart whose spec holds this title."""
    wanted = json.dumps(builder_title, ensure_ascii=False)
    (found,) = [(spec, data) for spec, data in zip(charts(at), chart_data(at), strict=False)
                if wanted in json.dumps(spec, ensure_ascii=False) or builder_title in chart_titles(spec)]
    return found


def shown_sentence(at, lang: str = "en") -> str:
    """The held-out sentence the page shows: its id."""
    with in_language(lang):
        start = t("real_sentence", n=0, id="", text="")[:8]
        (line,) = [m.value for m in at.markdown if m.value.startswith(start)]
        return line.split("`")[1]


@pytest.fixture(scope="module")
def held():
    """The held-out sentences GloVe knows, batched, and the shipped head's picks: computed here, not by the page."""
    from vectors.chosen import glove
    kv = glove()
    found = treebank.known(kv, treebank.split(treebank.read(), "test"))
    b = treebank.batch(kv, found, WEIGHT)
    fit = load_fit(treebank.SHIPPED)
    return kv, found, b, treebank.top_key(b, treebank.scores(b, fit.w_q, fit.w_k)[2])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_renders_its_three_charts_in_both_languages(lang):
    with in_language(lang):
        at = ok(run_page(PAGE, {"lang": lang}))
        assert at.title[0].value == t("real_title")
        assert shown_sentence(at, lang) == sentences.DEFAULT
        specs = charts(at)
        assert len(specs) == 3
        lines, _ = spec_of(at, t("real_lines_title"))
        assert len(lines["hconcat"]) == 5
        stroke = lines["hconcat"][3]["encoding"]["stroke"]
        assert stroke["scale"]["domain"] == [t(f"real_line_{k}") for k in ("gold", "right", "wrong")]
        dash = lines["hconcat"][3]["encoding"]["strokeDash"]["scale"]["range"]
        assert dash[1] != dash[2]  # wrong is dashed, not only red
        bars, _ = spec_of(at, t("real_rel_chart"))
        colour = bars["vconcat"][0]["layer"][0]["encoding"]["color"]
        assert colour["scale"]["domain"] == [t("real_rel_head"), t("real_rel_offset")]
        assert t("real_key_chart") in json.dumps(specs, ensure_ascii=False)
        assert not messages(at)


def test_lines_and_table_show_each_words_head_and_top_key(held):
    kv, found, b, picked = held
    at = ok(run_page(PAGE))
    i = [s.sent_id for s in found].index(sentences.DEFAULT)
    s = found[i]
    n, head = len(s.tokens), treebank.gold(s)
    _, frame = spec_of(at, t("real_lines_title"))
    words = frame[frame["kind"] == "word"].sort_values("q_pos")
    assert words["query"].tolist() == list(s.tokens)  # no word repeats in it, so each label is the word
    gold = frame[frame["kind"] == "gold"].set_index("q_pos")["k_pos"]
    assert {q: k for q, k in gold.items()} == {q: int(h) for q, h in enumerate(head) if h >= 0}
    tops = frame[frame["kind"].isin(["right", "wrong"])].set_index("q_pos")
    for q, row in tops.iterrows():
        assert row["k_pos"] == picked[i, q]  # the page's pick is the held-out batch's
        assert (row["kind"] == "right") == (picked[i, q] == head[q])
        assert words.set_index("q_pos").loc[q, "mark"] == ("✓" if picked[i, q] == head[q] else "✗")
    table = at.dataframe[0].value
    assert table["right"].tolist() == [t("real_right") if picked[i, q] == head[q] else t("real_wrong") if head[q] >= 0
                                       else "" for q in range(n)]
    right = int((picked[i, :n] == head)[head >= 0].sum())
    assert f"**{right} of {int((head >= 0).sum())}**" in " ".join(m.value for m in at.markdown)


def relations_shown(at) -> pd.DataFrame:
    """The page's table of relations, the head's and the offset's shares given back as fractions (the page shows them
    in percent)."""
    table = at.dataframe[1].value.set_index("relation")
    table[["head", "offset_accuracy"]] /= 100
    return table


def test_per_relation_table_equals_the_engine_asked_on_its_own(held):
    kv, found, b, picked = held
    at = ok(run_page(PAGE))
    table = relations_shown(at)
    assert set(sentences.RELATIONS) >= {"det", "amod", "nsubj", "obj", "obl", "case", "nmod:poss", "advmod", "aux",
                                   "compound"}
    assert table.index.tolist() == list(sentences.RELATIONS)
    expected = treebank.by_relation(b, picked)
    has = b.head >= 0
    for rel in sentences.RELATIONS:
        count, acc = expected[rel]
        assert table.loc[rel, "count"] == count and table.loc[rel, "head"] == pytest.approx(acc, abs=1e-12)
        per = {o: float((treebank.offset_pick(b, o) == b.head)[has & (b.relation == rel)].mean())
               for o in range(-5, 6) if o}
        assert table.loc[rel, "offset_accuracy"] == pytest.approx(max(per.values()), abs=1e-12)
        assert per[int(table.loc[rel, "offset"])] == max(per.values())
    overall = float((picked == b.head)[has].mean())
    said = " ".join(m.value for m in at.markdown)
    assert f"{has.sum():,} words" in said and f"**{overall:.0%}**" in said and f"{len(found):,} held-out" in said
    _, bars = spec_of(at, t("real_rel_chart"))
    head_bars = bars[bars["s"] == 0].set_index("r")["accuracy"]
    assert head_bars.tolist() == pytest.approx(table["head"].tolist(), abs=1e-12)


def test_per_relation_table_sets_the_real_transformer_and_bert_base_beside_the_weights():
    at = ok(run_page(PAGE))
    table = relations_shown(at)
    counts = pd.read_csv(minilm_treebank.SHIPPED, comment="#").set_index("relation")
    for rel in sentences.RELATIONS:  # each relation's best of the 72 heads, the first on a tie
        shares = counts.loc[rel].drop("count") / counts.loc[rel, "count"]
        assert table.loc[rel, "minilm"] == f"{shares.max():.1%}"
        assert table.loc[rel, "minilm_head"] == shares.idxmax()
    assert (table.loc["obj", "minilm_head"], table.loc["det", "minilm_head"]) == ("L3-H1", "L3-H9")
    assert table.loc["obj", "bert"] == "86.8%" and table.loc["obj", "bert_head"] == "dobj"
    assert table.loc["det", "bert"] == "94.3%" and table.loc["compound", "bert_head"] == "nn"
    none = ["case", "cop", "cc", "obl", "nmod", "conj"]  # not in Clark et al.
    assert (table.loc[none, ["bert", "bert_head"]] == "—").all(axis=None)
    assert "1,255 held-out sentences" in " ".join(c.value for c in at.caption)


def test_the_relation_chart_follows_the_weights():
    default = ok(run_page(PAGE)).dataframe[1].value
    rand = ok(run_page(PAGE, {"q_preset": "random", "k_preset": "random"})).dataframe[1].value
    assert (default["offset_accuracy"] == rand["offset_accuracy"]).all()  # the baseline reads no weights
    assert not (default["head"] == rand["head"]).all()


def test_random_button_changes_the_sentence_and_the_url_reproduces_it():
    at = ok(run_page(PAGE))
    before = shown_sentence(at)
    ok(at.button[0].click().run())
    drawn = shown_sentence(at)
    assert drawn != before and drawn in held_out_ids()
    assert at.query_params["real"] == drawn
    again = ok(run_page(PAGE, dict(at.query_params)))
    assert shown_sentence(again) == drawn
    assert [df.to_dict() for df in chart_data(again)] == [df.to_dict() for df in chart_data(at)]


def test_search_lists_the_sentences_holding_the_word(held):
    kv, found, _, _ = held
    at = ok(run_page(PAGE))
    ok(at.text_input(key="real_find").input("Service").run())
    holding = [s.sent_id for s in found if "service" in s.tokens]
    assert len(holding) > 1
    assert t("real_found", n=len(holding), words="“service”") in [m.value for m in at.success]
    box = at.selectbox(key="real")
    assert box.options == [" ".join(s.tokens) for s in found if s.sent_id in holding][:sentences.HITS]
    assert shown_sentence(at) in holding and at.query_params["real_find"] == "Service"
    ok(box.select_index(1).run())
    assert shown_sentence(at) == holding[1] and at.query_params["real"] == holding[1]
    ok(at.button[0].click().run())  # at random, but among the sentences found
    assert shown_sentence(at) in holding


@pytest.mark.parametrize("text, words", [
    ("zebra", ["No held-out sentence contains “zebra”", "Words near it that do occur"]),
    ("mlik", ["“mlik”", "milk", "Not in the vocabulary"]),
    ("猫", ["“猫”", "Not in the vocabulary"]),
    ("   ", []),
    ("cat zebra", ["No held-out sentence contains “cat”, “zebra”"]),
    ("🐱 <b>", ["Not in the vocabulary"]),
])
def test_a_search_with_no_hits_says_so_in_one_sentence(text, words):
    at = ok(run_page(PAGE))
    before = shown_sentence(at)
    ok(at.text_input(key="real_find").input(text).run())
    said = messages(at)
    assert all(w in said for w in words), said
    assert len([m for kind in (at.info, at.warning) for m in kind]) == (1 if words else 0)
    assert shown_sentence(at) == before and len(charts(at)) == 3


def test_an_unknown_id_in_the_link_gets_the_notice_and_the_default_sentence():
    train = next(s.sent_id for s in treebank.read() if s.split == "train")
    at = run_page(PAGE, {"real": train})
    assert not at.exception
    notice = " ".join(w.value for w in at.warning)
    assert f"real={train[:60]}" in notice and t("url_held_out") in notice
    assert shown_sentence(at) == sentences.DEFAULT and "real" not in at.query_params


def test_a_sentence_the_vectors_do_not_know_falls_back_with_a_sentence():
    from vectors.chosen import glove
    small = glove(50_000)
    unknown = next(s.sent_id for s in treebank.split(treebank.read(), "test")
                   if not all(w in small.key_to_index for w in s.tokens))
    at = ok(run_page(PAGE, {"source": "glove50k", "real": unknown, **RANDOM_LAYERS}))
    assert t("real_unknown_sentence") in messages(at) and shown_sentence(at) != unknown


def test_predict_first_hides_the_answer_until_guessed():
    at = ok(run_page(PAGE, {"predict": "1"}))
    (guess,) = at.radio
    assert guess.label == t("predict_ask", q="the")
    assert len(charts(at)) == 1 and not any(t("real_lines_title") in json.dumps(s) for s in charts(at))
    assert len(at.dataframe) == 1  # only the held-out relations, which say nothing of this sentence
    assert t("predict_hidden") in messages(at)
    guess.set_value("risk")
    ok(check(at))
    assert len(charts(at)) == 3 and len(at.dataframe) == 2
    verdict = " ".join(m.value for kind in (at.success, at.warning) for m in kind)
    assert "“conference” gets the most attention" in verdict  # the held-out batch's pick for "the", below
    assert t("real_gold_said", q="the", h="conference", rel="det") in [m.value for m in at.markdown]
    assert verdict.startswith(t("predict_wrong", guess="risk", k="conference"))
    ok(at.selectbox(key="real_key").select("week").run())  # another key word: the guess stands
    assert len(charts(at)) == 3 and at.radio[0].value == "risk"


def test_same_key_bars_are_the_key_column_of_the_scores(held):
    kv, found, _, _ = held
    at = ok(run_page(PAGE))
    s = next(x for x in found if x.sent_id == sentences.DEFAULT)
    fit = load_fit(treebank.SHIPPED)
    enc = encode(kv, " ".join(s.tokens), position=WEIGHT)
    att = attend(enc.x, enc.x, fit.w_q, fit.w_k, fit.w_q, own=False)
    key = at.selectbox(key="real_key").value
    assert key == "met"  # the word most others belong to
    j = enc.labels.index(key)
    _, bars = spec_of(at, t("real_key_chart"))
    scores = bars.set_index("key")["score"]
    for i, label in enumerate(enc.labels):
        if i != j:
            shown = f"{label} ●" if treebank.gold(s)[i] == j else label
            assert scores[shown] == pytest.approx(att.scores[i, j], abs=1e-9)
    assert key not in scores.index  # its own cell is hidden
    hi, lo = scores.idxmax().removesuffix(" ●"), scores.idxmin().removesuffix(" ●")
    said = " ".join(m.value for m in at.markdown)
    assert t("real_key_said", k=key, hi=hi, hi_v=scores.max(), lo=lo, lo_v=scores.min()) in said
    ok(at.selectbox(key="real_key").select("conference").run())
    _, moved = spec_of(at, t("real_key_chart"))
    assert not moved.equals(bars) and at.query_params["real_key"] == "conference"


def test_scaling_and_softmax_change_the_numbers_but_not_the_picks():
    on = ok(run_page(PAGE))
    off = ok(run_page(PAGE, {"scaled": "0", "softmax": "0"}))
    a, b = on.dataframe[0].value, off.dataframe[0].value
    assert (a["top"] == b["top"]).all() and not np.allclose(a["top_weight"], b["top_weight"])


def test_the_script_prints_the_numbers_the_page_shows(monkeypatch, tmp_path):
    from tests.app.test_reproduce import run_script
    kept = deferred(monkeypatch)
    at = ok(open_menus(run_page(PAGE)))
    text = kept["attention-real.py"][0]()
    s = next(x for x in treebank.read() if x.sent_id == sentences.DEFAULT)
    assert repr(" ".join(s.tokens)) in text and "W_Q = np.array([" in text and t("real_title") in text
    out = run_script(text, tmp_path)
    labels, weights = out["weights"]
    table = at.dataframe[0].value
    assert labels == table["word"].tolist()
    np.testing.assert_allclose(weights.max(axis=1), table["top_weight"], rtol=1e-9, atol=1e-9)
    assert [labels[j] for j in weights.argmax(axis=1)] == table["top"].tolist()
    _, bars = spec_of(at, t("real_key_chart"))
    scores = bars.set_index("key")["score"]
    met = labels.index("met")
    column = {w: out["scores"][1][i, met] for i, w in enumerate(labels) if i != met}
    assert {w.removesuffix(" ●"): v for w, v in scores.items()} == pytest.approx(column, abs=1e-9)


def test_a_challenge_link_asks_about_the_same_sentence_with_the_answer_hidden():
    from urllib.parse import parse_qs, urlparse
    at = ok(run_page(PAGE))
    ok(at.button[0].click().run())
    at.session_state["challenge_open"] = True
    (link,) = ok(at.run()).sidebar.code
    shared = {k: v[0] for k, v in parse_qs(urlparse(link.value).query).items()}
    assert shared["predict"] == "1" and shared["real"] == shown_sentence(at)
    student = ok(run_page(PAGE, shared))
    assert shown_sentence(student) == shared["real"] and student.radio and student.radio[0].value is None
    assert not any(t("real_lines_title") in json.dumps(s) for s in charts(student)) and len(student.dataframe) == 1
