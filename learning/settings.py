"""Page 5's slice of Settings: training on the learner's own targets (the corpus run's recipe is the layers', in
fits/settings.py, as the "run" preset fits it again)."""
from dataclasses import dataclass

from engine.objective import SIGN_WEIGHT
from engine.training import MAX_LR, MAX_STEPS
from kit.state import setting

LEARNS = {"w_q": "learn_w_q", "w_k": "learn_w_k", "w_v": "learn_w_v", "x": "learn_x"}  # what can learn, as shown
STARTS = {"sidebar": "learn_start_sidebar", "random": "learn_start_random"}  # where training starts, as shown


@dataclass(frozen=True)
class Training:
    """The targets, what learns and how, and where it starts."""

    targets: str = "milk drank 1; milk cat 0.5; milk black 0"
    learn: str = setting("w_q,w_k", limit=100)  # what learns, "w_q, w_k, w_v, x" at most, with room to spare
    lr: float = setting(0.01, spec=(1e-4, MAX_LR))
    steps: int = setting(200, spec=(1, MAX_STEPS))
    train_seed: int = setting(0, spec=(0, 9999))
    cosine: bool = False
    learn_start: str = setting("sidebar", spec=tuple(STARTS))
    sign_weight: float = setting(SIGN_WEIGHT, spec=(0.0, 20.0))  # how much the objective's sign term counts
