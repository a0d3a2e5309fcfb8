"""Rate limits for class mode, in memory: a sliding window per key (a session, a class), with time passed in."""
import threading
from collections import OrderedDict, deque

from engine.errors import ClassError

# Limiter(*X): calls, window in seconds and keys kept, per session (one browser tab) or per class. A key holds at most
# `calls` times of about 32 bytes each: 10,000 sessions take 10 MB at most, 1,000 classes 64 MB.
ANSWERS_PER_SESSION, JOINS_PER_SESSION = (30, 60.0, 10_000), (10, 60.0, 10_000)
STARTS_PER_SESSION = (10, 3600.0, 10_000)
ANSWERS_PER_CLASS = (2000, 60.0, 1000)


class Limiter:
    """At most `limit` calls per key in any `window` seconds (a sliding window), for the `keys` most recent keys."""

    def __init__(self, limit: int, window: float, keys: int = 10_000):
        self.limit, self.window, self.keys = limit, window, keys
        self._times: OrderedDict[str, deque[float]] = OrderedDict()  # least recently seen key first
        self._lock = threading.Lock()

    def allow(self, key: str, now: float) -> bool:
        """True, counting the call, when key has had fewer than `limit` calls in the window before now."""
        with self._lock:
            times = self._times.pop(key, None) or deque()
            while times and times[0] <= now - self.window:
                times.popleft()
            allowed = len(times) < self.limit
            if allowed:
                times.append(now)
            self._times[key] = times
            while self._times:  # drop keys past the window, and the least recently seen beyond `keys`
                oldest = next(iter(self._times.values()))
                if len(self._times) <= self.keys and oldest and oldest[-1] > now - self.window:
                    break
                self._times.popitem(last=False)
            return allowed

    def check(self, key: str, now: float) -> None:
        """allow(), raising ClassError('rate_limited') when it says no."""
        if not self.allow(key, now):
            raise ClassError("rate_limited", seconds=int(self.window))

    def __len__(self) -> int:
        return len(self._times)
