"""Real English sentences with each word's grammatical head (UD English EWT): read them, batch them, and measure a
head that should point every word at the word it belongs to."""
import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from engine import corpus
from engine.attention import score
from engine.corpus import CorpusError
from engine.fit import Fit, asked, embedded, initial_weights, knows, run, sign_shares, through_scores
from engine.objective import PAIR_WEIGHT, POSITIVE_SHARE, SIGN_WEIGHT, key_only
from engine.positional import WEIGHT

BUILT_IN = Path(__file__).resolve().parent.parent / "data" / "treebank.tsv"
# the plain sentences' part of the default head's objective (Recipe): its weight, its sign term's, and what the
# relevant pairs weigh of that term (less than in a treebank row: its irrelevant pairs are where web text alone failed)
PLAIN_WEIGHT, PLAIN_SIGN, PLAIN_SHARE = 0.1, 3.6, 0.5
SHIPPED = BUILT_IN.with_name("head-glove.npz")  # the default head on GloVe 400k, as data/make_head.py wrote it
MAX_TOKENS = 30
NO_TARGET = ("root", "punct")  # the root has no head; punctuation belongs to no word in the sense we teach
COLUMNS = ("split", "sent_id", "tokens", "heads", "relations")
HEADER = [
    "Derived from UD English EWT (Universal Dependencies English Web Treebank), licence CC BY-SA 4.0,",
    "https://github.com/UniversalDependencies/UD_English-EWT; written by data/make_treebank.py and shared alike",
    "under CC BY-SA 4.0. Columns: split, sent_id, tokens (as engine.tokens.tokenize writes them, space-separated),",
    "heads (1-based position of each token's head, 0 for the root), relations (UD dependency relations).",
]


@dataclass(frozen=True)
class Sentence:
    split: str  # "train", "dev" or "test"
    sent_id: str  # the treebank's id
    tokens: tuple[str, ...]
    heads: tuple[int, ...]  # 1-based head position of each token, 0 for the root
    relations: tuple[str, ...]

    def targets(self) -> list[tuple[int, int]]:  # -> (query, head) 0-based
        """Each word that has a head in our sense, and that head."""
        return [(i, h - 1) for i, (h, r) in enumerate(zip(self.heads, self.relations, strict=False))
                if h > 0 and r.split(":")[0] not in NO_TARGET]


# The article's sentence with its heads, marked by hand as the treebank would mark them: not a treebank sentence, but
# the one the story starts from, so its words can be measured against their heads too.
ARTICLE = Sentence("test", "article", ("the", "black", "cat", "drank", "the", "milk"), (3, 3, 4, 0, 6, 4),
                   ("det", "amod", "nsubj", "root", "det", "obj"))


def write(path: Path, sentences: list[Sentence], comments: list[str]) -> None:
    """The sentences as UTF-8 TSV, comment lines first."""
    lines = [f"# {c}" for c in comments] + ["\t".join(COLUMNS)]
    lines += ["\t".join((s.split, s.sent_id, " ".join(s.tokens), " ".join(map(str, s.heads)), " ".join(s.relations)))
              for s in sentences]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@functools.cache
def built_in() -> tuple[Sentence, ...]:
    """data/treebank.tsv, read once per process (the sentences are frozen)."""
    return tuple(read())


def read(path: Path = BUILT_IN) -> list[Sentence]:
    """The sentences of a file that write() made."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line == "\t".join(COLUMNS):
            continue
        split, sent_id, tokens, heads, relations = line.split("\t")
        found.append(Sentence(split, sent_id, tuple(tokens.split(" ")), tuple(map(int, heads.split(" "))),
                              tuple(relations.split(" "))))
    return found


@dataclass(frozen=True)
class Batch:
    """Sentences as padded arrays: row b holds sentence b's words; positions past its end are masked."""

    x: np.ndarray  # [B, L, d]  embedding + position · positional encoding
    keys: np.ndarray  # [B, L]  True on the sentence's words
    head: np.ndarray  # [B, L]  0-based head of each query word, -1 where the word has no target
    relation: np.ndarray  # [B, L]  relation of each word (object array of str)
    length: np.ndarray  # [B]  words per sentence


