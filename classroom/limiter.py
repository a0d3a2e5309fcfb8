"""Rate limits for class mode, in memory, with time passed in: a sliding window per key for the small limits (a
student's answers, a browser's joins and classes) and a token bucket per key for the large ones (an address's), whose
memory does not grow with the limit. Keys are what a script cannot renew for free (classroom/clients.py): a browser's
seat, a joined student, a client's address; never a Streamlit session, which a new websocket renews."""
import threading
from collections import OrderedDict, deque

from engine.errors import ClassError

# Limiter(*X): calls, window in seconds and keys kept. A key holds at most `calls` times of about 32 bytes each:
# 20,000 students' answers take 20 MB at most.
ANSWERS_PER_STUDENT, JOINS_PER_SEAT, STARTS_PER_SEAT = (30, 60.0, 20_000), (10, 60.0, 20_000), (10, 3600.0, 20_000)
# Bucket(*X): burst, calls a second after it, keys kept (about 200 bytes each). A class of 200 behind one school
# address takes 200 seats at once, and a school opens a class in each of its rooms.
SEATS_PER_ADDRESS = (600, 10.0, 50_000)  # new seats (classroom/seat.py): 600 at once, then 600 a minute
STARTS_PER_ADDRESS = (60, 1 / 60, 50_000)  # new classes: 60 at once, then one a minute


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


class Bucket:
    """At most `burst` calls per key at once and `rate` a second after (a token bucket), for the `keys` latest keys."""
    # a key forgotten starts full again, as one that waited would be

    def __init__(self, burst: int, rate: float, keys: int = 50_000):
        self.burst, self.rate, self.keys = burst, rate, keys
        self._level: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, when), oldest first
        self._lock = threading.Lock()

    def allow(self, key: str, now: float) -> bool:
        """True, taking a token, when key has one left at `now`."""
        with self._lock:
            tokens, then = self._level.pop(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + max(0.0, now - then) * self.rate)
            allowed = tokens >= 1.0
            self._level[key] = (tokens - allowed, now)
            while len(self._level) > self.keys:
                self._level.popitem(last=False)
            return allowed

    def check(self, key: str, now: float) -> None:
        """allow(), raising ClassError('rate_limited') when it says no."""
        if not self.allow(key, now):
            raise ClassError("rate_limited", seconds=60)

    def __len__(self) -> int:
        return len(self._level)
