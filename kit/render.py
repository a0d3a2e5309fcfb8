"""Charts onto the page: `chart(builder, *frames, titles=charts.Titles(...), **options)` draws
builder(*frames, titles=..., **options), described for screen readers in the run's language (describe).

Specs are built once and data swapped in: a data-free builder (charts.Builder) runs once per options and column types
and later draws only convert their frames to Arrow, so the browser swaps the data of the chart it already drew; other
builders run once per distinct input. Altair's schema check is skipped here (tests/engine/test_charts.py runs it on
every builder). Frames become Arrow bytes through pyarrow's public API (arrow_bytes); no Streamlit internal is used.

The page's one save menu, under its intro (save_menu), holds every chart drawn: SVG, PNG, and CSV of its numbers where
given, named <page>-<chart>-<sentence> (name_files, which frame.context calls, says the page and sentence). Its buttons
are built only while it is open, and the files written only when a button is clicked, off the script thread (the
pictures by vl-convert): a closed menu costs a rerun one element, whatever the number of charts."""
import collections
import contextvars
import dataclasses
import functools
import hashlib
import json
import os
import pickle
import re
import threading
import unicodedata
import weakref
from collections.abc import Callable
from typing import Any

import altair as alt
import pandas as pd
import pyarrow as pa
import streamlit as st

from engine.tokens import has_cjk
from kit import charts, narrow
from kit.text import plain, t

SPECS: collections.OrderedDict = collections.OrderedDict()  # built specs by key (kept), least recently used first
SPECS_KEPT, SPECS_LOCK = 200, threading.Lock()
ARROW_OF: dict[int, tuple[weakref.ref, bytes]] = {}  # id(frame) -> (the frame, its Arrow bytes), while it lives
ARROW_BY_ID = 1000  # frames remembered so at most
SENTENCE_CHARS, CHART_CHARS = 60, 24  # the longest sentence and chart parts of a file name
CJK_FONTS = ("/usr/share/fonts/opentype/noto", "/usr/share/fonts/noto-cjk", "/usr/share/fonts/truetype/noto")
# Fonts of a saved chart, the first one found: vl-convert draws a whole label in a fallback font (a serif one) once
# a character is missing, so Chinese text needs a CJK font first, and other text one that has ᵀ, √ and −.
FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif"
CJK_FONT = "Noto Sans CJK SC, Noto Sans SC, Source Han Sans SC, WenQuanYi Micro Hei, " + FONT
FILES: contextvars.ContextVar["Files"] = contextvars.ContextVar("files")  # this run's Files
# What runs before each chart: while a fit's results are drawn in its turn, the fit queue has it give way to other
# visitors' pages (fits/queue.py, showing)
PAUSE: contextvars.ContextVar[Callable[[], None]] = contextvars.ContextVar("pause", default=lambda: None)
WIDE = "wide_chart"  # the key of a container whose chart may be wider than a phone: it scrolls sideways in its box


@dataclasses.dataclass(frozen=True)
class Files:
    """This run's file names: page and sentence slugs, how often each chart name was given, the open save menu."""
    page: str
    sentence: str
    given: dict[str, int]
    menu: Any = None  # the open save menu; None while it is closed


@dataclasses.dataclass(frozen=True)
class Csv:
    """A chart's numbers as a CSV file in its save menu: the button's key and what writes the file when clicked."""
    key: str
    write: Callable[[], str | bytes]  # a function of nothing, called off the script thread like the pictures'


@dataclasses.dataclass(frozen=True)
class Save:
    """A chart's line in the page's save menu: its label, the name of its files, and its numbers as CSV."""
    name: str | None = None  # else file_stem's fallbacks
    label: str | None = None  # else the chart's title
    csv: Csv | None = None


def chart(builder: charts.Builder, *frames: pd.DataFrame | pa.Table, where=st, key: str | None = None, on_select=None,
          width: str = "stretch", save: Save | None = Save(), **options):
    """Draw builder(*frames, **options), the options holding its `titles`, and list it in the page's save menu."""
    # width="content": as wide as its spec says; save=None: not in the save menu
    PAUSE.get()()  # a training run's results let others' pages go first
    options["description"] = describe(builder, options["titles"])
    spec, height = spec_of(builder, *frames, **options)
    size = {"width": width, "height": page_height(builder, spec, height, frames)}
    if on_select is None:
        where.vega_lite_chart(spec, **size)
    else:
        where.vega_lite_chart(spec, **size, key=key, on_select=on_select, selection_mode=charts.PICK)
    if save is not None:
        save_entry(builder, frames, options, save, key)


