"""A server's health check, timed: what the benchmarks and the deploy tests both ask of a server short of files."""
import time
import urllib.request


def health_s(url: str) -> float:
    """The seconds the health check took to answer ok (inf if it did not within 10 s)."""
    start = time.monotonic()
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=10) as answer:
            return time.monotonic() - start if answer.read() == b"ok" else float("inf")
    except OSError:
        return float("inf")
