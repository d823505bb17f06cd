"""A throw-away PostgreSQL + PostGIS cluster for the tests: initdb in a temporary folder, a free
port, pg_ctl start, CREATE EXTENSION postgis; stopped and removed afterwards. No mock."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

PG_BIN = Path("/usr/lib/postgresql/15/bin")
POSTGIS_CONTROL = Path("/usr/share/postgresql/15/extension/postgis.control")
INSTALL_HINT = "apt-get install -y postgresql-15-postgis-3 (.ci/run and dev.py test do it as root)"


def pg_binary(name: str) -> Path | None:
    """A PostgreSQL program from Debian's versioned folder, else from PATH."""
    if (PG_BIN / name).is_file():
        return PG_BIN / name
    found = shutil.which(name)
    return Path(found) if found else None


def missing() -> str | None:
    """Why no cluster can be started here (None when one can)."""
    for name in ("initdb", "pg_ctl", "postgres"):
        if pg_binary(name) is None:
            return f"PostgreSQL's {name} is not installed ({INSTALL_HINT})"
    initdb = pg_binary("initdb")
    share = POSTGIS_CONTROL if initdb and initdb.parent == PG_BIN else None
    if share is not None and not share.is_file():
        return f"PostGIS is not installed ({INSTALL_HINT})"
    if os.geteuid() == 0 and not shutil.which("runuser"):
        return "running as root without runuser: initdb refuses root"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_owner(cmd: list[str]) -> list[str]:
    # initdb and postgres refuse to run as root: as root, the cluster belongs to "postgres".
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def _run(cmd: list[str]) -> None:
    proc = subprocess.run(_as_owner(cmd), capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"{Path(cmd[0]).name} failed: {proc.stderr.strip() or proc.stdout}")


@contextlib.contextmanager
def cluster() -> Iterator[str]:
    """Start a cluster and yield its URL (database ``dateline`` with PostGIS)."""
    import psycopg

    folder = Path(tempfile.mkdtemp(prefix="dateline-pg-"))
    data, port = folder / "data", _free_port()
    if os.geteuid() == 0:
        pw = pwd.getpwnam("postgres")
        os.chown(folder, pw.pw_uid, pw.pw_gid)
    initdb, pg_ctl = str(pg_binary("initdb")), str(pg_binary("pg_ctl"))
    try:
        _run([initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "-N"])
        opts = f"-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='{folder}'"
        opts += " -c fsync=off"  # a throw-away cluster: no need to survive a power cut
        _run([pg_ctl, "-D", str(data), "-o", opts, "-l", str(folder / "log"), "-w", "start"])
        try:
            admin = f"postgresql://postgres@127.0.0.1:{port}/postgres"
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute("CREATE DATABASE dateline")
            url = f"postgresql://postgres@127.0.0.1:{port}/dateline"
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("CREATE EXTENSION postgis")
            yield url
        finally:
            _run([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
