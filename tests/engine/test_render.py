"""The chart pipeline: frames to Arrow bytes, specs built once and data swapped in, cells kept per matrix."""

import json
import re
from dataclasses import replace

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from kit import charts, render, tables

FRAME = tables.matrix_long(np.array([[1.0, -2.0], [0.5, 4.0]]), ["milk", "drank"], [1, 2], selected="milk")


def read(data: bytes) -> pd.DataFrame:
    return pa.ipc.open_stream(data).read_pandas()


def test_arrow_bytes_carry_the_frame_without_its_index():
    shuffled = FRAME.iloc[::-1]  # an index that is not 0..n-1 stays behind
    pd.testing.assert_frame_equal(read(render.arrow_bytes(shuffled)), shuffled.reset_index(drop=True))


def test_a_table_is_sent_as_it_is_and_built_into_its_frame_only_for_a_spec(monkeypatch):
    table = tables.matrix_table(np.array([[1.0, -2.0], [0.5, 4.0]]), ["milk", "drank"], [1, 2], selected="milk")
    pd.testing.assert_frame_equal(table.to_pandas(), FRAME)  # matrix_long is the same cells as a DataFrame
    render.forget()
    options = dict(titles=charts.Titles("t", "x", "y", "v"))
    by_frame = render.spec_of(charts.heatmap, FRAME, **options)[0]
    render.forget()
    converted = []
    real = render.as_frame
    monkeypatch.setattr(render, "as_frame", lambda d: converted.append(type(d).__name__) or real(d))
    by_table = render.spec_of(charts.heatmap, table, **options)[0]
    assert converted == ["Table"]  # once, for the spec; the data itself goes out as the table's own bytes
    again = render.spec_of(charts.heatmap, table, **options)[0]
    assert again["datasets"] == by_table["datasets"] and len(converted) == 1
    (data,) = by_table["datasets"].values()
    assert data == render.arrow_bytes(table)
    pd.testing.assert_frame_equal(read(data), read(next(iter(by_frame["datasets"].values()))))
    assert {k: v for k, v in by_table.items() if k != "datasets"} == {
        k: v for k, v in by_frame.items() if k != "datasets"
    }
    render.forget()


@pytest.mark.parametrize("builder", ["heatmap", "relevance_bars"])
def test_spec_of_carries_its_frames_as_arrow(builder):
    if builder == "heatmap":
        spec, height = render.spec_of(charts.heatmap, FRAME, titles=charts.Titles("t", "x", "y", "v"))
    else:
        frame = tables.relevance_table({"qk": np.array([0.5, -1.0])}, ["drank", "black"])
        spec, height = render.spec_of(charts.relevance_bars, frame, titles=charts.Titles("t", "x", "y", rank="r"))
    assert height is None  # no height of its own: as high as its words (a step each), the page as high as it draws
    assert render.page_height(getattr(charts, builder), spec, height, (FRAME,)) == "content"
    (data,) = spec["datasets"].values()
    assert len(read(data)) == (len(FRAME) if builder == "heatmap" else 2)


def test_a_data_free_spec_is_built_once_per_columns_and_options(monkeypatch):
    render.forget()
    built = []
    real = charts.heatmap
    monkeypatch.setattr(charts, "heatmap", replace(real, build=lambda *f, **o: built.append(o) or real(*f, **o)))
    other = tables.matrix_long(np.array([[9.0, 8.0], [7.0, 6.0]]), ["cat", "sat"], [1, 2])
    options = dict(titles=charts.Titles("t", "x", "y", "v"), cells=charts.Cells(x_ticks=(1, 2)))
    first = render.spec_of(charts.heatmap, FRAME, **options)[0]
    second = render.spec_of(charts.heatmap, other, **options)[0]
    assert len(built) == 1  # other numbers and words, same columns and options: the spec is reused
    assert {k: v for k, v in first.items() if k != "datasets"} == {k: v for k, v in second.items() if k != "datasets"}
    assert read(second["datasets"][next(iter(second["datasets"]))])["row"].tolist() == ["cat"] * 2 + ["sat"] * 2
    render.spec_of(charts.heatmap, FRAME, **{**options, "titles": charts.Titles("another", "x", "y", "v")})
    render.spec_of(charts.heatmap, FRAME, **{**options, "cells": charts.Cells(x_ticks=(2,))})
    assert len(built) == 3  # another option: built again
    render.forget()