def page_height(builder: charts.Builder, spec: dict, height: int | None, frames: tuple) -> int | str:
    """The chart's height on the page: its plot height with room for title and axes, else what it needs or takes."""
    if height is not None:
        return height + 90
    return builder.height(*frames) if builder.height and spec.get("height") == "container" else "content"


def describe(builder: charts.Builder, titles: charts.Titles) -> str:
    """What a screen reader reads out for the chart instead of Vega's field names: builder.about with its titles."""
    return t(builder.about, **titles.fields())


def spec_of(builder: charts.Builder, *frames: pd.DataFrame, **options) -> tuple[dict, int | None]:
    """The Vega-Lite spec with the frames as Arrow datasets, and the plot height (None: the chart sizes itself)."""
    if builder.data_free:
        spec, height, sources = data_free_spec(builder, *frames, **options)
        return {**spec, "datasets": {name: arrow(frames[i]) for name, i in sources}}, height
    spec, height = full_spec(builder, *frames, **options)
    return {**spec}, height  # Streamlit takes the datasets out of the spec it is given


def columns(df: pd.DataFrame | pa.Table) -> tuple:
    """What a data-free spec depends on in a frame: its column names and types."""
    if isinstance(df, pa.Table):
        return tuple(df.column_names), tuple(map(str, df.schema.types))
    return tuple(df.columns), tuple(map(str, df.dtypes))


def as_frame(data: pd.DataFrame | pa.Table) -> pd.DataFrame:
    """A chart's data as the DataFrame its builder reads, an Arrow table (a heatmap's cells) converted."""
    # called only where a spec or a file is built
    return data.to_pandas() if isinstance(data, pa.Table) else data


def data_free_spec(builder: charts.Builder, *frames: pd.DataFrame,
                   **options) -> tuple[dict, int | None, list[tuple[str, int]]]:
    """The spec without its data, its plot height, and (dataset name, index into `frames`) for each dataset."""
    key = ("free", builder.build, tuple(map(columns, frames)), options_key(options))
    return built_once(key, lambda: build_data_free(builder, *frames, **options))


def full_spec(builder: charts.Builder, *frames: pd.DataFrame, **options) -> tuple[dict, int | None]:
    """The spec and plot height of a builder whose spec depends on its data, built once per distinct input."""
    digest = hashlib.blake2b(b"".join(pickle.dumps(f, 5) for f in frames), digest_size=16).digest()
    return built_once(("full", builder.build, digest, options_key(options)),
                      lambda: vega_lite(builder(*frames, **options)))


def options_key(options: dict) -> str:
    """A chart's options as JSON text: Streamlit's own hash of them took as long as the rest of a chart."""
    return json.dumps(options, sort_keys=True, default=repr)


def built_once(key: tuple, build: Callable[[], tuple]):
    """build() once per key, shared by every session, the SPECS_KEPT most recently used kept."""
    # handed out as they are, never copied as Streamlit's cache is (it unpickles a copy on every hit): callers must not
    # change them
    with SPECS_LOCK:
        found = SPECS.get(key)
        if found is not None:
            SPECS.move_to_end(key)
            return found
    found = build()
    with SPECS_LOCK:
        SPECS[key] = found
        while len(SPECS) > SPECS_KEPT:
            SPECS.popitem(last=False)
    return found


def forget() -> None:
    """Drop the specs and Arrow bytes kept for reuse (benchmarks that time charts built anew)."""
    with SPECS_LOCK:
        SPECS.clear()
    ARROW_OF.clear()


