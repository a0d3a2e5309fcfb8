"""A throwaway PostgreSQL cluster for the tests of class mode: each pytest-xdist worker that needs one starts it once
(initdb, pg_ctl) on a free loopback port and stops it at the end."""
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

START_TRIES = 3  # a free port may be taken between finding it and the server binding it


def postgres_bin() -> Path | None:
    """The newest PostgreSQL server's bin folder (Debian's /usr/lib/postgresql/<ver>/bin, else PATH), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: float(Path(p).parents[1].name))
    initdb = found[-1] if found else shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def require_postgres() -> Path:
    """The server's bin folder; fail (REQUIRE_POSTGRES=1, as in CI) or skip when PostgreSQL is missing."""
    found = postgres_bin()
    if found and (os.geteuid() != 0 or shutil.which("runuser")):
        return found
    message = "PostgreSQL not found (/usr/lib/postgresql/*/bin/initdb); install it (apt-get install postgresql) to " \
              "test class mode on it"
    if os.environ.get("REQUIRE_POSTGRES") == "1":
        pytest.fail(f"REQUIRE_POSTGRES=1 but {message}.", pytrace=False)
    pytest.skip(message)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL cluster of this process's own, trust auth on loopback, without fsync (throwaway)."""
    bin_dir = require_postgres()
    home = Path(tempfile.mkdtemp(prefix="class-pg-"))
    owner = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        shutil.chown(home, "postgres")
        owner = ["runuser", "-u", "postgres", "--"]

    def run(*args: str) -> None:
        subprocess.run([*owner, *args], check=True, capture_output=True, timeout=120)

    data, pg_ctl = str(home / "data"), str(bin_dir / "pg_ctl")
    try:
        run(str(bin_dir / "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C",
            "--no-sync")
        for attempt in range(START_TRIES):
            port = free_port()
            options = f"-p {port} -k {home} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
            try:
                run(pg_ctl, "-D", data, "-o", options, "-l", str(home / "log"), "-w", "-t", "60", "start")
                break
            except subprocess.CalledProcessError:
                if attempt == START_TRIES - 1:
                    pytest.fail(f"PostgreSQL did not start: {(home / 'log').read_text()[-2000:]}", pytrace=False)
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
        run(pg_ctl, "-D", data, "-m", "immediate", "stop")
    finally:
        shutil.rmtree(home, ignore_errors=True)
