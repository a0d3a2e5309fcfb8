"""The swap's slice of Settings (pages 2 and 4)."""
from dataclasses import dataclass

from kit.state import setting


@dataclass(frozen=True)
class Swap:
    """A word swapped or removed: "position:word" replaces the word at that position, "position:" removes it."""

    swap: str = setting("", limit=43)  # "63:" and the new word's 40 characters
