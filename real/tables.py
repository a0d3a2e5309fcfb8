"""Page 7's tables: a sentence's heads against the words attended to most, as lines and as a table, and the accuracy per
relation."""
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from kit.text import signed

MARKS = {True: "✓", False: "✗"}  # right and wrong, as a shape and not by colour alone
NONE = "—"  # a figure a model does not have


def head_lines_frame(labels: list[str], relations: list[str], head: np.ndarray, pick: np.ndarray,
                     weights: np.ndarray, names: dict[str, str]) -> pd.DataFrame:  # [n] ×3, [n, n]
    """One sentence's line view: a row per word, and for each word with a head its two lines, with their weights."""
    # a word's row: kind "word", its relation, and ✓ or ✗ where it has a head (head ≥ 0); its lines: "gold" to that head
    # and "right" or "wrong" to the key it weights most; `names` gives each kind its shown name
    n = len(labels)
    has = np.flatnonzero(np.asarray(head) >= 0)
    right = pick[has] == head[has]
    mark = np.full(n, "", dtype=object)
    mark[has] = [MARKS[bool(r)] for r in right]
    kind = np.concatenate([np.full(n, "word", dtype=object), np.full(len(has), "gold", dtype=object),
                           np.where(right, "right", "wrong").astype(object)])
    q = np.concatenate([np.arange(n), has, has])
    k = np.concatenate([np.arange(n), head[has], pick[has]])
    words = np.asarray(labels, dtype=object)
    rels = np.asarray(relations, dtype=object)
    return pd.DataFrame({
        "kind": kind, "line": [names.get(x, "") for x in kind],
        "query": words[q], "key": words[k], "q_pos": q, "k_pos": k, "relation": rels[q],
        "mark": np.concatenate([mark, np.full(2 * len(has), "", dtype=object)]),
        "right": np.concatenate([pick == head, np.ones(len(has), dtype=bool), right]),
        "weight": np.asarray(weights, dtype=np.float64)[q, np.concatenate([pick, head[has], pick[has]])],
    })


def heads_table(labels: list[str], relations: list[str], head: np.ndarray, pick: np.ndarray, weights: np.ndarray,
                said: dict[str, str]) -> pa.Table:  # [n] ×3, [n, n]
    """One row per word: its head and the weight on it, its top key and that weight, and whether they agree."""
    # `said` gives the words for 'root' and 'none' (why a word has no head), 'right' and 'wrong'
    n = len(labels)
    w = np.asarray(weights, dtype=np.float64)
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


Others = dict[str, dict[str, tuple[str, float]]]  # name -> relation -> (what it is, its share)
Learned = tuple[tuple[str, ...], list[str], dict[str, tuple[int, np.ndarray]]]  # heads' names, shown names, shares


def relations_table(relations: list[str], head: dict[str, tuple[int, float]], offsets: dict[str, tuple[int, float]],
                    meanings: dict[str, str], others: Others | None = None, learned: Learned | None = None) -> pa.Table:
    """One row per relation that occurs: its word count, the head's share right, the best fixed offset and its share."""
    # with `learned`, each head's share as heads_<name>, the best as heads_best and its shown name as heads_best_head
    # (the first on a tie); for each of `others`, its share as <name> and what it is as <name>_head, None without one
    shown = [r for r in relations if r in head]
    columns = {"relation": pa.array(shown, pa.string()),
               "meaning": pa.array([meanings[r] for r in shown], pa.string()),
               "count": pa.array([head[r][0] for r in shown], pa.int64()),
               "head": pa.array([head[r][1] for r in shown], pa.float64()),
               "offset": pa.array([f"{offsets[r][0]:+d}" for r in shown], pa.string()),
               "offset_accuracy": pa.array([offsets[r][1] for r in shown], pa.float64())}
    if learned is not None:
        columns |= learned_columns(shown, *learned)
    for name, figures in (others or {}).items():
        columns[name] = pa.array([figures[r][1] if r in figures else None for r in shown], pa.float64())
        columns[f"{name}_head"] = pa.array([figures[r][0] if r in figures else None for r in shown], pa.string())
    return pa.table(columns)


def learned_columns(relations: list[str], names: tuple[str, ...], shown: list[str],
                    shares: dict[str, tuple[int, np.ndarray]]) -> dict[str, pa.Array]:
    """relations_table's columns of several heads: each head's share per relation, the best of them and its name."""
    rows = np.array([shares[r][1] for r in relations], dtype=np.float64).reshape(len(relations), len(names))
    best = rows.argmax(axis=1) if len(relations) else np.zeros(0, dtype=int)  # the first on a tie
    columns = {f"heads_{name}": pa.array(rows[:, h], pa.float64()) for h, name in enumerate(names)}
    return columns | {"heads_best": pa.array(rows[np.arange(len(relations)), best], pa.float64()),
                      "heads_best_head": pa.array([shown[h] for h in best], pa.string())}


def percent_columns(table: pa.Table) -> list[str]:
    """The columns of relations_table that hold shares as fractions, the page shows in percent."""
    learned = [n for n in table.column_names if n.startswith("heads_") and not n.endswith("_head")]
    return ["head", "offset_accuracy", *learned]


def shown(table: pa.Table, others: tuple[str, ...]) -> pa.Table:
    """relations_table as the page shows it: shares in percent (51.2), and `others`' shares and heads written out."""
    # written out: "81.3%", "L3-H9"; "—" where a model has no figure for a relation
    for name in percent_columns(table):
        table = table.set_column(table.schema.get_field_index(name), name, pc.multiply(table[name], 100.0))
    for name in others:
        written = [NONE if v is None else f"{v:.1%}" for v in table[name].to_pylist()]
        table = table.set_column(table.schema.get_field_index(name), name, pa.array(written, pa.string()))
        table = table.set_column(table.schema.get_field_index(f"{name}_head"), f"{name}_head",
                                 pc.fill_null(table[f"{name}_head"], NONE))
    return table


def relation_bars_frame(table: pa.Table, series: list[str]) -> pd.DataFrame:
    """relations_table as two bars a relation: the head's share right and the best offset's, text at each bar's end."""
    df = table.to_pandas()
    n = len(df)
    label = (df["relation"] + " · " + df["meaning"]).tolist()
    head = [f"{a:.0%}" for a in df["head"]]
    offset = [f"{a:.0%} ({signed(o)})" for a, o in zip(df["offset_accuracy"], df["offset"], strict=False)]
    return pd.DataFrame({
        "label": label * 2, "r": list(range(n)) * 2, "series": [series[0]] * n + [series[1]] * n,
        "s": [0] * n + [1] * n, "accuracy": pd.concat([df["head"], df["offset_accuracy"]], ignore_index=True),
        "count": pd.concat([df["count"], df["count"]], ignore_index=True), "text": head + offset,
    })
