"""Class mode's question and the checks of what people type into it: class codes, nicknames and answers."""
import json
import unicodedata
from dataclasses import asdict, dataclass, fields

from engine.errors import ClassError

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I/L: codes are read aloud and copied from a board
CODE_LENGTH = 8
MAX_NICKNAME, MAX_WORD, MAX_LINK = 20, 100, 2000  # characters
MAX_KEYS, MAX_ORDERED = 64, 3
REASONS = ("angle", "length", "both")  # what makes the answer win (engine.relevance.winner)
LISTS = ("keys", "answer", "sentence")  # the fields that are lists in JSON and tuples here
LATER = {"sentence": (), "position": 0}  # fields added since classes began: a question stored before has none
UNSAFE = {"Cc", "Cs", "Zl", "Zp"}  # control characters, lone surrogates (not UTF-8), line and paragraph breaks
BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")  # overrides that make a name read backwards


@dataclass(frozen=True)
class Question:
    """Which of `keys` the `query` word attends to most (ordered=1), or the order of its top `ordered` keys."""

    view: str  # the page's name
    link: str  # the URL query string that opens the view
    query: str
    keys: tuple[str, ...]  # the candidates, 2..64, distinct
    ordered: int  # how many keys a student puts in order, 1..3
    answer: tuple[str, ...]  # the right order, `ordered` keys long
    reason: str  # what decides it: "angle" or "length"
    sentence: tuple[str, ...] = ()  # the words of the sentence the query is in, 0..64 (none: not shown)
    position: int = 0  # the query's word in it, from 1 (0: none marked)

    def __post_init__(self):
        checked(self)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, data: str) -> "Question":
        """The question in data; ClassError('bad_question') for anything else."""
        try:
            got = json.loads(data)
        except (TypeError, ValueError, RecursionError) as e:
            raise ClassError("bad_question", field="json") from e
        names = {f.name for f in fields(cls)}
        if not (isinstance(got, dict) and names - set(LATER) <= set(got) <= names
                and all(isinstance(got.get(f, []), list) for f in LISTS)):
            raise ClassError("bad_question", field="json")
        return cls(**{**LATER, **got, **{f: tuple(got.get(f, ())) for f in LISTS}})


def checked(q: Question) -> Question:
    """q when every field is within its limits, else ClassError('bad_question', field=the first that is not)."""
    keys_ok = (isinstance(q.keys, tuple) and 2 <= len(q.keys) <= MAX_KEYS and all(plain(k, MAX_WORD) for k in q.keys)
               and len(set(q.keys)) == len(q.keys))
    sentence_ok = (isinstance(q.sentence, tuple) and len(q.sentence) <= MAX_KEYS
                   and all(plain(w, MAX_WORD) for w in q.sentence))
    checks = (
        ("view", plain(q.view, MAX_WORD)),
        ("link", isinstance(q.link, str) and len(q.link) <= MAX_LINK and printable(q.link)),
        ("query", plain(q.query, MAX_WORD)),
        ("keys", keys_ok),
        ("ordered", keys_ok and type(q.ordered) is int and 1 <= q.ordered <= min(MAX_ORDERED, len(q.keys))),
        ("answer", keys_ok and isinstance(q.answer, tuple) and is_order(q.answer, q.keys, q.ordered)),
        ("reason", isinstance(q.reason, str) and q.reason in REASONS),
        ("sentence", sentence_ok),
        ("position", sentence_ok and type(q.position) is int and isinstance(q.query, str)
         and marks(q.sentence, q.position, q.query)),
    )
    for field, ok in checks:
        if not ok:
            raise ClassError("bad_question", field=field)
    return q


def marks(sentence: tuple[str, ...], position: int, query: str) -> bool:
    """True when position is 0 (no word marked), or names a word of sentence that the query's label is."""
    # the label may be followed by its position ("the (5)"), as the dashboard labels a word the sentence holds twice
    if position == 0:
        return True
    word = sentence[position - 1] if 1 <= position <= len(sentence) else None
    return word is not None and (query == word or query.startswith(f"{word} ("))


def printable(s: str) -> bool:
    """True when s holds no control character, line break, lone surrogate or direction override."""
    return not any(unicodedata.category(c) in UNSAFE or c in BIDI for c in s)


def plain(s: object, limit: int) -> bool:
    """True for a printable string of 1..limit characters."""
    return isinstance(s, str) and 1 <= len(s) <= limit and printable(s)


def is_order(words: object, keys: tuple[str, ...], n: int) -> bool:
    """True when words are n distinct members of keys."""
    return (isinstance(words, tuple | list) and len(words) == n and all(isinstance(w, str) and w in keys for w in words)
            and len(set(words)) == n)


def normal_code(code: object) -> str:
    """A class code as typed (any case, spaces or dashes) in its stored form; ClassError('bad_code') if none."""
    clean = code.strip().upper().replace(" ", "").replace("-", "") if isinstance(code, str) and len(code) < 40 else ""
    if len(clean) != CODE_LENGTH or any(c not in ALPHABET for c in clean):
        raise ClassError("bad_code")
    return clean


def nickname_checked(nickname: object) -> str | None:
    """A student's nickname stripped, None for none; ClassError for one too long or with control characters."""
    if nickname is None:
        return None
    if not isinstance(nickname, str):
        raise ClassError("nickname_chars")
    name = nickname.strip()
    if len(name) > MAX_NICKNAME:
        raise ClassError("nickname_long", limit=MAX_NICKNAME)
    if not printable(name):
        raise ClassError("nickname_chars")
    return name or None


