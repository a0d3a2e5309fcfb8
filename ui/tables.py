"""Arrays + labels -> DataFrames, or Arrow tables where a page sends them as they are (a heatmap's cells, the tables
st.dataframe shows): the one bridge from the engine to pandas and Arrow."""
import numpy as np
import pandas as pd
import pyarrow as pa

from engine import attention
from engine.alignment import PairAlignment
from engine.sources import nearest


def matrix_long(a: np.ndarray, rows: list[str], cols: list, *, mask: np.ndarray | None = None,
                selected: str | None = None) -> pd.DataFrame:  # [n, m] -> n·m rows
    """One row per cell: row and column label and position, value, whether it is strong (beyond 60% of the largest
    |value|, drawn dark), masked, or in the selected row. matrix_table as a DataFrame."""
    return matrix_table(a, rows, cols, mask=mask, selected=selected).to_pandas()


def matrix_table(a: np.ndarray, rows: list[str], cols: list, *, mask: np.ndarray | None = None,
                 selected: str | None = None) -> pa.Table:  # [n, m] -> n·m rows
    """matrix_long's cells as an Arrow table, built straight from the arrays: what a heatmap sends, as it is
    (views.matrix_cells)."""
    n, m = a.shape
    values = np.asarray(a, dtype=np.float64).ravel()
    largest = float(np.abs(values).max(initial=0.0))
    r, c = np.repeat(np.arange(n), m), np.tile(np.arange(m), n)
    return pa.table({
        "row": pa.array(np.asarray(rows, dtype=object)[r]),  # indexing in numpy: 6× faster than pyarrow's take
        "col": pa.array(np.asarray(cols, dtype=object)[c]),
        "r": r,
        "c": c,
        "value": values,
        "strong": np.abs(values) > 0.6 * largest,
        "masked": np.zeros(n * m, dtype=bool) if mask is None else ~np.asarray(mask, dtype=bool).ravel(),
        "selected": np.repeat(np.asarray([w == selected for w in rows], dtype=bool), m),
    })


def matrix_wide(a: np.ndarray, rows: list[str], cols: list) -> pd.DataFrame:  # [n, m]
    """The matrix with its row and column labels, as downloaded."""
    return pd.DataFrame(np.asarray(a), index=pd.Index(rows, name="word"), columns=cols)


def dims(d: int) -> list[int]:
    """1-based dimension labels."""
    return list(range(1, d + 1))


def contributions(weights_row: np.ndarray, v: np.ndarray, keys: list[str]) -> pd.DataFrame:  # [n_k], [n_k, d_v]
    """Each value row scaled by its weight, per dimension; the column sums are the query's row of Z."""
    n_k, d_v = v.shape
    part = attention.contributions(weights_row, v)  # [n_k, d_v]
    return pd.DataFrame({
        "key": np.repeat(keys, d_v),
        "k": np.repeat(np.arange(n_k), d_v),
        "dim": np.tile(dims(d_v), n_k),
        "weight": np.repeat(weights_row, d_v),
        "contribution": part.ravel(),
    })


def weights_frame(weights_row: np.ndarray, keys: list[str], mask_row: np.ndarray | None = None) -> pd.DataFrame:
    """The chosen query's weight on each key word."""
    return pd.DataFrame({"key": keys, "k": np.arange(len(keys)), "weight": weights_row,
                         "masked": False if mask_row is None else ~np.asarray(mask_row)})


def alignment_frame(pair: PairAlignment, by_size: bool = False) -> pd.DataFrame:
    """Per-dimension products with sign group, in dimension order or largest |product| first; running sum in that
    order."""
    order = np.argsort(-np.abs(pair.products), kind="stable") if by_size else np.arange(len(pair.products))
    return pd.DataFrame({
        "dim": np.asarray(dims(len(pair.products)))[order],
        "rank": np.arange(1, len(order) + 1),
        "product": pair.products[order],
        "group": pair.groups[order],
        "running": np.cumsum(pair.products[order]),
    })


