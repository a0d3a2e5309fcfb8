"""Class mode's slice of Settings."""
from dataclasses import dataclass

from kit.state import setting


@dataclass(frozen=True)
class Room:
    """The code of the class this visitor was sent to (the class page's join form starts from it)."""

    room: str = setting("", limit=40, in_view=False)  # as typed, "ABCD 2345" or "abcd-2345" (questions.normal_code)
