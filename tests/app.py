"""Running pages in AppTest, and reading what they drew."""
import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py"))


def run_page(page: str | None = None, query: dict | None = None, timeout: float = 60) -> AppTest:
    """A fresh session on `page` (home when None), opened with URL parameters `query`."""
    at = AppTest.from_file(str(ROOT / "home.py"), default_timeout=timeout)
    at.query_params.update(query or {})
    if page:
        at.switch_page(page)
    return at.run()


def open_layers(at: AppTest) -> AppTest:
    """Expand the sidebar's linear-layer controls, which are built only while open."""
    at.session_state["layers_open"] = True
    return at.run()


def charts(at: AppTest) -> list[dict]:
    """The Vega-Lite spec of every chart on the page."""
    return [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]


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
