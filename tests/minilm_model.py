"""The real transformer's files for the tests that run it: loaded once per process, or a failure (REQUIRE_MODEL=1,
as in CI, which fetches them first) or a skip with the command that fetches them."""
import os

import pytest

from engine import minilm, minilm_files


def require_model() -> None:
    """Fail (REQUIRE_MODEL=1) or skip when the model's files are not in minilm_files.folder()."""
    sentence = minilm_files.missing()
    if sentence is None:
        return
    if os.environ.get("REQUIRE_MODEL") == "1":
        pytest.fail(f"REQUIRE_MODEL=1 but {sentence}", pytrace=False)
    pytest.skip(sentence)


@pytest.fixture(scope="session")
def model() -> minilm.Model:
    """all-MiniLM-L6-v2 from its fetched files, once per test process."""
    require_model()
    return minilm.load()
