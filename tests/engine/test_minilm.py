"""The real transformer in numpy: its weights mapped from the file, its word pieces, its forward pass against PyTorch
and `transformers` (outputs recorded once, fixtures/record_minilm.py), word-level attention as Clark et al. (2019)
build it (by hand on tiny arrays), and the share parked on [CLS] and [SEP]."""
from pathlib import Path

import numpy as np
import pytest
from safetensors import safe_open
from safetensors.numpy import save_file
from tokenizers import Tokenizer

from engine import minilm, minilm_files, treebank
from engine.tokens import tokenize
from tests.minilm_model import model  # noqa: F401 (a fixture)

REFERENCE = Path(__file__).with_name("fixtures") / "minilm-reference.npz"
TOLERANCE = 1e-4


@pytest.fixture(scope="module")
def reference():
    with np.load(REFERENCE, allow_pickle=False) as f:
        return {k: f[k] for k in f.files}


def names(reference) -> list[str]:
    return [str(n) for n in reference["names"]]


def words_of(reference, name: str) -> list[str]:
    return [str(w) for w in reference[f"{name}_words"]]


class TestWeights:
    def test_mapped_reads_every_dtype_and_shape_as_safetensors_does(self, tmp_path):
        rng = np.random.default_rng(0)
        tensors = {"a": rng.normal(size=(3, 5)).astype(np.float32), "b": np.arange(7, dtype=np.int64),
                   "c": rng.normal(size=(2, 2, 2)).astype(np.float16), "d": np.array(1.5, dtype=np.float32)}
        save_file(tensors, tmp_path / "t.safetensors", metadata={"format": "np"})
        found = minilm.mapped(tmp_path / "t.safetensors")
        assert sorted(found) == sorted(tensors)
        for name, t in tensors.items():
            assert found[name].dtype == t.dtype and found[name].shape == t.shape
            assert np.array_equal(found[name], t)
            assert not found[name].flags.writeable

    def test_the_models_weights_are_safetensors_own_without_a_copy(self, model):  # noqa: F811
        path = minilm_files.folder() / "model.safetensors"
        with safe_open(path, framework="np") as f:
            assert sorted(f.keys()) == sorted(model.weights)
            for name in f.keys():
                assert np.array_equal(model.weights[name], f.get_tensor(name)), name
        for name, w in model.weights.items():
            base = w
            while base is not None and not isinstance(base, np.memmap):
                base = base.base
            assert isinstance(base, np.memmap) and Path(base.filename) == path.resolve(), name
            assert not w.flags.writeable

    def test_the_configuration(self, model):  # noqa: F811
        assert (model.layers, model.heads, model.positions) == (6, 12, 512)
        assert model.weights["embeddings.word_embeddings.weight"].shape == (30522, 384)


class TestPieces:
    def test_the_fixtures_sentences_are_the_projects_tokens(self, reference):
        assert words_of(reference, "article") == tokenize("The black cat drank the milk")
        assert words_of(reference, "pieces") == tokenize(str(reference["texts"][1]))
        tree = next(s for s in treebank.built_in() if s.sent_id == str(reference["texts"][2]))
        assert tree.split == "test" and words_of(reference, "treebank") == list(tree.tokens)

    def test_ids_and_words_as_transformers_own_bert_tokenizer_gave_them(self, model, reference):  # noqa: F811
        for name in names(reference):
            p = minilm.pieces(model, words_of(reference, name))
            assert p.ids.tolist() == reference[f"{name}_ids"].tolist()
            assert p.word.tolist() == reference[f"{name}_word"].tolist()
        split = minilm.pieces(model, words_of(reference, "pieces"))
        assert split.pieces[1:7] == ("my", "grandmother", "'", "s", "type", "##writer")
        assert split.word[1:7].tolist() == [0, 1, 2, 2, 3, 3]

    def test_every_held_out_sentence_as_tokenizers_splits_its_text(self, model):  # noqa: F811
        """The pre-split words give the pieces `tokenizers` gives the sentence's text, and each word's pieces spell
        the word (as the tokenizer's normalizer writes it)."""
        own = Tokenizer.from_file(str(minilm_files.folder() / "tokenizer.json"))
        own.no_truncation()
        own.no_padding()
        for s in treebank.split(list(treebank.built_in()), "test"):
            p = minilm.pieces(model, list(s.tokens))
            assert p.ids.tolist() == own.encode(" ".join(s.tokens)).ids, s.sent_id
            for i, w in enumerate(s.tokens):
                spelt = "".join(t.removeprefix("##") for t in np.array(p.pieces)[p.word == i])
                assert spelt == own.normalizer.normalize_str(w), (s.sent_id, w)

    def test_a_word_the_tokenizer_keeps_nothing_of_becomes_unk(self, model):  # noqa: F811
        p = minilm.pieces(model, ["the", "\x00", "cat"])
        assert p.pieces == ("[CLS]", "the", "[UNK]", "cat", "[SEP]") and p.word.tolist() == [-1, 0, 1, 2, -1]

    def test_no_words_is_cls_and_sep(self, model):  # noqa: F811
        p = minilm.pieces(model, [])
        assert p.pieces == ("[CLS]", "[SEP]") and p.word.tolist() == [-1, -1]
        w = minilm.to_words(minilm.run(model, []).attention, p.word)
        assert w.words.shape == (6, 12, 0, 0) and minilm.parked(w).tolist() == np.zeros((6, 12)).tolist()

    def test_more_pieces_than_it_runs_is_an_error_with_a_code(self, model):  # noqa: F811
        assert minilm.MAX_PIECES == 128 <= model.positions
        with pytest.raises(minilm.ModelError) as e:
            minilm.pieces(model, ["a"] * 127)
        assert e.value.code == "too_many_pieces" and e.value.values == {"count": 129, "max": 128}
        assert len(minilm.pieces(model, ["a"] * 126).ids) == 128

    def test_loading_without_the_files_says_they_are_missing(self, tmp_path):
        with pytest.raises(minilm.ModelError) as e:
            minilm.load(tmp_path)
        assert e.value.code == "missing" and e.value.values == {}


