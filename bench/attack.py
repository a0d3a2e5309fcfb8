"""Attacks on the memory budget, replayed against a real server: each row starts a fresh server, lets two bystanders
upload a vectors file each, runs the attack, has the bystanders rerun (an upload released for others is told then),
closes every tab, watches the server's RSS for SETTLE_S seconds (the reconnect window is 60 s) and takes it once more
after the next visitor has come and gone: Streamlit's runtime keeps the sessions it served last referenced until it
next sends a message, so on a server nobody visits their state stays (bench rows show both).

Rows: eight files PUT to one session's upload endpoint and never named in its uploader; seven files chosen at once in
the vectors uploader; three CSV files of UPLOAD_MB chosen in page 5's corpus uploader; three vectors uploads at once;
ten visitors uploading once each, one after another. Budgets: peak RSS ≤ idle + the upload budget + PEAK_MARGIN_MB,
RSS ≤ idle + FINAL_MARGIN_MB after SETTLE_S and the next visit, and no bystander's upload released.
Run alone: python -m bench.attack [eight_puts] [seven_files] [corpus_csvs] [concurrent] [ten]   (no name: every row)
"""
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

import requests
from streamlit.proto.BackMsg_pb2 import BackMsg

from bench.capacity import HOME, Student, open_all, warm
from bench.common import Row, Server
from bench.hosting_fits import to_page
from bench.uploading import (
    BUDGET_MB,
    EVICTED,
    UPLOAD_MB,
    UPLOAD_TIMEOUT_S,
    XSRF,
    Peak,
    close_all,
    glove_text,
    holds,
    open_uploaders,
    upload,
)

PEAK_MARGIN_MB, FINAL_MARGIN_MB, SETTLE_S, SAMPLE_S = 100, 30, 90, 5
BYSTANDERS = 2


def xsrf_headers(student: Student) -> dict:
    """The cookie and header a PUT to the upload endpoint needs, as the frontend sends them."""
    r = requests.get(student.url + "/_stcore/health", headers={"Cookie": student.cookie} if student.cookie else {},
                     timeout=10)
    token = r.cookies.get(XSRF)
    cookie = "; ".join(c for c in (student.cookie, f"{XSRF}={token}") if c)
    return {"Cookie": cookie, "X-Xsrftoken": token}


def put(student: Student, url: str, name: str, data: bytes, kind: str = "text/plain") -> int:
    """PUT one file; the HTTP status (204 when taken)."""
    try:
        r = requests.put(student.url + url, files={"file": (name, data, kind)}, headers=xsrf_headers(student),
                         timeout=UPLOAD_TIMEOUT_S)
    except requests.RequestException:  # the server closed the connection on a refused body
        return 0
    return r.status_code


async def file_urls(student: Student, names: list[str]):
    """Ask for upload URLs as the uploader does when files are chosen."""
    ask = BackMsg()
    ask.file_urls_request.request_id, ask.file_urls_request.session_id = "1", student.session_id
    ask.file_urls_request.file_names.extend(names)
    await student.ws.send(ask.SerializeToString())
    answer = await student.receive(lambda fwd: fwd.WhichOneof("type") == "file_urls_response")
    return list(answer.file_urls_response.file_urls)


async def choose(student: Student, widget: str, urls, names: list[str], sizes: list[int]) -> None:
    """Rerun with the uploader `widget` (a key fragment) naming these files, as the frontend does once they are sent."""
    msg = BackMsg()
    state = msg.rerun_script.widget_states.widgets.add()
    state.id = next(i for i in reversed(student.ids) if widget in i)
    for u, name, size in zip(urls, names, sizes, strict=False):
        info = state.file_uploader_state_value.uploaded_file_info.add()
        info.file_id, info.name, info.size = u.file_id, name, size
        info.file_urls.CopyFrom(u)
    await student.rerun(msg, UPLOAD_TIMEOUT_S)


async def eight_puts(url: str, data: bytes) -> dict:
    """One session PUTs eight files to its own upload endpoint, names none of them, and reruns on source=upload."""
    (attacker,), _ = await open_uploaders(url, 1)
    urls = await file_urls(attacker, [f"v{i}.txt" for i in range(8)])
    codes = [await asyncio.to_thread(put, attacker, u.upload_url, f"v{i}.txt", data) for i, u in enumerate(urls)]
    await attacker.rerun(BackMsg())
    return {"sessions": [attacker], "taken": sum(c == 204 for c in codes), "codes": codes}


