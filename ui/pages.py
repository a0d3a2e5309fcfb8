"""The dashboard's pages, in menu order. Adding a page: its script in steps/, one line here, and its text keys
(nav_<name>, <name>_title, <name>_intro) in every catalogue of ui/text/."""
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Page:
    """One page: its script and what the entry opens it with (see page.open)."""

    path: str  # the script from the repository root; its file name gives the URL path (/Factor_matrix)
    name: str  # text keys nav_<name>, <name>_title and <name>_intro; chart and download file names
    sentence: str | None = "sentence"  # the Settings field the page encodes; None: the page encodes its own
    box: str = "source_sentence"  # the sidebar's sentence box when `sentence` is None
    min_words: int = 1  # fewer words than this: the page says so and stops
    challenge: bool = False  # the page can hide its answer until the learner guesses (its challenge link)
    step: bool = True  # a step of the story, drawing charts of the sentence (the class page is not)


PAGES = (
    Page("home.py", "home"),
    Page("steps/1_Words_become_rows.py", "words"),
    Page("steps/2_Factor_matrix.py", "factor", challenge=True),
    Page("steps/3_Dot_product.py", "dot", min_words=2),
    Page("steps/4_Relevance.py", "relevance", min_words=2, challenge=True),
    Page("steps/5_Learning.py", "learn"),
    Page("steps/6_Three_kinds.py", "kinds", sentence=None, challenge=True),
    Page("steps/7_Real_sentences.py", "real", sentence=None, box="sentence", challenge=True),
    Page("steps/8_Class.py", "class", sentence=None, step=False),
)
STEPS = tuple(p for p in PAGES if p.step)  # home and the story's pages


def url_path(name: str) -> str:
    """The URL path of the page called `name`, as Streamlit derives it from the script's file name ('' for home)."""
    page = next(p for p in PAGES if p.name == name)
    return "" if page is PAGES[0] else re.sub(r"^\d+_", "", page.path.rsplit("/", 1)[-1].removesuffix(".py"))

