"""Page 8's parts without a page: every head as one grid of small heatmaps (its table and its chart), the word pieces,
and for each word the heads that find its head."""
import numpy as np
import pytest

from engine import minilm
from engine.attention import lead
from kit import charts, render
from transformer import charts as transformer_charts
from transformer import tables

NAMES = np.array([f"L{i + 1}-H{h + 1}" for i in range(6) for h in range(12)], dtype=object).reshape(6, 12)
SPECIAL = ("[CLS]", "[SEP]")


def attention(m: int, seed: int = 0) -> np.ndarray:  # -> [6, 12, m, m + 2], each row summing to 1
    return np.random.default_rng(seed).dirichlet(np.full(m + 2, 0.3), size=(6, 12, m))


def head_grid(words=("the", "cat", "drank"), picked=(0, 1)):
    """A sample of the chart, for tests/engine/test_charts.py's shared checks."""
    w = attention(len(words), len(words))
    boxes, cells = tables.grid_table(w, list(words), SPECIAL, picked, w[..., len(words):].sum(-1).mean(-1),
                                     np.full((6, 12), 0.25), NAMES)
    return transformer_charts.head_grid(render.as_frame(boxes), render.as_frame(cells), charts.Titles(
        None, "head", "layer", "weight", head="head", query="query", key="key", parked="parked", held="held"))


def test_the_grid_has_a_box_per_head_and_a_cell_per_weight_from_shown_up():
    w = attention(5)
    boxes, cells = (x.to_pandas() for x in tables.grid_table(w, ["a", "b", "c", "d", "e"], SPECIAL, (2, 8),
                                                             w[..., 5:].sum(-1).mean(-1), np.full((6, 12), 0.5), NAMES))
    assert boxes["head"].tolist() == NAMES.ravel().tolist() and boxes["picked"].sum() == 1
    assert boxes[boxes["picked"]]["head"].item() == "L3-H9"
    assert boxes["parked"].tolist() == pytest.approx(w[..., 5:].sum(-1).mean(-1).ravel().tolist())
    assert len(cells) == (w >= tables.SHOWN).sum() and (cells["weight"] >= tables.SHOWN).all()
    kept = w.copy()
    kept[kept < tables.SHOWN] = 0
    for name, group in cells.groupby("head"):  # each head's cells hold its weights, query by key
        layer, head = np.argwhere(NAMES == name)[0]
        keys = ["a", "b", "c", "d", "e", *SPECIAL]
        got = np.zeros((5, 7))
        for _, c in group.iterrows():
            got["abcde".index(c["query"]), keys.index(c["key"])] = c["weight"]
        assert got == pytest.approx(kept[layer, head])


def test_each_cell_sits_inside_its_heads_box_below_its_name_in_sentence_order_with_the_special_tokens_last():
    w = np.full((6, 12, 3, 5), 0.2)
    boxes, cells = (x.to_pandas() for x in tables.grid_table(w, ["x", "y", "z"], SPECIAL, (0, 0), np.zeros((6, 12)),
                                                             np.zeros((6, 12)), NAMES))
    boxes = boxes.set_index("head")
    assert len(cells) == 6 * 12 * 3 * 5
    for _, c in cells.iterrows():
        box = boxes.loc[c["head"]]
        assert box["x0"] < c["x0"] < c["x1"] < box["x1"]
        assert box["y0"] + tables.TOP <= c["y0"] + 1e-6 and c["y1"] < box["y1"]
    one = cells[cells["head"] == "L2-H5"]
    lefts = one.groupby("key")["x0"].first()
    assert lefts["x"] < lefts["y"] < lefts["z"] < lefts["[CLS]"] < lefts["[SEP]"]
    gap, step = lefts["[CLS]"] - lefts["z"], lefts["y"] - lefts["x"]
    assert gap == pytest.approx(step * (1 + tables.GAP), rel=1e-5)  # float32 places
    assert lefts["[SEP]"] - lefts["[CLS]"] == pytest.approx(step, rel=1e-5)
    tops = one.groupby("query")["y0"].first()
    assert tops["x"] < tops["y"] < tops["z"]


