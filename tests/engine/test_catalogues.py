"""The catalogues (kit/texts.toml and each feature's): every text with its English and each translation side by side,
no translation older than the English it was checked against, one catalogue per key, and every key written in full in
the code that uses it, so that a search for a key finds where it is shown."""
import ast

import pytest

from engine.corpus import CorpusError
from engine.errors import ClassError, VectorsError
from engine.minilm import ModelError
from fits.queue import TooLarge
from kit import catalogue
from kit.state import Invalid
from kit.text import CODES

ROOT = catalogue.ROOT
NOT_APP = ("tests", "bench", "harness", "data", "deploy")
TRANSLATIONS = CODES[1:]  # every language but English
CODED = (VectorsError, ClassError, CorpusError, Invalid, TooLarge, ModelError)  # raised with a code to say


def written() -> set[str]:
    """Every text the dashboard's own code writes as a literal."""
    found = set()
    for path in ROOT.glob("**/*.py"):
        if path.relative_to(ROOT).parts[0] in NOT_APP or path.relative_to(ROOT).parts[0].startswith("."):
            continue
        found |= {node.value for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    return found


def raised() -> set[str]:
    """The keys of what can be raised with a code: each error class's TEXT_PREFIX and its code, the code written in full
    where the error is raised."""
    return {e.TEXT_PREFIX + code for e in CODED for code in e.CODES}


def test_every_text_has_its_english_and_each_translation_with_its_check():
    wanted = {"en", *TRANSLATIONS, *(f"{code}_checked" for code in TRANSLATIONS)}
    for key, entry in catalogue.entries().items():
        assert set(entry) == wanted and all(isinstance(text, str) and text.strip() for text in entry.values()), key


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_every_translation_was_checked_against_the_english_as_it_is(code):
    stale = catalogue.stale(code)
    assert not stale, (f"the English of {', '.join(stale)} changed since the {code} was checked: check the "
                       f"translations, then record it with `python -m kit.catalogue {code} {' '.join(stale)}`")


def test_every_key_is_written_in_full_where_the_code_uses_it():
    assert not set(catalogue.entries()) - written() - raised()


def test_every_coded_error_has_its_text():
    assert raised() <= set(catalogue.entries())


@pytest.fixture
def catalogues(tmp_path, monkeypatch):
    """Catalogues of the test's own, in place of the project's: write(folder, text) adds one."""
    monkeypatch.setattr(catalogue, "ROOT", tmp_path)
    catalogue.entries.cache_clear()

    def write(folder: str, text: str):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / catalogue.NAME).write_text(text, encoding="utf-8")
        catalogue.entries.cache_clear()
        return tmp_path / folder / catalogue.NAME
    yield write
    catalogue.entries.cache_clear()


def test_an_english_text_changed_leaves_its_translation_stale_until_the_translation_is_checked(catalogues):
    path = catalogues("feature", f'[hello]\nen = "Hello"\nzh = "你好"\nzh_checked = "{catalogue.digest("Hello")}"\n')
    assert catalogue.stale("zh") == []
    catalogues("feature", path.read_text(encoding="utf-8").replace('en = "Hello"', 'en = "Hello, class"'))
    assert catalogue.stale("zh") == ["hello"]
    catalogue.checked("zh", ["hello"])
    catalogue.entries.cache_clear()
    assert catalogue.stale("zh") == [] and 'zh = "你好"' in path.read_text(encoding="utf-8")


def test_a_key_in_two_catalogues_is_refused(catalogues):
    for folder in ("one", "two"):
        catalogues(folder, f'[hello]\nen = "Hello"\nzh = "你好"\nzh_checked = "{catalogue.digest("Hello")}"\n')
    with pytest.raises(ValueError, match="two catalogues"):
        catalogue.entries()
