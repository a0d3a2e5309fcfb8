"""all-MiniLM-L6-v2, a real transformer (BERT-style encoder: 6 layers of 12 heads of 32 dimensions, 384 wide), run in
numpy through the one scoring function, to show its heads beside ours. Its files come from engine/minilm_files.py;
the weights are memory-mapped read-only (the pages are the file's, shared by every process that maps it), the word
pieces come from Hugging Face `tokenizers`. Word level as Clark et al. (2019), "What Does BERT Look At?": attention
to a word is the sum over its pieces, from a word the mean over its pieces; [CLS] and [SEP] are kept apart."""
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from scipy.special import erf
from tokenizers import Tokenizer

from engine import minilm_files
from engine.attention import merge_heads, score, softmax_rows, split_heads
from engine.errors import CodedError

DTYPES = {"F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4"}  # safetensors: little-endian, by these names
UNKNOWN = "[UNK]"  # what a word becomes when the tokenizer keeps nothing of it (a control character, say)
# The most pieces a sentence may have, [CLS] and [SEP] included: the length the model was fine-tuned on (its
# tokenizer.json cuts there). 64 ordinary words take about 80; 64 made-up ones can take 500, whose forward pass would
# hold 72 MB of attention weights for half a second. 128 pieces: 4.5 MB, a few tens of milliseconds.
MAX_PIECES = 128


class ModelError(CodedError):
    """Why a model run cannot go ahead; the catalogues say each code as err_model_<code>."""
    # missing: the model's files are not there; too_many_pieces: a sentence of more than MAX_PIECES word pieces
    # (values: count, max); no_room: a shared server cannot spare a run's working memory now (values: mb, budget).

    CODES = ("missing", "too_many_pieces", "no_room")
    TEXT_PREFIX = "err_model_"


@dataclass(frozen=True)
class Model:
    """The weights and the tokenizer, loaded once per process (the page caches it with st.cache_resource)."""

    weights: dict[str, np.ndarray] = field(repr=False)  # name in model.safetensors -> read-only, mapped from the file
    tokenizer: Tokenizer = field(repr=False)  # padding and truncation off: one sentence, every piece
    layers: int
    heads: int
    eps: float  # LayerNorm's ε
    positions: int  # the model's positions: it can read no more pieces, [CLS] and [SEP] included


@dataclass(frozen=True)
class Pieces:
    """A sentence's words as the model's word pieces."""

    words: tuple[str, ...]  # [m] the words as given
    ids: np.ndarray  # [n] vocabulary ids, [CLS] first and [SEP] last
    pieces: tuple[str, ...]  # [n] the pieces as the vocabulary spells them ("##" continues a word)
    word: np.ndarray  # [n] the word each piece belongs to, -1 for [CLS] and [SEP]


@dataclass(frozen=True)
class Run:
    """Every step of one forward pass the page explains."""

    pieces: Pieces
    attention: np.ndarray  # [layers, heads, n, n] each head's softmax weights, a row per query piece
    hidden: np.ndarray  # [layers + 1, n, d] the embeddings, then each layer's output; hidden[-1] is the last state


def load(where: Path | None = None) -> Model:
    """The model from its folder (default: minilm_files.folder()); ModelError("missing") without its files."""
    where = where or minilm_files.folder()
    if minilm_files.missing(where):
        raise ModelError("missing")
    config = json.loads((where / "config.json").read_text(encoding="utf-8"))
    tokenizer = Tokenizer.from_file(str(where / "tokenizer.json"))
    tokenizer.no_padding()  # tokenizer.json pads and cuts every input to 128 pieces, as sentence-transformers wants
    tokenizer.no_truncation()
    return Model(mapped(where / "model.safetensors"), tokenizer, config["num_hidden_layers"],
                 config["num_attention_heads"], config["layer_norm_eps"], config["max_position_embeddings"])


