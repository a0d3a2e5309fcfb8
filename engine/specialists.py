"""Several heads learned together from the treebank, each taught one family of relations: the fit, the shipped heads
(data/heads-glove.npz) and what a page measures of them.

One head must serve every relation with one pair of matrices, and finds a verb's object less often than the word two
to the left does. A transformer has many heads, and a trained one's heads specialise. Here four heads of d_k 16 are
fitted together through the one objective and the one fit core, each taught the words of one family:
  - modifiers: det, amod, compound, nmod:poss, nummod and case → the noun they modify or mark, later in the sentence
    and near it (each relation's best fixed offset is +1): a small word or an adjective looking for its noun;
  - subject: nsubj, aux, cop, mark, cc and expl → the verb (or predicate, or conjunct) they belong to, also later and
    near, but a verb more than a noun: who acts, and the small words that give the verb its tense and link it in
    (mark and cc, the two kinds of conjunction, both attach to what they introduce);
  - object: obj, iobj and obl → their verb, earlier and further (offsets −2 and −3): a noun looking back for the verb
    that acts on it, where or when;
  - conjunct: conj, appos, flat, fixed and list → the first word of their group, earlier: the relations UD always
    writes from the first word, a later word pointing back at an earlier one of its own kind (a noun at a noun, a
    verb at a verb, a name's last part at its first).
So the families differ in where the head lies (before or after, near or far) and what kind of word it is, and no head's
W_Q, W_K must send one kind of query two ways. Each head learns its family's words as the single head learns every
word (which word: its head; whether at all: the head above 0, the other words below), the other families' words with
their head below 0 (not this head's kind of pair), and the same on the template corpus's plain training sentences as
trees where they hold its family (they hold no coordination). Relations in no family (advmod, nmod, xcomp, acl, ...)
teach no head."""
import functools
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from engine import corpus, plain_trees, treebank
from engine.attention import score
from engine.corpus import CorpusError
from engine.fit import asked, initial_weights, load_arrays, run, save_arrays, share, through_scores
from engine.objective import SIGN_WEIGHT, sign_loss
from engine.positional import WEIGHT
from engine.treebank import Batch, Sentence

SHIPPED = treebank.BUILT_IN.with_name("heads-glove.npz")  # the heads on GloVe 400k, as data/make_heads.py wrote them
FAMILIES = (  # each head's short name and the relations it is taught (as treebank.short writes them)
    ("modifiers", ("det", "amod", "compound", "nmod:poss", "nummod", "case")),
    ("subject", ("nsubj", "aux", "cop", "mark", "cc", "expl")),
    ("object", ("obj", "iobj", "obl")),
    ("conjunct", ("conj", "appos", "flat", "fixed", "list")),
)


@dataclass(frozen=True)
class Recipe:
    """How the heads are fitted together: the single head's objective and loop, one family per head."""

    families: tuple[tuple[str, tuple[str, ...]], ...] = FAMILIES
    d_k: int = 16  # each head's
    position: float = WEIGHT
    steps: int = 3000
    lr: float = 0.02  # twice the single head's, for half its steps
    seed: int = 0
    batch_words: int = 4000  # words per minibatch (sentences of similar length together)
    sign: float = SIGN_WEIGHT  # the objective's sign term on a head's own family: whether at all
    other: float = 0.3  # the other families' words, their head below 0 in this head: not its kind of pair
    # the template corpus's training sentences as trees (engine/plain_trees.py) beside each minibatch, at this weight:
    # plain sentences like the article's: without them the subject and object heads left about a third of their other
    # pairs there above 0
    plain: float = 0.1


