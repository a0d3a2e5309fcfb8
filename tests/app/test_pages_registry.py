"""The one list of pages (kit/pages.py): the navigation and home's links come from it, in its order, shared links
keep their URL paths, and a page added there with its text keys (an eleventh: pages/10_…) is linked everywhere after
the others, runs, and names its downloads after its entry."""
import pytest
from streamlit.source_util import page_icon_and_name

from kit import pages
from kit.text import LANGS, in_language, t
from tests.apptest_helpers import PAGES as SCRIPTS
from tests.apptest_helpers import ROOT, deferred, open_menus, run_page

# the URL paths links were shared under before the entry owned the navigation: they keep opening the same pages
SHARED = ["", "Words_become_rows", "Factor_matrix", "Dot_product", "Relevance", "Learning", "Three_kinds",
          "Real_sentences", "Class"]
PATHS = [*SHARED[:8], "Real_model", *SHARED[8:]]  # today's: every one shared before, and page 8's, added since
EXTRA = """import streamlit as st

from lesson import downloads, frame

ctx = frame.current()
st.write("extra page: " + " ".join(ctx.enc.tokens))
downloads.menu(ctx)
"""


def links(at, where) -> dict[str, str]:
    """Page links shown in `where` (the sidebar or the main area): label -> URL path."""
    return {e.proto.label: e.proto.page for e in where.get("page_link")}


def linked(where) -> list[str]:
    """The URL paths of the page links shown in `where`, in the order shown."""
    return [e.proto.page for e in where.get("page_link")]


def test_every_page_script_is_listed_once_with_its_text_keys():
    listed = [p.path for p in pages.PAGES]  # in menu order, whatever the file names' order
    assert set(listed) == {str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py")}
    assert len(set(listed)) == len(listed)
    assert len({p.name for p in pages.PAGES}) == len(pages.PAGES)
    assert len({p.url_path for p in pages.PAGES}) == len(pages.PAGES)
    for lang, catalogue in LANGS.items():
        for p in pages.PAGES:
            assert all(k in catalogue.STRINGS for k in (p.nav, p.title, p.intro)), (lang, p.name)


@pytest.mark.parametrize(("script", "path"), [("pages/9_Class.py", "Class"), ("pages/10_New_page.py", "New_page"),
                                              ("pages/12_Two_digits.py", "Two_digits")])
def test_the_url_path_drops_the_number_whatever_its_digits(script, path):
    p = pages.Page(script, "new", "nav_new", "new_title", "new_intro")
    assert p.url_path == path == page_icon_and_name(ROOT / script)[1]  # as Streamlit serves the script


def test_links_keep_the_url_paths_shared_before():
    at = run_page(None)
    assert not at.exception
    assert list(links(at, at.sidebar).values()) == PATHS
    assert [page_icon_and_name(ROOT / p.path)[1] for p in pages.PAGES[1:]] == PATHS[1:]
    assert [p.url_path for p in pages.PAGES] == PATHS  # the class page's links are built with it


@pytest.fixture
def extra(tmp_path, monkeypatch) -> str:
    """A page added as a contributor would, the eleventh: a script numbered after the last, one line at the end of
    PAGES, its three text keys in every catalogue."""
    script = tmp_path / "10_Extra_page.py"
    script.write_text(EXTRA, encoding="utf-8")
    added = pages.Page(str(script), "extra", "nav_extra", "extra_title", "extra_intro")
    monkeypatch.setattr(pages, "PAGES", (*pages.PAGES, added))
    for code, catalogue in LANGS.items():
        monkeypatch.setitem(catalogue.STRINGS, "nav_extra", f"10 · Extra ({code})")
        monkeypatch.setitem(catalogue.STRINGS, "extra_title", f"Extra title ({code})")
        monkeypatch.setitem(catalogue.STRINGS, "extra_intro", f"Extra intro ({code})")
    return str(script)


def test_an_added_page_is_linked_from_the_sidebar_and_home(extra):
    for frame in (None, SCRIPTS[1]):
        at = run_page(frame)
        assert not at.exception, frame
        assert links(at, at.sidebar).get(t("nav_extra")) == "Extra_page", frame
        assert linked(at.sidebar) == [*PATHS, "Extra_page"], frame  # after page 9: the menu follows PAGES
    home = run_page(None)
    assert links(home, home.main).get(t("nav_extra")) == "Extra_page"  # home's row of the later steps
    assert linked(home.main) == [*PATHS[1:], "Extra_page"]  # pages 1 and 2 by their steps, then the rest in order


@pytest.mark.parametrize("lang", LANGS)
def test_an_added_page_runs_with_the_context_the_entry_opened(extra, lang, monkeypatch):
    kept = deferred(monkeypatch)
    with in_language(lang):
        at = run_page(extra, {"lang": lang, "sentence": "the cat drank milk"})
        assert not at.exception, [e.value for e in at.exception]
        assert at.title[0].value == t("extra_title")
        shown = [m.value for m in at.markdown]
        assert t("extra_intro") in shown and "extra page: the cat drank milk" in shown
        assert at.session_state["sentence"] == "the cat drank milk"
        assert links(at, at.sidebar).get(t("nav_extra")) == "Extra_page"
        assert not open_menus(at).exception
        script, notebook = kept["attention-extra.py"], kept["attention-extra.ipynb"]  # named after the entry
        assert t("extra_title") in script[0]() and t("extra_title") in notebook[0]()
