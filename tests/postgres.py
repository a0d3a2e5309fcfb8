"""A throwaway PostgreSQL cluster for the tests of class mode (harness/postgres.py): each pytest-xdist worker that
needs one starts it once and stops it at the end."""
import contextlib
import os
from collections.abc import Iterator

import pytest

from harness import postgres


def require_postgres() -> None:
    """Fail (REQUIRE_POSTGRES=1, as in CI) or skip when PostgreSQL is missing."""
    if postgres.server_bin() is not None:
        return
    message = "PostgreSQL not found (/usr/lib/postgresql/*/bin/initdb); install it (apt-get install postgresql) to " \
              "test class mode on it"
    if os.environ.get("REQUIRE_POSTGRES") == "1":
        pytest.fail(f"REQUIRE_POSTGRES=1 but {message}.", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL cluster of this process's own, trust auth on loopback, without fsync (throwaway)."""
    require_postgres()
    with contextlib.ExitStack() as stack:
        try:
            url, _ = stack.enter_context(postgres.cluster(durable=False))
        except RuntimeError as e:
            pytest.fail(str(e), pytrace=False)
        yield url
