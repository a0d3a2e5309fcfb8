"""The hosting recipe for real: Dockerfile and deploy/compose.yaml built and run by Docker, checked as a browser is."""
import argparse
import asyncio
import base64
import hashlib
import json
import os
import re
import subprocess
import time
import urllib.request

from bench.clients import Student
from bench.common import ROOT, Row, clocked, seconds, table
from bench.servers import wait_health

COMPOSE = ["docker", "compose", "-f", str(ROOT / "deploy" / "compose.yaml")]
IMAGE, BASES = "attention-dashboard", ("python:3.11-slim", "nginx:stable-alpine")
OFFLINE = "attention-dashboard-offline"
VISITORS_PER_REPLICA, MAX_VISITORS, HEALTHY_TIMEOUT_S = 4, 30, 180
SECURITY = {"x-frame-options": "SAMEORIGIN", "x-content-type-options": "nosniff"}
PRESENT = ("content-security-policy", "referrer-policy")

# Run inside the offline container: one session of the home page over Streamlit's websocket (websockets comes with
# Streamlit's server), so a page is drawn there with no network; its element count and exceptions as JSON.
RENDER = """
import json
from websockets.sync.client import connect
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

with connect("ws://127.0.0.1:8501/_stcore/stream", subprotocols=["streamlit"], origin="http://127.0.0.1:8501",
             max_size=None) as ws:
    msg = BackMsg()
    msg.rerun_script.query_string = "sentence=The+black+cat+drank+the+milk"
    ws.send(msg.SerializeToString())
    elements, errors = 0, []
    while True:
        fwd = ForwardMsg.FromString(ws.recv(timeout=60))
        if fwd.WhichOneof("type") == "delta" and fwd.delta.WhichOneof("type") == "new_element":
            elements += 1
            if fwd.delta.new_element.WhichOneof("type") == "exception":
                errors.append(fwd.delta.new_element.exception.message[:120])
        if fwd.WhichOneof("type") == "script_finished" and fwd.script_finished != 2:  # 2: cut short by a rerun
            break
print(json.dumps({"elements": elements, "errors": errors}))
"""
VECTORS = ("from engine.sources import load_glove; kv = load_glove(); "
           "print(len(kv), 'words; milk:', ', '.join(w for w, _ in kv.most_similar('milk', topn=3)))")


def sh(*args: str, stdin: str | None = None, env: dict | None = None) -> str:
    """Run a command, fail loudly with its output; its stdout."""
    done = subprocess.run(args, input=stdin, capture_output=True, text=True, env={**os.environ, **(env or {})},
                          check=False)
    if done.returncode:
        output = done.stdout[-2000:] + done.stderr[-2000:]
        raise RuntimeError(f"{' '.join(args)} exited with {done.returncode}:\n{output}")
    return done.stdout


def bases() -> str:
    """Make sure both base images exist (pull, else the offline stand-ins); which kind they are."""
    missing = [b for b in BASES if subprocess.run(["docker", "image", "inspect", b], capture_output=True).returncode]
    if any(subprocess.run(["docker", "pull", b], capture_output=True, check=False).returncode for b in missing):
        sh("bash", str(ROOT / "bench" / "docker_standins.sh"))
    labels = [sh("docker", "image", "inspect", "-f", '{{index .Config.Labels "attention.standin"}}', b).strip()
              for b in BASES]
    return "offline stand-ins (bench/docker_standins.sh)" if any(labels) else "the real images"


def build(kind: str, cold: bool) -> Row:
    """docker compose build: the seconds it took and the image's size."""
    (took,), _ = clocked(lambda: sh(*COMPOSE, "build", *(["--no-cache"] if cold else []), "app"))
    size = int(sh("docker", "image", "inspect", "-f", "{{.Size}}", IMAGE)) / 1e9
    cache = "--no-cache: every layer built, PyPI and Debian's mirror reached" if cold else "layer cache as it stands"
    return Row("compose · image", f"`docker compose build` ({cache}) on {kind}; size from docker image inspect",
               f"{size:.2f} GB, built in {seconds(took)}", values={"bytes": size * 1e9, "s": took})


