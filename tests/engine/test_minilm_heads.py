"""data/minilm-heads.csv, the real transformer's heads counted over the held-out sentences: the count against the
per-head picks it sums, the file's round trip, its words against the treebank's, and the shipped file against what
data/make_minilm_heads.py computes now."""
import numpy as np
import pytest

from engine import minilm_treebank, treebank
from tests.apptest_helpers import data_script
from tests.engine.test_minilm_treebank import TREES
from tests.minilm_model import model  # noqa: F401 (a fixture)


def hand_made() -> minilm_treebank.Measured:
    right = {"all": np.arange(6).reshape(2, 3), "det": np.array([[0, 1, 2], [2, 1, 0]])}
    return minilm_treebank.Measured(4, {"all": 7, "det": 2}, right, np.array([[0.5, 0.25, 0.125], [0.0, 1.0, 0.3333]]))


def test_a_file_reads_back_what_was_written(tmp_path):
    path = tmp_path / "heads.csv"
    minilm_treebank.write(path, hand_made(), ["a comment, with a comma", "and another"])
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# a comment, with a comma\n# and another\nrelation,count,L1-H1,L1-H2,L1-H3,L2-H1,")
    back = minilm_treebank.read(path)
    assert (back.sentences, back.words) == (4, {"all": 7, "det": 2})
    assert all((back.right[r] == hand_made().right[r]).all() for r in back.words)
    assert back.parked.tolist() == hand_made().parked.tolist()
    assert back.best("det") == ("L1-H3", 1.0) and back.accuracy("all")[1, 2] == pytest.approx(5 / 7)


def test_the_shipped_file_counts_every_held_out_word_with_a_head_once():
    shipped, test = minilm_treebank.shipped(), treebank.split(list(treebank.built_in()), "test")
    relations = [treebank.short(s.relations[i]) for s in test for i, _ in s.targets()]
    assert shipped.sentences == len(test) == 1255
    assert shipped.words == {"all": len(relations)} | {r: relations.count(r) for r in shipped.words if r != "all"}
    assert list(shipped.words)[1:] == sorted(set(relations), key=lambda r: (-relations.count(r), r))
    assert shipped.parked.shape == (6, 12) and ((shipped.parked > 0) & (shipped.parked < 1)).all()
    for r, n in shipped.words.items():
        assert ((shipped.right[r] >= 0) & (shipped.right[r] <= n)).all()
    assert sum(shipped.right[r] for r in shipped.words if r != "all").tolist() == shipped.right["all"].tolist()


def test_the_count_sums_each_heads_picks_as_the_accuracies_do(model, make_kv):  # noqa: F811
    measured = minilm_treebank.measure(model, TREES)
    found, parked = minilm_treebank.picks(model, TREES)
    rng = np.random.default_rng(0)
    b = treebank.batch(make_kv({w: rng.normal(size=4) for s in TREES for w in s.tokens}), TREES, 0.0)
    accuracies = minilm_treebank.accuracies(b, found, ("det", "nsubj", "obj", "amod"))
    assert list(measured.words) == ["all", "det", "nsubj", "amod", "obj"] and measured.words["det"] == 3
    for r, accuracy in accuracies.items():
        assert measured.accuracy(r) == pytest.approx(accuracy)
    assert measured.parked == pytest.approx(parked.mean(axis=-1))


@pytest.mark.slow  # every head over every held-out sentence: about 20 s of one core
def test_the_shipped_file_is_what_its_script_computes(model, tmp_path):  # noqa: F811
    """Counts of words exactly; the shares parked, written to 4 decimals, within one unit of the last (another CPU's
    float32 sums may differ in their last bits)."""
    out = tmp_path / "minilm-heads.csv"
    assert data_script("make_minilm_heads").main(out) == 0
    made, shipped = minilm_treebank.read(out), minilm_treebank.shipped()
    assert made.sentences == shipped.sentences and made.words == shipped.words
    assert all(made.right[r].tolist() == shipped.right[r].tolist() for r in made.words)
    assert np.abs(made.parked - shipped.parked).max() <= 1e-4 + 1e-12
    assert out.read_text(encoding="utf-8").split("\nparked,")[0] == \
        minilm_treebank.SHIPPED.read_text(encoding="utf-8").split("\nparked,")[0]