def test_the_grid_is_one_canvas_chart_whose_clicks_pick_a_head_by_name():
    spec = head_grid().to_dict()
    assert spec["usermeta"] == {"embedOptions": {"renderer": "canvas"}}
    (pick,) = spec["params"]
    assert pick["name"] == charts.PICK and pick["select"]["fields"] == ["head"] and pick["select"]["on"] == "click"
    (plot,) = spec["vconcat"]
    boxes, cells, names = plot["layer"]
    assert [x.get("transform") for x in plot["layer"]] == [None] * 3  # each part drawn from its own rows as they are
    assert boxes["data"] == names["data"] != cells["data"]
    assert [x["mark"]["aria"] for x in plot["layer"]] == [False] * 3  # on a canvas: the chart's name, no mark's own
    for layer in plot["layer"]:  # twelve heads across, six layers down, whatever the sentence
        enc = layer["encoding"]
        assert enc["x"]["scale"]["domain"] == [0, 12] and enc["y"]["scale"]["domain"] == [0, 6]
        assert enc["y"]["scale"]["reverse"] is True
    assert cells["encoding"]["color"]["scale"]["scheme"] == "blues"
    assert cells["encoding"]["color"]["scale"]["domain"]["expr"].startswith("[0, ")
    assert boxes["encoding"]["stroke"]["condition"] == {"test": "datum.picked", "value": "#222222"}
    assert names["mark"]["text"] == {"expr": transformer_charts.SHORT_NAME}  # the head's name, "H2" on a phone
    assert "datum.head" in transformer_charts.SHORT_NAME and "/^L[0-9]+-/" in transformer_charts.SHORT_NAME
    assert plot["height"] == transformer_charts.GRID_HEIGHT


def test_the_word_pieces_name_their_word_and_the_split_words_their_pieces():
    pieces = ("[CLS]", "nasa", "shuttle", "##s", "fly", "[SEP]")
    word = np.array([-1, 0, 1, 1, 2, -1])
    table = tables.pieces_table(pieces, word, ["nasa", "shuttles", "fly"], SPECIAL).to_pylist()
    assert [(r["piece"], r["word"]) for r in table] == [("[CLS]", "[CLS]"), ("nasa", "nasa"), ("shuttle", "shuttles"),
                                                        ("##s", "shuttles"), ("fly", "fly"), ("[SEP]", "[SEP]")]
    assert tables.split_words(word, pieces, ["nasa", "shuttles", "fly"]) == [("shuttles", ["shuttle", "##s"])]


def say(kind: str, **values) -> str:
    """The page's words in short: the kind of mark, then its values (floats to three places)."""
    return " ".join([kind, *(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in values.items())])


def real_looks(w: np.ndarray) -> tables.Looks:  # [L, H, m, m + 2]
    """The real model's looks as the page makes them: Clark et al.'s pick, every other word a candidate."""
    m = w.shape[-2]
    picks = minilm.top_other(minilm.Words(w[..., :m], w[..., m:]))
    return tables.looks(w, picks, ~np.eye(m, dtype=bool))


def ours_looks(w: np.ndarray) -> tables.Looks:  # [m, m]
    return tables.looks(np.pad(w, ((0, 0), (0, 2))), w.argmax(axis=-1), np.ones(w.shape, dtype=bool))


def finders_rows(w: np.ndarray, picked=(0, 0), ours=None) -> list[dict]:
    """The finders table of three words, "the" and "milk" belonging to "cat", the root."""
    ours = np.array([[0.1, 0.8, 0.1], [0.5, 0.2, 0.3], [0.4, 0.41, 0.19]]) if ours is None else ours
    return tables.finders_table(["the", "cat", "milk"], ["det", "root", "obj"], np.array([1, -1, 1]), real_looks(w),
                                picked, ours_looks(ours), NAMES, SPECIAL, say).to_pylist()


def marked_rows() -> np.ndarray:  # -> [6, 12, 3, 5]
    """Every head: "the" finds "cat" clearly, "cat" looks most at "milk", "milk" finds "cat" by 0.01; but for
    "the", L1-H1 to L1-H5 find it barely, parked or not at all, and L1-H6 clearly, despite its own weight."""
    w = np.empty((6, 12, 3, 5))
    w[:, :, 0] = [0.1, 0.5, 0.2, 0.1, 0.1]
    w[:, :, 1] = [0.3, 0.1, 0.4, 0.1, 0.1]
    w[:, :, 2] = [0.45, 0.46, 0.05, 0.02, 0.02]
    w[0, :6, 0] = [[0.1, 0.32, 0.3, 0.2, 0.08], [0.02, 0.1, 0.03, 0.8, 0.05], [0.02, 0.1, 0.03, 0.3, 0.55],
                   [0.02, 0.1, 0.03, 0.45, 0.4], [0.1, 0.1, 0.6, 0.1, 0.1], [0.7, 0.2, 0.05, 0.025, 0.025]]
    return w