@dataclass(frozen=True)
class Heads:
    """Heads fitted together, each on its family of relations, with the curves of the run."""

    names: tuple[str, ...]  # [H]  each head's short name ("modifiers", "subject", ...)
    families: tuple[tuple[str, ...], ...]  # [H]  the relations each head was taught
    w_q: np.ndarray  # [H, d, d_k]
    w_k: np.ndarray  # [H, d, d_k]
    loss: np.ndarray  # [steps+1]  training loss of the step's minibatch, all heads
    train_accuracy: np.ndarray  # [steps+1]  the minibatch's family words whose own head's top key is their head
    test_accuracy: np.ndarray  # [steps+1]  the same on the held-out sentences (NaN at steps not measured)
    test_positive: np.ndarray  # [steps+1]  held-out family words whose own head scores their head above 0
    test_negative: np.ndarray  # [steps+1]  their other pairs scored below 0 by that head
    steps: int  # updates actually run
    stopped: bool  # the callback asked to stop early
    used: int  # training sentences
    skipped: int  # sentences left out because the vectors lack one of their words
    plain: int  # plain sentences (the template corpus's training split, as trees) it also learned from

    def index(self, name: str) -> int:
        """The place of the head with this short name ("modifiers", "subject", "object", "conjunct")."""
        return self.names.index(name)


def family_of(b: Batch, families) -> np.ndarray:  # -> [B, L]
    """The head taught each word (its index in `families`), -1 for a word in no family or without a head."""
    taught = np.full(b.head.shape, -1)
    for h, (_, relations) in enumerate(families):
        taught[np.isin(b.relation, relations) & (b.head >= 0)] = h
    return taught


def not_mine(b: Batch, words: np.ndarray) -> np.ndarray:  # words [B, L] -> [R, L]
    """For each of the `words`, its head's cell alone: the pair another head was taught."""
    cells = np.zeros((int(words.sum()), b.keys.shape[1]), dtype=bool)
    cells[np.arange(len(cells)), b.head[words]] = True
    return cells


def head_grads(b: Batch, taught: np.ndarray, h: int, w_q, w_k, recipe: Recipe):  # -> loss, s [B, L, L], dW ×2
    """Head h's objective on a minibatch: the one objective on its family's words, a sign term on other families'."""
    # taught [B, L]: which head each word teaches (family_of). The sign term, at `recipe.other`, asks the other
    # families' words to score their own head (the word they belong to) below 0.
    own = taught == h
    others = (taught >= 0) & ~own

    def loss_of(s):  # [B, L, L]
        loss, g = asked(s, own, *treebank.head_rows(b, own), recipe.sign) if own.any() else (0.0, np.zeros_like(s))
        if not others.any():
            return loss, g
        cells = not_mine(b, others)
        more, g_more = sign_loss(s[others], np.zeros_like(cells), cells)
        g[others] += recipe.other * g_more
        return loss + recipe.other * more, g

    return through_scores(b.x, b.x, w_q, w_k, loss_of)


def batch_grads(taught_batch: tuple[Batch, np.ndarray], w_q, w_k, plain: tuple[Batch, np.ndarray] | None,
                recipe: Recipe):  # w [H, d, d_k] -> loss, accuracy, dW_Q, dW_K
    """One step of fit: the heads' summed loss on a minibatch, the share of family words right, and the gradients."""
    # Every head's objective, plus `recipe.plain` times it on the plain sentences for each head whose family they
    # hold.
    b, taught = taught_batch
    loss = 0.0
    right = 0  # family words whose own head's top key is their head
    g_q = np.empty_like(w_q)
    g_k = np.empty_like(w_k)
    for h in range(len(w_q)):
        more, s, g_q[h], g_k[h] = head_grads(b, taught, h, w_q[h], w_k[h], recipe)
        loss += more
        right += int(((treebank.top_key(b, s) == b.head) & (taught == h)).sum())
        if plain is not None and (plain[1] == h).any():  # the plain sentences teach the heads whose words they hold
            extra, _, p_q, p_k = head_grads(*plain, h, w_q[h], w_k[h], recipe)
            loss += recipe.plain * extra
            g_q[h] += recipe.plain * p_q
            g_k[h] += recipe.plain * p_k
    return loss, right / max(int((taught >= 0).sum()), 1), g_q, g_k


