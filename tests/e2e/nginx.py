"""nginx in front of app servers, from the repository's template (deploy/nginx.conf): rendered
into a temporary folder and run in the foreground as a child; shared by tests/e2e/test_nginx.py
and bench/load.py."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from tests.e2e.appserver import ROOT, _free_port

TEMPLATE = ROOT / "deploy" / "nginx.conf"


def nginx_binary() -> str | None:
    """nginx on PATH or in /usr/sbin (Debian's place, often not on a user's PATH)."""
    found = shutil.which("nginx") or "/usr/sbin/nginx"
    return found if Path(found).is_file() else None


def render(urls: list[str], listen: str, published: Path) -> str:
    """The template with its placeholders filled: one upstream line per app server URL."""
    lines = [f"server {urlparse(u).netloc} max_fails=1 fail_timeout=10s;" for u in urls]
    values = {
        "@SERVERS@": "\n        ".join(lines),
        "@LISTEN@": listen,
        "@PUBLISHED@": str(published),
    }
    out = []
    for line in TEMPLATE.read_text(encoding="utf-8").splitlines():
        if not line.lstrip().startswith("#"):  # the header's comments name the placeholders
            for key, value in values.items():
                line = line.replace(key, value)
        out.append(line)
    return "\n".join(out) + "\n"


@dataclass
class Nginx:
    """A running nginx: its URL, its prefix folder (logs/access.log, logs/error.log)."""

    url: str
    prefix: Path
    proc: subprocess.Popen = field(repr=False)
    # page_for() reads these two like a Server's.
    log: Path = field(init=False)
    stories_dir: Path = field(init=False)

    def __post_init__(self):
        self.log = self.prefix / "logs" / "error.log"
        self.stories_dir = self.prefix

    def upstreams(self, path_prefix: str) -> list[str]:
        """$upstream_addr of every logged request whose path starts with ``path_prefix``."""
        out = []
        for line in (self.prefix / "logs" / "access.log").read_text().splitlines():
            request = line.split('"')[1].split(" ")
            if len(request) > 1 and request[1].startswith(path_prefix):
                out.append(line.split("upstream=", 1)[1].split(" route=")[0])
        return out


def start_nginx(prefix: Path, urls: list[str], published: Path, port: int | None = None) -> Nginx:
    """nginx (``daemon off``, a child of this process) on ``port`` (a free one by default) in
    front of ``urls``, once it answers."""
    exe = nginx_binary()
    if exe is None:
        raise RuntimeError("nginx is missing: apt-get install nginx-light")
    port = port or _free_port()
    for sub in ("logs", "temp"):
        (prefix / sub).mkdir(parents=True, exist_ok=True)
    conf = prefix / "nginx.conf"
    conf.write_text(render(urls, f"127.0.0.1:{port}", published), encoding="utf-8")
    # As root the workers would run as "nobody", who cannot read the test's private folders.
    glob = "daemon off;" + (" user root;" if os.geteuid() == 0 else "")
    cmd = [exe, "-p", f"{prefix}/", "-c", str(conf), "-e", "stderr", "-g", glob]
    with (prefix / "logs" / "stderr.log").open("wb") as fh:
        proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT)
    srv = Nginx(f"http://127.0.0.1:{port}", prefix, proc)
    deadline = time.monotonic() + 30
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"nginx exited: {(prefix / 'logs' / 'stderr.log').read_text()}")
        try:
            with urllib.request.urlopen(f"{srv.url}/_stcore/health", timeout=2):
                return srv
        except urllib.error.HTTPError:
            return srv  # nginx answers (502 while no app server is up yet)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        assert time.monotonic() < deadline, "nginx did not answer in 30 s"
        time.sleep(0.1)  # poll interval of nginx's start, not a wait for a page


def stop_nginx(srv: Nginx) -> None:
    srv.proc.terminate()  # SIGTERM: fast shutdown
    try:
        srv.proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        srv.proc.kill()
