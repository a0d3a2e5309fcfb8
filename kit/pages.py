"""The dashboard's pages, in menu order: each page's script (in pages/, named from the repository root), its name and
how the frame opens it. A page is its script, its feature's folder and one line here: that entry is the page's one
identity, whence its text keys, its chart and download file names and its place in every menu (the sidebar, home's
links) come; nothing orders pages by their file names."""
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Page:
    """One page: its script, its words, and what the frame opens it with (frame.context)."""

    path: str  # the script from the repository root; its file name gives the URL path (/Factor_matrix)
    name: str  # what links and other code call the page by; chart and download file names
    nav: str  # text keys: its link in the sidebar and elsewhere,
    title: str  # its title
    intro: str  # and the paragraph under it (which may use {d} and {source})
    sentence: str | None = "sentence"  # the Settings field the page encodes; None: the page encodes its own
    box: str = "source_sentence"  # the sidebar's sentence box when `sentence` is None
    min_words: int = 1  # fewer words than this: the page says so and stops
    challenge: bool = False  # the page can hide its answer until the learner guesses (its challenge link)
    step: bool = True  # a step of the story, drawing charts of the sentence (the class page is not)
    tabs: bool = False  # the page shows one of its tabs at a time (page 6): its downloads' title names the open one

    @property
    def script(self) -> str:
        """The script's absolute path, as st.Page and st.page_link are given it."""
        # absolute, so Streamlit never looks for a pages/ folder beside the entry (lesson/app.py), where a first request
        # could run a page without the entry
        return str(ROOT / self.path)

    @property
    def url_path(self) -> str:
        """The URL path Streamlit derives from the script's file name; '' for the first page, the default."""
        # its number of any length and the underscore after it dropped: pages/10_New_page.py gives New_page
        return "" if self is PAGES[0] else re.sub(r"^\d+_", "", Path(self.path).stem)


PAGES = (
    Page("pages/0_Home.py", "home", "nav_home", "app_title", "home_intro"),
    Page("pages/1_Words_become_rows.py", "words", "nav_words", "words_title", "words_intro"),
    Page("pages/2_Factor_matrix.py", "factor", "nav_factor", "factor_title", "factor_intro", challenge=True),
    Page("pages/3_Dot_product.py", "dot", "nav_dot", "dot_title", "dot_intro", min_words=2),
    Page("pages/4_Relevance.py", "relevance", "nav_relevance", "relevance_title", "relevance_intro", min_words=2,
         challenge=True),
    Page("pages/5_Learning.py", "learn", "nav_learn", "learn_title", "learn_intro"),
    Page("pages/6_Three_kinds.py", "kinds", "nav_kinds", "kinds_title", "kinds_intro", sentence=None,
         challenge=True, tabs=True),
    Page("pages/7_Real_sentences.py", "real", "nav_real", "real_title", "real_intro", sentence=None, box="sentence",
         challenge=True),
    Page("pages/8_Real_model.py", "transformer", "nav_transformer", "transformer_title", "transformer_intro",
         sentence=None, box="sentence"),
    Page("pages/9_Class.py", "class", "nav_class", "class_title", "class_intro", sentence=None, step=False),
)
STEPS = tuple(p for p in PAGES if p.step)  # home and the story's pages


def named() -> dict[str, Page]:
    """Every page by its name, in menu order."""
    return {p.name: p for p in PAGES}


def page(name: str) -> Page:
    """The page called `name`."""
    return named()[name]


def others(*names: str) -> tuple[Page, ...]:
    """Every page but those called `names`, in menu order."""
    return tuple(p for p in PAGES if p.name not in names)
