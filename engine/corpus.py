"""A corpus of sentences with graded relevances: load and check it, fit W_Q and W_K on it, measure held-out order."""
import csv
import functools
import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from engine.attention import score
from engine.errors import CodedError
from engine.fit import Fit, asked, embedded, initial_weights, knows, run, sign_shares, through_scores
from engine.objective import POSITIVE_SHARE, SIGN_WEIGHT
from engine.positional import WEIGHT
from engine.targets import target_problems, written_relevance
from engine.tokens import MAX_TOKENS, TooManyTokens, tokenize

BUILT_IN = Path(__file__).resolve().parent.parent / "data" / "relevance.csv"
SHIPPED = BUILT_IN.with_name("templates-glove.npz")  # the default fit on GloVe 400k, as data/make_templates.py wrote it
COLUMNS = ["sentence", "query", "targets", "split"]
SPLITS = ("train", "test")
MAX_BYTES = 2 * 1024 * 1024
MAX_EXAMPLES = 5000
DEFAULT_STEPS = 400
MAX_STEPS = 2000
DEFAULT_LR = 0.03
DEFAULT_DECAY = 1e-2  # L2 pull towards 0: keeps the weights from memorising the training words

# What can be wrong with a corpus, by code; learning/texts.toml says each one (err_corpus_<code>).
CODES = (
    "columns", "header", "empty", "too_big", "too_many", "not_utf8", "no_sentence", "long_sentence",
    "query_missing", "query_twice", "target_format", "target_word", "target_query", "target_twice", "target_value",
    "few_targets", "flat_targets", "split", "no_split", "no_known", "no_room",
)


class CorpusError(CodedError):
    """A problem with a corpus file: a `code` from CODES and its values (including the line)."""

    CODES, TEXT_PREFIX = CODES, "err_corpus_"


@dataclass(frozen=True)
class Example:
    sentence: str
    query: str
    targets: dict[str, float]  # other word of the sentence -> relevance 0..1 (every occurrence of the word)
    split: str  # "train" or "test"


@dataclass(frozen=True)
class Batch:
    """Examples as padded arrays: row e holds sentence e's tokens, positions past its end are masked."""

    x: np.ndarray  # [E, L, d]  embedding + position · positional encoding
    query: np.ndarray  # [E]  position of the query word
    mask: np.ndarray  # [E, L]  True on the targeted keys
    target: np.ndarray  # [E, L]  relevance as written (0 off the mask)
    p: np.ndarray  # [E, L]  relevances normalised to sum to 1 per example
    pairs: tuple[np.ndarray, np.ndarray, np.ndarray]  # (e, a, b): key a is labelled more relevant than key b