def batch(kv: KeyedVectors, sentences: list[Sentence], position: float) -> Batch:
    """Sentences (all of whose words kv knows) as padded arrays."""
    x = embedded(kv, [s.tokens for s in sentences], position)
    keys = np.zeros(x.shape[:2], dtype=bool)
    head = np.full(x.shape[:2], -1)
    relation = np.full(x.shape[:2], "", dtype=object)
    for b, s in enumerate(sentences):
        m = len(s.tokens)
        keys[b, :m] = True
        relation[b, :m] = [short(r) for r in s.relations]
        head[b, :m] = gold(s)
    return Batch(x, keys, head, relation, keys.sum(axis=1))


def short(relation: str) -> str:
    """A relation without its subtype ('nsubj:pass' -> 'nsubj'), but for 'nmod:poss', a relation of its own here."""
    return relation if relation == "nmod:poss" else relation.split(":")[0]


def gold(s: Sentence) -> np.ndarray:  # -> [n]
    """Each word's 0-based head, -1 where the word has no target."""
    head = np.full(len(s.tokens), -1)
    for i, h in s.targets():
        head[i] = h
    return head


def containing(sentences: list[Sentence], words: list[str]) -> list[Sentence]:
    """The sentences that hold every one of `words` among their tokens."""
    return [s for s in sentences if set(words) <= set(s.tokens)]


def scores(b: Batch, w_q, w_k):  # [d, d_k] ×2 -> q, k [B, L, d_k], s [B, L, L]
    """Every word's query against every word's key, through the one scoring function."""
    q = b.x @ w_q
    k = b.x @ w_k
    return q, k, score(q, k)


def visible(b: Batch) -> np.ndarray:  # -> [B, L, L]
    """Which keys each query compares: the other words of its sentence (its own cell is masked, see attend's own)."""
    return b.keys[:, None, :] & ~np.eye(b.keys.shape[1], dtype=bool)


def top_key(b: Batch, s: np.ndarray, own: bool = False) -> np.ndarray:  # [B, L, L] -> [B, L]
    """The key each query weights most among the other words of its sentence (with `own`, itself included)."""
    seen = np.broadcast_to(b.keys[:, None, :], s.shape) if own else visible(b)
    return np.where(seen, s, -np.inf).argmax(axis=-1)


def accuracy(b: Batch, s: np.ndarray) -> float:  # s [B, L, L]
    """Share of words with a head whose largest weight falls on that head."""
    has = b.head >= 0
    return float((top_key(b, s) == b.head)[has].mean())


def by_relation(b: Batch, picked: np.ndarray) -> dict[str, tuple[int, float]]:  # picked [B, L]
    """Per relation: words with that relation and the share whose picked key is their head."""
    has = b.head >= 0
    right, rel = (picked == b.head)[has], b.relation[has]
    return {r: (int((rel == r).sum()), float(right[rel == r].mean())) for r in sorted(set(rel))}


def offset_pick(b: Batch, offset: int) -> np.ndarray:  # -> [B, L]
    """The word `offset` places away from each query (nothing where that leaves the sentence)."""
    picked = np.arange(b.keys.shape[1])[None, :] + offset
    return np.where(picked < b.length[:, None], picked, -2)


def best_offset(b: Batch, span: int = 5) -> tuple[int, float]:
    """The fixed offset (never 0) whose pick is most often the head, and its accuracy."""
    has = b.head >= 0
    found = {o: float((offset_pick(b, o) == b.head)[has].mean()) for o in range(-span, span + 1) if o}
    return max(found.items(), key=lambda kv: kv[1])


def best_offsets(b: Batch, span: int = 5) -> dict[str, tuple[int, float]]:
    """Per relation, the fixed offset most often picking the head, and its accuracy: a baseline reading no vectors."""
    # Never offset 0; a tie goes to the nearer offset. The baseline is given each relation's best offset with hindsight.
    nearest_first = sorted((o for o in range(-span, span + 1) if o), key=lambda o: (abs(o), -o))
    found = {o: by_relation(b, offset_pick(b, o)) for o in nearest_first}
    return {r: max(((o, found[o][r][1]) for o in nearest_first), key=lambda pair: pair[1]) for r in found[1]}


def key_only_share(s: np.ndarray) -> float:  # [n, n] -> share
    """How much of the scores' variance one number per key (its column mean) explains."""
    # 1 means every query ranks the keys alike, so relevance would belong to the key alone, not to the pair.
    total = ((s - s.mean()) ** 2).sum()
    within = ((s - s.mean(axis=0, keepdims=True)) ** 2).sum()
    return float(1 - within / total) if total > 0 else 0.0


