"""Target relevances: the text kept in the URL <-> the editable table <-> the engine's (query, key, target) triples."""
import math
import re

import pandas as pd

COLUMNS = ["query", "key", "target"]
EMPTY = "?"  # an empty cell in the text, so a half-filled row survives the trip through the URL
FIELD = re.compile(r"[^\s;]+(?:\s*\(\d+\))?")  # a word, or a row label of a repeated word: "the (5)"


def parse_targets(text: str) -> pd.DataFrame:
    """'milk drank 1; milk cat 0.5' -> one row of strings per item, '' for a cell written as '?'."""
    rows = []
    for item in text.split(";"):
        fields = ["" if f == EMPTY else f for f in FIELD.findall(item)]
        if not fields:
            continue
        if len(fields) > 3:  # extra words belong to the key: the message then names the whole key
            fields = [fields[0], " ".join(fields[1:-1]), fields[-1]]
        rows.append(fields + [""] * (3 - len(fields)))
    return pd.DataFrame(rows, columns=COLUMNS, dtype=object)


def format_targets(table: pd.DataFrame) -> str:
    """The table as 'query key target; ...', the inverse of parse_targets."""
    return "; ".join(" ".join(cell(row[c]) or EMPTY for c in COLUMNS) for _, row in table.iterrows())


def cell(value) -> str:
    """A table cell as stripped text; missing cells (None, NaN) as ''."""
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else str(value).strip()


def apply_edits(table: pd.DataFrame, edits: dict) -> pd.DataFrame:
    """The data editor's state {edited_rows, deleted_rows, added_rows} applied to the table it was shown."""
    out = table.copy().reset_index(drop=True)
    for row, changes in edits.get("edited_rows", {}).items():
        for column, value in changes.items():
            if column in COLUMNS:
                out.loc[int(row), column] = cell(value)
    out = out.drop(index=[int(r) for r in edits.get("deleted_rows", [])])
    added = [[cell(row.get(c)) for c in COLUMNS] for row in edits.get("added_rows", [])]
    return pd.concat([out, pd.DataFrame(added, columns=COLUMNS, dtype=object)], ignore_index=True)


def find_word(name: str, tokens: list[str], labels: list[str]) -> list[str]:
    """Row labels a written word can mean: its label, or every row of that token ('the' -> 'the (1)', 'the (5)')."""
    key = re.sub(r"\s+", "", name.lower())
    exact = [label for label in labels if re.sub(r"\s+", "", label.lower()) == key]
    return exact or [label for token, label in zip(tokens, labels) if token == key]


def resolve(table: pd.DataFrame, tokens: list[str], labels: list[str]):
    """(query, key, target) triples by row position, and the problems as (text key, values) for the learner."""
    triples, problems, seen = [], [], {}
    for number, (_, row) in enumerate(table.iterrows(), 1):
        query, key, value = (cell(row[c]) for c in COLUMNS)
        if not (query or key or value):
            continue
        found = [word_problem(number, what, word, tokens, labels, problems) for what, word in
                 (("query", query), ("key", key))]
        target = target_value(number, value, problems)
        if target is None or None in found:
            continue
        pair = (labels.index(found[0]), labels.index(found[1]))
        if pair in seen:
            problems.append(("target_duplicate", {"row": number, "first": seen[pair], "q": found[0], "k": found[1]}))
        else:
            seen[pair] = number
            triples.append((*pair, target))
    if not triples and not problems:
        problems.append(("targets_empty", {}))
    if not problems:
        for query in dict.fromkeys(q for q, _, _ in triples):
            if all(v == 0 for q, _, v in triples if q == query):
                problems.append(("target_all_zero", {"q": labels[query]}))
    return triples, problems


def word_problem(number: int, what: str, word: str, tokens: list[str], labels: list[str], problems: list):
    """The row label a written query or key word names, or None after noting the problem."""
    matches = find_word(word, tokens, labels) if word else []
    if not word:
        problems.append((f"target_no_{what}", {"row": number}))
    elif not matches:
        problems.append(("target_unknown", {"row": number, "word": word[:40], "words": labels}))
    elif len(matches) > 1:
        problems.append(("target_ambiguous", {"row": number, "word": word[:40], "labels": matches}))
    else:
        return matches[0]
    return None


def target_value(number: int, value: str, problems: list) -> float | None:
    """The written target as a number, or None after noting why it is not one."""
    try:
        target = float(value)
    except ValueError:
        target = None
    if not value:
        problems.append(("target_no_value", {"row": number}))
    elif target is None or not math.isfinite(target):
        problems.append(("target_not_number", {"row": number, "value": value[:40]}))
    elif target < 0:
        problems.append(("target_negative", {"row": number, "value": value[:40]}))
    else:
        return target
    return None