def measured(taught_batches: list[tuple[Batch, np.ndarray]], w_q, w_k) -> tuple[float, float, float]:
    """Held-out shares over all batches: family words their own head gets right, scores above 0, other pairs below 0."""
    # Of the family words: those whose own head's top key is their head, and those whose own head scores their head
    # above 0; of their other pairs, those that head scores below 0.
    total = np.zeros(5)
    for b, taught in taught_batches:
        for h in range(len(w_q)):
            total += treebank.counts(b, treebank.scores(b, w_q[h], w_k[h])[2], taught == h)
    right, words, above, below, others = total
    return float(right / words), float(above / words), float(below / others)


def taught(b: Batch, recipe: Recipe) -> tuple[Batch, np.ndarray]:
    """A batch with the head taught each of its words."""
    return b, family_of(b, recipe.families)


def taught_batches(kv: KeyedVectors, sentences: list[Sentence], recipe: Recipe) -> list[tuple[Batch, np.ndarray]]:
    """Minibatches of the sentences, each with the head taught each word."""
    return [taught(b, recipe) for b in treebank.minibatches(kv, sentences, recipe.position, recipe.batch_words)]


def fit(kv: KeyedVectors, sentences: list[Sentence], recipe: Recipe = Recipe(), *, every: int = 1,
        callback: Callable[..., bool | None] | None = None) -> Heads:
    """The heads fitted together by the one loop as treebank.fit fits one; deterministic for a recipe."""
    # Adam on minibatches, a seeded order each pass, the step size falling to 0 over the second half, from the
    # columns of one seeded random [d, H·d_k] pair split into heads; held-out figures every `every` steps and at
    # the end.
    usable = treebank.known(kv, sentences)
    train = treebank.split(usable, "train")
    test = treebank.split(usable, "test")
    if not train:
        raise CorpusError("no_known")
    count = len(recipe.families)
    columns = count * min(recipe.d_k, kv.vector_size)
    w_q, w_k = (split_heads(w, count) for w in initial_weights(kv.vector_size, columns, recipe.seed, 1.0)[:2])
    trees = plain_trees.trees(corpus.known_split(kv, "train")) if recipe.plain else []
    plain = taught(treebank.batch(kv, trees, recipe.position), recipe) if trees else None
    grads = functools.partial(batch_grads, plain=plain, recipe=recipe)
    held = functools.partial(measured, taught_batches(kv, test, recipe)) if test else None
    done = run(w_q, w_k, taught_batches(kv, train, recipe), grads, held, steps=recipe.steps, lr=recipe.lr,
               seed=recipe.seed, anneal=True, every=every, callback=callback)
    loss, train_accuracy, test_accuracy, test_positive, test_negative = done.curves
    return Heads(tuple(n for n, _ in recipe.families), tuple(r for _, r in recipe.families), done.w_q, done.w_k, loss,
                 train_accuracy, test_accuracy, test_positive, test_negative, done.steps, done.stopped, len(train),
                 len(sentences) - len(usable), len(trees))