def row_centred(s: np.ndarray) -> np.ndarray:  # [..., n] -> [..., n]
    """Each row less its mean: what a softmax sees, which ignores one number added to a whole row."""
    return s - s.mean(axis=-1, keepdims=True)


def signs(b: Batch, s: np.ndarray, words: np.ndarray | None = None) -> tuple[float, float]:  # s [B, L, L]
    """Share of the words with a head whose score with it is above 0, and of their other pairs scored below 0."""
    # `words`, a [B, L] mask, takes the place of the words with a head; their other pairs are the other words of
    # the sentence.
    return sign_shares(s, *pairs(b, b.head >= 0 if words is None else words))


def pairs(b: Batch, words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # words [B, L] -> [B, L, L] ×2
    """Which cells pair the `words` with their head, and which with the other words of their sentence."""
    at_head = np.arange(b.keys.shape[1]) == b.head[..., None]
    return words[..., None] & at_head, visible(b) & words[..., None] & ~at_head


@dataclass(frozen=True)
class Recipe:
    """How a head is fitted: what the page's defaults are trained with, and what page 5's live run changes."""

    d_k: int = 16
    position: float = WEIGHT
    steps: int = 6000
    lr: float = 0.01
    seed: int = 0
    sentences: int | None = None  # the first this many training sentences (None: all)
    batch_words: int = 4000  # words per minibatch (sentences of similar length together)
    decay: float = 0.0
    sign: float = SIGN_WEIGHT  # the objective's sign term: whether at all
    pair: float = PAIR_WEIGHT  # the key-only part's weight: from the pair, not the key
    # The template corpus's training split beside the treebank: plain sentences like the article's, where web text
    # alone left the signs near a coin toss. Its objective's weight in the sum, and its sign term's (bench/README.md,
    # "The sign on plain sentences": the weights tried and what each gave)
    plain: float = PLAIN_WEIGHT
    plain_sign: float = PLAIN_SIGN
    plain_share: float = PLAIN_SHARE


def plain_batch(kv: KeyedVectors, recipe: Recipe) -> corpus.Batch | None:
    """The template corpus's training split (its held-out one never) as one batch, where the recipe weighs it."""
    train = corpus.known_split(kv, "train") if recipe.plain else []
    return corpus.batch(kv, train, recipe.position) if train else None


def joint_grads(b: Batch, plain: corpus.Batch | None, w_q, w_k, recipe: Recipe):  # -> loss, s [B, L, L], dW_Q, dW_K
    """loss_grads on a treebank minibatch, plus `recipe.plain` times the one objective on the plain sentences."""
    # The plain sentences' sign term is at `recipe.plain_sign`, its relevant pairs weighing `recipe.plain_share` of
    # it; no pull towards 0 of their own.
    loss, s, g_q, g_k = loss_grads(b, w_q, w_k, recipe)
    if plain is None:
        return loss, s, g_q, g_k
    more, _, m_q, m_k = corpus.loss_grads(plain, w_q, w_k, decay=0.0, sign_weight=recipe.plain_sign,
                                          positive_share=recipe.plain_share)
    return loss + recipe.plain * more, s, g_q + recipe.plain * m_q, g_k + recipe.plain * m_k


def loss_grads(b: Batch, w_q, w_k, recipe: Recipe):  # -> loss, s [B, L, L], dW_Q, dW_K
    """The one objective on every word with a head, the sentence's key-only part, and an L2 pull towards 0."""
    # Which word: over the other words of its sentence; whether at all: its head above 0, the others below.
    has = b.head >= 0

    def loss_of(s):  # [B, L, L]
        pair, g = key_only(s, b.keys)
        g *= recipe.pair
        loss, g = asked(s, has, *head_rows(b, has), recipe.sign, POSITIVE_SHARE, g)
        return loss + recipe.pair * pair, g

    return through_scores(b.x, b.x, w_q, w_k, loss_of, recipe.decay)


def head_rows(b: Batch, words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # words [B, L] -> [R, L] ×2
    """For each of the `words` (R of them), the keys it compares and what its softmax aims for: all on its head."""
    # The keys it compares are the other words of its sentence.
    mask = visible(b)[words]
    p = np.zeros(mask.shape)
    p[np.arange(len(p)), b.head[words]] = 1.0
    return mask, p


LIVE = Recipe(steps=300, sentences=2000)  # page 5's run: a subset, held-out accuracy every step, a few seconds
# the default head for other vectors, d_k or position weight, fitted once per server: on GloVe, within 0.3-0.6 points of
# 1,500 steps' held-out accuracy at d_k 4, 16 and 50 and position weight 0, 1 and 2, in a third of the time
QUICK = Recipe(steps=500)


def minibatches(kv: KeyedVectors, sentences: list[Sentence], position: float, words: int) -> list[Batch]:
    """Sentences sorted by length, cut into batches of about `words` words, so padding stays small."""
    ordered = sorted(sentences, key=lambda s: len(s.tokens))
    cuts, total = [0], 0
    for i, s in enumerate(ordered, 1):
        total += len(s.tokens)
        if total >= words:
            cuts.append(i)
            total = 0
    cuts += [len(ordered)] if cuts[-1] < len(ordered) else []
    return [batch(kv, ordered[a:b], position) for a, b in zip(cuts, cuts[1:], strict=False)]


def known(kv: KeyedVectors, sentences: list[Sentence]) -> list[Sentence]:
    """The sentences whose every token the vectors know."""
    return [s for s in sentences if knows(kv, s.tokens)]


def split(sentences: list[Sentence], name: str) -> list[Sentence]:
    """The sentences of one split ("train", "dev" or "test")."""
    return [s for s in sentences if s.split == name]


def fit(kv: KeyedVectors, sentences: list[Sentence], recipe: Recipe = Recipe(), *, every: int = 1,
        callback: Callable[[int, float, float, float], bool | None] | None = None) -> Fit:
    """Adam on minibatches of training sentences from seeded random W_Q, W_K; deterministic for a recipe."""
    # A seeded order each pass, the step size falling to 0 over the second half; held-out accuracy and sign shares
    # every `every` steps and at the end. callback(step, loss, batch accuracy, held-out accuracy, held-out share of
    # heads above 0, of other pairs below 0; NaN where not measured) returning False stops early.
    usable = known(kv, sentences)
    train = split(usable, "train")[:recipe.sentences]
    test = split(usable, "test")
    if not train:
        raise CorpusError("no_known")
    plain = plain_batch(kv, recipe)
    grads = functools.partial(batch_grads, plain=plain, recipe=recipe)
    held = functools.partial(measured, minibatches(kv, test, recipe.position, recipe.batch_words)) if test else None
    w_q, w_k = initial_weights(kv.vector_size, min(recipe.d_k, kv.vector_size), recipe.seed, 1.0)[:2]
    done = run(w_q, w_k, minibatches(kv, train, recipe.position, recipe.batch_words), grads, held, steps=recipe.steps,
               lr=recipe.lr, seed=recipe.seed, anneal=True, every=every, callback=callback)
    return done.fit(len(train), len(sentences) - len(usable), 0 if plain is None else len(plain.query))


def batch_grads(b: Batch, w_q, w_k, plain: corpus.Batch | None, recipe: Recipe):  # -> loss, accuracy, dW_Q, dW_K
    """The loss, the top-1 accuracy and the gradients on a minibatch: one step of fit."""
    loss, s, g_q, g_k = joint_grads(b, plain, w_q, w_k, recipe)
    return loss, accuracy(b, s), g_q, g_k


def measured(batches: list[Batch], w_q, w_k) -> tuple[float, float, float]:
    """Top-1 accuracy and the two sign shares of W_Q, W_K on the words of all batches together."""
    total = np.sum([counts(b, scores(b, w_q, w_k)[2]) for b in batches], axis=0)  # [5]
    right, words, above, below, others = total
    return float(right / words), float(above / words), float(below / others)


def counts(b: Batch, s: np.ndarray, words: np.ndarray | None = None) -> np.ndarray:  # s [B, L, L], words [B, L] -> [5]
    """Five counts over the words with a head (or over `words`, a [B, L] mask of them), in the order below."""
    # Those whose top key is their head, all of them, those scoring it above 0, their other pairs scored below 0,
    # and their other pairs.
    words = b.head >= 0 if words is None else words
    head, others = pairs(b, words)
    return np.array([((top_key(b, s) == b.head) & words).sum(), words.sum(), (head & (s > 0)).sum(),
                     (others & (s < 0)).sum(), others.sum()])
