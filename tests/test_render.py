"""The chart pipeline's one Streamlit internal: its DataFrame-to-Arrow conversion, and the public fallback."""
import builtins
import importlib.metadata

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from packaging.version import Version

from ui import render, tables

FRAME = tables.matrix_long(np.array([[1.0, -2.0], [0.5, 4.0]]), ["milk", "drank"], [1, 2], selected="milk")


def read(data: bytes) -> pd.DataFrame:
    return pa.ipc.open_stream(data).read_pandas()


def test_the_installed_streamlit_has_the_conversion_the_pipeline_uses():
    """Tied to the versions requirements.txt allows: if an upgrade moves it, this fails and names the fix."""
    version = Version(importlib.metadata.version("streamlit"))
    assert Version("1.67") <= version < Version("2")
    from streamlit.dataframe_util import convert_anything_to_arrow_bytes  # noqa: F401 (the import is the check)


def test_the_public_fallback_sends_the_same_table():
    internal, public = read(render.arrow_bytes(FRAME)), read(render.public_arrow_bytes(FRAME))
    pd.testing.assert_frame_equal(internal.reset_index(drop=True), public, check_dtype=False)
    pd.testing.assert_frame_equal(public, FRAME.reset_index(drop=True), check_dtype=False)


def test_without_the_internal_the_pipeline_falls_back(monkeypatch):
    real = builtins.__import__

    def refuse(name, *args, **kwargs):
        if name == "streamlit.dataframe_util":
            raise ImportError("moved in this version")
        return real(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", refuse)
    assert render.arrow_bytes(FRAME) == render.public_arrow_bytes(FRAME)


@pytest.mark.parametrize("builder", ["heatmap", "relevance_bars"])
def test_spec_of_carries_its_frames_as_arrow(builder):
    if builder == "heatmap":
        spec, height = render.spec_of("heatmap", FRAME, title="t", x_title="x", y_title="y", value_title="v")
        assert height is None  # no height of its own: render.chart gives it one from its rows (page_height)
    else:
        frame = tables.relevance_frame({"qk": np.array([0.5, -1.0])}, ["drank", "black"])
        spec, height = render.spec_of("relevance_bars", frame, title="t", x_title="x", y_title="y", rank_title="r")
        assert height == 60
    (data,) = spec["datasets"].values()
    assert len(read(data)) == (len(FRAME) if builder == "heatmap" else 2)
