"""The codebase's shape, kept: short functions, no math in pages, the engine free of UI, bench free of tests."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOT_APP = ("tests", "bench", "harness", "data", "deploy")  # the folders that are not the dashboard's own code
CODE = sorted(p for p in ROOT.glob("**/*.py") if p.relative_to(ROOT).parts[0] not in NOT_APP
              and not p.relative_to(ROOT).parts[0].startswith("."))


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


@pytest.mark.parametrize("path", sorted(ROOT.glob("pages/*.py")), ids=lambda p: p.name)
def test_pages_wire_only(path):
    """No numpy in a page: scores, cosines, orders and sums live in engine/."""
    assert not {m for m in imports(path) if m.split(".")[0] in ("numpy", "pandas", "altair")}
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 45


@pytest.mark.parametrize("path", sorted(ROOT.glob("engine/*.py")), ids=lambda p: p.name)
def test_the_engine_knows_no_ui(path):
    assert not {m for m in imports(path) if m.split(".")[0] in ("ui", "streamlit", "altair")}
    top = ast.parse(path.read_text(encoding="utf-8")).body  # pandas only inside a function: its C parser for uploads
    assert not any(isinstance(n, (ast.Import, ast.ImportFrom)) and "pandas" in ast.dump(n) for n in top)


@pytest.mark.parametrize("path", sorted(ROOT.glob("bench/*.py")), ids=lambda p: p.name)
def test_bench_imports_nothing_from_tests(path):
    assert not {m for m in imports(path) if m.split(".")[0] == "tests"}
