"""Writes data/minilm-heads.csv: every head of the real transformer (all-MiniLM-L6-v2) on the treebank's 1,255 held-out
sentences, how many words of each relation it points at their grammatical head, and the share of attention it parks on
[CLS] and [SEP] (engine/minilm_treebank.py). Page 7 and page 8 read it: the count takes about 20 s of one core, too long
for a page. It needs the model's files (`python -m engine.minilm_files fetch`). Run `python data/make_minilm_heads.py`;
tests/engine/test_minilm_heads.py runs it into a temporary file and compares."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from threadpoolctl import threadpool_limits  # noqa: E402

from engine import minilm, minilm_files, minilm_treebank, treebank  # noqa: E402

COMMENTS = [
    f"Every head of {minilm_files.NAME} on the held-out (test) sentences of data/treebank.tsv; written by "
    "data/make_minilm_heads.py.",
    f"Model: {minilm_files.NAME} (Sentence-Transformers, https://www.sbert.net; fine-tuned from "
    "nreimers/MiniLM-L6-H384-uncased), licence Apache-2.0; files from the PyPI package "
    f"{minilm_files.PACKAGE} {minilm_files.VERSION} (wheel sha256 {minilm_files.WHEEL_SHA256}), run in numpy by "
    "engine/minilm.py.",
    "Sentences: UD English EWT 2.15, CC BY-SA 4.0 (data/LICENSE-treebank.md); these counts are shared alike under "
    "CC BY-SA 4.0.",
    "Word level as Clark et al. (2019): attention to a word split into pieces is summed over its pieces, from it "
    "averaged; each word's pick is the other word it attends to most; the root and punctuation have no head.",
    "relation: a UD relation without its subtype (nmod:poss kept), or all; count: its words with a head; L<l>-H<h>: "
    "the words that head (layer l, head h, from 1) points at their head.",
    f"The last row, {minilm_treebank.PARKED}: count is the sentences; L<l>-H<h>: the head's share of attention on "
    "[CLS] and [SEP], the mean over sentences of its mean over their words.",
]


def main(out: Path = minilm_treebank.SHIPPED) -> int:
    """Count and write; 1, saying why, without the model's files."""
    sentence = minilm_files.missing()
    if sentence:
        print(sentence, file=sys.stderr)
        return 1
    with threadpool_limits(1, user_api="blas"):  # one sentence's products are small: one thread is as fast
        measured = minilm_treebank.measure(minilm.load(), treebank.split(treebank.read(), "test"))
    minilm_treebank.write(out, measured, COMMENTS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
