"""The codebase's shape, kept: short functions and modules, one-line docstrings, no math in pages, the engine free of
UI and SQL, imports that run one way (engine, then kit and server, vectors, fits, class mode, the held-out sentences,
the features, lesson, the pages), no feature leaning on another, bench free of tests."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOT_APP = ("tests", "bench", "harness", "data", "deploy")  # the folders that are not the dashboard's own code
CODE = sorted(p for p in ROOT.glob("**/*.py") if p.relative_to(ROOT).parts[0] not in NOT_APP
              and not p.relative_to(ROOT).parts[0].startswith("."))
EVERY = sorted(p for p in ROOT.glob("**/*.py") if not p.relative_to(ROOT).parts[0].startswith("."))  # tests too
FEATURES = {"rows", "factor", "dot", "relevance", "swap", "learning", "kinds", "real", "transformer"}
# Each folder imports only from itself and the layers before it: the engine knows nothing of the dashboard, a feature
# nothing of another feature (what two of them draw lives below them all: kit/, classroom/ for the class a page's quiz
# may ask, heldout/ for the treebank's held-out sentences and the learned heads pages 6 to 8 read) nor of the frame
# that opens its page.
LAYERS = ({"engine"}, {"kit", "server"}, {"vectors"}, {"fits"}, {"classroom"}, {"heldout"}, *({f} for f in FEATURES),
          {"lesson"}, {"pages", "dashboard"})


def imports(path: Path) -> set[str]:
    """Top-level names of every module the file imports."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize("path", CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_function_over_40_lines(path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.end_lineno - node.lineno < 40, f"{node.name} has {node.end_lineno - node.lineno + 1} lines"


def layer(top: str) -> int:
    """The place of a top-level folder (or dashboard.py) in LAYERS."""
    return next(i for i, names in enumerate(LAYERS) if top in names)


@pytest.mark.parametrize("path", CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_docstrings_are_one_line(path):
    """A function's or class's docstring says what it gives in one line; why goes in a comment (DESIGN.md)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and ast.get_docstring(node):
            doc = node.body[0]
            assert doc.end_lineno == doc.lineno, f"{node.name}'s docstring has {doc.end_lineno - doc.lineno + 1} lines"


@pytest.mark.parametrize("path", CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_run_one_way(path):
    top = path.relative_to(ROOT).parts[0].removesuffix(".py")
    ours = {m.split(".")[0] for m in imports(path)} & set().union(*LAYERS)
    allowed = set().union(*LAYERS[:layer(top)], {top}) - (FEATURES - {top} if top in FEATURES else set())
    assert ours <= allowed, sorted(ours - allowed)


@pytest.mark.parametrize("path", EVERY, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_over_400_lines(path):
    """The texts are in TOML catalogues, which a translator reads whole; every module of code stays short."""
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 400


@pytest.mark.parametrize("path", sorted(ROOT.glob("pages/*.py")), ids=lambda p: p.name)
def test_pages_wire_only(path):
    """No numpy in a page: scores, cosines, orders and sums live in engine/."""
    assert not {m for m in imports(path) if m.split(".")[0] in ("numpy", "pandas", "altair")}
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 45


def computed(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) for n in ast.walk(node))


@pytest.mark.parametrize("path", sorted(ROOT.glob("pages/*.py")), ids=lambda p: p.name)
def test_pages_compute_one_value_a_line(path):
    """A page reads top to bottom: no assignment packs two computed values (`a, b = f(), g()`); naming a context's
    fields at once (`s, enc = ctx.s, ctx.enc`) and unpacking one call (`left, right = st.columns(2)`) are fine."""
    packed = [node.lineno for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
              if isinstance(node, ast.Assign) and any(isinstance(t, ast.Tuple) and sum(map(computed, t.elts)) > 1
                                                      for t in ast.walk(node.value))]
    assert packed == [], f"lines {packed}"


@pytest.mark.parametrize("path", CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_code_assigns_one_computed_value_a_line(path):
    """Nowhere in the app's code are two computed values unpacked into as many names (`a, b = f(), g()`): each gets a
    line of its own. A tuple of values kept as one (a key, a row) is one value."""
    packed = [node.lineno for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
              if isinstance(node, ast.Assign) and any(isinstance(t, ast.Tuple) for t in node.targets)
              and isinstance(node.value, ast.Tuple) and sum(map(computed, node.value.elts)) > 1]
    assert packed == [], f"lines {packed}"


@pytest.mark.parametrize("path", sorted(ROOT.glob("engine/*.py")), ids=lambda p: p.name)
def test_the_engine_knows_no_ui_and_no_sql(path):
    assert not {m for m in imports(path) if m.split(".")[0] in ("streamlit", "altair", "sqlalchemy")}
    top = ast.parse(path.read_text(encoding="utf-8")).body  # pandas only inside a function: its C parser for uploads
    assert not any(isinstance(n, (ast.Import, ast.ImportFrom)) and "pandas" in ast.dump(n) for n in top)


@pytest.mark.parametrize("path", sorted(ROOT.glob("bench/*.py")), ids=lambda p: p.name)
def test_bench_imports_nothing_from_tests(path):
    assert not {m for m in imports(path) if m.split(".")[0] == "tests"}
