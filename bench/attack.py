"""Attacks on the memory budget, replayed on a fresh server each: peak and settled RSS, and bystanders' uploads kept."""
import asyncio
import tempfile
import time
from functools import partial
from pathlib import Path

from streamlit.proto.BackMsg_pb2 import BackMsg

from bench import clients
from bench.clients import Student, file_urls, open_uploaders, put
from bench.common import Row, cli, errors
from bench.servers import HOME, Peak, Server, started
from bench.uploading import BUDGET_MB, UPLOAD_MB, glove_text

PEAK_MARGIN_MB, FINAL_MARGIN_MB, SETTLE_S, SAMPLE_S = 100, 30, 90, 5
BYSTANDERS = 2


async def files(url: str, data: bytes, n: int, chosen: bool = False) -> dict:
    """One session PUTs n files to its upload endpoint: at once, chosen in its uploader, or in turn, named nowhere."""
    (attacker,), _ = await open_uploaders(url, 1)
    names = [f"v{i}.txt" for i in range(n)]
    urls = await file_urls(attacker, names)
    puts = [asyncio.to_thread(put, attacker, u.upload_url, name, data) for u, name in zip(urls, names, strict=False)]
    codes = list(await asyncio.gather(*puts)) if chosen else [await each for each in puts]
    if chosen:
        await clients.choose(attacker, "-upload_files_", urls, names, [len(data)] * n)
    else:
        await attacker.rerun(BackMsg())
    return {"sessions": [attacker], "taken": sum(c == 204 for c in codes), "codes": codes}


async def corpus_csvs(url: str, data: bytes) -> dict:
    """Three sessions each choose a CSV of UPLOAD_MB in page 5's corpus uploader, then rerun twice more."""
    attackers = [Student(url, seed=300 + i) for i in range(3)]
    await clients.open_all(attackers, "Learning")

    async def one(s: Student) -> int:
        which = next(i for i in reversed(s.ids) if i.endswith("-_corpus_which"))
        choice = clients.rerun_with(which, string_value="upload")  # "your own CSV" in its choice
        await s.rerun(choice, clients.UPLOAD_TIMEOUT_S)
        code = await clients.send(s, "corpus.csv", data, "-corpus_file_", "text/csv")
        for _ in range(2):
            await s.rerun(BackMsg())
        return code

    codes = await asyncio.gather(*(one(s) for s in attackers))
    return {"sessions": attackers, "taken": sum(c == 204 for c in codes), "codes": list(codes)}


async def uploads(url: str, data: bytes, n: int, together: bool = False) -> dict:
    """n sessions upload a vectors file each, at the same moment or one after another."""
    students, _ = await open_uploaders(url, n)
    sends = [clients.send(s, "v.txt", data) for s in students]
    codes = list(await asyncio.gather(*sends)) if together else [await send for send in sends]
    return {"sessions": students, "taken": sum(clients.holds(s) for s in students), "codes": codes}


ATTACKS = {"eight_puts": (partial(files, n=8), "one session PUTs eight files to its upload endpoint and names none"),
           "seven_files": (partial(files, n=7, chosen=True), "seven files chosen at once in the vectors uploader"),
           "corpus_csvs": (corpus_csvs, "three sessions each choose a CSV in page 5's corpus uploader"),
           "concurrent": (partial(uploads, n=3, together=True), "three vectors uploads at the same moment"),
           "ten": (partial(uploads, n=10), "ten visitors upload a vectors file each, one after another")}


async def scene(server: Server, attack, data: bytes) -> dict:
    """Bystanders upload, the attack, bystanders rerun, tabs close; RSS for SETTLE_S s, then after the next visitor."""
    idle = server.rss_mb()
    with Peak(server.rss_mb) as peak:
        bystanders, errors = await open_uploaders(server.url, BYSTANDERS)
        for s in bystanders:
            await clients.upload(s, "mine.txt", data)
        v = await attack(server.url, data)
        for s in bystanders:
            s.alerts.clear()
            await s.rerun(BackMsg())
        during = server.rss_mb()
    released = [any(a.startswith(clients.EVICTED[:40]) for a in s.alerts) or not clients.holds(s) for s in bystanders]
    everyone = bystanders + v.pop("sessions")
    errors += [e for s in everyone for e in s.errors]
    await clients.close_all(everyone)
    start, samples = time.monotonic(), []
    while time.monotonic() - start < SETTLE_S:
        await asyncio.sleep(SAMPLE_S)
        samples.append((round(time.monotonic() - start), server.rss_mb()))
    errors += await clients.visit(server.url, 999)  # Streamlit keeps the sessions it last served until it next runs
    await asyncio.sleep(SAMPLE_S)
    return v | {"idle_mb": idle, "peak_mb": peak.mb, "during_mb": during, "samples": samples,
                "final_mb": server.rss_mb(), "released": released, "errors": errors}


def attack_row(name: str, path: Path) -> Row:
    """One attack on a fresh server, judged against the budgets."""
    attack, what = ATTACKS[name]
    with started([HOME], warm=[clients.warm]) as (server,):
        if name == "corpus_csvs":  # page 5's first visit loads what every later one shares (references, the treebank)
            asyncio.run(clients.visit(server.url, 998, "Learning"))
        v = asyncio.run(scene(server, attack, path.read_bytes()))
    ceiling, final = v["idle_mb"] + BUDGET_MB + PEAK_MARGIN_MB, v["final_mb"]
    released = sum(v["released"])
    met = (v["peak_mb"] <= ceiling and final <= v["idle_mb"] + FINAL_MARGIN_MB and (name == "ten" or not released)
           and not v["errors"])
    how = (f"{BYSTANDERS} bystanders each upload the {UPLOAD_MB} MB GloVe text file, then {what} ({v['taken']} "
           f"taken{'' if 'codes' not in v else ', HTTP ' + ' '.join(map(str, v['codes']))}); RSS during "
           f"{v['during_mb']:.0f} MB; {released} of the bystanders' uploads released; every tab closed, RSS "
           f"{', '.join(f'{s} s {mb:.0f}' for s, mb in v['samples'])} MB, then {final:.0f} MB once the next visitor "
           f"has opened and closed the home page; {errors(v)}")
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
    cli(run, names=True)
