"""Class mode's tables: how the room answered, and a class's answers as its CSV."""
import pandas as pd


def room_frame(keys: list[str], first: list[int], right: str | None) -> pd.DataFrame:  # [n_k], [n_k]
    """How many students put each key first, in the keys' order (k), and whether it is the revealed answer."""
    return pd.DataFrame({"key": keys, "k": range(len(keys)), "students": first, "right": [w == right for w in keys]})


FORMULA = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads as the start of a formula
COLUMNS = ("question_no", "sentence", "query", "right_answer", "student", "nickname", "answer", "right", "time_utc",
           "seconds_since_class_opened", "seconds_since_question")  # the CSV's header, named for a spreadsheet


def class_answers(rows: list[dict]) -> pd.DataFrame:
    """A class's answers as its CSV: one row per answer given; a text a spreadsheet would run as a formula is quoted."""
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    def inert(text):
        return f"'{text}" if isinstance(text, str) and text.startswith(FORMULA) else text
    for column in ("sentence", "query", "right_answer", "nickname", "answer", "time_utc"):
        frame[column] = frame[column].map(inert)
    return frame
