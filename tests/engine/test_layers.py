"""Layer presets: shapes, scale, seeds, orthonormal rotations, random spread, unknown names."""
import numpy as np
import pytest

from engine.layers import PRESETS, preset, random_rotation

SHAPES = [(50, 50), (50, 16), (8, 3), (4, 6)]


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("d_in, d_out", SHAPES)
def test_shape(name, d_in, d_out):
    w = preset(name, d_in, d_out, seed=3, scale=2.0)
    assert w.shape == (d_in, d_out)
    assert np.isfinite(w).all()


@pytest.mark.parametrize("d_in, d_out", SHAPES)
def test_identity_ignores_scale(d_in, d_out):
    np.testing.assert_array_equal(preset("identity", d_in, d_out, scale=7.0), np.eye(d_in, d_out))


def test_scaled_identity():
    np.testing.assert_array_equal(preset("scaled identity", 5, 3, scale=2.5), 2.5 * np.eye(5, 3))


@pytest.mark.parametrize("name", ["random", "rotation"])
def test_same_seed_same_weights_other_seed_other_weights(name):
    np.testing.assert_array_equal(preset(name, 20, 10, seed=4), preset(name, 20, 10, seed=4))
    assert not np.allclose(preset(name, 20, 10, seed=4), preset(name, 20, 10, seed=5))


@pytest.mark.parametrize("name", ["random", "rotation"])
def test_scale_multiplies(name):
    np.testing.assert_allclose(preset(name, 12, 6, seed=1, scale=3.0), 3.0 * preset(name, 12, 6, seed=1))


@pytest.mark.parametrize("d_in, d_out", [(50, 50), (50, 16), (8, 3)])
def test_rotation_has_orthonormal_columns(d_in, d_out):
    w = preset("rotation", d_in, d_out, seed=2)
    np.testing.assert_allclose(w.T @ w, np.eye(d_out), atol=1e-12)


def test_rotation_wider_than_input_keeps_lengths():
    w, x = preset("rotation", 4, 6, seed=2), np.random.default_rng(0).normal(size=(3, 4))
    np.testing.assert_allclose(w @ w.T, np.eye(4), atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(x @ w, axis=1), np.linalg.norm(x, axis=1))


def test_fewer_rotation_columns_are_a_prefix_of_the_full_rotation():
    np.testing.assert_allclose(preset("rotation", 8, 3, seed=1), preset("rotation", 8, 8, seed=1)[:, :3], atol=1e-12)


def test_random_rotation_is_orthogonal():
    r = random_rotation(np.random.default_rng(0), 6)
    np.testing.assert_allclose(r @ r.T, np.eye(6), atol=1e-12)
    assert abs(np.linalg.det(r)) == pytest.approx(1.0)


@pytest.mark.parametrize("d_in", [50, 400])
def test_random_spread_is_one_over_sqrt_d_in(d_in):
    w = preset("random", d_in, 300, seed=0)
    assert w.std() == pytest.approx(1 / np.sqrt(d_in), rel=0.05)
    assert abs(w.mean()) < 0.1 / np.sqrt(d_in)


@pytest.mark.parametrize("name", ["", "Identity", "learned", "rot"])
def test_unknown_name_is_a_clear_error(name):
    with pytest.raises(ValueError, match="Unknown layer preset") as e:
        preset(name, 3, 3)
    assert all(p in str(e.value) for p in PRESETS)


@pytest.mark.parametrize("d_in, d_out", [(4000, 16), (16, 4000)])
def test_rotation_of_a_large_upload_is_one_4000_by_16_qr(monkeypatch, d_in, d_out):
    shapes, qr = [], np.linalg.qr
    monkeypatch.setattr(np.linalg, "qr", lambda a, *args, **kw: shapes.append(a.shape) or qr(a, *args, **kw))
    w = preset("rotation", d_in, d_out, seed=5)
    assert shapes == [(4000, 16)] and w.shape == (d_in, d_out)
    narrow = w if d_out < d_in else w.T
    np.testing.assert_allclose(narrow.T @ narrow, np.eye(16), atol=1e-12)
