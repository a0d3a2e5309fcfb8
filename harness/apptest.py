"""Running pages in Streamlit's AppTest, as the tests and the rerun benchmarks do."""
from pathlib import Path

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
