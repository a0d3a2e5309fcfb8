"""A class panel's watch: the panel (a fragment) runs again only when what it shows has changed, not on a timer. Its
browser asks ROUTE with the stage it last saw; the server holds the question until the class's stage is another one
(or HOLD_S passes), and the watcher reruns the panel with the new one. So a room of students waiting on a question
costs its server almost nothing, and the people typing on the same process do not wait behind it.

On each process, one task per watched class reads its room while anyone waits on it (store.shared_room, shared
with the panels), and wakes the waiting questions when a stage changed: at once when the class changed on this process
(store.forget), else within FOLLOW_S, the time another replica's change takes to be seen.

The stage says only what the panel would show differently: the question and its status for everyone, whether the
teacher is still there for a student, the counts for the teacher (never how the room answered, which a student could
read before the reveal), and when the teacher's panel is due to say it is open (classes.beat).

The watcher is a components.v2 component with inline JavaScript (Streamlit loads it as a blob: module, which
server/headers.py's policy allows for scripts): it renders nothing, and asks with the page's own cookies, so nginx's
sticky route brings the question to the replica that runs the panel. A server told to stop answers every question it
holds at once (release), so it exits without waiting out their holds, and the watches ask again, of a replica that is
up. Which questions are held at all, and who is told the teacher's stage, is classroom/holds.py's; a question answered
with a Retry-After (a class nobody knows, too many held), refused or failed makes the watcher wait before it asks again,
longer after each failure, each tab a different time."""
import asyncio
import contextlib
import time
from dataclasses import dataclass, field

import streamlit as st
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from classroom import classes, clients, holds, seat, store
from engine.errors import ClassError
from server import files

ROUTE = "/_class/stage"
HOLD_S = 20.0  # a question is answered after this long even if nothing changed (proxies keep 60 s)
FOLLOW_S = 1.0  # a watched class is read again this often, to see changes made on other replicas
COUNT_S = 0.25  # an answer given on this process is in the teacher's counts this much later (with every other)
RETRY_S, BACKOFF_S = 1.0, 30.0  # after a failed question the watcher asks again this much later, doubled up to
EVERY_S = 1.0  # a live chart the teacher shows before the reveal is redrawn this often
BEAT_S, GONE_S = 10.0, 60.0  # the teacher's panel says it is open this often; unseen this long, the teacher is away
UNKNOWN, DOWN = "unknown", "down"  # the stage of a class the database does not know, or of a database not answering
JS = """
const watches = new WeakMap();
const pause = (ms) => new Promise((done) => setTimeout(done, ms));
const spread = (ms) => ms * (0.5 + Math.random());  // tabs told to wait together do not come back together
const later = (answer) => 1000 * (Number(answer.headers.get("Retry-After")) || 0);
const shown = (signal) => new Promise((done) => {  // a hidden tab holds no question (a browser has 6 connections)
  const on = () => { if (document.visibilityState !== "hidden" || signal.aborted) { off(); done(); } };
  const off = () => { document.removeEventListener("visibilitychange", on); signal.removeEventListener("abort", on); };
  document.addEventListener("visibilitychange", on);
  signal.addEventListener("abort", on);
  on();
});
async function ask(w) {
  let misses = 0;
  while (!w.stopped.signal.aborted) {
    await shown(w.stopped.signal);
    let now, wait = 0;
    try {
      const answer = await fetch(`${w.data.url}&shown=${encodeURIComponent(w.seen)}`,
                                 { cache: "no-store", credentials: "same-origin", signal: w.stopped.signal });
      wait = later(answer);
      if (answer.ok) now = await answer.text();
    } catch {}  // stopped, or the server is away: the page says so itself
    if (now === undefined) {  // refused (ask again later) or failed: wait, longer after each failure
      misses += 1;
      await pause(spread(Math.max(wait, Math.min(w.data.retry * 2 ** (misses - 1), w.data.backoff))));
      continue;
    }
    misses = 0;
    w.seen = now;
    if (now !== w.data.stage && now !== w.asked) { w.asked = now; w.trigger("moved", now); }
    if (wait) await pause(spread(wait));  // a class nobody knows, or a database not answering: not again at once
  }
}
export default function ({ data, parentElement, setTriggerValue }) {
  const mounted = !watches.has(parentElement);
  const w = watches.get(parentElement) ?? { seen: data.stage, stopped: new AbortController() };
  if (w.data && w.data.stage !== data.stage) w.asked = undefined;  // drawn anew: a stage seen before may come again
  Object.assign(w, { data, trigger: setTriggerValue });
  if (mounted) {  // one question at a time for as long as the panel is on the page
    watches.set(parentElement, w);
    ask(w);
  }
  clearInterval(w.timer);  // a live chart on the teacher's screen: redrawn every `every` ms as well
  if (data.every > 0) w.timer = setInterval(() => setTriggerValue("moved", "every"), data.every);
  return () => { w.stopped.abort(); clearInterval(w.timer); watches.delete(parentElement); };
}
"""


