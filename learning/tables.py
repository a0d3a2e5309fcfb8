"""Page 5's tables: the loss, each target pair's values step by step, a run as downloaded, the vectors in one plane, and
accuracy next to simple rules."""
import numpy as np
import pandas as pd
import pyarrow as pa


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
    """One row per (snapshot, vector): its 2-D position, word, role (q or k), whether highlighted, and its label's y."""
    # label_y: the highlighted labels of one snapshot kept a line apart, LABEL_GAP of the plane's span
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
