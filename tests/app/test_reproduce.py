"""Reproduce in code: the script a page's download button holds, run on its own in a clean folder, prints the very
numbers the page draws; the notebook holds the same cells."""
import ast
import itertools
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from engine import reproduce
from engine.attention import attend, merge_heads
from engine.formats import load_text_vectors, load_upload
from engine.layers import preset
from engine.pipeline import encode
from kit.text import in_language, t
from lesson import downloads as downloads
from lesson import frame
from tests import scripts
from tests.apptest_helpers import PAGES, ROOT, deferred, open_menus, run_page, titled

STORY = [None, *PAGES[:5]]  # home and pages 1-5 share the sentence
KINDS = PAGES[5]
NAMES = dict(zip([None, *PAGES], ("home", "words", "factor", "dot", "relevance", "learn", "kinds"), strict=False))
VIEWS = {  # URL parameters of each view tested on every story page
    "default": {},
    "presets": {"q_preset": "random", "k_preset": "rotation", "v_preset": "scaled identity", "q_scale": "2.5",
                "k_scale": "0.5", "v_scale": "3", "q_seed": "7", "k_seed": "11", "position": "0.6"},
    "plain": {"scaled": "0", "softmax": "0", "position": "0", "source": "glove50k"},
    "run": {"q_preset": "run", "k_preset": "run", "run_steps": "60", "run_seed": "3"},
}
KIND_VIEWS = {
    "enc": {},
    "dec-heads": {"tab": "dec", "heads": "2"},
    "cross-raw": {"tab": "cross", "heads": "4", "softmax": "0", "q_preset": "random", "k_preset": "random"},
}
OUTPUTS = {}  # script text -> what it printed: one view's script is the same on every story page


@pytest.fixture
def files(monkeypatch):
    """What the page's download buttons hold, by file name, as Streamlit keeps them until a click. A page that does
    not draw the reproduce buttons yet gets them drawn right after its context."""
    kept = deferred(monkeypatch)
    context = frame.context

    def with_downloads(p, s):
        ctx = context(p, s)
        downloads.menu(ctx)
        return ctx

    def opened(path):
        if "downloads.menu" not in (ROOT / (path or "pages/0_Home.py")).read_text(encoding="utf-8"):
            monkeypatch.setattr(frame, "context", with_downloads)
        return kept
    return opened


def script_of(kept: dict, path) -> str:
    """The script behind the page's download button: written by the button's own callable."""
    text = kept[f"attention-{NAMES[path]}.py"][0]()
    ours = {p.name for p in ROOT.iterdir() if p.is_dir()}  # the project's packages: engine, kit, lesson, …
    assert not {m.split(".")[0] for m in imported(text)} & ours
    return text


def imported(text: str) -> set[str]:
    """Every module a script imports."""
    found = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            found.add(node.module)
    return found


def run_script(text: str, tmp_path) -> dict[str, tuple[list[str], np.ndarray]]:
    """Run the script alone (a clean folder, no project on the path) and read back every matrix it printed."""
    if text not in OUTPUTS:
        (tmp_path / "attention.py").write_text(text, encoding="utf-8")
        done = scripts.run(tmp_path / "attention.py")
        assert done.returncode == 0, done.stderr[-3000:]
        OUTPUTS[text] = done.stdout
    return printed(OUTPUTS[text])


def printed(out: str) -> dict[str, tuple[list[str], np.ndarray]]:
    """The matrices a script printed, by name: row labels and numbers (a row may wrap onto indented lines)."""
    found = {}
    for block in out.split("\n== ")[1:]:
        head, *lines = block.splitlines()
        rows = []
        for line in lines:
            if line.startswith(" "):
                rows[-1] += line
            elif line:
                rows.append(line)
        labels, numbers = zip(*(row.split(": [", 1) for row in rows), strict=False)
        values = [[float(v) for v in numbers_.rstrip("]").split(",")] for numbers_ in numbers]
        found[head.split(" ==")[0]] = (list(labels), np.array(values))
    return found


def heatmap(at, title) -> tuple[list[str], np.ndarray]:
    """Row labels and numbers of the one chart with this title, as the page drew them."""
    data = titled(at, title).sort_values(["r", "c"])
    m = int(data["c"].max()) + 1
    return list(data["row"][::m]), data["value"].to_numpy().reshape(-1, m)


def same(drawn, got):
    """Labels equal, numbers equal to 1e-9."""
    (drawn_labels, drawn_values), (got_labels, got_values) = drawn, got
    assert drawn_labels == got_labels
    np.testing.assert_allclose(drawn_values, got_values, rtol=1e-9, atol=1e-9)