def split_heads(w: np.ndarray, count: int) -> np.ndarray:  # [d, H·d_k] -> [H, d, d_k]
    """Head h gets columns h·d_k .. (h+1)·d_k, as a transformer splits its heads."""
    d, columns = w.shape
    return w.reshape(d, count, columns // count).transpose(1, 0, 2)


def save(heads: Heads, path: Path) -> None:
    """The heads as plain arrays: names one string each, each family its relations joined by spaces (load reads it)."""
    arrays = {f.name: getattr(heads, f.name) for f in fields(heads)}
    save_arrays({**arrays, "names": np.array(heads.names), "families": np.array([" ".join(f) for f in heads.families])},
                path)


@functools.cache
def load(path: Path = SHIPPED) -> Heads:
    """Heads that save wrote (the shipped ones by default, read once per process): plain arrays, never a pickle."""
    arrays = load_arrays(path)
    for w in (arrays["w_q"], arrays["w_k"]):
        w.flags.writeable = False  # one copy serves every page
    names = tuple(str(n) for n in arrays.pop("names"))
    return Heads(names, tuple(tuple(str(f).split()) for f in arrays.pop("families")), **arrays)


def head_scores(heads: Heads, x: np.ndarray) -> np.ndarray:  # x [..., n, d] -> [H, ..., n, n]
    """Each head's scores q·k/√d_k between the rows x: a sentence's (encode), or a batch's."""
    return np.stack([score(x @ w_q, x @ w_k) for w_q, w_k in zip(heads.w_q, heads.w_k, strict=True)])


def sentence_picks(s: np.ndarray) -> np.ndarray:  # [H, n, n] -> [H, n]
    """The other word each word of one sentence weights most under each head (its own cell hidden)."""
    return np.where(np.eye(s.shape[-1], dtype=bool), -np.inf, s).argmax(axis=-1)


def picks(b: Batch, s: np.ndarray) -> np.ndarray:  # s [H, B, L, L] -> [H, B, L]
    """The key each head's query weights most among the other words of its sentence (treebank.top_key per head)."""
    return np.stack([treebank.top_key(b, one) for one in s])


def by_relation(b: Batch, picked: np.ndarray) -> dict[str, tuple[int, np.ndarray]]:  # picked [H, B, L] -> [H] each
    """Per relation: its words, and the share of them whose key under each head is their head."""
    has = b.head >= 0
    right = (picked == b.head)[:, has]
    rel = b.relation[has]
    return {r: (int((rel == r).sum()), right[:, rel == r].mean(axis=1)) for r in sorted(set(rel))}


def best_of_heads(found: dict[str, tuple[int, np.ndarray]]) -> dict[str, tuple[int, float]]:
    """Per relation of by_relation, the head that finds the most of its words (picked with hindsight), and its share."""
    return {r: (int(shares.argmax()), float(shares.max())) for r, (_, shares) in found.items()}


def oracle(b: Batch, picked: np.ndarray, words: np.ndarray | None = None) -> float:  # picked [H, B, L]
    """Share of the words with a head (or of `words`, a [B, L] mask) that at least one head points at their head."""
    words = b.head >= 0 if words is None else words
    return float((picked == b.head).any(axis=0)[words].mean())


def families_found(b: Batch, picked: np.ndarray, heads: Heads) -> np.ndarray:  # picked [H, B, L] -> [F, H]
    """Row f, column h: the share of family f's words (the relations head f was taught) that head h points right."""
    family = family_of(b, tuple(zip(heads.names, heads.families, strict=True)))
    right = picked == b.head
    return np.array([[share(right[h][family == f]) for h in range(len(picked))] for f in range(len(heads.names))])


def signs(b: Batch, s: np.ndarray, heads: Heads) -> list[tuple[float, float]]:  # s [H, B, L, L]
    """Per head, as treebank.signs on its family's words: their head scored above 0, their other pairs below 0."""
    # NaN where the batch holds none of its family.
    family = family_of(b, tuple(zip(heads.names, heads.families, strict=True)))
    return [treebank.signs(b, s[h], family == h) for h in range(len(s))]


@dataclass(frozen=True)
class Found:
    """What the heads find on a batch of treebank sentences, next to each other."""

    relations: dict[str, tuple[int, np.ndarray]]  # relation -> its words, [H] share each head points at their head
    best: dict[str, tuple[int, float]]  # relation -> the head that finds the most of its words, and its share
    overall: np.ndarray  # [H]  share of the words with a head that each head points at their head
    oracle: float  # share of the words with a head that at least one head points at their head
    families: np.ndarray  # [F, H]  share of family f's words that head h points at their head
    signs: list[tuple[float, float]]  # [H]  its family's head pairs above 0, their other pairs below 0


def found(b: Batch, heads: Heads) -> Found:
    """Every measure of the heads on the batch: per relation and head, the best head, the oracle, families, signs."""
    s = head_scores(heads, b.x)
    picked = picks(b, s)
    relations = by_relation(b, picked)
    overall = (picked == b.head)[:, b.head >= 0].mean(axis=1)
    return Found(relations, best_of_heads(relations), overall, oracle(b, picked), families_found(b, picked, heads),
                 signs(b, s, heads))
