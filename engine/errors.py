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
    """A problem with a sentence, a vectors file or a download; ui/text's catalogues say each code (err_<code>)."""

    CODES = (
        "too_many_tokens", "offline", "not_utf8", "empty", "nul", "no_numbers", "not_number", "mixed_dims",
        "not_finite", "header_only", "header_lies", "duplicate", "too_big", "not_npy", "npy_unreadable",
        "words_not_utf8", "npy_shape", "npy_rows", "words_repeat", "npy_not_finite", "upload_pair", "upload_one",
        "too_many_dims", "too_many_words", "header_dims", "header_more", "bin_header", "bin_unreadable",
        "bin_not_finite", "download_damaged",
    )