def stage(room: classes.Room, teacher: bool, now: float) -> str:
    """What a panel shows that can change by itself, as one short string."""
    if teacher:
        return f"{room.question_no}.{room.status}.{room.joined}.{room.answered}.{int(now - room.teacher_seen > BEAT_S)}"
    return f"{room.question_no}.{room.status}.{int(now - room.teacher_seen > GONE_S)}"


def current(code: str, teacher: bool) -> str:
    """The stage of class `code` now, as this process's shared read of its room has it (store.shared_room)."""
    return stages(read(code), time.time())[teacher]


def read(code: str) -> classes.Room | str:
    """Class `code`'s room, or the stage that says why there is none."""
    try:
        return store.call(store.shared_room, code)
    except ClassError:
        return UNKNOWN
    except store.Unavailable:
        return DOWN


def stages(room: classes.Room | str, now: float) -> tuple[str, str]:
    """(a student's stage, the teacher's) of a room read by `read`."""
    if isinstance(room, str):
        return room, room
    return stage(room, False, now), stage(room, True, now)


@dataclass
class Watched:
    """A class someone on this process is watching."""
    loop: asyncio.AbstractEventLoop
    follower: asyncio.Task | None = None  # follow's task, held here: the loop keeps only a weak reference to it
    stages: tuple[str, str] | None = None  # (a student's, the teacher's), as last read
    changed: asyncio.Event = field(default_factory=asyncio.Event)  # set, then replaced, when a stage changed
    poked: asyncio.Event = field(default_factory=asyncio.Event)  # the class changed on this process: read it now
    soon: asyncio.TimerHandle | None = None  # the poke an answer asked for (counted), COUNT_S after the first
    waiting: int = 0  # the questions waiting on its stages


_watched: dict[str, Watched] = {}  # class code -> its watch; changed only on the server's event loop
_stopping: list[bool] = []  # [True] once the server is stopping (release): no question is held any more


async def follow(code: str, watched: Watched) -> None:
    """Read the class's room while anyone waits on it, again when poked or FOLLOW_S later; wake them on a new stage."""
    try:
        while watched.waiting > 0:
            watched.poked.clear()  # before reading: a change made during the read is read again
            if watched.soon is not None:
                watched.soon.cancel()
                watched.soon = None
            now = stages(await asyncio.to_thread(read, code), time.time())
            if now != watched.stages:
                watched.stages = now
                watched.changed.set()
                watched.changed = asyncio.Event()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(FOLLOW_S):
                    await watched.poked.wait()
    finally:
        del _watched[code]
        watched.changed.set()  # should reading fail in an unforeseen way, no question waits for nothing


def poke(code: str) -> None:
    """Class `code` changed on this process (store.forget, from a script's thread): its watch reads it now."""
    watched = _watched.get(code)
    if watched is not None:
        with contextlib.suppress(RuntimeError):  # its loop has closed: nobody is waiting
            watched.loop.call_soon_threadsafe(watched.poked.set)


def counted(code: str) -> None:
    """Someone answered in class `code` on this process (store.counted): its watch reads it COUNT_S later."""
    # COUNT_S from the first answer since its last read, however many come meanwhile
    watched = _watched.get(code)
    if watched is not None:
        with contextlib.suppress(RuntimeError):
            watched.loop.call_soon_threadsafe(later, watched)


