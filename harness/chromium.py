"""A real Streamlit server on a free loopback port and headless Chromium's settings: what the browser tests and the
load and browser benchmarks share."""
import random
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic",
                 "--no-first-run", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1400, "height": 900}
LOWEST_PORT = 20_000  # of the ports free_port picks from
OUTGOING = Path("/proc/sys/net/ipv4/ip_local_port_range")  # the kernel's ports for outgoing connections
# Counts finished script runs as the browser receives them: Streamlit's ForwardMsg.script_finished (protobuf field 6,
# any status but FINISHED_EARLY_FOR_RERUN = 2), read off the websocket. The page's own running/not-running flag can
# miss a quick run when the browser is busy. Also notes when the DOM last changed.
COUNT_RUNS = """
window.__runs = 0; window.__changed = performance.now();
(() => {
  const varint = (b, i) => {
    let v = 0, s = 0, x;
    do { x = b[i++]; v += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
    return [v, i];
  };
  const finished = buffer => {
    const b = new Uint8Array(buffer); let i = 0;
    while (i < b.length) {
      let key, n; [key, i] = varint(b, i);
      const field = Math.floor(key / 8), wire = key & 7;
      if (wire === 0) { [n, i] = varint(b, i); if (field === 6) return n !== 2; }
      else if (wire === 2) { [n, i] = varint(b, i); i += n; }
      else if (wire === 1) i += 8; else if (wire === 5) i += 4; else return false;
    }
    return false;
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', e => {
        if (e.data instanceof ArrayBuffer && finished(e.data)) window.__runs++;
      });
    }
  };
  new MutationObserver(() => { window.__changed = performance.now(); })
    .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})();
"""
SETTLED = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  if (!app || app.dataset.testScriptState !== 'notRunning') return false;
  if (app.dataset.testConnectionState !== 'CONNECTED') return false;
  if (!document.querySelector('[data-testid=stMain] [data-testid=stElementContainer]')) return false;
  // skeletons: charts still loading
  if (document.querySelector('[data-stale=true], [data-testid=stSkeleton]')) return false;
  if (performance.now() - window.__changed < 300) return false;  // the last message may not be drawn yet
  return [...document.querySelectorAll('[data-testid=stVegaLiteChart]')]
    .every(c => !c.checkVisibility() || c.querySelector('svg, canvas'));
}"""

PENDING = """() => ({
  document: `${document.readyState} ${location.href.slice(0, 200)}: ${(document.body?.innerText || '').slice(0, 200)}`,
  script: document.querySelector('[data-testid=stApp]')?.dataset.testScriptState,
  connection: document.querySelector('[data-testid=stApp]')?.dataset.testConnectionState,
  stale: document.querySelectorAll('[data-stale=true]').length,
  loading: document.querySelectorAll('[data-testid=stSkeleton]').length,
  undrawn: [...document.querySelectorAll('[data-testid=stVegaLiteChart]')]
    .filter(c => c.checkVisibility() && !c.querySelector('svg, canvas')).length,
})"""


CANVAS_DIGEST = """c => {  // a hash of a chart's canvas pixels; null for a chart drawn as SVG
    const g = c.querySelector('canvas');
    if (!g || !g.width || !g.height) return null;
    const px = new Uint32Array(g.getContext('2d').getImageData(0, 0, g.width, g.height).data.buffer);
    let h = 0;
    for (let i = 0; i < px.length; i++) h = (Math.imul(h, 31) + px[i]) | 0;
    return `${g.width}x${g.height}:${h}`;
  }"""


def free_port() -> int:
    """A loopback TCP port nothing listens on now, outside the ports the kernel hands out to outgoing connections."""
    # A port from that range could be taken by a browser's or a client's connection before the server started on
    # it binds it ("Port … is not available"). Where the range leaves no port out (1024–65535 on some hosts), the
    # kernel picks one, as it would for any server.
    low, high = outgoing_ports()
    outside = [*range(LOWEST_PORT, low), *range(high + 1, 65536)]
    for port in random.sample(outside, min(200, len(outside))):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:  # in use, or waiting to close
                continue
            return port
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def outgoing_ports() -> tuple[int, int]:
    """The first and last port the kernel hands out to outgoing connections (Linux's default where it does not say)."""
    if not OUTGOING.exists():
        return 32768, 60999
    low, high = OUTGOING.read_text().split()
    return int(low), int(high)


def start_server(port: int, *options: str, timeout: float = 60) -> subprocess.Popen:
    """`streamlit run dashboard.py [options]` on 127.0.0.1:port, returned once /_stcore/health answers ok."""
    cmd = [sys.executable, "-m", "streamlit", "run", "dashboard.py", "--server.headless", "true",
           "--server.port", str(port), "--server.address", "127.0.0.1", *options]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the Streamlit server exited with code {proc.returncode}:\n{proc.stdout.read()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.read() == b"ok":
                    return proc
        except OSError:
            time.sleep(0.2)
    stop_server(proc)
    raise RuntimeError(f"the Streamlit server did not answer /_stcore/health within {timeout:.0f} s")


def stop_server(proc: subprocess.Popen) -> str:
    """Terminate the server (kill it if it lingers) and return what it printed."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.stdout.read() if proc.stdout else ""
