"""The real model's heads on the treebank: for every word, the other word each of its 72 heads attends to most (word
level, engine/minilm.py), and how often that is the word's grammatical head, per head and per relation, with
engine/treebank.py's conventions (the root and punctuation have no target; a word is never its own head). The count
over all held-out sentences takes about 20 s, too long for a page: data/make_minilm_heads.py writes it to
data/minilm-heads.csv (SHIPPED), which shipped() reads."""
import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine import minilm, treebank

PAST_END = -2  # a pick past a sentence's end (never a head: heads are >= 0 and "none" is -1), as offset_pick writes
SHIPPED = Path(__file__).resolve().parent.parent / "data" / "minilm-heads.csv"
# Clark, Khandelwal, Levy & Manning (2019), "What Does BERT Look At?", Table 1: for each Stanford Dependencies relation
# on the WSJ Penn Treebank, the accuracy of the best single BERT-base head, and of the relation's best fixed offset.
# Our UD relation -> (their relation, head %, offset baseline %, offset); UD case has no counterpart (SD prep/pobj).
BERT_BASE = {"all": ("all", 34.5, 26.3, 1), "det": ("det", 94.3, 51.7, 1), "amod": ("amod", 75.6, 68.3, 1),
             "nsubj": ("nsubj", 58.5, 45.5, 1), "obj": ("dobj", 86.8, 40.0, -2), "nmod:poss": ("poss", 80.5, 47.7, 1),
             "advmod": ("advmod", 48.8, 40.2, 1), "aux": ("aux", 81.1, 71.5, 1), "compound": ("nn", 70.4, 70.2, 1),
             "mark": ("mark", 50.7, 14.5, 2)}
PARKED = "parked"  # the file's row of each head's share on [CLS] and [SEP]


def picks(model: minilm.Model, sentences: list[treebank.Sentence]) -> tuple[np.ndarray, np.ndarray]:
    """Every head's pick for every word of every sentence, and each head's share parked on [CLS] and [SEP]."""
    # Picks [layers, heads, B, L], PAST_END beyond a sentence's end, rows as treebank.batch lays the same
    # sentences out; parked shares [layers, heads, B], each the mean over the sentence's words.
    longest = max(len(s.tokens) for s in sentences)
    found = np.full((model.layers, model.heads, len(sentences), longest), PAST_END)
    parked = np.zeros((model.layers, model.heads, len(sentences)))
    for b, s in enumerate(sentences):
        found[:, :, b, :len(s.tokens)], parked[:, :, b] = sentence_picks(model, list(s.tokens))
    return found, parked


def sentence_picks(model: minilm.Model, words: list[str]) -> tuple[np.ndarray, np.ndarray]:  # -> [L, h, m], [L, h]
    """The other word each head attends to most, for each word of one sentence; the share each head parks."""
    r = minilm.run(model, words)
    w = minilm.to_words(r.attention, r.pieces.word)
    return minilm.top_other(w), minilm.parked(w)