class TestForward:
    def test_a_run_reports_each_layer_done_and_gives_the_same_numbers(self, model):  # noqa: F811
        done = []
        reported = minilm.run(model, ["the", "cat", "drank", "milk"], after=done.append)
        assert done == list(range(1, model.layers + 1))
        assert np.array_equal(reported.attention, minilm.run(model, ["the", "cat", "drank", "milk"]).attention)

    @pytest.mark.parametrize("n", [10, 65, 128])
    def test_a_run_s_counted_memory_is_above_what_numpy_allocates_at_its_peak(self, model, n):  # noqa: F811
        import tracemalloc
        tracemalloc.start()
        try:
            minilm.run(model, ["a"] * (n - 2))
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak <= minilm.run_bytes(model, n) <= 2 * peak
    def test_attention_and_last_hidden_state_as_pytorch_computed_them(self, model, reference):  # noqa: F811
        for name in names(reference):
            r = minilm.run(model, words_of(reference, name))
            n = len(reference[f"{name}_ids"])
            assert r.attention.shape == (6, 12, n, n) and r.hidden.shape == (7, n, 384)
            assert r.attention.dtype == r.hidden.dtype == np.float32
            assert np.abs(r.attention - reference[f"{name}_attention"]).max() <= TOLERANCE, name
            assert np.abs(r.hidden[-1] - reference[f"{name}_hidden"]).max() <= TOLERANCE, name
            assert np.allclose(r.attention.sum(axis=-1), 1.0, atol=1e-5)

    def test_gelu_is_the_exact_one(self):
        x = np.array([-3.0, -1.0, 0.0, 0.5, 2.0])
        phi = np.array([0.0013498980316301, 0.15865525393145707, 0.5, 0.6914624612740131, 0.9772498680518208])
        assert minilm.gelu(x) == pytest.approx(x * phi, abs=1e-12)


# [CLS], "a", "b" in two pieces, [SEP]; each row sums to 1
TINY = np.array([[0.2, 0.2, 0.2, 0.2, 0.2],
                 [0.1, 0.3, 0.2, 0.0, 0.4],
                 [0.5, 0.1, 0.1, 0.2, 0.1],
                 [0.0, 0.6, 0.2, 0.2, 0.0],
                 [0.2, 0.2, 0.2, 0.2, 0.2]])
TINY_WORD = np.array([-1, 0, 1, 1, -1])


class TestWordLevel:
    def test_to_a_split_word_summed_from_it_averaged_by_hand(self):
        w = minilm.to_words(TINY, TINY_WORD)
        assert w.words == pytest.approx(np.array([[0.3, 0.2],  # from a: to a; to b = 0.2 + 0.0
                                                  [(0.1 + 0.6) / 2, (0.3 + 0.4) / 2]]))  # from b: the mean of rows
        assert w.special == pytest.approx(np.array([[0.1, 0.4], [(0.5 + 0.0) / 2, (0.1 + 0.0) / 2]]))

    def test_every_word_row_with_the_special_tokens_sums_to_one(self):
        rng = np.random.default_rng(1)
        e = np.exp(rng.normal(size=(2, 3, 7, 7)))
        att = e / e.sum(axis=-1, keepdims=True)
        word = np.array([-1, 0, 0, 1, 2, 2, -1])
        w = minilm.to_words(att, word)
        assert w.words.shape == (2, 3, 3, 3) and w.special.shape == (2, 3, 3, 2)
        assert w.words.sum(axis=-1) + w.special.sum(axis=-1) == pytest.approx(np.ones((2, 3, 3)))
        assert w.words[1, 2] == pytest.approx(minilm.to_words(att[1, 2], word).words)

    def test_words_of_one_piece_are_the_inner_block(self):
        att = np.arange(16.0).reshape(4, 4)
        w = minilm.to_words(att, np.array([-1, 0, 1, -1]))
        assert w.words.tolist() == att[1:3, 1:3].tolist() and w.special.tolist() == att[1:3][:, [0, 3]].tolist()

    def test_the_share_parked_on_cls_and_sep_by_hand(self):
        w = minilm.to_words(TINY, TINY_WORD)
        assert minilm.parked(w) == pytest.approx(((0.1 + 0.4) + (0.25 + 0.05)) / 2)

    def test_top_other_never_picks_the_word_itself(self):
        w = minilm.Words(np.array([[0.9, 0.05, 0.05], [0.2, 0.7, 0.1], [0.3, 0.3, 0.4]]), np.zeros((3, 2)))
        assert minilm.top_other(w).tolist() == [1, 0, 0]  # row 0: a tie, the first; row 2: not itself

    def test_labels_count_from_one(self):
        assert minilm.label(2, 8) == "L3-H9" and minilm.label(0, 0) == "L1-H1"

    def test_the_special_share_as_pytorchs_weights_give_it(self, model, reference):  # noqa: F811
        for name in names(reference):
            r = minilm.run(model, words_of(reference, name))
            ours = minilm.to_words(r.attention, r.pieces.word)
            theirs = minilm.to_words(reference[f"{name}_attention"], reference[f"{name}_word"].astype(np.int64))
            assert np.abs(minilm.parked(ours) - minilm.parked(theirs)).max() <= TOLERANCE
            assert np.abs(ours.words - theirs.words).max() <= TOLERANCE
            assert minilm.parked(ours) == pytest.approx(1 - ours.words.sum(axis=-1).mean(axis=-1), abs=1e-5)