def up(replicas: int, port: int) -> Row:
    """docker compose up -d, which waits for every replica's HEALTHCHECK, until nginx answers health."""
    start = time.perf_counter()
    sh(*COMPOSE, "up", "-d", "--no-build", env={"REPLICAS": str(replicas), "PORT": str(port)})
    wait_health(f"http://127.0.0.1:{port}", HEALTHY_TIMEOUT_S)
    took = time.perf_counter() - start
    healthy = [health(c) for c in containers("app")]
    return Row("compose · healthy", f"`up -d` (nginx starts once all {replicas} replicas pass the Dockerfile's "
               "HEALTHCHECK, whose first probe comes one 15 s interval after start) until /_stcore/health answers "
               "ok through nginx", f"{seconds(took)}; {', '.join(healthy)}", met=set(healthy) == {"healthy"},
               values={"s": took})


def containers(service: str) -> list[str]:
    """The names of a service's running containers."""
    ids = sh(*COMPOSE, "ps", "-q", service).split()
    return sorted(sh("docker", "inspect", "-f", "{{.Name}}", *ids).replace("/", "").split()) if ids else []


def health(name: str) -> str:
    """A container's health status."""
    return sh("docker", "inspect", "-f", "{{.State.Health.Status}}", name).strip()


def uids(name: str) -> set[str]:
    """The user ids of every process in a container."""
    rows = sh("docker", "top", name, "-eo", "pid,uid").splitlines()[1:]  # docker top insists on the pid column
    return {row.split()[1] for row in rows}


def users() -> Row:
    """Every replica's processes run as the image's user 10001; nginx's workers noted beside."""
    apps = {name: uids(name) for name in containers("app")}
    workers = uids(containers("nginx")[0]) - {"0"}  # the master stays root to bind the port, as nginx does
    return Row("compose · user", "uids of every process in each replica (docker top); nginx workers beside",
               f"app: {', '.join('/'.join(sorted(u)) for u in apps.values())}; nginx workers: {'/'.join(workers)}",
               budget="10001 only", met=all(u == {"10001"} for u in apps.values()))


def get(url: str, cookie: str = "") -> tuple[dict[str, str], bytes]:
    """Headers (lower-case names) and body of a GET, with the visitor's cookie."""
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {}),
                                timeout=30) as r:
        return {k.lower(): v for k, v in r.headers.items()}, r.read()


def headers(url: str) -> Row:
    """The security headers on the page, and the CSP allowing the page's one inline script."""
    seen, html = get(url + "/")
    ok = SECURITY.items() <= seen.items() and all(seen.get(h) for h in PRESENT)
    scripts = re.findall(rb"<script>(.*?)</script>", html, flags=re.DOTALL)
    hashes = [f"'sha256-{base64.b64encode(hashlib.sha256(s).digest()).decode()}'" for s in scripts]
    inline = all(h in seen.get("content-security-policy", "") for h in hashes)
    names = ", ".join(f"{h}: {seen[h] if h in SECURITY else 'present'}" for h in (*SECURITY, *PRESENT) if h in seen)
    return Row("compose · headers", "GET / through nginx: X-Frame-Options, X-Content-Type-Options, CSP, "
               "Referrer-Policy; the CSP's script hash against the page's inline script",
               f"{names}; inline script hash in CSP: {'yes' if inline else 'no'}", met=ok and inline,
               values={"headers": seen})


async def visit(url: str, seed: int) -> tuple[list[str], Student]:
    """One visitor: page, websocket session, an edit, more requests with its cookie; every X-Upstream it saw."""
    student, seen = Student(url, seed), []
    try:
        await student.open()
        seen += [student.upstream, student.ws.response.headers.get("X-Upstream")]
        await student.edit()
        for path in ("/_stcore/health", "/_stcore/host-config", "/"):
            seen.append((await asyncio.to_thread(get, url + path, student.cookie))[0].get("x-upstream"))
    except Exception as e:  # counted in the websocket row rather than ending the run
        student.errors.append(f"{type(e).__name__}: {e}"[:160])
    finally:
        await student.close()
    return seen or [None], student


async def visitors(url: str, replicas: set[str]) -> list[tuple[list[str], Student]]:
    """Visitors one after another, at least VISITORS_PER_REPLICA per replica, until the first ones cover all."""
    done = []
    while len(done) < MAX_VISITORS and (len(done) < VISITORS_PER_REPLICA * len(replicas)
                                         or {seen[0] for seen, _ in done} < replicas):
        done.append(await visit(url, seed=len(done)))
    return done


