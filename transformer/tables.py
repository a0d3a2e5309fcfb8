"""Page 8's tables: every head of the real model as one grid of small heatmaps, the sentence's word pieces, and for each
word which heads find the word it belongs to, and how clearly."""
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from engine.attention import lead

SHOWN = 0.02  # the grid draws a cell from this weight up: the rest would be near white anyway, and a 60-word sentence
# has 270,000 cells where about 30,000 reach it
TOP = 0.24  # of a head's box: the band that holds its name, above its cells
SIDE, FOOT = 0.05, 0.04  # of a head's box: margins beside and below its cells
GAP = 0.6  # columns between the words and [CLS], [SEP]
LISTED = 8  # heads a word's row names before "…"
CLEAR = 0.05  # a find is clear when its word is ahead of the next other word by this much of the row's attention or
# more: a twentieth of the row, a step the heatmaps' scale from 0 shows as a different shade and the table's two
# decimals as a plain gap, where 0.01 is neither; on the article's sentence 20 of the 89 finds win by less than 0.01,
# 49 by less than this
PARKED = 0.5  # …and when the row puts at most half on [CLS] and [SEP]: past that the head mostly looks at neither word,
# and its pick is the largest of what is left over (L3-H2 puts 95% of milk's row on [CLS] and 0.015 on drank)


def grid_table(words: np.ndarray, labels: list[str], special: tuple[str, str], picked: tuple[int, int],
               parked: np.ndarray, held: np.ndarray,
               names: np.ndarray) -> tuple[pa.Table, pa.Table]:  # words [L, H, m, m + 2]; parked, held, names [L, H]
    """The grid as two tables: boxes, one row per head, and cells, one per weight of SHOWN or more."""
    # head (l, h) has the box [h, h + 1] × [l, l + 1]; its cells fill it below the band of its name, a column per key
    # word, then a gap, then [CLS] and [SEP]. Two tables, so that the browser draws each part from its own rows without
    # sorting them out of one (an expression per row and part, which Vega interprets under the site's policy)
    layers, heads, m, _ = words.shape
    box_l, box_h = np.divmod(np.arange(layers * heads), heads)
    cell_l, cell_h, q, k = np.nonzero(words >= SHOWN)
    column = (1 - 2 * SIDE) / (m + 2 + GAP)
    row = (1 - TOP - FOOT) / max(m, 1)
    x0 = cell_h + SIDE + column * (k + GAP * (k >= m))
    y0 = cell_l + TOP + row * q
    keys = [*labels, *special]
    boxes = pa.table({
        "head": pa.array(names.ravel(), pa.string()),
        "x0": box_h.astype(np.float32), "x1": (box_h + 1).astype(np.float32),
        "y0": box_l.astype(np.float32), "y1": (box_l + 1).astype(np.float32),
        "middle": (box_h + 0.5).astype(np.float32), "band": (box_l + TOP / 2).astype(np.float32),
        "picked": (box_l == picked[0]) & (box_h == picked[1]),
        "parked": parked.ravel().astype(np.float64), "held": held.ravel().astype(np.float64),
    })
    cells = pa.table({
        "head": indexed(cell_l * heads + cell_h, names.ravel().tolist()),
        "x0": x0.astype(np.float32), "x1": (x0 + column).astype(np.float32),
        "y0": y0.astype(np.float32), "y1": (y0 + row).astype(np.float32),
        "query": indexed(q, keys), "key": indexed(k, keys),
        "weight": words[cell_l, cell_h, q, k],
    })
    return boxes, cells


def heads_long(words: np.ndarray, labels: list[str], special: tuple[str, str],
               names: np.ndarray) -> pa.Table:  # [L, H, m, m + 2], [m], …, [L, H]
    """Every weight of every head at word level, one row each ([CLS] and [SEP] keys after the words), none left out."""
    layers, heads, m, n = words.shape
    cell_l, cell_h, q, k = (a.ravel() for a in np.indices(words.shape))
    keys = [*labels, *special]
    return pa.table({"head": indexed(cell_l * heads + cell_h, names.ravel().tolist()),
                     "layer": pa.array(cell_l + 1, pa.int64()), "number": pa.array(cell_h + 1, pa.int64()),
                     "query": indexed(q, keys), "key": indexed(k, keys), "weight": words.ravel()})


def indexed(indices: np.ndarray, strings: list[str]) -> pa.Array:  # [rows] -> [rows]
    """strings[i] for each index, made in Arrow: no Python string per row (a 60-word sentence's grid has 270,000)."""
    return pa.DictionaryArray.from_arrays(pa.array(indices, pa.int32()), pa.array(strings, pa.string())).cast(
        pa.string())


