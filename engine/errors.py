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
