"""The one list of pages (lesson/pages.py): the navigation and home's links come from it, shared links keep their URL
paths, and a page added there with its text keys is linked everywhere and runs."""
import pytest
from streamlit.source_util import page_icon_and_name

from kit.text import LANGS, in_language, t
from lesson import pages
from tests.apptest_helpers import PAGES as SCRIPTS
from tests.apptest_helpers import ROOT, run_page

# the URL paths links were shared under before the entry owned the navigation: they keep opening the same pages
SHARED = ["", "Words_become_rows", "Factor_matrix", "Dot_product", "Relevance", "Learning", "Three_kinds",
          "Real_sentences", "Class"]
PATHS = [*SHARED[:8], "Real_model", *SHARED[8:]]  # today's: every one shared before, and page 8's, added since
EXTRA = """import streamlit as st

from lesson import frame

ctx = frame.current()
st.write("extra page: " + " ".join(ctx.enc.tokens))
"""


def links(at, where) -> dict[str, str]:
    """Page links shown in `where` (the sidebar or the main area): label -> URL path."""
    return {e.proto.label: e.proto.page for e in where.get("page_link")}


def test_every_page_script_is_listed_once_with_its_text_keys():
    assert [p.path for p in pages.PAGES] == sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py"))
    assert len({p.name for p in pages.PAGES}) == len(pages.PAGES)
    for lang, catalogue in LANGS.items():
        for p in pages.PAGES:
            keys = [f"nav_{p.name}", f"{p.name}_intro"] + ([f"{p.name}_title"] if p.name != "home" else [])
            assert all(k in catalogue.STRINGS for k in keys), (lang, p.name)


def test_links_keep_the_url_paths_shared_before():
    at = run_page(None)
    assert not at.exception
    assert list(links(at, at.sidebar).values()) == PATHS
    assert [page_icon_and_name(ROOT / p.path)[1] for p in pages.PAGES[1:]] == PATHS[1:]
    assert [p.url_path for p in pages.PAGES] == PATHS  # the class page's links are built with it


@pytest.fixture
def extra(tmp_path, monkeypatch) -> str:
    """A page added as a contributor would: a script, one line in PAGES, its three text keys in every catalogue."""
    script = tmp_path / "8_Extra_page.py"
    script.write_text(EXTRA, encoding="utf-8")
    added = pages.Page(str(script), "extra", "nav_extra", "extra_title", "extra_intro")
    monkeypatch.setattr(pages, "PAGES", (*pages.PAGES, added))
    for code, catalogue in LANGS.items():
        monkeypatch.setitem(catalogue.STRINGS, "nav_extra", f"8 · Extra ({code})")
        monkeypatch.setitem(catalogue.STRINGS, "extra_title", f"Extra title ({code})")
        monkeypatch.setitem(catalogue.STRINGS, "extra_intro", f"Extra intro ({code})")
    return str(script)


def test_an_added_page_is_linked_from_the_sidebar_and_home(extra):
    for frame in (None, SCRIPTS[1]):
        at = run_page(frame)
        assert not at.exception, frame
        assert links(at, at.sidebar).get(t("nav_extra")) == "Extra_page", frame
    home = run_page(None)
    assert links(home, home.main).get(t("nav_extra")) == "Extra_page"  # home's row of the later steps


@pytest.mark.parametrize("lang", LANGS)
def test_an_added_page_runs_with_the_context_the_entry_opened(extra, lang):
    with in_language(lang):
        at = run_page(extra, {"lang": lang, "sentence": "the cat drank milk"})
        assert not at.exception, [e.value for e in at.exception]
        assert at.title[0].value == t("extra_title")
        shown = [m.value for m in at.markdown]
        assert t("extra_intro") in shown and "extra page: the cat drank milk" in shown
        assert at.session_state["sentence"] == "the cat drank milk"