def signs_table(rows: np.ndarray, labels: list[str]) -> pa.Table:  # [m, d], [m]
    """Vectors stacked one above the other, one row per (vector, dimension); v is the vector's place. Sent as it is."""
    m, d = np.shape(rows)
    return pa.table({
        "vector": pa.array(np.repeat(np.asarray(labels, dtype=object), d), pa.string()),
        "v": np.repeat(np.arange(m), d),
        "dim": np.tile(dims(d), m),
        "value": np.asarray(rows, dtype=np.float64).ravel(),
    })


def group_table(pair: PairAlignment, names: dict[str, str]) -> pa.Table:
    """Counts and sums of products per sign group."""
    return pa.table({"group": [names[g] for g in pair.counts], "dimensions": list(pair.counts.values()),
                     "sum": pa.array(list(pair.sums.values()), pa.float64())})


def neighbours_frame(kv, words: list[str], sources: list[str], n: int = 5) -> pd.DataFrame:
    """Each word's n nearest vocabulary neighbours by cosine, and the source word most similar to it."""
    out = []
    for w in dict.fromkeys(words):
        near = ", ".join(f"{x} ({c:.2f})" for x, c in nearest(kv, w, n))
        row = {"word": w, "neighbours": near}
        if sources:
            sim = {src: float(kv.similarity(w, src)) for src in dict.fromkeys(sources)}
            row["closest_source"] = max(sim, key=sim.get)
            row["cosine"] = sim[row["closest_source"]]
        out.append(row)
    return pd.DataFrame(out)


def ranks(scores: np.ndarray) -> np.ndarray:  # [n] -> [n]
    """1 for the highest score, 2 for the next; ties share the better rank."""
    v = np.asarray(scores, dtype=np.float64)
    return 1 + (v[None, :] > v[:, None]).sum(axis=1)


def relevance_table(scores: dict[str, np.ndarray], keys: list[str]) -> pa.Table:  # {measure: [n_k]}
    """One row per (measure, key word): the query's score for the word and its rank under that measure. Sent as it
    is."""
    values = [np.asarray(v, dtype=np.float64) for v in scores.values()]
    return pa.table({"measure": pa.array(np.repeat(np.asarray(list(scores), dtype=object), len(keys)), pa.string()),
                     "key": pa.array(np.tile(np.asarray(keys, dtype=object), len(values)), pa.string()),
                     "score": np.concatenate(values) if values else np.empty(0),
                     "rank": np.concatenate([ranks(v) for v in values]) if values else np.empty(0, dtype=int)})


def ranking_table(scores: dict[str, np.ndarray], keys: list[str]) -> pa.Table:  # {measure: [n_k]}
    """One row per key word in sentence order: each measure's score and rank side by side."""
    columns = {"word": pa.array(keys, pa.string())}
    for m, v in scores.items():
        columns[m], columns[f"{m}_rank"] = np.asarray(v, dtype=np.float64), ranks(v)
    return pa.table(columns)


def loss_frame(loss, start: int = 0) -> pd.DataFrame:  # [s]
    """The training loss at every step, the first being step `start`."""
    return pd.DataFrame({"step": np.arange(start, start + len(loss)), "loss": np.asarray(loss, dtype=np.float64)})


def curves_frame(values: np.ndarray, pairs: list[str], steps=None) -> pd.DataFrame:  # [s, t] -> s·t rows
    """One row per (step, target pair): the pair's value at that step; steps 0, 1, 2, … unless given."""
    s, t = np.shape(values)
    steps = np.arange(s) if steps is None else np.asarray(steps)
    return pd.DataFrame({"step": np.repeat(steps, t), "pair": np.tile(np.asarray(pairs, dtype=object), s),
                         "value": np.asarray(values, dtype=np.float64).ravel()})


