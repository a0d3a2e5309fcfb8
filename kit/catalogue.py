"""The catalogues: kit/texts.toml and every feature folder's texts.toml, read with the standard library (tomllib). Each
text is a table under its key: `en`, the English, and for every other language its translation and `<code>_checked`,
the short hash of the English it was last checked against. A key is in one catalogue only.

When an English text changes, its hash no longer matches and tests/engine/test_catalogues.py fails, naming the key,
until a translator has looked at the translation (and changed it if need be) and recorded the check:

    python -m kit.catalogue zh KEY [KEY ...]      record that these translations match the English as it is now
    python -m kit.catalogue zh                    list the translations whose English changed since their check"""
import functools
import hashlib
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAME = "texts.toml"


def files() -> list[Path]:
    """Every catalogue: one per folder of the repository's top level that has one (kit/ and the features)."""
    return sorted(ROOT.glob(f"*/{NAME}"))


@functools.cache
def entries() -> dict[str, dict[str, str]]:
    """Every text by key, its languages side by side; ValueError for a key two catalogues hold."""
    found: dict[str, dict[str, str]] = {}
    where: dict[str, Path] = {}
    for path in files():
        with path.open("rb") as f:
            for key, entry in tomllib.load(f).items():
                if key in found:
                    raise ValueError(f"the key {key!r} is in two catalogues: {where[key]} and {path.relative_to(ROOT)}")
                found[key], where[key] = entry, path.relative_to(ROOT)
    return found


def strings(code: str) -> dict[str, str]:
    """Every text in the language `code`, by key."""
    return {key: entry[code] for key, entry in entries().items()}


def digest(english: str) -> str:
    """The short hash a check records of the English it was made against."""
    return hashlib.sha256(english.encode("utf-8")).hexdigest()[:8]


def stale(code: str) -> list[str]:
    """The keys whose English changed since their translation into `code` was last checked."""
    return [key for key, entry in entries().items() if entry.get(f"{code}_checked") != digest(entry["en"])]


def checked(code: str, keys: list[str]) -> None:
    """Record in the catalogues that the translations of `keys` into `code` match the English as it is now."""
    wanted = set(keys)
    for path in files():
        lines, key = path.read_text(encoding="utf-8").split("\n"), None
        for i, line in enumerate(lines):
            header = re.fullmatch(r'\[(?:"(.+)"|(.+))\]', line)
            if header:
                key = header[1] or header[2]
            elif key in wanted and line.startswith(f"{code}_checked = "):
                lines[i] = f'{code}_checked = "{digest(entries()[key]["en"])}"'
                wanted.discard(key)
        path.write_text("\n".join(lines), encoding="utf-8")
    if wanted:
        raise KeyError(f"no {code} translation of {', '.join(sorted(wanted))} in the catalogues")


if __name__ == "__main__":
    language, *named = sys.argv[1:]
    if named:
        checked(language, named)
    else:
        print("\n".join(stale(language)) or f"every {language} translation was checked against the English as it is")
