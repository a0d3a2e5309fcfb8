"""The real transformer's files for the tests that run it: loaded once per process, or a failure (REQUIRE_MODEL=1,
as in CI, which fetches them first) or a skip with the command that fetches them."""
import os

import pytest

from engine import minilm, minilm_files
from kit import pages

PAGE = pages.page("transformer").path  # the one page that runs the model


def require_model() -> None:
    """Fail (REQUIRE_MODEL=1) or skip when the model's files are not in minilm_files.folder()."""
    sentence = minilm_files.missing()
    if sentence is None:
        return
    if os.environ.get("REQUIRE_MODEL") == "1":
        pytest.fail(f"REQUIRE_MODEL=1 but {sentence}", pytrace=False)
    pytest.skip(sentence)


def require_model_for(*scripts: str | None) -> None:
    """require_model() when one of `scripts`, the pages a test opens, is the one that runs the model."""
    if PAGE in scripts:
        require_model()


@pytest.fixture(scope="session")
def model() -> minilm.Model:
    """all-MiniLM-L6-v2 from its fetched files, once per test process."""
    require_model()
    return minilm.load()