def training_table(h, pairs: list[str]) -> pd.DataFrame:  # h: engine.training.History
    """Every step of a run, one row per (step, target pair): the numbers behind the curves, as downloaded."""
    s, t = h.scores.shape
    return pd.DataFrame({
        "step": np.repeat(np.arange(s), t), "pair": np.tile(np.asarray(pairs, dtype=object), s),
        "target": np.tile([v for _, _, v in h.targets], s), "goal_share": np.tile(h.goal, s),
        "share": h.probs.ravel(), "score": h.scores.ravel(), "weight": h.weights.ravel(),
        "loss": np.repeat(h.loss, t),
    })


def targets_result(h, pairs: list[str]) -> pa.Table:  # h: engine.training.History
    """One row per target pair: what it aimed for, and where its score, share and weight started and ended."""
    return pa.table({
        "pair": pa.array(pairs, pa.string()), "target": pa.array([v for _, _, v in h.targets], pa.float64()),
        "goal_share": np.asarray(h.goal, dtype=np.float64),
        "share": h.probs[-1], "weight": h.weights[-1], "score_start": h.scores[0], "score_end": h.scores[-1],
    })


LABEL_GAP = 0.045  # of the vector plane's span: a 12 px label line on its 440 px square


def plane_frame(q: np.ndarray, k: np.ndarray, labels: list[str], steps: np.ndarray, focus_q: list[str],
                focus_k: list[str]) -> pd.DataFrame:  # q, k [m, n, 2] -> 2·m·n rows
    """One row per (snapshot, vector): its 2-D position, word, role (q or k), whether it is highlighted, and where its
    label goes (label_y: the highlighted labels of one snapshot kept a line apart, LABEL_GAP of the plane's span)."""
    m, n, _ = q.shape
    parts = []
    for role, xy, focus in (("q", q, focus_q), ("k", k, focus_k)):
        parts.append(pd.DataFrame({
            "frame": np.repeat(np.arange(m), n), "step": np.repeat(np.asarray(steps), n),
            "word": np.tile(np.asarray(labels, dtype=object), m), "role": role,
            "name": np.tile(np.asarray([f"{role} · {w}" for w in labels], dtype=object), m),
            "x": xy[..., 0].ravel(), "y": xy[..., 1].ravel(), "focus": np.tile(np.isin(labels, focus), m),
        }))
    df = pd.concat(parts, ignore_index=True)
    span = max(np.ptp(np.append(df["x"], 0.0)), np.ptp(np.append(df["y"], 0.0)), 1e-9)
    df["label_y"] = df["y"]
    shown = df[df["focus"]].sort_values(["frame", "y"])
    df.loc[shown.index, "label_y"] = shown.groupby("frame")["y"].transform(lambda y: spread(y.to_numpy(),
                                                                                              LABEL_GAP * span))
    return df


def spread(y: np.ndarray, gap: float) -> np.ndarray:  # [k] sorted -> [k]
    """Positions at least `gap` apart, each as close above its own as that allows (labels that would overlap)."""
    out = y.astype(float)
    for i in range(1, len(out)):
        out[i] = max(out[i], out[i - 1] + gap)
    return out


def lengths_table(lengths, rows: list[str], names: dict[str, str]) -> pa.Table:  # lengths: engine Lengths
    """One row per (word, part): the length of the word's GloVe row and of its positional row. Sent as it is."""
    n = len(rows)
    return pa.table({"row": pa.array(list(rows) * 2, pa.string()), "r": np.tile(np.arange(n), 2),
                     "part": pa.array([names["word"]] * n + [names["position"]] * n, pa.string()),
                     "length": np.concatenate([lengths.word, lengths.position]).astype(np.float64)})


def length_angle_table(la, keys: list[str]) -> pa.Table:  # la: engine LengthAngle over the keys
    """One row per key: q·k, |q|, |k| and cos θ, with the ranks they give."""
    return pa.table({"word": pa.array(keys, pa.string()), "dot": la.dot, "q_len": np.full(len(keys), float(la.q_len)),
                     "k_len": la.k_len, "cos": la.cos,
                     "dot_rank": ranks(la.dot), "cos_rank": ranks(la.cos), "len_rank": ranks(la.k_len)})


