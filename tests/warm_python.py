"""A Python that runs the learner's downloaded scripts one after another, as a notebook's kernel runs its cells: a
separate process started with `python -I` (no project on the path, no PYTHONPATH), each script run as `__main__`
in its own folder with fresh globals, its output and exit status sent back. Only numpy, gensim and the other
packages' imports are shared between scripts, which is what makes the second script quick.

Protocol: one JSON line in, {"script": path, "cwd": folder}; one JSON line out, {"code": exit status, "out":
stdout, "err": stderr}."""
import contextlib
import io
import json
import os
import runpy
import sys
import traceback

sys.path.pop(0)  # this file's folder (tests/): a script run by `python script.py` sees only its own folder
channel = sys.stdout


def run(script: str, cwd: str) -> dict:
    """Run one script as `python script.py` would, in `cwd`."""
    out, err, code = io.StringIO(), io.StringIO(), 0
    os.chdir(cwd)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            runpy.run_path(script, run_name="__main__")
    except SystemExit as e:  # sys.exit(message) prints the message and exits with 1, as Python does
        code = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
        if not isinstance(e.code, int | None):
            err.write(f"{e.code}\n")
    except BaseException:  # noqa: BLE001 - a failing script reports its traceback, as Python would
        err.write(traceback.format_exc())
        code = 1
    finally:
        sys.path.pop(0)
    return {"code": code, "out": out.getvalue(), "err": err.getvalue()}


for line in sys.stdin:
    request = json.loads(line)
    channel.write(json.dumps(run(request["script"], request["cwd"])) + "\n")
    channel.flush()
