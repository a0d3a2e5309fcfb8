"""Every chart saved as SVG and PNG: drawn by vl-convert from the same builder and frames, only when asked, in files
named after the page, the chart and the sentence."""
import contextvars
import io
import json
import re
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from kit import charts, render, tables
from kit.text import plain, t
from tests.apptest_helpers import chart_data, csv_keys, deferred, open_menus, run_page
from tests.apptest_helpers import charts as specs
from tests.engine.test_charts import BUILDERS, DATA_FREE, SAMPLES

PNG = b"\x89PNG\r\n\x1a\n"
SAFE = re.compile(r"[^\W_]+(-[^\W_]+)*")  # letters and digits of any script, in words joined by single hyphens
STORY = "The black cat drank the milk"


def call_of(name: str, monkeypatch) -> tuple[tuple, dict]:
    """The frames and options (its Titles as `titles`) test_charts' sample of the builder `name` draws it with."""
    seen = {}
    module, real = BUILDERS[name]

    def spy(*args, **options):
        *frames, titles = args  # the samples give the Titles after the frames
        seen.update(frames=tuple(frames), options={**options, "titles": titles})
        return real(*args, **options)
    with monkeypatch.context() as m:
        m.setattr(module, name, spy)
        SAMPLES[name]()
    return seen["frames"], seen["options"]


def text_of(svg: bytes) -> str:
    """Every piece of text an SVG draws; raises unless the SVG is well-formed XML."""
    return " ".join(ET.fromstring(svg).itertext())


def png_width(png: bytes) -> int:
    """The image width from the PNG header."""
    return int.from_bytes(png[16:20], "big")


def labels(frames: tuple, options: dict) -> set[str]:
    """The text values of the frames (words, vector and pair names) and the names a legend gives them."""
    named = {v for o in options.values() if isinstance(o, dict) for v in o.values() if isinstance(v, str)}
    return named | {v for df in frames for c in df.columns if pd.api.types.is_string_dtype(df[c]) for v in df[c]}


@pytest.mark.slow  # every chart through the SVG and PNG writer
@pytest.mark.parametrize("name", SAMPLES)
def test_every_builder_saves_as_svg_and_png(name, monkeypatch):
    frames, options = call_of(name, monkeypatch)
    svg = render.saved("svg", BUILDERS[name][1], frames, options)
    drawn = text_of(svg)
    titles = options["titles"]
    if titles.title:
        assert titles.title in drawn, name
    words = labels(frames, options) or {titles.x}  # a chart of numbers only: its axis title
    assert any(word in drawn for word in words), (name, drawn[:300])
    png = render.saved("png", BUILDERS[name][1], frames, options)
    assert png.startswith(PNG)
    chart = SAMPLES[name]()  # as wide as the page: a chart of its own, or a column of one (a chart of charts: none)
    stretched = getattr(chart, "width", None) == "container" or len(getattr(chart, "vconcat", ())) == 1
    assert png_width(png) == 2 * charts.WIDTH if stretched else png_width(png) > 0, name


@pytest.mark.parametrize("name", sorted(DATA_FREE))
def test_saved_specs_carry_their_data_inline_under_the_names_expressions_read(name, monkeypatch):
    frames, options = call_of(name, monkeypatch)
    spec = render.export_spec(BUILDERS[name][1], *frames, **options)
    text = json.dumps(spec)
    read = re.findall(r'"data": \{"name": "([^"]+)"\}', text) + re.findall(r"data\('([^']+)'\)", text)
    assert charts.dataset() in read and set(read) <= set(spec["datasets"])
    assert sorted(len(rows) for rows in spec["datasets"].values()) == sorted(len(df) for df in frames)  # layers' order
    plot = spec["vconcat"][0] if "vconcat" in spec else spec  # a column of one: its part has the plot's size
    assert plot["width"] == charts.WIDTH and (isinstance(plot["height"], int) or plot["height"]["step"] > 0)
    json.dumps(spec, allow_nan=False)


