"""Weight presets for the query, key and value linear layers."""
import numpy as np

PRESETS = ("identity", "scaled identity", "random", "rotation")


def preset(name: str, d_in: int, d_out: int, *, seed: int = 0, scale: float = 1.0) -> np.ndarray:  # -> [d_in, d_out]
    """Weights by preset name; `scale` multiplies every preset except plain identity."""
    rng = np.random.default_rng(seed)
    if name == "identity":
        return np.eye(d_in, d_out)
    if name == "scaled identity":
        return scale * np.eye(d_in, d_out)
    if name == "random":
        return scale * rng.normal(0.0, 1.0 / np.sqrt(d_in), size=(d_in, d_out))
    if name == "rotation":  # orthonormal columns, or orthonormal rows (an isometry) when d_out > d_in
        tall = random_rotation(rng, max(d_in, d_out), min(d_in, d_out))  # a [max, min] QR: O(d·d_k²)
        return scale * (tall if d_out <= d_in else tall.T)
    raise ValueError(f"Unknown layer preset '{name}'. Choose one of: {', '.join(PRESETS)}.")


def random_rotation(rng: np.random.Generator, d: int, k: int | None = None) -> np.ndarray:  # -> [d, k]
    """k columns of a Haar-random d×d rotation: reduced QR of a d×k Gaussian, signs of R's diagonal fixed."""
    k = d if k is None else k
    gaussian = rng.normal(size=(k, d)).T  # drawn column by column: k columns are a prefix of k + 1
    q, r = np.linalg.qr(gaussian)
    return q * np.where(np.diag(r) < 0, -1.0, 1.0)