def test_arrow_bytes_are_found_by_identity_and_forgotten_with_their_frame(monkeypatch):
    render.forget()
    converted = []
    real = render.arrow_bytes
    monkeypatch.setattr(render, "arrow_bytes", lambda df: converted.append(len(df)) or real(df))
    frame = FRAME.copy()
    data = render.arrow(frame)
    assert render.arrow(frame) is data and converted == [4]  # the same frame: its bytes, not converted again
    changed = FRAME.copy()
    changed.loc[0, "value"] = 42.0
    assert read(render.arrow(changed))["value"].iloc[0] == 42.0 and converted == [4, 4]
    key = id(frame)
    del frame
    assert key not in render.ARROW_OF  # forgotten with its frame
    render.forget()


def test_matrix_cells_come_once_per_matrix_labels_mask_and_pick():
    from kit import views
    a = np.array([[1.0, -2.0], [0.5, 4.0]])
    first = views.matrix_cells(a, ["milk", "drank"], [1, 2], None, "milk")
    assert views.matrix_cells(a.copy(), ["milk", "drank"], [1, 2], None, "milk") is first
    pd.testing.assert_frame_equal(first.to_pandas(), FRAME)
    mask = np.array([[True, False], [True, True]])
    assert views.matrix_cells(a, ["milk", "drank"], [1, 2], None, "drank") is not first
    assert views.matrix_cells(a, ["milk", "cat"], [1, 2], None, "milk")["row"].to_pylist()[2:] == ["cat", "cat"]
    assert views.matrix_cells(a, ["milk", "drank"], [1, 2], mask, "milk")["masked"].to_pylist() == [False, True, False,
                                                                                                  False]
    assert views.matrix_cells(a * 2, ["milk", "drank"], [1, 2], None, "milk")["value"].to_pylist() == [2, -4, 1, 8]
    assert views.matrix_cells(a.astype(np.float32), ["milk", "drank"], [1, 2], None, "milk") is first



@pytest.mark.parametrize(("rows", "cols", "drawn"), [
    (6, 6, "svg"), (6, 8, "svg"), (6, 16, "canvas"), (6, 50, "canvas"), (50, 16, "canvas"),  # the page's matrices
    (38, 38, "svg"), (64, 64, "canvas"),  # words by words: SVG, which a screen reader reads, up to Streamlit's canvas
])
def test_a_heatmap_of_many_cells_is_drawn_on_a_canvas_and_one_of_few_as_svg(rows, cols, drawn):
    words = [f"w{i}" for i in range(rows)]
    labels = words[:cols] + [f"x{i}" for i in range(cols - rows)] if rows == cols else list(range(1, cols + 1))
    cells = tables.matrix_table(np.arange(rows * cols, dtype=float).reshape(rows, cols) - 10, words, labels)
    spec, _ = render.spec_of(charts.heatmap, cells, titles=charts.Titles("t", "x", "y", "v"), description="d",
                             canvas=charts.on_canvas(words, labels))
    assert spec["usermeta"] == {"embedOptions": {"renderer": drawn}}
    assert spec["description"] == "d"  # canvas or not, the chart keeps the name a screen reader reads
    cells_aria = spec["vconcat"][0]["layer"][0]["mark"].get("aria", True)
    assert cells_aria == (drawn == "svg")  # each cell described only where a screen reader can reach it
    render.forget()


def test_a_heatmap_left_to_choose_leaves_its_renderer_to_streamlit():
    spec, _ = render.spec_of(charts.heatmap, FRAME, titles=charts.Titles("t", "x", "y", "v"))
    assert "usermeta" not in spec
    render.forget()


def test_a_clickable_heatmap_spec_is_the_same_text_every_time_it_is_built():
    """Streamlit's browser builds a chart anew only when its spec's text changes: no name Altair makes up per build
    (view_1, param_2) may reach it, or every edit would rebuild the chart."""
    frame = FRAME.assign(col=FRAME["row"])  # words by words, as the factor matrix
    built = [json.dumps(render.unbound(charts.heatmap(frame, charts.Titles("t", "x", "y", "v"), clickable=True))[0],
                        sort_keys=True) for _ in range(2)]
    assert built[0] == built[1]
    assert not re.search(r"\b(view|param)_\d+", built[0])
