"""The layers' slice of Settings: how much position counts, the width d_k, each linear layer's preset, seed and scale,
and the recipe of the learner's own run, which the "run" preset fits again."""
from dataclasses import dataclass

from engine import corpus, treebank
from engine.layers import PRESETS
from engine.positional import WEIGHT
from kit.state import setting

# W_Q/W_K fitted on a corpus: the head learned from the treebank's real sentences (the default), the fit on the
# template sentences, or the learner's own run on page 5
LEARNED = ("trained", "templates", "run")
QK_PRESETS = LEARNED + PRESETS
PRESET_NAMES = {"trained": "preset_trained", "templates": "preset_templates", "run": "preset_run",  # as shown
                "identity": "preset_identity", "scaled identity": "preset_scaled identity", "random": "preset_random",
                "rotation": "preset_rotation"}
SEEDS, SCALES = (0, 9999), (1e-3, 1e6)


@dataclass(frozen=True)
class Layers:
    """What W_Q, W_K and W_V are."""

    position: float = setting(WEIGHT, spec=(0.0, 3.0))
    d_k: int = setting(16, spec=(1, 300))
    q_preset: str = setting("trained", spec=QK_PRESETS)
    q_seed: int = setting(1, spec=SEEDS)
    q_scale: float = setting(1.0, spec=SCALES)
    k_preset: str = setting("trained", spec=QK_PRESETS)
    k_seed: int = setting(2, spec=SEEDS)
    k_scale: float = setting(1.0, spec=SCALES)
    v_preset: str = setting("random", spec=PRESETS)
    v_seed: int = setting(3, spec=SEEDS)
    v_scale: float = setting(1.0, spec=SCALES)
    # page 5's corpus run, on the treebank's real sentences or on the template sentences: the "run" preset's recipe
    run_on: str = setting("treebank", spec=("treebank", "templates"))
    run_steps: int = setting(treebank.LIVE.steps, spec=(1, corpus.MAX_STEPS))
    run_lr: float = setting(treebank.LIVE.lr, spec=(1e-4, 1.0))
    run_seed: int = setting(0, spec=SEEDS)