def check_story(at, path, out: dict, position: float, scaled: bool, softmax: bool):
    """Each story page against the script: every matrix it draws that the script prints."""
    weights_title = t("weights_m_soft" if softmax else "weights_m_raw")
    x_title = t("x_m" if position else "x_m_nopos")
    labels, d_k = out["F"][0], out["Q"][1].shape[1]
    checks = {
        None: [(x_title, "X"), (t("q_m"), "Q"), (t("k_m"), "K"), (weights_title, "weights"), (t("z_m"), "Z")],
        PAGES[0]: [(t("q_m"), "Q"), (t("k_m"), "K"), (t("v_m"), "V")] + [(t("x_m"), "X")] * bool(position),
        PAGES[1]: [(t("factor_m"), "F"), (weights_title, "weights"), (t("z_m"), "Z")],
    }
    for title, name in checks.get(path, []):
        same(heatmap(at, title), out[name])
    milk = labels.index("milk")
    others = [w for w in labels if w != "milk"]
    if path == PAGES[2]:  # the sign strips: milk's query row between two key rows
        strips = titled(at, t("signs_title")).groupby("vector", sort=False)["value"].apply(np.array)
        np.testing.assert_allclose(strips["q · milk"], out["Q"][1][milk], rtol=1e-9, atol=1e-9)
        for k in ("drank", "black"):
            vector = next(v for v in strips.index if v.endswith(f"· {k}") and v.startswith("k"))
            np.testing.assert_allclose(strips[vector], out["K"][1][labels.index(k)], rtol=1e-9, atol=1e-9)
    if path == PAGES[3]:  # Q·K bars of milk against every other word
        bars = titled(at, t("measure_qk_scaled" if scaled else "measure_qk")).set_index("key")["score"]
        scores = out["scores" if scaled else "F"][1][milk]
        np.testing.assert_allclose([bars[w] for w in others], [scores[labels.index(w)] for w in others], rtol=1e-9,
                                   atol=1e-9)
    if path == PAGES[4]:  # where training starts: always Q·K / √d_k
        bars = titled(at, t("learn_start_title_sidebar", q="milk", seed=0)).set_index("key")["score"]
        assert set(others) <= set(bars.index) <= set(labels)  # milk's own score only where a word may see itself
        np.testing.assert_allclose(bars.to_numpy(), out["F"][1][milk][[labels.index(w) for w in bars.index]]
                                   / np.sqrt(d_k), rtol=1e-9, atol=1e-9)


@pytest.mark.slow  # each story page's script run in a fresh Python, view by view
@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("path", STORY, ids=lambda p: NAMES[p])
def test_the_script_prints_what_each_story_page_draws(path, view, files, tmp_path):
    kept = files(path)
    at = open_menus(run_page(path, VIEWS[view]))  # the reproduce menu builds its buttons once opened
    assert not at.exception, [e.value for e in at.exception]
    s = at.session_state["_settings"]
    out = run_script(script_of(kept, path), tmp_path)
    assert out["F"][0] == out["Z"][0] and "milk" in out["F"][0]
    check_story(at, path, out, s.position, s.scaled, s.softmax)


@pytest.mark.parametrize("view", list(KIND_VIEWS))
def test_the_script_prints_what_page_6_draws(view, files, tmp_path):
    kept = files(KINDS)
    at = open_menus(run_page(KINDS, KIND_VIEWS[view]))  # the reproduce menu builds its buttons once opened
    assert not at.exception, [e.value for e in at.exception]
    s = at.session_state["_settings"]
    out = run_script(script_of(kept, KINDS), tmp_path)
    weights_title = t("weights_m_soft" if s.softmax else "weights_m_raw")
    for title, name in ((t("factor_m"), "F"), (weights_title, "weights"), (t("z_m"), "Z")):
        same(heatmap(at, title), out[name])
    d_h = out["Q"][1].shape[1] // s.heads
    for h in range(s.heads if s.heads > 1 else 0):
        same(heatmap(at, t("head_m", h=h + 1, lo=h * d_h + 1, hi=(h + 1) * d_h)), out[f"weights, head {h + 1}"])
    if s.heads > 1:
        same(heatmap(at, t("z_heads_m", h=s.heads, d=d_h)), out["Z, heads side by side"])
    if s.tab == "dec":
        assert np.all(np.triu(out["weights"][1], 1) == 0)  # the causal mask hid every later word