def mapped(path: Path) -> dict[str, np.ndarray]:
    """Every tensor of a safetensors file as a read-only view into one memory map of the file."""
    # Not safetensors' own numpy reader: it copies each tensor out of its map, 87 MB private to every process
    # instead of pages they all share.
    with open(path, "rb") as f:
        size = int.from_bytes(f.read(8), "little")  # the format: an 8-byte header length, a JSON header, the data
        header = json.loads(f.read(size))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + size)
    return {name: data[start:end].view(DTYPES[t["dtype"]]).reshape(t["shape"])
            for name, t in header.items() if name != "__metadata__" for start, end in [t["data_offsets"]]}


def pieces(model: Model, words: list[str]) -> Pieces:
    """Split words (as engine.tokens.tokenize or the treebank gives them) as word pieces between [CLS] and [SEP]."""
    # The tokenizer's word ids say which word each piece belongs to.
    encoded = model.tokenizer.encode(words, is_pretokenized=True)
    kept = {w for w in encoded.word_ids if w is not None}
    if len(kept) < len(words):  # a word with no piece would have no row: it becomes [UNK], as BERT reads the unknown
        encoded = model.tokenizer.encode([w if i in kept else UNKNOWN for i, w in enumerate(words)],
                                         is_pretokenized=True)
    if len(encoded.ids) > min(MAX_PIECES, model.positions):
        raise ModelError("too_many_pieces", count=len(encoded.ids), max=min(MAX_PIECES, model.positions))
    word = np.array([-1 if w is None else w for w in encoded.word_ids], dtype=np.int64)
    return Pieces(tuple(words), np.array(encoded.ids, dtype=np.int64), tuple(encoded.tokens), word)


def run(model: Model, words: list[str], after: Callable[[int], object] = lambda done: None) -> Run:
    """The words through the whole model: every layer's attention weights and hidden states."""
    # after(layers done) is called between layers: a shared server's queue lets others go first there.
    p = pieces(model, words)
    return Run(p, *forward(model, p.ids, after))


def forward(model: Model, ids: np.ndarray, after: Callable[[int], object] = lambda done: None
            ) -> tuple[np.ndarray, np.ndarray]:  # [n] -> [L, h, n, n], [L + 1, n, d]
    """BERT's encoder on one sentence (no padding, so no mask), in float32 as the weights are stored."""
    x = embed(model, ids)
    weights, states = [], [x]
    for i in range(model.layers):
        a, x = layer(model, f"encoder.layer.{i}", x)
        weights.append(a)
        states.append(x)
        after(i + 1)
    return np.stack(weights), np.stack(states)


def run_bytes(model: Model, n: int) -> int:
    """Working memory of one run on n pieces, in bytes (float32); a little above numpy's peak (15 MB at 128 pieces)."""
    # Counted: each layer's scores, softmax and weights kept, every hidden state twice (kept and stacked), and the
    # feed-forward layer's width.
    d = model.weights["embeddings.word_embeddings.weight"].shape[1]
    return 4 * (3 * model.layers * model.heads * n * n + 2 * (model.layers + 1) * n * d + 8 * n * d)


def embed(model: Model, ids: np.ndarray) -> np.ndarray:  # [n] -> [n, d]
    """Word + position + token type (all type 0: one sentence) embeddings, layer-normed."""
    w, n = model.weights, len(ids)
    x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n]
         + w["embeddings.token_type_embeddings.weight"][0])
    return norm(model, "embeddings.LayerNorm", x)