def accuracy_frame(steps, accuracy: dict[str, np.ndarray]) -> pd.DataFrame:  # [s], {line: [s]} -> rows
    """One row per (line, step) with an accuracy there, lines in the order given; steps not measured (NaN) left out."""
    steps = np.asarray(steps)
    values = np.concatenate([np.asarray(v, dtype=np.float64) for v in accuracy.values()]) if accuracy else np.empty(0)
    df = pd.DataFrame({"step": np.tile(steps, len(accuracy)), "line": np.repeat(list(accuracy), len(steps)),
                       "value": values})
    return df[np.isfinite(df["value"])].reset_index(drop=True)


def levels_frame(levels: dict[str, float]) -> pd.DataFrame:  # {name: accuracy}
    """One row per simple rule and the accuracy it reaches; rules without a number (NaN) left out."""
    df = pd.DataFrame({"name": list(levels), "value": np.array(list(levels.values()), dtype=np.float64)})
    return df[np.isfinite(df["value"])].reset_index(drop=True)


def attention_lines_frame(weights: np.ndarray, q_labels: list[str], k_labels: list[str], mask: np.ndarray | None = None,
                          head_names: list[str] | None = None, *, softmax: bool = True) -> pd.DataFrame:
    """One row per visible (head, query, key) pair of weights [h, n_q, n_k] or [n_q, n_k] under mask [n_q, n_k]
    (masked pairs get no row), positions (q_pos, k_pos, h) telling repeated words apart. A line's opacity is its
    softmax weight itself; raw scores, of any size and sign, become |score| ÷ the largest |score| shown."""
    w = np.asarray(weights, dtype=np.float64)
    w = w[None] if w.ndim == 2 else w
    h, n_q, n_k = w.shape
    seen = np.ones((n_q, n_k), dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
    head, q, k = np.nonzero(np.broadcast_to(seen, w.shape))
    values = w[head, q, k]
    largest = float(np.abs(values).max(initial=0.0))
    opacity = np.clip(values, 0.0, 1.0) if softmax else np.abs(values) / (largest or 1.0)
    names = np.asarray(head_names if head_names is not None else [str(x + 1) for x in range(h)], dtype=object)
    return pd.DataFrame({
        "head": names[head], "h": head,
        "query": np.asarray(q_labels, dtype=object)[q], "key": np.asarray(k_labels, dtype=object)[k],
        "q_pos": q, "k_pos": k, "weight": values, "opacity": opacity,
    })


MARKS = {True: "✓", False: "✗"}  # right and wrong, as a shape and not by colour alone


def head_lines_frame(labels: list[str], relations: list[str], head: np.ndarray, pick: np.ndarray,
                     weights: np.ndarray, names: dict[str, str]) -> pd.DataFrame:  # [n] ×3, [n, n]
    """One sentence's line view: a row per word (kind "word", with its relation and a ✓ or ✗ where it has a head);
    for each word with a head (head ≥ 0), a line to that head ("gold") and one to the key it weights most ("right"
    when that is the head, else "wrong"), each with the weight of that pair; `names` gives each kind its shown name."""
    n = len(labels)
    has = np.flatnonzero(np.asarray(head) >= 0)
    right = pick[has] == head[has]
    mark = np.full(n, "", dtype=object)
    mark[has] = [MARKS[bool(r)] for r in right]
    kind = np.concatenate([np.full(n, "word", dtype=object), np.full(len(has), "gold", dtype=object),
                           np.where(right, "right", "wrong").astype(object)])
    q = np.concatenate([np.arange(n), has, has])
    k = np.concatenate([np.arange(n), head[has], pick[has]])
    words, rels = np.asarray(labels, dtype=object), np.asarray(relations, dtype=object)
    return pd.DataFrame({
        "kind": kind, "line": [names.get(x, "") for x in kind],
        "query": words[q], "key": words[k], "q_pos": q, "k_pos": k, "relation": rels[q],
        "mark": np.concatenate([mark, np.full(2 * len(has), "", dtype=object)]),
        "right": np.concatenate([pick == head, np.ones(len(has), dtype=bool), right]),
        "weight": np.asarray(weights, dtype=np.float64)[q, np.concatenate([pick, head[has], pick[has]])],
    })


def heads_table(labels: list[str], relations: list[str], head: np.ndarray, pick: np.ndarray, weights: np.ndarray,
                said: dict[str, str]) -> pa.Table:  # [n] ×3, [n, n]
    """One row per word: its relation, the word it belongs to (or why none: `said` names 'root' and 'none') and the
    weight on it (written to 3 decimals, a dash where there is none), the key it weights most and that weight, and
    whether they are the same word (`said` names 'right' and 'wrong'; nothing where the word has no head)."""
    n, w = len(labels), np.asarray(weights, dtype=np.float64)
    rows = np.arange(n)
    has = np.asarray(head) >= 0

    def belongs(i: int) -> str:
        if has[i]:
            return labels[head[i]]
        return said["root"] if relations[i] == "root" else said["none"]
    return pa.table({
        "word": pa.array(labels, pa.string()), "relation": pa.array(relations, pa.string()),
        "head": pa.array([belongs(i) for i in rows], pa.string()),
        "head_weight": pa.array([f"{w[i, head[i]]:.3f}" if has[i] else "—" for i in rows], pa.string()),
        "top": pa.array([labels[j] for j in pick], pa.string()), "top_weight": w[rows, pick],
        "right": pa.array([said["right" if pick[i] == head[i] else "wrong"] if has[i] else "" for i in rows],
                          pa.string())})


def relations_table(relations: list[str], head: dict[str, tuple[int, float]], offsets: dict[str, tuple[int, float]],
                    meanings: dict[str, str]) -> pa.Table:
    """One row per relation that occurs: how many words have it, the share the head gets right, the best fixed
    offset for it and the share that offset gets right."""
    shown = [r for r in relations if r in head]
    return pa.table({"relation": pa.array(shown, pa.string()),
                     "meaning": pa.array([meanings[r] for r in shown], pa.string()),
                     "count": pa.array([head[r][0] for r in shown], pa.int64()),
                     "head": pa.array([head[r][1] for r in shown], pa.float64()),
                     "offset": pa.array([f"{offsets[r][0]:+d}" for r in shown], pa.string()),
                     "offset_accuracy": pa.array([offsets[r][1] for r in shown], pa.float64())})


def relation_bars_frame(table: pa.Table, series: list[str]) -> pd.DataFrame:
    """relations_table as two bars a relation: the head's share right and the best offset's (`series` names them),
    with the text written at each bar's end."""
    df = table.to_pandas()
    n = len(df)
    label = (df["relation"] + " · " + df["meaning"]).tolist()
    head = [f"{a:.0%}" for a in df["head"]]
    offset = [f"{a:.0%} ({o})" for a, o in zip(df["offset_accuracy"], df["offset"], strict=False)]
    return pd.DataFrame({
        "label": label * 2, "r": list(range(n)) * 2, "series": [series[0]] * n + [series[1]] * n,
        "s": [0] * n + [1] * n, "accuracy": pd.concat([df["head"], df["offset_accuracy"]], ignore_index=True),
        "count": pd.concat([df["count"], df["count"]], ignore_index=True), "text": head + offset,
    })


def room_frame(keys: list[str], first: list[int], right: str | None) -> pd.DataFrame:  # [n_k], [n_k]
    """How many students put each key first, in the keys' order (k), and whether it is the revealed answer."""
    return pd.DataFrame({"key": keys, "k": range(len(keys)), "students": first, "right": [w == right for w in keys]})


FORMULA = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads as the start of a formula


def class_answers(rows: list[dict]) -> pd.DataFrame:
    """A class's answers as its CSV: one row per answer; a nickname a spreadsheet would run as a formula is quoted."""
    frame = pd.DataFrame(rows, columns=["question_no", "query", "student", "nickname", "answer", "right", "seconds"])
    def inert(text):
        return f"'{text}" if isinstance(text, str) and text.startswith(FORMULA) else text
    for column in ("nickname", "query", "answer"):
        frame[column] = frame[column].map(inert)
    return frame