def pieces_table(pieces: tuple[str, ...], word: np.ndarray, labels: list[str],
                 special: tuple[str, str]) -> pa.Table:  # [n] pieces, [n] word of each (-1: [CLS], [SEP])
    """One row per word piece, in order: the piece and the word it belongs to ([CLS] and [SEP] their own)."""
    belongs = [labels[w] if w >= 0 else special[0] if i == 0 else special[1] for i, w in enumerate(word.tolist())]
    return pa.table({"position": pa.array(range(len(pieces)), pa.int64()), "piece": pa.array(pieces, pa.string()),
                     "word": pa.array(belongs, pa.string())})


def split_words(word: np.ndarray, pieces: tuple[str, ...], labels: list[str]) -> list[tuple[str, list[str]]]:
    """The words the tokenizer cut into more than one piece, each with its pieces."""
    return [(labels[w], [pieces[i] for i in np.flatnonzero(word == w)]) for w in range(len(labels))
            if (word == w).sum() > 1]


@dataclass(frozen=True)
class Looks:
    """Where heads look most from each word, and how clearly."""

    found: np.ndarray  # [..., m] the other word weighted most
    weight: np.ndarray  # [..., m] its weight
    lead: np.ndarray  # [..., m] how far it is ahead of the next other word
    special: np.ndarray  # [..., m, 2] the row's weights on [CLS] and [SEP]

    @property
    def clear(self) -> np.ndarray:  # [..., m]
        """Where the pick is clear: CLEAR or more ahead, with at most PARKED of the row on [CLS] and [SEP]."""
        return (self.lead >= CLEAR) & (self.special.sum(axis=-1) <= PARKED)


def looks(words: np.ndarray, found: np.ndarray, candidates: np.ndarray) -> Looks:  # [..., m, m + 2], [..., m], [m, m]
    """Looks from word-level weights (to the words, then [CLS] and [SEP]) and the word each row picked."""
    # `found` was picked among `candidates` (Clark et al.: every other word), the only words its lead counts
    m = words.shape[-2]
    weight = np.take_along_axis(words, found[..., None], axis=-1)[..., 0]
    return Looks(found, weight, lead(np.where(candidates, words[..., :m], 0.0)), words[..., m:])


def mark(look: Looks, i: int, gold: int, labels: list[str], special: tuple[str, str], say: Callable[..., str]) -> str:
    """One head's pick from word i, said by say(kind, **values): 'pick', 'wrong', 'parked', 'close' or 'clear'."""
    # 'pick': the word has no head; 'parked': most of the row on [CLS] and [SEP] (where, and how much);
    # 'close': less than CLEAR ahead
    j = int(look.found[i])
    values = {"word": labels[j], "weight": float(look.weight[i])}
    cls, sep = (float(x) for x in look.special[i])
    if gold < 0 or j != gold or look.clear[i]:
        return say("pick" if gold < 0 else "wrong" if j != gold else "clear", **values)
    if cls + sep > PARKED:
        where, share = ((special[0], cls) if cls > PARKED else (special[1], sep) if sep > PARKED else
                        (" + ".join(special), cls + sep))
        return say("parked", **values, where=where, share=share)
    return say("close", **values, lead=float(look.lead[i]))


def finders_table(labels: list[str], relations: list[str], gold: np.ndarray, real: Looks, picked: tuple[int, int],
                  ours: Looks, names: np.ndarray, special: tuple[str, str],
                  say: Callable[..., str]) -> pa.Table:  # [m] ×3, real [L, H, m], …, ours [m], [L, H]
    """One row per word: its relation and head, which heads find it, and the picked head's pick and ours, marked."""
    # no head: say('root') or say('none'); how many heads find it clearly and how many barely, the clear ones by name
    right = (real.found == gold) & (gold >= 0)  # [L, H, m]
    clear = right & real.clear

    def belongs(i: int) -> str:
        return labels[gold[i]] if gold[i] >= 0 else say("root" if relations[i] == "root" else "none")

    def listed(i: int) -> str:
        which = names[clear[:, :, i]].tolist()
        return ", ".join(which[:LISTED]) + (" …" if len(which) > LISTED else "")
    chosen = Looks(*(x[picked] for x in (real.found, real.weight, real.lead, real.special)))
    rows = range(len(labels))
    return pa.table({
        "word": pa.array(labels, pa.string()), "relation": pa.array(relations, pa.string()),
        "head": pa.array([belongs(i) for i in rows], pa.string()),
        "count": pa.array(clear.sum(axis=(0, 1)).tolist(), pa.int64()),
        "close": pa.array((right & ~real.clear).sum(axis=(0, 1)).tolist(), pa.int64()),
        "heads": pa.array([listed(i) for i in rows], pa.string()),
        "picked": pa.array([mark(chosen, i, int(gold[i]), labels, special, say) for i in rows], pa.string()),
        "ours": pa.array([mark(ours, i, int(gold[i]), labels, special, say) for i in rows], pa.string())})
