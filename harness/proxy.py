"""nginx with deploy/nginx/nginx.conf (the one a host runs) in front of Streamlit processes on this machine, for tests
and benchmarks."""
import shutil
import subprocess
from pathlib import Path

NGINX = Path("/usr/sbin/nginx")
CONF = Path(__file__).resolve().parents[1] / "deploy" / "nginx" / "nginx.conf"


def command(workdir: Path, backends: list[str], listen: str) -> list[str]:
    """Copy nginx.conf into workdir beside this setup's two includes; the command that runs it in the foreground."""
    shutil.copy(CONF, workdir / "nginx.conf")
    (workdir / "upstreams.conf").write_text("".join(f"server {address};\n" for address in backends))
    (workdir / "listen.conf").write_text(f"listen {listen};\n")
    return [str(NGINX), "-c", str(workdir / "nginx.conf"), "-p", f"{workdir}/", "-e", "stderr",
            "-g", f"daemon off; pid {workdir}/nginx.pid;"]


def start(workdir: Path, backends: list[str], listen: str) -> subprocess.Popen:
    """nginx on `listen` (e.g. 127.0.0.1:8080) in front of `backends` (host:port); its log is workdir/nginx.log."""
    cmd = command(workdir, backends, listen)
    checked = subprocess.run([*cmd, "-t"], capture_output=True, text=True)
    if checked.returncode:
        raise RuntimeError(f"nginx refused {workdir / 'nginx.conf'}: {checked.stderr}")
    with open(workdir / "nginx.log", "wb") as log:
        return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