def layer(model: Model, at: str, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # [n, d] -> [h, n, n], [n, d]
    """One encoder layer: self-attention, then the feed-forward network, each added to its input and layer-normed."""
    a, z = self_attention(model, f"{at}.attention.self", x)
    x = norm(model, f"{at}.attention.output.LayerNorm", x + dense(model, f"{at}.attention.output.dense", z))
    h = gelu(dense(model, f"{at}.intermediate.dense", x))  # [n, 4d]
    return a, norm(model, f"{at}.output.LayerNorm", x + dense(model, f"{at}.output.dense", h))


def self_attention(model: Model, at: str, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # [n, d] -> [h,n,n], [n,d]
    """Q, K, V split into heads, softmax(Q·Kᵀ/√d_k) per head through the one scoring function, heads merged."""
    q, k, v = (split_heads(dense(model, f"{at}.{name}", x), model.heads) for name in ("query", "key", "value"))
    s = score(q, k).astype(q.dtype, copy=False)  # its √d_k is a NumPy float64, which would widen all that follows
    a = softmax_rows(s, np.ones((len(x), len(x)), dtype=bool))  # [h, n, n]
    return a, merge_heads(a @ v)


def dense(model: Model, at: str, x: np.ndarray) -> np.ndarray:  # [n, d_in] -> [n, d_out]
    """x·Wᵀ + b (the weights are stored [d_out, d_in], as PyTorch's Linear keeps them)."""
    return x @ model.weights[f"{at}.weight"].T + model.weights[f"{at}.bias"]


def norm(model: Model, at: str, x: np.ndarray) -> np.ndarray:  # [n, d] -> [n, d]
    """LayerNorm: each row to mean 0 and variance 1 (ε added), then scaled and shifted per dimension."""
    centred = x - x.mean(axis=-1, keepdims=True)
    unit = centred / np.sqrt((centred**2).mean(axis=-1, keepdims=True) + model.eps)
    return unit * model.weights[f"{at}.weight"] + model.weights[f"{at}.bias"]


def gelu(x: np.ndarray) -> np.ndarray:  # [...] -> [...]
    """GELU with the exact error function, as BERT's "gelu": x·Φ(x)."""
    return 0.5 * x * (1.0 + erf(x / 2.0**0.5))


@dataclass(frozen=True)
class Words:
    """Attention at word level: what a page shows and what is measured against the treebank."""

    words: np.ndarray  # [..., m, m] from each word (mean over its pieces) to each word (sum over its pieces)
    special: np.ndarray  # [..., m, 2] from each word to [CLS] and to [SEP]; each row of words + special sums to 1


def to_words(attention: np.ndarray, word: np.ndarray) -> Words:  # [..., n, n], [n] -> Words
    """Clark et al.'s word-level attention: to a split word, the sum over its pieces; from it, the mean over them."""
    # [CLS] and [SEP] (word -1, first and last) stay two keys apart and are never queries.
    m = int(word.max(initial=-1)) + 1
    belongs = (word[:, None] == np.arange(m)).astype(attention.dtype)  # [n, m] piece -> its word
    keys = np.concatenate([belongs, np.eye(len(word), dtype=attention.dtype)[:, [0, -1]]], axis=1)  # [n, m + 2]
    mean_from = (belongs / belongs.sum(axis=0)).T  # [m, n] each word's pieces, 1/count each
    to = mean_from @ (attention @ keys)  # [..., m, m + 2]
    return Words(to[..., :m], to[..., m:])


def parked(w: Words) -> np.ndarray:  # [..., m, 2] -> [...]
    """The share of attention the words put on [CLS] and [SEP], averaged over the words (0 for no words)."""
    per_word = w.special.sum(axis=-1)
    return per_word.mean(axis=-1) if per_word.shape[-1] else per_word.sum(axis=-1)


def top_other(w: Words) -> np.ndarray:  # [..., m, m] -> [..., m]
    """The other word each word attends to most (its own cell left out, as treebank.top_key does)."""
    m = w.words.shape[-1]
    return np.where(np.eye(m, dtype=bool), -np.inf, w.words).argmax(axis=-1)


def label(layer: int, head: int) -> str:
    """A head's name, counted from 1 as Clark et al. do: layer 3, head 9 -> 'L3-H9'."""
    return f"L{layer + 1}-H{head + 1}"
