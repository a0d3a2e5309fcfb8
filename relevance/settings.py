"""Page 4's slice of Settings: the order the learner expects."""
from dataclasses import dataclass

from kit.state import setting


@dataclass(frozen=True)
class Expectation:
    """The keys in the order the learner expects them, as typed ("drank > cat > black")."""

    expected: str = setting("drank > cat > black", limit=200, in_view=False)