def build_data_free(builder: charts.Builder, *frames: pd.DataFrame,
                    **options) -> tuple[dict, int | None, list[tuple[str, int]]]:
    """data_free_spec, built."""
    frames = tuple(map(as_frame, frames))
    built = builder(*frames, **options)
    spec, found = unbound(built)
    sources = []
    for name, df in found.items():
        index = next((i for i, f in enumerate(frames) if f is df), None)
        if index is None:
            raise ValueError(f"{builder.name} draws a DataFrame it was not given, so it cannot be data-free")
        sources.append((name, index))
    return spec, plot_height(built), sources


def plot_height(built: alt.TopLevelMixin) -> int | None:
    """The chart's fixed plot height in pixels, or None when the page or its content decides it."""
    # a chart of charts side by side has no height of its own: its parts size themselves
    height = getattr(built, "height", None)
    return height if isinstance(height, int) else None


def vega_lite(built: alt.TopLevelMixin) -> tuple[dict, int | None]:
    """The chart's Vega-Lite spec, its DataFrames as named Arrow datasets, and its plot height."""
    # Built below the top level, so Altair's global theme and data transformer, which Streamlit switches while it draws,
    # play no part.
    spec, frames = unbound(built)
    return {**spec, "datasets": {name: arrow_bytes(df) for name, df in frames.items()}}, plot_height(built)


def unbound(built: alt.TopLevelMixin) -> tuple[dict, dict[str, pd.DataFrame]]:
    """The chart's spec, unvalidated and titles fitted to a phone, with DataFrames by name only; and those frames."""
    frames: dict[str, pd.DataFrame] = {}
    spec = named_data(built, frames).to_dict(validate=False, context={"top_level": False})
    return narrow.fit_titles(spec), frames


def named_data(built: Any, frames: dict[str, pd.DataFrame]) -> Any:
    """A shallow copy of the chart and its parts with each DataFrame replaced by its name, collected in `frames`."""
    built = built.copy(deep=False)
    if isinstance(built.data, pd.DataFrame):
        name = next((n for n, df in frames.items() if df is built.data), charts.dataset(len(frames)))
        frames[name] = built.data
        built.data = alt.NamedData(name)
    for parts in ("layer", "vconcat", "hconcat"):
        if isinstance(getattr(built, parts, None), list):
            setattr(built, parts, [named_data(part, frames) for part in getattr(built, parts)])
    return built


def arrow(df: pd.DataFrame | pa.Table) -> bytes:
    """A data-free chart's frame as Arrow bytes, converted once per frame."""
    # data a cache hands out again is found by identity: a rerun that changed other things sends the same bytes
    known = ARROW_OF.get(id(df))
    if known is not None and known[0]() is df:
        return known[1]
    data = arrow_bytes(df)
    if len(ARROW_OF) < ARROW_BY_ID:
        key = id(df)
        ARROW_OF[key] = (weakref.ref(df, lambda _: ARROW_OF.pop(key, None)), data)
    return data


def arrow_bytes(data: pd.DataFrame | pa.Table) -> bytes:
    """The Arrow IPC stream a chart reads: a frame without its index, a table as it is, never through pandas."""
    # pyarrow's public API: faster than Streamlit's own conversion, which also writes the index
    table = data if isinstance(data, pa.Table) else pa.Table.from_pandas(data, preserve_index=False)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


def name_files(page: str, sentence: str, menu=None) -> Files:
    """Name the charts this run saves <page>-<chart>-<sentence> and list them in `menu` (None: menu closed)."""
    # frame.context calls it at the top of every run, on the script thread, and so starts the run's count of chart names
    # (two charts never share a file).
    files = Files(slug(page, CHART_CHARS), slug(sentence, SENTENCE_CHARS), {}, menu)
    FILES.set(files)
    return files


def file_stem(builder: str, name: str | None, key: str | None, title: str | None) -> str:
    """A chart's file name: <page>-<chart>-<sentence>, the chart part from `name`, else key, title or builder."""
    files = FILES.get(None) or name_files("", "")
    chart_name = slug(name or (key or "").removesuffix(f"_{charts.PICK}") or title or "", CHART_CHARS) or \
        slug(builder, CHART_CHARS)
    files.given[chart_name] = files.given.get(chart_name, 0) + 1
    if files.given[chart_name] > 1:
        chart_name = f"{chart_name}-{files.given[chart_name]}"
    return "-".join(part for part in (files.page, chart_name, files.sentence) if part)


