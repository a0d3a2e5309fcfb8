"""Charts onto the page: `chart(builder, *frames, **options)` draws charts.<builder>(*frames, **options).

Specs are built once and data swapped in: a builder in charts.DATA_FREE runs once per options and column types and
later draws only convert their frames to Arrow, so the browser swaps the data of the chart it already drew; other
builders run once per distinct input. Altair's schema check is skipped here (tests/test_charts.py runs it on every
builder). The one Streamlit internal used, its DataFrame-to-Arrow conversion, sits in `arrow_bytes` with a public
fallback."""
import io
import pickle

import altair as alt
import pandas as pd
import pyarrow as pa
import streamlit as st

from ui import charts
from ui.text import t


def chart(builder: str, *frames: pd.DataFrame, where=st, key: str | None = None, on_select=None,
          lang: str | None = None, **options):
    """Draw charts.<builder>(*frames, **options) at full width; clickable when given `on_select`; with `lang`,
    described for screen readers in that language (describe)."""
    if lang is not None:
        options["description"] = describe(builder, lang, options)
    spec, height = spec_of(builder, *frames, **options)
    size = {"width": "stretch", "height": page_height(builder, spec, height, frames)}
    if on_select is None:
        where.vega_lite_chart(spec, **size)
    else:
        where.vega_lite_chart(spec, **size, key=key, on_select=on_select, selection_mode=charts.PICK)


def page_height(builder: str, spec: dict, height: int | None, frames: tuple) -> int | str:
    """The chart's height on the page: a fixed plot height and room for title and axes; for a chart as high as the
    page makes it, what charts.<builder>_height says its frames need; else what the chart takes."""
    if height is not None:
        return height + 90
    return getattr(charts, f"{builder}_height")(*frames) if spec.get("height") == "container" else "content"


def describe(builder: str, lang: str, options: dict) -> str:
    """The catalogue's sentence about_<builder>, filled in with the chart's titles: what a screen reader reads out
    instead of Vega's field names."""
    return t(f"about_{builder}", lang, **{name: v for name, v in options.items() if isinstance(v, str)})


def spec_of(builder: str, *frames: pd.DataFrame, **options) -> tuple[dict, int | None]:
    """The Vega-Lite spec with the frames as Arrow datasets, and the plot height (None: the chart sizes itself)."""
    if builder in charts.DATA_FREE:
        spec, height, sources = data_free_spec(builder, *frames, **options)
        return {**spec, "datasets": {name: arrow(frames[i]) for name, i in sources}}, height
    return full_spec(builder, *frames, **options)


def columns(df: pd.DataFrame) -> tuple:
    """What a data-free spec depends on in a frame: its column names and types."""
    return tuple(df.columns), tuple(map(str, df.dtypes))


@st.cache_data(show_spinner=False, max_entries=200, hash_funcs={pd.DataFrame: columns})
def data_free_spec(builder: str, *frames: pd.DataFrame, **options) -> tuple[dict, int | None, list[tuple[str, int]]]:
    """The spec without its data, its plot height, and (dataset name, index into `frames`) for each dataset."""
    built = getattr(charts, builder)(*frames, **options)
    found = {}
    spec = named_data(built, found).to_dict(validate=False, context={"top_level": False})
    sources = []
    for name, df in found.items():
        index = next((i for i, f in enumerate(frames) if f is df), None)
        if index is None:
            raise ValueError(f"charts.{builder} draws a DataFrame it was not given, so it cannot be in DATA_FREE")
        sources.append((name, index))
    return spec, plot_height(built), sources


@st.cache_data(show_spinner=False, max_entries=100, hash_funcs={pd.DataFrame: lambda df: pickle.dumps(df, 5)})
def full_spec(builder: str, *frames: pd.DataFrame, **options) -> tuple[dict, int | None]:
    """The spec and plot height of a builder whose spec depends on its data, built once per distinct input;
    frames are hashed through pickle, twenty times faster than Streamlit's own DataFrame hash."""
    built = getattr(charts, builder)(*frames, **options)
    return vega_lite(built), plot_height(built)


def plot_height(built: alt.TopLevelMixin) -> int | None:
    """The chart's fixed plot height in pixels, or None when the page or its content decides it."""
    return built.height if isinstance(built.height, int) else None


def vega_lite(built: alt.TopLevelMixin) -> dict:
    """The chart's Vega-Lite spec, its DataFrames as named Arrow datasets. Built below the top level, so Altair's
    global theme and data transformer, which Streamlit switches while it draws, play no part."""
    frames = {}
    spec = named_data(built, frames).to_dict(validate=False, context={"top_level": False})
    return {**spec, "datasets": {name: arrow_bytes(df) for name, df in frames.items()}}


def named_data(built: alt.TopLevelMixin, frames: dict[str, pd.DataFrame]) -> alt.TopLevelMixin:
    """A shallow copy of the chart and its layers with each DataFrame replaced by its name (charts.dataset), the
    frames collected in `frames`."""
    built = built.copy(deep=False)
    if isinstance(built.data, pd.DataFrame):
        name = next((n for n, df in frames.items() if df is built.data), charts.dataset(len(frames)))
        frames[name] = built.data
        built.data = alt.NamedData(name)
    if isinstance(built, alt.LayerChart):
        built.layer = [named_data(layer, frames) for layer in built.layer]
    return built


@st.cache_data(show_spinner=False, max_entries=100, hash_funcs={pd.DataFrame: lambda df: pickle.dumps(df, 5)})
def arrow(df: pd.DataFrame) -> bytes:
    """A data-free chart's frame as Arrow bytes, converted once per distinct frame: a rerun that changed other
    things sends the same bytes again without converting."""
    return arrow_bytes(df)


def arrow_bytes(df: pd.DataFrame) -> bytes:
    """The Arrow IPC bytes Streamlit sends for a chart's frame: its own conversion where this Streamlit has it
    (tests/test_render.py checks it does, for the versions requirements.txt allows), else the public pyarrow path."""
    try:
        from streamlit.dataframe_util import convert_anything_to_arrow_bytes
    except ImportError:
        return public_arrow_bytes(df)
    return convert_anything_to_arrow_bytes(df)


def public_arrow_bytes(df: pd.DataFrame) -> bytes:
    """pyarrow's IPC stream of the frame without its index: what the chart reads, through public APIs only."""
    table = pa.Table.from_pandas(df, preserve_index=False)
    sink = io.BytesIO()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue()
