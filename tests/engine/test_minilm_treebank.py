"""The real transformer's heads on the treebank: each head's pick for every word, laid out as treebank.batch lays out
the sentences, and the accuracies per head and per relation with treebank.by_relation's conventions."""
import numpy as np
import pytest

from engine import minilm_treebank, treebank
from engine.positional import WEIGHT
from tests.minilm_model import model  # noqa: F401 (a fixture)


def tree(words: str, heads, relations: str) -> treebank.Sentence:
    return treebank.Sentence("test", "s", tuple(words.split()), tuple(heads), tuple(relations.split()))


TREES = [tree("the cat drank the milk .", (2, 3, 0, 5, 3, 3), "det nsubj root det obj punct"),
         tree("the black cat drank", (3, 3, 4, 0), "det amod nsubj:pass root")]


class TestOnTheTreebank:
    @pytest.fixture
    def small(self, make_kv):
        rng = np.random.default_rng(0)
        return treebank.batch(make_kv({w: rng.normal(size=4) for w in "the cat drank milk . black".split()}), TREES,
                              WEIGHT)

    def test_accuracies_are_by_relation_for_every_head(self, small):
        rng = np.random.default_rng(2)
        found = rng.integers(0, 4, size=(2, 3, 2, 6))
        found[:, :, 1, 4:] = minilm_treebank.PAST_END
        acc = minilm_treebank.accuracies(small, found, ("det", "nsubj", "obj", "amod", "cop"))
        assert sorted(acc) == ["all", "amod", "det", "nsubj", "obj"]  # no cop in the batch
        for layer in range(2):
            for head in range(3):
                expected = treebank.by_relation(small, found[layer, head])
                assert {r: a[layer, head] for r, a in acc.items() if r != "all"} == \
                    pytest.approx({r: share for r, (_, share) in expected.items()})
                right = (found[layer, head] == small.head)[small.head >= 0]
                assert acc["all"][layer, head] == pytest.approx(right.mean())

    def test_best_is_the_first_of_the_highest(self):
        acc = np.array([[0.1, 0.5, 0.2], [0.5, 0.3, 0.0]])
        assert minilm_treebank.best(acc) == ("L1-H2", 0.5)

    def test_finders_name_the_heads_whose_pick_is_the_words_head(self):
        found = np.array([[[1, 0, 1], [2, 0, 0]], [[1, 2, 0], [1, 0, 1]]])  # [layers 2, heads 2, words 3]
        gold = np.array([1, -1, 1])
        assert minilm_treebank.finders(found, gold) == [["L1-H1", "L2-H1", "L2-H2"], [], ["L1-H1", "L2-H2"]]

    def test_picks_lay_out_each_sentence_as_its_batch(self, model):  # noqa: F811
        found, parked = minilm_treebank.picks(model, TREES)
        assert found.shape == (6, 12, 2, 6) and (found[:, :, 1, 4:] == minilm_treebank.PAST_END).all()
        assert parked.shape == (6, 12, 2) and ((parked > 0) & (parked < 1)).all()
        for b, s in enumerate(TREES):
            m = len(s.tokens)
            mine, share = minilm_treebank.sentence_picks(model, list(s.tokens))
            assert found[:, :, b, :m].tolist() == mine.tolist() and parked[:, :, b] == pytest.approx(share)
            assert (found[:, :, b, :m] != np.arange(m)).all() and (found[:, :, b, :m] < m).all()
