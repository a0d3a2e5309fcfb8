"""scipy.stats stays unloaded through gensim's import until something uses it (engine/later.py)."""
import subprocess
import sys

EXPECTED = subprocess.run([sys.executable, "-c", "import numpy as np; from gensim.matutils import jensen_shannon; "
                           "print(round(float(jensen_shannon(np.array([0.5, 0.5]), np.array([0.9, 0.1]))), 6))"],
                          capture_output=True, text=True, check=True).stdout.strip()  # without the stand-in
FRESH = """
import sys
import engine
from gensim.models import KeyedVectors
from gensim.matutils import jensen_shannon
import numpy as np
print(type(sys.modules["scipy.stats"]).__name__)
print(round(float(jensen_shannon(np.array([0.5, 0.5]), np.array([0.9, 0.1]))), 6))
print(type(sys.modules["scipy.stats"]).__name__, sys.modules["scipy"].stats is sys.modules["scipy.stats"])
"""


def test_gensim_loads_without_scipy_stats_and_its_functions_still_work():
    out = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == "StandIn"  # gensim and its KeyedVectors loaded, scipy.stats not yet
    assert out[1] == EXPECTED  # gensim's function that calls scipy.stats.entropy gives what it did
    assert out[2:] == ["module", "True"]  # the real module in its place once used