def routing(url: str) -> list[Row]:
    """Stickiness (each cookie stays on one replica, websocket included), spread, and websocket sessions."""
    network = "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}"  # each replica as nginx's X-Upstream names it
    replicas = {sh("docker", "inspect", "-f", network, name).strip() + ":8501" for name in containers("app")}
    done = asyncio.run(visitors(url, replicas))
    sticky = all(len(set(seen)) == 1 for seen, _ in done)
    spread = {r: sum(seen[0] == r for seen, _ in done) for r in sorted(replicas)}
    edits = [t for _, s in done for t in s.latencies]
    errors = [e for _, s in done for e in s.errors]
    ws_ok = not errors and len(edits) == len(done)
    return [
        Row("compose · stickiness", f"{len(done)} visitors, each with its own st_route cookie: page, websocket, an "
            "edit, health, host-config, page again; X-Upstream of each", f"held: {'yes' if sticky else 'no'}; "
            f"first visits per replica {'/'.join(str(n) for n in spread.values())}",
            budget="one replica per cookie, every replica used", met=sticky and all(spread.values()),
            values={"upstreams": [seen for seen, _ in done]}),
        Row("compose · websocket", "ws://…/_stcore/stream through nginx, subprotocol streamlit, a first run and one "
            "sentence edit per visitor (bench.capacity.Student)", f"{len(edits)}/{len(done)} sessions ran and edited, "
            f"edit median {seconds(sorted(edits)[len(edits) // 2]) if edits else '—'}, {len(errors)} errors",
            met=ws_ok, values={"latencies_s": edits, "errors": errors}),
    ]


def memory() -> Row:
    """Memory of every replica as docker stats reports it, after the visits."""
    names = containers("app")
    stats = sh("docker", "stats", "--no-stream", "--format", "{{.Name}}\t{{.MemUsage}}", *names)
    usage = dict(line.split("\t") for line in stats.strip().splitlines())
    return Row("compose · memory per replica", "docker stats --no-stream after the visits (cgroup memory, page "
               "cache excluded)", ", ".join(f"{n.removeprefix('attention-dashboard-')}: {usage[n].split(' / ')[0]}"
                                             for n in names), values=usage)


def offline() -> Row:
    """The image with no network at all: GloVe loads, the health check passes and a page is drawn."""
    vectors = sh("docker", "run", "--rm", "--network", "none", IMAGE, "python", "-c", VECTORS).strip()
    subprocess.run(["docker", "rm", "-f", OFFLINE], capture_output=True, check=False)
    sh("docker", "run", "-d", "--network", "none", "--name", OFFLINE, IMAGE)
    try:
        end = time.monotonic() + HEALTHY_TIMEOUT_S
        while health(OFFLINE) != "healthy" and time.monotonic() < end:
            time.sleep(1)
        status = health(OFFLINE)
        page = json.loads(sh("docker", "exec", "-i", OFFLINE, "python", "-", stdin=RENDER))
    finally:
        subprocess.run(["docker", "rm", "-f", OFFLINE], capture_output=True, check=False)
    ok = status == "healthy" and page["elements"] > 0 and not page["errors"] and vectors.startswith("400000")
    return Row("compose · offline", "docker run --network none: load_glove() and most_similar; then the "
               "container's HEALTHCHECK and one home-page run over its websocket from inside",
               f"vectors: {vectors[:80]}; health {status}; page drew {page['elements']} elements, "
               f"{len(page['errors'])} exceptions", met=ok, values={"vectors": vectors, **page})


def run(replicas: int, port: int, cold: bool) -> list[Row]:
    """Every row, with the project brought down whatever happens."""
    rows = [build(bases(), cold)]
    try:
        rows.append(up(replicas, port))
        url = f"http://127.0.0.1:{port}"
        rows += [users(), headers(url), *routing(url), memory()]
    finally:
        sh(*COMPOSE, "down", "--remove-orphans", env={"REPLICAS": str(replicas), "PORT": str(port)})
    return rows + [offline()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8080")))
    parser.add_argument("--no-cache", action="store_true", help="build every layer again (a cold build's time)")
    args = parser.parse_args()
    began = time.perf_counter()
    rows = run(args.replicas, args.port, args.no_cache)
    print(table(rows))
    print(f"\n{args.replicas} replicas, {sh('docker', 'compose', 'version', '--short').strip()} (compose), engine "
          f"{sh('docker', 'version', '-f', '{{.Server.Version}}').strip()}; {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