def slug(text: str, limit: int) -> str:
    """Lower-case words of every script (Chinese too) joined by '-', at most `limit` characters, cut between words."""
    out = "-".join(re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", text).lower()))
    if len(out) <= limit:
        return out
    cut = out.rfind("-", 0, limit + 1)
    return out[:cut] if cut > limit // 2 else out[:limit]


def save_menu(where=st):
    """The page's save menu above its charts: the open menu's container, or None while it is closed."""
    # charts drawn after it put their buttons in it (save_entry), through the run's Files (name_files)
    menu = where.popover(t("save_charts"), icon=":material/download:", key="_saving", on_change="rerun")
    if not menu.open:  # closed, it holds nothing: its buttons would cost every rerun one element per chart
        return None
    menu.caption(t("save_charts_help"))
    files = FILES.get(None)
    if files is not None:
        FILES.set(dataclasses.replace(files, menu=menu))
    return menu


def save_entry(builder: charts.Builder, frames: tuple, options: dict, save: Save, key: str | None):
    """One chart's line in the open save menu: its label, SVG and PNG buttons, and a CSV one with save.csv."""
    # The pictures' data is a function Streamlit calls only on a click, off the script thread and without the session:
    # all it needs is in its arguments, its words already in the visitor's language.
    menu = (FILES.get(None) or name_files("", "")).menu
    if menu is None:
        return
    title, csv = options["titles"].title, save.csv
    stem = file_stem(builder.name, save.name, key, title)
    menu.markdown(f"**{plain(save.label or title or builder.name)}**")
    row = menu.container(horizontal=True, gap="small")
    for kind, mime, label in (("svg", "image/svg+xml", "save_svg"), ("png", "image/png", "save_png")):
        row.download_button(t(label), functools.partial(saved, kind, builder, frames, dict(options)),
                            file_name=f"{stem}.{kind}", mime=mime, key=f"_save_{stem}.{kind}", on_click="ignore")
    if csv is not None:
        row.download_button(t("save_csv"), csv.write, file_name=f"{stem}.csv", mime="text/csv", key=csv.key,
                            on_click="ignore")


def saved(kind: str, builder: charts.Builder, frames: tuple, options: dict) -> bytes:
    """The chart as an SVG or PNG file (PNG at twice the pixels, for sharp slides), drawn by vl-convert."""
    # vl-convert may fetch nothing: the data is in the spec
    vl_convert = converter()
    spec = export_spec(builder, *frames, **options)
    if kind == "svg":
        return vl_convert.vegalite_to_svg(spec, allowed_base_urls=[]).encode("utf-8")
    return vl_convert.vegalite_to_png(spec, scale=2, allowed_base_urls=[])


@functools.cache
def converter():
    """vl-convert with the machine's CJK fonts registered, for Chinese labels, where it has any."""
    # imported and set up once a process, when someone first saves a chart, so that no page pays for loading its engine
    import vl_convert
    for folder in CJK_FONTS:
        if os.path.isdir(folder):
            vl_convert.register_font_directory(folder)
    return vl_convert


def export_spec(builder: charts.Builder, *frames: pd.DataFrame, **options) -> dict:
    """The chart as a saved file shows it: data inline, a fixed size where the page sized it, on white."""
    # frames inline as named datasets: charts' expressions read them by name
    # the font chosen has the spec's characters (FONT, CJK_FONT)
    frames = tuple(map(as_frame, frames))
    spec, found = unbound(builder(*frames, **options))
    spec["datasets"] = {name: json.loads(df.to_json(orient="records")) for name, df in found.items()}
    spec["background"] = "white"
    spec["config"] = {"font": CJK_FONT if has_cjk(json.dumps(spec, ensure_ascii=False)) else FONT}
    if spec.get("width") == "container":
        spec["width"] = charts.WIDTH
        spec["autosize"] = {"type": "fit-x", "contains": "padding"}
    if spec.get("height") == "container":
        spec["height"] = page_height(builder, spec, None, frames)
        spec["autosize"] = {"type": "fit" if spec["width"] == charts.WIDTH else "fit-y", "contains": "padding"}
    return spec
