"""Page 8's parts without a page: every head as one grid of small heatmaps (its table and its chart), the word pieces,
and for each word the heads that find its head."""
import numpy as np
import pytest

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
    assert names["encoding"]["text"]["field"] == "head"
    assert plot["height"] == transformer_charts.GRID_HEIGHT


def test_the_word_pieces_name_their_word_and_the_split_words_their_pieces():
    pieces = ("[CLS]", "nasa", "shuttle", "##s", "fly", "[SEP]")
    word = np.array([-1, 0, 1, 1, 2, -1])
    table = tables.pieces_table(pieces, word, ["nasa", "shuttles", "fly"], SPECIAL).to_pylist()
    assert [(r["piece"], r["word"]) for r in table] == [("[CLS]", "[CLS]"), ("nasa", "nasa"), ("shuttle", "shuttles"),
                                                        ("##s", "shuttles"), ("fly", "fly"), ("[SEP]", "[SEP]")]
    assert tables.split_words(word, pieces, ["nasa", "shuttles", "fly"]) == [("shuttles", ["shuttle", "##s"])]


def test_each_words_row_names_the_heads_that_find_its_head_and_marks_both_picks():
    gold = np.array([1, -1, 1])  # "the" and "milk" belong to "cat"; "cat" is the root
    found = np.zeros((6, 12, 3), dtype=int)
    found[:, :, 0] = 2  # no head finds the's head…
    found[0, :, 0] = 1  # …but layer 1's twelve
    found[:, :, 2] = 1  # every head finds milk's
    said = {"root": "(root)", "none": "(punct)"}
    rows = tables.finders_table(["the", "cat", "milk"], ["det", "root", "nmod"], gold, found, (0, 3),
                                np.array([2, 0, 0]), NAMES, said).to_pylist()
    assert [r["count"] for r in rows] == [12, 0, 72]
    assert rows[0]["heads"] == ", ".join(NAMES[0, :tables.LISTED]) + " …"
    assert rows[1]["head"] == "(root)" and rows[1]["heads"] == "" and rows[1]["picked"] == "the"
    assert (rows[0]["picked"], rows[0]["ours"]) == ("cat ✓", "milk ✗")
    assert (rows[2]["picked"], rows[2]["ours"]) == ("cat ✓", "the ✗")
