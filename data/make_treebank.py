"""Writes data/treebank.tsv from a checkout of UD English EWT (CC BY-SA 4.0): each sentence's tokens as
engine.tokens.tokenize writes them, each token's grammatical head and relation, and the treebank's split.
Run `python data/make_treebank.py PATH_TO_UD_English-EWT`. Only sentences whose tokens the tokenizer reproduces
exactly, that GloVe 6B knows, with at most MAX_TOKENS tokens and at least one word with a head, are kept."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine.sources import load_glove  # noqa: E402
from engine.tokens import TooManyTokens, tokenize  # noqa: E402
from engine.treebank import HEADER, MAX_TOKENS, Sentence, write  # noqa: E402

OUT = Path(__file__).with_name("treebank.tsv")
SPLITS = ("train", "dev", "test")


def conllu_files(checkout: Path, split: str) -> list[Path]:
    """The split's one file, or, where a snapshot lacks it, its source documents in the treebank's own order."""
    whole = checkout / f"en_ewt-ud-{split}.conllu"
    if whole.is_file():
        return [whole]
    listing = checkout / "not-to-release" / "file-lists" / f"files.{split}"
    return [checkout / "not-to-release" / "sources" / name for name in listing.read_text().split()]


def blocks(path: Path):
    """(sent_id, text, word lines) of each sentence in a CoNLL-U file."""
    sent_id, text, words = "", "", []
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith("# sent_id = "):
            sent_id = line[len("# sent_id = "):].strip()
        elif line.startswith("# text = "):
            text = line[len("# text = "):]
        elif line and not line.startswith("#"):
            cells = line.split("\t")
            if cells[0].isdigit():  # neither a multiword range "2-3" nor an empty node "8.1"
                words.append(cells)
        elif not line and words:
            yield sent_id, text, words
            sent_id, text, words = "", "", []


def derive(checkout: Path, known) -> tuple[list[Sentence], dict[str, int]]:
    """The kept sentences, and how many each split had before filtering."""
    kept, seen = [], {}
    for split in SPLITS:
        for path in conllu_files(checkout, split):
            for sent_id, text, words in blocks(path):
                seen[split] = seen.get(split, 0) + 1
                forms = [w[1].lower() for w in words]
                try:
                    if tokenize(text) != forms:
                        continue
                except TooManyTokens:
                    continue
                heads = tuple(int(w[6]) for w in words)
                relations = tuple(w[7] for w in words)
                sentence = Sentence(split, sent_id, tuple(forms), heads, relations)
                if len(forms) <= MAX_TOKENS and all(map(known, forms)) and sentence.targets():
                    kept.append(sentence)
    return kept, seen


def main(checkout: str, out: Path = OUT):
    kv = load_glove()
    kept, seen = derive(Path(checkout), kv.key_to_index.__contains__)
    counts = {split: sum(s.split == split for s in kept) for split in SPLITS}
    notes = [f"{split}: {counts[split]} of {seen.get(split, 0)} sentences" for split in SPLITS]
    write(out, kept, HEADER + ["kept " + ", ".join(notes)])
    print("\n".join(notes))


if __name__ == "__main__":
    main(*sys.argv[1:2] or sys.exit("usage: python data/make_treebank.py PATH_TO_UD_English-EWT"))
