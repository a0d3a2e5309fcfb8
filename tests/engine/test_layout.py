"""The codebase's shape, kept: short functions and modules, no math in pages, the engine free of UI and SQL, imports
that run one way (engine, then kit and server, vectors, fits, the features, lesson, the pages), bench free of tests."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOT_APP = ("tests", "bench", "harness", "data", "deploy")  # the folders that are not the dashboard's own code
CODE = sorted(p for p in ROOT.glob("**/*.py") if p.relative_to(ROOT).parts[0] not in NOT_APP
              and not p.relative_to(ROOT).parts[0].startswith("."))
EVERY = sorted(p for p in ROOT.glob("**/*.py") if not p.relative_to(ROOT).parts[0].startswith("."))  # tests too
FEATURES = {"rows", "factor", "dot", "relevance", "swap", "learning", "kinds", "real", "transformer", "classroom"}
# Each layer imports only from itself and the layers before it (a feature may also use another feature's parts); the
# engine knows nothing of the dashboard, a feature nothing of the frame that opens its page.
LAYERS = ({"engine"}, {"kit", "server"}, {"vectors"}, {"fits"}, FEATURES, {"lesson"}, {"pages", "dashboard"})


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
def test_imports_run_one_way(path):
    top = path.relative_to(ROOT).parts[0].removesuffix(".py")
    ours = {m.split(".")[0] for m in imports(path)} & set().union(*LAYERS)
    allowed = set().union(*LAYERS[:layer(top)], {top}, FEATURES if top in FEATURES else set())
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


@pytest.mark.parametrize("path", sorted(ROOT.glob("engine/*.py")), ids=lambda p: p.name)
def test_the_engine_knows_no_ui_and_no_sql(path):
    assert not {m for m in imports(path) if m.split(".")[0] in ("streamlit", "altair", "sqlalchemy")}
    top = ast.parse(path.read_text(encoding="utf-8")).body  # pandas only inside a function: its C parser for uploads
    assert not any(isinstance(n, (ast.Import, ast.ImportFrom)) and "pandas" in ast.dump(n) for n in top)


@pytest.mark.parametrize("path", sorted(ROOT.glob("bench/*.py")), ids=lambda p: p.name)
def test_bench_imports_nothing_from_tests(path):
    assert not {m for m in imports(path) if m.split(".")[0] == "tests"}
