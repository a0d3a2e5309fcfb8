"""Running pages in AppTest, and reading what they drew; the data/ scripts as modules."""
import importlib.util
import json

import pandas as pd
import pyarrow as pa
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

from harness.apptest import PAGES, ROOT, run_page  # noqa: F401 (the tests' way to open a page)
from kit.text import error_text, in_language, t

RANDOM_LAYERS = {"q_preset": "random", "k_preset": "random"}  # no learned head: at another d_k or position
# weight, a test not about the head asks for no new fit (a 500-step fit, 6–7 s)


def data_script(name: str):
    """data/<name>.py imported as a module (the scripts that write the shipped data are not a package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "data" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def open_layers(at: AppTest) -> AppTest:
    """Expand the sidebar's linear-layer controls, which are built only while open."""
    at.session_state["layers_open"] = True
    return at.run()


def deferred(monkeypatch) -> dict[str, tuple]:
    """Every file a download button will write when clicked, by file name: (what writes it, its type), as Streamlit
    keeps them until a click."""
    kept, add = {}, MediaFileManager.add_deferred

    def add_deferred(self, data, mimetype, coordinates, file_name=None, **kwargs):
        kept[file_name] = (data, mimetype)
        return add(self, data, mimetype, coordinates, file_name, **kwargs)

    monkeypatch.setattr(MediaFileManager, "add_deferred", add_deferred)
    return kept


def open_menus(at: AppTest) -> AppTest:
    """Open the page's save menu and the reproduce menu, as a click on each would (their buttons are built only while
    they are open)."""
    for key in [k for k in at.session_state.keys() if str(k) in ("_saving", "_reproducing")]:
        at.session_state[key] = True
    return at.run()


def csv_keys(at: AppTest, lang: str = "en") -> list[str]:
    """The keys of the CSV buttons in the charts' save menus, in page order, the menus opened first."""
    with in_language(lang):
        label = t("save_csv")
    return [b.key for b in open_menus(at).get("download_button") if b.proto.label == label]


def charts(at: AppTest) -> list[dict]:
    """The Vega-Lite spec of every chart on the page."""
    return [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]


def chart_titles(spec: dict) -> list[str]:
    """The chart titles of a spec and its parts, each on one line, whether written out or fitted to a phone (an
    expression whose last branch is the one line, kit.narrow.fitted)."""
    title = spec.get("title")
    text = title.get("text") if isinstance(title, dict) else title
    if isinstance(text, dict):
        text = json.loads(text["expr"].rsplit(" : ", 1)[1])
    parts = [part for key in ("layer", "vconcat", "hconcat") for part in spec.get(key, [])]
    return ([text] if isinstance(text, str) else []) + [found for part in parts for found in chart_titles(part)]


def titled(at: AppTest, title: str) -> pd.DataFrame:
    """The data of the one chart with this title."""
    (data,) = [df for spec, df in zip(charts(at), chart_data(at), strict=True) if title in chart_titles(spec)]
    return data


def chart_data(at: AppTest) -> list[pd.DataFrame]:
    """Every chart's data (all its datasets stacked), in page order."""
    out = []
    for c in at.get("vega_lite_chart"):
        parts = [pa.ipc.open_stream(d.data.data).read_pandas() for d in c.proto.datasets]
        out.append(pd.concat(parts, ignore_index=True) if parts else pd.DataFrame())
    return out


def messages(at: AppTest) -> str:
    """The text of every error, warning and info box."""
    return " ".join(m.value for kind in (at.error, at.warning, at.info) for m in kind)


def error_message(e) -> str:
    """What the learner reads for an engine error (a code and its values), in English."""
    return error_text(e)


def uploader(at: AppTest):
    """The sidebar's vectors uploader (a fresh one after every upload, so its key changes)."""
    return next(u for u in at.sidebar.file_uploader if u.key.startswith("upload_files"))


def check(at):
    """Press the predict-first guess's Check button, as Enter, Space or a click does."""
    return next(b for b in at.button if b.key and b.key.startswith("_guess_check_")).click().run()
