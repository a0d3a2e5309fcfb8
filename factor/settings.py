"""Page 2's slice of Settings."""
from dataclasses import dataclass

from kit.state import setting

SHIFT_RANGE = (-20.0, 20.0)  # what page 2's slider adds to the query's row of scores


@dataclass(frozen=True)
class Shift:
    """The number page 2 adds to the query's whole row of scores, to show the weights stay where they were."""

    shift: float = setting(5.0, spec=SHIFT_RANGE)