def test_chinese_labels_get_a_chinese_font():
    df = tables.matrix_long(np.array([[1.0, -2.0], [0.5, 4.0]]), ["黑猫", "牛奶"], ["黑猫", "牛奶"], selected="牛奶")
    options = {"titles": charts.Titles("因子矩阵", "键词", "查询词", "数值")}
    assert render.export_spec(charts.heatmap, df, **options)["config"]["font"] == render.CJK_FONT
    drawn = text_of(render.saved("svg", charts.heatmap, (df,), options))
    assert "因子矩阵" in drawn and "黑猫" in drawn
    assert render.saved("png", charts.heatmap, (df,), options).startswith(PNG)
    english = tables.matrix_long(np.eye(2), ["cat", "milk"], ["cat", "milk"])
    options = {"titles": charts.Titles("F = Q·Kᵀ", "key", "query", "value")}
    assert render.export_spec(charts.heatmap, english, **options)["config"]["font"] == render.FONT


def stem(page: str, sentence: str, *charts_drawn: tuple[str, str | None, str | None, str | None]) -> list[str]:
    """File stems of charts drawn one after the other in a run of `page` on `sentence` (a context of its own, as a
    script run has)."""
    def run():
        render.name_files(page, sentence)
        return [render.file_stem(*drawn) for drawn in charts_drawn]
    return contextvars.copy_context().run(run)


def test_files_are_named_after_the_page_the_chart_and_the_sentence():
    assert stem("factor", STORY, ("heatmap", None, "weights_pick", "Attention weights")) == [
        "factor-weights-the-black-cat-drank-the-milk"]
    assert stem("relevance", "The cat, the milk.", ("relevance_bars", None, None, "GloVe q·k"),
                ("relevance_bars", "cosine", None, "GloVe cos θ")) == [
        "relevance-glove-q-k-the-cat-the-milk", "relevance-cosine-the-cat-the-milk"]
    assert stem("home", "黑猫 喝了 牛奶", ("heatmap", None, None, "注意力权重 softmax(·)")) == [
        "home-注意力权重-softmax-黑猫-喝了-牛奶"]


def test_charts_without_a_name_are_named_by_builder_and_numbered_when_names_repeat():
    named = stem("factor", STORY, ("weight_bars", None, None, None),
                 ("heatmap", None, None, "Head 1"), ("heatmap", None, None, "Head 1"),
                 ("heatmap", None, None, "√ · ="))
    assert named == ["factor-weight-bars-the-black-cat-drank-the-milk", "factor-head-1-the-black-cat-drank-the-milk",
                     "factor-head-1-2-the-black-cat-drank-the-milk", "factor-heatmap-the-black-cat-drank-the-milk"]
    assert stem("factor", "", ("heatmap", "Z", None, None)) == ["factor-z"]


@pytest.mark.parametrize("sentence", [
    "../../etc/passwd", "C:\\Windows\\system32 con.txt", 'say "milk" \'drank\' <cat> | * ? :', "...", ". .. /",
    "milk\x00drank\nthe\tcat", "The_cat__drank---milk", "a" * 300, "the black cat " * 30, "黑猫喝了牛奶" * 60,
    "Ｔｈｅ ｃａｔ ﬁne", "🐈 drank 🥛",
])
def test_file_names_are_safe_whatever_the_sentence(sentence):
    (name,) = stem("factor", sentence, ("heatmap", None, "weights_pick", None))
    assert SAFE.fullmatch(name), name
    assert name.startswith("factor-weights") and len(name) <= len("factor-weights-") + render.SENTENCE_CHARS
    assert len(f"{name}.svg".encode()) < 255  # the longest file name common file systems take


def test_slugs_keep_letters_of_every_script_and_cut_between_words():
    assert render.slug("The black cat drank the milk", 60) == "the-black-cat-drank-the-milk"
    assert render.slug("黑猫喝了牛奶", 60) == "黑猫喝了牛奶"
    assert render.slug("Café über naïve", 60) == "café-über-naïve"
    assert render.slug("the black cat drank", 12) == "the-black"
    assert render.slug("a" * 300, 60) == "a" * 60


def saves(at) -> dict[str, list[str]]:
    """File name -> label of every save button on the page (the file name is in the button's key)."""
    return {
        b.key.removeprefix("_save_"): b.proto.label for b in at.get("download_button") if b.key.startswith("_save_")
    }