async def seven_files(url: str, data: bytes) -> dict:
    """One session chooses seven files at once in the vectors uploader."""
    (attacker,), _ = await open_uploaders(url, 1)
    names = [f"v{i}.txt" for i in range(7)]
    urls = await file_urls(attacker, names)
    codes = await asyncio.gather(*(asyncio.to_thread(put, attacker, u.upload_url, n, data)
                                   for u, n in zip(urls, names, strict=False)))
    await choose(attacker, "-upload_files_", urls, names, [len(data)] * 7)
    return {"sessions": [attacker], "taken": sum(c == 204 for c in codes), "codes": list(codes)}


async def corpus_csvs(url: str, data: bytes) -> dict:
    """Three sessions each choose a CSV of UPLOAD_MB in page 5's corpus uploader, then rerun twice more."""
    attackers = [Student(url, seed=300 + i) for i in range(3)]
    await open_all(attackers)
    await asyncio.gather(*(to_page(s, "Learning") for s in attackers))

    async def one(s: Student) -> int:
        pick = BackMsg()  # "your own CSV" in the corpus section's choice
        state = pick.rerun_script.widget_states.widgets.add()
        state.id, state.string_value = next(i for i in reversed(s.ids) if i.endswith("-_corpus_which")), "upload"
        await s.rerun(pick, UPLOAD_TIMEOUT_S)
        (u,) = await file_urls(s, ["corpus.csv"])
        code = await asyncio.to_thread(put, s, u.upload_url, "corpus.csv", data, "text/csv")
        await choose(s, "-corpus_file_", [u], ["corpus.csv"], [len(data)])
        for _ in range(2):
            await s.rerun(BackMsg())
        return code

    codes = await asyncio.gather(*(one(s) for s in attackers))
    return {"sessions": attackers, "taken": sum(c == 204 for c in codes), "codes": list(codes)}


async def send(student: Student, data: bytes) -> int:
    """Choose a vectors file in the session's uploader as the frontend does: its URL, the PUT, and (when taken) the
    rerun that names it; the PUT's HTTP status."""
    (u,) = await file_urls(student, ["v.txt"])
    code = await asyncio.to_thread(put, student, u.upload_url, "v.txt", data)
    if code == 204:
        student.alerts.clear()
        await choose(student, "-upload_files_", [u], ["v.txt"], [len(data)])
    return code


async def concurrent(url: str, data: bytes) -> dict:
    """Three sessions upload a vectors file at the same moment."""
    students, _ = await open_uploaders(url, 3)
    codes = await asyncio.gather(*(send(s, data) for s in students))
    return {"sessions": students, "taken": sum(holds(s) for s in students), "codes": list(codes)}


async def ten(url: str, data: bytes) -> dict:
    """Ten sessions upload a vectors file each, one after another."""
    students, _ = await open_uploaders(url, 10)
    codes = [await send(s, data) for s in students]
    return {"sessions": students, "taken": sum(holds(s) for s in students), "codes": codes}


ATTACKS = {"eight_puts": (eight_puts, "one session PUTs eight files to its upload endpoint and names none"),
           "seven_files": (seven_files, "seven files chosen at once in the vectors uploader"),
           "corpus_csvs": (corpus_csvs, "three sessions each choose a CSV in page 5's corpus uploader"),
           "concurrent": (concurrent, "three vectors uploads at the same moment"),
           "ten": (ten, "ten visitors upload a vectors file each, one after another")}