def later(watched: Watched) -> None:
    """A poke COUNT_S from now, unless one is due already (on the watch's loop)."""
    if watched.soon is None:
        watched.soon = watched.loop.call_later(COUNT_S, watched.poked.set)


store.FORGOTTEN.append(poke)
store.COUNTED.append(counted)


async def stage_of(request: Request) -> PlainTextResponse:
    """ROUTE: the stage of class ?c= (the teacher's with ?as=teacher) once it is not ?shown=, or after HOLD_S."""
    # The teacher's only with the teacher's key in the cookies. At once instead: for a code no live class has, for a
    # stage this process knows to be another already (before any limit is counted: a change reaches every screen), and,
    # with a Retry-After, for a question over holds.py's limits or while the process is short of open files
    # (server/files.py).
    code = seat.code_of(request.query_params.get("c", "")[:32])
    found = "unknown" if code is None else await holds.look(code)
    if found == "unknown":
        return reply(UNKNOWN, later=holds.UNKNOWN_S)
    if found != "live":
        return reply(holds.LATER if found == "later" else DOWN, status=429 if found == "later" else 200,
                     later=holds.SOON_S if found == "later" else holds.DOWN_S)
    teacher = request.query_params.get("as") == "teacher" and holds.teaches(code, dict(request.cookies))
    shown = request.query_params.get("shown", "")[:64]
    now = known(code, teacher)
    if now is not None and now != shown:  # delivered before any allowance is counted
        return reply(now)
    address = clients.address(request.client.host if request.client else None, request.headers.get("x-forwarded-for"))
    browser = await holds.seat_of(dict(request.cookies))
    if files.short() or not holds.hold(address, browser):  # the stage as it is, and ask again in a moment
        return reply(now or await asyncio.to_thread(current, code, teacher), later=holds.LATER_S)
    try:
        return reply(await changed_from(code, teacher, shown))
    finally:
        holds.let_go(address, browser)


def known(code: str, teacher: bool) -> str | None:
    """Class `code`'s stage for the teacher or a student as its watch on this process last read it (None: unwatched)."""
    watched = _watched.get(code)
    return watched.stages[teacher] if watched is not None and watched.stages is not None else None


def reply(text: str, status: int = 200, later: int = 0) -> PlainTextResponse:
    """The route's answer: never cached; with a Retry-After when the watcher should wait before it asks again."""
    headers = {"Cache-Control": "no-store"} | ({"Retry-After": str(later)} if later else {})
    return PlainTextResponse(text, status_code=status, headers=headers)


async def changed_from(code: str, teacher: bool, shown: str) -> str:
    """Class `code`'s stage for the teacher or a student once it differs from `shown`, or when HOLD_S has passed."""
    watched = _watched.get(code)
    if watched is None:
        watched = _watched[code] = Watched(asyncio.get_running_loop())
        watched.follower = watched.loop.create_task(follow(code, watched))  # it starts once this question waits
    watched.waiting += 1
    try:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(HOLD_S):
                while ((watched.stages is None or watched.stages[teacher] == shown) and _watched.get(code) is watched
                       and not _stopping):
                    await watched.changed.wait()
    finally:
        watched.waiting -= 1
    return watched.stages[teacher] if watched.stages else shown


def release() -> None:
    """The server is stopping: answer every question held, and any asked from now on, at once with the last stage."""
    # Called on the server's loop (server/lifespan.py). The server waits for every open request before it exits; a
    # container's stop would otherwise wait up to HOLD_S, or kill the server first.
    _stopping[:] = [True]
    for watched in list(_watched.values()):
        watched.changed.set()


ROUTES = [Route(ROUTE, stage_of, methods=["GET"])]


def watch(base_url: str, code: str, teacher: bool, shown: str, every: float = 0.0) -> None:
    """In a panel's fragment: the watcher that reruns it once its class's stage is not `shown`, and every `every` s."""
    mount = st.components.v2.component("class_watch", js=JS)
    query = f"c={code}" + ("&as=teacher" if teacher else "")
    data = {"url": f"{base_url}{ROUTE}?{query}", "stage": shown, "retry": int(RETRY_S * 1000),
            "backoff": int(BACKOFF_S * 1000), "every": int(every * 1000)}
    mount(key="_class_watch", data=data, height=0)
