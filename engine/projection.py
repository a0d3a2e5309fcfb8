"""A flat view of many vectors: the one plane through the origin that keeps most of their length."""
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Plane:
    basis: np.ndarray  # [d, 2]  orthonormal columns: the plane's two axes
    kept: float  # share of the points' squared length that lies in the plane, 0..1


def fit_plane(points) -> Plane:  # [..., d]: every vector of every snapshot, fitted together
    """Uncentred PCA by SVD: the origin stays the origin, so arrows and angles from it keep their meaning."""
    points = np.asarray(points, dtype=np.float64)
    points = points.reshape(-1, points.shape[-1])
    _, sv, vt = np.linalg.svd(points, full_matrices=False)
    basis = np.zeros((points.shape[1], 2))
    basis[:, :min(2, len(vt))] = vt[:2].T
    # an SVD axis is only defined up to sign: make each axis's largest loading positive, for the same picture every time
    biggest = basis[np.argmax(np.abs(basis), axis=0), [0, 1]]
    basis *= np.where(biggest < 0, -1.0, 1.0)
    total = float((sv**2).sum())
    return Plane(basis, float((sv[:2] ** 2).sum() / total) if total > 0 else 0.0)


def fit_plane_qk(q, k) -> Plane:  # [m, n, d_k] ×2: every snapshot of a training run
    """One plane for every snapshot's queries and keys together, so that all frames share their axes."""
    return fit_plane(np.concatenate([np.asarray(q), np.asarray(k)], axis=1))


def project(vectors, plane: Plane) -> np.ndarray:  # [..., d] -> [..., 2]
    """Coordinates of each vector along the plane's two axes."""
    return np.asarray(vectors, dtype=np.float64) @ plane.basis


def pair_cosines(q, k, query, key) -> np.ndarray:  # [m, n, d] ×2, [t], [t] -> [m, t]
    """Cosine between q of each pair's query word and k of its key word at every snapshot (0 for a zero vector)."""
    a = np.asarray(q, dtype=np.float64)[:, query]  # [m, t, d]
    b = np.asarray(k, dtype=np.float64)[:, key]  # [m, t, d]
    norms = np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1)
    dots = (a * b).sum(axis=-1)
    return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)
