"""Target relevances: the text kept in the URL <-> the editable table <-> the engine's (query, key, target) triples."""
import math
import re

import pandas as pd

from engine.targets import target_problems, written_relevance

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
    return exact or [label for token, label in zip(tokens, labels, strict=False) if token == key]


def resolve(table: pd.DataFrame, tokens: list[str], labels: list[str]):
    """(query, key, target) triples by row position, and the problems as (text key, values) for the learner."""
    # each row's words are checked first, then the rows by engine.targets.target_problems
    rows: list[tuple[int, int | None, int | None, str]] = []  # (number, query, key, written target) of each row
    problems: list[tuple[str, dict]] = []
    for number, (_, row) in enumerate(table.iterrows(), 1):
        query, key, value = (cell(row[c]) for c in COLUMNS)
        if query or key or value:
            q, k = (word_problem(number, what, word, tokens, labels, problems) for what, word in
                    (("query", query), ("key", key)))
            rows.append((number, None if q is None else labels.index(q), None if k is None else labels.index(k), value))
    given = [(query, key, written_relevance(value)) for _, query, key, value in rows]
    checked = target_problems(given)
    # one problem per row: a bad target, else a repeated pair (a row with a bad target is no pair to repeat)
    last = {where["i"]: (code, where) for code, where in checked if "i" in where}
    triples = [t for i, t in enumerate(given) if i not in last and None not in t[:2]]
    said = [learner_problem(code, where, rows, labels) for code, where in (list(last.values()) if last else checked)]
    return triples, sorted(problems + said, key=lambda problem: problem[1].get("row", 0))  # stable: words first


def word_problem(number: int, what: str, word: str, tokens: list[str], labels: list[str], problems: list):
    """The row label a written query or key word names, or None after noting the problem."""
    matches = find_word(word, tokens, labels) if word else []
    if not word:
        problems.append(({"query": "target_no_query", "key": "target_no_key"}[what], {"row": number}))
    elif not matches:
        problems.append(("target_unknown", {"row": number, "word": word[:40], "words": labels}))
    elif len(matches) > 1:
        problems.append(("target_ambiguous", {"row": number, "word": word[:40], "labels": matches}))
    else:
        return matches[0]
    return None


def learner_problem(code: str, where: dict, rows: list, labels: list[str]) -> tuple[str, dict]:
    """One of target_problems' problems as the catalogue key and the values the learner reads."""
    # `rows` holds each checked row's (number, query, key, written target)
    if code == "empty":
        return "targets_empty", {}
    if code == "all_zero":
        return "target_all_zero", {"q": labels[where["query"]]}
    number, query, key, value = rows[where["i"]]
    if code == "duplicate":
        return "target_duplicate", {"row": number, "first": rows[where["first"]][0], "q": labels[query],
                                    "k": labels[key]}
    if code == "missing":
        return "target_no_value", {"row": number}
    said = {"not_number": "target_not_number", "negative": "target_negative"}[code]
    return said, {"row": number, "value": value[:40]}
