"""Start the dashboard under ``streamlit run`` and find system Chromium: shared by the browser
tests, the benchmark and the README screenshot script."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
APP_READY = "[data-testid='stApp'][data-test-script-state='notRunning']"
MAP_FRAME = "iframe[title='streamlit_folium.st_folium']"
# The map page's first run draws the map first and says this in the sidebar until the whole page
# is drawn (app.py: LOADING_TEXT).
FIRST_RUN_TEXT = "Filters and layers appear once the map is drawn"


def wait_whole_page(page, timeout_ms: int = 60_000) -> None:
    """Wait until a newly opened page is drawn whole and idle: on the map page, the run that
    the map asks for once it has painted has come and ended."""
    from playwright.sync_api import expect

    page.wait_for_selector(APP_READY, timeout=timeout_ms)
    expect(page.get_by_text(FIRST_RUN_TEXT)).to_have_count(0, timeout=timeout_ms)
    page.wait_for_selector(APP_READY, timeout=timeout_ms)


class ChromiumMissing(RuntimeError):
    """Raised when no Chromium binary can be found."""


def chromium_path() -> str:
    """System Chromium: $CHROMIUM_PATH, /usr/bin/chromium, or chromium on PATH."""
    for candidate in (
        os.environ.get("CHROMIUM_PATH"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    raise ChromiumMissing(
        "Chromium not found. Browser tests need it: on Debian/Ubuntu run "
        "`sudo apt-get install chromium`, or set CHROMIUM_PATH to a Chromium/Chrome binary."
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    """A running ``streamlit run app.py``."""

    url: str
    log: Path
    stories_dir: Path
    proc: subprocess.Popen = field(repr=False)


def start_server(
    tmp: Path,
    env_extra: dict[str, str] | None = None,
    script: str | Path = "app.py",
    root: Path = ROOT,
    port: int | None = None,
) -> Server:
    """``serve.py script`` (``streamlit run``, from the checkout ``root``) on ``port`` (a free
    one by default), once it answers healthy."""
    port = port or _free_port()
    log = tmp / f"streamlit-{port}.log"
    stories = tmp / "user-stories"
    stories.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "DATELINE_STORIES_DIR": str(stories),
        "DATELINE_CACHE_DIR": str(tmp),
        **(env_extra or {}),
    }
    env.pop("DATELINE_ONLINE_TILES", None)
    env.pop("DATELINE_ONLINE_GEOCODER", None)
    # As dev.py run starts it: serve.py is streamlit run with the libraries loaded meanwhile.
    cmd = [
        sys.executable,
        str(root / "serve.py"),
        str(script),
        "--server.headless",
        "true",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        # The checkout is not watched: an edit made while the suite runs must not change it.
        "--server.fileWatcherType",
        "none",
    ]
    with log.open("wb") as fh:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=fh, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited early:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.read().decode().strip() == "ok":
                    break
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"streamlit did not become healthy in 90 s:\n{log.read_text()}")
        time.sleep(0.2)  # poll interval of the health check, not a wait for the page
    return Server(url, log, stories, proc)


def stop_server(server: Server) -> None:
    server.proc.terminate()
    try:
        server.proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.proc.kill()
