"""The one check of targets (a query word, a key word and the relevance wanted between them), and the targets of one
sentence grouped by query row for a run of training: what page 5's table and a corpus row are checked against."""
import math
from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np


@dataclass(frozen=True)
class Goal:
    """Targets grouped by query row: which keys each row compares and the distribution it aims for."""

    rows: np.ndarray  # [r]  distinct query positions, ascending
    mask: np.ndarray  # [r, n]  True on the row's targeted keys
    p: np.ndarray  # [r, n]  targets normalised to sum to 1 per row, 0 off the mask
    pair_row: np.ndarray  # [t]  row index (into rows) of each target pair
    pair_key: np.ndarray  # [t]  key position of each target pair



def target_problems(triples, high: float = math.inf) -> list[tuple[str, dict]]:  # t (query, key, relevance)
    """The one check of targets: why (query, key, relevance) triples cannot all be targets, as (code, values)."""
    # A triple's pair may be a 'duplicate' of an earlier usable triple `first` (not checked where its query or key
    # is None: a word not found); then its relevance may be 'missing' (None), 'not_number' (or not finite),
    # 'negative' or 'above' `high`. Each of these names its triple `i`. Only when none is found (and no word is
    # None): 'empty' without triples, or 'all_zero' for each `query` whose relevances are all 0.
    problems: list[tuple[str, dict]] = []
    seen: dict = {}
    for i, (query, key, value) in enumerate(triples):
        pair = None if query is None or key is None else (query, key)
        if pair in seen:
            problems.append(("duplicate", {"i": i, "first": seen[pair]}))
        wrong = relevance_problem(value, high)
        if wrong is not None:
            problems.append((wrong, {"i": i}))
        elif pair is not None:
            seen.setdefault(pair, i)
    if problems or any(query is None or key is None for query, key, _ in triples):
        return problems
    if not triples:
        return [("empty", {})]
    queries = dict.fromkeys(query for query, _, _ in triples)
    return [("all_zero", {"query": q}) for q in queries if all(v == 0 for p, _, v in triples if p == q)]


def relevance_problem(value, high: float) -> str | None:
    """Why `value` is no relevance from 0 to `high` (target_problems' codes), if it is not."""
    if value is None:
        return "missing"
    if not isinstance(value, Real) or not math.isfinite(value):
        return "not_number"
    if float(value) < 0:
        return "negative"
    return "above" if float(value) > high else None


def written_relevance(text: str) -> float | None:
    """A relevance as written, for target_problems: None when blank, NaN when it is no number."""
    if not text.strip():
        return None
    try:
        return float(text)
    except ValueError:
        return math.nan


GOAL_ERRORS = {  # target_problems' codes, as make_goal says them
    "empty": "Add at least one target: a (query word, key word, relevance) triple.",
    "missing": "Target {i} has relevance {value!r}; use a finite number such as 1, 0.5 or 0.",
    "not_number": "Target {i} has relevance {value!r}; use a finite number such as 1, 0.5 or 0.",
    "negative": "Target {i} has relevance {value}; relevances cannot be negative. Use 0 for 'not relevant'.",
    "duplicate": "The pair (query word {query}, key word {key}) has more than one target; give each pair one target.",
    "all_zero": "Every target of query word {query} is 0; give at least one of its key words a relevance above 0.",
}


def make_goal(targets: Sequence[tuple[int, int, float]], n: int) -> Goal:  # t triples, n words
    """Validate (query, key, target) triples and group them by query row."""
    triples = list(targets)
    errors = (position_error(i, triple, n) for i, triple in enumerate(triples, 1))
    end, error = next(((i, e) for i, e in enumerate(errors) if e is not None), (len(triples), None))
    problems = target_problems(triples[:end])  # the triples before the first one that names no word
    if problems and (error is None or "i" in problems[0][1]):
        raise goal_error(problems, triples)
    if error is not None:
        raise error
    queries, keys = (np.array([t[j] for t in triples], dtype=np.intp) for j in (0, 1))
    rows, pair_row = np.unique(queries, return_inverse=True)
    mask = np.zeros((len(rows), n), dtype=bool)
    mask[pair_row, keys] = True
    p = np.zeros((len(rows), n))
    p[pair_row, keys] = [t[2] for t in triples]
    return Goal(rows, mask, p / p.sum(axis=1, keepdims=True), pair_row, keys)


def position_error(i: int, triple, n: int) -> ValueError | None:
    """Why target i is not (query position, key position, relevance) in a sentence of n words, if it is not."""
    if len(triple) != 3:
        return ValueError(f"Target {i} should be (query word, key word, relevance), got {tuple(triple)}.")
    for position in triple[:2]:
        if not isinstance(position, Integral) or isinstance(position, bool):
            return ValueError(f"Target {i} names word position {position!r}; positions are whole numbers.")
        if not 0 <= int(position) < n:
            return ValueError(f"Target {i} names word position {position}, but the sentence has {n} words "
                              f"(positions 0 to {n - 1}).")
    return None


def goal_error(problems: list[tuple[str, dict]], triples: list) -> ValueError:
    """The first of target_problems' problems as make_goal says it (for 'all_zero', the lowest such query row)."""
    code, where = problems[0]
    if code == "all_zero":
        return ValueError(GOAL_ERRORS[code].format(query=min(w["query"] for _, w in problems)))
    query, key, value = triples[where["i"]] if "i" in where else (None, None, None)
    return ValueError(GOAL_ERRORS[code].format(i=where.get("i", 0) + 1, query=query, key=key, value=value))

