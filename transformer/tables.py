"""Page 8's tables: every head of the real model as one grid of small heatmaps, the sentence's word pieces, and for each
word which heads find the word it belongs to."""
import numpy as np
import pyarrow as pa

SHOWN = 0.02  # the grid draws a cell from this weight up: the rest would be near white anyway, and a 60-word sentence
# has 270,000 cells where about 30,000 reach it
TOP = 0.24  # of a head's box: the band that holds its name, above its cells
SIDE, FOOT = 0.05, 0.04  # of a head's box: margins beside and below its cells
GAP = 0.6  # columns between the words and [CLS], [SEP]
LISTED = 8  # heads a word's row names before "…"
MARKS = {True: "✓", False: "✗"}


def grid_table(words: np.ndarray, labels: list[str], special: tuple[str, str], picked: tuple[int, int],
               parked: np.ndarray, held: np.ndarray,
               names: np.ndarray) -> tuple[pa.Table, pa.Table]:  # words [L, H, m, m + 2]; parked, held, names [L, H]
    """The grid as two tables. Boxes, one row per head: its name, where its box stands and where its name is written
    (middle, band), whether it is `picked`, its share `parked` on this sentence and its accuracy `held` out ([L, H]
    each). Cells, one per weight of SHOWN or more: its head, query and key words, weight and place. Head (l, h) has
    the box [h, h + 1] × [l, l + 1]; its cells fill it below the band of its name, a column per key word, then a gap,
    then [CLS] and [SEP]. Two tables, so that the browser draws each part from its own rows without sorting them out
    of one (an expression per row and part, which Vega interprets under the site's policy)."""
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
    """Every weight of every head at word level, one row each (the grid's numbers, none left out): the head, its layer
    and number, the query word, the key word ([CLS] and [SEP] after the words) and the weight."""
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


def finders_table(labels: list[str], relations: list[str], gold: np.ndarray, found: np.ndarray, picked: tuple[int, int],
                  ours: np.ndarray, names: np.ndarray, said: dict[str, str]) -> pa.Table:  # [m] ×3, [L, H, m], …, [m]
    """One row per word: its relation, the word it belongs to (or why none: `said` names 'root' and 'none'), how many
    heads and which (by name, `names` [L, H]) pick that word, what the picked head and ours pick, marked ✓ or ✗."""
    right = (found == gold) & (gold >= 0)  # [L, H, m]
    chosen = found[picked]

    def belongs(i: int) -> str:
        return labels[gold[i]] if gold[i] >= 0 else said["root" if relations[i] == "root" else "none"]

    def listed(i: int) -> str:
        which = names[right[:, :, i]].tolist()
        return ", ".join(which[:LISTED]) + (" …" if len(which) > LISTED else "")

    def marked(j: int, i: int) -> str:
        return f"{labels[j]} {MARKS[bool(j == gold[i])]}" if gold[i] >= 0 else labels[j]
    rows = range(len(labels))
    return pa.table({
        "word": pa.array(labels, pa.string()), "relation": pa.array(relations, pa.string()),
        "head": pa.array([belongs(i) for i in rows], pa.string()),
        "count": pa.array(right.sum(axis=(0, 1)).tolist(), pa.int64()),
        "heads": pa.array([listed(i) for i in rows], pa.string()),
        "picked": pa.array([marked(int(chosen[i]), i) for i in rows], pa.string()),
        "ours": pa.array([marked(int(ours[i]), i) for i in rows], pa.string())})