def test_the_notebook_holds_the_scripts_cells(files):
    kept = files(PAGES[1])
    at = open_menus(run_page(PAGES[1], VIEWS["run"]))  # the reproduce menu builds its buttons once opened
    assert not at.exception
    text, book = script_of(kept, PAGES[1]), json.loads(kept["attention-factor.ipynb"][0]())
    assert book["nbformat"] == 4 and book["metadata"]["kernelspec"]["language"] == "python"
    assert all(c["outputs"] == [] for c in book["cells"] if c["cell_type"] == "code")
    assert len({c["id"] for c in book["cells"]}) == len(book["cells"])
    assert "\n\n\n".join("".join(c["source"]) for c in book["cells"] if c["cell_type"] == "code") + "\n" == text
    assert "W_Q = np.array([" in text and "steps=60" in text and "seed=3" in text


def upload_files(folder, form: str) -> list:
    """Ten words (five Chinese) of 8 numbers as the learner's file(s): text without a header, word2vec binary, or a
    .npy matrix and its word list."""
    words = ["the", "black", "cat", "drank", "milk", "我", "喜欢", "猫", "牛奶", "喝"]
    rng = np.random.default_rng(5)
    text = "".join(w + " " + " ".join(f"{v:.6f}" for v in rng.normal(size=8)) + "\n" for w in words)
    (folder / "mine.txt").write_text(text, encoding="utf-8")
    kv = load_text_vectors(folder / "mine.txt")
    if form == "bin":
        kv.save_word2vec_format(str(folder / "mine.bin"), binary=True)
        return [folder / "mine.bin"]
    if form == "npy":
        np.save(folder / "mine.npy", kv.vectors)
        (folder / "words.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
        return [folder / "mine.npy", folder / "words.txt"]
    return [folder / "mine.txt"]


@pytest.mark.parametrize("form", ["txt", "bin", "npy"])
def test_uploaded_vectors_are_named_by_the_learner(form, tmp_path):
    """An upload cannot be downloaded again: the script says so, and once its path is filled in it matches the
    engine, here with Chinese words cut by jieba, words the vectors lack, two sentences, a causal mask and two heads."""
    paths = upload_files(tmp_path, form)
    kv = load_upload([(p.name, p.read_bytes()) for p in paths])
    layers = {"q": {"preset": "random", "seed": 1, "scale": 2.0},
              "k": {"preset": "rotation", "seed": 2, "scale": 1.0},
              "v": {"preset": "identity", "seed": 3, "scale": 1.0}}
    recipe = {"source": "upload", "chinese": True, "queries": "我喜欢猫, milk!", "keys": "The black cat drank the milk",
              "position": 0.5, "d_k": 4, "scaled": True, "softmax": True, "causal": True, "heads": 2, "layers": layers}
    text = reproduce.script(recipe)
    (tmp_path / "unfilled").mkdir()
    (tmp_path / "unfilled" / "attention.py").write_text(text, encoding="utf-8")
    unfilled = scripts.run(tmp_path / "unfilled" / "attention.py")
    assert unfilled.returncode == 1 and "set VECTORS_FILE" in unfilled.stderr
    filled = text.replace(reproduce.PLACEHOLDER, str(paths[0]))
    if form == "npy":
        filled = filled.replace('WORDS_FILE = ""', f"WORDS_FILE = {str(paths[1])!r}")
    out = run_script(filled, tmp_path)
    queries, keys = encode(kv, recipe["queries"], position=0.5), encode(kv, recipe["keys"], position=0.5)
    w = [preset(layers[n]["preset"], 8, 4, seed=layers[n]["seed"], scale=layers[n]["scale"]) for n in "qkv"]
    one, two = (attend(queries.x, keys.x, *w, causal=True, heads=h) for h in (1, 2))
    assert queries.labels == ["我", "喜欢", "猫", "milk"] and out["F"][0] == queries.labels
    for name, a in (("X_Q", queries.x), ("X_KV", keys.x), ("F", one.factor), ("weights", one.weights),
                    ("Z", one.z), ("weights, head 2", two.weights[1]), ("Z, heads side by side", merge_heads(two.z))):
        np.testing.assert_allclose(out[name][1], a, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_notebook_says_before_each_code_cell_what_it_does(files, lang):
    kept = files(PAGES[1])
    at = open_menus(run_page(PAGES[1], {**VIEWS["run"], "lang": lang}))
    assert not at.exception
    book = json.loads(kept["attention-factor.ipynb"][0]())
    kinds = [c["cell_type"] for c in book["cells"]]
    assert kinds == ["markdown", "code"] * (len(kinds) // 2) and len(kinds) >= 20  # a text cell before each code cell
    notes = ["".join(c["source"]) for c in book["cells"][::2]]
    with in_language(lang):
        assert notes[0] == t("notebook_opening") and t("notebook_learned") in notes
    assert len({c["id"] for c in book["cells"]}) == len(book["cells"])


def test_a_learned_layer_says_once_how_to_fit_it_again(files):
    kept = files(PAGES[1])
    at = open_menus(run_page(PAGES[1]))
    assert not at.exception
    lines = script_of(kept, PAGES[1]).splitlines()
    assert lines.count("# then W_Q = 1.0 * fit.w_q") == 1 and "#     W_Q = 1.0 * fit.w_q" not in lines
    assert not [
        a for a, b in itertools.pairwise(lines) if a == b and a.startswith("#")
    ]  # no comment line twice running


LEARNED = {"preset": "learned", "seed": 1, "scale": 1.0, "weights": [[0.5, -0.25]] * 50,
           "fit": {"data": "treebank", "steps": 3, "lr": 0.1, "seed": 0, "d_k": 2, "position": 0.3, "sentences": 10,
                   "train": 8}}
TEMPLATES = {**LEARNED, "preset": "templates", "fit": {**LEARNED["fit"], "data": "templates"}}


def every_kind_of_script(lang: str) -> list[str]:
    """Scripts of every vectors source, one and two sentences, learned layers of both fits and presets, in `lang`."""
    layers = {"q": LEARNED, "k": TEMPLATES, "v": {"preset": "random", "seed": 3, "scale": 1.0}}
    return [reproduce.script({"source": source, "chinese": chinese, "queries": "the black cat drank the milk",
                              "keys": keys, "position": 0.5, "d_k": 2, "scaled": True, "softmax": True,
                              "causal": False, "heads": 2, "layers": layers, "lang": lang})
            for source, chinese, keys in (("glove", False, "the black cat drank the milk"),
                                          ("upload", True, "the milk"), ("glove-wiki-gigaword-100", False, "milk"))]


def test_every_english_text_the_chinese_script_replaces_is_still_written():
    from engine.reproduce_zh import PAIRS

    english = "\n".join(every_kind_of_script("en"))
    assert [e for e, _ in PAIRS if e not in english and e != "the current view"] == []


def test_the_chinese_script_says_everything_in_chinese():
    cjk = re.compile(r"[\u4e00-\u9fff]")
    for text in every_kind_of_script("zh"):
        comments = [line.split("#", 1)[1] for line in text.splitlines() if "#" in line and '"#' not in line]
        words = [c for c in comments if re.search(r"[a-z]{3,} [a-z]{3,}", c) and not c.startswith("     ")]
        docstrings = re.findall(r'"""(.*?)"""', text, flags=re.DOTALL)
        assert [c for c in words if not cjk.search(c)] == []  # code quoted in a comment may stay as it is
        assert docstrings and [d for d in docstrings if not cjk.search(d)] == []
        assert 'show("权重", weights' in text and "已略去" in text


def test_the_chinese_script_prints_the_same_numbers(tmp_path):
    recipe = {"source": "glove", "chinese": False, "queries": "the black cat drank the milk",
              "keys": "the black cat drank the milk", "position": 0.5, "d_k": 4, "scaled": True, "softmax": True,
              "causal": False, "heads": 2, "layers": {n: {"preset": "random", "seed": i, "scale": 1.0}
                                                      for i, n in enumerate("qkv")}}
    (tmp_path / "en").mkdir()
    (tmp_path / "zh").mkdir()
    english = run_script(reproduce.script(recipe), tmp_path / "en")
    chinese = run_script(reproduce.script(recipe | {"lang": "zh"}), tmp_path / "zh")
    for en, zh in (
        ("F", "F"),
        ("scores", "分数"),
        ("weights", "权重"),
        ("Z", "Z"),
        ("weights, head 2", "权重，第 2 个头"),
    ):
        same(english[en], chinese[zh])


def test_a_fresh_python_prints_what_the_warm_one_printed(tmp_path):
    """The scripts above run one after another in one warm Python (tests/scripts.py); run as the learner runs it,
    `python attention.py` in a new process with no project on the path, a script prints the very same text."""
    recipe = {"source": "glove", "chinese": True, "queries": "我喜欢猫, milk!", "keys": "the black cat drank the milk",
              "position": 0.5, "d_k": 4, "scaled": True, "softmax": True, "causal": True, "heads": 2,
              "layers": {n: {"preset": "random", "seed": i, "scale": 1.0} for i, n in enumerate("qkv")}}
    (tmp_path / "attention.py").write_text(reproduce.script(recipe), encoding="utf-8")
    warm = scripts.run(tmp_path / "attention.py")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    fresh = subprocess.run([sys.executable, "attention.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=300, check=False)
    assert (fresh.returncode, warm.returncode) == (0, 0), fresh.stderr[-3000:] + warm.stderr[-3000:]
    assert "== Z ==" in fresh.stdout and fresh.stdout == warm.stdout
