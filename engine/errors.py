"""Problems a person can cause, raised as codes: the UI's catalogues say each one in the visitor's language."""


class CodedError(ValueError):
    """A problem by `code`, one of the class's CODES, and its values; TEXT_PREFIX + code is its catalogue key."""

    CODES: tuple[str, ...] = ()
    TEXT_PREFIX = "err_"

    def __init__(self, code: str, **values):
        if code not in self.CODES:
            raise KeyError(f"no such error code: {code}")
        super().__init__(f"{code} {values}")
        self.code, self.values = code, values


class VectorsError(CodedError):
    """A problem with a sentence, a vectors file or a download; the catalogues say each code (err_<code>)."""

    CODES = (
        "too_many_tokens", "offline", "not_utf8", "empty", "nul", "no_numbers", "not_number", "mixed_dims",
        "not_finite", "header_only", "header_lies", "duplicate", "too_big", "not_npy", "npy_unreadable",
        "words_not_utf8", "npy_shape", "npy_rows", "words_repeat", "npy_not_finite", "upload_pair", "upload_one",
        "too_many_dims", "too_many_words", "header_dims", "header_more", "bin_header", "bin_unreadable",
        "bin_not_finite", "download_damaged",
    )


class ClassError(CodedError):
    """A problem in class mode (classroom/classes.py); the catalogues (texts.toml) say each code (err_class_<code>)."""

    # unknown: no class has that code; expired: the class is past its time; ended: the teacher ended it;
    # not_teacher: wrong teacher key; not_student: a token that did not join this class; not_asking: answers are closed
    # (revealed); stale_question: an answer to a question the class has moved past; bad_answer: not `ordered` distinct
    # words from the keys; nickname_long / nickname_chars: over 20 characters / control characters or line breaks;
    # bad_code: not 8 characters of the code alphabet; rate_limited: too many tries, wait a minute; bad_question: a
    # question field out of its limits; db_version: the database was made by a newer version of the app;
    # full: the class has as many students as its teacher's cap (the teacher is told, not the student);
    # too_many_questions: the class has asked as many as it may; locked: the teacher closed joining; busy: the class's
    # bucket of joins from all addresses is empty (40 at once, then 0.6 a second: classroom/admission.py), or it took
    # 40 joins from this address in the last minute: `seconds` says how long to wait; removed: the teacher removed this
    # student (or this browser); rejoined: this browser has joined the class as often as one may; bad_cap: a cap out
    # of its range; too_many_classes: the database holds as many live classes as it may, none idle; no_seat: the
    # browser has no seat (classroom/seat.py) yet.
    CODES = (
        "unknown", "expired", "ended", "not_teacher", "not_student", "not_asking", "stale_question", "bad_answer",
        "nickname_long", "nickname_chars", "bad_code", "rate_limited", "bad_question", "db_version", "full",
        "too_many_questions", "locked", "busy", "removed", "rejoined", "bad_cap", "too_many_classes", "no_seat",
    )
    TEXT_PREFIX = "err_class_"
