"""A throwaway PostgreSQL cluster on a free loopback port, for class mode's tests and benchmarks: initdb and pg_ctl
(as the postgres user when run as root, whom initdb refuses), trust authentication on loopback only, the whole folder
deleted at the end."""
import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from harness.chromium import free_port

START_TRIES = 3  # a free port may be taken between finding it and the server binding it


def server_bin() -> Path | None:
    """The newest PostgreSQL server's bin folder (Debian's, else from PATH) when this user can run it; else None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: float(Path(p).parents[1].name))
    initdb = found[-1] if found else shutil.which("initdb")
    usable = os.geteuid() != 0 or shutil.which("runuser")
    return Path(initdb).parent if initdb and usable else None


@contextlib.contextmanager
def cluster(*, durable: bool = True) -> Iterator[tuple[str, int]]:
    """A throwaway PostgreSQL cluster: (its URL, its postmaster's process id)."""
    # durable=False turns off fsync and full-page writes (a test's). A RuntimeError with the log's end when PostgreSQL
    # is missing or does not start.
    bin_dir = server_bin()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL not found (/usr/lib/postgresql/*/bin/initdb): apt-get install postgresql")
    home = Path(tempfile.mkdtemp(prefix="class-pg-"))
    owner = []
    if os.geteuid() == 0:
        shutil.chown(home, "postgres")
        owner = ["runuser", "-u", "postgres", "--"]

    def run(*args: str) -> None:
        subprocess.run([*owner, *args], check=True, capture_output=True, timeout=120)

    data = str(home / "data")
    pg_ctl = str(bin_dir / "pg_ctl")
    started = False
    fast = "" if durable else " -c fsync=off -c full_page_writes=off"
    try:
        run(str(bin_dir / "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C",
            "--no-sync")
        for attempt in range(START_TRIES):
            port = free_port()
            try:
                run(pg_ctl, "-D", data, "-o", f"-p {port} -k {home} -c listen_addresses=127.0.0.1{fast}", "-l",
                    str(home / "log"), "-w", "-t", "60", "start")
                break
            except subprocess.CalledProcessError:
                if attempt == START_TRIES - 1:
                    raise RuntimeError(f"PostgreSQL did not start: {(home / 'log').read_text()[-2000:]}") from None
        started = True
        postmaster = int((home / "data" / "postmaster.pid").read_text().split()[0])
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", postmaster
    finally:
        if started:
            run(pg_ctl, "-D", data, "-m", "fast" if durable else "immediate", "stop")
        shutil.rmtree(home, ignore_errors=True)