def accuracies(b: treebank.Batch, found: np.ndarray, relations: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Per relation, and "all" for every word with a head: each head's share of words it points at their head."""
    # Each share is [layers, heads]; a relation with no word in the batch is left out.
    has = b.head >= 0
    right = (found == b.head)[:, :, has]  # [layers, heads, words with a head]
    rel = b.relation[has]
    out = {"all": right.mean(axis=-1)}
    return out | {r: right[:, :, rel == r].mean(axis=-1) for r in relations if (rel == r).any()}


def best(accuracy: np.ndarray) -> tuple[str, float]:  # [layers, heads] -> label, accuracy
    """The head with the highest accuracy (the first on a tie, in layer then head order) and its accuracy."""
    layer, head = np.unravel_index(int(accuracy.argmax()), accuracy.shape)
    return minilm.label(int(layer), int(head)), float(accuracy[layer, head])


def finders(found: np.ndarray, gold: np.ndarray) -> list[list[str]]:  # [layers, heads, m], [m] -> m lists of labels
    """For each word of one sentence, the heads (by label, layer then head order) whose pick is its grammatical head."""
    # gold is treebank.gold: -1 where the word has none, and then no head finds it.
    right = (found == gold) & (gold >= 0)  # [layers, heads, m]
    return [[minilm.label(int(i), int(h)) for i, h in zip(*np.nonzero(right[:, :, w]), strict=True)]
            for w in range(len(gold))]


@dataclass(frozen=True)
class Measured:
    """Every head of the real model over a set of sentences, counted: what data/minilm-heads.csv keeps."""

    sentences: int
    words: dict[str, int]  # "all", then each relation (most words first): its words with a head
    right: dict[str, np.ndarray]  # the same keys: [layers, heads] of those words each head points at their head
    parked: np.ndarray  # [layers, heads] each head's share on [CLS] and [SEP], over sentences the mean of the words'

    def accuracy(self, relation: str) -> np.ndarray:  # -> [layers, heads]
        """Each head's share of the relation's words it points at their head."""
        return self.right[relation] / self.words[relation]

    def best(self, relation: str) -> tuple[str, float]:
        """The relation's best head (the first on a tie) and its accuracy."""
        return best(self.accuracy(relation))


def measure(model: minilm.Model, sentences: list[treebank.Sentence]) -> Measured:
    """Each head's words pointed at their head, per relation and in all, and its share parked, over `sentences`."""
    shape = (model.layers, model.heads)
    words: dict[str, int] = {"all": 0}
    right: dict[str, np.ndarray] = {"all": np.zeros(shape, dtype=np.int64)}
    parked = np.zeros(shape)
    for s in sentences:
        found, share = sentence_picks(model, list(s.tokens))
        head = treebank.gold(s)
        has, hit = head >= 0, found == head  # [m], [layers, heads, m]
        relation = np.array([treebank.short(r) for r in s.relations], dtype=object)
        for r in ("all", *sorted(set(relation[has]))):
            chosen = has & ((relation == r) | (r == "all"))
            words[r] = words.get(r, 0) + int(chosen.sum())
            right[r] = right.get(r, np.zeros(shape, dtype=np.int64)) + hit[:, :, chosen].sum(axis=-1)
        parked += share
    order = sorted(words, key=lambda r: (r != "all", -words[r], r))
    return Measured(len(sentences), {r: words[r] for r in order}, {r: right[r] for r in order},
                    parked / max(1, len(sentences)))


def write(path: Path, m: Measured, comments: list[str]) -> None:
    """`m` as UTF-8 CSV, comment lines first: a row per relation, and the row PARKED."""
    # A relation's row: its words, then each head's words right, heads in label order L1-H1 … L6-H12.
    # PARKED's row: the sentences, then each head's share, 4 decimals.
    layers, heads = m.parked.shape
    columns = ["relation", "count", *(minilm.label(i, h) for i in range(layers) for h in range(heads))]
    lines = [f"# {c}" for c in comments] + [",".join(columns)]
    lines += [",".join([r, str(n), *map(str, m.right[r].ravel().tolist())]) for r, n in m.words.items()]
    lines.append(",".join([PARKED, str(m.sentences), *(f"{v:.4f}" for v in m.parked.ravel().tolist())]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read(path: Path = SHIPPED) -> Measured:
    """What write() wrote."""
    rows = [line.split(",") for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    last = rows[0][-1]  # the last head's label, L<layers>-H<heads>
    shape = tuple(int(part[1:]) for part in last.split("-"))
    counts = {r[0]: r for r in rows[1:] if r[0] != PARKED}
    parked = next(r for r in rows[1:] if r[0] == PARKED)
    return Measured(int(parked[1]), {r: int(row[1]) for r, row in counts.items()},
                    {r: np.array(row[2:], dtype=np.int64).reshape(shape) for r, row in counts.items()},
                    np.array(parked[2:], dtype=np.float64).reshape(shape))


@functools.cache
def shipped() -> Measured:
    """data/minilm-heads.csv, read once per process."""
    return read()