def test_each_word_counts_the_heads_that_find_its_head_clearly_and_barely_and_lists_the_clear_ones():
    rows = finders_rows(marked_rows())
    assert [r["count"] for r in rows] == [67, 0, 0] and [r["close"] for r in rows] == [4, 0, 72]
    clear = [n for n in NAMES.ravel() if n not in ("L1-H1", "L1-H2", "L1-H3", "L1-H4", "L1-H5")]
    assert rows[0]["heads"] == ", ".join(clear[:tables.LISTED]) + " …" and rows[0]["heads"].startswith("L1-H6, L1-H7")
    assert rows[1]["head"] == "root" and rows[1]["heads"] == "" and rows[2]["heads"] == ""


@pytest.mark.parametrize(("picked", "said"), [
    ((0, 0), "close word=cat weight=0.320 lead=0.020"),  # less than CLEAR ahead of milk
    ((0, 1), "parked word=cat weight=0.100 where=[CLS] share=0.800"),
    ((0, 2), "parked word=cat weight=0.100 where=[SEP] share=0.550"),
    ((0, 3), "parked word=cat weight=0.100 where=[CLS] + [SEP] share=0.850"),  # neither alone holds half
    ((0, 4), "wrong word=milk weight=0.600"),
    ((0, 5), "clear word=cat weight=0.200"),  # its own 0.7 is no rival: 0.15 ahead of milk
    ((3, 7), "clear word=cat weight=0.500")])
def test_the_picked_heads_find_is_a_tick_with_its_weight_only_when_it_is_clear(picked, said):
    rows = finders_rows(marked_rows(), picked)
    assert rows[0]["picked"] == said
    assert rows[1]["picked"] == "pick word=milk weight=0.400"  # the root: no mark, its weight
    assert rows[2]["picked"] == "close word=cat weight=0.460 lead=0.010"


def test_ours_is_marked_by_the_same_measure_and_never_parked():
    rows = finders_rows(marked_rows())
    assert [r["ours"] for r in rows] == ["clear word=cat weight=0.800", "pick word=the weight=0.500",
                                         "close word=cat weight=0.410 lead=0.010"]


@pytest.mark.parametrize("seed", range(5))
def test_no_find_won_by_less_than_clear_or_mostly_parked_is_a_tick(seed):
    w = attention(7, seed)
    m, gold = 7, np.array([1, -1, 1, 6, 3, 3, 1])
    look = real_looks(w)
    other = np.sort(np.where(np.eye(m, dtype=bool), -np.inf, w[..., :m]), axis=-1)
    margin, parked = other[..., -1] - other[..., -2], w[..., m:].sum(axis=-1)  # [6, 12, m]
    right = (look.found == gold) & (gold >= 0)
    assert (right & (margin < tables.CLEAR)).any() and (right & (margin >= tables.CLEAR) & (parked <= 0.5)).any()
    labels = list("abcdefg")
    for layer, head in np.ndindex(6, 12):
        rows = tables.finders_table(labels, ["x"] * m, gold, look, (layer, head), ours_looks(w[0, 0, :, :m]), NAMES,
                                    SPECIAL, say).to_pylist()
        for i, row in enumerate(rows):
            clear = right[layer, head, i] and margin[layer, head, i] >= tables.CLEAR and parked[layer, head, i] <= 0.5
            assert row["picked"].startswith("clear") == clear, (layer, head, i, row["picked"])
            assert f"weight={w[layer, head, i, look.found[layer, head, i]]:.3f}" in row["picked"]
    assert [r["count"] + r["close"] for r in rows] == right.sum(axis=(0, 1)).tolist()


def test_a_lead_is_the_largest_value_less_the_next():
    assert lead(np.array([[0.1, 0.5, 0.3], [0.4, 0.4, 0.2]])) == pytest.approx([0.2, 0.0])
    assert lead(np.array([[0.7]])) == pytest.approx([0.7])
