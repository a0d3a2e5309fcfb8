"""Running a downloaded script on its own, outside the project, in one warm Python per test process
(tests/warm_python.py)."""
import atexit
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

WARM = Path(__file__).with_name("warm_python.py")
_process: subprocess.Popen | None = None


@dataclass(frozen=True)
class Done:
    """What a script's run left: its exit status and what it wrote."""

    returncode: int
    stdout: str
    stderr: str


def run(script: Path) -> Done:
    """Run `script` as `python script.py` in its own folder would, with no project on the path."""
    global _process
    if _process is None or _process.poll() is not None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        _process = subprocess.Popen([sys.executable, "-I", str(WARM)], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, text=True, encoding="utf-8", env=env)
        atexit.register(_process.kill)
    _process.stdin.write(json.dumps({"script": str(script), "cwd": str(script.parent)}) + "\n")
    _process.stdin.flush()
    answer = _process.stdout.readline()
    assert answer, "the script's Python ended without an answer"
    done = json.loads(answer)
    return Done(done["code"], done["out"], done["err"])