def test_a_page_offers_each_chart_as_svg_and_png_and_converts_nothing(monkeypatch):
    calls = []
    monkeypatch.setattr(render, "export_spec", lambda *a, **k: calls.append(a))
    monkeypatch.setattr(render, "converter", lambda: calls.append("convert"))
    at = run_page("pages/2_Factor_matrix.py")
    assert not at.exception and not saves(at)  # closed menus build no button
    files = saves(open_menus(at))
    assert len(files) == 2 * len(at.get("vega_lite_chart"))
    for chart in ("factor", "weights", "weight-bars", "contribution-bars"):
        for kind in ("svg", "png"):
            assert f"factor-{chart}-the-black-cat-drank-the-milk.{kind}" in files
    at.selectbox(key="query").set_value("cat").run()
    assert not at.exception and saves(at) == files and calls == []


def save_menu(at):
    """The page's save menu, as a block of the element tree."""
    def blocks(node):
        yield node
        for child in getattr(node, "children", {}).values():
            yield from blocks(child)
    return next(n for n in blocks(at._tree) if n.type == "popover" and n.proto.popover.label == t("save_charts"))


def test_the_save_menu_names_each_chart_by_its_title_or_the_heading_above_it():
    at = run_page("pages/2_Factor_matrix.py")
    assert not at.exception and not list(save_menu(at).markdown)  # closed: nothing in it
    open_menus(at)
    titles = [t("factor_m"), t("weights_m_soft"), t("chosen_weights", q="milk"), t("contrib_title", q="milk"), t("z_m")]
    assert [m.value for m in save_menu(at).markdown] == [f"**{plain(x)}**" for x in titles]  # in page order
    assert len(titles) == len(specs(at))


def test_a_chinese_page_labels_its_save_buttons_in_chinese():
    at = run_page(None, {"lang": "zh"})
    assert not at.exception
    files = saves(open_menus(at))
    assert files and all(name.startswith("home-") for name in files)
    assert {label.split(" · ")[0] for label in files.values()} == {"SVG", "PNG"}
    assert all(re.search(r"[\u4e00-\u9fff]", label) for label in files.values())


def test_a_matrix_saves_its_numbers_as_csv_from_its_menu_and_writes_them_only_when_clicked(monkeypatch):
    kept = deferred(monkeypatch)
    at = run_page(None)
    assert not at.exception and not [name for name in kept if name.endswith(".csv")]  # closed menus: no CSV button
    open_menus(at)
    csvs = sorted(name for name in kept if name.endswith(".csv"))
    shown = ("x", "q", "k", "factor", "weights", "z")
    assert csvs == sorted(f"home-{m}-the-black-cat-drank-the-milk.csv" for m in shown)
    write, mime = kept["home-weights-the-black-cat-drank-the-milk.csv"]
    assert mime == "text/csv" and callable(write)
    saved = pd.read_csv(io.StringIO(write()), index_col="word")
    cells = [pa.ipc.open_stream(d.data.data).read_pandas() for c in at.get("vega_lite_chart") for d in c.proto.datasets]
    (shown,) = [c for c in cells if len(c) == 36 and np.allclose(c.groupby("r")["value"].sum(), 1.0)]
    assert list(saved.index) == ["the (1)", "black", "cat", "drank", "the (5)", "milk"]
    np.testing.assert_array_equal(saved.to_numpy().ravel(), shown.sort_values(["r", "c"])["value"].to_numpy())


def test_each_pair_on_page_3_saves_its_products_as_csv_from_its_chart(monkeypatch):
    kept = deferred(monkeypatch)
    at = open_menus(run_page("pages/3_Dot_product.py"))
    assert csv_keys(at) == ["dl_products_key", "dl_products_key2"]
    csvs = [name for name in kept if name.endswith(".csv")]
    assert len(csvs) == 2 and all(
        name.startswith("dot-milk-drank") or name.startswith("dot-milk-black") for name in csvs
    )
    shown = [df for df in chart_data(at) if "product" in df]
    for name, df in zip(sorted(csvs, key=lambda n: "black" in n), shown, strict=False):  # drank's pair on the left
        write, mime = kept[name]
        saved = pd.read_csv(io.StringIO(write()))
        assert mime == "text/csv" and list(saved.columns) == [c for c in df.columns if not c.endswith(("_lo", "_hi"))]
        np.testing.assert_allclose(saved[["product", "running"]].to_numpy(), df[["product", "running"]].to_numpy())


def test_only_the_story_s_steps_offer_a_save_menu():
    assert save_menu(run_page("pages/2_Factor_matrix.py")) is not None
    at = run_page("pages/9_Class.py")
    assert not at.exception
    with pytest.raises(StopIteration):  # the class page's chart changes as the room answers: nothing to save there
        save_menu(at)