async def scene(server: Server, attack, data: bytes) -> dict:
    """Bystanders upload, the attack runs, bystanders rerun, every tab closes; RSS every SAMPLE_S seconds for SETTLE_S
    seconds, then once more after the next visitor has opened and closed the home page."""
    idle = server.rss_mb()
    with Peak(server) as peak:
        bystanders, errors = await open_uploaders(server.url, BYSTANDERS)
        for s in bystanders:
            await upload(s, "mine.txt", data)
        v = await attack(server.url, data)
        for s in bystanders:
            s.alerts.clear()
            await s.rerun(BackMsg())
        during = server.rss_mb()
    released = [any(a.startswith(EVICTED[:40]) for a in s.alerts) or not holds(s) for s in bystanders]
    everyone = bystanders + v.pop("sessions")
    errors += [e for s in everyone for e in s.errors]
    await close_all(everyone)
    start, samples = time.monotonic(), []
    while time.monotonic() - start < SETTLE_S:
        await asyncio.sleep(SAMPLE_S)
        samples.append((round(time.monotonic() - start), server.rss_mb()))
    visitor = Student(server.url, seed=999)  # Streamlit's runtime keeps the sessions it last served until it next runs
    await visitor.open()
    await visitor.close()
    await asyncio.sleep(SAMPLE_S)
    return v | {"idle_mb": idle, "peak_mb": peak.mb, "during_mb": during, "samples": samples,
                "final_mb": server.rss_mb(), "released": released, "errors": errors + visitor.errors}


async def visit_learning(url: str) -> None:
    """One visitor opens page 5's corpus section and leaves, as the server's warm-up does for the home page."""
    visitor = Student(url, seed=998)
    await visitor.open()
    await to_page(visitor, "Learning")
    await visitor.close()


def attack_row(name: str, path: Path) -> Row:
    """One attack on a fresh server, judged against the budgets."""
    attack, what = ATTACKS[name]
    with Server(HOME) as server:
        warm(server.url)
        if name == "corpus_csvs":  # page 5's first visit loads what every later one shares (references, the treebank)
            asyncio.run(visit_learning(server.url))
        v = asyncio.run(scene(server, attack, path.read_bytes()))
    ceiling, final = v["idle_mb"] + BUDGET_MB + PEAK_MARGIN_MB, v["final_mb"]
    released = sum(v["released"])
    met = (v["peak_mb"] <= ceiling and final <= v["idle_mb"] + FINAL_MARGIN_MB and (name == "ten" or not released)
           and not v["errors"])
    how = (f"{BYSTANDERS} bystanders each upload the {UPLOAD_MB} MB GloVe text file, then {what} ({v['taken']} "
           f"taken{'' if 'codes' not in v else ', HTTP ' + ' '.join(map(str, v['codes']))}); RSS during "
           f"{v['during_mb']:.0f} MB; {released} of the bystanders' uploads released; every tab closed, RSS "
           f"{', '.join(f'{s} s {mb:.0f}' for s, mb in v['samples'])} MB, then {final:.0f} MB once the next visitor "
           f"has opened and closed the home page; {len(v['errors'])} errors"
           + (f" (first: {v['errors'][0]})" if v["errors"] else ""))
    return Row(f"attack · {name.replace('_', ' ')}", how,
               f"peak {v['peak_mb']:.0f} MB, final {final:.0f} MB", f"idle {v['idle_mb']:.0f} MB",
               f"+{v['peak_mb'] - v['idle_mb']:.0f} MB",
               f"peak ≤ idle + {BUDGET_MB} + {PEAK_MARGIN_MB} MB; final ≤ idle + {FINAL_MARGIN_MB} MB {SETTLE_S} s "
               "after closing" + ("" if name == "ten" else "; no bystander released"), met, v)


def run(quick: bool = False, only: tuple[str, ...] = ()) -> list[Row]:
    """Every attack row, the first two with `quick` (each row watches the server settle), or those named in `only`."""
    with tempfile.TemporaryDirectory() as tmp:
        path = glove_text(Path(tmp) / "vectors.txt", UPLOAD_MB)
        return [attack_row(name, path) for name in (only or list(ATTACKS)[:2 if quick else None])]


if __name__ == "__main__":
    from bench.common import table

    began, load = time.perf_counter(), os.getloadavg()
    for name in tuple(a for a in sys.argv[1:] if not a.startswith("--")) or ATTACKS:
        print(table(run(only=(name,))), flush=True)
    print(f"\n{os.cpu_count()} cores, load average {load[0]:.2f} at the start and {os.getloadavg()[0]:.2f} at the "
          f"end; {time.perf_counter() - began:.0f} s")