def parse(text: str) -> list[Example]:
    """Examples from CSV text (comment lines start with '#'); CorpusError names the first bad line."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if not line.lstrip().startswith("#")]
    if not lines or next(csv.reader([lines[0][1]]), []) != COLUMNS:
        raise CorpusError("header")
    examples = []
    for n, line in lines[1:]:
        if not line.strip():
            continue
        cells = next(csv.reader(io.StringIO(line)))
        if len(cells) != len(COLUMNS):
            raise CorpusError("columns", line=n, found=len(cells))
        examples.append(example(n, *cells))
        if len(examples) > MAX_EXAMPLES:
            raise CorpusError("too_many", limit=MAX_EXAMPLES)
    if not examples:
        raise CorpusError("empty")
    if {e.split for e in examples} != set(SPLITS):
        raise CorpusError("no_split")
    return examples


def example(line: int, sentence: str, query: str, targets: str, split: str) -> Example:
    """One checked row."""
    if not sentence.strip():
        raise CorpusError("no_sentence", line=line)
    try:
        tokens = tokenize(sentence)
    except TooManyTokens as e:
        raise CorpusError("long_sentence", line=line, count=e.count, max=MAX_TOKENS) from None
    query = query.strip().lower()
    if tokens.count(query) != 1:
        raise CorpusError("query_missing" if query not in tokens else "query_twice", line=line, query=query[:40])
    found = relevances(line, targets, tokens, query)
    if len(found) < 3:
        raise CorpusError("few_targets", line=line, count=len(found))
    if len(set(found.values())) < 2:
        raise CorpusError("flat_targets", line=line)
    if split.strip() not in SPLITS:
        raise CorpusError("split", line=line, split=split[:20])
    return Example(sentence.strip(), query, found, split.strip())


def relevances(line: int, text: str, tokens: list[str], query: str) -> dict[str, float]:
    """'drank=1; cat=0.5' -> {'drank': 1.0, 'cat': 0.5}, each word checked against the sentence."""
    # Each relevance (0 to 1) goes through the one target check; example() asks more of the whole row (three
    # targets, not all equal).
    written: list[tuple[str, str]] = []
    wrong = None
    for item in filter(str.strip, text.split(";")):
        word, eq, value = (part.strip() for part in item.partition("="))
        wrong = target_word_error(line, item, word.lower(), eq, tokens, query)
        if wrong is not None:
            break
        written.append((word.lower(), value))
    given = [(query, word, written_relevance(value)) for word, value in written]  # the items before a wrong one
    for code, where in target_problems(given, high=1):
        if "i" in where:
            word, value = written[where["i"]]
            if code == "duplicate":
                raise CorpusError("target_twice", line=line, word=word[:40])
            raise CorpusError("target_value", line=line, word=word[:40], value=value[:20])
    if wrong is not None:
        raise wrong
    return {word: float(value) for word, value in written}


def target_word_error(line: int, item: str, word: str, eq: str, tokens: list[str], query: str) -> CorpusError | None:
    """Why one 'word=relevance' item names no other word of the sentence, if it does not."""
    if not eq or not word:
        return CorpusError("target_format", line=line, item=item.strip()[:40])
    if word == query:
        return CorpusError("target_query", line=line, word=word[:40])
    if word not in tokens:
        return CorpusError("target_word", line=line, word=word[:40])
    return None


def load(path=None) -> list[Example]:
    """The built-in corpus, or a user's CSV file (path or bytes) in the same format and through the same checks."""
    data = Path(path or BUILT_IN).read_bytes() if not isinstance(path, (bytes, bytearray)) else bytes(path)
    if len(data) > MAX_BYTES:
        raise CorpusError("too_big", size=len(data), limit=MAX_BYTES)
    try:
        return parse(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise CorpusError("not_utf8") from None


@functools.cache
def built_in() -> tuple[Example, ...]:
    """data/relevance.csv, read once per process (the examples are frozen)."""
    return tuple(load())


def known_split(kv: KeyedVectors, split: str) -> list[Example]:
    """The built-in corpus's examples of one split ("train" or "test") whose every word kv knows."""
    return [e for e in known(kv, built_in()) if e.split == split]


def known(kv: KeyedVectors, examples) -> list[Example]:
    """The examples whose every token the vectors know."""
    return [e for e in examples if knows(kv, tokenize(e.sentence))]


def batch(kv: KeyedVectors, examples: list[Example], position: float = WEIGHT) -> Batch:
    """Examples (all of whose words kv knows) as padded arrays."""
    tokens = [tokenize(e.sentence) for e in examples]
    x = embedded(kv, tokens, position)
    query = np.array([ts.index(e.query) for e, ts in zip(examples, tokens, strict=True)], dtype=np.intp)
    target = np.zeros(x.shape[:2])
    mask = np.zeros(x.shape[:2], dtype=bool)
    for i, (e, ts) in enumerate(zip(examples, tokens, strict=True)):
        for j, t in enumerate(ts):
            if t in e.targets:
                mask[i, j], target[i, j] = True, e.targets[t]
    p = target / target.sum(axis=1, keepdims=True)
    higher = (target[:, :, None] > target[:, None, :]) & mask[:, :, None] & mask[:, None, :]  # [E, L, L]
    which, more, less = np.nonzero(higher)  # [P] ×3: the example, its more relevant key, its less relevant key
    return Batch(x, query, mask, target, p, (which, more, less))


def queries(b: Batch) -> np.ndarray:  # -> [E, 1, d]
    """Each example's query row."""
    return b.x[np.arange(len(b.query)), b.query][:, None, :]


def query_scores(b: Batch, w_q, w_k, cosine=False):  # -> q [E, 1, d_k], k [E, L, d_k], s [E, L]
    """Each example's query row against every word of its sentence, through the one scoring function."""
    q = queries(b) @ w_q
    k = b.x @ w_k
    return q, k, score(q, k, cosine=cosine)[:, 0, :]


def accuracy(b: Batch, s: np.ndarray) -> float:  # s [E, L]
    """Share of labelled pairs (key a more relevant than key b) that the scores put in that order."""
    e, a, c = b.pairs
    return float((s[e, a] > s[e, c]).mean()) if len(e) else math.nan


def order_accuracy(kv: KeyedVectors, examples: list[Example], w_q, w_k, *, position=WEIGHT,
                   cosine=False) -> float:
    """Pairwise order accuracy of W_Q, W_K ([d, d_k]) on the examples the vectors know."""
    b = batch(kv, known(kv, examples), position)
    return accuracy(b, query_scores(b, w_q, w_k, cosine)[2])


def loss_grads(b: Batch, w_q, w_k, cosine=False, decay=DEFAULT_DECAY, sign_weight=SIGN_WEIGHT,
               positive_share=POSITIVE_SHARE):  # -> loss, s [E, L], dW_Q, dW_K
    """The one objective on each example's targeted keys, and an L2 pull towards 0."""
    # Which word: its softmax against the normalised relevances; whether at all: relevant keys above 0, those
    # labelled 0 below, the first weighing `positive_share` of the sign term.
    every = np.ones((len(b.query), 1), dtype=bool)  # [E, 1]  each example's one query row

    def loss_of(s):  # [E, 1, L]
        return asked(s, every, b.mask, b.p, sign_weight, positive_share)

    loss, s, g_q, g_k = through_scores(queries(b), b.x, w_q, w_k, loss_of, decay, cosine)
    return loss, s[:, 0, :], g_q, g_k


def signs(b: Batch, s: np.ndarray) -> tuple[float, float]:  # s [E, L]
    """Share of the relevant pairs (relevance above 0) scored above 0, and of the irrelevant ones (0) scored below."""
    return sign_shares(s, b.mask & (b.target > 0), b.mask & (b.target <= 0))


def fit(kv: KeyedVectors, examples: list[Example], *, d_k=16, steps=DEFAULT_STEPS, lr=DEFAULT_LR, seed=0,
        position=WEIGHT, cosine=False, decay=DEFAULT_DECAY, sign_weight=SIGN_WEIGHT,
        callback: Callable[..., bool | None] | None = None) -> Fit:
    """Full-batch Adam on the one objective over the training examples, from seeded random W_Q, W_K."""
    # Deterministic for a seed. callback(step, loss, train accuracy, held-out accuracy, held-out sign shares ×2)
    # returning False stops.
    usable = known(kv, examples)
    train, test = ([e for e in usable if e.split == s] for s in SPLITS)
    if not train:
        raise CorpusError("no_known")
    grads = functools.partial(batch_grads, cosine=cosine, decay=decay, sign_weight=sign_weight)
    held = functools.partial(held_out, batch(kv, test, position), cosine=cosine) if test else None
    w_q, w_k = initial_weights(kv.vector_size, min(d_k, kv.vector_size), seed, 1.0)[:2]
    done = run(w_q, w_k, [batch(kv, train, position)], grads, held, steps=steps, lr=lr, seed=seed, callback=callback)
    return done.fit(len(usable), len(examples) - len(usable))


def batch_grads(b: Batch, w_q, w_k, **objective) -> tuple[float, float, np.ndarray, np.ndarray]:
    """The loss, the pairs in order and the gradients on a training batch: one step of fit."""
    loss, s, g_q, g_k = loss_grads(b, w_q, w_k, **objective)
    return loss, accuracy(b, s), g_q, g_k


def held_out(b: Batch, w_q, w_k, cosine=False) -> tuple[float, float, float]:
    """The pairs in order and the two sign shares of W_Q, W_K on held-out examples."""
    s = query_scores(b, w_q, w_k, cosine)[2]
    return accuracy(b, s), *signs(b, s)


def words(examples: list[Example]) -> int:
    """Tokens in the training sentences: what one step of a fit reads."""
    return sum(len(tokenize(e.sentence)) for e in examples if e.split == "train")
